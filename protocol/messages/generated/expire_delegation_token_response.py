"""ExpireDelegationTokenResponse: generated from Kafka 3.9.2 and 4.4.0's ExpireDelegationTokenResponse.json by
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

__all__ = ["ExpireDelegationTokenResponse"]

_S0 = Struct(">hqi")


@dataclass(slots=True)
class ExpireDelegationTokenResponse(ApiMessage):
    """ExpireDelegationTokenResponse response"""

    API_KEY: ClassVar[int] = 40
    NAME: ClassVar[str] = "ExpireDelegationTokenResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    expiry_timestamp_ms: int = 0
    # versions 0+. The timestamp in milliseconds at which this token expires.
    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ExpireDelegationTokenResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ExpireDelegationTokenResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ExpireDelegationTokenResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ExpireDelegationTokenResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ExpireDelegationTokenResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_expire_delegation_token_response_v0(buf: memoryview, pos: int) -> tuple[ExpireDelegationTokenResponse, int]:
    f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms = _S0.unpack_from(buf, pos)
    pos += 14
    return ExpireDelegationTokenResponse(f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms, []), pos


def _decode_expire_delegation_token_response_v2(buf: memoryview, pos: int) -> tuple[ExpireDelegationTokenResponse, int]:
    f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms = _S0.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ExpireDelegationTokenResponse(f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms, _unknown), pos


def _encode_expire_delegation_token_response_v0(m: ExpireDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code, m.expiry_timestamp_ms, m.throttle_time_ms)


def _encode_expire_delegation_token_response_v2(m: ExpireDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code, m.expiry_timestamp_ms, m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ExpireDelegationTokenResponse, int]]] = {
    0: _decode_expire_delegation_token_response_v0,
    1: _decode_expire_delegation_token_response_v0,
    2: _decode_expire_delegation_token_response_v2,
}
_ENCODERS: dict[int, Callable[[ExpireDelegationTokenResponse, bytearray], None]] = {
    0: _encode_expire_delegation_token_response_v0,
    1: _encode_expire_delegation_token_response_v0,
    2: _encode_expire_delegation_token_response_v2,
}
