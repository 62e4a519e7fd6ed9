"""DescribeUserScramCredentialsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeUserScramCredentialsRequest.json by
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
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeUserScramCredentialsRequest", "UserName"]



@dataclass(slots=True)
class UserName:
    """The users to describe, or null/empty to describe all users."""

    name: str = ''
    # versions 0+. The user name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeUserScramCredentialsRequest(ApiMessage):
    """DescribeUserScramCredentialsRequest request"""

    API_KEY: ClassVar[int] = 50
    NAME: ClassVar[str] = "DescribeUserScramCredentialsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    users: list[UserName] | None = field(default_factory=list)
    # versions 0+; nullable 0+. The users to describe, or null/empty to describe all users.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeUserScramCredentialsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeUserScramCredentialsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeUserScramCredentialsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeUserScramCredentialsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeUserScramCredentialsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_user_name_v0(buf: memoryview, pos: int) -> tuple[UserName, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UserName(f_name, _unknown), pos


def _decode_describe_user_scram_credentials_request_v0(buf: memoryview, pos: int) -> tuple[DescribeUserScramCredentialsRequest, int]:
    f_users: list[UserName] | None
    n_users, pos = read_compact_array_length(buf, pos)
    if n_users < 0:
        f_users = None
    else:
        f_users = []
        for _ in range(n_users):
            e_users, pos = _decode_user_name_v0(buf, pos)
            f_users.append(e_users)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeUserScramCredentialsRequest(f_users, _unknown), pos


def _encode_user_name_v0(m: UserName, out: bytearray) -> None:
    write_compact_string(out, m.name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_user_scram_credentials_request_v0(m: DescribeUserScramCredentialsRequest, out: bytearray) -> None:
    if m.users is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.users) + 1)
        for e_users in m.users:
            _encode_user_name_v0(e_users, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeUserScramCredentialsRequest, int]]] = {
    0: _decode_describe_user_scram_credentials_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeUserScramCredentialsRequest, bytearray], None]] = {
    0: _encode_describe_user_scram_credentials_request_v0,
}
