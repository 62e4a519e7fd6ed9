"""DescribeQuorumRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeQuorumRequest.json by
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

__all__ = ["DescribeQuorumRequest", "TopicData", "PartitionData"]

_S0 = Struct(">i")


@dataclass(slots=True)
class PartitionData:
    """The partitions to describe."""

    partition_index: int = 0
    # versions 0+. The partition index.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topics to describe."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partitions to describe.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeQuorumRequest(ApiMessage):
    """DescribeQuorumRequest request"""

    API_KEY: ClassVar[int] = 55
    NAME: ClassVar[str] = "DescribeQuorumRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topics to describe.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeQuorumRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeQuorumRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeQuorumRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeQuorumRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeQuorumRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, _unknown), pos


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


def _decode_describe_quorum_request_v0(buf: memoryview, pos: int) -> tuple[DescribeQuorumRequest, int]:
    f_topics: list[TopicData]
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
    return DescribeQuorumRequest(f_topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index)
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


def _encode_describe_quorum_request_v0(m: DescribeQuorumRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeQuorumRequest, int]]] = {
    0: _decode_describe_quorum_request_v0,
    1: _decode_describe_quorum_request_v0,
    2: _decode_describe_quorum_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeQuorumRequest, bytearray], None]] = {
    0: _encode_describe_quorum_request_v0,
    1: _encode_describe_quorum_request_v0,
    2: _encode_describe_quorum_request_v0,
}
