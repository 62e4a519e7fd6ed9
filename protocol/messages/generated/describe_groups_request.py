"""DescribeGroupsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeGroupsRequest.json by
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
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeGroupsRequest"]

_S0 = Struct(">?")


@dataclass(slots=True)
class DescribeGroupsRequest(ApiMessage):
    """DescribeGroupsRequest request"""

    API_KEY: ClassVar[int] = 15
    NAME: ClassVar[str] = "DescribeGroupsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 5

    groups: list[str] = field(default_factory=list)
    # versions 0+; entity groupId. The names of the groups to describe.
    include_authorized_operations: bool = False
    # versions 3+. Whether to include authorized operations.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeGroupsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeGroupsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeGroupsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeGroupsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeGroupsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_groups_request_v0(buf: memoryview, pos: int) -> tuple[DescribeGroupsRequest, int]:
    f_groups: list[str]
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = read_string(buf, pos, "groups element")
            f_groups.append(e_groups)
    return DescribeGroupsRequest(f_groups, False, []), pos


def _decode_describe_groups_request_v3(buf: memoryview, pos: int) -> tuple[DescribeGroupsRequest, int]:
    f_groups: list[str]
    n_groups, pos = read_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = read_string(buf, pos, "groups element")
            f_groups.append(e_groups)
    f_include_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 1
    return DescribeGroupsRequest(f_groups, f_include_authorized_operations, []), pos


def _decode_describe_groups_request_v5(buf: memoryview, pos: int) -> tuple[DescribeGroupsRequest, int]:
    f_groups: list[str]
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = read_compact_string(buf, pos, "groups element")
            f_groups.append(e_groups)
    f_include_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeGroupsRequest(f_groups, f_include_authorized_operations, _unknown), pos


def _encode_describe_groups_request_v0(m: DescribeGroupsRequest, out: bytearray) -> None:
    if m.include_authorized_operations:
        raise version_error("DescribeGroupsRequest", "IncludeAuthorizedOperations", 0)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        write_string(out, e_groups)


def _encode_describe_groups_request_v1(m: DescribeGroupsRequest, out: bytearray) -> None:
    if m.include_authorized_operations:
        raise version_error("DescribeGroupsRequest", "IncludeAuthorizedOperations", 1)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        write_string(out, e_groups)


def _encode_describe_groups_request_v2(m: DescribeGroupsRequest, out: bytearray) -> None:
    if m.include_authorized_operations:
        raise version_error("DescribeGroupsRequest", "IncludeAuthorizedOperations", 2)
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        write_string(out, e_groups)


def _encode_describe_groups_request_v3(m: DescribeGroupsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.groups))
    for e_groups in m.groups:
        write_string(out, e_groups)
    out += _S0.pack(m.include_authorized_operations)


def _encode_describe_groups_request_v5(m: DescribeGroupsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        write_compact_string(out, e_groups)
    out += _S0.pack(m.include_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeGroupsRequest, int]]] = {
    0: _decode_describe_groups_request_v0,
    1: _decode_describe_groups_request_v0,
    2: _decode_describe_groups_request_v0,
    3: _decode_describe_groups_request_v3,
    4: _decode_describe_groups_request_v3,
    5: _decode_describe_groups_request_v5,
    6: _decode_describe_groups_request_v5,
}
_ENCODERS: dict[int, Callable[[DescribeGroupsRequest, bytearray], None]] = {
    0: _encode_describe_groups_request_v0,
    1: _encode_describe_groups_request_v1,
    2: _encode_describe_groups_request_v2,
    3: _encode_describe_groups_request_v3,
    4: _encode_describe_groups_request_v3,
    5: _encode_describe_groups_request_v5,
    6: _encode_describe_groups_request_v5,
}
