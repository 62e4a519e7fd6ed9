"""DescribeTopicPartitionsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeTopicPartitionsResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeTopicPartitionsResponse", "DescribeTopicPartitionsResponseTopic", "DescribeTopicPartitionsResponsePartition", "Cursor"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">?")
_S3 = Struct(">hiii")


@dataclass(slots=True)
class DescribeTopicPartitionsResponsePartition:
    """Each partition in the topic."""

    error_code: int = 0
    # versions 0+. The partition error, or 0 if there was no error.
    partition_index: int = 0
    # versions 0+. The partition index.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the leader broker.
    leader_epoch: int = -1
    # versions 0+; ignorable. The leader epoch of this partition.
    replica_nodes: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of all nodes that host this partition.
    isr_nodes: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of nodes that are in sync with the leader for this partition.
    eligible_leader_replicas: list[int] | None = None
    # versions 0+; nullable 0+; entity brokerId. The new eligible leader replicas otherwise.
    last_known_elr: list[int] | None = None
    # versions 0+; nullable 0+; entity brokerId. The last known ELR.
    offline_replicas: list[int] = field(default_factory=list)
    # versions 0+; ignorable; entity brokerId. The set of offline replicas of this partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeTopicPartitionsResponseTopic:
    """Each topic in the response."""

    error_code: int = 0
    # versions 0+. The topic error, or 0 if there was no error.
    name: str | None = ''
    # versions 0+; nullable 0+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 0+; ignorable. The topic id.
    is_internal: bool = False
    # versions 0+; ignorable. True if the topic is internal.
    partitions: list[DescribeTopicPartitionsResponsePartition] = field(default_factory=list)
    # versions 0+. Each partition in the topic.
    topic_authorized_operations: int = -2147483648
    # versions 0+. 32-bit bitfield to represent authorized operations for this topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Cursor:
    """The next topic and partition index to fetch details for."""

    topic_name: str = ''
    # versions 0+; entity topicName. The name for the first topic to process.
    partition_index: int = 0
    # versions 0+. The partition index to start with.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeTopicPartitionsResponse(ApiMessage):
    """DescribeTopicPartitionsResponse response"""

    API_KEY: ClassVar[int] = 75
    NAME: ClassVar[str] = "DescribeTopicPartitionsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[DescribeTopicPartitionsResponseTopic] = field(default_factory=list)
    # versions 0+. Each topic in the response.
    next_cursor: Cursor | None = None
    # versions 0+; nullable 0+. The next topic and partition index to fetch details for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTopicPartitionsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeTopicPartitionsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTopicPartitionsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeTopicPartitionsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeTopicPartitionsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_topic_partitions_response_partition_v0(buf: memoryview, pos: int) -> tuple[DescribeTopicPartitionsResponsePartition, int]:
    f_replica_nodes: list[int]
    f_isr_nodes: list[int]
    f_eligible_leader_replicas: list[int] | None
    f_last_known_elr: list[int] | None
    f_offline_replicas: list[int]
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 14
    n_replica_nodes, pos = read_compact_array_length(buf, pos)
    if n_replica_nodes < 0:
        raise null_field("replicaNodes")
    else:
        f_replica_nodes = list(unpack_from(f">{n_replica_nodes}i", buf, pos))
        pos += 4 * n_replica_nodes
    n_isr_nodes, pos = read_compact_array_length(buf, pos)
    if n_isr_nodes < 0:
        raise null_field("isrNodes")
    else:
        f_isr_nodes = list(unpack_from(f">{n_isr_nodes}i", buf, pos))
        pos += 4 * n_isr_nodes
    n_eligible_leader_replicas, pos = read_compact_array_length(buf, pos)
    if n_eligible_leader_replicas < 0:
        f_eligible_leader_replicas = None
    else:
        f_eligible_leader_replicas = list(unpack_from(f">{n_eligible_leader_replicas}i", buf, pos))
        pos += 4 * n_eligible_leader_replicas
    n_last_known_elr, pos = read_compact_array_length(buf, pos)
    if n_last_known_elr < 0:
        f_last_known_elr = None
    else:
        f_last_known_elr = list(unpack_from(f">{n_last_known_elr}i", buf, pos))
        pos += 4 * n_last_known_elr
    n_offline_replicas, pos = read_compact_array_length(buf, pos)
    if n_offline_replicas < 0:
        raise null_field("offlineReplicas")
    else:
        f_offline_replicas = list(unpack_from(f">{n_offline_replicas}i", buf, pos))
        pos += 4 * n_offline_replicas
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTopicPartitionsResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_eligible_leader_replicas, f_last_known_elr, f_offline_replicas, _unknown), pos


def _decode_describe_topic_partitions_response_topic_v0(buf: memoryview, pos: int) -> tuple[DescribeTopicPartitionsResponseTopic, int]:
    f_name: str | None
    f_topic_id: UUID
    f_partitions: list[DescribeTopicPartitionsResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal, = _S2.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_describe_topic_partitions_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    f_topic_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTopicPartitionsResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, _unknown), pos


def _decode_cursor_v0(buf: memoryview, pos: int) -> tuple[Cursor, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Cursor(f_topic_name, f_partition_index, _unknown), pos


def _decode_describe_topic_partitions_response_v0(buf: memoryview, pos: int) -> tuple[DescribeTopicPartitionsResponse, int]:
    f_topics: list[DescribeTopicPartitionsResponseTopic]
    f_next_cursor: Cursor | None
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_topic_partitions_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] >= 0x80:
        f_next_cursor = None
        pos += 1
    else:
        f_next_cursor, pos = _decode_cursor_v0(buf, pos + 1)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTopicPartitionsResponse(f_throttle_time_ms, f_topics, f_next_cursor, _unknown), pos


def _encode_describe_topic_partitions_response_partition_v0(m: DescribeTopicPartitionsResponsePartition, out: bytearray) -> None:
    out += _S3.pack(m.error_code, m.partition_index, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.replica_nodes) + 1)
    out += pack(f">{len(m.replica_nodes)}i", *m.replica_nodes)
    write_uvarint(out, len(m.isr_nodes) + 1)
    out += pack(f">{len(m.isr_nodes)}i", *m.isr_nodes)
    if m.eligible_leader_replicas is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.eligible_leader_replicas) + 1)
        out += pack(f">{len(m.eligible_leader_replicas)}i", *m.eligible_leader_replicas)
    if m.last_known_elr is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.last_known_elr) + 1)
        out += pack(f">{len(m.last_known_elr)}i", *m.last_known_elr)
    write_uvarint(out, len(m.offline_replicas) + 1)
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_topic_partitions_response_topic_v0(m: DescribeTopicPartitionsResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.name)
    out += m.topic_id.bytes
    out += _S2.pack(m.is_internal)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_describe_topic_partitions_response_partition_v0(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_cursor_v0(m: Cursor, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += _S0.pack(m.partition_index)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_topic_partitions_response_v0(m: DescribeTopicPartitionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_topic_partitions_response_topic_v0(e_topics, out)
    if m.next_cursor is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_cursor_v0(m.next_cursor, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeTopicPartitionsResponse, int]]] = {
    0: _decode_describe_topic_partitions_response_v0,
}
_ENCODERS: dict[int, Callable[[DescribeTopicPartitionsResponse, bytearray], None]] = {
    0: _encode_describe_topic_partitions_response_v0,
}
