"""DescribeDelegationTokenResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeDelegationTokenResponse.json by
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
    # versions 0+. The renewer principal type.
    principal_name: str = ''
    # versions 0+. The renewer principal name.
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
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeDelegationTokenResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeDelegationTokenResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_described_delegation_token_renewer_v0(buf: memoryview, pos: int) -> tuple[DescribedDelegationTokenRenewer, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_string(buf, pos, "principalType")
    f_principal_name, pos = read_string(buf, pos, "principalName")
    return DescribedDelegationTokenRenewer(f_principal_type, f_principal_name, []), pos


def _decode_described_delegation_token_v0(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_renewers: list[DescribedDelegationTokenRenewer]
    f_principal_type, pos = read_string(buf, pos, "principalType")
    f_principal_name, pos = read_string(buf, pos, "principalName")
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_string(buf, pos, "tokenId")
    f_hmac, pos = read_bytes(buf, pos, "hmac")
    n_renewers, pos = read_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_described_delegation_token_renewer_v0(buf, pos)
            f_renewers.append(e_renewers)
    return DescribedDelegationToken(f_principal_type, f_principal_name, '', '', f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers, []), pos


def _decode_describe_delegation_token_response_v0(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    f_tokens: list[DescribedDelegationToken]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_tokens, pos = read_array_length(buf, pos)
    if n_tokens < 0:
        raise null_field("tokens")
    else:
        f_tokens = []
        for _ in range(n_tokens):
            e_tokens, pos = _decode_described_delegation_token_v0(buf, pos)
            f_tokens.append(e_tokens)
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms, []), pos


def _decode_described_delegation_token_renewer_v2(buf: memoryview, pos: int) -> tuple[DescribedDelegationTokenRenewer, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationTokenRenewer(f_principal_type, f_principal_name, _unknown), pos


def _decode_described_delegation_token_v2(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_renewers: list[DescribedDelegationTokenRenewer]
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos, "tokenId")
    f_hmac, pos = read_compact_bytes(buf, pos, "hmac")
    n_renewers, pos = read_compact_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_described_delegation_token_renewer_v2(buf, pos)
            f_renewers.append(e_renewers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationToken(f_principal_type, f_principal_name, '', '', f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers, _unknown), pos


def _decode_describe_delegation_token_response_v2(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    f_tokens: list[DescribedDelegationToken]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_tokens, pos = read_compact_array_length(buf, pos)
    if n_tokens < 0:
        raise null_field("tokens")
    else:
        f_tokens = []
        for _ in range(n_tokens):
            e_tokens, pos = _decode_described_delegation_token_v2(buf, pos)
            f_tokens.append(e_tokens)
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms, _unknown), pos


def _decode_described_delegation_token_v3(buf: memoryview, pos: int) -> tuple[DescribedDelegationToken, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_requester_principal_type: str
    f_token_requester_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_renewers: list[DescribedDelegationTokenRenewer]
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    f_token_requester_principal_type, pos = read_compact_string(buf, pos, "tokenRequesterPrincipalType")
    f_token_requester_principal_name, pos = read_compact_string(buf, pos, "tokenRequesterPrincipalName")
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos, "tokenId")
    f_hmac, pos = read_compact_bytes(buf, pos, "hmac")
    n_renewers, pos = read_compact_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_described_delegation_token_renewer_v2(buf, pos)
            f_renewers.append(e_renewers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedDelegationToken(f_principal_type, f_principal_name, f_token_requester_principal_type, f_token_requester_principal_name, f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers, _unknown), pos


def _decode_describe_delegation_token_response_v3(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenResponse, int]:
    f_tokens: list[DescribedDelegationToken]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_tokens, pos = read_compact_array_length(buf, pos)
    if n_tokens < 0:
        raise null_field("tokens")
    else:
        f_tokens = []
        for _ in range(n_tokens):
            e_tokens, pos = _decode_described_delegation_token_v3(buf, pos)
            f_tokens.append(e_tokens)
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms, _unknown), pos


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
    for e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v0(e_renewers, out)


def _encode_describe_delegation_token_response_v0(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.tokens))
    for e_tokens in m.tokens:
        _encode_described_delegation_token_v0(e_tokens, out)
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
    for e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v0(e_renewers, out)


def _encode_describe_delegation_token_response_v1(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.tokens))
    for e_tokens in m.tokens:
        _encode_described_delegation_token_v1(e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)


def _encode_described_delegation_token_renewer_v2(m: DescribedDelegationTokenRenewer, out: bytearray) -> None:
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
    for e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v2(e_renewers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_delegation_token_response_v2(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.tokens) + 1)
    for e_tokens in m.tokens:
        _encode_described_delegation_token_v2(e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
    for e_renewers in m.renewers:
        _encode_described_delegation_token_renewer_v2(e_renewers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_delegation_token_response_v3(m: DescribeDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.tokens) + 1)
    for e_tokens in m.tokens:
        _encode_described_delegation_token_v3(e_tokens, out)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
