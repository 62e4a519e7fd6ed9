"""DescribeLogDirsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeLogDirsRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeLogDirsRequest", "DescribableLogDirTopic"]



@dataclass(slots=True)
class DescribableLogDirTopic:
    """Each topic that we want to describe log directories for, or null for all topics."""

    topic: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partition indexes.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeLogDirsRequest(ApiMessage):
    """DescribeLogDirsRequest request"""

    API_KEY: ClassVar[int] = 35
    NAME: ClassVar[str] = "DescribeLogDirsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    topics: list[DescribableLogDirTopic] | None = field(default_factory=list)
    # versions 0+; nullable 0+. Each topic that we want to describe log directories for, or null for all topics.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeLogDirsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeLogDirsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeLogDirsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeLogDirsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeLogDirsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describable_log_dir_topic_v0(buf: memoryview, pos: int) -> tuple[DescribableLogDirTopic, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    return DescribableLogDirTopic(f_topic, f_partitions, []), pos


def _decode_describe_log_dirs_request_v0(buf: memoryview, pos: int) -> tuple[DescribeLogDirsRequest, int]:
    f_topics: list[DescribableLogDirTopic] | None
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describable_log_dir_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return DescribeLogDirsRequest(f_topics, []), pos


def _decode_describable_log_dir_topic_v2(buf: memoryview, pos: int) -> tuple[DescribableLogDirTopic, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_compact_string(buf, pos, "topic")
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
    return DescribableLogDirTopic(f_topic, f_partitions, _unknown), pos


def _decode_describe_log_dirs_request_v2(buf: memoryview, pos: int) -> tuple[DescribeLogDirsRequest, int]:
    f_topics: list[DescribableLogDirTopic] | None
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describable_log_dir_topic_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsRequest(f_topics, _unknown), pos


def _encode_describable_log_dir_topic_v0(m: DescribableLogDirTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    out += pack(f">{len(m.partitions)}i", *m.partitions)


def _encode_describe_log_dirs_request_v0(m: DescribeLogDirsRequest, out: bytearray) -> None:
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_describable_log_dir_topic_v0(e_topics, out)


def _encode_describable_log_dir_topic_v2(m: DescribableLogDirTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_request_v2(m: DescribeLogDirsRequest, out: bytearray) -> None:
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_describable_log_dir_topic_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeLogDirsRequest, int]]] = {
    0: _decode_describe_log_dirs_request_v0,
    1: _decode_describe_log_dirs_request_v0,
    2: _decode_describe_log_dirs_request_v2,
    3: _decode_describe_log_dirs_request_v2,
    4: _decode_describe_log_dirs_request_v2,
    5: _decode_describe_log_dirs_request_v2,
}
_ENCODERS: dict[int, Callable[[DescribeLogDirsRequest, bytearray], None]] = {
    0: _encode_describe_log_dirs_request_v0,
    1: _encode_describe_log_dirs_request_v0,
    2: _encode_describe_log_dirs_request_v2,
    3: _encode_describe_log_dirs_request_v2,
    4: _encode_describe_log_dirs_request_v2,
    5: _encode_describe_log_dirs_request_v2,
}
