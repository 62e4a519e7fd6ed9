"""DescribeUserScramCredentialsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeUserScramCredentialsResponse.json by
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

__all__ = ["DescribeUserScramCredentialsResponse", "DescribeUserScramCredentialsResult", "CredentialInfo"]

_S0 = Struct(">ih")
_S1 = Struct(">h")
_S2 = Struct(">bi")


@dataclass(slots=True)
class CredentialInfo:
    """The mechanism and related information associated with the user's SCRAM credentials."""

    mechanism: int = 0
    # versions 0+. The SCRAM mechanism.
    iterations: int = 0
    # versions 0+. The number of iterations used in the SCRAM credential.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeUserScramCredentialsResult:
    """The results for descriptions, one per user."""

    user: str = ''
    # versions 0+. The user name.
    error_code: int = 0
    # versions 0+. The user-level error code.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The user-level error message, if any.
    credential_infos: list[CredentialInfo] = field(default_factory=list)
    # versions 0+. The mechanism and related information associated with the user's SCRAM credentials.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeUserScramCredentialsResponse(ApiMessage):
    """DescribeUserScramCredentialsResponse response"""

    API_KEY: ClassVar[int] = 50
    NAME: ClassVar[str] = "DescribeUserScramCredentialsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The message-level error code, 0 except for user authorization or infrastructure issues.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The message-level error message, if any.
    results: list[DescribeUserScramCredentialsResult] = field(default_factory=list)
    # versions 0+. The results for descriptions, one per user.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeUserScramCredentialsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeUserScramCredentialsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeUserScramCredentialsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeUserScramCredentialsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeUserScramCredentialsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_credential_info_v0(buf: memoryview, pos: int) -> tuple[CredentialInfo, int]:
    f_mechanism, f_iterations = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CredentialInfo(f_mechanism, f_iterations, _unknown), pos


def _decode_describe_user_scram_credentials_result_v0(buf: memoryview, pos: int) -> tuple[DescribeUserScramCredentialsResult, int]:
    f_user: str
    f_error_message: str | None
    f_credential_infos: list[CredentialInfo]
    f_user, pos = read_compact_string(buf, pos, "user")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_credential_infos, pos = read_compact_array_length(buf, pos)
    if n_credential_infos < 0:
        raise null_field("credentialInfos")
    else:
        f_credential_infos = []
        for _ in range(n_credential_infos):
            e_credential_infos, pos = _decode_credential_info_v0(buf, pos)
            f_credential_infos.append(e_credential_infos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeUserScramCredentialsResult(f_user, f_error_code, f_error_message, f_credential_infos, _unknown), pos


def _decode_describe_user_scram_credentials_response_v0(buf: memoryview, pos: int) -> tuple[DescribeUserScramCredentialsResponse, int]:
    f_error_message: str | None
    f_results: list[DescribeUserScramCredentialsResult]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_user_scram_credentials_result_v0(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeUserScramCredentialsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_results, _unknown), pos


def _encode_credential_info_v0(m: CredentialInfo, out: bytearray) -> None:
    out += _S2.pack(m.mechanism, m.iterations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_user_scram_credentials_result_v0(m: DescribeUserScramCredentialsResult, out: bytearray) -> None:
    write_compact_string(out, m.user)
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.credential_infos) + 1)
    for e_credential_infos in m.credential_infos:
        _encode_credential_info_v0(e_credential_infos, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_user_scram_credentials_response_v0(m: DescribeUserScramCredentialsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_user_scram_credentials_result_v0(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeUserScramCredentialsResponse, int]]] = {
    0: _decode_describe_user_scram_credentials_response_v0,
}
_ENCODERS: dict[int, Callable[[DescribeUserScramCredentialsResponse, bytearray], None]] = {
    0: _encode_describe_user_scram_credentials_response_v0,
}
