"""DescribeAclsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeAclsResponse.json by
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

__all__ = ["DescribeAclsResponse", "DescribeAclsResource", "AclDescription"]

_S0 = Struct(">ih")
_S1 = Struct(">b")
_S2 = Struct(">bb")


@dataclass(slots=True)
class AclDescription:
    """The ACLs."""

    principal: str = ''
    # versions 0+. The ACL principal.
    host: str = ''
    # versions 0+. The ACL host.
    operation: int = 0
    # versions 0+. The ACL operation.
    permission_type: int = 0
    # versions 0+. The ACL permission type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeAclsResource:
    """Each Resource that is referenced in an ACL."""

    resource_type: int = 0
    # versions 0+. The resource type.
    resource_name: str = ''
    # versions 0+. The resource name.
    pattern_type: int = 3
    # versions 1+. The resource pattern type.
    acls: list[AclDescription] = field(default_factory=list)
    # versions 0+. The ACLs.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeAclsResponse(ApiMessage):
    """DescribeAclsResponse response"""

    API_KEY: ClassVar[int] = 29
    NAME: ClassVar[str] = "DescribeAclsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or null if there was no error.
    resources: list[DescribeAclsResource] = field(default_factory=list)
    # versions 0+. Each Resource that is referenced in an ACL.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeAclsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeAclsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeAclsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeAclsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeAclsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_acl_description_v0(buf: memoryview, pos: int) -> tuple[AclDescription, int]:
    f_principal: str
    f_host: str
    f_principal, pos = read_string(buf, pos, "principal")
    f_host, pos = read_string(buf, pos, "host")
    f_operation, f_permission_type = _S2.unpack_from(buf, pos)
    pos += 2
    return AclDescription(f_principal, f_host, f_operation, f_permission_type, []), pos


def _decode_describe_acls_resource_v0(buf: memoryview, pos: int) -> tuple[DescribeAclsResource, int]:
    f_resource_name: str
    f_acls: list[AclDescription]
    f_resource_type, = _S1.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_acls, pos = read_array_length(buf, pos)
    if n_acls < 0:
        raise null_field("acls")
    else:
        f_acls = []
        for _ in range(n_acls):
            e_acls, pos = _decode_acl_description_v0(buf, pos)
            f_acls.append(e_acls)
    return DescribeAclsResource(f_resource_type, f_resource_name, 3, f_acls, []), pos


def _decode_describe_acls_response_v0(buf: memoryview, pos: int) -> tuple[DescribeAclsResponse, int]:
    f_error_message: str | None
    f_resources: list[DescribeAclsResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_acls_resource_v0(buf, pos)
            f_resources.append(e_resources)
    return DescribeAclsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_resources, []), pos


def _decode_describe_acls_resource_v1(buf: memoryview, pos: int) -> tuple[DescribeAclsResource, int]:
    f_resource_name: str
    f_acls: list[AclDescription]
    f_resource_type, = _S1.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    f_pattern_type, = _S1.unpack_from(buf, pos)
    pos += 1
    n_acls, pos = read_array_length(buf, pos)
    if n_acls < 0:
        raise null_field("acls")
    else:
        f_acls = []
        for _ in range(n_acls):
            e_acls, pos = _decode_acl_description_v0(buf, pos)
            f_acls.append(e_acls)
    return DescribeAclsResource(f_resource_type, f_resource_name, f_pattern_type, f_acls, []), pos


def _decode_describe_acls_response_v1(buf: memoryview, pos: int) -> tuple[DescribeAclsResponse, int]:
    f_error_message: str | None
    f_resources: list[DescribeAclsResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_acls_resource_v1(buf, pos)
            f_resources.append(e_resources)
    return DescribeAclsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_resources, []), pos


def _decode_acl_description_v2(buf: memoryview, pos: int) -> tuple[AclDescription, int]:
    f_principal: str
    f_host: str
    f_principal, pos = read_compact_string(buf, pos, "principal")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_operation, f_permission_type = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AclDescription(f_principal, f_host, f_operation, f_permission_type, _unknown), pos


def _decode_describe_acls_resource_v2(buf: memoryview, pos: int) -> tuple[DescribeAclsResource, int]:
    f_resource_name: str
    f_acls: list[AclDescription]
    f_resource_type, = _S1.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    f_pattern_type, = _S1.unpack_from(buf, pos)
    pos += 1
    n_acls, pos = read_compact_array_length(buf, pos)
    if n_acls < 0:
        raise null_field("acls")
    else:
        f_acls = []
        for _ in range(n_acls):
            e_acls, pos = _decode_acl_description_v2(buf, pos)
            f_acls.append(e_acls)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeAclsResource(f_resource_type, f_resource_name, f_pattern_type, f_acls, _unknown), pos


def _decode_describe_acls_response_v2(buf: memoryview, pos: int) -> tuple[DescribeAclsResponse, int]:
    f_error_message: str | None
    f_resources: list[DescribeAclsResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_resources, pos = read_compact_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_acls_resource_v2(buf, pos)
            f_resources.append(e_resources)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeAclsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_resources, _unknown), pos


def _encode_acl_description_v0(m: AclDescription, out: bytearray) -> None:
    write_string(out, m.principal)
    write_string(out, m.host)
    out += _S2.pack(m.operation, m.permission_type)


def _encode_describe_acls_resource_v0(m: DescribeAclsResource, out: bytearray) -> None:
    if m.pattern_type != 3:
        raise version_error("DescribeAclsResource", "PatternType", 0)
    out += _S1.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.acls))
    for e_acls in m.acls:
        _encode_acl_description_v0(e_acls, out)


def _encode_describe_acls_response_v0(m: DescribeAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_nullable_string(out, m.error_message)
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_acls_resource_v0(e_resources, out)


def _encode_describe_acls_resource_v1(m: DescribeAclsResource, out: bytearray) -> None:
    out += _S1.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += _S1.pack(m.pattern_type)
    out += pack_int32(len(m.acls))
    for e_acls in m.acls:
        _encode_acl_description_v0(e_acls, out)


def _encode_describe_acls_response_v1(m: DescribeAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_nullable_string(out, m.error_message)
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_acls_resource_v1(e_resources, out)


def _encode_acl_description_v2(m: AclDescription, out: bytearray) -> None:
    write_compact_string(out, m.principal)
    write_compact_string(out, m.host)
    out += _S2.pack(m.operation, m.permission_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_acls_resource_v2(m: DescribeAclsResource, out: bytearray) -> None:
    out += _S1.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    out += _S1.pack(m.pattern_type)
    write_uvarint(out, len(m.acls) + 1)
    for e_acls in m.acls:
        _encode_acl_description_v2(e_acls, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_acls_response_v2(m: DescribeAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.resources) + 1)
    for e_resources in m.resources:
        _encode_describe_acls_resource_v2(e_resources, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeAclsResponse, int]]] = {
    0: _decode_describe_acls_response_v0,
    1: _decode_describe_acls_response_v1,
    2: _decode_describe_acls_response_v2,
    3: _decode_describe_acls_response_v2,
}
_ENCODERS: dict[int, Callable[[DescribeAclsResponse, bytearray], None]] = {
    0: _encode_describe_acls_response_v0,
    1: _encode_describe_acls_response_v1,
    2: _encode_describe_acls_response_v2,
    3: _encode_describe_acls_response_v2,
}
