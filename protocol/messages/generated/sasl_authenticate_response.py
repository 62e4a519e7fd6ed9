"""SaslAuthenticateResponse: generated from Kafka 3.9.2 and 4.4.0's SaslAuthenticateResponse.json by
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
    read_nullable_string,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = ["SaslAuthenticateResponse"]

_S0 = Struct(">h")
_S1 = Struct(">q")


@dataclass(slots=True)
class SaslAuthenticateResponse(ApiMessage):
    """SaslAuthenticateResponse response"""

    API_KEY: ClassVar[int] = 36
    NAME: ClassVar[str] = "SaslAuthenticateResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or null if there was no error.
    auth_bytes: bytes = b""
    # versions 0+. The SASL authentication bytes from the server, as defined by the SASL mechanism.
    session_lifetime_ms: int = 0
    # versions 1+; ignorable. Number of milliseconds after which only re-authentication over the existing connection to create a new session can occur.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslAuthenticateResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SaslAuthenticateResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslAuthenticateResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SaslAuthenticateResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SaslAuthenticateResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sasl_authenticate_response_v0(buf: memoryview, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    f_error_message: str | None
    f_auth_bytes: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_auth_bytes, pos = read_bytes(buf, pos, "authBytes")
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, 0, []), pos


def _decode_sasl_authenticate_response_v1(buf: memoryview, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    f_error_message: str | None
    f_auth_bytes: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_auth_bytes, pos = read_bytes(buf, pos, "authBytes")
    f_session_lifetime_ms, = _S1.unpack_from(buf, pos)
    pos += 8
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, f_session_lifetime_ms, []), pos


def _decode_sasl_authenticate_response_v2(buf: memoryview, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    f_error_message: str | None
    f_auth_bytes: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_auth_bytes, pos = read_compact_bytes(buf, pos, "authBytes")
    f_session_lifetime_ms, = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, f_session_lifetime_ms, _unknown), pos


def _encode_sasl_authenticate_response_v0(m: SaslAuthenticateResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    write_bytes(out, m.auth_bytes)


def _encode_sasl_authenticate_response_v1(m: SaslAuthenticateResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    write_bytes(out, m.auth_bytes)
    out += _S1.pack(m.session_lifetime_ms)


def _encode_sasl_authenticate_response_v2(m: SaslAuthenticateResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_bytes(out, m.auth_bytes)
    out += _S1.pack(m.session_lifetime_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SaslAuthenticateResponse, int]]] = {
    0: _decode_sasl_authenticate_response_v0,
    1: _decode_sasl_authenticate_response_v1,
    2: _decode_sasl_authenticate_response_v2,
}
_ENCODERS: dict[int, Callable[[SaslAuthenticateResponse, bytearray], None]] = {
    0: _encode_sasl_authenticate_response_v0,
    1: _encode_sasl_authenticate_response_v1,
    2: _encode_sasl_authenticate_response_v2,
}
