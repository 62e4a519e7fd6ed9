"""DescribeConfigsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeConfigsRequest.json by
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

__all__ = ["DescribeConfigsRequest", "DescribeConfigsResource"]

_S0 = Struct(">b")
_S1 = Struct(">?")
_S2 = Struct(">??")


@dataclass(slots=True)
class DescribeConfigsResource:
    """The resources whose configurations we want to describe."""

    resource_type: int = 0
    # versions 0+. The resource type.
    resource_name: str = ''
    # versions 0+. The resource name.
    configuration_keys: list[str] | None = field(default_factory=list)
    # versions 0+; nullable 0+. The configuration keys to list, or null to list all configuration keys.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeConfigsRequest(ApiMessage):
    """DescribeConfigsRequest request"""

    API_KEY: ClassVar[int] = 32
    NAME: ClassVar[str] = "DescribeConfigsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    resources: list[DescribeConfigsResource] = field(default_factory=list)
    # versions 0+. The resources whose configurations we want to describe.
    include_synonyms: bool = False
    # versions 1+. True if we should include all synonyms.
    include_documentation: bool = False
    # versions 3+. True if we should include configuration documentation.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeConfigsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeConfigsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeConfigsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeConfigsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeConfigsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_configs_resource_v0(buf: memoryview, pos: int) -> tuple[DescribeConfigsResource, int]:
    f_resource_name: str
    f_configuration_keys: list[str] | None
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_configuration_keys, pos = read_array_length(buf, pos)
    if n_configuration_keys < 0:
        f_configuration_keys = None
    else:
        f_configuration_keys = []
        for _ in range(n_configuration_keys):
            e_configuration_keys, pos = read_string(buf, pos, "configurationKeys element")
            f_configuration_keys.append(e_configuration_keys)
    return DescribeConfigsResource(f_resource_type, f_resource_name, f_configuration_keys, []), pos


def _decode_describe_configs_request_v0(buf: memoryview, pos: int) -> tuple[DescribeConfigsRequest, int]:
    f_resources: list[DescribeConfigsResource]
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_configs_resource_v0(buf, pos)
            f_resources.append(e_resources)
    return DescribeConfigsRequest(f_resources, False, False, []), pos


def _decode_describe_configs_request_v1(buf: memoryview, pos: int) -> tuple[DescribeConfigsRequest, int]:
    f_resources: list[DescribeConfigsResource]
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_configs_resource_v0(buf, pos)
            f_resources.append(e_resources)
    f_include_synonyms, = _S1.unpack_from(buf, pos)
    pos += 1
    return DescribeConfigsRequest(f_resources, f_include_synonyms, False, []), pos


def _decode_describe_configs_request_v3(buf: memoryview, pos: int) -> tuple[DescribeConfigsRequest, int]:
    f_resources: list[DescribeConfigsResource]
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_configs_resource_v0(buf, pos)
            f_resources.append(e_resources)
    f_include_synonyms, f_include_documentation = _S2.unpack_from(buf, pos)
    pos += 2
    return DescribeConfigsRequest(f_resources, f_include_synonyms, f_include_documentation, []), pos


def _decode_describe_configs_resource_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsResource, int]:
    f_resource_name: str
    f_configuration_keys: list[str] | None
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    n_configuration_keys, pos = read_compact_array_length(buf, pos)
    if n_configuration_keys < 0:
        f_configuration_keys = None
    else:
        f_configuration_keys = []
        for _ in range(n_configuration_keys):
            e_configuration_keys, pos = read_compact_string(buf, pos, "configurationKeys element")
            f_configuration_keys.append(e_configuration_keys)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsResource(f_resource_type, f_resource_name, f_configuration_keys, _unknown), pos


def _decode_describe_configs_request_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsRequest, int]:
    f_resources: list[DescribeConfigsResource]
    n_resources, pos = read_compact_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_describe_configs_resource_v4(buf, pos)
            f_resources.append(e_resources)
    f_include_synonyms, f_include_documentation = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsRequest(f_resources, f_include_synonyms, f_include_documentation, _unknown), pos


def _encode_describe_configs_resource_v0(m: DescribeConfigsResource, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_string(out, m.resource_name)
    if m.configuration_keys is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.configuration_keys))
        for e_configuration_keys in m.configuration_keys:
            write_string(out, e_configuration_keys)


def _encode_describe_configs_request_v0(m: DescribeConfigsRequest, out: bytearray) -> None:
    if m.include_synonyms:
        raise version_error("DescribeConfigsRequest", "IncludeSynonyms", 0)
    if m.include_documentation:
        raise version_error("DescribeConfigsRequest", "IncludeDocumentation", 0)
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_configs_resource_v0(e_resources, out)


def _encode_describe_configs_request_v1(m: DescribeConfigsRequest, out: bytearray) -> None:
    if m.include_documentation:
        raise version_error("DescribeConfigsRequest", "IncludeDocumentation", 1)
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_configs_resource_v0(e_resources, out)
    out += _S1.pack(m.include_synonyms)


def _encode_describe_configs_request_v2(m: DescribeConfigsRequest, out: bytearray) -> None:
    if m.include_documentation:
        raise version_error("DescribeConfigsRequest", "IncludeDocumentation", 2)
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_configs_resource_v0(e_resources, out)
    out += _S1.pack(m.include_synonyms)


def _encode_describe_configs_request_v3(m: DescribeConfigsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_describe_configs_resource_v0(e_resources, out)
    out += _S2.pack(m.include_synonyms, m.include_documentation)


def _encode_describe_configs_resource_v4(m: DescribeConfigsResource, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    if m.configuration_keys is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.configuration_keys) + 1)
        for e_configuration_keys in m.configuration_keys:
            write_compact_string(out, e_configuration_keys)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_configs_request_v4(m: DescribeConfigsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.resources) + 1)
    for e_resources in m.resources:
        _encode_describe_configs_resource_v4(e_resources, out)
    out += _S2.pack(m.include_synonyms, m.include_documentation)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeConfigsRequest, int]]] = {
    0: _decode_describe_configs_request_v0,
    1: _decode_describe_configs_request_v1,
    2: _decode_describe_configs_request_v1,
    3: _decode_describe_configs_request_v3,
    4: _decode_describe_configs_request_v4,
}
_ENCODERS: dict[int, Callable[[DescribeConfigsRequest, bytearray], None]] = {
    0: _encode_describe_configs_request_v0,
    1: _encode_describe_configs_request_v1,
    2: _encode_describe_configs_request_v2,
    3: _encode_describe_configs_request_v3,
    4: _encode_describe_configs_request_v4,
}
