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


def _check_struct(value: Any, struct: StructField, version: int) -> None:
    for field in struct.untagged_fields(version):
        item = getattr(value, field.name)
        if item is None:
            if _has_null(field) and not field.nullable_for_version_q(version):
                raise MalformedRequest(f"non-nullable field {field._name} was serialized as null")
        elif field.is_struct_array():
            for entry in item:
                _check_struct(entry, field.array_of, version)
        elif field.is_array() and _has_null(field.array_of):
            if any(entry is None for entry in item):
                raise MalformedRequest(f"non-nullable field {field._name} element was serialized as null")
        elif field.is_struct():
            _check_struct(item, field, version)


def _has_null(field: Any) -> bool:
    return field.is_array() or field.is_struct() or field.type_str in _LENGTH_PREFIXED
