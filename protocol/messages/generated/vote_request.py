"""VoteRequest: generated from Kafka 3.9.2 and 4.4.0's VoteRequest.json by
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

__all__ = ["VoteRequest", "TopicData", "PartitionData"]

_S0 = Struct(">iiiiq")
_S1 = Struct(">i")
_S2 = Struct(">iii")
_S3 = Struct(">iq")
_S4 = Struct(">iq?")


@dataclass(slots=True)
class PartitionData:
    """The partition data."""

    partition_index: int = 0
    # versions 0+. The partition index.
    replica_epoch: int = 0
    # versions 0+. The epoch of the voter sending the request
    replica_id: int = 0
    # versions 0+; entity brokerId. The replica id of the voter sending the request
    replica_directory_id: UUID = ZERO_UUID
    # versions 1+; ignorable. The directory id of the voter sending the request
    voter_directory_id: UUID = ZERO_UUID
    # versions 1+; ignorable. The directory id of the voter receiving the request
    last_offset_epoch: int = 0
    # versions 0+. The epoch of the last record written to the metadata log.
    last_offset: int = 0
    # versions 0+. The log end offset of the metadata log of the voter sending the request.
    pre_vote: bool = False
    # versions 2+. Whether the request is a PreVote request (not persisted) or not.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topic data."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partition data.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class VoteRequest(ApiMessage):
    """VoteRequest request"""

    API_KEY: ClassVar[int] = 52
    NAME: ClassVar[str] = "VoteRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    cluster_id: str | None = None
    # versions 0+; nullable 0+. The cluster id.
    voter_id: int = -1
    # versions 1+; ignorable; entity brokerId. The replica id of the voter receiving the request.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topic data.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"VoteRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[VoteRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"VoteRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"VoteRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> VoteRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, f_replica_epoch, f_replica_id, f_last_offset_epoch, f_last_offset = _S0.unpack_from(buf, pos)
    pos += 24
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_replica_epoch, f_replica_id, ZERO_UUID, ZERO_UUID, f_last_offset_epoch, f_last_offset, False, _unknown), pos


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


def _decode_vote_request_v0(buf: memoryview, pos: int) -> tuple[VoteRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
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
    return VoteRequest(f_cluster_id, -1, f_topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_replica_directory_id: UUID
    f_voter_directory_id: UUID
    f_partition_index, f_replica_epoch, f_replica_id = _S2.unpack_from(buf, pos)
    pos += 12
    f_replica_directory_id, pos = read_uuid(buf, pos)
    f_voter_directory_id, pos = read_uuid(buf, pos)
    f_last_offset_epoch, f_last_offset = _S3.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_replica_epoch, f_replica_id, f_replica_directory_id, f_voter_directory_id, f_last_offset_epoch, f_last_offset, False, _unknown), pos


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


def _decode_vote_request_v1(buf: memoryview, pos: int) -> tuple[VoteRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
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
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return VoteRequest(f_cluster_id, f_voter_id, f_topics, _unknown), pos


def _decode_partition_data_v2(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_replica_directory_id: UUID
    f_voter_directory_id: UUID
    f_partition_index, f_replica_epoch, f_replica_id = _S2.unpack_from(buf, pos)
    pos += 12
    f_replica_directory_id, pos = read_uuid(buf, pos)
    f_voter_directory_id, pos = read_uuid(buf, pos)
    f_last_offset_epoch, f_last_offset, f_pre_vote = _S4.unpack_from(buf, pos)
    pos += 13
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_replica_epoch, f_replica_id, f_replica_directory_id, f_voter_directory_id, f_last_offset_epoch, f_last_offset, f_pre_vote, _unknown), pos


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


def _decode_vote_request_v2(buf: memoryview, pos: int) -> tuple[VoteRequest, int]:
    f_cluster_id: str | None
    f_topics: list[TopicData]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_voter_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return VoteRequest(f_cluster_id, f_voter_id, f_topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    if m.pre_vote:
        raise version_error("PartitionData", "PreVote", 0)
    out += _S0.pack(m.partition_index, m.replica_epoch, m.replica_id, m.last_offset_epoch, m.last_offset)
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


def _encode_vote_request_v0(m: VoteRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    if m.pre_vote:
        raise version_error("PartitionData", "PreVote", 1)
    out += _S2.pack(m.partition_index, m.replica_epoch, m.replica_id)
    out += m.replica_directory_id.bytes
    out += m.voter_directory_id.bytes
    out += _S3.pack(m.last_offset_epoch, m.last_offset)
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


def _encode_vote_request_v1(m: VoteRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S1.pack(m.voter_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.replica_epoch, m.replica_id)
    out += m.replica_directory_id.bytes
    out += m.voter_directory_id.bytes
    out += _S4.pack(m.last_offset_epoch, m.last_offset, m.pre_vote)
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


def _encode_vote_request_v2(m: VoteRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S1.pack(m.voter_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[VoteRequest, int]]] = {
    0: _decode_vote_request_v0,
    1: _decode_vote_request_v1,
    2: _decode_vote_request_v2,
}
_ENCODERS: dict[int, Callable[[VoteRequest, bytearray], None]] = {
    0: _encode_vote_request_v0,
    1: _encode_vote_request_v1,
    2: _encode_vote_request_v2,
}
