"""EndQuorumEpochRequest: generated from Kafka 3.9.2 and 4.4.0's EndQuorumEpochRequest.json by
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
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["EndQuorumEpochRequest", "TopicData", "PartitionData", "ReplicaInfo", "LeaderEndpoint"]

_S0 = Struct(">iii")
_S1 = Struct(">i")
_S2 = Struct(">H")


@dataclass(slots=True)
class ReplicaInfo:
    """A sorted list of preferred candidates to start the election."""

    candidate_id: int = 0
    # versions 1+; entity brokerId. The ID of the candidate replica.
    candidate_directory_id: UUID = ZERO_UUID
    # versions 1+. The directory ID of the candidate replica.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    leader_id: int = 0
    # versions 0+; entity brokerId. The current leader ID that is resigning.
    leader_epoch: int = 0
    # versions 0+. The current epoch.
    preferred_successors: list[int] = field(default_factory=list)
    # versions 0; ignorable. A sorted list of preferred successors to start the election.
    preferred_candidates: list[ReplicaInfo] = field(default_factory=list)
    # versions 1+; ignorable. A sorted list of preferred candidates to start the election.
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
class EndQuorumEpochRequest(ApiMessage):
    """EndQuorumEpochRequest request"""

    API_KEY: ClassVar[int] = 54
    NAME: ClassVar[str] = "EndQuorumEpochRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    cluster_id: str | None = None
    # versions 0+; nullable 0+. The cluster id.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topics.
    leader_endpoints: list[LeaderEndpoint] = field(default_factory=list)
    # versions 1+; ignorable. Endpoints for the leader.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndQuorumEpochRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[EndQuorumEpochRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndQuorumEpochRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"EndQuorumEpochRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> EndQuorumEpochRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_preferred_successors: list[int]
    f_partition_index, f_leader_id, f_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    n_preferred_successors, pos = read_array_length(buf, pos)
    if n_preferred_successors < 0:
        raise null_field("preferredSuccessors")
    else:
        f_preferred_successors = list(unpack_from(f">{n_preferred_successors}i", buf, pos))
        pos += 4 * n_preferred_successors
    return PartitionData(f_partition_index, f_leader_id, f_leader_epoch, f_preferred_successors, [], []), pos


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


def _decode_end_quorum_epoch_request_v0(buf: memoryview, pos: int) -> tuple[EndQuorumEpochRequest, int]:
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
    return EndQuorumEpochRequest(f_cluster_id, f_topics, [], []), pos


def _decode_replica_info_v1(buf: memoryview, pos: int) -> tuple[ReplicaInfo, int]:
    f_candidate_directory_id: UUID
    f_candidate_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_candidate_directory_id, pos = read_uuid(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaInfo(f_candidate_id, f_candidate_directory_id, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_preferred_candidates: list[ReplicaInfo]
    f_partition_index, f_leader_id, f_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    n_preferred_candidates, pos = read_compact_array_length(buf, pos)
    if n_preferred_candidates < 0:
        raise null_field("preferredCandidates")
    else:
        f_preferred_candidates = []
        for _ in range(n_preferred_candidates):
            e_preferred_candidates, pos = _decode_replica_info_v1(buf, pos)
            f_preferred_candidates.append(e_preferred_candidates)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_leader_id, f_leader_epoch, [], f_preferred_candidates, _unknown), pos


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
    f_port, = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderEndpoint(f_name, f_host, f_port, _unknown), pos


def _decode_end_quorum_epoch_request_v1(buf: memoryview, pos: int) -> tuple[EndQuorumEpochRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
    f_leader_endpoints: list[LeaderEndpoint]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
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
    return EndQuorumEpochRequest(f_cluster_id, f_topics, f_leader_endpoints, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.leader_id, m.leader_epoch)
    out += pack_int32(len(m.preferred_successors))
    out += pack(f">{len(m.preferred_successors)}i", *m.preferred_successors)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)


def _encode_end_quorum_epoch_request_v0(m: EndQuorumEpochRequest, out: bytearray) -> None:
    write_nullable_string(out, m.cluster_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)


def _encode_replica_info_v1(m: ReplicaInfo, out: bytearray) -> None:
    out += _S1.pack(m.candidate_id)
    out += m.candidate_directory_id.bytes
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.preferred_candidates) + 1)
    for e_preferred_candidates in m.preferred_candidates:
        _encode_replica_info_v1(e_preferred_candidates, out)
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
    out += _S2.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_end_quorum_epoch_request_v1(m: EndQuorumEpochRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
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


_DECODERS: dict[int, Callable[[memoryview, int], tuple[EndQuorumEpochRequest, int]]] = {
    0: _decode_end_quorum_epoch_request_v0,
    1: _decode_end_quorum_epoch_request_v1,
}
_ENCODERS: dict[int, Callable[[EndQuorumEpochRequest, bytearray], None]] = {
    0: _encode_end_quorum_epoch_request_v0,
    1: _encode_end_quorum_epoch_request_v1,
}
