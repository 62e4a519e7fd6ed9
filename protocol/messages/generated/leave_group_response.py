"""LeaveGroupResponse: generated from Kafka 3.9.2 and 4.4.0's LeaveGroupResponse.json by
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
    read_nullable_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["LeaveGroupResponse", "MemberResponse"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class MemberResponse:
    """List of leaving member responses."""

    member_id: str = ''
    # versions 3+. The member ID to remove from the group.
    group_instance_id: str | None = ''
    # versions 3+; nullable 3+. The group instance ID to remove from the group.
    error_code: int = 0
    # versions 3+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaveGroupResponse(ApiMessage):
    """LeaveGroupResponse response"""

    API_KEY: ClassVar[int] = 13
    NAME: ClassVar[str] = "LeaveGroupResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    members: list[MemberResponse] = field(default_factory=list)
    # versions 3+. List of leaving member responses.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaveGroupResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[LeaveGroupResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaveGroupResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"LeaveGroupResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> LeaveGroupResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leave_group_response_v0(buf: memoryview, pos: int) -> tuple[LeaveGroupResponse, int]:
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return LeaveGroupResponse(0, f_error_code, [], []), pos


def _decode_leave_group_response_v1(buf: memoryview, pos: int) -> tuple[LeaveGroupResponse, int]:
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, [], []), pos


def _decode_member_response_v3(buf: memoryview, pos: int) -> tuple[MemberResponse, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return MemberResponse(f_member_id, f_group_instance_id, f_error_code, []), pos


def _decode_leave_group_response_v3(buf: memoryview, pos: int) -> tuple[LeaveGroupResponse, int]:
    f_members: list[MemberResponse]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_response_v3(buf, pos)
            f_members.append(e_members)
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, f_members, []), pos


def _decode_member_response_v4(buf: memoryview, pos: int) -> tuple[MemberResponse, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MemberResponse(f_member_id, f_group_instance_id, f_error_code, _unknown), pos


def _decode_leave_group_response_v4(buf: memoryview, pos: int) -> tuple[LeaveGroupResponse, int]:
    f_members: list[MemberResponse]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_response_v4(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, f_members, _unknown), pos


def _encode_leave_group_response_v0(m: LeaveGroupResponse, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupResponse", "Members", 0)
    out += _S0.pack(m.error_code)


def _encode_leave_group_response_v1(m: LeaveGroupResponse, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupResponse", "Members", 1)
    out += _S1.pack(m.throttle_time_ms, m.error_code)


def _encode_leave_group_response_v2(m: LeaveGroupResponse, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupResponse", "Members", 2)
    out += _S1.pack(m.throttle_time_ms, m.error_code)


def _encode_member_response_v3(m: MemberResponse, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    out += _S0.pack(m.error_code)


def _encode_leave_group_response_v3(m: LeaveGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_member_response_v3(e_members, out)


def _encode_member_response_v4(m: MemberResponse, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    out += _S0.pack(m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leave_group_response_v4(m: LeaveGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_response_v4(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[LeaveGroupResponse, int]]] = {
    0: _decode_leave_group_response_v0,
    1: _decode_leave_group_response_v1,
    2: _decode_leave_group_response_v1,
    3: _decode_leave_group_response_v3,
    4: _decode_leave_group_response_v4,
    5: _decode_leave_group_response_v4,
}
_ENCODERS: dict[int, Callable[[LeaveGroupResponse, bytearray], None]] = {
    0: _encode_leave_group_response_v0,
    1: _encode_leave_group_response_v1,
    2: _encode_leave_group_response_v2,
    3: _encode_leave_group_response_v3,
    4: _encode_leave_group_response_v4,
    5: _encode_leave_group_response_v4,
}
