"""MetadataResponse: generated from Kafka 3.9.2 and 4.4.0's MetadataResponse.json by
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
    null_error,
    null_field,
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["MetadataResponse", "MetadataResponseBroker", "MetadataResponseTopic", "MetadataResponsePartition"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">hii")
_S3 = Struct(">?")
_S4 = Struct(">hiii")


@dataclass(slots=True)
class MetadataResponseBroker:
    """A list of brokers present in the cluster."""

    node_id: int = 0
    # versions 0+; entity brokerId. The broker ID.
    host: str = ''
    # versions 0+. The broker hostname.
    port: int = 0
    # versions 0+. The broker port.
    rack: str | None = None
    # versions 1+; nullable 1+; ignorable. The rack of the broker, or null if it has not been assigned to a rack.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class MetadataResponsePartition:
    """Each partition in the topic."""

    error_code: int = 0
    # versions 0+. The partition error, or 0 if there was no error.
    partition_index: int = 0
    # versions 0+. The partition index.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the leader broker.
    leader_epoch: int = -1
    # versions 7+; ignorable. The leader epoch of this partition.
    replica_nodes: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of all nodes that host this partition.
    isr_nodes: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The set of nodes that are in sync with the leader for this partition.
    offline_replicas: list[int] = field(default_factory=list)
    # versions 5+; ignorable; entity brokerId. The set of offline replicas of this partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class MetadataResponseTopic:
    """Each topic in the response."""

    error_code: int = 0
    # versions 0+. The topic error, or 0 if there was no error.
    name: str | None = ''
    # versions 0+; nullable 12+; entity topicName. The topic name. Null for non-existing topics queried by ID. This is never null when ErrorCode is zero. One of Name and TopicId is always populated.
    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic id. Zero for non-existing topics queried by name. This is never zero when ErrorCode is zero. One of Name and TopicId is always populated.
    is_internal: bool = False
    # versions 1+; ignorable. True if the topic is internal.
    partitions: list[MetadataResponsePartition] = field(default_factory=list)
    # versions 0+. Each partition in the topic.
    topic_authorized_operations: int = -2147483648
    # versions 8+. 32-bit bitfield to represent authorized operations for this topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class MetadataResponse(ApiMessage):
    """MetadataResponse response"""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = "MetadataResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9

    throttle_time_ms: int = 0
    # versions 3+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    brokers: list[MetadataResponseBroker] = field(default_factory=list)
    # versions 0+. A list of brokers present in the cluster.
    cluster_id: str | None = None
    # versions 2+; nullable 2+; ignorable. The cluster ID that responding broker belongs to.
    controller_id: int = -1
    # versions 1+; ignorable; entity brokerId. The ID of the controller broker.
    topics: list[MetadataResponseTopic] = field(default_factory=list)
    # versions 0+. Each topic in the response.
    cluster_authorized_operations: int = -2147483648
    # versions 8-10. 32-bit bitfield to represent authorized operations for this cluster.
    error_code: int = 0
    # versions 13+; ignorable. The top-level error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"MetadataResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[MetadataResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"MetadataResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"MetadataResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> MetadataResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_metadata_response_broker_v0(buf: memoryview, pos: int) -> tuple[MetadataResponseBroker, int]:
    f_host: str
    f_node_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_string(buf, pos, "host")
    f_port, = _S0.unpack_from(buf, pos)
    pos += 4
    return MetadataResponseBroker(f_node_id, f_host, f_port, None, []), pos


def _decode_metadata_response_partition_v0(buf: memoryview, pos: int) -> tuple[MetadataResponsePartition, int]:
    f_replica_nodes: list[int]
    f_isr_nodes: list[int]
    f_error_code, f_partition_index, f_leader_id = _S2.unpack_from(buf, pos)
    pos += 10
    n_replica_nodes, pos = read_array_length(buf, pos)
    if n_replica_nodes < 0:
        raise null_field("replicaNodes")
    else:
        f_replica_nodes = list(unpack_from(f">{n_replica_nodes}i", buf, pos))
        pos += 4 * n_replica_nodes
    n_isr_nodes, pos = read_array_length(buf, pos)
    if n_isr_nodes < 0:
        raise null_field("isrNodes")
    else:
        f_isr_nodes = list(unpack_from(f">{n_isr_nodes}i", buf, pos))
        pos += 4 * n_isr_nodes
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, -1, f_replica_nodes, f_isr_nodes, [], []), pos


def _decode_metadata_response_topic_v0(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, False, f_partitions, -2147483648, []), pos


def _decode_metadata_response_v0(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_topics: list[MetadataResponseTopic]
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v0(buf, pos)
            f_brokers.append(e_brokers)
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(0, f_brokers, None, -1, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_broker_v1(buf: memoryview, pos: int) -> tuple[MetadataResponseBroker, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_string(buf, pos, "host")
    f_port, = _S0.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_nullable_string(buf, pos)
    return MetadataResponseBroker(f_node_id, f_host, f_port, f_rack, []), pos


def _decode_metadata_response_topic_v1(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_string(buf, pos, "name")
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, f_is_internal, f_partitions, -2147483648, []), pos


def _decode_metadata_response_v1(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_topics: list[MetadataResponseTopic]
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(0, f_brokers, None, f_controller_id, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_v2(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(0, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_v3(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_partition_v5(buf: memoryview, pos: int) -> tuple[MetadataResponsePartition, int]:
    f_replica_nodes: list[int]
    f_isr_nodes: list[int]
    f_offline_replicas: list[int]
    f_error_code, f_partition_index, f_leader_id = _S2.unpack_from(buf, pos)
    pos += 10
    n_replica_nodes, pos = read_array_length(buf, pos)
    if n_replica_nodes < 0:
        raise null_field("replicaNodes")
    else:
        f_replica_nodes = list(unpack_from(f">{n_replica_nodes}i", buf, pos))
        pos += 4 * n_replica_nodes
    n_isr_nodes, pos = read_array_length(buf, pos)
    if n_isr_nodes < 0:
        raise null_field("isrNodes")
    else:
        f_isr_nodes = list(unpack_from(f">{n_isr_nodes}i", buf, pos))
        pos += 4 * n_isr_nodes
    n_offline_replicas, pos = read_array_length(buf, pos)
    if n_offline_replicas < 0:
        raise null_field("offlineReplicas")
    else:
        f_offline_replicas = list(unpack_from(f">{n_offline_replicas}i", buf, pos))
        pos += 4 * n_offline_replicas
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, -1, f_replica_nodes, f_isr_nodes, f_offline_replicas, []), pos


def _decode_metadata_response_topic_v5(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_string(buf, pos, "name")
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v5(buf, pos)
            f_partitions.append(e_partitions)
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, f_is_internal, f_partitions, -2147483648, []), pos


def _decode_metadata_response_v5(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v5(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_partition_v7(buf: memoryview, pos: int) -> tuple[MetadataResponsePartition, int]:
    f_replica_nodes: list[int]
    f_isr_nodes: list[int]
    f_offline_replicas: list[int]
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S4.unpack_from(buf, pos)
    pos += 14
    n_replica_nodes, pos = read_array_length(buf, pos)
    if n_replica_nodes < 0:
        raise null_field("replicaNodes")
    else:
        f_replica_nodes = list(unpack_from(f">{n_replica_nodes}i", buf, pos))
        pos += 4 * n_replica_nodes
    n_isr_nodes, pos = read_array_length(buf, pos)
    if n_isr_nodes < 0:
        raise null_field("isrNodes")
    else:
        f_isr_nodes = list(unpack_from(f">{n_isr_nodes}i", buf, pos))
        pos += 4 * n_isr_nodes
    n_offline_replicas, pos = read_array_length(buf, pos)
    if n_offline_replicas < 0:
        raise null_field("offlineReplicas")
    else:
        f_offline_replicas = list(unpack_from(f">{n_offline_replicas}i", buf, pos))
        pos += 4 * n_offline_replicas
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_offline_replicas, []), pos


def _decode_metadata_response_topic_v7(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_string(buf, pos, "name")
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v7(buf, pos)
            f_partitions.append(e_partitions)
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, f_is_internal, f_partitions, -2147483648, []), pos


def _decode_metadata_response_v7(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v7(buf, pos)
            f_topics.append(e_topics)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, []), pos


def _decode_metadata_response_topic_v8(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_string(buf, pos, "name")
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v7(buf, pos)
            f_partitions.append(e_partitions)
    f_topic_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, f_is_internal, f_partitions, f_topic_authorized_operations, []), pos


def _decode_metadata_response_v8(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v1(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v8(buf, pos)
            f_topics.append(e_topics)
    f_cluster_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0, []), pos


def _decode_metadata_response_broker_v9(buf: memoryview, pos: int) -> tuple[MetadataResponseBroker, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S0.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponseBroker(f_node_id, f_host, f_port, f_rack, _unknown), pos


def _decode_metadata_response_partition_v9(buf: memoryview, pos: int) -> tuple[MetadataResponsePartition, int]:
    f_replica_nodes: list[int]
    f_isr_nodes: list[int]
    f_offline_replicas: list[int]
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S4.unpack_from(buf, pos)
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
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_offline_replicas, _unknown), pos


def _decode_metadata_response_topic_v9(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_compact_string(buf, pos, "name")
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v9(buf, pos)
            f_partitions.append(e_partitions)
    f_topic_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponseTopic(f_error_code, f_name, ZERO_UUID, f_is_internal, f_partitions, f_topic_authorized_operations, _unknown), pos


def _decode_metadata_response_v9(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v9(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v9(buf, pos)
            f_topics.append(e_topics)
    f_cluster_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0, _unknown), pos


def _decode_metadata_response_topic_v10(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_topic_id: UUID
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_compact_string(buf, pos, "name")
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v9(buf, pos)
            f_partitions.append(e_partitions)
    f_topic_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, _unknown), pos


def _decode_metadata_response_v10(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v9(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v10(buf, pos)
            f_topics.append(e_topics)
    f_cluster_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0, _unknown), pos


def _decode_metadata_response_v11(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v9(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v10(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, _unknown), pos


def _decode_metadata_response_topic_v12(buf: memoryview, pos: int) -> tuple[MetadataResponseTopic, int]:
    f_name: str | None
    f_topic_id: UUID
    f_partitions: list[MetadataResponsePartition]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal, = _S3.unpack_from(buf, pos)
    pos += 1
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_metadata_response_partition_v9(buf, pos)
            f_partitions.append(e_partitions)
    f_topic_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, _unknown), pos


def _decode_metadata_response_v12(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v9(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v12(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, _unknown), pos


def _decode_metadata_response_v13(buf: memoryview, pos: int) -> tuple[MetadataResponse, int]:
    f_brokers: list[MetadataResponseBroker]
    f_cluster_id: str | None
    f_topics: list[MetadataResponseTopic]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_metadata_response_broker_v9(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_response_topic_v12(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, f_error_code, _unknown), pos


def _encode_metadata_response_broker_v0(m: MetadataResponseBroker, out: bytearray) -> None:
    out += _S0.pack(m.node_id)
    write_string(out, m.host)
    out += _S0.pack(m.port)


def _encode_metadata_response_partition_v0(m: MetadataResponsePartition, out: bytearray) -> None:
    out += _S2.pack(m.error_code, m.partition_index, m.leader_id)
    out += pack_int32(len(m.replica_nodes))
    out += pack(f">{len(m.replica_nodes)}i", *m.replica_nodes)
    out += pack_int32(len(m.isr_nodes))
    out += pack(f">{len(m.isr_nodes)}i", *m.isr_nodes)


def _encode_metadata_response_topic_v0(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 0)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 0)
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v0(e_partitions, out)


def _encode_metadata_response_v0(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 0)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v0(e_brokers, out)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v0(e_topics, out)


def _encode_metadata_response_broker_v1(m: MetadataResponseBroker, out: bytearray) -> None:
    out += _S0.pack(m.node_id)
    write_string(out, m.host)
    out += _S0.pack(m.port)
    write_nullable_string(out, m.rack)


def _encode_metadata_response_topic_v1(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 1)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 1)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v0(e_partitions, out)


def _encode_metadata_response_v1(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 1)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v1(e_topics, out)


def _encode_metadata_response_topic_v2(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 2)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 2)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v0(e_partitions, out)


def _encode_metadata_response_v2(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 2)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v2(e_topics, out)


def _encode_metadata_response_topic_v3(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 3)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 3)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v0(e_partitions, out)


def _encode_metadata_response_v3(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 3)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v3(e_topics, out)


def _encode_metadata_response_topic_v4(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 4)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 4)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v0(e_partitions, out)


def _encode_metadata_response_v4(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 4)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v4(e_topics, out)


def _encode_metadata_response_partition_v5(m: MetadataResponsePartition, out: bytearray) -> None:
    out += _S2.pack(m.error_code, m.partition_index, m.leader_id)
    out += pack_int32(len(m.replica_nodes))
    out += pack(f">{len(m.replica_nodes)}i", *m.replica_nodes)
    out += pack_int32(len(m.isr_nodes))
    out += pack(f">{len(m.isr_nodes)}i", *m.isr_nodes)
    out += pack_int32(len(m.offline_replicas))
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)


def _encode_metadata_response_topic_v5(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 5)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 5)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v5(e_partitions, out)


def _encode_metadata_response_v5(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 5)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v5(e_topics, out)


def _encode_metadata_response_topic_v6(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 6)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 6)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v5(e_partitions, out)


def _encode_metadata_response_v6(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 6)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v6(e_topics, out)


def _encode_metadata_response_partition_v7(m: MetadataResponsePartition, out: bytearray) -> None:
    out += _S4.pack(m.error_code, m.partition_index, m.leader_id, m.leader_epoch)
    out += pack_int32(len(m.replica_nodes))
    out += pack(f">{len(m.replica_nodes)}i", *m.replica_nodes)
    out += pack_int32(len(m.isr_nodes))
    out += pack(f">{len(m.isr_nodes)}i", *m.isr_nodes)
    out += pack_int32(len(m.offline_replicas))
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)


def _encode_metadata_response_topic_v7(m: MetadataResponseTopic, out: bytearray) -> None:
    if m.topic_authorized_operations != -2147483648:
        raise version_error("MetadataResponseTopic", "TopicAuthorizedOperations", 7)
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 7)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v7(e_partitions, out)


def _encode_metadata_response_v7(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 7)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v7(e_topics, out)


def _encode_metadata_response_topic_v8(m: MetadataResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 8)
    write_string(out, m.name)
    out += _S3.pack(m.is_internal)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v7(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)


def _encode_metadata_response_v8(m: MetadataResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.brokers))
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v1(e_brokers, out)
    write_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_response_topic_v8(e_topics, out)
    out += _S0.pack(m.cluster_authorized_operations)


def _encode_metadata_response_broker_v9(m: MetadataResponseBroker, out: bytearray) -> None:
    out += _S0.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S0.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_partition_v9(m: MetadataResponsePartition, out: bytearray) -> None:
    out += _S4.pack(m.error_code, m.partition_index, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.replica_nodes) + 1)
    out += pack(f">{len(m.replica_nodes)}i", *m.replica_nodes)
    write_uvarint(out, len(m.isr_nodes) + 1)
    out += pack(f">{len(m.isr_nodes)}i", *m.isr_nodes)
    write_uvarint(out, len(m.offline_replicas) + 1)
    out += pack(f">{len(m.offline_replicas)}i", *m.offline_replicas)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_topic_v9(m: MetadataResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 9)
    write_compact_string(out, m.name)
    out += _S3.pack(m.is_internal)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v9(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_v9(m: MetadataResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v9(e_brokers, out)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_metadata_response_topic_v9(e_topics, out)
    out += _S0.pack(m.cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_topic_v10(m: MetadataResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 10)
    write_compact_string(out, m.name)
    out += m.topic_id.bytes
    out += _S3.pack(m.is_internal)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v9(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_v10(m: MetadataResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v9(e_brokers, out)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_metadata_response_topic_v10(e_topics, out)
    out += _S0.pack(m.cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_topic_v11(m: MetadataResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    if m.name is None:
        raise null_error("MetadataResponseTopic", "Name", 11)
    write_compact_string(out, m.name)
    out += m.topic_id.bytes
    out += _S3.pack(m.is_internal)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v9(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_v11(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 11)
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v9(e_brokers, out)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_metadata_response_topic_v11(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_topic_v12(m: MetadataResponseTopic, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.name)
    out += m.topic_id.bytes
    out += _S3.pack(m.is_internal)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_metadata_response_partition_v9(e_partitions, out)
    out += _S0.pack(m.topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_v12(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 12)
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v9(e_brokers, out)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_metadata_response_topic_v12(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_response_v13(m: MetadataResponse, out: bytearray) -> None:
    if m.cluster_authorized_operations != -2147483648:
        raise version_error("MetadataResponse", "ClusterAuthorizedOperations", 13)
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_metadata_response_broker_v9(e_brokers, out)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.controller_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_metadata_response_topic_v12(e_topics, out)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[MetadataResponse, int]]] = {
    0: _decode_metadata_response_v0,
    1: _decode_metadata_response_v1,
    2: _decode_metadata_response_v2,
    3: _decode_metadata_response_v3,
    4: _decode_metadata_response_v3,
    5: _decode_metadata_response_v5,
    6: _decode_metadata_response_v5,
    7: _decode_metadata_response_v7,
    8: _decode_metadata_response_v8,
    9: _decode_metadata_response_v9,
    10: _decode_metadata_response_v10,
    11: _decode_metadata_response_v11,
    12: _decode_metadata_response_v12,
    13: _decode_metadata_response_v13,
}
_ENCODERS: dict[int, Callable[[MetadataResponse, bytearray], None]] = {
    0: _encode_metadata_response_v0,
    1: _encode_metadata_response_v1,
    2: _encode_metadata_response_v2,
    3: _encode_metadata_response_v3,
    4: _encode_metadata_response_v4,
    5: _encode_metadata_response_v5,
    6: _encode_metadata_response_v6,
    7: _encode_metadata_response_v7,
    8: _encode_metadata_response_v8,
    9: _encode_metadata_response_v9,
    10: _encode_metadata_response_v10,
    11: _encode_metadata_response_v11,
    12: _encode_metadata_response_v12,
    13: _encode_metadata_response_v13,
}
