"""RenewDelegationTokenRequest: generated from Kafka 3.9.2 and 4.4.0's RenewDelegationTokenRequest.json by
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
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_tagged_fields,
)

__all__ = ["RenewDelegationTokenRequest"]

_S0 = Struct(">q")


@dataclass(slots=True)
class RenewDelegationTokenRequest(ApiMessage):
    """RenewDelegationTokenRequest request"""

    API_KEY: ClassVar[int] = 39
    NAME: ClassVar[str] = "RenewDelegationTokenRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    hmac: bytes = b""
    # versions 0+. The HMAC of the delegation token to be renewed.
    renew_period_ms: int = 0
    # versions 0+. The renewal time period in milliseconds.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RenewDelegationTokenRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[RenewDelegationTokenRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RenewDelegationTokenRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"RenewDelegationTokenRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> RenewDelegationTokenRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_renew_delegation_token_request_v0(buf: memoryview, pos: int) -> tuple[RenewDelegationTokenRequest, int]:
    f_hmac: bytes
    f_hmac, pos = read_bytes(buf, pos, "hmac")
    f_renew_period_ms, = _S0.unpack_from(buf, pos)
    pos += 8
    return RenewDelegationTokenRequest(f_hmac, f_renew_period_ms, []), pos


def _decode_renew_delegation_token_request_v2(buf: memoryview, pos: int) -> tuple[RenewDelegationTokenRequest, int]:
    f_hmac: bytes
    f_hmac, pos = read_compact_bytes(buf, pos, "hmac")
    f_renew_period_ms, = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return RenewDelegationTokenRequest(f_hmac, f_renew_period_ms, _unknown), pos


def _encode_renew_delegation_token_request_v0(m: RenewDelegationTokenRequest, out: bytearray) -> None:
    write_bytes(out, m.hmac)
    out += _S0.pack(m.renew_period_ms)


def _encode_renew_delegation_token_request_v2(m: RenewDelegationTokenRequest, out: bytearray) -> None:
    write_compact_bytes(out, m.hmac)
    out += _S0.pack(m.renew_period_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[RenewDelegationTokenRequest, int]]] = {
    0: _decode_renew_delegation_token_request_v0,
    1: _decode_renew_delegation_token_request_v0,
    2: _decode_renew_delegation_token_request_v2,
}
_ENCODERS: dict[int, Callable[[RenewDelegationTokenRequest, bytearray], None]] = {
    0: _encode_renew_delegation_token_request_v0,
    1: _encode_renew_delegation_token_request_v0,
    2: _encode_renew_delegation_token_request_v2,
}
