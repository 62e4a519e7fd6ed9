"""HeartbeatResponse: generated from Kafka 3.9.2 and 4.4.0's HeartbeatResponse.json by
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
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = ["HeartbeatResponse"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class HeartbeatResponse(ApiMessage):
    """HeartbeatResponse response"""

    API_KEY: ClassVar[int] = 12
    NAME: ClassVar[str] = "HeartbeatResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"HeartbeatResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[HeartbeatResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"HeartbeatResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"HeartbeatResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> HeartbeatResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_heartbeat_response_v0(buf: memoryview, pos: int) -> tuple[HeartbeatResponse, int]:
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return HeartbeatResponse(0, f_error_code, []), pos


def _decode_heartbeat_response_v1(buf: memoryview, pos: int) -> tuple[HeartbeatResponse, int]:
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return HeartbeatResponse(f_throttle_time_ms, f_error_code, []), pos


def _decode_heartbeat_response_v4(buf: memoryview, pos: int) -> tuple[HeartbeatResponse, int]:
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return HeartbeatResponse(f_throttle_time_ms, f_error_code, _unknown), pos


def _encode_heartbeat_response_v0(m: HeartbeatResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)


def _encode_heartbeat_response_v1(m: HeartbeatResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)


def _encode_heartbeat_response_v4(m: HeartbeatResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[HeartbeatResponse, int]]] = {
    0: _decode_heartbeat_response_v0,
    1: _decode_heartbeat_response_v1,
    2: _decode_heartbeat_response_v1,
    3: _decode_heartbeat_response_v1,
    4: _decode_heartbeat_response_v4,
}
_ENCODERS: dict[int, Callable[[HeartbeatResponse, bytearray], None]] = {
    0: _encode_heartbeat_response_v0,
    1: _encode_heartbeat_response_v1,
    2: _encode_heartbeat_response_v1,
    3: _encode_heartbeat_response_v1,
    4: _encode_heartbeat_response_v4,
}
