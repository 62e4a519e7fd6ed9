"""DescribeProducersRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeProducersRequest.json by
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

__all__ = ["DescribeProducersRequest", "TopicRequest"]



@dataclass(slots=True)
class TopicRequest:
    """The topics to list producers for."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 0+. The indexes of the partitions to list producers for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeProducersRequest(ApiMessage):
    """DescribeProducersRequest request"""

    API_KEY: ClassVar[int] = 61
    NAME: ClassVar[str] = "DescribeProducersRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    topics: list[TopicRequest] = field(default_factory=list)
    # versions 0+. The topics to list producers for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeProducersRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeProducersRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeProducersRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeProducersRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeProducersRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_request_v0(buf: memoryview, pos: int) -> tuple[TopicRequest, int]:
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
    return TopicRequest(f_name, f_partition_indexes, _unknown), pos


def _decode_describe_producers_request_v0(buf: memoryview, pos: int) -> tuple[DescribeProducersRequest, int]:
    f_topics: list[TopicRequest]
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_request_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeProducersRequest(f_topics, _unknown), pos


def _encode_topic_request_v0(m: TopicRequest, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_producers_request_v0(m: DescribeProducersRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_request_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeProducersRequest, int]]] = {
    0: _decode_describe_producers_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeProducersRequest, bytearray], None]] = {
    0: _encode_describe_producers_request_v0,
}
