"""DescribeQuorumResponse: generated from Kafka 3.9.2's DescribeQuorumResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
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
class Listener:
    """The listeners of this controller"""

    name: str = ''
    # versions 2+. The name of the endpoint
    host: str = ''
    # versions 2+. The hostname
    port: int = 0
    # versions 2+. The port
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Node:
    """A Node in DescribeQuorumResponse."""

    node_id: int = 0
    # versions 2+. The ID of the associated node
    listeners: list[Listener] = field(default_factory=list)
    # versions 2+. The listeners of this controller
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReplicaState:
    """A ReplicaState in DescribeQuorumResponse."""

    replica_id: int = 0
    # versions 0+
    replica_directory_id: UUID = ZERO_UUID
    # versions 2+
    log_end_offset: int = 0
    # versions 0+. The last known log end offset of the follower or -1 if it is unknown
    last_fetch_timestamp: int = -1
    # versions 1+; ignorable. The last known leader wall clock time time when a follower fetched from the leader. This is reported as -1 both for the current leader or if it is unknown for a voter
    last_caught_up_timestamp: int = -1
    # versions 1+; ignorable. The leader wall clock append time of the offset for which the follower made the most recent fetch request. This is reported as the current time for the leader and -1 if unknown for a voter
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """A PartitionData in DescribeQuorumResponse."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+
    error_message: str | None = ''
    # versions 2+; nullable 2+; ignorable. The error message, or null if there was no error.
    leader_id: int = 0
    # versions 0+. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch
    high_watermark: int = 0
    # versions 0+
    current_voters: list[ReplicaState] = field(default_factory=list)
    # versions 0+
    observers: list[ReplicaState] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """A TopicData in DescribeQuorumResponse."""

    topic_name: str = ''
    # versions 0+. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+
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
    # versions 0+
    nodes: list[Node] = field(default_factory=list)
    # versions 2+
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
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeQuorumResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_replica_state_v0(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    _replica_id, _log_end_offset = _S2.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(_replica_id, ZERO_UUID, _log_end_offset, -1, -1, _unknown), pos


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _current_voters: list[ReplicaState]
    _observers: list[ReplicaState]
    _partition_index, _error_code, _leader_id, _leader_epoch, _high_watermark = _S1.unpack_from(buf, pos)
    pos += 22
    _n_current_voters, pos = read_compact_array_length(buf, pos)
    if _n_current_voters < 0:
        raise MessageDecodeError("non-nullable field CurrentVoters was null")
    else:
        _current_voters = []
        for _ in range(_n_current_voters):
            _e_current_voters, pos = _decode_replica_state_v0(buf, pos)
            _current_voters.append(_e_current_voters)
    _n_observers, pos = read_compact_array_length(buf, pos)
    if _n_observers < 0:
        raise MessageDecodeError("non-nullable field Observers was null")
    else:
        _observers = []
        for _ in range(_n_observers):
            _e_observers, pos = _decode_replica_state_v0(buf, pos)
            _observers.append(_e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _error_code, '', _leader_id, _leader_epoch, _high_watermark, _current_voters, _observers, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_name: str
    _partitions: list[PartitionData]
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v0(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(_topic_name, _partitions, _unknown), pos


def _decode_describe_quorum_response_v0(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    _topics: list[TopicData]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v0(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(_error_code, '', _topics, [], _unknown), pos


def _decode_replica_state_v1(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    _replica_id, _log_end_offset, _last_fetch_timestamp, _last_caught_up_timestamp = _S3.unpack_from(buf, pos)
    pos += 28
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(_replica_id, ZERO_UUID, _log_end_offset, _last_fetch_timestamp, _last_caught_up_timestamp, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _current_voters: list[ReplicaState]
    _observers: list[ReplicaState]
    _partition_index, _error_code, _leader_id, _leader_epoch, _high_watermark = _S1.unpack_from(buf, pos)
    pos += 22
    _n_current_voters, pos = read_compact_array_length(buf, pos)
    if _n_current_voters < 0:
        raise MessageDecodeError("non-nullable field CurrentVoters was null")
    else:
        _current_voters = []
        for _ in range(_n_current_voters):
            _e_current_voters, pos = _decode_replica_state_v1(buf, pos)
            _current_voters.append(_e_current_voters)
    _n_observers, pos = read_compact_array_length(buf, pos)
    if _n_observers < 0:
        raise MessageDecodeError("non-nullable field Observers was null")
    else:
        _observers = []
        for _ in range(_n_observers):
            _e_observers, pos = _decode_replica_state_v1(buf, pos)
            _observers.append(_e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _error_code, '', _leader_id, _leader_epoch, _high_watermark, _current_voters, _observers, _unknown), pos


def _decode_topic_data_v1(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_name: str
    _partitions: list[PartitionData]
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v1(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(_topic_name, _partitions, _unknown), pos


def _decode_describe_quorum_response_v1(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    _topics: list[TopicData]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v1(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(_error_code, '', _topics, [], _unknown), pos


def _decode_replica_state_v2(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    _replica_directory_id: UUID
    _replica_id, = _S6.unpack_from(buf, pos)
    pos += 4
    _replica_directory_id, pos = read_uuid(buf, pos)
    _log_end_offset, _last_fetch_timestamp, _last_caught_up_timestamp = _S7.unpack_from(buf, pos)
    pos += 24
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(_replica_id, _replica_directory_id, _log_end_offset, _last_fetch_timestamp, _last_caught_up_timestamp, _unknown), pos


def _decode_partition_data_v2(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _error_message: str | None
    _current_voters: list[ReplicaState]
    _observers: list[ReplicaState]
    _partition_index, _error_code = _S4.unpack_from(buf, pos)
    pos += 6
    _error_message, pos = read_compact_nullable_string(buf, pos)
    _leader_id, _leader_epoch, _high_watermark = _S5.unpack_from(buf, pos)
    pos += 16
    _n_current_voters, pos = read_compact_array_length(buf, pos)
    if _n_current_voters < 0:
        raise MessageDecodeError("non-nullable field CurrentVoters was null")
    else:
        _current_voters = []
        for _ in range(_n_current_voters):
            _e_current_voters, pos = _decode_replica_state_v2(buf, pos)
            _current_voters.append(_e_current_voters)
    _n_observers, pos = read_compact_array_length(buf, pos)
    if _n_observers < 0:
        raise MessageDecodeError("non-nullable field Observers was null")
    else:
        _observers = []
        for _ in range(_n_observers):
            _e_observers, pos = _decode_replica_state_v2(buf, pos)
            _observers.append(_e_observers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _error_code, _error_message, _leader_id, _leader_epoch, _high_watermark, _current_voters, _observers, _unknown), pos


def _decode_topic_data_v2(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_name: str
    _partitions: list[PartitionData]
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v2(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(_topic_name, _partitions, _unknown), pos


def _decode_listener_v2(buf: memoryview, pos: int) -> tuple[Listener, int]:
    _name: str
    _host: str
    _name, pos = read_compact_string(buf, pos)
    _host, pos = read_compact_string(buf, pos)
    _port, = _S8.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Listener(_name, _host, _port, _unknown), pos


def _decode_node_v2(buf: memoryview, pos: int) -> tuple[Node, int]:
    _listeners: list[Listener]
    _node_id, = _S6.unpack_from(buf, pos)
    pos += 4
    _n_listeners, pos = read_compact_array_length(buf, pos)
    if _n_listeners < 0:
        raise MessageDecodeError("non-nullable field Listeners was null")
    else:
        _listeners = []
        for _ in range(_n_listeners):
            _e_listeners, pos = _decode_listener_v2(buf, pos)
            _listeners.append(_e_listeners)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Node(_node_id, _listeners, _unknown), pos


def _decode_describe_quorum_response_v2(buf: memoryview, pos: int) -> tuple[DescribeQuorumResponse, int]:
    _error_message: str | None
    _topics: list[TopicData]
    _nodes: list[Node]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _error_message, pos = read_compact_nullable_string(buf, pos)
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v2(buf, pos)
            _topics.append(_e_topics)
    _n_nodes, pos = read_compact_array_length(buf, pos)
    if _n_nodes < 0:
        raise MessageDecodeError("non-nullable field Nodes was null")
    else:
        _nodes = []
        for _ in range(_n_nodes):
            _e_nodes, pos = _decode_node_v2(buf, pos)
            _nodes.append(_e_nodes)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeQuorumResponse(_error_code, _error_message, _topics, _nodes, _unknown), pos


def _encode_replica_state_v0(m: ReplicaState, out: bytearray) -> None:
    if m.replica_directory_id != ZERO_UUID:
        raise version_error("ReplicaState", "ReplicaDirectoryId", 0)
    out += _S2.pack(m.replica_id, m.log_end_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for _e_current_voters in m.current_voters:
        _encode_replica_state_v0(_e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for _e_observers in m.observers:
        _encode_replica_state_v0(_e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v0(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_describe_quorum_response_v0(m: DescribeQuorumResponse, out: bytearray) -> None:
    if len(m.nodes) > 0:
        raise version_error("DescribeQuorumResponse", "Nodes", 0)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v0(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_replica_state_v1(m: ReplicaState, out: bytearray) -> None:
    if m.replica_directory_id != ZERO_UUID:
        raise version_error("ReplicaState", "ReplicaDirectoryId", 1)
    out += _S3.pack(m.replica_id, m.log_end_offset, m.last_fetch_timestamp, m.last_caught_up_timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for _e_current_voters in m.current_voters:
        _encode_replica_state_v1(_e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for _e_observers in m.observers:
        _encode_replica_state_v1(_e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v1(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v1(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_describe_quorum_response_v1(m: DescribeQuorumResponse, out: bytearray) -> None:
    if len(m.nodes) > 0:
        raise version_error("DescribeQuorumResponse", "Nodes", 1)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v1(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_replica_state_v2(m: ReplicaState, out: bytearray) -> None:
    out += _S6.pack(m.replica_id)
    out += m.replica_directory_id.bytes
    out += _S7.pack(m.log_end_offset, m.last_fetch_timestamp, m.last_caught_up_timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    out += _S4.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S5.pack(m.leader_id, m.leader_epoch, m.high_watermark)
    write_uvarint(out, len(m.current_voters) + 1)
    for _e_current_voters in m.current_voters:
        _encode_replica_state_v2(_e_current_voters, out)
    write_uvarint(out, len(m.observers) + 1)
    for _e_observers in m.observers:
        _encode_replica_state_v2(_e_observers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v2(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_listener_v2(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S8.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_node_v2(m: Node, out: bytearray) -> None:
    out += _S6.pack(m.node_id)
    write_uvarint(out, len(m.listeners) + 1)
    for _e_listeners in m.listeners:
        _encode_listener_v2(_e_listeners, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_describe_quorum_response_v2(m: DescribeQuorumResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v2(_e_topics, out)
    write_uvarint(out, len(m.nodes) + 1)
    for _e_nodes in m.nodes:
        _encode_node_v2(_e_nodes, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
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
