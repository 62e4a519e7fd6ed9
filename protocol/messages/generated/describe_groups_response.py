"""DescribeGroupsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeGroupsResponse.json by
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

__all__ = ["DescribeGroupsResponse", "DescribedGroup", "DescribedGroupMember"]

_S0 = Struct(">h")
_S1 = Struct(">i")


@dataclass(slots=True)
class DescribedGroupMember:
    """The group members."""

    member_id: str = ''
    # versions 0+. The member id.
    group_instance_id: str | None = None
    # versions 4+; nullable 4+; ignorable. The unique identifier of the consumer instance provided by end user.
    client_id: str = ''
    # versions 0+. The client ID used in the member's latest join group request.
    client_host: str = ''
    # versions 0+. The client host.
    member_metadata: bytes = b""
    # versions 0+. The metadata corresponding to the current group protocol in use.
    member_assignment: bytes = b""
    # versions 0+. The current assignment provided by the group leader.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribedGroup:
    """Each described group."""

    error_code: int = 0
    # versions 0+. The describe error, or 0 if there was no error.
    group_id: str = ''
    # versions 0+; entity groupId. The group ID string.
    group_state: str = ''
    # versions 0+. The group state string, or the empty string.
    protocol_type: str = ''
    # versions 0+. The group protocol type, or the empty string.
    protocol_data: str = ''
    # versions 0+. The group protocol data, or the empty string.
    members: list[DescribedGroupMember] = field(default_factory=list)
    # versions 0+. The group members.
    authorized_operations: int = -2147483648
    # versions 3+. 32-bit bitfield to represent authorized operations for this group.
    error_message: str | None = None
    # versions 6+; nullable 6+. The describe error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeGroupsResponse(ApiMessage):
    """DescribeGroupsResponse response"""

    API_KEY: ClassVar[int] = 15
    NAME: ClassVar[str] = "DescribeGroupsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 5

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    groups: list[DescribedGroup] = field(default_factory=list)
    # versions 0+. Each described group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeGroupsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeGroupsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeGroupsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeGroupsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeGroupsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_described_group_member_v0(buf: memoryview, pos: int) -> tuple[DescribedGroupMember, int]:
    f_member_id: str
    f_client_id: str
    f_client_host: str
    f_member_metadata: bytes
    f_member_assignment: bytes
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_client_id, pos = read_string(buf, pos, "clientId")
    f_client_host, pos = read_string(buf, pos, "clientHost")
    f_member_metadata, pos = read_bytes(buf, pos, "memberMetadata")
    f_member_assignment, pos = read_bytes(buf, pos, "memberAssignment")
    return DescribedGroupMember(f_member_id, None, f_client_id, f_client_host, f_member_metadata, f_member_assignment, []), pos


def _decode_described_group_v0(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_group_id: str
    f_group_state: str
    f_protocol_type: str
    f_protocol_data: str
    f_members: list[DescribedGroupMember]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_group_state, pos = read_string(buf, pos, "groupState")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    f_protocol_data, pos = read_string(buf, pos, "protocolData")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_described_group_member_v0(buf, pos)
            f_members.append(e_members)
    return DescribedGroup(f_error_code, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, -2147483648, None, []), pos


def _decode_describe_groups_response_v0(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v0(buf, pos)
            f_groups.append(e_groups)
    return DescribeGroupsResponse(0, f_groups, []), pos


def _decode_describe_groups_response_v1(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v0(buf, pos)
            f_groups.append(e_groups)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, []), pos


def _decode_described_group_v3(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_group_id: str
    f_group_state: str
    f_protocol_type: str
    f_protocol_data: str
    f_members: list[DescribedGroupMember]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_group_state, pos = read_string(buf, pos, "groupState")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    f_protocol_data, pos = read_string(buf, pos, "protocolData")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_described_group_member_v0(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    return DescribedGroup(f_error_code, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, None, []), pos


def _decode_describe_groups_response_v3(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v3(buf, pos)
            f_groups.append(e_groups)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, []), pos


def _decode_described_group_member_v4(buf: memoryview, pos: int) -> tuple[DescribedGroupMember, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_client_id: str
    f_client_host: str
    f_member_metadata: bytes
    f_member_assignment: bytes
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_client_id, pos = read_string(buf, pos, "clientId")
    f_client_host, pos = read_string(buf, pos, "clientHost")
    f_member_metadata, pos = read_bytes(buf, pos, "memberMetadata")
    f_member_assignment, pos = read_bytes(buf, pos, "memberAssignment")
    return DescribedGroupMember(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_member_metadata, f_member_assignment, []), pos


def _decode_described_group_v4(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_group_id: str
    f_group_state: str
    f_protocol_type: str
    f_protocol_data: str
    f_members: list[DescribedGroupMember]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_group_state, pos = read_string(buf, pos, "groupState")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    f_protocol_data, pos = read_string(buf, pos, "protocolData")
    n_members, pos = read_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_described_group_member_v4(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    return DescribedGroup(f_error_code, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, None, []), pos


def _decode_describe_groups_response_v4(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v4(buf, pos)
            f_groups.append(e_groups)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, []), pos


def _decode_described_group_member_v5(buf: memoryview, pos: int) -> tuple[DescribedGroupMember, int]:
    f_member_id: str
    f_group_instance_id: str | None
    f_client_id: str
    f_client_host: str
    f_member_metadata: bytes
    f_member_assignment: bytes
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos, "clientId")
    f_client_host, pos = read_compact_string(buf, pos, "clientHost")
    f_member_metadata, pos = read_compact_bytes(buf, pos, "memberMetadata")
    f_member_assignment, pos = read_compact_bytes(buf, pos, "memberAssignment")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroupMember(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_member_metadata, f_member_assignment, _unknown), pos


def _decode_described_group_v5(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_group_id: str
    f_group_state: str
    f_protocol_type: str
    f_protocol_data: str
    f_members: list[DescribedGroupMember]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    f_protocol_data, pos = read_compact_string(buf, pos, "protocolData")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_described_group_member_v5(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, None, _unknown), pos


def _decode_describe_groups_response_v5(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v5(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _decode_described_group_v6(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_error_message: str | None
    f_group_id: str
    f_group_state: str
    f_protocol_type: str
    f_protocol_data: str
    f_members: list[DescribedGroupMember]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    f_protocol_data, pos = read_compact_string(buf, pos, "protocolData")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_described_group_member_v5(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, f_error_message, _unknown), pos


def _decode_describe_groups_response_v6(buf: memoryview, pos: int) -> tuple[DescribeGroupsResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v6(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _encode_described_group_member_v0(m: DescribedGroupMember, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_string(out, m.client_id)
    write_string(out, m.client_host)
    write_bytes(out, m.member_metadata)
    write_bytes(out, m.member_assignment)


def _encode_described_group_v0(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 0)
    if m.authorized_operations != -2147483648:
        raise version_error("DescribedGroup", "AuthorizedOperations", 0)
    out += _S0.pack(m.error_code)
    write_string(out, m.group_id)
    write_string(out, m.group_state)
    write_string(out, m.protocol_type)
    write_string(out, m.protocol_data)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_described_group_member_v0(e_members, out)


def _encode_describe_groups_response_v0(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_described_group_v0(e_groups, out)


def _encode_described_group_v1(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 1)
    if m.authorized_operations != -2147483648:
        raise version_error("DescribedGroup", "AuthorizedOperations", 1)
    out += _S0.pack(m.error_code)
    write_string(out, m.group_id)
    write_string(out, m.group_state)
    write_string(out, m.protocol_type)
    write_string(out, m.protocol_data)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_described_group_member_v0(e_members, out)


def _encode_describe_groups_response_v1(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_described_group_v1(e_groups, out)


def _encode_described_group_v2(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 2)
    if m.authorized_operations != -2147483648:
        raise version_error("DescribedGroup", "AuthorizedOperations", 2)
    out += _S0.pack(m.error_code)
    write_string(out, m.group_id)
    write_string(out, m.group_state)
    write_string(out, m.protocol_type)
    write_string(out, m.protocol_data)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_described_group_member_v0(e_members, out)


def _encode_describe_groups_response_v2(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_described_group_v2(e_groups, out)


def _encode_described_group_v3(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 3)
    out += _S0.pack(m.error_code)
    write_string(out, m.group_id)
    write_string(out, m.group_state)
    write_string(out, m.protocol_type)
    write_string(out, m.protocol_data)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_described_group_member_v0(e_members, out)
    out += _S1.pack(m.authorized_operations)


def _encode_describe_groups_response_v3(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_described_group_v3(e_groups, out)


def _encode_described_group_member_v4(m: DescribedGroupMember, out: bytearray) -> None:
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    write_string(out, m.client_id)
    write_string(out, m.client_host)
    write_bytes(out, m.member_metadata)
    write_bytes(out, m.member_assignment)


def _encode_described_group_v4(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 4)
    out += _S0.pack(m.error_code)
    write_string(out, m.group_id)
    write_string(out, m.group_state)
    write_string(out, m.protocol_type)
    write_string(out, m.protocol_data)
    out += pack_int32(len(m.members))
    for e_members in m.members:
        _encode_described_group_member_v4(e_members, out)
    out += _S1.pack(m.authorized_operations)


def _encode_describe_groups_response_v4(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_described_group_v4(e_groups, out)


def _encode_described_group_member_v5(m: DescribedGroupMember, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_string(out, m.client_id)
    write_compact_string(out, m.client_host)
    write_compact_bytes(out, m.member_metadata)
    write_compact_bytes(out, m.member_assignment)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_described_group_v5(m: DescribedGroup, out: bytearray) -> None:
    if m.error_message is not None:
        raise version_error("DescribedGroup", "ErrorMessage", 5)
    out += _S0.pack(m.error_code)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    write_compact_string(out, m.protocol_type)
    write_compact_string(out, m.protocol_data)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_described_group_member_v5(e_members, out)
    out += _S1.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_groups_response_v5(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v5(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_described_group_v6(m: DescribedGroup, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    write_compact_string(out, m.protocol_type)
    write_compact_string(out, m.protocol_data)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_described_group_member_v5(e_members, out)
    out += _S1.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_groups_response_v6(m: DescribeGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v6(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeGroupsResponse, int]]] = {
    0: _decode_describe_groups_response_v0,
    1: _decode_describe_groups_response_v1,
    2: _decode_describe_groups_response_v1,
    3: _decode_describe_groups_response_v3,
    4: _decode_describe_groups_response_v4,
    5: _decode_describe_groups_response_v5,
    6: _decode_describe_groups_response_v6,
}
_ENCODERS: dict[int, Callable[[DescribeGroupsResponse, bytearray], None]] = {
    0: _encode_describe_groups_response_v0,
    1: _encode_describe_groups_response_v1,
    2: _encode_describe_groups_response_v2,
    3: _encode_describe_groups_response_v3,
    4: _encode_describe_groups_response_v4,
    5: _encode_describe_groups_response_v5,
    6: _encode_describe_groups_response_v6,
}
