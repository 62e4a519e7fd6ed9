"""DeleteShareGroupOffsetsResponse: generated from Kafka 4.4.0's DeleteShareGroupOffsetsResponse.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteShareGroupOffsetsResponse", "DeleteShareGroupOffsetsResponseTopic"]

_S0 = Struct(">ih")
_S1 = Struct(">h")


@dataclass(slots=True)
class DeleteShareGroupOffsetsResponseTopic:
    """The results for each topic."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    error_code: int = 0
    # versions 0+. The topic-level error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The topic-level error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteShareGroupOffsetsResponse(ApiMessage):
    """DeleteShareGroupOffsetsResponse response"""

    API_KEY: ClassVar[int] = 92
    NAME: ClassVar[str] = "DeleteShareGroupOffsetsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    responses: list[DeleteShareGroupOffsetsResponseTopic] = field(default_factory=list)
    # versions 0+. The results for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteShareGroupOffsetsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteShareGroupOffsetsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteShareGroupOffsetsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteShareGroupOffsetsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteShareGroupOffsetsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_share_group_offsets_response_topic_v0(buf: memoryview, pos: int) -> tuple[DeleteShareGroupOffsetsResponseTopic, int]:
    f_topic_name: str
    f_topic_id: UUID
    f_error_message: str | None
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_error_code, f_error_message, _unknown), pos


def _decode_delete_share_group_offsets_response_v0(buf: memoryview, pos: int) -> tuple[DeleteShareGroupOffsetsResponse, int]:
    f_error_message: str | None
    f_responses: list[DeleteShareGroupOffsetsResponseTopic]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_delete_share_group_offsets_response_topic_v0(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteShareGroupOffsetsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, _unknown), pos


def _encode_delete_share_group_offsets_response_topic_v0(m: DeleteShareGroupOffsetsResponseTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += m.topic_id.bytes
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_share_group_offsets_response_v0(m: DeleteShareGroupOffsetsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_delete_share_group_offsets_response_topic_v0(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteShareGroupOffsetsResponse, int]]] = {
    0: _decode_delete_share_group_offsets_response_v0,
}
_ENCODERS: dict[int, Callable[[DeleteShareGroupOffsetsResponse, bytearray], None]] = {
    0: _encode_delete_share_group_offsets_response_v0,
}
