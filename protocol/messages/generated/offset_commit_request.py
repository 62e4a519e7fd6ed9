"""OffsetCommitRequest: generated from Kafka 3.9.2 and 4.4.0's OffsetCommitRequest.json by
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
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["OffsetCommitRequest", "OffsetCommitRequestTopic", "OffsetCommitRequestPartition"]

_S0 = Struct(">iq")
_S1 = Struct(">i")
_S2 = Struct(">iqq")
_S3 = Struct(">q")
_S4 = Struct(">iqi")


@dataclass(slots=True)
class OffsetCommitRequestPartition:
    """Each partition to commit offsets for."""

    partition_index: int = 0
    # versions 0+. The partition index.
    committed_offset: int = 0
    # versions 0+. The message offset to be committed.
    committed_leader_epoch: int = -1
    # versions 6+; ignorable. The leader epoch of this partition.
    commit_timestamp: int = -1
    # versions 1. The timestamp of the commit.
    committed_metadata: str | None = ''
    # versions 0+; nullable 0+. Any associated metadata the client wants to keep.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetCommitRequestTopic:
    """The topics to commit offsets for."""

    name: str = ''
    # versions 0-9; ignorable; entity topicName. The topic name.
    partitions: list[OffsetCommitRequestPartition] = field(default_factory=list)
    # versions 0+. Each partition to commit offsets for.
    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetCommitRequest(ApiMessage):
    """OffsetCommitRequest request"""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = "OffsetCommitRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 8

    group_id: str = ''
    # versions 0+; entity groupId. The unique group identifier.
    generation_id_or_member_epoch: int = -1
    # versions 1+; ignorable. The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol.
    member_id: str = ''
    # versions 1+; ignorable. The member ID assigned by the group coordinator.
    group_instance_id: str | None = None
    # versions 7+; nullable 7+. The unique identifier of the consumer instance provided by end user.
    retention_time_ms: int = -1
    # versions 2-4; ignorable. The time period in ms to retain the offset.
    topics: list[OffsetCommitRequestTopic] = field(default_factory=list)
    # versions 0+. The topics to commit offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetCommitRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetCommitRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetCommitRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetCommitRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetCommitRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_commit_request_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset = _S0.unpack_from(buf, pos)
    pos += 12
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, -1, -1, f_committed_metadata, []), pos


def _decode_offset_commit_request_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_request_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_offset_commit_request_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, -1, '', None, -1, f_topics, []), pos


def _decode_offset_commit_request_partition_v1(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset, f_commit_timestamp = _S2.unpack_from(buf, pos)
    pos += 20
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, -1, f_commit_timestamp, f_committed_metadata, []), pos


def _decode_offset_commit_request_topic_v1(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_request_partition_v1(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_offset_commit_request_v1(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, -1, f_topics, []), pos


def _decode_offset_commit_request_v2(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_retention_time_ms, = _S3.unpack_from(buf, pos)
    pos += 8
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, f_retention_time_ms, f_topics, []), pos


def _decode_offset_commit_request_v5(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, -1, f_topics, []), pos


def _decode_offset_commit_request_partition_v6(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, -1, f_committed_metadata, []), pos


def _decode_offset_commit_request_topic_v6(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_request_partition_v6(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_offset_commit_request_v6(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v6(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, -1, f_topics, []), pos


def _decode_offset_commit_request_v7(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v6(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics, []), pos


def _decode_offset_commit_request_partition_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S4.unpack_from(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, -1, f_committed_metadata, _unknown), pos


def _decode_offset_commit_request_topic_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitRequestPartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_request_partition_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, _unknown), pos


def _decode_offset_commit_request_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v8(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics, _unknown), pos


def _decode_offset_commit_request_topic_v10(buf: memoryview, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    f_topic_id: UUID
    f_partitions: list[OffsetCommitRequestPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_request_partition_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitRequestTopic('', f_partitions, f_topic_id, _unknown), pos


def _decode_offset_commit_request_v10(buf: memoryview, pos: int) -> tuple[OffsetCommitRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_topics: list[OffsetCommitRequestTopic]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_generation_id_or_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_request_topic_v10(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics, _unknown), pos


def _encode_offset_commit_request_partition_v0(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 0)
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v0(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v0(e_partitions, out)


def _encode_offset_commit_request_v0(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 0)
    write_string(out, m.group_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v0(e_topics, out)


def _encode_offset_commit_request_partition_v1(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.committed_offset, m.commit_timestamp)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v1(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v1(e_partitions, out)


def _encode_offset_commit_request_v1(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 1)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v1(e_topics, out)


def _encode_offset_commit_request_partition_v2(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 2)
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v2(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v2(e_partitions, out)


def _encode_offset_commit_request_v2(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 2)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += _S3.pack(m.retention_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v2(e_topics, out)


def _encode_offset_commit_request_partition_v3(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 3)
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v3(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v3(e_partitions, out)


def _encode_offset_commit_request_v3(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 3)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += _S3.pack(m.retention_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v3(e_topics, out)


def _encode_offset_commit_request_partition_v4(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 4)
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v4(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v4(e_partitions, out)


def _encode_offset_commit_request_v4(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 4)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += _S3.pack(m.retention_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v4(e_topics, out)


def _encode_offset_commit_request_partition_v5(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 5)
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v5(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v5(e_partitions, out)


def _encode_offset_commit_request_v5(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 5)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v5(e_topics, out)


def _encode_offset_commit_request_partition_v6(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 6)
    out += _S4.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v6(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v6(e_partitions, out)


def _encode_offset_commit_request_v6(m: OffsetCommitRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("OffsetCommitRequest", "GroupInstanceId", 6)
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v6(e_topics, out)


def _encode_offset_commit_request_partition_v7(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 7)
    out += _S4.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_nullable_string(out, m.committed_metadata)


def _encode_offset_commit_request_topic_v7(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v7(e_partitions, out)


def _encode_offset_commit_request_v7(m: OffsetCommitRequest, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v7(e_topics, out)


def _encode_offset_commit_request_partition_v8(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 8)
    out += _S4.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.committed_metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_topic_v8(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_v8(m: OffsetCommitRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_partition_v9(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 9)
    out += _S4.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.committed_metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_topic_v9(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v9(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_v9(m: OffsetCommitRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v9(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_partition_v10(m: OffsetCommitRequestPartition, out: bytearray) -> None:
    if m.commit_timestamp != -1:
        raise version_error("OffsetCommitRequestPartition", "CommitTimestamp", 10)
    out += _S4.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.committed_metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_topic_v10(m: OffsetCommitRequestTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_commit_request_partition_v10(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_request_v10(m: OffsetCommitRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.generation_id_or_member_epoch)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_commit_request_topic_v10(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetCommitRequest, int]]] = {
    0: _decode_offset_commit_request_v0,
    1: _decode_offset_commit_request_v1,
    2: _decode_offset_commit_request_v2,
    3: _decode_offset_commit_request_v2,
    4: _decode_offset_commit_request_v2,
    5: _decode_offset_commit_request_v5,
    6: _decode_offset_commit_request_v6,
    7: _decode_offset_commit_request_v7,
    8: _decode_offset_commit_request_v8,
    9: _decode_offset_commit_request_v8,
    10: _decode_offset_commit_request_v10,
}
_ENCODERS: dict[int, Callable[[OffsetCommitRequest, bytearray], None]] = {
    0: _encode_offset_commit_request_v0,
    1: _encode_offset_commit_request_v1,
    2: _encode_offset_commit_request_v2,
    3: _encode_offset_commit_request_v3,
    4: _encode_offset_commit_request_v4,
    5: _encode_offset_commit_request_v5,
    6: _encode_offset_commit_request_v6,
    7: _encode_offset_commit_request_v7,
    8: _encode_offset_commit_request_v8,
    9: _encode_offset_commit_request_v9,
    10: _encode_offset_commit_request_v10,
}
