"""ReadShareGroupStateSummaryResponse: generated from Kafka 3.9.2 and 4.4.0's ReadShareGroupStateSummaryResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_nullable_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ReadShareGroupStateSummaryResponse", "ReadStateSummaryResult", "PartitionResult"]

_S0 = Struct(">ih")
_S1 = Struct(">iiq")
_S2 = Struct(">iiqi")


@dataclass(slots=True)
class PartitionResult:
    """The results for the partitions."""

    partition: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The error message, or null if there was no error.
    state_epoch: int = 0
    # versions 0+. The state epoch of the share-partition.
    start_offset: int = 0
    # versions 0+. The share-partition start offset.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of the share-partition.
    delivery_complete_count: int = -1
    # versions 1+; ignorable. The number of offsets greater than or equal to share-partition start offset for which delivery has been completed.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReadStateSummaryResult:
    """The read results."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The topic identifier.
    partitions: list[PartitionResult] = field(default_factory=list)
    # versions 0+. The results for the partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReadShareGroupStateSummaryResponse(ApiMessage):
    """ReadShareGroupStateSummaryResponse response"""

    API_KEY: ClassVar[int] = 87
    NAME: ClassVar[str] = "ReadShareGroupStateSummaryResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    results: list[ReadStateSummaryResult] = field(default_factory=list)
    # versions 0+. The read results.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ReadShareGroupStateSummaryResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ReadShareGroupStateSummaryResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ReadShareGroupStateSummaryResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ReadShareGroupStateSummaryResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ReadShareGroupStateSummaryResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_result_v0(buf: memoryview, pos: int) -> tuple[PartitionResult, int]:
    f_error_message: str | None
    f_partition, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_state_epoch, f_leader_epoch, f_start_offset = _S1.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionResult(f_partition, f_error_code, f_error_message, f_state_epoch, f_start_offset, f_leader_epoch, -1, _unknown), pos


def _decode_read_state_summary_result_v0(buf: memoryview, pos: int) -> tuple[ReadStateSummaryResult, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionResult]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_result_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReadStateSummaryResult(f_topic_id, f_partitions, _unknown), pos


def _decode_read_share_group_state_summary_response_v0(buf: memoryview, pos: int) -> tuple[ReadShareGroupStateSummaryResponse, int]:
    f_results: list[ReadStateSummaryResult]
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_read_state_summary_result_v0(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReadShareGroupStateSummaryResponse(f_results, _unknown), pos


def _decode_partition_result_v1(buf: memoryview, pos: int) -> tuple[PartitionResult, int]:
    f_error_message: str | None
    f_partition, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count = _S2.unpack_from(buf, pos)
    pos += 20
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionResult(f_partition, f_error_code, f_error_message, f_state_epoch, f_start_offset, f_leader_epoch, f_delivery_complete_count, _unknown), pos


def _decode_read_state_summary_result_v1(buf: memoryview, pos: int) -> tuple[ReadStateSummaryResult, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionResult]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_result_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReadStateSummaryResult(f_topic_id, f_partitions, _unknown), pos


def _decode_read_share_group_state_summary_response_v1(buf: memoryview, pos: int) -> tuple[ReadShareGroupStateSummaryResponse, int]:
    f_results: list[ReadStateSummaryResult]
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_read_state_summary_result_v1(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReadShareGroupStateSummaryResponse(f_results, _unknown), pos


def _encode_partition_result_v0(m: PartitionResult, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S1.pack(m.state_epoch, m.leader_epoch, m.start_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_state_summary_result_v0(m: ReadStateSummaryResult, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_result_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_share_group_state_summary_response_v0(m: ReadShareGroupStateSummaryResponse, out: bytearray) -> None:
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_read_state_summary_result_v0(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_result_v1(m: PartitionResult, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.state_epoch, m.leader_epoch, m.start_offset, m.delivery_complete_count)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_state_summary_result_v1(m: ReadStateSummaryResult, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_result_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_share_group_state_summary_response_v1(m: ReadShareGroupStateSummaryResponse, out: bytearray) -> None:
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_read_state_summary_result_v1(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ReadShareGroupStateSummaryResponse, int]]] = {
    0: _decode_read_share_group_state_summary_response_v0,
    1: _decode_read_share_group_state_summary_response_v1,
}
_ENCODERS: dict[int, Callable[[ReadShareGroupStateSummaryResponse, bytearray], None]] = {
    0: _encode_read_share_group_state_summary_response_v0,
    1: _encode_read_share_group_state_summary_response_v1,
}
