"""OffsetCommitResponse: generated from Kafka 3.9.2 and 4.4.0's OffsetCommitResponse.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["OffsetCommitResponse", "OffsetCommitResponseTopic", "OffsetCommitResponsePartition"]

_S0 = Struct(">ih")
_S1 = Struct(">i")


@dataclass(slots=True)
class OffsetCommitResponsePartition:
    """The responses for each partition in the topic."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetCommitResponseTopic:
    """The responses for each topic."""

    name: str = ''
    # versions 0-9; ignorable; entity topicName. The topic name.
    partitions: list[OffsetCommitResponsePartition] = field(default_factory=list)
    # versions 0+. The responses for each partition in the topic.
    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetCommitResponse(ApiMessage):
    """OffsetCommitResponse response"""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = "OffsetCommitResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 8

    throttle_time_ms: int = 0
    # versions 3+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[OffsetCommitResponseTopic] = field(default_factory=list)
    # versions 0+. The responses for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetCommitResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetCommitResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetCommitResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetCommitResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetCommitResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_commit_response_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitResponsePartition, int]:
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    return OffsetCommitResponsePartition(f_partition_index, f_error_code, []), pos


def _decode_offset_commit_response_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitResponsePartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_response_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetCommitResponseTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_offset_commit_response_v0(buf: memoryview, pos: int) -> tuple[OffsetCommitResponse, int]:
    f_topics: list[OffsetCommitResponseTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitResponse(0, f_topics, []), pos


def _decode_offset_commit_response_v3(buf: memoryview, pos: int) -> tuple[OffsetCommitResponse, int]:
    f_topics: list[OffsetCommitResponseTopic]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_response_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetCommitResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_offset_commit_response_partition_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitResponsePartition, int]:
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitResponsePartition(f_partition_index, f_error_code, _unknown), pos


def _decode_offset_commit_response_topic_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    f_name: str
    f_partitions: list[OffsetCommitResponsePartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_response_partition_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitResponseTopic(f_name, f_partitions, ZERO_UUID, _unknown), pos


def _decode_offset_commit_response_v8(buf: memoryview, pos: int) -> tuple[OffsetCommitResponse, int]:
    f_topics: list[OffsetCommitResponseTopic]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_response_topic_v8(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _decode_offset_commit_response_topic_v10(buf: memoryview, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    f_topic_id: UUID
    f_partitions: list[OffsetCommitResponsePartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_commit_response_partition_v8(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitResponseTopic('', f_partitions, f_topic_id, _unknown), pos


def _decode_offset_commit_response_v10(buf: memoryview, pos: int) -> tuple[OffsetCommitResponse, int]:
    f_topics: list[OffsetCommitResponseTopic]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_commit_response_topic_v10(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetCommitResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_offset_commit_response_partition_v0(m: OffsetCommitResponsePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)


def _encode_offset_commit_response_topic_v0(m: OffsetCommitResponseTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_commit_response_partition_v0(e_partitions, out)


def _encode_offset_commit_response_v0(m: OffsetCommitResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_response_topic_v0(e_topics, out)


def _encode_offset_commit_response_v3(m: OffsetCommitResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_commit_response_topic_v0(e_topics, out)


def _encode_offset_commit_response_partition_v8(m: OffsetCommitResponsePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_response_topic_v8(m: OffsetCommitResponseTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_commit_response_partition_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_response_v8(m: OffsetCommitResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_commit_response_topic_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_response_topic_v10(m: OffsetCommitResponseTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_commit_response_partition_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_commit_response_v10(m: OffsetCommitResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_commit_response_topic_v10(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetCommitResponse, int]]] = {
    0: _decode_offset_commit_response_v0,
    1: _decode_offset_commit_response_v0,
    2: _decode_offset_commit_response_v0,
    3: _decode_offset_commit_response_v3,
    4: _decode_offset_commit_response_v3,
    5: _decode_offset_commit_response_v3,
    6: _decode_offset_commit_response_v3,
    7: _decode_offset_commit_response_v3,
    8: _decode_offset_commit_response_v8,
    9: _decode_offset_commit_response_v8,
    10: _decode_offset_commit_response_v10,
}
_ENCODERS: dict[int, Callable[[OffsetCommitResponse, bytearray], None]] = {
    0: _encode_offset_commit_response_v0,
    1: _encode_offset_commit_response_v0,
    2: _encode_offset_commit_response_v0,
    3: _encode_offset_commit_response_v3,
    4: _encode_offset_commit_response_v3,
    5: _encode_offset_commit_response_v3,
    6: _encode_offset_commit_response_v3,
    7: _encode_offset_commit_response_v3,
    8: _encode_offset_commit_response_v8,
    9: _encode_offset_commit_response_v8,
    10: _encode_offset_commit_response_v10,
}
