"""AlterPartitionReassignmentsResponse: generated from Kafka 3.9.2 and 4.4.0's AlterPartitionReassignmentsResponse.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterPartitionReassignmentsResponse", "ReassignableTopicResponse", "ReassignablePartitionResponse"]

_S0 = Struct(">ih")
_S1 = Struct(">i?h")


@dataclass(slots=True)
class ReassignablePartitionResponse:
    """The responses to partitions to reassign."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code for this partition, or 0 if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message for this partition, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReassignableTopicResponse:
    """The responses to topics to reassign."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[ReassignablePartitionResponse] = field(default_factory=list)
    # versions 0+. The responses to partitions to reassign.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterPartitionReassignmentsResponse(ApiMessage):
    """AlterPartitionReassignmentsResponse response"""

    API_KEY: ClassVar[int] = 45
    NAME: ClassVar[str] = "AlterPartitionReassignmentsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    responses: list[ReassignableTopicResponse] = field(default_factory=list)
    # versions 0+. The responses to topics to reassign.
    allow_replication_factor_change: bool = True
    # versions 1+; ignorable. The option indicating whether changing the replication factor of any given partition as part of the request was allowed.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionReassignmentsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterPartitionReassignmentsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionReassignmentsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterPartitionReassignmentsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionReassignmentsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_reassignable_partition_response_v0(buf: memoryview, pos: int) -> tuple[ReassignablePartitionResponse, int]:
    f_error_message: str | None
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReassignablePartitionResponse(f_partition_index, f_error_code, f_error_message, _unknown), pos


def _decode_reassignable_topic_response_v0(buf: memoryview, pos: int) -> tuple[ReassignableTopicResponse, int]:
    f_name: str
    f_partitions: list[ReassignablePartitionResponse]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_reassignable_partition_response_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReassignableTopicResponse(f_name, f_partitions, _unknown), pos


def _decode_alter_partition_reassignments_response_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionReassignmentsResponse, int]:
    f_error_message: str | None
    f_responses: list[ReassignableTopicResponse]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_reassignable_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionReassignmentsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, True, _unknown), pos


def _decode_alter_partition_reassignments_response_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionReassignmentsResponse, int]:
    f_error_message: str | None
    f_responses: list[ReassignableTopicResponse]
    f_throttle_time_ms, f_allow_replication_factor_change, f_error_code = _S1.unpack_from(buf, pos)
    pos += 7
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_reassignable_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionReassignmentsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, f_allow_replication_factor_change, _unknown), pos


def _encode_reassignable_partition_response_v0(m: ReassignablePartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_reassignable_topic_response_v0(m: ReassignableTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_reassignable_partition_response_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_reassignments_response_v0(m: AlterPartitionReassignmentsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_reassignable_topic_response_v0(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_reassignments_response_v1(m: AlterPartitionReassignmentsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.allow_replication_factor_change, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_reassignable_topic_response_v0(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterPartitionReassignmentsResponse, int]]] = {
    0: _decode_alter_partition_reassignments_response_v0,
    1: _decode_alter_partition_reassignments_response_v1,
}
_ENCODERS: dict[int, Callable[[AlterPartitionReassignmentsResponse, bytearray], None]] = {
    0: _encode_alter_partition_reassignments_response_v0,
    1: _encode_alter_partition_reassignments_response_v1,
}
