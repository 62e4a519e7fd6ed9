"""AddPartitionsToTxnResponse: generated from Kafka 3.9.2 and 4.4.0's AddPartitionsToTxnResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AddPartitionsToTxnResponse", "AddPartitionsToTxnResult", "AddPartitionsToTxnTopicResult", "AddPartitionsToTxnPartitionResult"]

_S0 = Struct(">i")
_S1 = Struct(">ih")


@dataclass(slots=True)
class AddPartitionsToTxnPartitionResult:
    """A AddPartitionsToTxnPartitionResult in AddPartitionsToTxnResponse."""

    partition_index: int = 0
    # versions 0+. The partition indexes.
    partition_error_code: int = 0
    # versions 0+. The response error code.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddPartitionsToTxnTopicResult:
    """A AddPartitionsToTxnTopicResult in AddPartitionsToTxnResponse."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    results_by_partition: list[AddPartitionsToTxnPartitionResult] = field(default_factory=list)
    # versions 0+. The results for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddPartitionsToTxnResult:
    """Results categorized by transactional ID."""

    transactional_id: str = ''
    # versions 4+; entity transactionalId. The transactional id corresponding to the transaction.
    topic_results: list[AddPartitionsToTxnTopicResult] = field(default_factory=list)
    # versions 4+. The results for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddPartitionsToTxnResponse(ApiMessage):
    """AddPartitionsToTxnResponse response"""

    API_KEY: ClassVar[int] = 24
    NAME: ClassVar[str] = "AddPartitionsToTxnResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    throttle_time_ms: int = 0
    # versions 0+. Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 4+; ignorable. The response top level error code.
    results_by_transaction: list[AddPartitionsToTxnResult] = field(default_factory=list)
    # versions 4+. Results categorized by transactional ID.
    results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult] = field(default_factory=list)
    # versions 0-3. The results for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddPartitionsToTxnResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AddPartitionsToTxnResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddPartitionsToTxnResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AddPartitionsToTxnResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AddPartitionsToTxnResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_add_partitions_to_txn_partition_result_v0(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnPartitionResult, int]:
    f_partition_index, f_partition_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return AddPartitionsToTxnPartitionResult(f_partition_index, f_partition_error_code, []), pos


def _decode_add_partitions_to_txn_topic_result_v0(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnTopicResult, int]:
    f_name: str
    f_results_by_partition: list[AddPartitionsToTxnPartitionResult]
    f_name, pos = read_string(buf, pos, "name")
    n_results_by_partition, pos = read_array_length(buf, pos)
    if n_results_by_partition < 0:
        raise null_field("resultsByPartition")
    else:
        f_results_by_partition = []
        for _ in range(n_results_by_partition):
            e_results_by_partition, pos = _decode_add_partitions_to_txn_partition_result_v0(buf, pos)
            f_results_by_partition.append(e_results_by_partition)
    return AddPartitionsToTxnTopicResult(f_name, f_results_by_partition, []), pos


