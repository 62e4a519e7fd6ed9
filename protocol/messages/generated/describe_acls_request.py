"""DescribeAclsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeAclsRequest.json by
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
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = ["DescribeAclsRequest"]

_S0 = Struct(">b")
_S1 = Struct(">bb")


@dataclass(slots=True)
class DescribeAclsRequest(ApiMessage):
    """DescribeAclsRequest request"""

    API_KEY: ClassVar[int] = 29
    NAME: ClassVar[str] = "DescribeAclsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    resource_type_filter: int = 0
    # versions 0+. The resource type.
    resource_name_filter: str | None = ''
    # versions 0+; nullable 0+. The resource name, or null to match any resource name.
    pattern_type_filter: int = 3
    # versions 1+. The resource pattern to match.
    principal_filter: str | None = ''
    # versions 0+; nullable 0+. The principal to match, or null to match any principal.
    host_filter: str | None = ''
    # versions 0+; nullable 0+. The host to match, or null to match any host.
    operation: int = 0
    # versions 0+. The operation to match.
    permission_type: int = 0
    # versions 0+. The permission type to match.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeAclsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeAclsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeAclsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeAclsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeAclsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_acls_request_v0(buf: memoryview, pos: int) -> tuple[DescribeAclsRequest, int]:
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
    return DescribeAclsRequest(f_resource_type_filter, f_resource_name_filter, 3, f_principal_filter, f_host_filter, f_operation, f_permission_type, []), pos


def _decode_describe_acls_request_v1(buf: memoryview, pos: int) -> tuple[DescribeAclsRequest, int]:
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
    return DescribeAclsRequest(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, []), pos


def _decode_describe_acls_request_v2(buf: memoryview, pos: int) -> tuple[DescribeAclsRequest, int]:
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
    return DescribeAclsRequest(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, _unknown), pos


def _encode_describe_acls_request_v0(m: DescribeAclsRequest, out: bytearray) -> None:
    if m.pattern_type_filter != 3:
        raise version_error("DescribeAclsRequest", "PatternTypeFilter", 0)
    out += _S0.pack(m.resource_type_filter)
    write_nullable_string(out, m.resource_name_filter)
    write_nullable_string(out, m.principal_filter)
    write_nullable_string(out, m.host_filter)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_describe_acls_request_v1(m: DescribeAclsRequest, out: bytearray) -> None:
    out += _S0.pack(m.resource_type_filter)
    write_nullable_string(out, m.resource_name_filter)
    out += _S0.pack(m.pattern_type_filter)
    write_nullable_string(out, m.principal_filter)
    write_nullable_string(out, m.host_filter)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_describe_acls_request_v2(m: DescribeAclsRequest, out: bytearray) -> None:
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


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeAclsRequest, int]]] = {
    0: _decode_describe_acls_request_v0,
    1: _decode_describe_acls_request_v1,
    2: _decode_describe_acls_request_v2,
    3: _decode_describe_acls_request_v2,
}
_ENCODERS: dict[int, Callable[[DescribeAclsRequest, bytearray], None]] = {
    0: _encode_describe_acls_request_v0,
    1: _encode_describe_acls_request_v1,
    2: _encode_describe_acls_request_v2,
    3: _encode_describe_acls_request_v2,
}
