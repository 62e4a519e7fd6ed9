"""ListPartitionReassignmentsResponse: generated from Kafka 3.9.2 and 4.4.0's ListPartitionReassignmentsResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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

__all__ = ["ListPartitionReassignmentsResponse", "OngoingTopicReassignment", "OngoingPartitionReassignment"]

_S0 = Struct(">ih")
_S1 = Struct(">i")


@dataclass(slots=True)
class OngoingPartitionReassignment:
    """The ongoing reassignments for each partition."""

    partition_index: int = 0
    # versions 0+. The index of the partition.
    replicas: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The current replica set.
    adding_replicas: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of replicas we are currently adding.
    removing_replicas: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of replicas we are currently removing.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OngoingTopicReassignment:
    """The ongoing reassignments for each topic."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[OngoingPartitionReassignment] = field(default_factory=list)
    # versions 0+. The ongoing reassignments for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListPartitionReassignmentsResponse(ApiMessage):
    """ListPartitionReassignmentsResponse response"""

    API_KEY: ClassVar[int] = 46
    NAME: ClassVar[str] = "ListPartitionReassignmentsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    topics: list[OngoingTopicReassignment] = field(default_factory=list)
    # versions 0+. The ongoing reassignments for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListPartitionReassignmentsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListPartitionReassignmentsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListPartitionReassignmentsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListPartitionReassignmentsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListPartitionReassignmentsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_ongoing_partition_reassignment_v0(buf: memoryview, pos: int) -> tuple[OngoingPartitionReassignment, int]:
    f_replicas: list[int]
    f_adding_replicas: list[int]
    f_removing_replicas: list[int]
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_compact_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    n_adding_replicas, pos = read_compact_array_length(buf, pos)
    if n_adding_replicas < 0:
        raise null_field("addingReplicas")
    else:
        f_adding_replicas = list(unpack_from(f">{n_adding_replicas}i", buf, pos))
        pos += 4 * n_adding_replicas
    n_removing_replicas, pos = read_compact_array_length(buf, pos)
    if n_removing_replicas < 0:
        raise null_field("removingReplicas")
    else:
        f_removing_replicas = list(unpack_from(f">{n_removing_replicas}i", buf, pos))
        pos += 4 * n_removing_replicas
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OngoingPartitionReassignment(f_partition_index, f_replicas, f_adding_replicas, f_removing_replicas, _unknown), pos


def _decode_ongoing_topic_reassignment_v0(buf: memoryview, pos: int) -> tuple[OngoingTopicReassignment, int]:
    f_name: str
    f_partitions: list[OngoingPartitionReassignment]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_ongoing_partition_reassignment_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OngoingTopicReassignment(f_name, f_partitions, _unknown), pos


def _decode_list_partition_reassignments_response_v0(buf: memoryview, pos: int) -> tuple[ListPartitionReassignmentsResponse, int]:
    f_error_message: str | None
    f_topics: list[OngoingTopicReassignment]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_ongoing_topic_reassignment_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListPartitionReassignmentsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_topics, _unknown), pos


def _encode_ongoing_partition_reassignment_v0(m: OngoingPartitionReassignment, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    write_uvarint(out, len(m.replicas) + 1)
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    write_uvarint(out, len(m.adding_replicas) + 1)
    out += pack(f">{len(m.adding_replicas)}i", *m.adding_replicas)
    write_uvarint(out, len(m.removing_replicas) + 1)
    out += pack(f">{len(m.removing_replicas)}i", *m.removing_replicas)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_ongoing_topic_reassignment_v0(m: OngoingTopicReassignment, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_ongoing_partition_reassignment_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_partition_reassignments_response_v0(m: ListPartitionReassignmentsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_ongoing_topic_reassignment_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListPartitionReassignmentsResponse, int]]] = {
    0: _decode_list_partition_reassignments_response_v0,
}
_ENCODERS: dict[int, Callable[[ListPartitionReassignmentsResponse, bytearray], None]] = {
    0: _encode_list_partition_reassignments_response_v0,
}
