"""DescribeClientQuotasResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeClientQuotasResponse.json by
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

__all__ = ["DescribeClientQuotasResponse", "EntryData", "EntityData", "ValueData"]

_S0 = Struct(">ih")
_S1 = Struct(">d")


@dataclass(slots=True)
class EntityData:
    """The quota entity description."""

    entity_type: str = ''
    # versions 0+. The entity type.
    entity_name: str | None = ''
    # versions 0+; nullable 0+. The entity name, or null if the default.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ValueData:
    """The quota values for the entity."""

    key: str = ''
    # versions 0+. The quota configuration key.
    value: float = 0.0
    # versions 0+. The quota configuration value.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class EntryData:
    """A result entry."""

    entity: list[EntityData] = field(default_factory=list)
    # versions 0+. The quota entity description.
    values: list[ValueData] = field(default_factory=list)
    # versions 0+. The quota values for the entity.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeClientQuotasResponse(ApiMessage):
    """DescribeClientQuotasResponse response"""

    API_KEY: ClassVar[int] = 48
    NAME: ClassVar[str] = "DescribeClientQuotasResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or `0` if the quota description succeeded.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or `null` if the quota description succeeded.
    entries: list[EntryData] | None = field(default_factory=list)
    # versions 0+; nullable 0+. A result entry.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClientQuotasResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeClientQuotasResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClientQuotasResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeClientQuotasResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeClientQuotasResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_entity_data_v0(buf: memoryview, pos: int) -> tuple[EntityData, int]:
    f_entity_type: str
    f_entity_name: str | None
    f_entity_type, pos = read_string(buf, pos, "entityType")
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name, []), pos


def _decode_value_data_v0(buf: memoryview, pos: int) -> tuple[ValueData, int]:
    f_key: str
    f_key, pos = read_string(buf, pos, "key")
    f_value, = _S1.unpack_from(buf, pos)
    pos += 8
    return ValueData(f_key, f_value, []), pos


def _decode_entry_data_v0(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_entity: list[EntityData]
    f_values: list[ValueData]
    n_entity, pos = read_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v0(buf, pos)
            f_entity.append(e_entity)
    n_values, pos = read_array_length(buf, pos)
    if n_values < 0:
        raise null_field("values")
    else:
        f_values = []
        for _ in range(n_values):
            e_values, pos = _decode_value_data_v0(buf, pos)
            f_values.append(e_values)
    return EntryData(f_entity, f_values, []), pos


def _decode_describe_client_quotas_response_v0(buf: memoryview, pos: int) -> tuple[DescribeClientQuotasResponse, int]:
    f_error_message: str | None
    f_entries: list[EntryData] | None
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    n_entries, pos = read_array_length(buf, pos)
    if n_entries < 0:
        f_entries = None
    else:
        f_entries = []
        for _ in range(n_entries):
            e_entries, pos = _decode_entry_data_v0(buf, pos)
            f_entries.append(e_entries)
    return DescribeClientQuotasResponse(f_throttle_time_ms, f_error_code, f_error_message, f_entries, []), pos


def _decode_entity_data_v1(buf: memoryview, pos: int) -> tuple[EntityData, int]:
    f_entity_type: str
    f_entity_name: str | None
    f_entity_type, pos = read_compact_string(buf, pos, "entityType")
    f_entity_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EntityData(f_entity_type, f_entity_name, _unknown), pos


def _decode_value_data_v1(buf: memoryview, pos: int) -> tuple[ValueData, int]:
    f_key: str
    f_key, pos = read_compact_string(buf, pos, "key")
    f_value, = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ValueData(f_key, f_value, _unknown), pos


def _decode_entry_data_v1(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_entity: list[EntityData]
    f_values: list[ValueData]
    n_entity, pos = read_compact_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v1(buf, pos)
            f_entity.append(e_entity)
    n_values, pos = read_compact_array_length(buf, pos)
    if n_values < 0:
        raise null_field("values")
    else:
        f_values = []
        for _ in range(n_values):
            e_values, pos = _decode_value_data_v1(buf, pos)
            f_values.append(e_values)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EntryData(f_entity, f_values, _unknown), pos


def _decode_describe_client_quotas_response_v1(buf: memoryview, pos: int) -> tuple[DescribeClientQuotasResponse, int]:
    f_error_message: str | None
    f_entries: list[EntryData] | None
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_entries, pos = read_compact_array_length(buf, pos)
    if n_entries < 0:
        f_entries = None
    else:
        f_entries = []
        for _ in range(n_entries):
            e_entries, pos = _decode_entry_data_v1(buf, pos)
            f_entries.append(e_entries)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClientQuotasResponse(f_throttle_time_ms, f_error_code, f_error_message, f_entries, _unknown), pos


def _encode_entity_data_v0(m: EntityData, out: bytearray) -> None:
    write_string(out, m.entity_type)
    write_nullable_string(out, m.entity_name)


def _encode_value_data_v0(m: ValueData, out: bytearray) -> None:
    write_string(out, m.key)
    out += _S1.pack(m.value)


def _encode_entry_data_v0(m: EntryData, out: bytearray) -> None:
    out += pack_int32(len(m.entity))
    for e_entity in m.entity:
        _encode_entity_data_v0(e_entity, out)
    out += pack_int32(len(m.values))
    for e_values in m.values:
        _encode_value_data_v0(e_values, out)


def _encode_describe_client_quotas_response_v0(m: DescribeClientQuotasResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_nullable_string(out, m.error_message)
    if m.entries is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.entries))
        for e_entries in m.entries:
            _encode_entry_data_v0(e_entries, out)


def _encode_entity_data_v1(m: EntityData, out: bytearray) -> None:
    write_compact_string(out, m.entity_type)
    write_compact_nullable_string(out, m.entity_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_value_data_v1(m: ValueData, out: bytearray) -> None:
    write_compact_string(out, m.key)
    out += _S1.pack(m.value)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_entry_data_v1(m: EntryData, out: bytearray) -> None:
    write_uvarint(out, len(m.entity) + 1)
    for e_entity in m.entity:
        _encode_entity_data_v1(e_entity, out)
    write_uvarint(out, len(m.values) + 1)
    for e_values in m.values:
        _encode_value_data_v1(e_values, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_client_quotas_response_v1(m: DescribeClientQuotasResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.entries is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.entries) + 1)
        for e_entries in m.entries:
            _encode_entry_data_v1(e_entries, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeClientQuotasResponse, int]]] = {
    0: _decode_describe_client_quotas_response_v0,
    1: _decode_describe_client_quotas_response_v1,
}
_ENCODERS: dict[int, Callable[[DescribeClientQuotasResponse, bytearray], None]] = {
    0: _encode_describe_client_quotas_response_v0,
    1: _encode_describe_client_quotas_response_v1,
}
