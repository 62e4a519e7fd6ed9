"""SyncGroupResponse: generated from Kafka 3.9.2 and 4.4.0's SyncGroupResponse.json by
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
    read_bytes,
    read_compact_bytes,
    read_compact_nullable_string,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_tagged_fields,
)

__all__ = ["SyncGroupResponse"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class SyncGroupResponse(ApiMessage):
    """SyncGroupResponse response"""

    API_KEY: ClassVar[int] = 14
    NAME: ClassVar[str] = "SyncGroupResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    protocol_type: str | None = None
    # versions 5+; nullable 5+; ignorable. The group protocol type.
    protocol_name: str | None = None
    # versions 5+; nullable 5+; ignorable. The group protocol name.
    assignment: bytes = b""
    # versions 0+. The member assignment.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SyncGroupResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SyncGroupResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SyncGroupResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SyncGroupResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SyncGroupResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sync_group_response_v0(buf: memoryview, pos: int) -> tuple[SyncGroupResponse, int]:
    f_assignment: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_assignment, pos = read_bytes(buf, pos, "assignment")
    return SyncGroupResponse(0, f_error_code, None, None, f_assignment, []), pos


def _decode_sync_group_response_v1(buf: memoryview, pos: int) -> tuple[SyncGroupResponse, int]:
    f_assignment: bytes
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_assignment, pos = read_bytes(buf, pos, "assignment")
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, None, None, f_assignment, []), pos


def _decode_sync_group_response_v4(buf: memoryview, pos: int) -> tuple[SyncGroupResponse, int]:
    f_assignment: bytes
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_assignment, pos = read_compact_bytes(buf, pos, "assignment")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, None, None, f_assignment, _unknown), pos


def _decode_sync_group_response_v5(buf: memoryview, pos: int) -> tuple[SyncGroupResponse, int]:
    f_protocol_type: str | None
    f_protocol_name: str | None
    f_assignment: bytes
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_assignment, pos = read_compact_bytes(buf, pos, "assignment")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, f_protocol_type, f_protocol_name, f_assignment, _unknown), pos


def _encode_sync_group_response_v0(m: SyncGroupResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_bytes(out, m.assignment)


def _encode_sync_group_response_v1(m: SyncGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_bytes(out, m.assignment)


def _encode_sync_group_response_v4(m: SyncGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_compact_bytes(out, m.assignment)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_sync_group_response_v5(m: SyncGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.protocol_type)
    write_compact_nullable_string(out, m.protocol_name)
    write_compact_bytes(out, m.assignment)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SyncGroupResponse, int]]] = {
    0: _decode_sync_group_response_v0,
    1: _decode_sync_group_response_v1,
    2: _decode_sync_group_response_v1,
    3: _decode_sync_group_response_v1,
    4: _decode_sync_group_response_v4,
    5: _decode_sync_group_response_v5,
}
_ENCODERS: dict[int, Callable[[SyncGroupResponse, bytearray], None]] = {
    0: _encode_sync_group_response_v0,
    1: _encode_sync_group_response_v1,
    2: _encode_sync_group_response_v1,
    3: _encode_sync_group_response_v1,
    4: _encode_sync_group_response_v4,
    5: _encode_sync_group_response_v5,
}
