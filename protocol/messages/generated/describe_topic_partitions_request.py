"""DescribeTopicPartitionsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeTopicPartitionsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
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

__all__ = ["DescribeTopicPartitionsRequest", "TopicRequest", "Cursor"]

_S0 = Struct(">i")


@dataclass(slots=True)
class TopicRequest:
    """The topics to fetch details for."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Cursor:
    """The first topic and partition index to fetch details for."""

    topic_name: str = ''
    # versions 0+; entity topicName. The name for the first topic to process.
    partition_index: int = 0
    # versions 0+. The partition index to start with.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeTopicPartitionsRequest(ApiMessage):
    """DescribeTopicPartitionsRequest request"""

    API_KEY: ClassVar[int] = 75
    NAME: ClassVar[str] = "DescribeTopicPartitionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    topics: list[TopicRequest] = field(default_factory=list)
    # versions 0+. The topics to fetch details for.
    response_partition_limit: int = 2000
    # versions 0+. The maximum number of partitions included in the response.
    cursor: Cursor | None = None
    # versions 0+; nullable 0+. The first topic and partition index to fetch details for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTopicPartitionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeTopicPartitionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTopicPartitionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeTopicPartitionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeTopicPartitionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_request_v0(buf: memoryview, pos: int) -> tuple[TopicRequest, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicRequest(f_name, _unknown), pos


def _decode_cursor_v0(buf: memoryview, pos: int) -> tuple[Cursor, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Cursor(f_topic_name, f_partition_index, _unknown), pos


def _decode_describe_topic_partitions_request_v0(buf: memoryview, pos: int) -> tuple[DescribeTopicPartitionsRequest, int]:
    f_topics: list[TopicRequest]
    f_cursor: Cursor | None
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_request_v0(buf, pos)
            f_topics.append(e_topics)
    f_response_partition_limit, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] >= 0x80:
        f_cursor = None
        pos += 1
    else:
        f_cursor, pos = _decode_cursor_v0(buf, pos + 1)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTopicPartitionsRequest(f_topics, f_response_partition_limit, f_cursor, _unknown), pos


def _encode_topic_request_v0(m: TopicRequest, out: bytearray) -> None:
    write_compact_string(out, m.name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_cursor_v0(m: Cursor, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += _S0.pack(m.partition_index)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_topic_partitions_request_v0(m: DescribeTopicPartitionsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_request_v0(e_topics, out)
    out += _S0.pack(m.response_partition_limit)
    if m.cursor is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_cursor_v0(m.cursor, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeTopicPartitionsRequest, int]]] = {
    0: _decode_describe_topic_partitions_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeTopicPartitionsRequest, bytearray], None]] = {
    0: _encode_describe_topic_partitions_request_v0,
}
