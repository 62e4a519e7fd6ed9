"""RequestHeader: generated from Kafka 3.9.2 and 4.4.0's RequestHeader.json by
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
    read_nullable_string,
    read_unknown_tags,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = ["RequestHeader"]

_S0 = Struct(">hhi")


@dataclass(slots=True)
class RequestHeader(ApiMessage):
    """RequestHeader header"""

    NAME: ClassVar[str] = "RequestHeader"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    request_api_key: int = 0
    # versions 0+. The API key of this request.
    request_api_version: int = 0
    # versions 0+. The API version of this request.
    correlation_id: int = 0
    # versions 0+. The correlation ID of this request.
    client_id: str | None = ''
    # versions 1+; nullable 1+; ignorable. The client ID string.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RequestHeader has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[RequestHeader, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RequestHeader has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"RequestHeader v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> RequestHeader:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_request_header_v0(buf: memoryview, pos: int) -> tuple[RequestHeader, int]:
    f_request_api_key, f_request_api_version, f_correlation_id = _S0.unpack_from(buf, pos)
    pos += 8
    return RequestHeader(f_request_api_key, f_request_api_version, f_correlation_id, '', []), pos


def _decode_request_header_v1(buf: memoryview, pos: int) -> tuple[RequestHeader, int]:
    f_client_id: str | None
    f_request_api_key, f_request_api_version, f_correlation_id = _S0.unpack_from(buf, pos)
    pos += 8
    f_client_id, pos = read_nullable_string(buf, pos)
    return RequestHeader(f_request_api_key, f_request_api_version, f_correlation_id, f_client_id, []), pos


def _decode_request_header_v2(buf: memoryview, pos: int) -> tuple[RequestHeader, int]:
    f_client_id: str | None
    f_request_api_key, f_request_api_version, f_correlation_id = _S0.unpack_from(buf, pos)
    pos += 8
    f_client_id, pos = read_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return RequestHeader(f_request_api_key, f_request_api_version, f_correlation_id, f_client_id, _unknown), pos


def _encode_request_header_v0(m: RequestHeader, out: bytearray) -> None:
    out += _S0.pack(m.request_api_key, m.request_api_version, m.correlation_id)


def _encode_request_header_v1(m: RequestHeader, out: bytearray) -> None:
    out += _S0.pack(m.request_api_key, m.request_api_version, m.correlation_id)
    write_nullable_string(out, m.client_id)


def _encode_request_header_v2(m: RequestHeader, out: bytearray) -> None:
    out += _S0.pack(m.request_api_key, m.request_api_version, m.correlation_id)
    write_nullable_string(out, m.client_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[RequestHeader, int]]] = {
    0: _decode_request_header_v0,
    1: _decode_request_header_v1,
    2: _decode_request_header_v2,
}
_ENCODERS: dict[int, Callable[[RequestHeader, bytearray], None]] = {
    0: _encode_request_header_v0,
    1: _encode_request_header_v1,
    2: _encode_request_header_v2,
}
