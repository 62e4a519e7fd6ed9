"""CreateAclsRequest: generated from Kafka 3.9.2 and 4.4.0's CreateAclsRequest.json by
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

__all__ = ["CreateAclsRequest", "AclCreation"]

_S0 = Struct(">b")
_S1 = Struct(">bb")


@dataclass(slots=True)
class AclCreation:
    """The ACLs that we want to create."""

    resource_type: int = 0
    # versions 0+. The type of the resource.
    resource_name: str = ''
    # versions 0+. The resource name for the ACL.
    resource_pattern_type: int = 3
    # versions 1+. The pattern type for the ACL.
    principal: str = ''
    # versions 0+. The principal for the ACL.
    host: str = ''
    # versions 0+. The host for the ACL.
    operation: int = 0
    # versions 0+. The operation type for the ACL (read, write, etc.).
    permission_type: int = 0
    # versions 0+. The permission type for the ACL (allow, deny, etc.).
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreateAclsRequest(ApiMessage):
    """CreateAclsRequest request"""

    API_KEY: ClassVar[int] = 30
    NAME: ClassVar[str] = "CreateAclsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    creations: list[AclCreation] = field(default_factory=list)
    # versions 0+. The ACLs that we want to create.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateAclsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreateAclsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateAclsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreateAclsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreateAclsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_acl_creation_v0(buf: memoryview, pos: int) -> tuple[AclCreation, int]:
    f_resource_name: str
    f_principal: str
    f_host: str
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    f_principal, pos = read_string(buf, pos, "principal")
    f_host, pos = read_string(buf, pos, "host")
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    return AclCreation(f_resource_type, f_resource_name, 3, f_principal, f_host, f_operation, f_permission_type, []), pos


def _decode_create_acls_request_v0(buf: memoryview, pos: int) -> tuple[CreateAclsRequest, int]:
    f_creations: list[AclCreation]
    n_creations, pos = read_array_length(buf, pos)
    if n_creations < 0:
        raise null_field("creations")
    else:
        f_creations = []
        for _ in range(n_creations):
            e_creations, pos = _decode_acl_creation_v0(buf, pos)
            f_creations.append(e_creations)
    return CreateAclsRequest(f_creations, []), pos


def _decode_acl_creation_v1(buf: memoryview, pos: int) -> tuple[AclCreation, int]:
    f_resource_name: str
    f_principal: str
    f_host: str
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    f_resource_pattern_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_principal, pos = read_string(buf, pos, "principal")
    f_host, pos = read_string(buf, pos, "host")
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    return AclCreation(f_resource_type, f_resource_name, f_resource_pattern_type, f_principal, f_host, f_operation, f_permission_type, []), pos


def _decode_create_acls_request_v1(buf: memoryview, pos: int) -> tuple[CreateAclsRequest, int]:
    f_creations: list[AclCreation]
    n_creations, pos = read_array_length(buf, pos)
    if n_creations < 0:
        raise null_field("creations")
    else:
        f_creations = []
        for _ in range(n_creations):
            e_creations, pos = _decode_acl_creation_v1(buf, pos)
            f_creations.append(e_creations)
    return CreateAclsRequest(f_creations, []), pos


def _decode_acl_creation_v2(buf: memoryview, pos: int) -> tuple[AclCreation, int]:
    f_resource_name: str
    f_principal: str
    f_host: str
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    f_resource_pattern_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_principal, pos = read_compact_string(buf, pos, "principal")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_operation, f_permission_type = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AclCreation(f_resource_type, f_resource_name, f_resource_pattern_type, f_principal, f_host, f_operation, f_permission_type, _unknown), pos


def _decode_create_acls_request_v2(buf: memoryview, pos: int) -> tuple[CreateAclsRequest, int]:
    f_creations: list[AclCreation]
    n_creations, pos = read_compact_array_length(buf, pos)
    if n_creations < 0:
        raise null_field("creations")
    else:
        f_creations = []
        for _ in range(n_creations):
            e_creations, pos = _decode_acl_creation_v2(buf, pos)
            f_creations.append(e_creations)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateAclsRequest(f_creations, _unknown), pos


def _encode_acl_creation_v0(m: AclCreation, out: bytearray) -> None:
    if m.resource_pattern_type != 3:
        raise version_error("AclCreation", "ResourcePatternType", 0)
    out += _S0.pack(m.resource_type)
    write_string(out, m.resource_name)
    write_string(out, m.principal)
    write_string(out, m.host)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_create_acls_request_v0(m: CreateAclsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.creations))
    for e_creations in m.creations:
        _encode_acl_creation_v0(e_creations, out)


def _encode_acl_creation_v1(m: AclCreation, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += _S0.pack(m.resource_pattern_type)
    write_string(out, m.principal)
    write_string(out, m.host)
    out += _S1.pack(m.operation, m.permission_type)


def _encode_create_acls_request_v1(m: CreateAclsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.creations))
    for e_creations in m.creations:
        _encode_acl_creation_v1(e_creations, out)


def _encode_acl_creation_v2(m: AclCreation, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    out += _S0.pack(m.resource_pattern_type)
    write_compact_string(out, m.principal)
    write_compact_string(out, m.host)
    out += _S1.pack(m.operation, m.permission_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_acls_request_v2(m: CreateAclsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.creations) + 1)
    for e_creations in m.creations:
        _encode_acl_creation_v2(e_creations, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreateAclsRequest, int]]] = {
    0: _decode_create_acls_request_v0,
    1: _decode_create_acls_request_v1,
    2: _decode_create_acls_request_v2,
    3: _decode_create_acls_request_v2,
}
_ENCODERS: dict[int, Callable[[CreateAclsRequest, bytearray], None]] = {
    0: _encode_create_acls_request_v0,
    1: _encode_create_acls_request_v1,
    2: _encode_create_acls_request_v2,
    3: _encode_create_acls_request_v2,
}
