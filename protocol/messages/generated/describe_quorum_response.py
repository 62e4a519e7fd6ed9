"""DescribeQuorumResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeQuorumResponse.json by
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
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeQuorumResponse", "TopicData", "PartitionData", "ReplicaState", "Node", "Listener"]

_S0 = Struct(">h")
_S1 = Struct(">ihiiq")
_S2 = Struct(">iq")
_S3 = Struct(">iqqq")
_S4 = Struct(">ih")
_S5 = Struct(">iiq")
_S6 = Struct(">i")
_S7 = Struct(">qqq")
_S8 = Struct(">H")


@dataclass(slots=True)
class ReplicaState:
    """A ReplicaState in DescribeQuorumResponse."""

    replica_id: int = 0
    # versions 0+; entity brokerId. The ID of the replica.
    replica_directory_id: UUID = ZERO_UUID
    # versions 2+. The replica directory ID of the replica.
    log_end_offset: int = 0
    # versions 0+. The last known log end offset of the follower or -1 if it is unknown.
    last_fetch_timestamp: int = -1
    # versions 1+; ignorable. The last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter.
    last_caught_up_timestamp: int = -1
    # versions 1+; ignorable. The leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The partition data."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition error code.
    error_message: str | None = ''
    # versions 2+; nullable 2+; ignorable. The error message, or null if there was no error.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    high_watermark: int = 0
    # versions 0+. The high water mark.
    current_voters: list[ReplicaState] = field(default_factory=list)
    # versions 0+. The current voters of the partition.
    observers: list[ReplicaState] = field(default_factory=list)
    # versions 0+. The observers of the partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The response from the describe quorum API."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partition data.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Listener:
    """The listeners of this controller."""

    name: str = ''
    # versions 2+. The name of the endpoint.
    host: str = ''
    # versions 2+. The hostname.
    port: int = 0
    # versions 2+. The port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Node:
    """The nodes in the quorum."""

    node_id: int = 0
    # versions 2+; entity brokerId. The ID of the associated node.
    listeners: list[Listener] = field(default_factory=list)
    # versions 2+. The listeners of this controller.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeQuorumResponse(ApiMessage):
    """DescribeQuorumResponse response"""

    API_KEY: ClassVar[int] = 55
    NAME: ClassVar[str] = "DescribeQuorumResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    error_code: int = 0
    # versions 0+. The top level error code.
    error_message: str | None = ''
    # versions 2+; nullable 2+; ignorable. The error message, or null if there was no error.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The response from the describe quorum API.
    nodes: list[Node] = field(default_factory=list)
    # versions 2+. The nodes in the quorum.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeQuorumResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeQuorumResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeQuorumResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeQuorumResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeQuorumResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_replica_state_v0(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    f_replica_id, f_log_end_offset = _S2.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(f_replica_id, ZERO_UUID, f_log_end_offset, -1, -1, _unknown), pos


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_current_voters: list[ReplicaState]
    f_observers: list[ReplicaState]
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_high_watermark = _S1.unpack_from(buf, pos)
    pos += 22
    n_current_voters, pos = read_compact_array_length(buf, pos)
    if n_current_voters < 0:
        raise null_field("currentVoters")
    else:
        f_current_voters = []
        for _ in range(n_current_voters):
            e_current_voters, pos = _decode_replica_state_v0(buf, pos)
            f_current_voters.append(e_current_voters)
    n_observers, pos = read_compact_array_length(buf, pos)
    if n_observers < 0:
        raise null_field("observers")
    else:
        f_observers = []
        for _ in range(n_observers):
            e_observers, pos = _decode_replica_state_v0(buf, pos)
            f_observers.append(e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, '', f_leader_id, f_leader_epoch, f_high_watermark, f_current_voters, f_observers, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(f_topic_name, f_partitions, _unknown), pos


def _decode_describe_quorum_response_v0(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(f_error_code, '', f_topics, [], _unknown), pos


def _decode_replica_state_v1(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    f_replica_id, f_log_end_offset, f_last_fetch_timestamp, f_last_caught_up_timestamp = _S3.unpack_from(buf, pos)
    pos += 28
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(f_replica_id, ZERO_UUID, f_log_end_offset, f_last_fetch_timestamp, f_last_caught_up_timestamp, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_current_voters: list[ReplicaState]
    f_observers: list[ReplicaState]
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_high_watermark = _S1.unpack_from(buf, pos)
    pos += 22
    n_current_voters, pos = read_compact_array_length(buf, pos)
    if n_current_voters < 0:
        raise null_field("currentVoters")
    else:
        f_current_voters = []
        for _ in range(n_current_voters):
            e_current_voters, pos = _decode_replica_state_v1(buf, pos)
            f_current_voters.append(e_current_voters)
    n_observers, pos = read_compact_array_length(buf, pos)
    if n_observers < 0:
        raise null_field("observers")
    else:
        f_observers = []
        for _ in range(n_observers):
            e_observers, pos = _decode_replica_state_v1(buf, pos)
            f_observers.append(e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, '', f_leader_id, f_leader_epoch, f_high_watermark, f_current_voters, f_observers, _unknown), pos


def _decode_topic_data_v1(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(f_topic_name, f_partitions, _unknown), pos


def _decode_describe_quorum_response_v1(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v1(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(f_error_code, '', f_topics, [], _unknown), pos


def _decode_replica_state_v2(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    f_replica_directory_id: UUID
    f_replica_id, = _S6.unpack_from(buf, pos)
    pos += 4
    f_replica_directory_id, pos = read_uuid(buf, pos)
    f_log_end_offset, f_last_fetch_timestamp, f_last_caught_up_timestamp = _S7.unpack_from(buf, pos)
    pos += 24
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(f_replica_id, f_replica_directory_id, f_log_end_offset, f_last_fetch_timestamp, f_last_caught_up_timestamp, _unknown), pos


def _decode_partition_data_v2(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_error_message: str | None
    f_current_voters: list[ReplicaState]
    f_observers: list[ReplicaState]
    f_partition_index, f_error_code = _S4.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_leader_id, f_leader_epoch, f_high_watermark = _S5.unpack_from(buf, pos)
    pos += 16
    n_current_voters, pos = read_compact_array_length(buf, pos)
    if n_current_voters < 0:
        raise null_field("currentVoters")
    else:
        f_current_voters = []
        for _ in range(n_current_voters):
            e_current_voters, pos = _decode_replica_state_v2(buf, pos)
            f_current_voters.append(e_current_voters)
    n_observers, pos = read_compact_array_length(buf, pos)
    if n_observers < 0:
        raise null_field("observers")
    else:
        f_observers = []
        for _ in range(n_observers):
            e_observers, pos = _decode_replica_state_v2(buf, pos)
            f_observers.append(e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_leader_id, f_leader_epoch, f_high_watermark, f_current_voters, f_observers, _unknown), pos


def _decode_topic_data_v2(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v2(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(f_topic_name, f_partitions, _unknown), pos


def _decode_listener_v2(buf: memoryview, pos: int) -> tuple[Listener, int]:
    f_name: str
    f_host: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S8.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Listener(f_name, f_host, f_port, _unknown), pos


def _decode_node_v2(buf: memoryview, pos: int) -> tuple[Node, int]:
    f_listeners: list[Listener]
    f_node_id, = _S6.unpack_from(buf, pos)
    pos += 4
    n_listeners, pos = read_compact_array_length(buf, pos)
    if n_listeners < 0:
        raise null_field("listeners")
    else:
        f_listeners = []
        for _ in range(n_listeners):
            e_listeners, pos = _decode_listener_v2(buf, pos)
            f_listeners.append(e_listeners)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Node(f_node_id, f_listeners, _unknown), pos


def _decode_describe_quorum_response_v2(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    f_error_message: str | None
    f_topics: list[TopicData]
    f_nodes: list[Node]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v2(buf, pos)
            f_topics.append(e_topics)
    n_nodes, pos = read_compact_array_length(buf, pos)
    if n_nodes < 0:
        raise null_field("nodes")
    else:
        f_nodes = []
        for _ in range(n_nodes):
            e_nodes, pos = _decode_node_v2(buf, pos)
            f_nodes.append(e_nodes)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(f_error_code, f_error_message, f_topics, f_nodes, _unknown), pos


def _encode_replica_state_v0(m: ReplicaState, out: bytearray) -> None:
    if m.replica_directory_id != ZERO_UUID:
        raise version_error("ReplicaState", "ReplicaDirectoryId", 0)
    out += _S2.pack(m.replica_id, m.log_end_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for e_current_voters in m.current_voters:
        _encode_replica_state_v0(e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for e_observers in m.observers:
        _encode_replica_state_v0(e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_quorum_response_v0(m: DescribeQuorumResponse, out: bytearray) -> None:
    if len(m.nodes) > 0:
        raise version_error("DescribeQuorumResponse", "Nodes", 0)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_replica_state_v1(m: ReplicaState, out: bytearray) -> None:
    if m.replica_directory_id != ZERO_UUID:
        raise version_error("ReplicaState", "ReplicaDirectoryId", 1)
    out += _S3.pack(m.replica_id, m.log_end_offset, m.last_fetch_timestamp, m.last_caught_up_timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for e_current_voters in m.current_voters:
        _encode_replica_state_v1(e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for e_observers in m.observers:
        _encode_replica_state_v1(e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v1(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_quorum_response_v1(m: DescribeQuorumResponse, out: bytearray) -> None:
    if len(m.nodes) > 0:
        raise version_error("DescribeQuorumResponse", "Nodes", 1)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_replica_state_v2(m: ReplicaState, out: bytearray) -> None:
    out += _S6.pack(m.replica_id)
    out += m.replica_directory_id.bytes
    out += _S7.pack(m.log_end_offset, m.last_fetch_timestamp, m.last_caught_up_timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    out += _S4.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S5.pack(m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for e_current_voters in m.current_voters:
        _encode_replica_state_v2(e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for e_observers in m.observers:
        _encode_replica_state_v2(e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_listener_v2(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S8.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_v2(m: Node, out: bytearray) -> None:
    out += _S6.pack(m.node_id)
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v2(e_listeners, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_quorum_response_v2(m: DescribeQuorumResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v2(e_topics, out)
    write_uvarint(out, len(m.nodes) + 1)
    for e_nodes in m.nodes:
        _encode_node_v2(e_nodes, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeQuorumResponse, int]]] = {
    0: _decode_describe_quorum_response_v0,
    1: _decode_describe_quorum_response_v1,
    2: _decode_describe_quorum_response_v2,
}
_ENCODERS: dict[int, Callable[[DescribeQuorumResponse, bytearray], None]] = {
    0: _encode_describe_quorum_response_v0,
    1: _encode_describe_quorum_response_v1,
    2: _encode_describe_quorum_response_v2,
}
