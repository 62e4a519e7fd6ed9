"""SaslHandshakeResponse: generated from Kafka 3.9.2 and 4.4.0's SaslHandshakeResponse.json by
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
    null_field,
    pack_int32,
    read_array_length,
    read_string,
    write_string,
)

__all__ = ["SaslHandshakeResponse"]

_S0 = Struct(">h")


@dataclass(slots=True)
class SaslHandshakeResponse(ApiMessage):
    """SaslHandshakeResponse response"""

    API_KEY: ClassVar[int] = 17
    NAME: ClassVar[str] = "SaslHandshakeResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = None

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    mechanisms: list[str] = field(default_factory=list)
    # versions 0+. The mechanisms enabled in the server.

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslHandshakeResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SaslHandshakeResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslHandshakeResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SaslHandshakeResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SaslHandshakeResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sasl_handshake_response_v0(buf: memoryview, pos: int) -> tuple[SaslHandshakeResponse, int]:
    f_mechanisms: list[str]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_mechanisms, pos = read_array_length(buf, pos)
    if n_mechanisms < 0:
        raise null_field("mechanisms")
    else:
        f_mechanisms = []
        for _ in range(n_mechanisms):
            e_mechanisms, pos = read_string(buf, pos, "mechanisms element")
            f_mechanisms.append(e_mechanisms)
    return SaslHandshakeResponse(f_error_code, f_mechanisms), pos


def _encode_sasl_handshake_response_v0(m: SaslHandshakeResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.mechanisms))
    for e_mechanisms in m.mechanisms:
        write_string(out, e_mechanisms)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SaslHandshakeResponse, int]]] = {
    0: _decode_sasl_handshake_response_v0,
    1: _decode_sasl_handshake_response_v0,
}
_ENCODERS: dict[int, Callable[[SaslHandshakeResponse, bytearray], None]] = {
    0: _encode_sasl_handshake_response_v0,
    1: _encode_sasl_handshake_response_v0,
}
