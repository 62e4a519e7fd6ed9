"""ListOffsetsResponse: generated from Kafka 3.9.2 and 4.4.0's ListOffsetsResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListOffsetsResponse", "ListOffsetsTopicResponse", "ListOffsetsPartitionResponse"]

_S0 = Struct(">ih")
_S1 = Struct(">ihqq")
_S2 = Struct(">i")
_S3 = Struct(">ihqqi")


@dataclass(slots=True)
class ListOffsetsPartitionResponse:
    """Each partition in the response."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition error code, or 0 if there was no error.
    old_style_offsets: list[int] = field(default_factory=list)
    # versions 0. The result offsets.
    timestamp: int = -1
    # versions 1+. The timestamp associated with the returned offset.
    offset: int = -1
    # versions 1+. The returned offset.
    leader_epoch: int = -1
    # versions 4+. The leader epoch associated with the returned offset.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListOffsetsTopicResponse:
    """Each topic in the response."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[ListOffsetsPartitionResponse] = field(default_factory=list)
    # versions 0+. Each partition in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListOffsetsResponse(ApiMessage):
    """ListOffsetsResponse response"""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = "ListOffsetsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 11
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    throttle_time_ms: int = 0
    # versions 2+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[ListOffsetsTopicResponse] = field(default_factory=list)
    # versions 0+. Each topic in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListOffsetsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListOffsetsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListOffsetsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListOffsetsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListOffsetsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_offsets_partition_response_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    f_old_style_offsets: list[int]
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_old_style_offsets, pos = read_array_length(buf, pos)
    if n_old_style_offsets < 0:
        raise null_field("oldStyleOffsets")
    else:
        f_old_style_offsets = list(unpack_from(f">{n_old_style_offsets}q", buf, pos))
        pos += 8 * n_old_style_offsets
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, f_old_style_offsets, -1, -1, -1, []), pos


def _decode_list_offsets_topic_response_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartitionResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_response_v0(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopicResponse(f_name, f_partitions, []), pos


def _decode_list_offsets_response_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsResponse, int]:
    f_topics: list[ListOffsetsTopicResponse]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_response_v0(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsResponse(0, f_topics, []), pos


def _decode_list_offsets_partition_response_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    f_partition_index, f_error_code, f_timestamp, f_offset = _S1.unpack_from(buf, pos)
    pos += 22
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, [], f_timestamp, f_offset, -1, []), pos


def _decode_list_offsets_topic_response_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartitionResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_response_v1(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopicResponse(f_name, f_partitions, []), pos


def _decode_list_offsets_response_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsResponse, int]:
    f_topics: list[ListOffsetsTopicResponse]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_response_v1(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsResponse(0, f_topics, []), pos


def _decode_list_offsets_response_v2(buf: memoryview, pos: int) -> tuple[ListOffsetsResponse, int]:
    f_topics: list[ListOffsetsTopicResponse]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_response_v1(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_list_offsets_partition_response_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 26
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, [], f_timestamp, f_offset, f_leader_epoch, []), pos


def _decode_list_offsets_topic_response_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartitionResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_response_v4(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopicResponse(f_name, f_partitions, []), pos


def _decode_list_offsets_response_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsResponse, int]:
    f_topics: list[ListOffsetsTopicResponse]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_response_v4(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_list_offsets_partition_response_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 26
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, [], f_timestamp, f_offset, f_leader_epoch, _unknown), pos


def _decode_list_offsets_topic_response_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartitionResponse]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_response_v6(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsTopicResponse(f_name, f_partitions, _unknown), pos


def _decode_list_offsets_response_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsResponse, int]:
    f_topics: list[ListOffsetsTopicResponse]
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_response_v6(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_list_offsets_partition_response_v0(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if m.timestamp != -1:
        raise version_error("ListOffsetsPartitionResponse", "Timestamp", 0)
    if m.offset != -1:
        raise version_error("ListOffsetsPartitionResponse", "Offset", 0)
    if m.leader_epoch != -1:
        raise version_error("ListOffsetsPartitionResponse", "LeaderEpoch", 0)
    out += _S0.pack(m.partition_index, m.error_code)
    out += pack_int32(len(m.old_style_offsets))
    out += pack(f">{len(m.old_style_offsets)}q", *m.old_style_offsets)


def _encode_list_offsets_topic_response_v0(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v0(e_partitions, out)


def _encode_list_offsets_response_v0(m: ListOffsetsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v0(e_topics, out)


def _encode_list_offsets_partition_response_v1(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 1)
    if m.leader_epoch != -1:
        raise version_error("ListOffsetsPartitionResponse", "LeaderEpoch", 1)
    out += _S1.pack(m.partition_index, m.error_code, m.timestamp, m.offset)


def _encode_list_offsets_topic_response_v1(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v1(e_partitions, out)


def _encode_list_offsets_response_v1(m: ListOffsetsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v1(e_topics, out)


def _encode_list_offsets_partition_response_v2(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 2)
    if m.leader_epoch != -1:
        raise version_error("ListOffsetsPartitionResponse", "LeaderEpoch", 2)
    out += _S1.pack(m.partition_index, m.error_code, m.timestamp, m.offset)


def _encode_list_offsets_topic_response_v2(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v2(e_partitions, out)


def _encode_list_offsets_response_v2(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v2(e_topics, out)


def _encode_list_offsets_partition_response_v3(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 3)
    if m.leader_epoch != -1:
        raise version_error("ListOffsetsPartitionResponse", "LeaderEpoch", 3)
    out += _S1.pack(m.partition_index, m.error_code, m.timestamp, m.offset)


def _encode_list_offsets_topic_response_v3(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v3(e_partitions, out)


def _encode_list_offsets_response_v3(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v3(e_topics, out)


def _encode_list_offsets_partition_response_v4(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 4)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)


def _encode_list_offsets_topic_response_v4(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v4(e_partitions, out)


def _encode_list_offsets_response_v4(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v4(e_topics, out)


def _encode_list_offsets_partition_response_v5(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 5)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)


def _encode_list_offsets_topic_response_v5(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v5(e_partitions, out)


def _encode_list_offsets_response_v5(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v5(e_topics, out)


def _encode_list_offsets_partition_response_v6(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 6)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v6(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v6(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v6(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v6(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_response_v7(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 7)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v7(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v7(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v7(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v7(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_response_v8(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 8)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v8(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v8(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_response_v9(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 9)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v9(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v9(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v9(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v9(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_response_v10(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 10)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v10(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v10(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v10(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v10(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_response_v11(m: ListOffsetsPartitionResponse, out: bytearray) -> None:
    if len(m.old_style_offsets) > 0:
        raise version_error("ListOffsetsPartitionResponse", "OldStyleOffsets", 11)
    out += _S3.pack(m.partition_index, m.error_code, m.timestamp, m.offset, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_response_v11(m: ListOffsetsTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_response_v11(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_response_v11(m: ListOffsetsResponse, out: bytearray) -> None:
    out += _S2.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_response_v11(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListOffsetsResponse, int]]] = {
    0: _decode_list_offsets_response_v0,
    1: _decode_list_offsets_response_v1,
    2: _decode_list_offsets_response_v2,
    3: _decode_list_offsets_response_v2,
    4: _decode_list_offsets_response_v4,
    5: _decode_list_offsets_response_v4,
    6: _decode_list_offsets_response_v6,
    7: _decode_list_offsets_response_v6,
    8: _decode_list_offsets_response_v6,
    9: _decode_list_offsets_response_v6,
    10: _decode_list_offsets_response_v6,
    11: _decode_list_offsets_response_v6,
}
_ENCODERS: dict[int, Callable[[ListOffsetsResponse, bytearray], None]] = {
    0: _encode_list_offsets_response_v0,
    1: _encode_list_offsets_response_v1,
    2: _encode_list_offsets_response_v2,
    3: _encode_list_offsets_response_v3,
    4: _encode_list_offsets_response_v4,
    5: _encode_list_offsets_response_v5,
    6: _encode_list_offsets_response_v6,
    7: _encode_list_offsets_response_v7,
    8: _encode_list_offsets_response_v8,
    9: _encode_list_offsets_response_v9,
    10: _encode_list_offsets_response_v10,
    11: _encode_list_offsets_response_v11,
}
