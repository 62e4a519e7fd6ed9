"""DescribeDelegationTokenRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeDelegationTokenRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeDelegationTokenRequest", "DescribeDelegationTokenOwner"]



@dataclass(slots=True)
class DescribeDelegationTokenOwner:
    """Each owner that we want to describe delegation tokens for, or null to describe all tokens."""

    principal_type: str = ''
    # versions 0+. The owner principal type.
    principal_name: str = ''
    # versions 0+. The owner principal name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeDelegationTokenRequest(ApiMessage):
    """DescribeDelegationTokenRequest request"""

    API_KEY: ClassVar[int] = 41
    NAME: ClassVar[str] = "DescribeDelegationTokenRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    owners: list[DescribeDelegationTokenOwner] | None = field(default_factory=list)
    # versions 0+; nullable 0+. Each owner that we want to describe delegation tokens for, or null to describe all tokens.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeDelegationTokenRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeDelegationTokenRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeDelegationTokenRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeDelegationTokenRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeDelegationTokenRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_delegation_token_owner_v0(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenOwner, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_string(buf, pos, "principalType")
    f_principal_name, pos = read_string(buf, pos, "principalName")
    return DescribeDelegationTokenOwner(f_principal_type, f_principal_name, []), pos


def _decode_describe_delegation_token_request_v0(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenRequest, int]:
    f_owners: list[DescribeDelegationTokenOwner] | None
    n_owners, pos = read_array_length(buf, pos)
    if n_owners < 0:
        f_owners = None
    else:
        f_owners = []
        for _ in range(n_owners):
            e_owners, pos = _decode_describe_delegation_token_owner_v0(buf, pos)
            f_owners.append(e_owners)
    return DescribeDelegationTokenRequest(f_owners, []), pos


def _decode_describe_delegation_token_owner_v2(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenOwner, int]:
    f_principal_type: str
    f_principal_name: str
    f_principal_type, pos = read_compact_string(buf, pos, "principalType")
    f_principal_name, pos = read_compact_string(buf, pos, "principalName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenOwner(f_principal_type, f_principal_name, _unknown), pos


def _decode_describe_delegation_token_request_v2(buf: memoryview, pos: int) -> tuple[DescribeDelegationTokenRequest, int]:
    f_owners: list[DescribeDelegationTokenOwner] | None
    n_owners, pos = read_compact_array_length(buf, pos)
    if n_owners < 0:
        f_owners = None
    else:
        f_owners = []
        for _ in range(n_owners):
            e_owners, pos = _decode_describe_delegation_token_owner_v2(buf, pos)
            f_owners.append(e_owners)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeDelegationTokenRequest(f_owners, _unknown), pos


def _encode_describe_delegation_token_owner_v0(m: DescribeDelegationTokenOwner, out: bytearray) -> None:
    write_string(out, m.principal_type)
    write_string(out, m.principal_name)


def _encode_describe_delegation_token_request_v0(m: DescribeDelegationTokenRequest, out: bytearray) -> None:
    if m.owners is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.owners))
        for e_owners in m.owners:
            _encode_describe_delegation_token_owner_v0(e_owners, out)


def _encode_describe_delegation_token_owner_v2(m: DescribeDelegationTokenOwner, out: bytearray) -> None:
    write_compact_string(out, m.principal_type)
    write_compact_string(out, m.principal_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_delegation_token_request_v2(m: DescribeDelegationTokenRequest, out: bytearray) -> None:
    if m.owners is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.owners) + 1)
        for e_owners in m.owners:
            _encode_describe_delegation_token_owner_v2(e_owners, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeDelegationTokenRequest, int]]] = {
    0: _decode_describe_delegation_token_request_v0,
    1: _decode_describe_delegation_token_request_v0,
    2: _decode_describe_delegation_token_request_v2,
    3: _decode_describe_delegation_token_request_v2,
}
_ENCODERS: dict[int, Callable[[DescribeDelegationTokenRequest, bytearray], None]] = {
    0: _encode_describe_delegation_token_request_v0,
    1: _encode_describe_delegation_token_request_v0,
    2: _encode_describe_delegation_token_request_v2,
    3: _encode_describe_delegation_token_request_v2,
}
