"""DeleteRecordsResponse: generated from Kafka 3.9.2 and 4.4.0's DeleteRecordsResponse.json by
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
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteRecordsResponse", "DeleteRecordsTopicResult", "DeleteRecordsPartitionResult"]

_S0 = Struct(">i")
_S1 = Struct(">iqh")


@dataclass(slots=True)
class DeleteRecordsPartitionResult:
    """Each partition that we wanted to delete records from."""

    partition_index: int = 0
    # versions 0+. The partition index.
    low_watermark: int = 0
    # versions 0+. The partition low water mark.
    error_code: int = 0
    # versions 0+. The deletion error code, or 0 if the deletion succeeded.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteRecordsTopicResult:
    """Each topic that we wanted to delete records from."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[DeleteRecordsPartitionResult] = field(default_factory=list)
    # versions 0+. Each partition that we wanted to delete records from.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteRecordsResponse(ApiMessage):
    """DeleteRecordsResponse response"""

    API_KEY: ClassVar[int] = 21
    NAME: ClassVar[str] = "DeleteRecordsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[DeleteRecordsTopicResult] = field(default_factory=list)
    # versions 0+. Each topic that we wanted to delete records from.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteRecordsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteRecordsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteRecordsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteRecordsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteRecordsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_records_partition_result_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsPartitionResult, int]:
    f_partition_index, f_low_watermark, f_error_code = _S1.unpack_from(buf, pos)
    pos += 14
    return DeleteRecordsPartitionResult(f_partition_index, f_low_watermark, f_error_code, []), pos


def _decode_delete_records_topic_result_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsTopicResult, int]:
    f_name: str
    f_partitions: list[DeleteRecordsPartitionResult]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_delete_records_partition_result_v0(buf, pos)
            f_partitions.append(e_partitions)
    return DeleteRecordsTopicResult(f_name, f_partitions, []), pos


def _decode_delete_records_response_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsResponse, int]:
    f_topics: list[DeleteRecordsTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_records_topic_result_v0(buf, pos)
            f_topics.append(e_topics)
    return DeleteRecordsResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_delete_records_partition_result_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsPartitionResult, int]:
    f_partition_index, f_low_watermark, f_error_code = _S1.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsPartitionResult(f_partition_index, f_low_watermark, f_error_code, _unknown), pos


def _decode_delete_records_topic_result_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsTopicResult, int]:
    f_name: str
    f_partitions: list[DeleteRecordsPartitionResult]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_delete_records_partition_result_v2(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsTopicResult(f_name, f_partitions, _unknown), pos


def _decode_delete_records_response_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsResponse, int]:
    f_topics: list[DeleteRecordsTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_records_topic_result_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_delete_records_partition_result_v0(m: DeleteRecordsPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.low_watermark, m.error_code)


def _encode_delete_records_topic_result_v0(m: DeleteRecordsTopicResult, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_delete_records_partition_result_v0(e_partitions, out)


def _encode_delete_records_response_v0(m: DeleteRecordsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_delete_records_topic_result_v0(e_topics, out)


def _encode_delete_records_partition_result_v2(m: DeleteRecordsPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.low_watermark, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_records_topic_result_v2(m: DeleteRecordsTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_delete_records_partition_result_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_records_response_v2(m: DeleteRecordsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_delete_records_topic_result_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteRecordsResponse, int]]] = {
    0: _decode_delete_records_response_v0,
    1: _decode_delete_records_response_v0,
    2: _decode_delete_records_response_v2,
}
_ENCODERS: dict[int, Callable[[DeleteRecordsResponse, bytearray], None]] = {
    0: _encode_delete_records_response_v0,
    1: _encode_delete_records_response_v0,
    2: _encode_delete_records_response_v2,
}
