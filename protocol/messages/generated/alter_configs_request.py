"""AlterConfigsRequest: generated from Kafka 3.9.2 and 4.4.0's AlterConfigsRequest.json by
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
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterConfigsRequest", "AlterConfigsResource", "AlterableConfig"]

_S0 = Struct(">b")
_S1 = Struct(">?")


@dataclass(slots=True)
class AlterableConfig:
    """The configurations."""

    name: str = ''
    # versions 0+. The configuration key name.
    value: str | None = ''
    # versions 0+; nullable 0+. The value to set for the configuration key.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterConfigsResource:
    """The updates for each resource."""

    resource_type: int = 0
    # versions 0+. The resource type.
    resource_name: str = ''
    # versions 0+. The resource name.
    configs: list[AlterableConfig] = field(default_factory=list)
    # versions 0+. The configurations.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterConfigsRequest(ApiMessage):
    """AlterConfigsRequest request"""

    API_KEY: ClassVar[int] = 33
    NAME: ClassVar[str] = "AlterConfigsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    resources: list[AlterConfigsResource] = field(default_factory=list)
    # versions 0+. The updates for each resource.
    validate_only: bool = False
    # versions 0+. True if we should validate the request, but not change the configurations.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterConfigsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterConfigsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterConfigsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterConfigsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterConfigsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alterable_config_v0(buf: memoryview, pos: int) -> tuple[AlterableConfig, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    return AlterableConfig(f_name, f_value, []), pos


def _decode_alter_configs_resource_v0(buf: memoryview, pos: int) -> tuple[AlterConfigsResource, int]:
    f_resource_name: str
    f_configs: list[AlterableConfig]
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_configs, pos = read_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_alterable_config_v0(buf, pos)
            f_configs.append(e_configs)
    return AlterConfigsResource(f_resource_type, f_resource_name, f_configs, []), pos


def _decode_alter_configs_request_v0(buf: memoryview, pos: int) -> tuple[AlterConfigsRequest, int]:
    f_resources: list[AlterConfigsResource]
    n_resources, pos = read_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_alter_configs_resource_v0(buf, pos)
            f_resources.append(e_resources)
    f_validate_only, = _S1.unpack_from(buf, pos)
    pos += 1
    return AlterConfigsRequest(f_resources, f_validate_only, []), pos


def _decode_alterable_config_v2(buf: memoryview, pos: int) -> tuple[AlterableConfig, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_value, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterableConfig(f_name, f_value, _unknown), pos


def _decode_alter_configs_resource_v2(buf: memoryview, pos: int) -> tuple[AlterConfigsResource, int]:
    f_resource_name: str
    f_configs: list[AlterableConfig]
    f_resource_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    n_configs, pos = read_compact_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_alterable_config_v2(buf, pos)
            f_configs.append(e_configs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterConfigsResource(f_resource_type, f_resource_name, f_configs, _unknown), pos


def _decode_alter_configs_request_v2(buf: memoryview, pos: int) -> tuple[AlterConfigsRequest, int]:
    f_resources: list[AlterConfigsResource]
    n_resources, pos = read_compact_array_length(buf, pos)
    if n_resources < 0:
        raise null_field("resources")
    else:
        f_resources = []
        for _ in range(n_resources):
            e_resources, pos = _decode_alter_configs_resource_v2(buf, pos)
            f_resources.append(e_resources)
    f_validate_only, = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterConfigsRequest(f_resources, f_validate_only, _unknown), pos


def _encode_alterable_config_v0(m: AlterableConfig, out: bytearray) -> None:
    write_string(out, m.name)
    write_nullable_string(out, m.value)


def _encode_alter_configs_resource_v0(m: AlterConfigsResource, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_alterable_config_v0(e_configs, out)


def _encode_alter_configs_request_v0(m: AlterConfigsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.resources))
    for e_resources in m.resources:
        _encode_alter_configs_resource_v0(e_resources, out)
    out += _S1.pack(m.validate_only)


def _encode_alterable_config_v2(m: AlterableConfig, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_nullable_string(out, m.value)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_configs_resource_v2(m: AlterConfigsResource, out: bytearray) -> None:
    out += _S0.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    write_uvarint(out, len(m.configs) + 1)
    for e_configs in m.configs:
        _encode_alterable_config_v2(e_configs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_configs_request_v2(m: AlterConfigsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.resources) + 1)
    for e_resources in m.resources:
        _encode_alter_configs_resource_v2(e_resources, out)
    out += _S1.pack(m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterConfigsRequest, int]]] = {
    0: _decode_alter_configs_request_v0,
    1: _decode_alter_configs_request_v0,
    2: _decode_alter_configs_request_v2,
}
_ENCODERS: dict[int, Callable[[AlterConfigsRequest, bytearray], None]] = {
    0: _encode_alter_configs_request_v0,
    1: _encode_alter_configs_request_v0,
    2: _encode_alter_configs_request_v2,
}
