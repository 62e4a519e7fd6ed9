"""DescribeShareGroupOffsetsResponse: generated from Kafka 4.4.0's DescribeShareGroupOffsetsResponse.json by
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
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeShareGroupOffsetsResponse", "DescribeShareGroupOffsetsResponseGroup", "DescribeShareGroupOffsetsResponseTopic", "DescribeShareGroupOffsetsResponsePartition"]

_S0 = Struct(">i")
_S1 = Struct(">iqih")
_S2 = Struct(">h")
_S3 = Struct(">iqiqh")


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponsePartition:
    """A DescribeShareGroupOffsetsResponsePartition in DescribeShareGroupOffsetsResponse."""

    partition_index: int = 0
    # versions 0+. The partition index.
    start_offset: int = 0
    # versions 0+. The share-partition start offset.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of the partition.
    lag: int = -1
    # versions 1+; ignorable. The share-partition lag.
    error_code: int = 0
    # versions 0+. The partition-level error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The partition-level error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponseTopic:
    """The results for each topic."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    partitions: list[DescribeShareGroupOffsetsResponsePartition] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponseGroup:
    """The results for each group."""

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    topics: list[DescribeShareGroupOffsetsResponseTopic] = field(default_factory=list)
    # versions 0+. The results for each topic.
    error_code: int = 0
    # versions 0+. The group-level error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The group-level error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponse(ApiMessage):
    """DescribeShareGroupOffsetsResponse response"""

    API_KEY: ClassVar[int] = 90
    NAME: ClassVar[str] = "DescribeShareGroupOffsetsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    groups: list[DescribeShareGroupOffsetsResponseGroup] = field(default_factory=list)
    # versions 0+. The results for each group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeShareGroupOffsetsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeShareGroupOffsetsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeShareGroupOffsetsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeShareGroupOffsetsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeShareGroupOffsetsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_share_group_offsets_response_partition_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponsePartition, int]:
    f_error_message: str | None
    f_partition_index, f_start_offset, f_leader_epoch, f_error_code = _S1.unpack_from(buf, pos)
    pos += 18
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponsePartition(f_partition_index, f_start_offset, f_leader_epoch, -1, f_error_code, f_error_message, _unknown), pos


def _decode_describe_share_group_offsets_response_topic_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponseTopic, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_partitions: list[DescribeShareGroupOffsetsResponsePartition]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_describe_share_group_offsets_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_partitions, _unknown), pos


def _decode_describe_share_group_offsets_response_group_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponseGroup, int]:
    f_group_id: str
    f_topics: list[DescribeShareGroupOffsetsResponseTopic]
    f_error_message: str | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_share_group_offsets_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S2.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponseGroup(f_group_id, f_topics, f_error_code, f_error_message, _unknown), pos


def _decode_describe_share_group_offsets_response_v0(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponse, int]:
    f_groups: list[DescribeShareGroupOffsetsResponseGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_describe_share_group_offsets_response_group_v0(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _decode_describe_share_group_offsets_response_partition_v1(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponsePartition, int]:
    f_error_message: str | None
    f_partition_index, f_start_offset, f_leader_epoch, f_lag, f_error_code = _S3.unpack_from(buf, pos)
    pos += 26
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponsePartition(f_partition_index, f_start_offset, f_leader_epoch, f_lag, f_error_code, f_error_message, _unknown), pos


def _decode_describe_share_group_offsets_response_topic_v1(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponseTopic, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_partitions: list[DescribeShareGroupOffsetsResponsePartition]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_describe_share_group_offsets_response_partition_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_partitions, _unknown), pos


def _decode_describe_share_group_offsets_response_group_v1(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponseGroup, int]:
    f_group_id: str
    f_topics: list[DescribeShareGroupOffsetsResponseTopic]
    f_error_message: str | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_share_group_offsets_response_topic_v1(buf, pos)
            f_topics.append(e_topics)
    f_error_code, = _S2.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponseGroup(f_group_id, f_topics, f_error_code, f_error_message, _unknown), pos


def _decode_describe_share_group_offsets_response_v1(buf: memoryview, pos: int) -> tuple[DescribeShareGroupOffsetsResponse, int]:
    f_groups: list[DescribeShareGroupOffsetsResponseGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_describe_share_group_offsets_response_group_v1(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeShareGroupOffsetsResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _encode_describe_share_group_offsets_response_partition_v0(m: DescribeShareGroupOffsetsResponsePartition, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.start_offset, m.leader_epoch, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_topic_v0(m: DescribeShareGroupOffsetsResponseTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_describe_share_group_offsets_response_partition_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_group_v0(m: DescribeShareGroupOffsetsResponseGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_share_group_offsets_response_topic_v0(e_topics, out)
    out += _S2.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_v0(m: DescribeShareGroupOffsetsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_describe_share_group_offsets_response_group_v0(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_partition_v1(m: DescribeShareGroupOffsetsResponsePartition, out: bytearray) -> None:
    out += _S3.pack(m.partition_index, m.start_offset, m.leader_epoch, m.lag, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_topic_v1(m: DescribeShareGroupOffsetsResponseTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_describe_share_group_offsets_response_partition_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_group_v1(m: DescribeShareGroupOffsetsResponseGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_share_group_offsets_response_topic_v1(e_topics, out)
    out += _S2.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_share_group_offsets_response_v1(m: DescribeShareGroupOffsetsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_describe_share_group_offsets_response_group_v1(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeShareGroupOffsetsResponse, int]]] = {
    0: _decode_describe_share_group_offsets_response_v0,
    1: _decode_describe_share_group_offsets_response_v1,
}
_ENCODERS: dict[int, Callable[[DescribeShareGroupOffsetsResponse, bytearray], None]] = {
    0: _encode_describe_share_group_offsets_response_v0,
    1: _encode_describe_share_group_offsets_response_v1,
}
