"""Kafka's null check for decoded requests, which kafka-python's decoders leave out.

A length of -1 decodes as None for any string, bytes, array or struct, but Kafka's
generated readers refuse it where the schema does not list the version in
nullableVersions ("non-nullable field X was serialized as null"), and the request is
malformed. Without this check a handler meets None where its schema promises a list or a
string.
"""

from __future__ import annotations

from typing import Any

from kafka.protocol.api_message import ApiMessage
from kafka.protocol.schemas.fields.struct import StructField

from josefk.protocol.headers import MalformedRequest

# The types with a -1 length on the wire. A uuid also decodes as None (the zero uuid), but
# that is a value, not a null.
_LENGTH_PREFIXED = frozenset({"string", "bytes", "records"})


def check_non_nullable(message: ApiMessage, version: int) -> None:
    """Raise MalformedRequest, in Kafka's words, at the first null in a non-nullable field."""
    _check_struct(message, message._struct, version)


# A struct's checks at one version: (attribute, Kafka's field name, refuse a null, kind,
# the struct of a struct or struct array). Only fields that can hold a null, or contain
# fields that can, are listed: a Produce request checks a few attributes, not its schema.
_Step = tuple[str, str, bool, int, Any]
_LEAF, _STRUCT, _STRUCT_ARRAY, _ARRAY = range(4)
_PLANS: dict[tuple[int, int], tuple[StructField, tuple[_Step, ...]]] = {}  # by (id(struct), version)


def _plan(struct: StructField, version: int) -> tuple[_Step, ...]:
    """The checks for `struct` at `version`, worked out once (it is on every request's path).
    Keyed by id: StructField is unhashable; the entry holds the struct, so its id stays its own."""
    cached = _PLANS.get((id(struct), version))
    if cached is not None:
        return cached[1]
    steps = []
    for field in struct.untagged_fields(version):
        refuse_null = _has_null(field) and not field.nullable_for_version_q(version)
        if field.is_struct_array():
            kind, inner = _STRUCT_ARRAY, field.array_of
        elif field.is_array() and _has_null(field.array_of):
            kind, inner = _ARRAY, None
        elif field.is_struct():
            kind, inner = _STRUCT, field
        else:
            kind, inner = _LEAF, None
        if refuse_null or kind != _LEAF:
            steps.append((field.name, field._name, refuse_null, kind, inner))
    plan = tuple(steps)
    _PLANS[(id(struct), version)] = (struct, plan)
    return plan


def _check_struct(value: Any, struct: StructField, version: int) -> None:
    for name, kafka_name, refuse_null, kind, inner in _plan(struct, version):
        item = getattr(value, name)
        if item is None:
            if refuse_null:
                raise MalformedRequest(f"non-nullable field {kafka_name} was serialized as null")
        elif kind == _STRUCT_ARRAY:
            for entry in item:
                _check_struct(entry, inner, version)
        elif kind == _ARRAY:
            if any(entry is None for entry in item):
                raise MalformedRequest(f"non-nullable field {kafka_name} element was serialized as null")
        elif kind == _STRUCT:
            _check_struct(item, inner, version)


def _has_null(field: Any) -> bool:
    return field.is_array() or field.is_struct() or field.type_str in _LENGTH_PREFIXED
