"""LeaderAndIsrRequest: generated from Kafka 3.9.2's LeaderAndIsrRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["LeaderAndIsrRequest", "LeaderAndIsrPartitionState", "LeaderAndIsrTopicState", "LeaderAndIsrLiveLeader"]

_S0 = Struct(">ii")
_S1 = Struct(">iiii")
_S2 = Struct(">i")
_S3 = Struct(">?")
_S4 = Struct(">iiq")
_S5 = Struct(">iiqb")
_S6 = Struct(">?b")
_S7 = Struct(">i?iqb")


@dataclass(slots=True)
class LeaderAndIsrPartitionState:
    """A LeaderAndIsrPartitionState in LeaderAndIsrRequest."""

    topic_name: str = ''
    # versions 0-1; ignorable; entity topicName. The topic name.  This is only present in v0 or v1.
    partition_index: int = 0
    # versions 0+. The partition index.
    controller_epoch: int = 0
    # versions 0+. The controller epoch.
    leader: int = 0
    # versions 0+; entity brokerId. The broker ID of the leader.
    leader_epoch: int = 0
    # versions 0+. The leader epoch.
    isr: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The in-sync replica IDs.
    partition_epoch: int = 0
    # versions 0+. The current epoch for the partition. The epoch is a monotonically increasing value which is incremented after every partition change. (Since the LeaderAndIsr request is only used by the legacy controller, this corresponds to the zkVersion)
    replicas: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The replica IDs.
    adding_replicas: list[int] = field(default_factory=list)
    # versions 3+; ignorable; entity brokerId. The replica IDs that we are adding this partition to, or null if no replicas are being added.
    removing_replicas: list[int] = field(default_factory=list)
    # versions 3+; ignorable; entity brokerId. The replica IDs that we are removing this partition from, or null if no replicas are being removed.
    is_new: bool = False
    # versions 1+; ignorable. Whether the replica should have existed on the broker or not.
    leader_recovery_state: int = 0
    # versions 6+. 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderAndIsrTopicState:
    """Each topic."""

    topic_name: str = ''
    # versions 2+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 5+; ignorable. The unique topic ID.
    partition_states: list[LeaderAndIsrPartitionState] = field(default_factory=list)
    # versions 2+. The state of each partition
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderAndIsrLiveLeader:
    """The current live leaders."""

    broker_id: int = 0
    # versions 0+; entity brokerId. The leader's broker ID.
    host_name: str = ''
    # versions 0+. The leader's hostname.
    port: int = 0
    # versions 0+. The leader's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderAndIsrRequest(ApiMessage):
    """LeaderAndIsrRequest request"""

    API_KEY: ClassVar[int] = 4
    NAME: ClassVar[str] = "LeaderAndIsrRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    controller_id: int = 0
    # versions 0+; entity brokerId. The current controller ID.
    is_k_raft_controller: bool = False
    # versions 7+. If KRaft controller id is used during migration. See KIP-866
    controller_epoch: int = 0
    # versions 0+. The current controller epoch.
    broker_epoch: int = -1
    # versions 2+; ignorable. The current broker epoch.
    type: int = 0
    # versions 5+. The type that indicates whether all topics are included in the request
    ungrouped_partition_states: list[LeaderAndIsrPartitionState] = field(default_factory=list)
    # versions 0-1. The state of each partition, in a v0 or v1 message.
    topic_states: list[LeaderAndIsrTopicState] = field(default_factory=list)
    # versions 2+. Each topic.
    live_leaders: list[LeaderAndIsrLiveLeader] = field(default_factory=list)
    # versions 0+. The current live leaders.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaderAndIsrRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[LeaderAndIsrRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaderAndIsrRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"LeaderAndIsrRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> LeaderAndIsrRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leader_and_isr_partition_state_v0(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_topic_name: str
    f_isr: list[int]
    f_replicas: list[int]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    return LeaderAndIsrPartitionState(f_topic_name, f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, [], [], False, 0, []), pos


def _decode_leader_and_isr_live_leader_v0(buf: memoryview, pos: int) -> tuple[LeaderAndIsrLiveLeader, int]:
    f_host_name: str
    f_broker_id, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host_name, pos = read_string(buf, pos, "hostName")
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    return LeaderAndIsrLiveLeader(f_broker_id, f_host_name, f_port, []), pos


def _decode_leader_and_isr_request_v0(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_ungrouped_partition_states: list[LeaderAndIsrPartitionState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_leader_and_isr_partition_state_v0(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_leaders, pos = read_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v0(buf, pos)
            f_live_leaders.append(e_live_leaders)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, -1, 0, f_ungrouped_partition_states, [], f_live_leaders, []), pos


def _decode_leader_and_isr_partition_state_v1(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_topic_name: str
    f_isr: list[int]
    f_replicas: list[int]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    f_is_new, = _S3.unpack_from(buf, pos)
    pos += 1
    return LeaderAndIsrPartitionState(f_topic_name, f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, [], [], f_is_new, 0, []), pos


def _decode_leader_and_isr_request_v1(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_ungrouped_partition_states: list[LeaderAndIsrPartitionState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_leader_and_isr_partition_state_v1(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_leaders, pos = read_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v0(buf, pos)
            f_live_leaders.append(e_live_leaders)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, -1, 0, f_ungrouped_partition_states, [], f_live_leaders, []), pos


def _decode_leader_and_isr_partition_state_v2(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    f_is_new, = _S3.unpack_from(buf, pos)
    pos += 1
    return LeaderAndIsrPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, [], [], f_is_new, 0, []), pos


def _decode_leader_and_isr_topic_state_v2(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicState, int]:
    f_topic_name: str
    f_partition_states: list[LeaderAndIsrPartitionState]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partition_states, pos = read_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_leader_and_isr_partition_state_v2(buf, pos)
            f_partition_states.append(e_partition_states)
    return LeaderAndIsrTopicState(f_topic_name, ZERO_UUID, f_partition_states, []), pos


def _decode_leader_and_isr_request_v2(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v2(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v0(buf, pos)
            f_live_leaders.append(e_live_leaders)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, 0, [], f_topic_states, f_live_leaders, []), pos


def _decode_leader_and_isr_partition_state_v3(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_adding_replicas: list[int]
    f_removing_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    n_adding_replicas, pos = read_array_length(buf, pos)
    if n_adding_replicas < 0:
        raise null_field("addingReplicas")
    else:
        f_adding_replicas = list(unpack_from(f">{n_adding_replicas}i", buf, pos))
        pos += 4 * n_adding_replicas
    n_removing_replicas, pos = read_array_length(buf, pos)
    if n_removing_replicas < 0:
        raise null_field("removingReplicas")
    else:
        f_removing_replicas = list(unpack_from(f">{n_removing_replicas}i", buf, pos))
        pos += 4 * n_removing_replicas
    f_is_new, = _S3.unpack_from(buf, pos)
    pos += 1
    return LeaderAndIsrPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, f_adding_replicas, f_removing_replicas, f_is_new, 0, []), pos


def _decode_leader_and_isr_topic_state_v3(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicState, int]:
    f_topic_name: str
    f_partition_states: list[LeaderAndIsrPartitionState]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partition_states, pos = read_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_leader_and_isr_partition_state_v3(buf, pos)
            f_partition_states.append(e_partition_states)
    return LeaderAndIsrTopicState(f_topic_name, ZERO_UUID, f_partition_states, []), pos


def _decode_leader_and_isr_request_v3(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v3(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v0(buf, pos)
            f_live_leaders.append(e_live_leaders)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, 0, [], f_topic_states, f_live_leaders, []), pos


def _decode_leader_and_isr_partition_state_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_adding_replicas: list[int]
    f_removing_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_compact_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
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
    f_is_new, = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, f_adding_replicas, f_removing_replicas, f_is_new, 0, _unknown), pos


def _decode_leader_and_isr_topic_state_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicState, int]:
    f_topic_name: str
    f_partition_states: list[LeaderAndIsrPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_leader_and_isr_partition_state_v4(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrTopicState(f_topic_name, ZERO_UUID, f_partition_states, _unknown), pos


def _decode_leader_and_isr_live_leader_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrLiveLeader, int]:
    f_host_name: str
    f_broker_id, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host_name, pos = read_compact_string(buf, pos, "hostName")
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrLiveLeader(f_broker_id, f_host_name, f_port, _unknown), pos


def _decode_leader_and_isr_request_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v4(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_compact_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v4(buf, pos)
            f_live_leaders.append(e_live_leaders)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, 0, [], f_topic_states, f_live_leaders, _unknown), pos


def _decode_leader_and_isr_topic_state_v5(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicState, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_partition_states: list[LeaderAndIsrPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_leader_and_isr_partition_state_v4(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrTopicState(f_topic_name, f_topic_id, f_partition_states, _unknown), pos


def _decode_leader_and_isr_request_v5(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch, f_broker_epoch, f_type = _S5.unpack_from(buf, pos)
    pos += 17
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v5(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_compact_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v4(buf, pos)
            f_live_leaders.append(e_live_leaders)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, f_type, [], f_topic_states, f_live_leaders, _unknown), pos


def _decode_leader_and_isr_partition_state_v6(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_adding_replicas: list[int]
    f_removing_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_compact_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
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
    f_is_new, f_leader_recovery_state = _S6.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_partition_epoch, f_replicas, f_adding_replicas, f_removing_replicas, f_is_new, f_leader_recovery_state, _unknown), pos


def _decode_leader_and_isr_topic_state_v6(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicState, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_partition_states: list[LeaderAndIsrPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_leader_and_isr_partition_state_v6(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrTopicState(f_topic_name, f_topic_id, f_partition_states, _unknown), pos


def _decode_leader_and_isr_request_v6(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_controller_epoch, f_broker_epoch, f_type = _S5.unpack_from(buf, pos)
    pos += 17
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v6(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_compact_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v4(buf, pos)
            f_live_leaders.append(e_live_leaders)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrRequest(f_controller_id, False, f_controller_epoch, f_broker_epoch, f_type, [], f_topic_states, f_live_leaders, _unknown), pos


def _decode_leader_and_isr_request_v7(buf: memoryview, pos: int) -> tuple[LeaderAndIsrRequest, int]:
    f_topic_states: list[LeaderAndIsrTopicState]
    f_live_leaders: list[LeaderAndIsrLiveLeader]
    f_controller_id, f_is_k_raft_controller, f_controller_epoch, f_broker_epoch, f_type = _S7.unpack_from(buf, pos)
    pos += 18
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_leader_and_isr_topic_state_v6(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_leaders, pos = read_compact_array_length(buf, pos)
    if n_live_leaders < 0:
        raise null_field("liveLeaders")
    else:
        f_live_leaders = []
        for _ in range(n_live_leaders):
            e_live_leaders, pos = _decode_leader_and_isr_live_leader_v4(buf, pos)
            f_live_leaders.append(e_live_leaders)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrRequest(f_controller_id, f_is_k_raft_controller, f_controller_epoch, f_broker_epoch, f_type, [], f_topic_states, f_live_leaders, _unknown), pos


def _encode_leader_and_isr_partition_state_v0(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 0)
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)


def _encode_leader_and_isr_live_leader_v0(m: LeaderAndIsrLiveLeader, out: bytearray) -> None:
    out += _S2.pack(m.broker_id)
    write_string(out, m.host_name)
    out += _S2.pack(m.port)


def _encode_leader_and_isr_request_v0(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 0)
    if m.type != 0:
        raise version_error("LeaderAndIsrRequest", "Type", 0)
    if len(m.topic_states) > 0:
        raise version_error("LeaderAndIsrRequest", "TopicStates", 0)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_leader_and_isr_partition_state_v0(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_leaders))
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v0(e_live_leaders, out)


def _encode_leader_and_isr_partition_state_v1(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 1)
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    out += _S3.pack(m.is_new)


def _encode_leader_and_isr_request_v1(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 1)
    if m.type != 0:
        raise version_error("LeaderAndIsrRequest", "Type", 1)
    if len(m.topic_states) > 0:
        raise version_error("LeaderAndIsrRequest", "TopicStates", 1)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_leader_and_isr_partition_state_v1(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_leaders))
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v0(e_live_leaders, out)


def _encode_leader_and_isr_partition_state_v2(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 2)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    out += _S3.pack(m.is_new)


def _encode_leader_and_isr_topic_state_v2(m: LeaderAndIsrTopicState, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partition_states))
    for e_partition_states in m.partition_states:
        _encode_leader_and_isr_partition_state_v2(e_partition_states, out)


def _encode_leader_and_isr_request_v2(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 2)
    if m.type != 0:
        raise version_error("LeaderAndIsrRequest", "Type", 2)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 2)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    out += pack_int32(len(m.topic_states))
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v2(e_topic_states, out)
    out += pack_int32(len(m.live_leaders))
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v0(e_live_leaders, out)


def _encode_leader_and_isr_partition_state_v3(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 3)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    out += pack_int32(len(m.adding_replicas))
    out += pack(f">{len(m.adding_replicas)}i", *m.adding_replicas)
    out += pack_int32(len(m.removing_replicas))
    out += pack(f">{len(m.removing_replicas)}i", *m.removing_replicas)
    out += _S3.pack(m.is_new)


def _encode_leader_and_isr_topic_state_v3(m: LeaderAndIsrTopicState, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partition_states))
    for e_partition_states in m.partition_states:
        _encode_leader_and_isr_partition_state_v3(e_partition_states, out)


def _encode_leader_and_isr_request_v3(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 3)
    if m.type != 0:
        raise version_error("LeaderAndIsrRequest", "Type", 3)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 3)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    out += pack_int32(len(m.topic_states))
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v3(e_topic_states, out)
    out += pack_int32(len(m.live_leaders))
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v0(e_live_leaders, out)


def _encode_leader_and_isr_partition_state_v4(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 4)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    write_uvarint(out, len(m.replicas) + 1)
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    write_uvarint(out, len(m.adding_replicas) + 1)
    out += pack(f">{len(m.adding_replicas)}i", *m.adding_replicas)
    write_uvarint(out, len(m.removing_replicas) + 1)
    out += pack(f">{len(m.removing_replicas)}i", *m.removing_replicas)
    out += _S3.pack(m.is_new)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_topic_state_v4(m: LeaderAndIsrTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_leader_and_isr_partition_state_v4(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_live_leader_v4(m: LeaderAndIsrLiveLeader, out: bytearray) -> None:
    out += _S2.pack(m.broker_id)
    write_compact_string(out, m.host_name)
    out += _S2.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_request_v4(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 4)
    if m.type != 0:
        raise version_error("LeaderAndIsrRequest", "Type", 4)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 4)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v4(e_topic_states, out)
    write_uvarint(out, len(m.live_leaders) + 1)
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v4(e_live_leaders, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_partition_state_v5(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    if m.leader_recovery_state != 0:
        raise version_error("LeaderAndIsrPartitionState", "LeaderRecoveryState", 5)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    write_uvarint(out, len(m.replicas) + 1)
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    write_uvarint(out, len(m.adding_replicas) + 1)
    out += pack(f">{len(m.adding_replicas)}i", *m.adding_replicas)
    write_uvarint(out, len(m.removing_replicas) + 1)
    out += pack(f">{len(m.removing_replicas)}i", *m.removing_replicas)
    out += _S3.pack(m.is_new)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_topic_state_v5(m: LeaderAndIsrTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_leader_and_isr_partition_state_v5(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_request_v5(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 5)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 5)
    out += _S5.pack(m.controller_id, m.controller_epoch, m.broker_epoch, m.type)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v5(e_topic_states, out)
    write_uvarint(out, len(m.live_leaders) + 1)
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v4(e_live_leaders, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_partition_state_v6(m: LeaderAndIsrPartitionState, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    write_uvarint(out, len(m.replicas) + 1)
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    write_uvarint(out, len(m.adding_replicas) + 1)
    out += pack(f">{len(m.adding_replicas)}i", *m.adding_replicas)
    write_uvarint(out, len(m.removing_replicas) + 1)
    out += pack(f">{len(m.removing_replicas)}i", *m.removing_replicas)
    out += _S6.pack(m.is_new, m.leader_recovery_state)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_topic_state_v6(m: LeaderAndIsrTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_leader_and_isr_partition_state_v6(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_request_v6(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("LeaderAndIsrRequest", "isKRaftController", 6)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 6)
    out += _S5.pack(m.controller_id, m.controller_epoch, m.broker_epoch, m.type)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v6(e_topic_states, out)
    write_uvarint(out, len(m.live_leaders) + 1)
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v4(e_live_leaders, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_request_v7(m: LeaderAndIsrRequest, out: bytearray) -> None:
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("LeaderAndIsrRequest", "UngroupedPartitionStates", 7)
    out += _S7.pack(m.controller_id, m.is_k_raft_controller, m.controller_epoch, m.broker_epoch, m.type)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_leader_and_isr_topic_state_v6(e_topic_states, out)
    write_uvarint(out, len(m.live_leaders) + 1)
    for e_live_leaders in m.live_leaders:
        _encode_leader_and_isr_live_leader_v4(e_live_leaders, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[LeaderAndIsrRequest, int]]] = {
    0: _decode_leader_and_isr_request_v0,
    1: _decode_leader_and_isr_request_v1,
    2: _decode_leader_and_isr_request_v2,
    3: _decode_leader_and_isr_request_v3,
    4: _decode_leader_and_isr_request_v4,
    5: _decode_leader_and_isr_request_v5,
    6: _decode_leader_and_isr_request_v6,
    7: _decode_leader_and_isr_request_v7,
}
_ENCODERS: dict[int, Callable[[LeaderAndIsrRequest, bytearray], None]] = {
    0: _encode_leader_and_isr_request_v0,
    1: _encode_leader_and_isr_request_v1,
    2: _encode_leader_and_isr_request_v2,
    3: _encode_leader_and_isr_request_v3,
    4: _encode_leader_and_isr_request_v4,
    5: _encode_leader_and_isr_request_v5,
    6: _encode_leader_and_isr_request_v6,
    7: _encode_leader_and_isr_request_v7,
}
