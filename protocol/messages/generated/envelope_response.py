"""EnvelopeResponse: generated from Kafka 3.9.2 and 4.4.0's EnvelopeResponse.json by
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
    read_compact_nullable_bytes,
    read_unknown_tags,
    write_compact_nullable_bytes,
    write_tagged_fields,
)

__all__ = ["EnvelopeResponse"]

_S0 = Struct(">h")


@dataclass(slots=True)
class EnvelopeResponse(ApiMessage):
    """EnvelopeResponse response"""

    API_KEY: ClassVar[int] = 58
    NAME: ClassVar[str] = "EnvelopeResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    response_data: bytes | None = None
    # versions 0+; nullable 0+. The embedded response header and data.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EnvelopeResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[EnvelopeResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EnvelopeResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"EnvelopeResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> EnvelopeResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_envelope_response_v0(buf: memoryview, pos: int) -> tuple[EnvelopeResponse, int]:
    f_response_data: bytes | None
    f_response_data, pos = read_compact_nullable_bytes(buf, pos)
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EnvelopeResponse(f_response_data, f_error_code, _unknown), pos


def _encode_envelope_response_v0(m: EnvelopeResponse, out: bytearray) -> None:
    write_compact_nullable_bytes(out, m.response_data)
    out += _S0.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[EnvelopeResponse, int]]] = {
    0: _decode_envelope_response_v0,
}
_ENCODERS: dict[int, Callable[[EnvelopeResponse, bytearray], None]] = {
    0: _encode_envelope_response_v0,
}
