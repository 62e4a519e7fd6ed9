"""UpdateMetadataRequest: generated from Kafka 3.9.2's UpdateMetadataRequest.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["UpdateMetadataRequest", "UpdateMetadataPartitionState", "UpdateMetadataTopicState", "UpdateMetadataBroker", "UpdateMetadataEndpoint"]

_S0 = Struct(">ii")
_S1 = Struct(">iiii")
_S2 = Struct(">i")
_S3 = Struct(">h")
_S4 = Struct(">iiq")
_S5 = Struct(">i?iq")
_S6 = Struct(">b")


@dataclass(slots=True)
class UpdateMetadataPartitionState:
    """A UpdateMetadataPartitionState in UpdateMetadataRequest."""

    topic_name: str = ''
    # versions 0-4; ignorable; entity topicName. In older versions of this RPC, the topic name.
    partition_index: int = 0
    # versions 0+. The partition index.
    controller_epoch: int = 0
    # versions 0+. The controller epoch.
    leader: int = 0
    # versions 0+; entity brokerId. The ID of the broker which is the current partition leader.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of this partition.
    isr: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The brokers which are in the ISR for this partition.
    zk_version: int = 0
    # versions 0+. The Zookeeper version.
    replicas: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. All the replicas of this partition.
    offline_replicas: list[int] = field(default_factory=list)
    # versions 4+; ignorable; entity brokerId. The replicas of this partition which are offline.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateMetadataTopicState:
    """In newer versions of this RPC, each topic that we would like to update."""

    topic_name: str = ''
    # versions 5+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 7+; ignorable. The topic id.
    partition_states: list[UpdateMetadataPartitionState] = field(default_factory=list)
    # versions 5+. The partition that we would like to update.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateMetadataEndpoint:
    """The broker endpoints."""

    port: int = 0
    # versions 1+. The port of this endpoint
    host: str = ''
    # versions 1+. The hostname of this endpoint
    listener: str = ''
    # versions 3+; ignorable. The listener name.
    security_protocol: int = 0
    # versions 1+. The security protocol type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateMetadataBroker:
    """A UpdateMetadataBroker in UpdateMetadataRequest."""

    id: int = 0
    # versions 0+; entity brokerId. The broker id.
    v0_host: str = ''
    # versions 0; ignorable. The broker hostname.
    v0_port: int = 0
    # versions 0; ignorable. The broker port.
    endpoints: list[UpdateMetadataEndpoint] = field(default_factory=list)
    # versions 1+; ignorable. The broker endpoints.
    rack: str | None = ''
    # versions 2+; nullable 0+; ignorable. The rack which this broker belongs to.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateMetadataRequest(ApiMessage):
    """UpdateMetadataRequest request"""

    API_KEY: ClassVar[int] = 6
    NAME: ClassVar[str] = "UpdateMetadataRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 8
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    controller_id: int = 0
    # versions 0+; entity brokerId. The controller id.
    is_k_raft_controller: bool = False
    # versions 8+. If KRaft controller id is used during migration. See KIP-866
    type: int = 0
    # versions 8+; tag 0 in 8+. Indicates if this request is a Full metadata snapshot (2), Incremental (1), or Unknown (0). Using during ZK migration, see KIP-866
    controller_epoch: int = 0
    # versions 0+. The controller epoch.
    broker_epoch: int = -1
    # versions 5+; ignorable. The broker epoch.
    ungrouped_partition_states: list[UpdateMetadataPartitionState] = field(default_factory=list)
    # versions 0-4. In older versions of this RPC, each partition that we would like to update.
    topic_states: list[UpdateMetadataTopicState] = field(default_factory=list)
    # versions 5+. In newer versions of this RPC, each topic that we would like to update.
    live_brokers: list[UpdateMetadataBroker] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateMetadataRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateMetadataRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateMetadataRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateMetadataRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateMetadataRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_update_metadata_partition_state_v0(buf: memoryview, pos: int) -> tuple[UpdateMetadataPartitionState, int]:
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
    f_zk_version, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    return UpdateMetadataPartitionState(f_topic_name, f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_zk_version, f_replicas, [], []), pos


def _decode_update_metadata_broker_v0(buf: memoryview, pos: int) -> tuple[UpdateMetadataBroker, int]:
    f_v0_host: str
    f_id, = _S2.unpack_from(buf, pos)
    pos += 4
    f_v0_host, pos = read_string(buf, pos, "v0Host")
    f_v0_port, = _S2.unpack_from(buf, pos)
    pos += 4
    return UpdateMetadataBroker(f_id, f_v0_host, f_v0_port, [], '', []), pos


def _decode_update_metadata_request_v0(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_ungrouped_partition_states: list[UpdateMetadataPartitionState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_update_metadata_partition_state_v0(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v0(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, -1, f_ungrouped_partition_states, [], f_live_brokers, []), pos


def _decode_update_metadata_endpoint_v1(buf: memoryview, pos: int) -> tuple[UpdateMetadataEndpoint, int]:
    f_host: str
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_string(buf, pos, "host")
    f_security_protocol, = _S3.unpack_from(buf, pos)
    pos += 2
    return UpdateMetadataEndpoint(f_port, f_host, '', f_security_protocol, []), pos


def _decode_update_metadata_broker_v1(buf: memoryview, pos: int) -> tuple[UpdateMetadataBroker, int]:
    f_endpoints: list[UpdateMetadataEndpoint]
    f_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_endpoints, pos = read_array_length(buf, pos)
    if n_endpoints < 0:
        raise null_field("endpoints")
    else:
        f_endpoints = []
        for _ in range(n_endpoints):
            e_endpoints, pos = _decode_update_metadata_endpoint_v1(buf, pos)
            f_endpoints.append(e_endpoints)
    return UpdateMetadataBroker(f_id, '', 0, f_endpoints, '', []), pos


def _decode_update_metadata_request_v1(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_ungrouped_partition_states: list[UpdateMetadataPartitionState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_update_metadata_partition_state_v0(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v1(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, -1, f_ungrouped_partition_states, [], f_live_brokers, []), pos


def _decode_update_metadata_broker_v2(buf: memoryview, pos: int) -> tuple[UpdateMetadataBroker, int]:
    f_endpoints: list[UpdateMetadataEndpoint]
    f_rack: str | None
    f_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_endpoints, pos = read_array_length(buf, pos)
    if n_endpoints < 0:
        raise null_field("endpoints")
    else:
        f_endpoints = []
        for _ in range(n_endpoints):
            e_endpoints, pos = _decode_update_metadata_endpoint_v1(buf, pos)
            f_endpoints.append(e_endpoints)
    f_rack, pos = read_nullable_string(buf, pos)
    return UpdateMetadataBroker(f_id, '', 0, f_endpoints, f_rack, []), pos


def _decode_update_metadata_request_v2(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_ungrouped_partition_states: list[UpdateMetadataPartitionState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_update_metadata_partition_state_v0(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v2(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, -1, f_ungrouped_partition_states, [], f_live_brokers, []), pos


def _decode_update_metadata_endpoint_v3(buf: memoryview, pos: int) -> tuple[UpdateMetadataEndpoint, int]:
    f_host: str
    f_listener: str
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_string(buf, pos, "host")
    f_listener, pos = read_string(buf, pos, "listener")
    f_security_protocol, = _S3.unpack_from(buf, pos)
    pos += 2
    return UpdateMetadataEndpoint(f_port, f_host, f_listener, f_security_protocol, []), pos


def _decode_update_metadata_broker_v3(buf: memoryview, pos: int) -> tuple[UpdateMetadataBroker, int]:
    f_endpoints: list[UpdateMetadataEndpoint]
    f_rack: str | None
    f_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_endpoints, pos = read_array_length(buf, pos)
    if n_endpoints < 0:
        raise null_field("endpoints")
    else:
        f_endpoints = []
        for _ in range(n_endpoints):
            e_endpoints, pos = _decode_update_metadata_endpoint_v3(buf, pos)
            f_endpoints.append(e_endpoints)
    f_rack, pos = read_nullable_string(buf, pos)
    return UpdateMetadataBroker(f_id, '', 0, f_endpoints, f_rack, []), pos


def _decode_update_metadata_request_v3(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_ungrouped_partition_states: list[UpdateMetadataPartitionState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_update_metadata_partition_state_v0(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v3(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, -1, f_ungrouped_partition_states, [], f_live_brokers, []), pos


def _decode_update_metadata_partition_state_v4(buf: memoryview, pos: int) -> tuple[UpdateMetadataPartitionState, int]:
    f_topic_name: str
    f_isr: list[int]
    f_replicas: list[int]
    f_offline_replicas: list[int]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_zk_version, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    n_offline_replicas, pos = read_array_length(buf, pos)
    if n_offline_replicas < 0:
        raise null_field("offlineReplicas")
    else:
        f_offline_replicas = list(unpack_from(f">{n_offline_replicas}i", buf, pos))
        pos += 4 * n_offline_replicas
    return UpdateMetadataPartitionState(f_topic_name, f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_zk_version, f_replicas, f_offline_replicas, []), pos


def _decode_update_metadata_request_v4(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_ungrouped_partition_states: list[UpdateMetadataPartitionState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    n_ungrouped_partition_states, pos = read_array_length(buf, pos)
    if n_ungrouped_partition_states < 0:
        raise null_field("ungroupedPartitionStates")
    else:
        f_ungrouped_partition_states = []
        for _ in range(n_ungrouped_partition_states):
            e_ungrouped_partition_states, pos = _decode_update_metadata_partition_state_v4(buf, pos)
            f_ungrouped_partition_states.append(e_ungrouped_partition_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v3(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, -1, f_ungrouped_partition_states, [], f_live_brokers, []), pos


def _decode_update_metadata_partition_state_v5(buf: memoryview, pos: int) -> tuple[UpdateMetadataPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_offline_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_zk_version, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    n_offline_replicas, pos = read_array_length(buf, pos)
    if n_offline_replicas < 0:
        raise null_field("offlineReplicas")
    else:
        f_offline_replicas = list(unpack_from(f">{n_offline_replicas}i", buf, pos))
        pos += 4 * n_offline_replicas
    return UpdateMetadataPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_zk_version, f_replicas, f_offline_replicas, []), pos


def _decode_update_metadata_topic_state_v5(buf: memoryview, pos: int) -> tuple[UpdateMetadataTopicState, int]:
    f_topic_name: str
    f_partition_states: list[UpdateMetadataPartitionState]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partition_states, pos = read_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_update_metadata_partition_state_v5(buf, pos)
            f_partition_states.append(e_partition_states)
    return UpdateMetadataTopicState(f_topic_name, ZERO_UUID, f_partition_states, []), pos


def _decode_update_metadata_request_v5(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_topic_states: list[UpdateMetadataTopicState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_update_metadata_topic_state_v5(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_brokers, pos = read_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v3(buf, pos)
            f_live_brokers.append(e_live_brokers)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, f_broker_epoch, [], f_topic_states, f_live_brokers, []), pos


def _decode_update_metadata_partition_state_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataPartitionState, int]:
    f_isr: list[int]
    f_replicas: list[int]
    f_offline_replicas: list[int]
    f_partition_index, f_controller_epoch, f_leader, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    n_isr, pos = read_compact_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_zk_version, = _S2.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_compact_array_length(buf, pos)
    if n_replicas < 0:
        raise null_field("replicas")
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
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
    return UpdateMetadataPartitionState('', f_partition_index, f_controller_epoch, f_leader, f_leader_epoch, f_isr, f_zk_version, f_replicas, f_offline_replicas, _unknown), pos


def _decode_update_metadata_topic_state_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataTopicState, int]:
    f_topic_name: str
    f_partition_states: list[UpdateMetadataPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_update_metadata_partition_state_v6(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataTopicState(f_topic_name, ZERO_UUID, f_partition_states, _unknown), pos


def _decode_update_metadata_endpoint_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataEndpoint, int]:
    f_host: str
    f_listener: str
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_listener, pos = read_compact_string(buf, pos, "listener")
    f_security_protocol, = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataEndpoint(f_port, f_host, f_listener, f_security_protocol, _unknown), pos


def _decode_update_metadata_broker_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataBroker, int]:
    f_endpoints: list[UpdateMetadataEndpoint]
    f_rack: str | None
    f_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_endpoints, pos = read_compact_array_length(buf, pos)
    if n_endpoints < 0:
        raise null_field("endpoints")
    else:
        f_endpoints = []
        for _ in range(n_endpoints):
            e_endpoints, pos = _decode_update_metadata_endpoint_v6(buf, pos)
            f_endpoints.append(e_endpoints)
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataBroker(f_id, '', 0, f_endpoints, f_rack, _unknown), pos


def _decode_update_metadata_request_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_topic_states: list[UpdateMetadataTopicState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_update_metadata_topic_state_v6(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_brokers, pos = read_compact_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v6(buf, pos)
            f_live_brokers.append(e_live_brokers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, f_broker_epoch, [], f_topic_states, f_live_brokers, _unknown), pos


def _decode_update_metadata_topic_state_v7(buf: memoryview, pos: int) -> tuple[UpdateMetadataTopicState, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_partition_states: list[UpdateMetadataPartitionState]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_states, pos = read_compact_array_length(buf, pos)
    if n_partition_states < 0:
        raise null_field("partitionStates")
    else:
        f_partition_states = []
        for _ in range(n_partition_states):
            e_partition_states, pos = _decode_update_metadata_partition_state_v6(buf, pos)
            f_partition_states.append(e_partition_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataTopicState(f_topic_name, f_topic_id, f_partition_states, _unknown), pos


def _decode_update_metadata_request_v7(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_topic_states: list[UpdateMetadataTopicState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_controller_epoch, f_broker_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_update_metadata_topic_state_v7(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_brokers, pos = read_compact_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v6(buf, pos)
            f_live_brokers.append(e_live_brokers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataRequest(f_controller_id, False, 0, f_controller_epoch, f_broker_epoch, [], f_topic_states, f_live_brokers, _unknown), pos


def _decode_update_metadata_request_v8(buf: memoryview, pos: int) -> tuple[UpdateMetadataRequest, int]:
    f_topic_states: list[UpdateMetadataTopicState]
    f_live_brokers: list[UpdateMetadataBroker]
    f_controller_id, f_is_k_raft_controller, f_controller_epoch, f_broker_epoch = _S5.unpack_from(buf, pos)
    pos += 17
    n_topic_states, pos = read_compact_array_length(buf, pos)
    if n_topic_states < 0:
        raise null_field("topicStates")
    else:
        f_topic_states = []
        for _ in range(n_topic_states):
            e_topic_states, pos = _decode_update_metadata_topic_state_v7(buf, pos)
            f_topic_states.append(e_topic_states)
    n_live_brokers, pos = read_compact_array_length(buf, pos)
    if n_live_brokers < 0:
        raise null_field("liveBrokers")
    else:
        f_live_brokers = []
        for _ in range(n_live_brokers):
            e_live_brokers, pos = _decode_update_metadata_broker_v6(buf, pos)
            f_live_brokers.append(e_live_brokers)
    f_type: int = 0
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_type, = _S6.unpack_from(buf, pos)
                pos += 1
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return UpdateMetadataRequest(f_controller_id, f_is_k_raft_controller, f_type, f_controller_epoch, f_broker_epoch, [], f_topic_states, f_live_brokers, _unknown), pos


def _encode_update_metadata_partition_state_v0(m: UpdateMetadataPartitionState, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.zk_version)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)


def _encode_update_metadata_broker_v0(m: UpdateMetadataBroker, out: bytearray) -> None:
    out += _S2.pack(m.id)
    write_string(out, m.v0_host)
    out += _S2.pack(m.v0_port)


def _encode_update_metadata_request_v0(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 0)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 0)
    if len(m.topic_states) > 0:
        raise version_error("UpdateMetadataRequest", "TopicStates", 0)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_update_metadata_partition_state_v0(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v0(e_live_brokers, out)


def _encode_update_metadata_endpoint_v1(m: UpdateMetadataEndpoint, out: bytearray) -> None:
    out += _S2.pack(m.port)
    write_string(out, m.host)
    out += _S3.pack(m.security_protocol)


def _encode_update_metadata_broker_v1(m: UpdateMetadataBroker, out: bytearray) -> None:
    out += _S2.pack(m.id)
    out += pack_int32(len(m.endpoints))
    for e_endpoints in m.endpoints:
        _encode_update_metadata_endpoint_v1(e_endpoints, out)


def _encode_update_metadata_request_v1(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 1)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 1)
    if len(m.topic_states) > 0:
        raise version_error("UpdateMetadataRequest", "TopicStates", 1)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_update_metadata_partition_state_v0(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v1(e_live_brokers, out)


def _encode_update_metadata_broker_v2(m: UpdateMetadataBroker, out: bytearray) -> None:
    out += _S2.pack(m.id)
    out += pack_int32(len(m.endpoints))
    for e_endpoints in m.endpoints:
        _encode_update_metadata_endpoint_v1(e_endpoints, out)
    write_nullable_string(out, m.rack)


def _encode_update_metadata_request_v2(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 2)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 2)
    if len(m.topic_states) > 0:
        raise version_error("UpdateMetadataRequest", "TopicStates", 2)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_update_metadata_partition_state_v0(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v2(e_live_brokers, out)


def _encode_update_metadata_endpoint_v3(m: UpdateMetadataEndpoint, out: bytearray) -> None:
    out += _S2.pack(m.port)
    write_string(out, m.host)
    write_string(out, m.listener)
    out += _S3.pack(m.security_protocol)


def _encode_update_metadata_broker_v3(m: UpdateMetadataBroker, out: bytearray) -> None:
    out += _S2.pack(m.id)
    out += pack_int32(len(m.endpoints))
    for e_endpoints in m.endpoints:
        _encode_update_metadata_endpoint_v3(e_endpoints, out)
    write_nullable_string(out, m.rack)


def _encode_update_metadata_request_v3(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 3)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 3)
    if len(m.topic_states) > 0:
        raise version_error("UpdateMetadataRequest", "TopicStates", 3)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_update_metadata_partition_state_v0(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v3(e_live_brokers, out)


def _encode_update_metadata_partition_state_v4(m: UpdateMetadataPartitionState, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.zk_version)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    out += pack_int32(len(m.offline_replicas))
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)


def _encode_update_metadata_request_v4(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 4)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 4)
    if len(m.topic_states) > 0:
        raise version_error("UpdateMetadataRequest", "TopicStates", 4)
    out += _S0.pack(m.controller_id, m.controller_epoch)
    out += pack_int32(len(m.ungrouped_partition_states))
    for e_ungrouped_partition_states in m.ungrouped_partition_states:
        _encode_update_metadata_partition_state_v4(e_ungrouped_partition_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v3(e_live_brokers, out)


def _encode_update_metadata_partition_state_v5(m: UpdateMetadataPartitionState, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    out += pack_int32(len(m.isr))
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.zk_version)
    out += pack_int32(len(m.replicas))
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    out += pack_int32(len(m.offline_replicas))
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)


def _encode_update_metadata_topic_state_v5(m: UpdateMetadataTopicState, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partition_states))
    for e_partition_states in m.partition_states:
        _encode_update_metadata_partition_state_v5(e_partition_states, out)


def _encode_update_metadata_request_v5(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 5)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 5)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("UpdateMetadataRequest", "UngroupedPartitionStates", 5)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    out += pack_int32(len(m.topic_states))
    for e_topic_states in m.topic_states:
        _encode_update_metadata_topic_state_v5(e_topic_states, out)
    out += pack_int32(len(m.live_brokers))
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v3(e_live_brokers, out)


def _encode_update_metadata_partition_state_v6(m: UpdateMetadataPartitionState, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.controller_epoch, m.leader, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.zk_version)
    write_uvarint(out, len(m.replicas) + 1)
    out += pack(f">{len(m.replicas)}i", *m.replicas)
    write_uvarint(out, len(m.offline_replicas) + 1)
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_topic_state_v6(m: UpdateMetadataTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_update_metadata_partition_state_v6(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_endpoint_v6(m: UpdateMetadataEndpoint, out: bytearray) -> None:
    out += _S2.pack(m.port)
    write_compact_string(out, m.host)
    write_compact_string(out, m.listener)
    out += _S3.pack(m.security_protocol)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_broker_v6(m: UpdateMetadataBroker, out: bytearray) -> None:
    out += _S2.pack(m.id)
    write_uvarint(out, len(m.endpoints) + 1)
    for e_endpoints in m.endpoints:
        _encode_update_metadata_endpoint_v6(e_endpoints, out)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_request_v6(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 6)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 6)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("UpdateMetadataRequest", "UngroupedPartitionStates", 6)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_update_metadata_topic_state_v6(e_topic_states, out)
    write_uvarint(out, len(m.live_brokers) + 1)
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v6(e_live_brokers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_topic_state_v7(m: UpdateMetadataTopicState, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_states) + 1)
    for e_partition_states in m.partition_states:
        _encode_update_metadata_partition_state_v6(e_partition_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_request_v7(m: UpdateMetadataRequest, out: bytearray) -> None:
    if m.is_k_raft_controller:
        raise version_error("UpdateMetadataRequest", "isKRaftController", 7)
    if m.type != 0:
        raise version_error("UpdateMetadataRequest", "Type", 7)
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("UpdateMetadataRequest", "UngroupedPartitionStates", 7)
    out += _S4.pack(m.controller_id, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_update_metadata_topic_state_v7(e_topic_states, out)
    write_uvarint(out, len(m.live_brokers) + 1)
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v6(e_live_brokers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_metadata_request_v8(m: UpdateMetadataRequest, out: bytearray) -> None:
    if len(m.ungrouped_partition_states) > 0:
        raise version_error("UpdateMetadataRequest", "UngroupedPartitionStates", 8)
    out += _S5.pack(m.controller_id, m.is_k_raft_controller, m.controller_epoch, m.broker_epoch)
    write_uvarint(out, len(m.topic_states) + 1)
    for e_topic_states in m.topic_states:
        _encode_update_metadata_topic_state_v7(e_topic_states, out)
    write_uvarint(out, len(m.live_brokers) + 1)
    for e_live_brokers in m.live_brokers:
        _encode_update_metadata_broker_v6(e_live_brokers, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.type != 0:
        _t = bytearray()
        _t += _S6.pack(m.type)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateMetadataRequest, int]]] = {
    0: _decode_update_metadata_request_v0,
    1: _decode_update_metadata_request_v1,
    2: _decode_update_metadata_request_v2,
    3: _decode_update_metadata_request_v3,
    4: _decode_update_metadata_request_v4,
    5: _decode_update_metadata_request_v5,
    6: _decode_update_metadata_request_v6,
    7: _decode_update_metadata_request_v7,
    8: _decode_update_metadata_request_v8,
}
_ENCODERS: dict[int, Callable[[UpdateMetadataRequest, bytearray], None]] = {
    0: _encode_update_metadata_request_v0,
    1: _encode_update_metadata_request_v1,
    2: _encode_update_metadata_request_v2,
    3: _encode_update_metadata_request_v3,
    4: _encode_update_metadata_request_v4,
    5: _encode_update_metadata_request_v5,
    6: _encode_update_metadata_request_v6,
    7: _encode_update_metadata_request_v7,
    8: _encode_update_metadata_request_v8,
}
