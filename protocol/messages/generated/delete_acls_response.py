"""DeleteAclsResponse: generated from Kafka 3.9.2 and 4.4.0's DeleteAclsResponse.json by
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

__all__ = ["DeleteAclsResponse", "DeleteAclsFilterResult", "DeleteAclsMatchingAcl"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">b")
_S3 = Struct(">bb")


@dataclass(slots=True)
class DeleteAclsMatchingAcl:
    """The ACLs which matched this filter."""

    error_code: int = 0
    # versions 0+. The deletion error code, or 0 if the deletion succeeded.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The deletion error message, or null if the deletion succeeded.
    resource_type: int = 0
    # versions 0+. The ACL resource type.
    resource_name: str = ''
    # versions 0+. The ACL resource name.
    pattern_type: int = 3
    # versions 1+. The ACL resource pattern type.
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
class DeleteAclsFilterResult:
    """The results for each filter."""

    error_code: int = 0
    # versions 0+. The error code, or 0 if the filter succeeded.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or null if the filter succeeded.
    matching_acls: list[DeleteAclsMatchingAcl] = field(default_factory=list)
    # versions 0+. The ACLs which matched this filter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteAclsResponse(ApiMessage):
    """DeleteAclsResponse response"""

    API_KEY: ClassVar[int] = 31
    NAME: ClassVar[str] = "DeleteAclsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    filter_results: list[DeleteAclsFilterResult] = field(default_factory=list)
    # versions 0+. The results for each filter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteAclsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteAclsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteAclsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteAclsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteAclsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_acls_matching_acl_v0(buf: memoryview, pos: int) -> tuple[DeleteAclsMatchingAcl, int]:
    f_error_message: str | None
    f_resource_name: str
    f_principal: str
    f_host: str
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    f_principal, pos = read_string(buf, pos, "principal")
    f_host, pos = read_string(buf, pos, "host")
    f_operation, f_permission_type = _S3.unpack_from(buf, pos)
    pos += 2
    return DeleteAclsMatchingAcl(f_error_code, f_error_message, f_resource_type, f_resource_name, 3, f_principal, f_host, f_operation, f_permission_type, []), pos


def _decode_delete_acls_filter_result_v0(buf: memoryview, pos: int) -> tuple[DeleteAclsFilterResult, int]:
    f_error_message: str | None
    f_matching_acls: list[DeleteAclsMatchingAcl]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    n_matching_acls, pos = read_array_length(buf, pos)
    if n_matching_acls < 0:
        raise null_field("matchingAcls")
    else:
        f_matching_acls = []
        for _ in range(n_matching_acls):
            e_matching_acls, pos = _decode_delete_acls_matching_acl_v0(buf, pos)
            f_matching_acls.append(e_matching_acls)
    return DeleteAclsFilterResult(f_error_code, f_error_message, f_matching_acls, []), pos


def _decode_delete_acls_response_v0(buf: memoryview, pos: int) -> tuple[DeleteAclsResponse, int]:
    f_filter_results: list[DeleteAclsFilterResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_filter_results, pos = read_array_length(buf, pos)
    if n_filter_results < 0:
        raise null_field("filterResults")
    else:
        f_filter_results = []
        for _ in range(n_filter_results):
            e_filter_results, pos = _decode_delete_acls_filter_result_v0(buf, pos)
            f_filter_results.append(e_filter_results)
    return DeleteAclsResponse(f_throttle_time_ms, f_filter_results, []), pos


def _decode_delete_acls_matching_acl_v1(buf: memoryview, pos: int) -> tuple[DeleteAclsMatchingAcl, int]:
    f_error_message: str | None
    f_resource_name: str
    f_principal: str
    f_host: str
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    f_pattern_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_principal, pos = read_string(buf, pos, "principal")
    f_host, pos = read_string(buf, pos, "host")
    f_operation, f_permission_type = _S3.unpack_from(buf, pos)
    pos += 2
    return DeleteAclsMatchingAcl(f_error_code, f_error_message, f_resource_type, f_resource_name, f_pattern_type, f_principal, f_host, f_operation, f_permission_type, []), pos


def _decode_delete_acls_filter_result_v1(buf: memoryview, pos: int) -> tuple[DeleteAclsFilterResult, int]:
    f_error_message: str | None
    f_matching_acls: list[DeleteAclsMatchingAcl]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    n_matching_acls, pos = read_array_length(buf, pos)
    if n_matching_acls < 0:
        raise null_field("matchingAcls")
    else:
        f_matching_acls = []
        for _ in range(n_matching_acls):
            e_matching_acls, pos = _decode_delete_acls_matching_acl_v1(buf, pos)
            f_matching_acls.append(e_matching_acls)
    return DeleteAclsFilterResult(f_error_code, f_error_message, f_matching_acls, []), pos


def _decode_delete_acls_response_v1(buf: memoryview, pos: int) -> tuple[DeleteAclsResponse, int]:
    f_filter_results: list[DeleteAclsFilterResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_filter_results, pos = read_array_length(buf, pos)
    if n_filter_results < 0:
        raise null_field("filterResults")
    else:
        f_filter_results = []
        for _ in range(n_filter_results):
            e_filter_results, pos = _decode_delete_acls_filter_result_v1(buf, pos)
            f_filter_results.append(e_filter_results)
    return DeleteAclsResponse(f_throttle_time_ms, f_filter_results, []), pos


def _decode_delete_acls_matching_acl_v2(buf: memoryview, pos: int) -> tuple[DeleteAclsMatchingAcl, int]:
    f_error_message: str | None
    f_resource_name: str
    f_principal: str
    f_host: str
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    f_pattern_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_principal, pos = read_compact_string(buf, pos, "principal")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_operation, f_permission_type = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteAclsMatchingAcl(f_error_code, f_error_message, f_resource_type, f_resource_name, f_pattern_type, f_principal, f_host, f_operation, f_permission_type, _unknown), pos


def _decode_delete_acls_filter_result_v2(buf: memoryview, pos: int) -> tuple[DeleteAclsFilterResult, int]:
    f_error_message: str | None
    f_matching_acls: list[DeleteAclsMatchingAcl]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_matching_acls, pos = read_compact_array_length(buf, pos)
    if n_matching_acls < 0:
        raise null_field("matchingAcls")
    else:
        f_matching_acls = []
        for _ in range(n_matching_acls):
            e_matching_acls, pos = _decode_delete_acls_matching_acl_v2(buf, pos)
            f_matching_acls.append(e_matching_acls)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteAclsFilterResult(f_error_code, f_error_message, f_matching_acls, _unknown), pos


def _decode_delete_acls_response_v2(buf: memoryview, pos: int) -> tuple[DeleteAclsResponse, int]:
    f_filter_results: list[DeleteAclsFilterResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_filter_results, pos = read_compact_array_length(buf, pos)
    if n_filter_results < 0:
        raise null_field("filterResults")
    else:
        f_filter_results = []
        for _ in range(n_filter_results):
            e_filter_results, pos = _decode_delete_acls_filter_result_v2(buf, pos)
            f_filter_results.append(e_filter_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteAclsResponse(f_throttle_time_ms, f_filter_results, _unknown), pos


def _encode_delete_acls_matching_acl_v0(m: DeleteAclsMatchingAcl, out: bytearray) -> None:
    if m.pattern_type != 3:
        raise version_error("DeleteAclsMatchingAcl", "PatternType", 0)
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    write_string(out, m.principal)
    write_string(out, m.host)
    out += _S3.pack(m.operation, m.permission_type)


def _encode_delete_acls_filter_result_v0(m: DeleteAclsFilterResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += pack_int32(len(m.matching_acls))
    for e_matching_acls in m.matching_acls:
        _encode_delete_acls_matching_acl_v0(e_matching_acls, out)


def _encode_delete_acls_response_v0(m: DeleteAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.filter_results))
    for e_filter_results in m.filter_results:
        _encode_delete_acls_filter_result_v0(e_filter_results, out)


def _encode_delete_acls_matching_acl_v1(m: DeleteAclsMatchingAcl, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += _S2.pack(m.pattern_type)
    write_string(out, m.principal)
    write_string(out, m.host)
    out += _S3.pack(m.operation, m.permission_type)


def _encode_delete_acls_filter_result_v1(m: DeleteAclsFilterResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += pack_int32(len(m.matching_acls))
    for e_matching_acls in m.matching_acls:
        _encode_delete_acls_matching_acl_v1(e_matching_acls, out)


def _encode_delete_acls_response_v1(m: DeleteAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.filter_results))
    for e_filter_results in m.filter_results:
        _encode_delete_acls_filter_result_v1(e_filter_results, out)


def _encode_delete_acls_matching_acl_v2(m: DeleteAclsMatchingAcl, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    out += _S2.pack(m.pattern_type)
    write_compact_string(out, m.principal)
    write_compact_string(out, m.host)
    out += _S3.pack(m.operation, m.permission_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_acls_filter_result_v2(m: DeleteAclsFilterResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.matching_acls) + 1)
    for e_matching_acls in m.matching_acls:
        _encode_delete_acls_matching_acl_v2(e_matching_acls, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_acls_response_v2(m: DeleteAclsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.filter_results) + 1)
    for e_filter_results in m.filter_results:
        _encode_delete_acls_filter_result_v2(e_filter_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteAclsResponse, int]]] = {
    0: _decode_delete_acls_response_v0,
    1: _decode_delete_acls_response_v1,
    2: _decode_delete_acls_response_v2,
    3: _decode_delete_acls_response_v2,
}
_ENCODERS: dict[int, Callable[[DeleteAclsResponse, bytearray], None]] = {
    0: _encode_delete_acls_response_v0,
    1: _encode_delete_acls_response_v1,
    2: _encode_delete_acls_response_v2,
    3: _encode_delete_acls_response_v2,
}
