"""LeaderAndIsrResponse: generated from Kafka 3.9.2's LeaderAndIsrResponse.json by
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
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["LeaderAndIsrResponse", "LeaderAndIsrPartitionError", "LeaderAndIsrTopicError"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class LeaderAndIsrPartitionError:
    """A LeaderAndIsrPartitionError in LeaderAndIsrResponse."""

    topic_name: str = ''
    # versions 0-4; ignorable; entity topicName. The topic name.
    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderAndIsrTopicError:
    """Each topic"""

    topic_id: UUID = ZERO_UUID
    # versions 5+. The unique topic ID
    partition_errors: list[LeaderAndIsrPartitionError] = field(default_factory=list)
    # versions 5+. Each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderAndIsrResponse(ApiMessage):
    """LeaderAndIsrResponse response"""

    API_KEY: ClassVar[int] = 4
    NAME: ClassVar[str] = "LeaderAndIsrResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    partition_errors: list[LeaderAndIsrPartitionError] = field(default_factory=list)
    # versions 0-4. Each partition in v0 to v4 message.
    topics: list[LeaderAndIsrTopicError] = field(default_factory=list)
    # versions 5+. Each topic
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaderAndIsrResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[LeaderAndIsrResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaderAndIsrResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"LeaderAndIsrResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> LeaderAndIsrResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leader_and_isr_partition_error_v0(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionError, int]:
    f_topic_name: str
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return LeaderAndIsrPartitionError(f_topic_name, f_partition_index, f_error_code, []), pos


def _decode_leader_and_isr_response_v0(buf: memoryview, pos: int) -> tuple[LeaderAndIsrResponse, int]:
    f_partition_errors: list[LeaderAndIsrPartitionError]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_partition_errors, pos = read_array_length(buf, pos)
    if n_partition_errors < 0:
        raise null_field("partitionErrors")
    else:
        f_partition_errors = []
        for _ in range(n_partition_errors):
            e_partition_errors, pos = _decode_leader_and_isr_partition_error_v0(buf, pos)
            f_partition_errors.append(e_partition_errors)
    return LeaderAndIsrResponse(f_error_code, f_partition_errors, [], []), pos


def _decode_leader_and_isr_partition_error_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionError, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrPartitionError(f_topic_name, f_partition_index, f_error_code, _unknown), pos


def _decode_leader_and_isr_response_v4(buf: memoryview, pos: int) -> tuple[LeaderAndIsrResponse, int]:
    f_partition_errors: list[LeaderAndIsrPartitionError]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_partition_errors, pos = read_compact_array_length(buf, pos)
    if n_partition_errors < 0:
        raise null_field("partitionErrors")
    else:
        f_partition_errors = []
        for _ in range(n_partition_errors):
            e_partition_errors, pos = _decode_leader_and_isr_partition_error_v4(buf, pos)
            f_partition_errors.append(e_partition_errors)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrResponse(f_error_code, f_partition_errors, [], _unknown), pos


def _decode_leader_and_isr_partition_error_v5(buf: memoryview, pos: int) -> tuple[LeaderAndIsrPartitionError, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrPartitionError('', f_partition_index, f_error_code, _unknown), pos


def _decode_leader_and_isr_topic_error_v5(buf: memoryview, pos: int) -> tuple[LeaderAndIsrTopicError, int]:
    f_topic_id: UUID
    f_partition_errors: list[LeaderAndIsrPartitionError]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_errors, pos = read_compact_array_length(buf, pos)
    if n_partition_errors < 0:
        raise null_field("partitionErrors")
    else:
        f_partition_errors = []
        for _ in range(n_partition_errors):
            e_partition_errors, pos = _decode_leader_and_isr_partition_error_v5(buf, pos)
            f_partition_errors.append(e_partition_errors)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrTopicError(f_topic_id, f_partition_errors, _unknown), pos


def _decode_leader_and_isr_response_v5(buf: memoryview, pos: int) -> tuple[LeaderAndIsrResponse, int]:
    f_topics: list[LeaderAndIsrTopicError]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_leader_and_isr_topic_error_v5(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderAndIsrResponse(f_error_code, [], f_topics, _unknown), pos


def _encode_leader_and_isr_partition_error_v0(m: LeaderAndIsrPartitionError, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.error_code)


def _encode_leader_and_isr_response_v0(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("LeaderAndIsrResponse", "Topics", 0)
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.partition_errors))
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v0(e_partition_errors, out)


def _encode_leader_and_isr_response_v1(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("LeaderAndIsrResponse", "Topics", 1)
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.partition_errors))
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v0(e_partition_errors, out)


def _encode_leader_and_isr_response_v2(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("LeaderAndIsrResponse", "Topics", 2)
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.partition_errors))
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v0(e_partition_errors, out)


def _encode_leader_and_isr_response_v3(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("LeaderAndIsrResponse", "Topics", 3)
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.partition_errors))
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v0(e_partition_errors, out)


def _encode_leader_and_isr_partition_error_v4(m: LeaderAndIsrPartitionError, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_response_v4(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("LeaderAndIsrResponse", "Topics", 4)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.partition_errors) + 1)
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v4(e_partition_errors, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_partition_error_v5(m: LeaderAndIsrPartitionError, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_topic_error_v5(m: LeaderAndIsrTopicError, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_errors) + 1)
    for e_partition_errors in m.partition_errors:
        _encode_leader_and_isr_partition_error_v5(e_partition_errors, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_response_v5(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.partition_errors) > 0:
        raise version_error("LeaderAndIsrResponse", "PartitionErrors", 5)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_leader_and_isr_topic_error_v5(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_response_v6(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.partition_errors) > 0:
        raise version_error("LeaderAndIsrResponse", "PartitionErrors", 6)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_leader_and_isr_topic_error_v5(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_and_isr_response_v7(m: LeaderAndIsrResponse, out: bytearray) -> None:
    if len(m.partition_errors) > 0:
        raise version_error("LeaderAndIsrResponse", "PartitionErrors", 7)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_leader_and_isr_topic_error_v5(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[LeaderAndIsrResponse, int]]] = {
    0: _decode_leader_and_isr_response_v0,
    1: _decode_leader_and_isr_response_v0,
    2: _decode_leader_and_isr_response_v0,
    3: _decode_leader_and_isr_response_v0,
    4: _decode_leader_and_isr_response_v4,
    5: _decode_leader_and_isr_response_v5,
    6: _decode_leader_and_isr_response_v5,
    7: _decode_leader_and_isr_response_v5,
}
_ENCODERS: dict[int, Callable[[LeaderAndIsrResponse, bytearray], None]] = {
    0: _encode_leader_and_isr_response_v0,
    1: _encode_leader_and_isr_response_v1,
    2: _encode_leader_and_isr_response_v2,
    3: _encode_leader_and_isr_response_v3,
    4: _encode_leader_and_isr_response_v4,
    5: _encode_leader_and_isr_response_v5,
    6: _encode_leader_and_isr_response_v6,
    7: _encode_leader_and_isr_response_v7,
}
