"""StopReplicaRequest: generated from Kafka 3.9.2's StopReplicaRequest.json by
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

__all__ = ["StopReplicaRequest", "StopReplicaPartitionV0", "StopReplicaTopicV1", "StopReplicaTopicState", "StopReplicaPartitionState"]

_S0 = Struct(">ii?")
_S1 = Struct(">i")
_S2 = Struct(">iiq?")
_S3 = Struct(">iiq")
_S4 = Struct(">i?iq")


@dataclass(slots=True)
class StopReplicaPartitionV0:
    """The partitions to stop."""

    topic_name: str = ''
    # versions 0; entity topicName. The topic name.
    partition_index: int = 0
    # versions 0. The partition index.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StopReplicaTopicV1:
    """The topics to stop."""

    name: str = ''
    # versions 1-2; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 1-2. The partition indexes.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StopReplicaPartitionState:
    """The state of each partition"""

    partition_index: int = 0
    # versions 3+. The partition index.
    leader_epoch: int = -1
    # versions 3+. The leader epoch.
    delete_partition: bool = False
    # versions 3+. Whether this partition should be deleted.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StopReplicaTopicState:
    """Each topic."""

    topic_name: str = ''
    # versions 3+; entity topicName. The topic name.
    partition_states: list[StopReplicaPartitionState] = field(default_factory=list)
    # versions 3+. The state of each partition
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StopReplicaRequest(ApiMessage):
    """StopReplicaRequest request"""

    API_KEY: ClassVar[int] = 5
    NAME: ClassVar[str] = "StopReplicaRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    controller_id: int = 0
    # versions 0+; entity brokerId. The controller id.
    is_k_raft_controller: bool = False
    # versions 4+. If KRaft controller id is used during migration. See KIP-866
    controller_epoch: int = 0
    # versions 0+. The controller epoch.
    broker_epoch: int = -1
    # versions 1+; ignorable. The broker epoch.
    delete_partitions: bool = False
    # versions 0-2. Whether these partitions should be deleted.
    ungrouped_partitions: list[StopReplicaPartitionV0] = field(default_factory=list)
    # versions 0. The partitions to stop.
    topics: list[StopReplicaTopicV1] = field(default_factory=list)
    # versions 1-2. The topics to stop.
    topic_states: list[StopReplicaTopicState] = field(default_factory=list)
    # versions 3+. Each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StopReplicaRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StopReplicaRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StopReplicaRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StopReplicaRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StopReplicaRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_stop_replica_partition_v0_v0(buf: memoryview, pos: int) -> tuple[StopReplicaPartitionV0, int]:
    f_topic_name: str
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    return StopReplicaPartitionV0(f_topic_name, f_partition_index, []), pos


def _decode_stop_replica_request_v0(buf: memoryview, pos: int) -> tuple[StopReplicaRequest, int]:
    f_ungrouped_partitions: list[StopReplicaPartitionV0]
    f_controller_id, f_controller_epoch, f_delete_partitions = _S0.unpack_from(buf, pos)
    pos += 9
    n_ungrouped_partitions, pos = read_array_length(buf, pos)
    if n_ungrouped_partitions < 0:
        raise null_field("ungroupedPartitions")
    else:
        f_ungrouped_partitions = []
        for _ in range(n_ungrouped_partitions):
            e_ungrouped_partitions, pos = _decode_stop_replica_partition_v0_v0(buf, pos)
            f_ungrouped_partitions.append(e_ungrouped_partitions)
    return StopReplicaRequest(f_controller_id, False, f_controller_epoch, -1, f_delete_partitions, f_ungrouped_partitions, [], [], []), pos


def _decode_stop_replica_topic_v1_v1(buf: memoryview, pos: int) -> tuple[StopReplicaTopicV1, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_indexes, pos = read_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    return StopReplicaTopicV1(f_name, f_partition_indexes, []), pos


def _decode_stop_replica_request_v1(buf: memoryview, pos: int) -> tuple[StopReplicaRequest, int]:
    f_topics: list[StopReplicaTopicV1]
    f_controller_id, f_controller_epoch, f_broker_epoch, f_delete_partitions = _S2.unpack_from(buf, pos)
    pos += 17
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_stop_replica_topic_v1_v1(buf, pos)
            f_topics.append(e_topics)
    return StopReplicaRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, f_delete_partitions, [], f_topics, [], []), pos


def _decode_stop_replica_topic_v1_v2(buf: memoryview, pos: int) -> tuple[StopReplicaTopicV1, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_indexes, pos = read_compact_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaTopicV1(f_name, f_partition_indexes, _unknown), pos


def _decode_stop_replica_request_v2(buf: memoryview, pos: int) -> tuple[StopReplicaRequest, int]:
    f_topics: list[StopReplicaTopicV1]
    f_controller_id, f_controller_epoch, f_broker_epoch, f_delete_partitions = _S2.unpack_from(buf, pos)
    pos += 17
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_stop_replica_topic_v1_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, f_delete_partitions, [], f_topics, [], _unknown), pos


def _decode_stop_replica_partition_state_v3(buf: memoryview, pos: int) -> tuple[StopReplicaPartitionState, int]:
    f_partition_index, f_leader_epoch, f_delete_partition = _S0.unpack_from(buf, pos)
    pos += 9
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaPartitionState(f_partition_index, f_leader_epoch, f_delete_partition, _unknown), pos


def _decode_stop_replica_topic_state_v3(buf: memoryview, pos: int) -> tuple[StopReplicaTopicState, int]:
    f_topic_name: str
    f_partition_states: list[StopReplicaPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_stop_replica_partition_state_v3(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaTopicState(f_topic_name, f_partition_states, _unknown), pos


def _decode_stop_replica_request_v3(buf: memoryview, pos: int) -> tuple[StopReplicaRequest, int]:
    f_topic_states: list[StopReplicaTopicState]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S3.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_stop_replica_topic_state_v3(buf, pos)
            f_topic_states.append(e_topic_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, False, [], [], f_topic_states, _unknown), pos


def _decode_stop_replica_request_v4(buf: memoryview, pos: int) -> tuple[StopReplicaRequest, int]:
    f_topic_states: list[StopReplicaTopicState]
    f_controller_id, f_is_k_raft_controller, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 17
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_stop_replica_topic_state_v3(buf, pos)
            f_topic_states.append(e_topic_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaRequest(f_controller_id, f_is_k_raft_controller, f_controller_epoch, f_broker_epoch, False, [], [], f_topic_states, _unknown), pos


def _encode_stop_replica_partition_v0_v0(m: StopReplicaPartitionV0, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index)


def _encode_stop_replica_request_v0(m: StopReplicaRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("StopReplicaRequest", "isKRaftController", 0)
    if len(m.topics) > 0:
        raise version_error("StopReplicaRequest", "Topics", 0)
    if len(m.topic_states) > 0:
        raise version_error("StopReplicaRequest", "TopicStates", 0)
    out += _S0.pack(m.controller_id, m.controller_epoch, m.delete_partitions)
    out += pack_int32(len(m.ungrouped_partitions))
    for e_ungrouped_partitions in m.ungrouped_partitions:
        _encode_stop_replica_partition_v0_v0(e_ungrouped_partitions, out)


def _encode_stop_replica_topic_v1_v1(m: StopReplicaTopicV1, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_indexes))
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)


def _encode_stop_replica_request_v1(m: StopReplicaRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("StopReplicaRequest", "isKRaftController", 1)
    if len(m.ungrouped_partitions) > 0:
        raise version_error("StopReplicaRequest", "UngroupedPartitions", 1)
    if len(m.topic_states) > 0:
        raise version_error("StopReplicaRequest", "TopicStates", 1)
    out += _S2.pack(m.controller_id, m.controller_epoch, m.broker_epoch, m.delete_partitions)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_stop_replica_topic_v1_v1(e_topics, out)


def _encode_stop_replica_topic_v1_v2(m: StopReplicaTopicV1, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_request_v2(m: StopReplicaRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("StopReplicaRequest", "isKRaftController", 2)
    if len(m.ungrouped_partitions) > 0:
        raise version_error("StopReplicaRequest", "UngroupedPartitions", 2)
    if len(m.topic_states) > 0:
        raise version_error("StopReplicaRequest", "TopicStates", 2)
    out += _S2.pack(m.controller_id, m.controller_epoch, m.broker_epoch, m.delete_partitions)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_stop_replica_topic_v1_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_partition_state_v3(m: StopReplicaPartitionState, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.leader_epoch, m.delete_partition)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_topic_state_v3(m: StopReplicaTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_stop_replica_partition_state_v3(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_request_v3(m: StopReplicaRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("StopReplicaRequest", "isKRaftController", 3)
    if m.delete_partitions:
        raise version_error("StopReplicaRequest", "DeletePartitions", 3)
    if len(m.ungrouped_partitions) > 0:
        raise version_error("StopReplicaRequest", "UngroupedPartitions", 3)
    if len(m.topics) > 0:
        raise version_error("StopReplicaRequest", "Topics", 3)
    out += _S3.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_stop_replica_topic_state_v3(e_topic_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_request_v4(m: StopReplicaRequest, out: bytearray) -> None:
    if m.delete_partitions:
        raise version_error("StopReplicaRequest", "DeletePartitions", 4)
    if len(m.ungrouped_partitions) > 0:
        raise version_error("StopReplicaRequest", "UngroupedPartitions", 4)
    if len(m.topics) > 0:
        raise version_error("StopReplicaRequest", "Topics", 4)
    out += _S4.pack(m.controller_id, m.is_k_raft_controller, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_stop_replica_topic_state_v3(e_topic_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StopReplicaRequest, int]]] = {
    0: _decode_stop_replica_request_v0,
    1: _decode_stop_replica_request_v1,
    2: _decode_stop_replica_request_v2,
    3: _decode_stop_replica_request_v3,
    4: _decode_stop_replica_request_v4,
}
_ENCODERS: dict[int, Callable[[StopReplicaRequest, bytearray], None]] = {
    0: _encode_stop_replica_request_v0,
    1: _encode_stop_replica_request_v1,
    2: _encode_stop_replica_request_v2,
    3: _encode_stop_replica_request_v3,
    4: _encode_stop_replica_request_v4,
}
