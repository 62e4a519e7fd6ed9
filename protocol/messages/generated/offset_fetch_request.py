"""OffsetFetchRequest: generated from Kafka 3.9.2 and 4.4.0's OffsetFetchRequest.json by
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
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["OffsetFetchRequest", "OffsetFetchRequestTopic", "OffsetFetchRequestGroup", "OffsetFetchRequestTopics"]

_S0 = Struct(">?")
_S1 = Struct(">i")


@dataclass(slots=True)
class OffsetFetchRequestTopic:
    """Each topic we would like to fetch offsets for, or null to fetch offsets for all topics."""

    name: str = ''
    # versions 0-7; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 0-7. The partition indexes we would like to fetch offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchRequestTopics:
    """Each topic we would like to fetch offsets for, or null to fetch offsets for all topics."""

    name: str = ''
    # versions 8-9; ignorable; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 8+. The partition indexes we would like to fetch offsets for.
    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchRequestGroup:
    """Each group we would like to fetch offsets for."""

    group_id: str = ''
    # versions 8+; entity groupId. The group ID.
    member_id: str | None = None
    # versions 9+; nullable 9+; ignorable. The member id.
    member_epoch: int = -1
    # versions 9+; ignorable. The member epoch if using the new consumer protocol (KIP-848).
    topics: list[OffsetFetchRequestTopics] | None = field(default_factory=list)
    # versions 8+; nullable 8+. Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetFetchRequest(ApiMessage):
    """OffsetFetchRequest request"""

    API_KEY: ClassVar[int] = 9
    NAME: ClassVar[str] = "OffsetFetchRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    group_id: str = ''
    # versions 0-7; entity groupId. The group to fetch offsets for.
    topics: list[OffsetFetchRequestTopic] | None = field(default_factory=list)
    # versions 0-7; nullable 2-7. Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
    groups: list[OffsetFetchRequestGroup] = field(default_factory=list)
    # versions 8+. Each group we would like to fetch offsets for.
    require_stable: bool = False
    # versions 7+. Whether broker should hold on returning unstable offsets but set a retriable error code for the partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetFetchRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetFetchRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetFetchRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetFetchRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetFetchRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_fetch_request_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestTopic, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_indexes, pos = read_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    return OffsetFetchRequestTopic(f_name, f_partition_indexes, []), pos


def _decode_offset_fetch_request_v0(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_group_id: str
    f_topics: list[OffsetFetchRequestTopic] | None
    f_group_id, pos = read_string(buf, pos, "groupId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetFetchRequest(f_group_id, f_topics, [], False, []), pos


def _decode_offset_fetch_request_v2(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_group_id: str
    f_topics: list[OffsetFetchRequestTopic] | None
    f_group_id, pos = read_string(buf, pos, "groupId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetFetchRequest(f_group_id, f_topics, [], False, []), pos


def _decode_offset_fetch_request_topic_v6(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestTopic, int]:
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
    return OffsetFetchRequestTopic(f_name, f_partition_indexes, _unknown), pos


def _decode_offset_fetch_request_v6(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_group_id: str
    f_topics: list[OffsetFetchRequestTopic] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topic_v6(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequest(f_group_id, f_topics, [], False, _unknown), pos


def _decode_offset_fetch_request_v7(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_group_id: str
    f_topics: list[OffsetFetchRequestTopic] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topic_v6(buf, pos)
            f_topics.append(e_topics)
    f_require_stable, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequest(f_group_id, f_topics, [], f_require_stable, _unknown), pos


def _decode_offset_fetch_request_topics_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestTopics, int]:
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
    return OffsetFetchRequestTopics(f_name, f_partition_indexes, ZERO_UUID, _unknown), pos


def _decode_offset_fetch_request_group_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    f_group_id: str
    f_topics: list[OffsetFetchRequestTopics] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topics_v8(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequestGroup(f_group_id, None, -1, f_topics, _unknown), pos


def _decode_offset_fetch_request_v8(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_groups: list[OffsetFetchRequestGroup]
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_offset_fetch_request_group_v8(buf, pos)
            f_groups.append(e_groups)
    f_require_stable, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequest('', [], f_groups, f_require_stable, _unknown), pos


def _decode_offset_fetch_request_group_v9(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    f_group_id: str
    f_member_id: str | None
    f_topics: list[OffsetFetchRequestTopics] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topics_v8(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequestGroup(f_group_id, f_member_id, f_member_epoch, f_topics, _unknown), pos


def _decode_offset_fetch_request_v9(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_groups: list[OffsetFetchRequestGroup]
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_offset_fetch_request_group_v9(buf, pos)
            f_groups.append(e_groups)
    f_require_stable, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequest('', [], f_groups, f_require_stable, _unknown), pos


def _decode_offset_fetch_request_topics_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestTopics, int]:
    f_topic_id: UUID
    f_partition_indexes: list[int]
    f_topic_id, pos = read_uuid(buf, pos)
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
    return OffsetFetchRequestTopics('', f_partition_indexes, f_topic_id, _unknown), pos


def _decode_offset_fetch_request_group_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    f_group_id: str
    f_member_id: str | None
    f_topics: list[OffsetFetchRequestTopics] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_fetch_request_topics_v10(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequestGroup(f_group_id, f_member_id, f_member_epoch, f_topics, _unknown), pos


def _decode_offset_fetch_request_v10(buf: memoryview, pos: int) -> tuple[OffsetFetchRequest, int]:
    f_groups: list[OffsetFetchRequestGroup]
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_offset_fetch_request_group_v10(buf, pos)
            f_groups.append(e_groups)
    f_require_stable, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetFetchRequest('', [], f_groups, f_require_stable, _unknown), pos


def _encode_offset_fetch_request_topic_v0(m: OffsetFetchRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_indexes))
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)


def _encode_offset_fetch_request_v0(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 0)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 0)
    write_string(out, m.group_id)
    if m.topics is None:
        raise null_error("OffsetFetchRequest", "Topics", 0)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_v1(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 1)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 1)
    write_string(out, m.group_id)
    if m.topics is None:
        raise null_error("OffsetFetchRequest", "Topics", 1)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_v2(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 2)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 2)
    write_string(out, m.group_id)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_v3(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 3)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 3)
    write_string(out, m.group_id)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_v4(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 4)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 4)
    write_string(out, m.group_id)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_v5(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 5)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 5)
    write_string(out, m.group_id)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v0(e_topics, out)


def _encode_offset_fetch_request_topic_v6(m: OffsetFetchRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_v6(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 6)
    if m.require_stable:
        raise version_error("OffsetFetchRequest", "RequireStable", 6)
    write_compact_string(out, m.group_id)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v6(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_v7(m: OffsetFetchRequest, out: bytearray) -> None:
    if len(m.groups) > 0:
        raise version_error("OffsetFetchRequest", "Groups", 7)
    write_compact_string(out, m.group_id)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_offset_fetch_request_topic_v6(e_topics, out)
    out += _S0.pack(m.require_stable)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_topics_v8(m: OffsetFetchRequestTopics, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_group_v8(m: OffsetFetchRequestGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_offset_fetch_request_topics_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_v8(m: OffsetFetchRequest, out: bytearray) -> None:
    if m.group_id != '':
        raise version_error("OffsetFetchRequest", "GroupId", 8)
    if (m.topics is None or len(m.topics) > 0):
        raise version_error("OffsetFetchRequest", "Topics", 8)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_request_group_v8(e_groups, out)
    out += _S0.pack(m.require_stable)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_group_v9(m: OffsetFetchRequestGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S1.pack(m.member_epoch)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_offset_fetch_request_topics_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_v9(m: OffsetFetchRequest, out: bytearray) -> None:
    if m.group_id != '':
        raise version_error("OffsetFetchRequest", "GroupId", 9)
    if (m.topics is None or len(m.topics) > 0):
        raise version_error("OffsetFetchRequest", "Topics", 9)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_request_group_v9(e_groups, out)
    out += _S0.pack(m.require_stable)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_topics_v10(m: OffsetFetchRequestTopics, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_group_v10(m: OffsetFetchRequestGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S1.pack(m.member_epoch)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_offset_fetch_request_topics_v10(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_fetch_request_v10(m: OffsetFetchRequest, out: bytearray) -> None:
    if m.group_id != '':
        raise version_error("OffsetFetchRequest", "GroupId", 10)
    if (m.topics is None or len(m.topics) > 0):
        raise version_error("OffsetFetchRequest", "Topics", 10)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_offset_fetch_request_group_v10(e_groups, out)
    out += _S0.pack(m.require_stable)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetFetchRequest, int]]] = {
    0: _decode_offset_fetch_request_v0,
    1: _decode_offset_fetch_request_v0,
    2: _decode_offset_fetch_request_v2,
    3: _decode_offset_fetch_request_v2,
    4: _decode_offset_fetch_request_v2,
    5: _decode_offset_fetch_request_v2,
    6: _decode_offset_fetch_request_v6,
    7: _decode_offset_fetch_request_v7,
    8: _decode_offset_fetch_request_v8,
    9: _decode_offset_fetch_request_v9,
    10: _decode_offset_fetch_request_v10,
}
_ENCODERS: dict[int, Callable[[OffsetFetchRequest, bytearray], None]] = {
    0: _encode_offset_fetch_request_v0,
    1: _encode_offset_fetch_request_v1,
    2: _encode_offset_fetch_request_v2,
    3: _encode_offset_fetch_request_v3,
    4: _encode_offset_fetch_request_v4,
    5: _encode_offset_fetch_request_v5,
    6: _encode_offset_fetch_request_v6,
    7: _encode_offset_fetch_request_v7,
    8: _encode_offset_fetch_request_v8,
    9: _encode_offset_fetch_request_v9,
    10: _encode_offset_fetch_request_v10,
}
