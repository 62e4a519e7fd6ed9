"""OffsetDeleteResponse: generated from Kafka 3.9.2 and 4.4.0's OffsetDeleteResponse.json by
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

__all__ = ["OffsetDeleteResponse", "OffsetDeleteResponseTopic", "OffsetDeleteResponsePartition"]

_S0 = Struct(">hi")
_S1 = Struct(">ih")


@dataclass(slots=True)
class OffsetDeleteResponsePartition:
    """The responses for each partition in the topic."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.


@dataclass(slots=True)
class OffsetDeleteResponseTopic:
    """The responses for each topic."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[OffsetDeleteResponsePartition] = field(default_factory=list)
    # versions 0+. The responses for each partition in the topic.


@dataclass(slots=True)
class OffsetDeleteResponse(ApiMessage):
    """OffsetDeleteResponse response"""

    API_KEY: ClassVar[int] = 47
    NAME: ClassVar[str] = "OffsetDeleteResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None

    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no error.
    throttle_time_ms: int = 0
    # versions 0+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[OffsetDeleteResponseTopic] = field(default_factory=list)
    # versions 0+. The responses for each topic.

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetDeleteResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetDeleteResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetDeleteResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetDeleteResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetDeleteResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_delete_response_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteResponsePartition, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return OffsetDeleteResponsePartition(f_partition_index, f_error_code), pos


def _decode_offset_delete_response_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetDeleteResponsePartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_delete_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetDeleteResponseTopic(f_name, f_partitions), pos


def _decode_offset_delete_response_v0(buf: memoryview, pos: int) -> tuple[OffsetDeleteResponse, int]:
    f_topics: list[OffsetDeleteResponseTopic]
    f_error_code, f_throttle_time_ms = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_delete_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetDeleteResponse(f_error_code, f_throttle_time_ms, f_topics), pos


def _encode_offset_delete_response_partition_v0(m: OffsetDeleteResponsePartition, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)


def _encode_offset_delete_response_topic_v0(m: OffsetDeleteResponseTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_delete_response_partition_v0(e_partitions, out)


def _encode_offset_delete_response_v0(m: OffsetDeleteResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code, m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_delete_response_topic_v0(e_topics, out)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetDeleteResponse, int]]] = {
    0: _decode_offset_delete_response_v0,
}
_ENCODERS: dict[int, Callable[[OffsetDeleteResponse, bytearray], None]] = {
    0: _encode_offset_delete_response_v0,
}
