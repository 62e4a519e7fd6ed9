"""ListConfigResourcesRequest: generated from Kafka 3.9.2 and 4.4.0's ListConfigResourcesRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import pack, unpack_from
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_unknown_tags,
    version_error,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListConfigResourcesRequest"]



@dataclass(slots=True)
class ListConfigResourcesRequest(ApiMessage):
    """ListConfigResourcesRequest request"""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = "ListConfigResourcesRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    resource_types: list[int] = field(default_factory=list)
    # versions 1+. The list of resource type. If the list is empty, it uses default supported config resource types.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListConfigResourcesRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListConfigResourcesRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListConfigResourcesRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListConfigResourcesRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListConfigResourcesRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_config_resources_request_v0(buf: memoryview, pos: int) -> tuple[ListConfigResourcesRequest, int]:
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListConfigResourcesRequest([], _unknown), pos


def _decode_list_config_resources_request_v1(buf: memoryview, pos: int) -> tuple[ListConfigResourcesRequest, int]:
    f_resource_types: list[int]
    n_resource_types, pos = read_compact_array_length(buf, pos)
    if n_resource_types < 0:
        raise null_field("resourceTypes")
    else:
        f_resource_types = list(unpack_from(f">{n_resource_types}b", buf, pos))
        pos += 1 * n_resource_types
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListConfigResourcesRequest(f_resource_types, _unknown), pos


def _encode_list_config_resources_request_v0(m: ListConfigResourcesRequest, out: bytearray) -> None:
    if len(m.resource_types) > 0:
        raise version_error("ListConfigResourcesRequest", "ResourceTypes", 0)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_config_resources_request_v1(m: ListConfigResourcesRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.resource_types) + 1)
    out += pack(f">{len(m.resource_types)}b", *m.resource_types)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListConfigResourcesRequest, int]]] = {
    0: _decode_list_config_resources_request_v0,
    1: _decode_list_config_resources_request_v1,
}
_ENCODERS: dict[int, Callable[[ListConfigResourcesRequest, bytearray], None]] = {
    0: _encode_list_config_resources_request_v0,
    1: _encode_list_config_resources_request_v1,
}
