"""DescribeClientQuotasRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeClientQuotasRequest.json by
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

__all__ = ["DescribeClientQuotasRequest", "ComponentData"]

_S0 = Struct(">b")
_S1 = Struct(">?")


@dataclass(slots=True)
class ComponentData:
    """Filter components to apply to quota entities."""

    entity_type: str = ''
    # versions 0+. The entity type that the filter component applies to.
    match_type: int = 0
    # versions 0+. How to match the entity {0 = exact name, 1 = default name, 2 = any specified name}.
    match: str | None = ''
    # versions 0+; nullable 0+. The string to match against, or null if unused for the match type.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeClientQuotasRequest(ApiMessage):
    """DescribeClientQuotasRequest request"""

    API_KEY: ClassVar[int] = 48
    NAME: ClassVar[str] = "DescribeClientQuotasRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    components: list[ComponentData] = field(default_factory=list)
    # versions 0+. Filter components to apply to quota entities.
    strict: bool = False
    # versions 0+. Whether the match is strict, i.e. should exclude entities with unspecified entity types.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClientQuotasRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeClientQuotasRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClientQuotasRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeClientQuotasRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeClientQuotasRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_component_data_v0(buf: memoryview, pos: int) -> tuple[ComponentData, int]:
    f_entity_type: str
    f_match: str | None
    f_entity_type, pos = read_string(buf, pos, "entityType")
    f_match_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_match, pos = read_nullable_string(buf, pos)
    return ComponentData(f_entity_type, f_match_type, f_match, []), pos


def _decode_describe_client_quotas_request_v0(buf: memoryview, pos: int) -> tuple[DescribeClientQuotasRequest, int]:
    f_components: list[ComponentData]
    n_components, pos = read_array_length(buf, pos)
    if n_components < 0:
        raise null_field("components")
    else:
        f_components = []
        for _ in range(n_components):
            e_components, pos = _decode_component_data_v0(buf, pos)
            f_components.append(e_components)
    f_strict, = _S1.unpack_from(buf, pos)
    pos += 1
    return DescribeClientQuotasRequest(f_components, f_strict, []), pos


def _decode_component_data_v1(buf: memoryview, pos: int) -> tuple[ComponentData, int]:
    f_entity_type: str
    f_match: str | None
    f_entity_type, pos = read_compact_string(buf, pos, "entityType")
    f_match_type, = _S0.unpack_from(buf, pos)
    pos += 1
    f_match, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ComponentData(f_entity_type, f_match_type, f_match, _unknown), pos


def _decode_describe_client_quotas_request_v1(buf: memoryview, pos: int) -> tuple[DescribeClientQuotasRequest, int]:
    f_components: list[ComponentData]
    n_components, pos = read_compact_array_length(buf, pos)
    if n_components < 0:
        raise null_field("components")
    else:
        f_components = []
        for _ in range(n_components):
            e_components, pos = _decode_component_data_v1(buf, pos)
            f_components.append(e_components)
    f_strict, = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClientQuotasRequest(f_components, f_strict, _unknown), pos


def _encode_component_data_v0(m: ComponentData, out: bytearray) -> None:
    write_string(out, m.entity_type)
    out += _S0.pack(m.match_type)
    write_nullable_string(out, m.match)


def _encode_describe_client_quotas_request_v0(m: DescribeClientQuotasRequest, out: bytearray) -> None:
    out += pack_int32(len(m.components))
    for e_components in m.components:
        _encode_component_data_v0(e_components, out)
    out += _S1.pack(m.strict)


def _encode_component_data_v1(m: ComponentData, out: bytearray) -> None:
    write_compact_string(out, m.entity_type)
    out += _S0.pack(m.match_type)
    write_compact_nullable_string(out, m.match)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_client_quotas_request_v1(m: DescribeClientQuotasRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.components) + 1)
    for e_components in m.components:
        _encode_component_data_v1(e_components, out)
    out += _S1.pack(m.strict)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeClientQuotasRequest, int]]] = {
    0: _decode_describe_client_quotas_request_v0,
    1: _decode_describe_client_quotas_request_v1,
}
_ENCODERS: dict[int, Callable[[DescribeClientQuotasRequest, bytearray], None]] = {
    0: _encode_describe_client_quotas_request_v0,
    1: _encode_describe_client_quotas_request_v1,
}
