"""AlterUserScramCredentialsResponse: generated from Kafka 3.9.2 and 4.4.0's AlterUserScramCredentialsResponse.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterUserScramCredentialsResponse", "AlterUserScramCredentialsResult"]

_S0 = Struct(">i")
_S1 = Struct(">h")


@dataclass(slots=True)
class AlterUserScramCredentialsResult:
    """The results for deletions and alterations, one per affected user."""

    user: str = ''
    # versions 0+. The user name.
    error_code: int = 0
    # versions 0+. The error code.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, if any.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterUserScramCredentialsResponse(ApiMessage):
    """AlterUserScramCredentialsResponse response"""

    API_KEY: ClassVar[int] = 51
    NAME: ClassVar[str] = "AlterUserScramCredentialsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    results: list[AlterUserScramCredentialsResult] = field(default_factory=list)
    # versions 0+. The results for deletions and alterations, one per affected user.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterUserScramCredentialsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterUserScramCredentialsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterUserScramCredentialsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterUserScramCredentialsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterUserScramCredentialsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alter_user_scram_credentials_result_v0(buf: memoryview, pos: int) -> tuple[AlterUserScramCredentialsResult, int]:
    f_user: str
    f_error_message: str | None
    f_user, pos = read_compact_string(buf, pos, "user")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterUserScramCredentialsResult(f_user, f_error_code, f_error_message, _unknown), pos


def _decode_alter_user_scram_credentials_response_v0(buf: memoryview, pos: int) -> tuple[AlterUserScramCredentialsResponse, int]:
    f_results: list[AlterUserScramCredentialsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_alter_user_scram_credentials_result_v0(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterUserScramCredentialsResponse(f_throttle_time_ms, f_results, _unknown), pos


def _encode_alter_user_scram_credentials_result_v0(m: AlterUserScramCredentialsResult, out: bytearray) -> None:
    write_compact_string(out, m.user)
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_user_scram_credentials_response_v0(m: AlterUserScramCredentialsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_alter_user_scram_credentials_result_v0(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterUserScramCredentialsResponse, int]]] = {
    0: _decode_alter_user_scram_credentials_response_v0,
}
_ENCODERS: dict[int, Callable[[AlterUserScramCredentialsResponse, bytearray], None]] = {
    0: _encode_alter_user_scram_credentials_response_v0,
}
