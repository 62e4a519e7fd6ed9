"""CreateDelegationTokenRequest: generated from Kafka 3.9.2 and 4.4.0's CreateDelegationTokenRequest.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["CreateDelegationTokenRequest", "CreatableRenewers"]

_S0 = Struct(">q")


@dataclass(slots=True)
class CreatableRenewers:
    """A list of those who are allowed to renew this token before it expires."""

    principal_type: str = ''
    # versions 0+. The type of the Kafka principal.
    principal_name: str = ''
    # versions 0+. The name of the Kafka principal.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreateDelegationTokenRequest(ApiMessage):
    """CreateDelegationTokenRequest request"""

    API_KEY: ClassVar[int] = 38
    NAME: ClassVar[str] = "CreateDelegationTokenRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    owner_principal_type: str | None = ''
    # versions 3+; nullable 3+. The principal type of the owner of the token. If it's null it defaults to the token request principal.
    owner_principal_name: str | None = ''
    # versions 3+; nullable 3+. The principal name of the owner of the token. If it's null it defaults to the token request principal.
    renewers: list[CreatableRenewers] = field(default_factory=list)
    # versions 0+. A list of those who are allowed to renew this token before it expires.
    max_lifetime_ms: int = 0
    # versions 0+. The maximum lifetime of the token in milliseconds, or -1 to use the server side default.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateDelegationTokenRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreateDelegationTokenRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateDelegationTokenRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreateDelegationTokenRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreateDelegationTokenRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_creatable_renewers_v0(buf: memoryview, pos: int) -> tuple[CreatableRenewers, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_string(buf, pos, "principalType")
    f_principal_name, pos = read_string(buf, pos, "principalName")
    return CreatableRenewers(f_principal_type, f_principal_name, []), pos


def _decode_create_delegation_token_request_v0(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenRequest, int]:
    f_renewers: list[CreatableRenewers]
    n_renewers, pos = read_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_creatable_renewers_v0(buf, pos)
            f_renewers.append(e_renewers)
    f_max_lifetime_ms, = _S0.unpack_from(buf, pos)
    pos += 8
    return CreateDelegationTokenRequest('', '', f_renewers, f_max_lifetime_ms, []), pos


def _decode_creatable_renewers_v2(buf: memoryview, pos: int) -> tuple[CreatableRenewers, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatableRenewers(f_principal_type, f_principal_name, _unknown), pos


def _decode_create_delegation_token_request_v2(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenRequest, int]:
    f_renewers: list[CreatableRenewers]
    n_renewers, pos = read_compact_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_creatable_renewers_v2(buf, pos)
            f_renewers.append(e_renewers)
    f_max_lifetime_ms, = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateDelegationTokenRequest('', '', f_renewers, f_max_lifetime_ms, _unknown), pos


def _decode_create_delegation_token_request_v3(buf: memoryview, pos: int) -> tuple[CreateDelegationTokenRequest, int]:
    f_owner_principal_type: str | None
    f_owner_principal_name: str | None
    f_renewers: list[CreatableRenewers]
    f_owner_principal_type, pos = read_compact_nullable_string(buf, pos)
    f_owner_principal_name, pos = read_compact_nullable_string(buf, pos)
    n_renewers, pos = read_compact_array_length(buf, pos)
    if n_renewers < 0:
        raise null_field("renewers")
    else:
        f_renewers = []
        for _ in range(n_renewers):
            e_renewers, pos = _decode_creatable_renewers_v2(buf, pos)
            f_renewers.append(e_renewers)
    f_max_lifetime_ms, = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateDelegationTokenRequest(f_owner_principal_type, f_owner_principal_name, f_renewers, f_max_lifetime_ms, _unknown), pos


def _encode_creatable_renewers_v0(m: CreatableRenewers, out: bytearray) -> None:
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)


def _encode_create_delegation_token_request_v0(m: CreateDelegationTokenRequest, out: bytearray) -> None:
    if m.owner_principal_type != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalType", 0)
    if m.owner_principal_name != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalName", 0)
    out += pack_int32(len(m.renewers))
    for e_renewers in m.renewers:
        _encode_creatable_renewers_v0(e_renewers, out)
    out += _S0.pack(m.max_lifetime_ms)


def _encode_create_delegation_token_request_v1(m: CreateDelegationTokenRequest, out: bytearray) -> None:
    if m.owner_principal_type != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalType", 1)
    if m.owner_principal_name != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalName", 1)
    out += pack_int32(len(m.renewers))
    for e_renewers in m.renewers:
        _encode_creatable_renewers_v0(e_renewers, out)
    out += _S0.pack(m.max_lifetime_ms)


def _encode_creatable_renewers_v2(m: CreatableRenewers, out: bytearray) -> None:
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_delegation_token_request_v2(m: CreateDelegationTokenRequest, out: bytearray) -> None:
    if m.owner_principal_type != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalType", 2)
    if m.owner_principal_name != '':
        raise version_error("CreateDelegationTokenRequest", "OwnerPrincipalName", 2)
    write_uvarint(out, len(m.renewers) + 1)
    for e_renewers in m.renewers:
        _encode_creatable_renewers_v2(e_renewers, out)
    out += _S0.pack(m.max_lifetime_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_delegation_token_request_v3(m: CreateDelegationTokenRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.owner_principal_type)
    write_compact_nullable_string(out, m.owner_principal_name)
    write_uvarint(out, len(m.renewers) + 1)
    for e_renewers in m.renewers:
        _encode_creatable_renewers_v2(e_renewers, out)
    out += _S0.pack(m.max_lifetime_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreateDelegationTokenRequest, int]]] = {
    0: _decode_create_delegation_token_request_v0,
    1: _decode_create_delegation_token_request_v0,
    2: _decode_create_delegation_token_request_v2,
    3: _decode_create_delegation_token_request_v3,
}
_ENCODERS: dict[int, Callable[[CreateDelegationTokenRequest, bytearray], None]] = {
    0: _encode_create_delegation_token_request_v0,
    1: _encode_create_delegation_token_request_v1,
    2: _encode_create_delegation_token_request_v2,
    3: _encode_create_delegation_token_request_v3,
}
