"""ListConfigResourcesResponse: generated from Kafka 3.9.2 and 4.4.0's ListConfigResourcesResponse.json by
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
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListConfigResourcesResponse", "ConfigResource"]

_S0 = Struct(">ih")
_S1 = Struct(">b")


@dataclass(slots=True)
class ConfigResource:
    """Each config resource in the response."""

    resource_name: str = ''
    # versions 0+. The resource name.
    resource_type: int = 16
    # versions 1+; ignorable. The resource type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListConfigResourcesResponse(ApiMessage):
    """ListConfigResourcesResponse response"""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = "ListConfigResourcesResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    config_resources: list[ConfigResource] = field(default_factory=list)
    # versions 0+. Each config resource in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListConfigResourcesResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListConfigResourcesResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListConfigResourcesResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListConfigResourcesResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListConfigResourcesResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_config_resource_v0(buf: memoryview, pos: int) -> tuple[ConfigResource, int]:
    f_resource_name: str
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ConfigResource(f_resource_name, 16, _unknown), pos


def _decode_list_config_resources_response_v0(buf: memoryview, pos: int) -> tuple[ListConfigResourcesResponse, int]:
    f_config_resources: list[ConfigResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_config_resources, pos = read_compact_array_length(buf, pos)
    if n_config_resources < 0:
        raise null_field("configResources")
    else:
        f_config_resources = []
        for _ in range(n_config_resources):
            e_config_resources, pos = _decode_config_resource_v0(buf, pos)
            f_config_resources.append(e_config_resources)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListConfigResourcesResponse(f_throttle_time_ms, f_error_code, f_config_resources, _unknown), pos


def _decode_config_resource_v1(buf: memoryview, pos: int) -> tuple[ConfigResource, int]:
    f_resource_name: str
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    f_resource_type, = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ConfigResource(f_resource_name, f_resource_type, _unknown), pos


def _decode_list_config_resources_response_v1(buf: memoryview, pos: int) -> tuple[ListConfigResourcesResponse, int]:
    f_config_resources: list[ConfigResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_config_resources, pos = read_compact_array_length(buf, pos)
    if n_config_resources < 0:
        raise null_field("configResources")
    else:
        f_config_resources = []
        for _ in range(n_config_resources):
            e_config_resources, pos = _decode_config_resource_v1(buf, pos)
            f_config_resources.append(e_config_resources)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListConfigResourcesResponse(f_throttle_time_ms, f_error_code, f_config_resources, _unknown), pos


def _encode_config_resource_v0(m: ConfigResource, out: bytearray) -> None:
    write_compact_string(out, m.resource_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_config_resources_response_v0(m: ListConfigResourcesResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.config_resources) + 1)
    for e_config_resources in m.config_resources:
        _encode_config_resource_v0(e_config_resources, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_config_resource_v1(m: ConfigResource, out: bytearray) -> None:
    write_compact_string(out, m.resource_name)
    out += _S1.pack(m.resource_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_config_resources_response_v1(m: ListConfigResourcesResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.config_resources) + 1)
    for e_config_resources in m.config_resources:
        _encode_config_resource_v1(e_config_resources, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListConfigResourcesResponse, int]]] = {
    0: _decode_list_config_resources_response_v0,
    1: _decode_list_config_resources_response_v1,
}
_ENCODERS: dict[int, Callable[[ListConfigResourcesResponse, bytearray], None]] = {
    0: _encode_list_config_resources_response_v0,
    1: _encode_list_config_resources_response_v1,
}
