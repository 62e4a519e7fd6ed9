"""EnvelopeRequest: generated from Kafka 3.9.2 and 4.4.0's EnvelopeRequest.json by
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
    read_compact_bytes,
    read_compact_nullable_bytes,
    read_unknown_tags,
    write_compact_bytes,
    write_compact_nullable_bytes,
    write_tagged_fields,
)

__all__ = ["EnvelopeRequest"]



@dataclass(slots=True)
class EnvelopeRequest(ApiMessage):
    """EnvelopeRequest request"""

    API_KEY: ClassVar[int] = 58
    NAME: ClassVar[str] = "EnvelopeRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    request_data: bytes = b""
    # versions 0+. The embedded request header and data.
    request_principal: bytes | None = b""
    # versions 0+; nullable 0+. Value of the initial client principal when the request is redirected by a broker.
    client_host_address: bytes = b""
    # versions 0+. The original client's address in bytes.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EnvelopeRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[EnvelopeRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EnvelopeRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"EnvelopeRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> EnvelopeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_envelope_request_v0(buf: memoryview, pos: int) -> tuple[EnvelopeRequest, int]:
    f_request_data: bytes
    f_request_principal: bytes | None
    f_client_host_address: bytes
    f_request_data, pos = read_compact_bytes(buf, pos, "requestData")
    f_request_principal, pos = read_compact_nullable_bytes(buf, pos)
    f_client_host_address, pos = read_compact_bytes(buf, pos, "clientHostAddress")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EnvelopeRequest(f_request_data, f_request_principal, f_client_host_address, _unknown), pos


def _encode_envelope_request_v0(m: EnvelopeRequest, out: bytearray) -> None:
    write_compact_bytes(out, m.request_data)
    write_compact_nullable_bytes(out, m.request_principal)
    write_compact_bytes(out, m.client_host_address)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[EnvelopeRequest, int]]] = {
    0: _decode_envelope_request_v0,
}
_ENCODERS: dict[int, Callable[[EnvelopeRequest, bytearray], None]] = {
    0: _encode_envelope_request_v0,
}
