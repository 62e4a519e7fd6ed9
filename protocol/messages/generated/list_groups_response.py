"""ListGroupsResponse: generated from Kafka 3.9.2 and 4.4.0's ListGroupsResponse.json by
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
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListGroupsResponse", "ListedGroup"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class ListedGroup:
    """Each group in the response."""

    group_id: str = ''
    # versions 0+; entity groupId. The group ID.
    protocol_type: str = ''
    # versions 0+. The group protocol type.
    group_state: str = ''
    # versions 4+; ignorable. The group state name.
    group_type: str = ''
    # versions 5+; ignorable. The group type name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListGroupsResponse(ApiMessage):
    """ListGroupsResponse response"""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = "ListGroupsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    groups: list[ListedGroup] = field(default_factory=list)
    # versions 0+. Each group in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListGroupsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListGroupsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListGroupsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListGroupsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListGroupsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_listed_group_v0(buf: memoryview, pos: int) -> tuple[ListedGroup, int]:
    f_group_id: str
    f_protocol_type: str
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    return ListedGroup(f_group_id, f_protocol_type, '', '', []), pos


def _decode_list_groups_response_v0(buf: memoryview, pos: int) -> tuple[ListGroupsResponse, int]:
    f_groups: list[ListedGroup]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_listed_group_v0(buf, pos)
            f_groups.append(e_groups)
    return ListGroupsResponse(0, f_error_code, f_groups, []), pos


def _decode_list_groups_response_v1(buf: memoryview, pos: int) -> tuple[ListGroupsResponse, int]:
    f_groups: list[ListedGroup]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_listed_group_v0(buf, pos)
            f_groups.append(e_groups)
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, []), pos


def _decode_listed_group_v3(buf: memoryview, pos: int) -> tuple[ListedGroup, int]:
    f_group_id: str
    f_protocol_type: str
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListedGroup(f_group_id, f_protocol_type, '', '', _unknown), pos


def _decode_list_groups_response_v3(buf: memoryview, pos: int) -> tuple[ListGroupsResponse, int]:
    f_groups: list[ListedGroup]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_listed_group_v3(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, _unknown), pos


def _decode_listed_group_v4(buf: memoryview, pos: int) -> tuple[ListedGroup, int]:
    f_group_id: str
    f_protocol_type: str
    f_group_state: str
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListedGroup(f_group_id, f_protocol_type, f_group_state, '', _unknown), pos


def _decode_list_groups_response_v4(buf: memoryview, pos: int) -> tuple[ListGroupsResponse, int]:
    f_groups: list[ListedGroup]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_listed_group_v4(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, _unknown), pos


def _decode_listed_group_v5(buf: memoryview, pos: int) -> tuple[ListedGroup, int]:
    f_group_id: str
    f_protocol_type: str
    f_group_state: str
    f_group_type: str
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_group_type, pos = read_compact_string(buf, pos, "groupType")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListedGroup(f_group_id, f_protocol_type, f_group_state, f_group_type, _unknown), pos


def _decode_list_groups_response_v5(buf: memoryview, pos: int) -> tuple[ListGroupsResponse, int]:
    f_groups: list[ListedGroup]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_listed_group_v5(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, _unknown), pos


def _encode_listed_group_v0(m: ListedGroup, out: bytearray) -> None:
    write_string(out, m.group_id)
    write_string(out, m.protocol_type)


def _encode_list_groups_response_v0(m: ListGroupsResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_listed_group_v0(e_groups, out)


def _encode_list_groups_response_v1(m: ListGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        _encode_listed_group_v0(e_groups, out)


def _encode_listed_group_v3(m: ListedGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.protocol_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_groups_response_v3(m: ListGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_listed_group_v3(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_listed_group_v4(m: ListedGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.protocol_type)
    write_compact_string(out, m.group_state)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_groups_response_v4(m: ListGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_listed_group_v4(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_listed_group_v5(m: ListedGroup, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.protocol_type)
    write_compact_string(out, m.group_state)
    write_compact_string(out, m.group_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_groups_response_v5(m: ListGroupsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_listed_group_v5(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListGroupsResponse, int]]] = {
    0: _decode_list_groups_response_v0,
    1: _decode_list_groups_response_v1,
    2: _decode_list_groups_response_v1,
    3: _decode_list_groups_response_v3,
    4: _decode_list_groups_response_v4,
    5: _decode_list_groups_response_v5,
}
_ENCODERS: dict[int, Callable[[ListGroupsResponse, bytearray], None]] = {
    0: _encode_list_groups_response_v0,
    1: _encode_list_groups_response_v1,
    2: _encode_list_groups_response_v1,
    3: _encode_list_groups_response_v3,
    4: _encode_list_groups_response_v4,
    5: _encode_list_groups_response_v5,
}
