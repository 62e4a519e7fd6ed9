"""CreateDelegationTokenResponse: generated from Kafka 3.9.2 and 4.4.0's CreateDelegationTokenResponse.json by
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
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_bytes,
    write_compact_bytes,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = ["CreateDelegationTokenResponse"]

_S0 = Struct(">h")
_S1 = Struct(">qqq")
_S2 = Struct(">i")


@dataclass(slots=True)
class CreateDelegationTokenResponse(ApiMessage):
    """CreateDelegationTokenResponse response"""

    API_KEY: ClassVar[int] = 38
    NAME: ClassVar[str] = "CreateDelegationTokenResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    error_code: int = 0
    # versions 0+. The top-level error, or zero if there was no error.
    principal_type: str = ''
    # versions 0+. The principal type of the token owner.
    principal_name: str = ''
    # versions 0+. The name of the token owner.
    token_requester_principal_type: str = ''
    # versions 3+. The principal type of the requester of the token.
    token_requester_principal_name: str = ''
    # versions 3+. The principal type of the requester of the token.
    issue_timestamp_ms: int = 0
    # versions 0+. When this token was generated.
    expiry_timestamp_ms: int = 0
    # versions 0+. When this token expires.
    max_timestamp_ms: int = 0
    # versions 0+. The maximum lifetime of this token.
    token_id: str = ''
    # versions 0+. The token UUID.
    hmac: bytes = b""
    # versions 0+. HMAC of the delegation token.
    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateDelegationTokenResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreateDelegationTokenResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateDelegationTokenResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreateDelegationTokenResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreateDelegationTokenResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_create_delegation_token_response_v0(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenResponse, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_principal_type, pos = read_string(buf, pos, "principalType")
    f_principal_name, pos = read_string(buf, pos, "principalName")
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_string(buf, pos, "tokenId")
    f_hmac, pos = read_bytes(buf, pos, "hmac")
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, '', '', f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms, []), pos


def _decode_create_delegation_token_response_v2(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenResponse, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos, "tokenId")
    f_hmac, pos = read_compact_bytes(buf, pos, "hmac")
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, '', '', f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms, _unknown), pos


def _decode_create_delegation_token_response_v3(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenResponse, int]:
    f_principal_type: str
    f_principal_name: str
    f_token_requester_principal_type: str
    f_token_requester_principal_name: str
    f_token_id: str
    f_hmac: bytes
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    f_token_requester_principal_type, pos = read_compact_string(buf, pos, "tokenRequesterPrincipalType")
    f_token_requester_principal_name, pos = read_compact_string(buf, pos, "tokenRequesterPrincipalName")
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1.unpack_from(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos, "tokenId")
    f_hmac, pos = read_compact_bytes(buf, pos, "hmac")
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, f_token_requester_principal_type, f_token_requester_principal_name, f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms, _unknown), pos


def _encode_create_delegation_token_response_v0(m: CreateDelegationTokenResponse, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalType", 0)
    if m.token_requester_principal_name != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalName", 0)
    out += _S0.pack(m.error_code)
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp_ms, m.expiry_timestamp_ms, m.max_timestamp_ms)
    write_string(out, m.token_id)
    write_bytes(out, m.hmac)
    out += _S2.pack(m.throttle_time_ms)


def _encode_create_delegation_token_response_v1(m: CreateDelegationTokenResponse, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalType", 1)
    if m.token_requester_principal_name != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalName", 1)
    out += _S0.pack(m.error_code)
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp_ms, m.expiry_timestamp_ms, m.max_timestamp_ms)
    write_string(out, m.token_id)
    write_bytes(out, m.hmac)
    out += _S2.pack(m.throttle_time_ms)


def _encode_create_delegation_token_response_v2(m: CreateDelegationTokenResponse, out: bytearray) -> None:
    if m.token_requester_principal_type != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalType", 2)
    if m.token_requester_principal_name != '':
        raise version_error("CreateDelegationTokenResponse", "TokenRequesterPrincipalName", 2)
    out += _S0.pack(m.error_code)
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    out += _S1.pack(m.issue_timestamp_ms, m.expiry_timestamp_ms, m.max_timestamp_ms)
    write_compact_string(out, m.token_id)
    write_compact_bytes(out, m.hmac)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_delegation_token_response_v3(m: CreateDelegationTokenResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    write_compact_string(out, m.token_requester_principal_type)
    write_compact_string(out, m.token_requester_principal_name)
    out += _S1.pack(m.issue_timestamp_ms, m.expiry_timestamp_ms, m.max_timestamp_ms)
    write_compact_string(out, m.token_id)
    write_compact_bytes(out, m.hmac)
    out += _S2.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreateDelegationTokenResponse, int]]] = {
    0: _decode_create_delegation_token_response_v0,
    1: _decode_create_delegation_token_response_v0,
    2: _decode_create_delegation_token_response_v2,
    3: _decode_create_delegation_token_response_v3,
}
_ENCODERS: dict[int, Callable[[CreateDelegationTokenResponse, bytearray], None]] = {
    0: _encode_create_delegation_token_response_v0,
    1: _encode_create_delegation_token_response_v1,
    2: _encode_create_delegation_token_response_v2,
    3: _encode_create_delegation_token_response_v3,
}
