"""DescribeShareGroupOffsetsRequest: generated from Kafka 4.4.0's DescribeShareGroupOffsetsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import pack, unpack_from
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeShareGroupOffsetsRequest", "DescribeShareGroupOffsetsRequestGroup", "DescribeShareGroupOffsetsRequestTopic"]



@dataclass(slots=True)
class DescribeShareGroupOffsetsRequestTopic:
    """The topics to describe offsets for, or null for all topic-partitions."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeShareGroupOffsetsRequestGroup:
    """The groups to describe offsets for."""

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    topics: list[DescribeShareGroupOffsetsRequestTopic] | None = field(default_factory=list)
    # versions 0+; nullable 0+. The topics to describe offsets for, or null for all topic-partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeShareGroupOffsetsRequest(ApiMessage):
    """DescribeShareGroupOffsetsRequest request"""

    API_KEY: ClassVar[int] = 90
    NAME: ClassVar[str] = "DescribeShareGroupOffsetsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    groups: list[DescribeShareGroupOffsetsRequestGroup] = field(default_factory=list)
    # versions 0+. The groups to describe offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeShareGroupOffsetsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeShareGroupOffsetsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeShareGroupOffsetsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeShareGroupOffsetsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeShareGroupOffsetsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_share_group_offsets_request_topic_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsRequestTopic, int]:
    f_topic_name: str
    f_partitions: list[int]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsRequestTopic(f_topic_name, f_partitions, _unknown), pos


def _decode_describe_share_group_offsets_request_group_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsRequestGroup, int]:
    f_group_id: str
    f_topics: list[DescribeShareGroupOffsetsRequestTopic] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_share_group_offsets_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsRequestGroup(f_group_id, f_topics, _unknown), pos


def _decode_describe_share_group_offsets_request_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsRequest, int]:
    f_groups: list[DescribeShareGroupOffsetsRequestGroup]
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_describe_share_group_offsets_request_group_v0(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsRequest(f_groups, _unknown), pos


def _encode_describe_share_group_offsets_request_topic_v0(m: DescribeShareGroupOffsetsRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_request_group_v0(m: DescribeShareGroupOffsetsRequestGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_describe_share_group_offsets_request_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_request_v0(m: DescribeShareGroupOffsetsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_describe_share_group_offsets_request_group_v0(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeShareGroupOffsetsRequest, int]]] = {
    0: _decode_describe_share_group_offsets_request_v0,
    1: _decode_describe_share_group_offsets_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeShareGroupOffsetsRequest, bytearray], None]] = {
    0: _encode_describe_share_group_offsets_request_v0,
    1: _encode_describe_share_group_offsets_request_v0,
}
