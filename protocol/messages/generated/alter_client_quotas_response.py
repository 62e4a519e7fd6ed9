"""AlterClientQuotasResponse: generated from Kafka 3.9.2 and 4.4.0's AlterClientQuotasResponse.json by
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

__all__ = ["AlterClientQuotasResponse", "EntryData", "EntityData"]

_S0 = Struct(">i")
_S1 = Struct(">h")


@dataclass(slots=True)
class EntityData:
    """The quota entity to alter."""

    entity_type: str = ''
    # versions 0+. The entity type.
    entity_name: str | None = ''
    # versions 0+; nullable 0+. The name of the entity, or null if the default.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class EntryData:
    """The quota configuration entries to alter."""

    error_code: int = 0
    # versions 0+. The error code, or `0` if the quota alteration succeeded.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or `null` if the quota alteration succeeded.
    entity: list[EntityData] = field(default_factory=list)
    # versions 0+. The quota entity to alter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterClientQuotasResponse(ApiMessage):
    """AlterClientQuotasResponse response"""

    API_KEY: ClassVar[int] = 49
    NAME: ClassVar[str] = "AlterClientQuotasResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    entries: list[EntryData] = field(default_factory=list)
    # versions 0+. The quota configuration entries to alter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterClientQuotasResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterClientQuotasResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterClientQuotasResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterClientQuotasResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterClientQuotasResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_entity_data_v0(buf: memoryview, pos: int) -> tuple[EntityData, int]:
    f_entity_type: str
    f_entity_name: str | None
    f_entity_type, pos = read_string(buf, pos, "entityType")
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name, []), pos


def _decode_entry_data_v0(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_error_message: str | None
    f_entity: list[EntityData]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    n_entity, pos = read_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v0(buf, pos)
            f_entity.append(e_entity)
    return EntryData(f_error_code, f_error_message, f_entity, []), pos


def _decode_alter_client_quotas_response_v0(buf: memoryview, pos: int) -> tuple[AlterClientQuotasResponse, int]:
    f_entries: list[EntryData]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_entries, pos = read_array_length(buf, pos)
    if n_entries < 0:
        raise null_field("entries")
    else:
        f_entries = []
        for _ in range(n_entries):
            e_entries, pos = _decode_entry_data_v0(buf, pos)
            f_entries.append(e_entries)
    return AlterClientQuotasResponse(f_throttle_time_ms, f_entries, []), pos


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


def _decode_entry_data_v1(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_error_message: str | None
    f_entity: list[EntityData]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_entity, pos = read_compact_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v1(buf, pos)
            f_entity.append(e_entity)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EntryData(f_error_code, f_error_message, f_entity, _unknown), pos


def _decode_alter_client_quotas_response_v1(buf: memoryview, pos: int) -> tuple[AlterClientQuotasResponse, int]:
    f_entries: list[EntryData]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_entries, pos = read_compact_array_length(buf, pos)
    if n_entries < 0:
        raise null_field("entries")
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
    return AlterClientQuotasResponse(f_throttle_time_ms, f_entries, _unknown), pos


def _encode_entity_data_v0(m: EntityData, out: bytearray) -> None:
    write_string(out, m.entity_type)
    write_nullable_string(out, m.entity_name)


def _encode_entry_data_v0(m: EntryData, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += pack_int32(len(m.entity))
    for e_entity in m.entity:
        _encode_entity_data_v0(e_entity, out)


def _encode_alter_client_quotas_response_v0(m: AlterClientQuotasResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
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


def _encode_entry_data_v1(m: EntryData, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.entity) + 1)
    for e_entity in m.entity:
        _encode_entity_data_v1(e_entity, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_client_quotas_response_v1(m: AlterClientQuotasResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.entries) + 1)
    for e_entries in m.entries:
        _encode_entry_data_v1(e_entries, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterClientQuotasResponse, int]]] = {
    0: _decode_alter_client_quotas_response_v0,
    1: _decode_alter_client_quotas_response_v1,
}
_ENCODERS: dict[int, Callable[[AlterClientQuotasResponse, bytearray], None]] = {
    0: _encode_alter_client_quotas_response_v0,
    1: _encode_alter_client_quotas_response_v1,
}
