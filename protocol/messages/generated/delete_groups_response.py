"""DeleteGroupsResponse: generated from Kafka 3.9.2 and 4.4.0's DeleteGroupsResponse.json by
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
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteGroupsResponse", "DeletableGroupResult"]

_S0 = Struct(">i")
_S1 = Struct(">h")


@dataclass(slots=True)
class DeletableGroupResult:
    """The deletion results."""

    group_id: str = ''
    # versions 0+; entity groupId. The group id.
    error_code: int = 0
    # versions 0+. The deletion error, or 0 if the deletion succeeded.
    error_message: str | None = None
    # versions 3+; nullable 3+; ignorable. The error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteGroupsResponse(ApiMessage):
    """DeleteGroupsResponse response"""

    API_KEY: ClassVar[int] = 42
    NAME: ClassVar[str] = "DeleteGroupsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    results: list[DeletableGroupResult] = field(default_factory=list)
    # versions 0+. The deletion results.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteGroupsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteGroupsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteGroupsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteGroupsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteGroupsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_deletable_group_result_v0(buf: memoryview, pos: int) -> tuple[DeletableGroupResult, int]:
    f_group_id: str
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    return DeletableGroupResult(f_group_id, f_error_code, None, []), pos


def _decode_delete_groups_response_v0(buf: memoryview, pos: int) -> tuple[DeleteGroupsResponse, int]:
    f_results: list[DeletableGroupResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_deletable_group_result_v0(buf, pos)
            f_results.append(e_results)
    return DeleteGroupsResponse(f_throttle_time_ms, f_results, []), pos


def _decode_deletable_group_result_v2(buf: memoryview, pos: int) -> tuple[DeletableGroupResult, int]:
    f_group_id: str
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeletableGroupResult(f_group_id, f_error_code, None, _unknown), pos


def _decode_delete_groups_response_v2(buf: memoryview, pos: int) -> tuple[DeleteGroupsResponse, int]:
    f_results: list[DeletableGroupResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_deletable_group_result_v2(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteGroupsResponse(f_throttle_time_ms, f_results, _unknown), pos


def _decode_deletable_group_result_v3(buf: memoryview, pos: int) -> tuple[DeletableGroupResult, int]:
    f_group_id: str
    f_error_message: str | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeletableGroupResult(f_group_id, f_error_code, f_error_message, _unknown), pos


def _decode_delete_groups_response_v3(buf: memoryview, pos: int) -> tuple[DeleteGroupsResponse, int]:
    f_results: list[DeletableGroupResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_deletable_group_result_v3(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteGroupsResponse(f_throttle_time_ms, f_results, _unknown), pos


def _encode_deletable_group_result_v0(m: DeletableGroupResult, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += _S1.pack(m.error_code)


def _encode_delete_groups_response_v0(m: DeleteGroupsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_deletable_group_result_v0(e_results, out)


def _encode_deletable_group_result_v2(m: DeletableGroupResult, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_groups_response_v2(m: DeleteGroupsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_deletable_group_result_v2(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_deletable_group_result_v3(m: DeletableGroupResult, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_groups_response_v3(m: DeleteGroupsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_deletable_group_result_v3(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteGroupsResponse, int]]] = {
    0: _decode_delete_groups_response_v0,
    1: _decode_delete_groups_response_v0,
    2: _decode_delete_groups_response_v2,
    3: _decode_delete_groups_response_v3,
}
_ENCODERS: dict[int, Callable[[DeleteGroupsResponse, bytearray], None]] = {
    0: _encode_delete_groups_response_v0,
    1: _encode_delete_groups_response_v0,
    2: _encode_delete_groups_response_v2,
    3: _encode_delete_groups_response_v3,
}
