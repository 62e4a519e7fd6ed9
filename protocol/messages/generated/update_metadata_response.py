"""UpdateMetadataResponse: generated from Kafka 3.9.2's UpdateMetadataResponse.json by
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

__all__ = ["UpdateMetadataResponse"]

_S0 = Struct(">h")


@dataclass(slots=True)
class UpdateMetadataResponse(ApiMessage):
    """UpdateMetadataResponse response"""

    API_KEY: ClassVar[int] = 6
    NAME: ClassVar[str] = "UpdateMetadataResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 8
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateMetadataResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateMetadataResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateMetadataResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateMetadataResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateMetadataResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_update_metadata_response_v0(buf: memoryview, pos: int) -> tuple[UpdateMetadataResponse, int]:
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return UpdateMetadataResponse(f_error_code, []), pos


def _decode_update_metadata_response_v6(buf: memoryview, pos: int) -> tuple[UpdateMetadataResponse, int]:
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateMetadataResponse(f_error_code, _unknown), pos


def _encode_update_metadata_response_v0(m: UpdateMetadataResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)


def _encode_update_metadata_response_v6(m: UpdateMetadataResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateMetadataResponse, int]]] = {
    0: _decode_update_metadata_response_v0,
    1: _decode_update_metadata_response_v0,
    2: _decode_update_metadata_response_v0,
    3: _decode_update_metadata_response_v0,
    4: _decode_update_metadata_response_v0,
    5: _decode_update_metadata_response_v0,
    6: _decode_update_metadata_response_v6,
    7: _decode_update_metadata_response_v6,
    8: _decode_update_metadata_response_v6,
}
_ENCODERS: dict[int, Callable[[UpdateMetadataResponse, bytearray], None]] = {
    0: _encode_update_metadata_response_v0,
    1: _encode_update_metadata_response_v0,
    2: _encode_update_metadata_response_v0,
    3: _encode_update_metadata_response_v0,
    4: _encode_update_metadata_response_v0,
    5: _encode_update_metadata_response_v0,
    6: _encode_update_metadata_response_v6,
    7: _encode_update_metadata_response_v6,
    8: _encode_update_metadata_response_v6,
}
