"""SaslAuthenticateRequest: generated from Kafka 3.9.2 and 4.4.0's SaslAuthenticateRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_bytes,
    read_compact_bytes,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_tagged_fields,
)

__all__ = ["SaslAuthenticateRequest"]



@dataclass(slots=True)
class SaslAuthenticateRequest(ApiMessage):
    """SaslAuthenticateRequest request"""

    API_KEY: ClassVar[int] = 36
    NAME: ClassVar[str] = "SaslAuthenticateRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    auth_bytes: bytes = b""
    # versions 0+. The SASL authentication bytes from the client, as defined by the SASL mechanism.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslAuthenticateRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SaslAuthenticateRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SaslAuthenticateRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SaslAuthenticateRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SaslAuthenticateRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sasl_authenticate_request_v0(buf: memoryview, pos: int) -> tuple[SaslAuthenticateRequest, int]:
    f_auth_bytes: bytes
    f_auth_bytes, pos = read_bytes(buf, pos, "authBytes")
    return SaslAuthenticateRequest(f_auth_bytes, []), pos


def _decode_sasl_authenticate_request_v2(buf: memoryview, pos: int) -> tuple[SaslAuthenticateRequest, int]:
    f_auth_bytes: bytes
    f_auth_bytes, pos = read_compact_bytes(buf, pos, "authBytes")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SaslAuthenticateRequest(f_auth_bytes, _unknown), pos


def _encode_sasl_authenticate_request_v0(m: SaslAuthenticateRequest, out: bytearray) -> None:
    write_bytes(out, m.auth_bytes)


def _encode_sasl_authenticate_request_v2(m: SaslAuthenticateRequest, out: bytearray) -> None:
    write_compact_bytes(out, m.auth_bytes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SaslAuthenticateRequest, int]]] = {
    0: _decode_sasl_authenticate_request_v0,
    1: _decode_sasl_authenticate_request_v0,
    2: _decode_sasl_authenticate_request_v2,
}
_ENCODERS: dict[int, Callable[[SaslAuthenticateRequest, bytearray], None]] = {
    0: _encode_sasl_authenticate_request_v0,
    1: _encode_sasl_authenticate_request_v0,
    2: _encode_sasl_authenticate_request_v2,
}
