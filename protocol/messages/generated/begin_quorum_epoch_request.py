"""BeginQuorumEpochRequest: generated from Kafka 3.9.2 and 4.4.0's BeginQuorumEpochRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["BeginQuorumEpochRequest", "TopicData", "PartitionData", "LeaderEndpoint"]

_S0 = Struct(">iii")
_S1 = Struct(">i")
_S2 = Struct(">ii")
_S3 = Struct(">H")


@dataclass(slots=True)
class PartitionData:
    """The partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    voter_directory_id: UUID = ZERO_UUID
    # versions 1+; ignorable. The directory id of the receiving replica.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the newly elected leader.
    leader_epoch: int = 0
    # versions 0+. The epoch of the newly elected leader.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topics."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderEndpoint:
    """Endpoints for the leader."""

    name: str = ''
    # versions 1+. The name of the endpoint.
    host: str = ''
    # versions 1+. The node's hostname.
    port: int = 0
    # versions 1+. The node's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class BeginQuorumEpochRequest(ApiMessage):
    """BeginQuorumEpochRequest request"""

    API_KEY: ClassVar[int] = 53
    NAME: ClassVar[str] = "BeginQuorumEpochRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    cluster_id: str | None = None
    # versions 0+; nullable 0+. The cluster id.
    voter_id: int = -1
    # versions 1+; ignorable; entity brokerId. The replica id of the voter receiving the request.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topics.
    leader_endpoints: list[LeaderEndpoint] = field(default_factory=list)
    # versions 1+; ignorable. Endpoints for the leader.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BeginQuorumEpochRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[BeginQuorumEpochRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BeginQuorumEpochRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"BeginQuorumEpochRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> BeginQuorumEpochRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, f_leader_id, f_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    return PartitionData(f_partition_index, ZERO_UUID, f_leader_id, f_leader_epoch, []), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v0(buf, pos)
            f_partitions.append(e_partitions)
    return TopicData(f_topic_name, f_partitions, []), pos


def _decode_begin_quorum_epoch_request_v0(buf: memoryview, pos: int) -> tuple[BeginQuorumEpochRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
    f_cluster_id, pos = read_nullable_string(buf, pos)
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    return BeginQuorumEpochRequest(f_cluster_id, -1, f_topics, [], []), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_voter_directory_id: UUID
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    f_voter_directory_id, pos = read_uuid(buf, pos)
    f_leader_id, f_leader_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_voter_directory_id, f_leader_id, f_leader_epoch, _unknown), pos


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


def _decode_leader_endpoint_v1(buf: memoryview, pos: int) -> tuple[LeaderEndpoint, int]:
    f_name: str
    f_host: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderEndpoint(f_name, f_host, f_port, _unknown), pos


def _decode_begin_quorum_epoch_request_v1(buf: memoryview, pos: int) -> tuple[BeginQuorumEpochRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
    f_leader_endpoints: list[LeaderEndpoint]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_voter_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v1(buf, pos)
            f_topics.append(e_topics)
    n_leader_endpoints, pos = read_compact_array_length(buf, pos)
    if n_leader_endpoints < 0:
        raise null_field("leaderEndpoints")
    else:
        f_leader_endpoints = []
        for _ in range(n_leader_endpoints):
            e_leader_endpoints, pos = _decode_leader_endpoint_v1(buf, pos)
            f_leader_endpoints.append(e_leader_endpoints)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BeginQuorumEpochRequest(f_cluster_id, f_voter_id, f_topics, f_leader_endpoints, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.leader_id, m.leader_epoch)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)


def _encode_begin_quorum_epoch_request_v0(m: BeginQuorumEpochRequest, out: bytearray) -> None:
    write_nullable_string(out, m.cluster_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    out += m.voter_directory_id.bytes
    out += _S2.pack(m.leader_id, m.leader_epoch)
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


def _encode_leader_endpoint_v1(m: LeaderEndpoint, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S3.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_begin_quorum_epoch_request_v1(m: BeginQuorumEpochRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S1.pack(m.voter_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    write_uvarint(out, len(m.leader_endpoints) + 1)
    for e_leader_endpoints in m.leader_endpoints:
        _encode_leader_endpoint_v1(e_leader_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[BeginQuorumEpochRequest, int]]] = {
    0: _decode_begin_quorum_epoch_request_v0,
    1: _decode_begin_quorum_epoch_request_v1,
}
_ENCODERS: dict[int, Callable[[BeginQuorumEpochRequest, bytearray], None]] = {
    0: _encode_begin_quorum_epoch_request_v0,
    1: _encode_begin_quorum_epoch_request_v1,
}
