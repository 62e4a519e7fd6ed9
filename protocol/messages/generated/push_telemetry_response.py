"""PushTelemetryResponse: generated from Kafka 3.9.2 and 4.4.0's PushTelemetryResponse.json by
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

__all__ = ["PushTelemetryResponse"]

_S0 = Struct(">ih")


@dataclass(slots=True)
class PushTelemetryResponse(ApiMessage):
    """PushTelemetryResponse response"""

    API_KEY: ClassVar[int] = 72
    NAME: ClassVar[str] = "PushTelemetryResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"PushTelemetryResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[PushTelemetryResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"PushTelemetryResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"PushTelemetryResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> PushTelemetryResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_push_telemetry_response_v0(buf: memoryview, pos: int) -> tuple[PushTelemetryResponse, int]:
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PushTelemetryResponse(f_throttle_time_ms, f_error_code, _unknown), pos


def _encode_push_telemetry_response_v0(m: PushTelemetryResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[PushTelemetryResponse, int]]] = {
    0: _decode_push_telemetry_response_v0,
}
_ENCODERS: dict[int, Callable[[PushTelemetryResponse, bytearray], None]] = {
    0: _encode_push_telemetry_response_v0,
}
