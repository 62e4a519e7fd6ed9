"""LeaveGroupRequest: generated from Kafka 3.9.2 and 4.4.0's LeaveGroupRequest.json by
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

__all__ = ["LeaveGroupRequest", "MemberIdentity"]



@dataclass(slots=True)
class MemberIdentity:
    """List of leaving member identities."""

    member_id: str = ''
    # versions 3+. The member ID to remove from the group.
    group_instance_id: str | None = None
    # versions 3+; nullable 3+. The group instance ID to remove from the group.
    reason: str | None = None
    # versions 5+; nullable 5+; ignorable. The reason why the member left the group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaveGroupRequest(ApiMessage):
    """LeaveGroupRequest request"""

    API_KEY: ClassVar[int] = 13
    NAME: ClassVar[str] = "LeaveGroupRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    group_id: str = ''
    # versions 0+; entity groupId. The ID of the group to leave.
    member_id: str = ''
    # versions 0-2. The member ID to remove from the group.
    members: list[MemberIdentity] = field(default_factory=list)
    # versions 3+. List of leaving member identities.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaveGroupRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[LeaveGroupRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"LeaveGroupRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"LeaveGroupRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> LeaveGroupRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leave_group_request_v0(buf: memoryview, pos: int) -> tuple[LeaveGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_member_id, pos = read_string(buf, pos, "memberId")
    return LeaveGroupRequest(f_group_id, f_member_id, [], []), pos


def _decode_member_identity_v3(buf: memoryview, pos: int) -> tuple[MemberIdentity, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    return MemberIdentity(f_member_id, f_group_instance_id, None, []), pos


def _decode_leave_group_request_v3(buf: memoryview, pos: int) -> tuple[LeaveGroupRequest, int]:
    f_group_id: str
    f_members: list[MemberIdentity]
    f_group_id, pos = read_string(buf, pos, "groupId")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_identity_v3(buf, pos)
            f_members.append(e_members)
    return LeaveGroupRequest(f_group_id, '', f_members, []), pos


def _decode_member_identity_v4(buf: memoryview, pos: int) -> tuple[MemberIdentity, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MemberIdentity(f_member_id, f_group_instance_id, None, _unknown), pos


def _decode_leave_group_request_v4(buf: memoryview, pos: int) -> tuple[LeaveGroupRequest, int]:
    f_group_id: str
    f_members: list[MemberIdentity]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_identity_v4(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaveGroupRequest(f_group_id, '', f_members, _unknown), pos


def _decode_member_identity_v5(buf: memoryview, pos: int) -> tuple[MemberIdentity, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_reason: str | None
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_reason, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MemberIdentity(f_member_id, f_group_instance_id, f_reason, _unknown), pos


def _decode_leave_group_request_v5(buf: memoryview, pos: int) -> tuple[LeaveGroupRequest, int]:
    f_group_id: str
    f_members: list[MemberIdentity]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_identity_v5(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaveGroupRequest(f_group_id, '', f_members, _unknown), pos


def _encode_leave_group_request_v0(m: LeaveGroupRequest, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupRequest", "Members", 0)
    write_string(out, m.group_id)
    write_string(out, m.member_id)


def _encode_leave_group_request_v1(m: LeaveGroupRequest, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupRequest", "Members", 1)
    write_string(out, m.group_id)
    write_string(out, m.member_id)


def _encode_leave_group_request_v2(m: LeaveGroupRequest, out: bytearray) -> None:
    if len(m.members) > 0:
        raise version_error("LeaveGroupRequest", "Members", 2)
    write_string(out, m.group_id)
    write_string(out, m.member_id)


def _encode_member_identity_v3(m: MemberIdentity, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)


def _encode_leave_group_request_v3(m: LeaveGroupRequest, out: bytearray) -> None:
    if m.member_id != '':
        raise version_error("LeaveGroupRequest", "MemberId", 3)
    write_string(out, m.group_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_member_identity_v3(e_members, out)


def _encode_member_identity_v4(m: MemberIdentity, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leave_group_request_v4(m: LeaveGroupRequest, out: bytearray) -> None:
    if m.member_id != '':
        raise version_error("LeaveGroupRequest", "MemberId", 4)
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_identity_v4(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_member_identity_v5(m: MemberIdentity, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_nullable_string(out, m.reason)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leave_group_request_v5(m: LeaveGroupRequest, out: bytearray) -> None:
    if m.member_id != '':
        raise version_error("LeaveGroupRequest", "MemberId", 5)
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_identity_v5(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[LeaveGroupRequest, int]]] = {
    0: _decode_leave_group_request_v0,
    1: _decode_leave_group_request_v0,
    2: _decode_leave_group_request_v0,
    3: _decode_leave_group_request_v3,
    4: _decode_leave_group_request_v4,
    5: _decode_leave_group_request_v5,
}
_ENCODERS: dict[int, Callable[[LeaveGroupRequest, bytearray], None]] = {
    0: _encode_leave_group_request_v0,
    1: _encode_leave_group_request_v1,
    2: _encode_leave_group_request_v2,
    3: _encode_leave_group_request_v3,
    4: _encode_leave_group_request_v4,
    5: _encode_leave_group_request_v5,
}
