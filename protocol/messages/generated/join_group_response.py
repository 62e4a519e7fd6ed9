"""JoinGroupResponse: generated from Kafka 3.9.2 and 4.4.0's JoinGroupResponse.json by
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
    null_error,
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

__all__ = ["JoinGroupResponse", "JoinGroupResponseMember"]

_S0 = Struct(">hi")
_S1 = Struct(">ihi")
_S2 = Struct(">?")


@dataclass(slots=True)
class JoinGroupResponseMember:
    """The group members."""

    member_id: str = ''
    # versions 0+. The group member ID.
    group_instance_id: str | None = None
    # versions 5+; nullable 5+; ignorable. The unique identifier of the consumer instance provided by end user.
    metadata: bytes = b""
    # versions 0+. The group member metadata.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class JoinGroupResponse(ApiMessage):
    """JoinGroupResponse response"""

    API_KEY: ClassVar[int] = 11
    NAME: ClassVar[str] = "JoinGroupResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 9
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    throttle_time_ms: int = 0
    # versions 2+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    generation_id: int = -1
    # versions 0+. The generation ID of the group.
    protocol_type: str | None = None
    # versions 7+; nullable 7+; ignorable. The group protocol name.
    protocol_name: str | None = ''
    # versions 0+; nullable 7+. The group protocol selected by the coordinator.
    leader: str = ''
    # versions 0+. The leader of the group.
    skip_assignment: bool = False
    # versions 9+. True if the leader must skip running the assignment.
    member_id: str = ''
    # versions 0+. The member ID assigned by the group coordinator.
    members: list[JoinGroupResponseMember] = field(default_factory=list)
    # versions 0+. The group members.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"JoinGroupResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[JoinGroupResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"JoinGroupResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"JoinGroupResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> JoinGroupResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_join_group_response_member_v0(buf: memoryview, pos: int) -> tuple[JoinGroupResponseMember, int]:
    f_member_id: str
    f_metadata: bytes
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_metadata, pos = read_bytes(buf, pos, "metadata")
    return JoinGroupResponseMember(f_member_id, None, f_metadata, []), pos


def _decode_join_group_response_v0(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_error_code, f_generation_id = _S0.unpack_from(buf, pos)
    pos += 6
    f_protocol_name, pos = read_string(buf, pos, "protocolName")
    f_leader, pos = read_string(buf, pos, "leader")
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v0(buf, pos)
            f_members.append(e_members)
    return JoinGroupResponse(0, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members, []), pos


def _decode_join_group_response_v2(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_throttle_time_ms, f_error_code, f_generation_id = _S1.unpack_from(buf, pos)
    pos += 10
    f_protocol_name, pos = read_string(buf, pos, "protocolName")
    f_leader, pos = read_string(buf, pos, "leader")
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v0(buf, pos)
            f_members.append(e_members)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members, []), pos


def _decode_join_group_response_member_v5(buf: memoryview, pos: int) -> tuple[JoinGroupResponseMember, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_metadata: bytes
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_metadata, pos = read_bytes(buf, pos, "metadata")
    return JoinGroupResponseMember(f_member_id, f_group_instance_id, f_metadata, []), pos


def _decode_join_group_response_v5(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_throttle_time_ms, f_error_code, f_generation_id = _S1.unpack_from(buf, pos)
    pos += 10
    f_protocol_name, pos = read_string(buf, pos, "protocolName")
    f_leader, pos = read_string(buf, pos, "leader")
    f_member_id, pos = read_string(buf, pos, "memberId")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v5(buf, pos)
            f_members.append(e_members)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members, []), pos


def _decode_join_group_response_member_v6(buf: memoryview, pos: int) -> tuple[JoinGroupResponseMember, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_metadata: bytes
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_metadata, pos = read_compact_bytes(buf, pos, "metadata")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupResponseMember(f_member_id, f_group_instance_id, f_metadata, _unknown), pos


def _decode_join_group_response_v6(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_throttle_time_ms, f_error_code, f_generation_id = _S1.unpack_from(buf, pos)
    pos += 10
    f_protocol_name, pos = read_compact_string(buf, pos, "protocolName")
    f_leader, pos = read_compact_string(buf, pos, "leader")
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v6(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members, _unknown), pos


def _decode_join_group_response_v7(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_type: str | None
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_throttle_time_ms, f_error_code, f_generation_id = _S1.unpack_from(buf, pos)
    pos += 10
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_leader, pos = read_compact_string(buf, pos, "leader")
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v6(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, f_protocol_type, f_protocol_name, f_leader, False, f_member_id, f_members, _unknown), pos


def _decode_join_group_response_v9(buf: memoryview, pos: int) -> tuple[JoinGroupResponse, int]:
    f_protocol_type: str | None
    f_protocol_name: str | None
    f_leader: str
    f_member_id: str
    f_members: list[JoinGroupResponseMember]
    f_throttle_time_ms, f_error_code, f_generation_id = _S1.unpack_from(buf, pos)
    pos += 10
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_leader, pos = read_compact_string(buf, pos, "leader")
    f_skip_assignment, = _S2.unpack_from(buf, pos)
    pos += 1
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_join_group_response_member_v6(buf, pos)
            f_members.append(e_members)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, f_protocol_type, f_protocol_name, f_leader, f_skip_assignment, f_member_id, f_members, _unknown), pos


def _encode_join_group_response_member_v0(m: JoinGroupResponseMember, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_bytes(out, m.metadata)


def _encode_join_group_response_v0(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 0)
    out += _S0.pack(m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 0)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v0(e_members, out)


def _encode_join_group_response_v1(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 1)
    out += _S0.pack(m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 1)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v0(e_members, out)


def _encode_join_group_response_v2(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 2)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 2)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v0(e_members, out)


def _encode_join_group_response_v3(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 3)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 3)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v0(e_members, out)


def _encode_join_group_response_v4(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 4)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 4)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v0(e_members, out)


def _encode_join_group_response_member_v5(m: JoinGroupResponseMember, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    write_bytes(out, m.metadata)


def _encode_join_group_response_v5(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 5)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 5)
    write_string(out, m.protocol_name)
    write_string(out, m.leader)
    write_string(out, m.member_id)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_join_group_response_member_v5(e_members, out)


def _encode_join_group_response_member_v6(m: JoinGroupResponseMember, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_bytes(out, m.metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_response_v6(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 6)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    if m.protocol_name is None:
        raise null_error("JoinGroupResponse", "ProtocolName", 6)
    write_compact_string(out, m.protocol_name)
    write_compact_string(out, m.leader)
    write_compact_string(out, m.member_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_join_group_response_member_v6(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_response_v7(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 7)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    write_compact_nullable_string(out, m.protocol_type)
    write_compact_nullable_string(out, m.protocol_name)
    write_compact_string(out, m.leader)
    write_compact_string(out, m.member_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_join_group_response_member_v6(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_response_v8(m: JoinGroupResponse, out: bytearray) -> None:
    if m.skip_assignment:
        raise version_error("JoinGroupResponse", "SkipAssignment", 8)
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    write_compact_nullable_string(out, m.protocol_type)
    write_compact_nullable_string(out, m.protocol_name)
    write_compact_string(out, m.leader)
    write_compact_string(out, m.member_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_join_group_response_member_v6(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_response_v9(m: JoinGroupResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.generation_id)
    write_compact_nullable_string(out, m.protocol_type)
    write_compact_nullable_string(out, m.protocol_name)
    write_compact_string(out, m.leader)
    out += _S2.pack(m.skip_assignment)
    write_compact_string(out, m.member_id)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_join_group_response_member_v6(e_members, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[JoinGroupResponse, int]]] = {
    0: _decode_join_group_response_v0,
    1: _decode_join_group_response_v0,
    2: _decode_join_group_response_v2,
    3: _decode_join_group_response_v2,
    4: _decode_join_group_response_v2,
    5: _decode_join_group_response_v5,
    6: _decode_join_group_response_v6,
    7: _decode_join_group_response_v7,
    8: _decode_join_group_response_v7,
    9: _decode_join_group_response_v9,
}
_ENCODERS: dict[int, Callable[[JoinGroupResponse, bytearray], None]] = {
    0: _encode_join_group_response_v0,
    1: _encode_join_group_response_v1,
    2: _encode_join_group_response_v2,
    3: _encode_join_group_response_v3,
    4: _encode_join_group_response_v4,
    5: _encode_join_group_response_v5,
    6: _encode_join_group_response_v6,
    7: _encode_join_group_response_v7,
    8: _encode_join_group_response_v8,
    9: _encode_join_group_response_v9,
}
