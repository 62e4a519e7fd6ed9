"""DeleteAclsRequest: generated from Kafka 3.9.2 and 4.4.0's DeleteAclsRequest.json by
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
    read_nullable_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DeleteAclsRequest", "DeleteAclsFilter"]

_S0 = Struct(">b")
_S1 = Struct(">bb")


@dataclass(slots=True)
class DeleteAclsFilter:
    """The filters to use when deleting ACLs."""

    resource_type_filter: int = 0
    # versions 0+. The resource type.
    resource_name_filter: str | None = ''
    # versions 0+; nullable 0+. The resource name, or null to match any resource name.
    pattern_type_filter: int = 3
    # versions 1+. The pattern type.
    principal_filter: str | None = ''
    # versions 0+; nullable 0+. The principal filter, or null to accept all principals.
    host_filter: str | None = ''
    # versions 0+; nullable 0+. The host filter, or null to accept all hosts.
    operation: int = 0
    # versions 0+. The ACL operation.
    permission_type: int = 0
    # versions 0+. The permission type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteAclsRequest(ApiMessage):
    """DeleteAclsRequest request"""

    API_KEY: ClassVar[int] = 31
    NAME: ClassVar[str] = "DeleteAclsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    filters: list[DeleteAclsFilter] = field(default_factory=list)
    # versions 0+. The filters to use when deleting ACLs.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteAclsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteAclsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteAclsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteAclsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteAclsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_acls_filter_v0(buf: memoryview, pos: int) -> tuple[DeleteAclsFilter, int]:
    f_resource_name_filter: str | None
    f_principal_filter: str | None
    f_host_filter: str | None
    f_resource_type_filter, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name_filter, pos = read_nullable_string(buf, pos)
    f_principal_filter, pos = read_nullable_string(buf, pos)
    f_host_filter, pos = read_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    return DeleteAclsFilter(f_resource_type_filter, f_resource_name_filter, 3, f_principal_filter, f_host_filter, f_operation, f_permission_type, []), pos


def _decode_delete_acls_request_v0(buf: memoryview, pos: int) -> tuple[DeleteAclsRequest, int]:
    f_filters: list[DeleteAclsFilter]
    n_filters, pos = read_array_length(buf, pos)
    if n_filters < 0:
        raise null_field("filters")
    else:
        f_filters = []
        for _ in range(n_filters):
            e_filters, pos = _decode_delete_acls_filter_v0(buf, pos)
            f_filters.append(e_filters)
    return DeleteAclsRequest(f_filters, []), pos


def _decode_delete_acls_filter_v1(buf: memoryview, pos: int) -> tuple[DeleteAclsFilter, int]:
    f_resource_name_filter: str | None
    f_principal_filter: str | None
    f_host_filter: str | None
    f_resource_type_filter, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name_filter, pos = read_nullable_string(buf, pos)
    f_pattern_type_filter, = _S0.unpack_from(buf, pos)
    pos += 1
    f_principal_filter, pos = read_nullable_string(buf, pos)
    f_host_filter, pos = read_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    return DeleteAclsFilter(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, []), pos


def _decode_delete_acls_request_v1(buf: memoryview, pos: int) -> tuple[DeleteAclsRequest, int]:
    f_filters: list[DeleteAclsFilter]
    n_filters, pos = read_array_length(buf, pos)
    if n_filters < 0:
        raise null_field("filters")
    else:
        f_filters = []
        for _ in range(n_filters):
            e_filters, pos = _decode_delete_acls_filter_v1(buf, pos)
            f_filters.append(e_filters)
    return DeleteAclsRequest(f_filters, []), pos


def _decode_delete_acls_filter_v2(buf: memoryview, pos: int) -> tuple[DeleteAclsFilter, int]:
    f_resource_name_filter: str | None
    f_principal_filter: str | None
    f_host_filter: str | None
    f_resource_type_filter, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name_filter, pos = read_compact_nullable_string(buf, pos)
    f_pattern_type_filter, = _S0.unpack_from(buf, pos)
    pos += 1
    f_principal_filter, pos = read_compact_nullable_string(buf, pos)
    f_host_filter, pos = read_compact_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteAclsFilter(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, _unknown), pos


def _decode_delete_acls_request_v2(buf: memoryview, pos: int) -> tuple[DeleteAclsRequest, int]:
    f_filters: list[DeleteAclsFilter]
    n_filters, pos = read_compact_array_length(buf, pos)
    if n_filters < 0:
        raise null_field("filters")
    else:
        f_filters = []
        for _ in range(n_filters):
            e_filters, pos = _decode_delete_acls_filter_v2(buf, pos)
            f_filters.append(e_filters)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteAclsRequest(f_filters, _unknown), pos


def _encode_delete_acls_filter_v0(m: DeleteAclsFilter, out: bytearray) -> None:
    if m.pattern_type_filter != 3:
        raise version_error("DeleteAclsFilter", "PatternTypeFilter", 0)
    out += _S0.pack(m.resource_type_filter)
    write_nullable_string(out, m.resource_name_filter)
    write_nullable_string(out, m.principal_filter)
    write_nullable_string(out, m.host_filter)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_delete_acls_request_v0(m: DeleteAclsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.filters))
    for e_filters in m.filters:
        _encode_delete_acls_filter_v0(e_filters, out)


def _encode_delete_acls_filter_v1(m: DeleteAclsFilter, out: bytearray) -> None:
    out += _S0.pack(m.resource_type_filter)
    write_nullable_string(out, m.resource_name_filter)
    out += _S0.pack(m.pattern_type_filter)
    write_nullable_string(out, m.principal_filter)
    write_nullable_string(out, m.host_filter)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_delete_acls_request_v1(m: DeleteAclsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.filters))
    for e_filters in m.filters:
        _encode_delete_acls_filter_v1(e_filters, out)


def _encode_delete_acls_filter_v2(m: DeleteAclsFilter, out: bytearray) -> None:
    out += _S0.pack(m.resource_type_filter)
    write_compact_nullable_string(out, m.resource_name_filter)
    out += _S0.pack(m.pattern_type_filter)
    write_compact_nullable_string(out, m.principal_filter)
    write_compact_nullable_string(out, m.host_filter)
    out += _S1.pack(m.operation, m.permission_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_acls_request_v2(m: DeleteAclsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.filters) + 1)
    for e_filters in m.filters:
        _encode_delete_acls_filter_v2(e_filters, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteAclsRequest, int]]] = {
    0: _decode_delete_acls_request_v0,
    1: _decode_delete_acls_request_v1,
    2: _decode_delete_acls_request_v2,
    3: _decode_delete_acls_request_v2,
}
_ENCODERS: dict[int, Callable[[DeleteAclsRequest, bytearray], None]] = {
    0: _encode_delete_acls_request_v0,
    1: _encode_delete_acls_request_v1,
    2: _encode_delete_acls_request_v2,
    3: _encode_delete_acls_request_v2,
}
