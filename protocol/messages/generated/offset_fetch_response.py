"""OffsetFetchResponse: generated from Kafka 3.9.2 and 4.4.0's OffsetFetchResponse.json by
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

__all__ = ["OffsetFetchResponse", "OffsetFetchResponseTopic", "OffsetFetchResponsePartition", "OffsetFetchResponseGroup", "OffsetFetchResponseTopics", "OffsetFetchResponsePartitions"]

_S0 = Struct(">iq")
_S1 = Struct(">h")
_S2 = Struct(">i")
_S3 = Struct(">iqi")


@dataclass(slots=True)
class OffsetFetchResponsePartition:
    """The responses per partition."""

    partition_index: int = 0
    # versions 0-7. The partition index.
    committed_offset: int = 0
    # versions 0-7. The committed message offset.
    committed_leader_epoch: int = -1
    # versions 5-7; ignorable. The leader epoch.
    metadata: str | None = ''
    # versions 0-7; nullable 0-7. The partition metadata.
    error_code: int = 0
    # versions 0-7. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchResponseTopic:
    """The responses per topic."""

    name: str = ''
    # versions 0-7; entity topicName. The topic name.
    partitions: list[OffsetFetchResponsePartition] = field(default_factory=list)
    # versions 0-7. The responses per partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchResponsePartitions:
    """The responses per partition."""

    partition_index: int = 0
    # versions 8+. The partition index.
    committed_offset: int = 0
    # versions 8+. The committed message offset.
    committed_leader_epoch: int = -1
    # versions 8+; ignorable. The leader epoch.
    metadata: str | None = ''
    # versions 8+; nullable 8+. The partition metadata.
    error_code: int = 0
    # versions 8+. The partition-level error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchResponseTopics:
    """The responses per topic."""

    name: str = ''
    # versions 8-9; ignorable; entity topicName. The topic name.
    partitions: list[OffsetFetchResponsePartitions] = field(default_factory=list)
    # versions 8+. The responses per partition.
    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchResponseGroup:
    """The responses per group id."""

    group_id: str = ''
    # versions 8+; entity groupId. The group ID.
    topics: list[OffsetFetchResponseTopics] = field(default_factory=list)
    # versions 8+. The responses per topic.
    error_code: int = 0
    # versions 8+. The group-level error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchResponse(ApiMessage):
    """OffsetFetchResponse response"""

    API_KEY: ClassVar[int] = 9
    NAME: ClassVar[str] = "OffsetFetchResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    throttle_time_ms: int = 0
    # versions 3+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[OffsetFetchResponseTopic] = field(default_factory=list)
    # versions 0-7. The responses per topic.
    error_code: int = 0
    # versions 2-7; ignorable. The top-level error code, or 0 if there was no error.
    groups: list[OffsetFetchResponseGroup] = field(default_factory=list)
    # versions 8+. The responses per group id.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetFetchResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetFetchResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetFetchResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetFetchResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetFetchResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_fetch_response_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    f_metadata: str | None
    f_partition_index, f_committed_offset = _S0.unpack_from(buf, pos)
    pos += 12
    f_metadata, pos = read_nullable_string(buf, pos)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, -1, f_metadata, f_error_code, []), pos


def _decode_offset_fetch_response_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetFetchResponsePartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_fetch_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetFetchResponseTopic(f_name, f_partitions, []), pos


def _decode_offset_fetch_response_v0(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_topics: list[OffsetFetchResponseTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetFetchResponse(0, f_topics, 0, [], []), pos


def _decode_offset_fetch_response_v2(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_topics: list[OffsetFetchResponseTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return OffsetFetchResponse(0, f_topics, f_error_code, [], []), pos


def _decode_offset_fetch_response_v3(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_topics: list[OffsetFetchResponseTopic]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, [], []), pos


def _decode_offset_fetch_response_partition_v5(buf: memoryview, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    f_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 16
    f_metadata, pos = read_nullable_string(buf, pos)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code, []), pos


def _decode_offset_fetch_response_topic_v5(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetFetchResponsePartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_fetch_response_partition_v5(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetFetchResponseTopic(f_name, f_partitions, []), pos


def _decode_offset_fetch_response_v5(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_topics: list[OffsetFetchResponseTopic]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topic_v5(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, [], []), pos


def _decode_offset_fetch_response_partition_v6(buf: memoryview, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    f_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 16
    f_metadata, pos = read_compact_nullable_string(buf, pos)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code, _unknown), pos


def _decode_offset_fetch_response_topic_v6(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetFetchResponsePartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_fetch_response_partition_v6(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponseTopic(f_name, f_partitions, _unknown), pos


def _decode_offset_fetch_response_v6(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_topics: list[OffsetFetchResponseTopic]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topic_v6(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, [], _unknown), pos


def _decode_offset_fetch_response_partitions_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchResponsePartitions, int]:
    f_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 16
    f_metadata, pos = read_compact_nullable_string(buf, pos)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponsePartitions(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code, _unknown), pos


def _decode_offset_fetch_response_topics_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseTopics, int]:
    f_name: str
    f_partitions: list[OffsetFetchResponsePartitions]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_fetch_response_partitions_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponseTopics(f_name, f_partitions, ZERO_UUID, _unknown), pos


def _decode_offset_fetch_response_group_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseGroup, int]:
    f_group_id: str
    f_topics: list[OffsetFetchResponseTopics]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topics_v8(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponseGroup(f_group_id, f_topics, f_error_code, _unknown), pos


def _decode_offset_fetch_response_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_groups: list[OffsetFetchResponseGroup]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_offset_fetch_response_group_v8(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponse(f_throttle_time_ms, [], 0, f_groups, _unknown), pos


def _decode_offset_fetch_response_topics_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseTopics, int]:
    f_topic_id: UUID
    f_partitions: list[OffsetFetchResponsePartitions]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_fetch_response_partitions_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponseTopics('', f_partitions, f_topic_id, _unknown), pos


def _decode_offset_fetch_response_group_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchResponseGroup, int]:
    f_group_id: str
    f_topics: list[OffsetFetchResponseTopics]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_response_topics_v10(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponseGroup(f_group_id, f_topics, f_error_code, _unknown), pos


def _decode_offset_fetch_response_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchResponse, int]:
    f_groups: list[OffsetFetchResponseGroup]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_offset_fetch_response_group_v10(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchResponse(f_throttle_time_ms, [], 0, f_groups, _unknown), pos


def _encode_offset_fetch_response_partition_v0(m: OffsetFetchResponsePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.metadata)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_topic_v0(m: OffsetFetchResponseTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_fetch_response_partition_v0(e_partitions, out)


def _encode_offset_fetch_response_v0(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 0)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v0(e_topics, out)


def _encode_offset_fetch_response_v1(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 1)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v0(e_topics, out)


def _encode_offset_fetch_response_v2(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 2)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v0(e_topics, out)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_v3(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 3)
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v0(e_topics, out)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_v4(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 4)
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v0(e_topics, out)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_partition_v5(m: OffsetFetchResponsePartition, out: bytearray) -> None:
    out += _S3.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_nullable_string(out, m.metadata)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_topic_v5(m: OffsetFetchResponseTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_fetch_response_partition_v5(e_partitions, out)


def _encode_offset_fetch_response_v5(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 5)
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v5(e_topics, out)
    out += _S1.pack(m.error_code)


def _encode_offset_fetch_response_partition_v6(m: OffsetFetchResponsePartition, out: bytearray) -> None:
    out += _S3.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.metadata)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_topic_v6(m: OffsetFetchResponseTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_fetch_response_partition_v6(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_v6(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 6)
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v6(e_topics, out)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_v7(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchResponse", "Groups", 7)
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_fetch_response_topic_v6(e_topics, out)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_partitions_v8(m: OffsetFetchResponsePartitions, out: bytearray) -> None:
    out += _S3.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.metadata)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_topics_v8(m: OffsetFetchResponseTopics, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_fetch_response_partitions_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_group_v8(m: OffsetFetchResponseGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_fetch_response_topics_v8(e_topics, out)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_v8(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("OffsetFetchResponse", "Topics", 8)
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_response_group_v8(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_v9(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("OffsetFetchResponse", "Topics", 9)
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_response_group_v8(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_topics_v10(m: OffsetFetchResponseTopics, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_fetch_response_partitions_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_group_v10(m: OffsetFetchResponseGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_fetch_response_topics_v10(e_topics, out)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_response_v10(m: OffsetFetchResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("OffsetFetchResponse", "Topics", 10)
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_response_group_v10(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetFetchResponse, int]]] = {
    0: _decode_offset_fetch_response_v0,
    1: _decode_offset_fetch_response_v0,
    2: _decode_offset_fetch_response_v2,
    3: _decode_offset_fetch_response_v3,
    4: _decode_offset_fetch_response_v3,
    5: _decode_offset_fetch_response_v5,
    6: _decode_offset_fetch_response_v6,
    7: _decode_offset_fetch_response_v6,
    8: _decode_offset_fetch_response_v8,
    9: _decode_offset_fetch_response_v8,
    10: _decode_offset_fetch_response_v10,
}
_ENCODERS: dict[int, Callable[[OffsetFetchResponse, bytearray], None]] = {
    0: _encode_offset_fetch_response_v0,
    1: _encode_offset_fetch_response_v1,
    2: _encode_offset_fetch_response_v2,
    3: _encode_offset_fetch_response_v3,
    4: _encode_offset_fetch_response_v4,
    5: _encode_offset_fetch_response_v5,
    6: _encode_offset_fetch_response_v6,
    7: _encode_offset_fetch_response_v7,
    8: _encode_offset_fetch_response_v8,
    9: _encode_offset_fetch_response_v9,
    10: _encode_offset_fetch_response_v10,
}
