"""OffsetDeleteRequest: generated from Kafka 3.9.2 and 4.4.0's OffsetDeleteRequest.json by
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
    pack_int32,
    read_array_length,
    read_string,
    write_string,
)

__all__ = ["OffsetDeleteRequest", "OffsetDeleteRequestTopic", "OffsetDeleteRequestPartition"]

_S0 = Struct(">i")


@dataclass(slots=True)
class OffsetDeleteRequestPartition:
    """Each partition to delete offsets for."""

    partition_index: int = 0
    # versions 0+. The partition index.


@dataclass(slots=True)
class OffsetDeleteRequestTopic:
    """The topics to delete offsets for."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[OffsetDeleteRequestPartition] = field(default_factory=list)
    # versions 0+. Each partition to delete offsets for.


@dataclass(slots=True)
class OffsetDeleteRequest(ApiMessage):
    """OffsetDeleteRequest request"""

    API_KEY: ClassVar[int] = 47
    NAME: ClassVar[str] = "OffsetDeleteRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None

    group_id: str = ''
    # versions 0+; entity groupId. The unique group identifier.
    topics: list[OffsetDeleteRequestTopic] = field(default_factory=list)
    # versions 0+. The topics to delete offsets for.

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetDeleteRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetDeleteRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetDeleteRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetDeleteRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetDeleteRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_delete_request_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteRequestPartition, int]:
    f_partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    return OffsetDeleteRequestPartition(f_partition_index), pos


def _decode_offset_delete_request_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteRequestTopic, int]:
    f_name: str
    f_partitions: list[OffsetDeleteRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_delete_request_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetDeleteRequestTopic(f_name, f_partitions), pos


def _decode_offset_delete_request_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteRequest, int]:
    f_group_id: str
    f_topics: list[OffsetDeleteRequestTopic]
    f_group_id, pos = read_string(buf, pos, "groupId")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_delete_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetDeleteRequest(f_group_id, f_topics), pos


def _encode_offset_delete_request_partition_v0(m: OffsetDeleteRequestPartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index)


def _encode_offset_delete_request_topic_v0(m: OffsetDeleteRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_delete_request_partition_v0(e_partitions, out)


def _encode_offset_delete_request_v0(m: OffsetDeleteRequest, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_delete_request_topic_v0(e_topics, out)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetDeleteRequest, int]]] = {
    0: _decode_offset_delete_request_v0,
}
_ENCODERS: dict[int, Callable[[OffsetDeleteRequest, bytearray], None]] = {
    0: _encode_offset_delete_request_v0,
}
