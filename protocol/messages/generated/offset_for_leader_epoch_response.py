"""OffsetForLeaderEpochResponse: generated from Kafka 3.9.2 and 4.4.0's OffsetForLeaderEpochResponse.json by
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
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["OffsetForLeaderEpochResponse", "OffsetForLeaderTopicResult", "EpochEndOffset"]

_S0 = Struct(">hiq")
_S1 = Struct(">hiiq")
_S2 = Struct(">i")


@dataclass(slots=True)
class EpochEndOffset:
    """Each partition in the topic we fetched offsets for."""

    error_code: int = 0
    # versions 0+. The error code 0, or if there was no error.
    partition: int = 0
    # versions 0+. The partition index.
    leader_epoch: int = -1
    # versions 1+; ignorable. The leader epoch of the partition.
    end_offset: int = -1
    # versions 0+. The end offset of the epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetForLeaderTopicResult:
    """Each topic we fetched offsets for."""

    topic: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[EpochEndOffset] = field(default_factory=list)
    # versions 0+. Each partition in the topic we fetched offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetForLeaderEpochResponse(ApiMessage):
    """OffsetForLeaderEpochResponse response"""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = "OffsetForLeaderEpochResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 2+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[OffsetForLeaderTopicResult] = field(default_factory=list)
    # versions 0+. Each topic we fetched offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetForLeaderEpochResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetForLeaderEpochResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetForLeaderEpochResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetForLeaderEpochResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetForLeaderEpochResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_epoch_end_offset_v0(buf: memoryview, pos: int) -> tuple[EpochEndOffset, int]:
    f_error_code, f_partition, f_end_offset = _S0.unpack_from(buf, pos)
    pos += 14
    return EpochEndOffset(f_error_code, f_partition, -1, f_end_offset, []), pos


def _decode_offset_for_leader_topic_result_v0(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopicResult, int]:
    f_topic: str
    f_partitions: list[EpochEndOffset]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_epoch_end_offset_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetForLeaderTopicResult(f_topic, f_partitions, []), pos


def _decode_offset_for_leader_epoch_response_v0(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    f_topics: list[OffsetForLeaderTopicResult]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_result_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochResponse(0, f_topics, []), pos


def _decode_epoch_end_offset_v1(buf: memoryview, pos: int) -> tuple[EpochEndOffset, int]:
    f_error_code, f_partition, f_leader_epoch, f_end_offset = _S1.unpack_from(buf, pos)
    pos += 18
    return EpochEndOffset(f_error_code, f_partition, f_leader_epoch, f_end_offset, []), pos


def _decode_offset_for_leader_topic_result_v1(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopicResult, int]:
    f_topic: str
    f_partitions: list[EpochEndOffset]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_epoch_end_offset_v1(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetForLeaderTopicResult(f_topic, f_partitions, []), pos


def _decode_offset_for_leader_epoch_response_v1(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    f_topics: list[OffsetForLeaderTopicResult]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_result_v1(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochResponse(0, f_topics, []), pos


def _decode_offset_for_leader_epoch_response_v2(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    f_topics: list[OffsetForLeaderTopicResult]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_result_v1(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_epoch_end_offset_v4(buf: memoryview, pos: int) -> tuple[EpochEndOffset, int]:
    f_error_code, f_partition, f_leader_epoch, f_end_offset = _S1.unpack_from(buf, pos)
    pos += 18
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EpochEndOffset(f_error_code, f_partition, f_leader_epoch, f_end_offset, _unknown), pos


def _decode_offset_for_leader_topic_result_v4(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopicResult, int]:
    f_topic: str
    f_partitions: list[EpochEndOffset]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_epoch_end_offset_v4(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetForLeaderTopicResult(f_topic, f_partitions, _unknown), pos


def _decode_offset_for_leader_epoch_response_v4(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    f_topics: list[OffsetForLeaderTopicResult]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_result_v4(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetForLeaderEpochResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_epoch_end_offset_v0(m: EpochEndOffset, out: bytearray) -> None:
    out += _S0.pack(m.error_code, m.partition, m.end_offset)


def _encode_offset_for_leader_topic_result_v0(m: OffsetForLeaderTopicResult, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_epoch_end_offset_v0(e_partitions, out)


def _encode_offset_for_leader_epoch_response_v0(m: OffsetForLeaderEpochResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_result_v0(e_topics, out)


def _encode_epoch_end_offset_v1(m: EpochEndOffset, out: bytearray) -> None:
    out += _S1.pack(m.error_code, m.partition, m.leader_epoch, m.end_offset)


def _encode_offset_for_leader_topic_result_v1(m: OffsetForLeaderTopicResult, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_epoch_end_offset_v1(e_partitions, out)


def _encode_offset_for_leader_epoch_response_v1(m: OffsetForLeaderEpochResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_result_v1(e_topics, out)


def _encode_offset_for_leader_epoch_response_v2(m: OffsetForLeaderEpochResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_result_v1(e_topics, out)


def _encode_epoch_end_offset_v4(m: EpochEndOffset, out: bytearray) -> None:
    out += _S1.pack(m.error_code, m.partition, m.leader_epoch, m.end_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_for_leader_topic_result_v4(m: OffsetForLeaderTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_epoch_end_offset_v4(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_for_leader_epoch_response_v4(m: OffsetForLeaderEpochResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_result_v4(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetForLeaderEpochResponse, int]]] = {
    0: _decode_offset_for_leader_epoch_response_v0,
    1: _decode_offset_for_leader_epoch_response_v1,
    2: _decode_offset_for_leader_epoch_response_v2,
    3: _decode_offset_for_leader_epoch_response_v2,
    4: _decode_offset_for_leader_epoch_response_v4,
}
_ENCODERS: dict[int, Callable[[OffsetForLeaderEpochResponse, bytearray], None]] = {
    0: _encode_offset_for_leader_epoch_response_v0,
    1: _encode_offset_for_leader_epoch_response_v1,
    2: _encode_offset_for_leader_epoch_response_v2,
    3: _encode_offset_for_leader_epoch_response_v2,
    4: _encode_offset_for_leader_epoch_response_v4,
}
