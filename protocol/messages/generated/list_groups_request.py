"""ListGroupsRequest: generated from Kafka 3.9.2 and 4.4.0's ListGroupsRequest.json by
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
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListGroupsRequest"]



@dataclass(slots=True)
class ListGroupsRequest(ApiMessage):
    """ListGroupsRequest request"""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = "ListGroupsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    states_filter: list[str] = field(default_factory=list)
    # versions 4+. The states of the groups we want to list. If empty, all groups are returned with their state.
    types_filter: list[str] = field(default_factory=list)
    # versions 5+. The types of the groups we want to list. If empty, all groups are returned with their type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListGroupsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListGroupsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListGroupsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListGroupsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListGroupsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_groups_request_v0(buf: memoryview, pos: int) -> tuple[ListGroupsRequest, int]:
    return ListGroupsRequest([], [], []), pos


def _decode_list_groups_request_v3(buf: memoryview, pos: int) -> tuple[ListGroupsRequest, int]:
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsRequest([], [], _unknown), pos


def _decode_list_groups_request_v4(buf: memoryview, pos: int) -> tuple[ListGroupsRequest, int]:
    f_states_filter: list[str]
    n_states_filter, pos = read_compact_array_length(buf, pos)
    if n_states_filter < 0:
        raise null_field("statesFilter")
    else:
        f_states_filter = []
        for _ in range(n_states_filter):
            e_states_filter, pos = read_compact_string(buf, pos, "statesFilter element")
            f_states_filter.append(e_states_filter)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsRequest(f_states_filter, [], _unknown), pos


def _decode_list_groups_request_v5(buf: memoryview, pos: int) -> tuple[ListGroupsRequest, int]:
    f_states_filter: list[str]
    f_types_filter: list[str]
    n_states_filter, pos = read_compact_array_length(buf, pos)
    if n_states_filter < 0:
        raise null_field("statesFilter")
    else:
        f_states_filter = []
        for _ in range(n_states_filter):
            e_states_filter, pos = read_compact_string(buf, pos, "statesFilter element")
            f_states_filter.append(e_states_filter)
    n_types_filter, pos = read_compact_array_length(buf, pos)
    if n_types_filter < 0:
        raise null_field("typesFilter")
    else:
        f_types_filter = []
        for _ in range(n_types_filter):
            e_types_filter, pos = read_compact_string(buf, pos, "typesFilter element")
            f_types_filter.append(e_types_filter)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListGroupsRequest(f_states_filter, f_types_filter, _unknown), pos


def _encode_list_groups_request_v0(m: ListGroupsRequest, out: bytearray) -> None:
    if len(m.states_filter) > 0:
        raise version_error("ListGroupsRequest", "StatesFilter", 0)
    if len(m.types_filter) > 0:
        raise version_error("ListGroupsRequest", "TypesFilter", 0)


def _encode_list_groups_request_v1(m: ListGroupsRequest, out: bytearray) -> None:
    if len(m.states_filter) > 0:
        raise version_error("ListGroupsRequest", "StatesFilter", 1)
    if len(m.types_filter) > 0:
        raise version_error("ListGroupsRequest", "TypesFilter", 1)


def _encode_list_groups_request_v2(m: ListGroupsRequest, out: bytearray) -> None:
    if len(m.states_filter) > 0:
        raise version_error("ListGroupsRequest", "StatesFilter", 2)
    if len(m.types_filter) > 0:
        raise version_error("ListGroupsRequest", "TypesFilter", 2)


def _encode_list_groups_request_v3(m: ListGroupsRequest, out: bytearray) -> None:
    if len(m.states_filter) > 0:
        raise version_error("ListGroupsRequest", "StatesFilter", 3)
    if len(m.types_filter) > 0:
        raise version_error("ListGroupsRequest", "TypesFilter", 3)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_groups_request_v4(m: ListGroupsRequest, out: bytearray) -> None:
    if len(m.types_filter) > 0:
        raise version_error("ListGroupsRequest", "TypesFilter", 4)
    write_uvarint(out, len(m.states_filter) + 1)
    for e_states_filter in m.states_filter:
        write_compact_string(out, e_states_filter)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_groups_request_v5(m: ListGroupsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.states_filter) + 1)
    for e_states_filter in m.states_filter:
        write_compact_string(out, e_states_filter)
    write_uvarint(out, len(m.types_filter) + 1)
    for e_types_filter in m.types_filter:
        write_compact_string(out, e_types_filter)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListGroupsRequest, int]]] = {
    0: _decode_list_groups_request_v0,
    1: _decode_list_groups_request_v0,
    2: _decode_list_groups_request_v0,
    3: _decode_list_groups_request_v3,
    4: _decode_list_groups_request_v4,
    5: _decode_list_groups_request_v5,
}
_ENCODERS: dict[int, Callable[[ListGroupsRequest, bytearray], None]] = {
    0: _encode_list_groups_request_v0,
    1: _encode_list_groups_request_v1,
    2: _encode_list_groups_request_v2,
    3: _encode_list_groups_request_v3,
    4: _encode_list_groups_request_v4,
    5: _encode_list_groups_request_v5,
}
