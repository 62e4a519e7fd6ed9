"""DeleteGroupsRequest: generated from Kafka 3.9.2 and 4.4.0's DeleteGroupsRequest.json by
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
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteGroupsRequest"]



@dataclass(slots=True)
class DeleteGroupsRequest(ApiMessage):
    """DeleteGroupsRequest request"""

    API_KEY: ClassVar[int] = 42
    NAME: ClassVar[str] = "DeleteGroupsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    groups_names: list[str] = field(default_factory=list)
    # versions 0+; entity groupId. The group names to delete.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteGroupsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteGroupsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteGroupsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteGroupsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteGroupsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_groups_request_v0(buf: memoryview, pos: int) -> tuple[DeleteGroupsRequest, int]:
    f_groups_names: list[str]
    n_groups_names, pos = read_array_length(buf, pos)
    if n_groups_names < 0:
        raise null_field("groupsNames")
    else:
        f_groups_names = []
        for _ in range(n_groups_names):
            e_groups_names, pos = read_string(buf, pos, "groupsNames element")
            f_groups_names.append(e_groups_names)
    return DeleteGroupsRequest(f_groups_names, []), pos


def _decode_delete_groups_request_v2(buf: memoryview, pos: int) -> tuple[DeleteGroupsRequest, int]:
    f_groups_names: list[str]
    n_groups_names, pos = read_compact_array_length(buf, pos)
    if n_groups_names < 0:
        raise null_field("groupsNames")
    else:
        f_groups_names = []
        for _ in range(n_groups_names):
            e_groups_names, pos = read_compact_string(buf, pos, "groupsNames element")
            f_groups_names.append(e_groups_names)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteGroupsRequest(f_groups_names, _unknown), pos


def _encode_delete_groups_request_v0(m: DeleteGroupsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.groups_names))
    for e_groups_names in m.groups_names:
        write_string(out, e_groups_names)


def _encode_delete_groups_request_v2(m: DeleteGroupsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.groups_names) + 1)
    for e_groups_names in m.groups_names:
        write_compact_string(out, e_groups_names)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteGroupsRequest, int]]] = {
    0: _decode_delete_groups_request_v0,
    1: _decode_delete_groups_request_v0,
    2: _decode_delete_groups_request_v2,
    3: _decode_delete_groups_request_v2,
}
_ENCODERS: dict[int, Callable[[DeleteGroupsRequest, bytearray], None]] = {
    0: _encode_delete_groups_request_v0,
    1: _encode_delete_groups_request_v0,
    2: _encode_delete_groups_request_v2,
    3: _encode_delete_groups_request_v2,
}
