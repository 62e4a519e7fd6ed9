"""SyncGroupRequest: generated from Kafka 3.9.2 and 4.4.0's SyncGroupRequest.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["SyncGroupRequest", "SyncGroupRequestAssignment"]

_S0 = Struct(">i")


@dataclass(slots=True)
class SyncGroupRequestAssignment:
    """Each assignment."""

    member_id: str = ''
    # versions 0+. The ID of the member to assign.
    assignment: bytes = b""
    # versions 0+. The member assignment.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class SyncGroupRequest(ApiMessage):
    """SyncGroupRequest request"""

    API_KEY: ClassVar[int] = 14
    NAME: ClassVar[str] = "SyncGroupRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    group_id: str = ''
    # versions 0+; entity groupId. The unique group identifier.
    generation_id: int = 0
    # versions 0+. The generation of the group.
    member_id: str = ''
    # versions 0+. The member ID assigned by the group.
    group_instance_id: str | None = None
    # versions 3+; nullable 3+. The unique identifier of the consumer instance provided by end user.
    protocol_type: str | None = None
    # versions 5+; nullable 5+; ignorable. The group protocol type.
    protocol_name: str | None = None
    # versions 5+; nullable 5+; ignorable. The group protocol name.
    assignments: list[SyncGroupRequestAssignment] = field(default_factory=list)
    # versions 0+. Each assignment.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SyncGroupRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[SyncGroupRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"SyncGroupRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"SyncGroupRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> SyncGroupRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_sync_group_request_assignment_v0(buf: memoryview, pos: int) -> tuple[SyncGroupRequestAssignment, int]:
    f_member_id: str
    f_assignment: bytes
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_assignment, pos = read_bytes(buf, pos, "assignment")
    return SyncGroupRequestAssignment(f_member_id, f_assignment, []), pos


def _decode_sync_group_request_v0(buf: memoryview, pos: int) -> tuple[SyncGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_assignments: list[SyncGroupRequestAssignment]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_assignments, pos = read_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_sync_group_request_assignment_v0(buf, pos)
            f_assignments.append(e_assignments)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, None, None, None, f_assignments, []), pos


def _decode_sync_group_request_v3(buf: memoryview, pos: int) -> tuple[SyncGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_assignments: list[SyncGroupRequestAssignment]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    n_assignments, pos = read_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_sync_group_request_assignment_v0(buf, pos)
            f_assignments.append(e_assignments)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, None, None, f_assignments, []), pos


def _decode_sync_group_request_assignment_v4(buf: memoryview, pos: int) -> tuple[SyncGroupRequestAssignment, int]:
    f_member_id: str
    f_assignment: bytes
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_assignment, pos = read_compact_bytes(buf, pos, "assignment")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SyncGroupRequestAssignment(f_member_id, f_assignment, _unknown), pos


def _decode_sync_group_request_v4(buf: memoryview, pos: int) -> tuple[SyncGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_assignments: list[SyncGroupRequestAssignment]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n_assignments, pos = read_compact_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_sync_group_request_assignment_v4(buf, pos)
            f_assignments.append(e_assignments)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, None, None, f_assignments, _unknown), pos


def _decode_sync_group_request_v5(buf: memoryview, pos: int) -> tuple[SyncGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_protocol_type: str | None
    f_protocol_name: str | None
    f_assignments: list[SyncGroupRequestAssignment]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    n_assignments, pos = read_compact_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_sync_group_request_assignment_v4(buf, pos)
            f_assignments.append(e_assignments)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, f_protocol_type, f_protocol_name, f_assignments, _unknown), pos


def _encode_sync_group_request_assignment_v0(m: SyncGroupRequestAssignment, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_bytes(out, m.assignment)


def _encode_sync_group_request_v0(m: SyncGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("SyncGroupRequest", "GroupInstanceId", 0)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)
    out += pack_int32(len(m.assignments))
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v0(e_assignments, out)


def _encode_sync_group_request_v1(m: SyncGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("SyncGroupRequest", "GroupInstanceId", 1)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)
    out += pack_int32(len(m.assignments))
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v0(e_assignments, out)


def _encode_sync_group_request_v2(m: SyncGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("SyncGroupRequest", "GroupInstanceId", 2)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)
    out += pack_int32(len(m.assignments))
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v0(e_assignments, out)


def _encode_sync_group_request_v3(m: SyncGroupRequest, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    out += pack_int32(len(m.assignments))
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v0(e_assignments, out)


def _encode_sync_group_request_assignment_v4(m: SyncGroupRequestAssignment, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_bytes(out, m.assignment)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_sync_group_request_v4(m: SyncGroupRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.assignments) + 1)
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v4(e_assignments, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_sync_group_request_v5(m: SyncGroupRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_nullable_string(out, m.protocol_type)
    write_compact_nullable_string(out, m.protocol_name)
    write_uvarint(out, len(m.assignments) + 1)
    for e_assignments in m.assignments:
        _encode_sync_group_request_assignment_v4(e_assignments, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[SyncGroupRequest, int]]] = {
    0: _decode_sync_group_request_v0,
    1: _decode_sync_group_request_v0,
    2: _decode_sync_group_request_v0,
    3: _decode_sync_group_request_v3,
    4: _decode_sync_group_request_v4,
    5: _decode_sync_group_request_v5,
}
_ENCODERS: dict[int, Callable[[SyncGroupRequest, bytearray], None]] = {
    0: _encode_sync_group_request_v0,
    1: _encode_sync_group_request_v1,
    2: _encode_sync_group_request_v2,
    3: _encode_sync_group_request_v3,
    4: _encode_sync_group_request_v4,
    5: _encode_sync_group_request_v5,
}
