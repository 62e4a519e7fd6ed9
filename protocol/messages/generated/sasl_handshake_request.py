"""SaslHandshakeRequest: generated from Kafka 3.9.2 and 4.4.0's SaslHandshakeRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_string,
    write_string,
)

__all__ = ["SaslHandshakeRequest"]



@dataclass(slots=True)
class SaslHandshakeRequest(ApiMessage):
    """SaslHandshakeRequest request"""

    API_KEY: ClassVar[int] = 17
    NAME: ClassVar[str] = "SaslHandshakeRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = None

    mechanism: str = ''
    # versions 0+. The SASL mechanism chosen by the client.

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslHandshakeRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SaslHandshakeRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslHandshakeRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SaslHandshakeRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SaslHandshakeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sasl_handshake_request_v0(buf: memoryview, pos: int) -> tuple[SaslHandshakeRequest, int]:
    f_mechanism: str
    f_mechanism, pos = read_string(buf, pos, "mechanism")
    return SaslHandshakeRequest(f_mechanism), pos


def _encode_sasl_handshake_request_v0(m: SaslHandshakeRequest, out: bytearray) -> None:
    write_string(out, m.mechanism)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SaslHandshakeRequest, int]]] = {
    0: _decode_sasl_handshake_request_v0,
    1: _decode_sasl_handshake_request_v0,
}
_ENCODERS: dict[int, Callable[[SaslHandshakeRequest, bytearray], None]] = {
    0: _encode_sasl_handshake_request_v0,
    1: _encode_sasl_handshake_request_v0,
}
