"""DeleteTopicsResponse: generated from Kafka 3.9.2 and 4.4.0's DeleteTopicsResponse.json by
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
    null_error,
    null_field,
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteTopicsResponse", "DeletableTopicResult"]

_S0 = Struct(">h")
_S1 = Struct(">i")


@dataclass(slots=True)
class DeletableTopicResult:
    """The results for each topic we tried to delete."""

    name: str | None = ''
    # versions 0+; nullable 6+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 6+; ignorable. The unique topic ID.
    error_code: int = 0
    # versions 0+. The deletion error, or 0 if the deletion succeeded.
    error_message: str | None = None
    # versions 5+; nullable 5+; ignorable. The error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteTopicsResponse(ApiMessage):
    """DeleteTopicsResponse response"""

    API_KEY: ClassVar[int] = 20
    NAME: ClassVar[str] = "DeleteTopicsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    responses: list[DeletableTopicResult] = field(default_factory=list)
    # versions 0+. The results for each topic we tried to delete.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteTopicsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteTopicsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteTopicsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteTopicsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteTopicsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_deletable_topic_result_v0(buf: memoryview, pos: int) -> tuple[DeletableTopicResult, int]:
    f_name: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return DeletableTopicResult(f_name, ZERO_UUID, f_error_code, None, []), pos


def _decode_delete_topics_response_v0(buf: memoryview, pos: int) -> tuple[DeleteTopicsResponse, int]:
    f_responses: list[DeletableTopicResult]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_deletable_topic_result_v0(buf, pos)
            f_responses.append(e_responses)
    return DeleteTopicsResponse(0, f_responses, []), pos


def _decode_delete_topics_response_v1(buf: memoryview, pos: int) -> tuple[DeleteTopicsResponse, int]:
    f_responses: list[DeletableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_deletable_topic_result_v0(buf, pos)
            f_responses.append(e_responses)
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, []), pos


def _decode_deletable_topic_result_v4(buf: memoryview, pos: int) -> tuple[DeletableTopicResult, int]:
    f_name: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeletableTopicResult(f_name, ZERO_UUID, f_error_code, None, _unknown), pos


def _decode_delete_topics_response_v4(buf: memoryview, pos: int) -> tuple[DeleteTopicsResponse, int]:
    f_responses: list[DeletableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_deletable_topic_result_v4(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, _unknown), pos


def _decode_deletable_topic_result_v5(buf: memoryview, pos: int) -> tuple[DeletableTopicResult, int]:
    f_name: str | None
    f_error_message: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeletableTopicResult(f_name, ZERO_UUID, f_error_code, f_error_message, _unknown), pos


def _decode_delete_topics_response_v5(buf: memoryview, pos: int) -> tuple[DeleteTopicsResponse, int]:
    f_responses: list[DeletableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_deletable_topic_result_v5(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, _unknown), pos


def _decode_deletable_topic_result_v6(buf: memoryview, pos: int) -> tuple[DeletableTopicResult, int]:
    f_name: str | None
    f_topic_id: UUID
    f_error_message: str | None
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeletableTopicResult(f_name, f_topic_id, f_error_code, f_error_message, _unknown), pos


def _decode_delete_topics_response_v6(buf: memoryview, pos: int) -> tuple[DeleteTopicsResponse, int]:
    f_responses: list[DeletableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_deletable_topic_result_v6(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, _unknown), pos


def _encode_deletable_topic_result_v0(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 0)
    write_string(out, m.name)
    out += _S0.pack(m.error_code)


def _encode_delete_topics_response_v0(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_deletable_topic_result_v0(e_responses, out)


def _encode_deletable_topic_result_v1(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 1)
    write_string(out, m.name)
    out += _S0.pack(m.error_code)


def _encode_delete_topics_response_v1(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_deletable_topic_result_v1(e_responses, out)


def _encode_deletable_topic_result_v2(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 2)
    write_string(out, m.name)
    out += _S0.pack(m.error_code)


def _encode_delete_topics_response_v2(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_deletable_topic_result_v2(e_responses, out)


def _encode_deletable_topic_result_v3(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 3)
    write_string(out, m.name)
    out += _S0.pack(m.error_code)


def _encode_delete_topics_response_v3(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_deletable_topic_result_v3(e_responses, out)


def _encode_deletable_topic_result_v4(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 4)
    write_compact_string(out, m.name)
    out += _S0.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topics_response_v4(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_deletable_topic_result_v4(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_deletable_topic_result_v5(m: DeletableTopicResult, out: bytearray) -> None:
    if m.name is None:
        raise null_error("DeletableTopicResult", "Name", 5)
    write_compact_string(out, m.name)
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topics_response_v5(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_deletable_topic_result_v5(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_deletable_topic_result_v6(m: DeletableTopicResult, out: bytearray) -> None:
    write_compact_nullable_string(out, m.name)
    out += m.topic_id.bytes
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topics_response_v6(m: DeleteTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_deletable_topic_result_v6(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteTopicsResponse, int]]] = {
    0: _decode_delete_topics_response_v0,
    1: _decode_delete_topics_response_v1,
    2: _decode_delete_topics_response_v1,
    3: _decode_delete_topics_response_v1,
    4: _decode_delete_topics_response_v4,
    5: _decode_delete_topics_response_v5,
    6: _decode_delete_topics_response_v6,
}
_ENCODERS: dict[int, Callable[[DeleteTopicsResponse, bytearray], None]] = {
    0: _encode_delete_topics_response_v0,
    1: _encode_delete_topics_response_v1,
    2: _encode_delete_topics_response_v2,
    3: _encode_delete_topics_response_v3,
    4: _encode_delete_topics_response_v4,
    5: _encode_delete_topics_response_v5,
    6: _encode_delete_topics_response_v6,
}
