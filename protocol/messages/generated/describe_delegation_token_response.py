"""DescribeDelegationTokenResponse: generated from Kafka 3.9.2's DescribeDelegationTokenResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from josefk.protocol.messages.codec import (
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    pack_int32,
    read_array_length,
    read_bytes,
    read_compact_array_length,
    read_compact_bytes,
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_bytes,
    write_compact_bytes,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeDelegationTokenResponse", "DescribedDelegationToken", "DescribedDelegationTokenRenewer"]

_S0 = Struct(">h")
_S1 = Struct(">qqq")
_S2 = Struct(">i")


@dataclass(slots=True)
class DescribedDelegationTokenRenewer:
    """Those who are able to renew this token before it expires."""

    principal_type: str = ''
    # versions 0+. The renewer principal type
    principal_name: str = ''
    # versions 0+. The renewer principal name
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribedDelegationToken:
    """The tokens."""

    principal_type: str = ''
    # versions 0+. The token principal type.
    principal_name: str = ''
    # versions 0+. The token principal name.
    token_requester_principal_type: str = ''
    # versions 3+. The principal type of the requester of the token.
    token_requester_principal_name: str = ''
    # versions 3+. The principal type of the requester of the token.
    issue_timestamp: int = 0
    # versions 0+. The token issue timestamp in milliseconds.
    expiry_timestamp: int = 0
    # versions 0+. The token expiry timestamp in milliseconds.
    max_timestamp: int = 0
    # versions 0+. The token maximum timestamp length in milliseconds.
    token_id: str = ''
    # versions 0+. The token ID.
    hmac: bytes = b""
    # versions 0+. The token HMAC.
    renewers: list[DescribedDelegationTokenRenewer] = field(default_factory=list)
    # versions 0+. Those who are able to renew this token before it expires.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeDelegationTokenResponse(ApiMessage):
    """DescribeDelegationTokenResponse response"""

    API_KEY: ClassVar[int] = 41
    NAME: ClassVar[str] = "DescribeDelegationTokenResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    tokens: list[DescribedDelegationToken] = field(default_factory=list)
    # versions 0+. The tokens.
    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeDelegationTokenResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeDelegationTokenResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeDelegationTokenResponse has no version {version}") from None
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeDelegationTokenResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_described_delegation_token_renewer_v0(buf: memoryview, pos: int) -> tuple[DescribedDelegationTokenRenewer, int]:
    _principal_type: str
    _principal_name: str
    _principal_type, pos = read_string(buf, pos)
    _principal_name, pos = read_string(buf, pos)
    return DescribedDelegationTokenRenewer(_principal_type, _principal_name, []), pos


def _decode_described_delegation_token_v0(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    _principal_type: str
    _principal_name: str
    _token_id: str
    _hmac: bytes
    _renewers: list[DescribedDelegationTokenRenewer]
    _principal_type, pos = read_string(buf, pos)
    _principal_name, pos = read_string(buf, pos)
    _issue_timestamp, _expiry_timestamp, _max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    _token_id, pos = read_string(buf, pos)
    _hmac, pos = read_bytes(buf, pos)
    _n_renewers, pos = read_array_length(buf, pos)
    if _n_renewers < 0:
        raise MessageDecodeError("non-nullable field Renewers was null")
    else:
        _renewers = []
        for _ in range(_n_renewers):
            _e_renewers, pos = _decode_described_delegation_token_renewer_v0(buf, pos)
            _renewers.append(_e_renewers)
    return DescribedDelegationToken(_principal_type, _principal_name, '', '', _issue_timestamp, _expiry_timestamp, _max_timestamp, _token_id, _hmac, _renewers, []), pos


def _decode_describe_delegation_token_response_v0(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    _tokens: list[DescribedDelegationToken]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _n_tokens, pos = read_array_length(buf, pos)
    if _n_tokens < 0:
        raise MessageDecodeError("non-nullable field Tokens was null")
    else:
        _tokens = []
        for _ in range(_n_tokens):
            _e_tokens, pos = _decode_described_delegation_token_v0(buf, pos)
            _tokens.append(_e_tokens)
    _throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    return DescribeDelegationTokenResponse(_error_code, _tokens, _throttle_time_ms, []), pos


def _decode_described_delegation_token_renewer_v2(buf: memoryview, pos: int) -> tuple[DescribedDelegationTokenRenewer, int]:
    _principal_type: str
    _principal_name: str
    _principal_type, pos = read_compact_string(buf, pos)
    _principal_name, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationTokenRenewer(_principal_type, _principal_name, _unknown), pos


def _decode_described_delegation_token_v2(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    _principal_type: str
    _principal_name: str
    _token_id: str
    _hmac: bytes
    _renewers: list[DescribedDelegationTokenRenewer]
    _principal_type, pos = read_compact_string(buf, pos)
    _principal_name, pos = read_compact_string(buf, pos)
    _issue_timestamp, _expiry_timestamp, _max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    _token_id, pos = read_compact_string(buf, pos)
    _hmac, pos = read_compact_bytes(buf, pos)
    _n_renewers, pos = read_compact_array_length(buf, pos)
    if _n_renewers < 0:
        raise MessageDecodeError("non-nullable field Renewers was null")
    else:
        _renewers = []
        for _ in range(_n_renewers):
            _e_renewers, pos = _decode_described_delegation_token_renewer_v2(buf, pos)
            _renewers.append(_e_renewers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationToken(_principal_type, _principal_name, '', '', _issue_timestamp, _expiry_timestamp, _max_timestamp, _token_id, _hmac, _renewers, _unknown), pos


def _decode_describe_delegation_token_response_v2(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    _tokens: list[DescribedDelegationToken]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _n_tokens, pos = read_compact_array_length(buf, pos)
    if _n_tokens < 0:
        raise MessageDecodeError("non-nullable field Tokens was null")
    else:
        _tokens = []
        for _ in range(_n_tokens):
            _e_tokens, pos = _decode_described_delegation_token_v2(buf, pos)
            _tokens.append(_e_tokens)
    _throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenResponse(_error_code, _tokens, _throttle_time_ms, _unknown), pos


def _decode_described_delegation_token_v3(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    _principal_type: str
    _principal_name: str
    _token_requester_principal_type: str
    _token_requester_principal_name: str
    _token_id: str
    _hmac: bytes
    _renewers: list[DescribedDelegationTokenRenewer]
    _principal_type, pos = read_compact_string(buf, pos)
    _principal_name, pos = read_compact_string(buf, pos)
    _token_requester_principal_type, pos = read_compact_string(buf, pos)
    _token_requester_principal_name, pos = read_compact_string(buf, pos)
    _issue_timestamp, _expiry_timestamp, _max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    _token_id, pos = read_compact_string(buf, pos)
    _hmac, pos = read_compact_bytes(buf, pos)
    _n_renewers, pos = read_compact_array_length(buf, pos)
    if _n_renewers < 0:
        raise MessageDecodeError("non-nullable field Renewers was null")
    else:
        _renewers = []
        for _ in range(_n_renewers):
            _e_renewers, pos = _decode_described_delegation_token_renewer_v2(buf, pos)
            _renewers.append(_e_renewers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationToken(_principal_type, _principal_name, _token_requester_principal_type, _token_requester_principal_name, _issue_timestamp, _expiry_timestamp, _max_timestamp, _token_id, _hmac, _renewers, _unknown), pos


def _decode_describe_delegation_token_response_v3(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    _tokens: list[DescribedDelegationToken]
    _error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    _n_tokens, pos = read_compact_array_length(buf, pos)
    if _n_tokens < 0:
        raise MessageDecodeError("non-nullable field Tokens was null")
    else:
        _tokens = []
        for _ in range(_n_tokens):
            _e_tokens, pos = _decode_described_delegation_token_v3(buf, pos)
            _tokens.append(_e_tokens)
    _throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenResponse(_error_code, _tokens, _throttle_time_ms, _unknown), pos


def _encode_described_delegation_token_renewer_v0(m: DescribedDelegationTokenRenewer, out: bytearray) -> None:
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)


def _encode_described_delegation_token_v0(m: DescribedDelegationToken, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalType", 0)
    if m.token_requester_principal_name != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalName", 0)
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp, m.expiry_timestamp, m.max_timestamp)
    write_string(out, m.token_id)
    write_bytes(out, m.hmac)
    out += pack_int32(len(m.renewers))
    for _e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v0(_e_renewers, out)


def _encode_describe_delegation_token_response_v0(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.tokens))
    for _e_tokens in m.tokens:
        _encode_described_delegation_token_v0(_e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)


def _encode_described_delegation_token_v1(m: DescribedDelegationToken, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalType", 1)
    if m.token_requester_principal_name != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalName", 1)
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp, m.expiry_timestamp, m.max_timestamp)
    write_string(out, m.token_id)
    write_bytes(out, m.hmac)
    out += pack_int32(len(m.renewers))
    for _e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v0(_e_renewers, out)


def _encode_describe_delegation_token_response_v1(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.tokens))
    for _e_tokens in m.tokens:
        _encode_described_delegation_token_v1(_e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)


def _encode_described_delegation_token_renewer_v2(m: DescribedDelegationTokenRenewer, out: bytearray) -> None:
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_described_delegation_token_v2(m: DescribedDelegationToken, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalType", 2)
    if m.token_requester_principal_name != '':
        raise version_error("DescribedDelegationToken", "TokenRequesterPrincipalName", 2)
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp, m.expiry_timestamp, m.max_timestamp)
    write_compact_string(out, m.token_id)
    write_compact_bytes(out, m.hmac)
    write_uvarint(out, len(m.renewers) + 1)
    for _e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v2(_e_renewers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_describe_delegation_token_response_v2(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.tokens) + 1)
    for _e_tokens in m.tokens:
        _encode_described_delegation_token_v2(_e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_described_delegation_token_v3(m: DescribedDelegationToken, out: bytearray) -> None:
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    write_compact_string(out, m.token_requester_principal_type)
    write_compact_string(out, m.token_requester_principal_name)
    out += _S1.pack(m.issue_timestamp, m.expiry_timestamp, m.max_timestamp)
    write_compact_string(out, m.token_id)
    write_compact_bytes(out, m.hmac)
    write_uvarint(out, len(m.renewers) + 1)
    for _e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v2(_e_renewers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_describe_delegation_token_response_v3(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.tokens) + 1)
    for _e_tokens in m.tokens:
        _encode_described_delegation_token_v3(_e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeDelegationTokenResponse, int]]] = {
    0: _decode_describe_delegation_token_response_v0,
    1: _decode_describe_delegation_token_response_v0,
    2: _decode_describe_delegation_token_response_v2,
    3: _decode_describe_delegation_token_response_v3,
}
_ENCODERS: dict[int, Callable[[DescribeDelegationTokenResponse, bytearray], None]] = {
    0: _encode_describe_delegation_token_response_v0,
    1: _encode_describe_delegation_token_response_v1,
    2: _encode_describe_delegation_token_response_v2,
    3: _encode_describe_delegation_token_response_v3,
}
