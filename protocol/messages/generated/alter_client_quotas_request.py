"""AlterClientQuotasRequest: generated from Kafka 3.9.2 and 4.4.0's AlterClientQuotasRequest.json by
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

__all__ = ["AlterClientQuotasRequest", "EntryData", "EntityData", "OpData"]

_S0 = Struct(">d?")
_S1 = Struct(">?")


@dataclass(slots=True)
class EntityData:
    """The quota entity to alter."""

    entity_type: str = ''
    # versions 0+. The entity type.
    entity_name: str | None = ''
    # versions 0+; nullable 0+. The name of the entity, or null if the default.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OpData:
    """An individual quota configuration entry to alter."""

    key: str = ''
    # versions 0+. The quota configuration key.
    value: float = 0.0
    # versions 0+. The value to set, otherwise ignored if the value is to be removed.
    remove: bool = False
    # versions 0+. Whether the quota configuration value should be removed, otherwise set.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class EntryData:
    """The quota configuration entries to alter."""

    entity: list[EntityData] = field(default_factory=list)
    # versions 0+. The quota entity to alter.
    ops: list[OpData] = field(default_factory=list)
    # versions 0+. An individual quota configuration entry to alter.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterClientQuotasRequest(ApiMessage):
    """AlterClientQuotasRequest request"""

    API_KEY: ClassVar[int] = 49
    NAME: ClassVar[str] = "AlterClientQuotasRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    entries: list[EntryData] = field(default_factory=list)
    # versions 0+. The quota configuration entries to alter.
    validate_only: bool = False
    # versions 0+. Whether the alteration should be validated, but not performed.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterClientQuotasRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterClientQuotasRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterClientQuotasRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterClientQuotasRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterClientQuotasRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_entity_data_v0(buf: memoryview, pos: int) -> tuple[EntityData, int]:
    f_entity_type: str
    f_entity_name: str | None
    f_entity_type, pos = read_string(buf, pos, "entityType")
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name, []), pos


def _decode_op_data_v0(buf: memoryview, pos: int) -> tuple[OpData, int]:
    f_key: str
    f_key, pos = read_string(buf, pos, "key")
    f_value, f_remove = _S0.unpack_from(buf, pos)
    pos += 9
    return OpData(f_key, f_value, f_remove, []), pos


def _decode_entry_data_v0(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_entity: list[EntityData]
    f_ops: list[OpData]
    n_entity, pos = read_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v0(buf, pos)
            f_entity.append(e_entity)
    n_ops, pos = read_array_length(buf, pos)
    if n_ops < 0:
        raise null_field("ops")
    else:
        f_ops = []
        for _ in range(n_ops):
            e_ops, pos = _decode_op_data_v0(buf, pos)
            f_ops.append(e_ops)
    return EntryData(f_entity, f_ops, []), pos


def _decode_alter_client_quotas_request_v0(buf: memoryview, pos: int) -> tuple[AlterClientQuotasRequest, int]:
    f_entries: list[EntryData]
    n_entries, pos = read_array_length(buf, pos)
    if n_entries < 0:
        raise null_field("entries")
    else:
        f_entries = []
        for _ in range(n_entries):
            e_entries, pos = _decode_entry_data_v0(buf, pos)
            f_entries.append(e_entries)
    f_validate_only, = _S1.unpack_from(buf, pos)
    pos += 1
    return AlterClientQuotasRequest(f_entries, f_validate_only, []), pos


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


def _decode_op_data_v1(buf: memoryview, pos: int) -> tuple[OpData, int]:
    f_key: str
    f_key, pos = read_compact_string(buf, pos, "key")
    f_value, f_remove = _S0.unpack_from(buf, pos)
    pos += 9
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OpData(f_key, f_value, f_remove, _unknown), pos


def _decode_entry_data_v1(buf: memoryview, pos: int) -> tuple[EntryData, int]:
    f_entity: list[EntityData]
    f_ops: list[OpData]
    n_entity, pos = read_compact_array_length(buf, pos)
    if n_entity < 0:
        raise null_field("entity")
    else:
        f_entity = []
        for _ in range(n_entity):
            e_entity, pos = _decode_entity_data_v1(buf, pos)
            f_entity.append(e_entity)
    n_ops, pos = read_compact_array_length(buf, pos)
    if n_ops < 0:
        raise null_field("ops")
    else:
        f_ops = []
        for _ in range(n_ops):
            e_ops, pos = _decode_op_data_v1(buf, pos)
            f_ops.append(e_ops)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EntryData(f_entity, f_ops, _unknown), pos


def _decode_alter_client_quotas_request_v1(buf: memoryview, pos: int) -> tuple[AlterClientQuotasRequest, int]:
    f_entries: list[EntryData]
    n_entries, pos = read_compact_array_length(buf, pos)
    if n_entries < 0:
        raise null_field("entries")
    else:
        f_entries = []
        for _ in range(n_entries):
            e_entries, pos = _decode_entry_data_v1(buf, pos)
            f_entries.append(e_entries)
    f_validate_only, = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterClientQuotasRequest(f_entries, f_validate_only, _unknown), pos


def _encode_entity_data_v0(m: EntityData, out: bytearray) -> None:
    write_string(out, m.entity_type)
    write_nullable_string(out, m.entity_name)


def _encode_op_data_v0(m: OpData, out: bytearray) -> None:
    write_string(out, m.key)
    out += _S0.pack(m.value, m.remove)


def _encode_entry_data_v0(m: EntryData, out: bytearray) -> None:
    out += pack_int32(len(m.entity))
    for e_entity in m.entity:
        _encode_entity_data_v0(e_entity, out)
    out += pack_int32(len(m.ops))
    for e_ops in m.ops:
        _encode_op_data_v0(e_ops, out)


def _encode_alter_client_quotas_request_v0(m: AlterClientQuotasRequest, out: bytearray) -> None:
    out += pack_int32(len(m.entries))
    for e_entries in m.entries:
        _encode_entry_data_v0(e_entries, out)
    out += _S1.pack(m.validate_only)


def _encode_entity_data_v1(m: EntityData, out: bytearray) -> None:
    write_compact_string(out, m.entity_type)
    write_compact_nullable_string(out, m.entity_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_op_data_v1(m: OpData, out: bytearray) -> None:
    write_compact_string(out, m.key)
    out += _S0.pack(m.value, m.remove)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_entry_data_v1(m: EntryData, out: bytearray) -> None:
    write_uvarint(out, len(m.entity) + 1)
    for e_entity in m.entity:
        _encode_entity_data_v1(e_entity, out)
    write_uvarint(out, len(m.ops) + 1)
    for e_ops in m.ops:
        _encode_op_data_v1(e_ops, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_client_quotas_request_v1(m: AlterClientQuotasRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.entries) + 1)
    for e_entries in m.entries:
        _encode_entry_data_v1(e_entries, out)
    out += _S1.pack(m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterClientQuotasRequest, int]]] = {
    0: _decode_alter_client_quotas_request_v0,
    1: _decode_alter_client_quotas_request_v1,
}
_ENCODERS: dict[int, Callable[[AlterClientQuotasRequest, bytearray], None]] = {
    0: _encode_alter_client_quotas_request_v0,
    1: _encode_alter_client_quotas_request_v1,
}