def _decode_add_partitions_to_txn_response_v0(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    f_results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results_by_topic_v3_and_below, pos = read_array_length(buf, pos)
    if n_results_by_topic_v3_and_below < 0:
        raise null_field("resultsByTopicV3AndBelow")
    else:
        f_results_by_topic_v3_and_below = []
        for _ in range(n_results_by_topic_v3_and_below):
            e_results_by_topic_v3_and_below, pos = _decode_add_partitions_to_txn_topic_result_v0(buf, pos)
            f_results_by_topic_v3_and_below.append(e_results_by_topic_v3_and_below)
    return AddPartitionsToTxnResponse(f_throttle_time_ms, 0, [], f_results_by_topic_v3_and_below, []), pos


def _decode_add_partitions_to_txn_partition_result_v3(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnPartitionResult, int]:
    f_partition_index, f_partition_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnPartitionResult(f_partition_index, f_partition_error_code, _unknown), pos


def _decode_add_partitions_to_txn_topic_result_v3(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnTopicResult, int]:
    f_name: str
    f_results_by_partition: list[AddPartitionsToTxnPartitionResult]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_results_by_partition, pos = read_compact_array_length(buf, pos)
    if n_results_by_partition < 0:
        raise null_field("resultsByPartition")
    else:
        f_results_by_partition = []
        for _ in range(n_results_by_partition):
            e_results_by_partition, pos = _decode_add_partitions_to_txn_partition_result_v3(buf, pos)
            f_results_by_partition.append(e_results_by_partition)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnTopicResult(f_name, f_results_by_partition, _unknown), pos


def _decode_add_partitions_to_txn_response_v3(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    f_results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results_by_topic_v3_and_below, pos = read_compact_array_length(buf, pos)
    if n_results_by_topic_v3_and_below < 0:
        raise null_field("resultsByTopicV3AndBelow")
    else:
        f_results_by_topic_v3_and_below = []
        for _ in range(n_results_by_topic_v3_and_below):
            e_results_by_topic_v3_and_below, pos = _decode_add_partitions_to_txn_topic_result_v3(buf, pos)
            f_results_by_topic_v3_and_below.append(e_results_by_topic_v3_and_below)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnResponse(f_throttle_time_ms, 0, [], f_results_by_topic_v3_and_below, _unknown), pos


def _decode_add_partitions_to_txn_result_v4(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnResult, int]:
    f_transactional_id: str
    f_topic_results: list[AddPartitionsToTxnTopicResult]
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    n_topic_results, pos = read_compact_array_length(buf, pos)
    if n_topic_results < 0:
        raise null_field("topicResults")
    else:
        f_topic_results = []
        for _ in range(n_topic_results):
            e_topic_results, pos = _decode_add_partitions_to_txn_topic_result_v3(buf, pos)
            f_topic_results.append(e_topic_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnResult(f_transactional_id, f_topic_results, _unknown), pos


def _decode_add_partitions_to_txn_response_v4(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    f_results_by_transaction: list[AddPartitionsToTxnResult]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_results_by_transaction, pos = read_compact_array_length(buf, pos)
    if n_results_by_transaction < 0:
        raise null_field("resultsByTransaction")
    else:
        f_results_by_transaction = []
        for _ in range(n_results_by_transaction):
            e_results_by_transaction, pos = _decode_add_partitions_to_txn_result_v4(buf, pos)
            f_results_by_transaction.append(e_results_by_transaction)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnResponse(f_throttle_time_ms, f_error_code, f_results_by_transaction, [], _unknown), pos


def _encode_add_partitions_to_txn_partition_result_v0(m: AddPartitionsToTxnPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.partition_error_code)


def _encode_add_partitions_to_txn_topic_result_v0(m: AddPartitionsToTxnTopicResult, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.results_by_partition))
    for e_results_by_partition in m.results_by_partition:
        _encode_add_partitions_to_txn_partition_result_v0(e_results_by_partition, out)


def _encode_add_partitions_to_txn_response_v0(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_transaction) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTransaction", 0)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results_by_topic_v3_and_below))
    for e_results_by_topic_v3_and_below in m.results_by_topic_v3_and_below:
        _encode_add_partitions_to_txn_topic_result_v0(e_results_by_topic_v3_and_below, out)


def _encode_add_partitions_to_txn_response_v1(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_transaction) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTransaction", 1)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results_by_topic_v3_and_below))
    for e_results_by_topic_v3_and_below in m.results_by_topic_v3_and_below:
        _encode_add_partitions_to_txn_topic_result_v0(e_results_by_topic_v3_and_below, out)


def _encode_add_partitions_to_txn_response_v2(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_transaction) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTransaction", 2)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results_by_topic_v3_and_below))
    for e_results_by_topic_v3_and_below in m.results_by_topic_v3_and_below:
        _encode_add_partitions_to_txn_topic_result_v0(e_results_by_topic_v3_and_below, out)


def _encode_add_partitions_to_txn_partition_result_v3(m: AddPartitionsToTxnPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.partition_error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_topic_result_v3(m: AddPartitionsToTxnTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.results_by_partition) + 1)
    for e_results_by_partition in m.results_by_partition:
        _encode_add_partitions_to_txn_partition_result_v3(e_results_by_partition, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_response_v3(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_transaction) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTransaction", 3)
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results_by_topic_v3_and_below) + 1)
    for e_results_by_topic_v3_and_below in m.results_by_topic_v3_and_below:
        _encode_add_partitions_to_txn_topic_result_v3(e_results_by_topic_v3_and_below, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_result_v4(m: AddPartitionsToTxnResult, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    write_uvarint(out, len(m.topic_results) + 1)
    for e_topic_results in m.topic_results:
        _encode_add_partitions_to_txn_topic_result_v3(e_topic_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_response_v4(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_topic_v3_and_below) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTopicV3AndBelow", 4)
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.results_by_transaction) + 1)
    for e_results_by_transaction in m.results_by_transaction:
        _encode_add_partitions_to_txn_result_v4(e_results_by_transaction, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_response_v5(m: AddPartitionsToTxnResponse, out: bytearray) -> None:
    if len(m.results_by_topic_v3_and_below) > 0:
        raise version_error("AddPartitionsToTxnResponse", "ResultsByTopicV3AndBelow", 5)
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.results_by_transaction) + 1)
    for e_results_by_transaction in m.results_by_transaction:
        _encode_add_partitions_to_txn_result_v4(e_results_by_transaction, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AddPartitionsToTxnResponse, int]]] = {
    0: _decode_add_partitions_to_txn_response_v0,
    1: _decode_add_partitions_to_txn_response_v0,
    2: _decode_add_partitions_to_txn_response_v0,
    3: _decode_add_partitions_to_txn_response_v3,
    4: _decode_add_partitions_to_txn_response_v4,
    5: _decode_add_partitions_to_txn_response_v4,
}
_ENCODERS: dict[int, Callable[[AddPartitionsToTxnResponse, bytearray], None]] = {
    0: _encode_add_partitions_to_txn_response_v0,
    1: _encode_add_partitions_to_txn_response_v1,
    2: _encode_add_partitions_to_txn_response_v2,
    3: _encode_add_partitions_to_txn_response_v3,
    4: _encode_add_partitions_to_txn_response_v4,
    5: _encode_add_partitions_to_txn_response_v5,
}
