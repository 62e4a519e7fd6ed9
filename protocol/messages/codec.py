"""The primitives the generated message codecs call: Kafka's wire types, read from a memoryview
at a position and appended to a bytearray.

Fixed-width fields are packed by the generated code itself with precompiled ``struct.Struct``
objects (runs of adjacent fields in one call); what is here is what has a length prefix: strings,
bytes, records, arrays' counts, unsigned varints and tagged-field buffers. Readers return
``(value, next_position)`` so the generated decoders stay straight-line code.
"""

from __future__ import annotations

from collections.abc import Iterable
from struct import Struct
from struct import error as StructError
from typing import ClassVar
from uuid import UUID

ZERO_UUID = UUID(int=0)
TRUNCATED = (StructError, IndexError)  # what reading past the end of a buffer raises

_I16 = Struct(">h")
_I32 = Struct(">i")
pack_int16 = _I16.pack
pack_int32 = _I32.pack
unpack_int16 = _I16.unpack_from
unpack_int32 = _I32.unpack_from


class UnsupportedVersionError(ValueError):
    """A value that the requested version cannot carry (Kafka's UnsupportedVersionException):
    a non-ignorable field set away from its default below the version that added it, or a
    null where this version's field is not nullable."""


class MessageDecodeError(ValueError):
    """Bytes that are not a valid message of the given version (truncated, a negative length
    for a non-nullable field, invalid UTF-8)."""


class ApiMessage:
    """The base of every generated request, response and header class."""

    __slots__ = ()
    API_KEY: ClassVar[int]
    NAME: ClassVar[str]
    MIN_VERSION: ClassVar[int]
    MAX_VERSION: ClassVar[int]
    FLEXIBLE_MIN: ClassVar[int | None]  # first flexible version; None if none is

    def encode_into(self, out: bytearray, version: int) -> None:
        raise NotImplementedError

    def encode(self, version: int) -> bytearray:
        out = bytearray()
        self.encode_into(out, version)
        return out

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ApiMessage, int]:
        """The message at buf[pos:] and the position after it (each class narrows the type)."""
        raise NotImplementedError

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ApiMessage:
        return cls.decode_from(memoryview(buf), 0, version)[0]

    @classmethod
    def is_flexible(cls, version: int) -> bool:
        return cls.FLEXIBLE_MIN is not None and version >= cls.FLEXIBLE_MIN


def version_error(message: str, field: str, version: int) -> UnsupportedVersionError:
    return UnsupportedVersionError(f"{message}: {field} cannot be represented at version {version}")


def null_error(message: str, field: str, version: int) -> UnsupportedVersionError:
    return UnsupportedVersionError(f"{message}: {field} is not nullable at version {version}")


def _need(buf: memoryview, end: int) -> None:
    if end > len(buf):
        raise MessageDecodeError(f"truncated: need {end} bytes, have {len(buf)}")


# Unsigned varints (tagged fields, compact lengths).


def read_uvarint(buf: memoryview, pos: int) -> tuple[int, int]:
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    value = b & 0x7F
    shift = 7
    while True:
        pos += 1
        b = buf[pos]
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos + 1
        shift += 7
        if shift > 28:
            raise MessageDecodeError("unsigned varint longer than 5 bytes")


def write_uvarint(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


# Lengths of arrays: int32 (-1 null), or compact uvarint N+1 (0 null). The callers decide
# whether a null is allowed.


def _count(buf: memoryview, pos: int, n: int) -> int:
    """As Kafka, refuse a count of elements beyond the bytes left before looping over them."""
    if n > len(buf) - pos:
        raise MessageDecodeError(f"an array of {n} elements with only {len(buf) - pos} bytes left")
    return n


def read_array_length(buf: memoryview, pos: int) -> tuple[int, int]:
    return _count(buf, pos + 4, unpack_int32(buf, pos)[0]), pos + 4


def read_compact_array_length(buf: memoryview, pos: int) -> tuple[int, int]:
    n, pos = read_uvarint(buf, pos)
    return _count(buf, pos, n - 1), pos


def write_array_length(out: bytearray, n: int, compact: bool) -> None:
    """A non-null array's count, for code that writes an array's elements itself (responses
    assembled from parts encoded earlier)."""
    if compact:
        write_uvarint(out, n + 1)
    else:
        out += pack_int32(n)


# Strings: int16 length (-1 null) or compact uvarint length+1 (0 null).


def _text(buf: memoryview, pos: int, n: int) -> str:
    end = pos + n
    _need(buf, end)
    try:
        return str(buf[pos:end], "utf-8")
    except UnicodeDecodeError as e:
        raise MessageDecodeError(f"invalid UTF-8 in a string: {e}") from None


def read_nullable_string(buf: memoryview, pos: int) -> tuple[str | None, int]:
    n = unpack_int16(buf, pos)[0]
    if n < 0:
        return None, pos + 2
    return _text(buf, pos + 2, n), pos + 2 + n


def null_field(field: str) -> MessageDecodeError:
    """A null where the version does not allow one, in Kafka's words (its generated readers)."""
    return MessageDecodeError(f"non-nullable field {field} was serialized as null")


def read_string(buf: memoryview, pos: int, field: str) -> tuple[str, int]:
    s, pos = read_nullable_string(buf, pos)
    if s is None:
        raise null_field(field)
    return s, pos


def read_compact_nullable_string(buf: memoryview, pos: int) -> tuple[str | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    return _text(buf, pos, n - 1), pos + n - 1


def read_compact_string(buf: memoryview, pos: int, field: str) -> tuple[str, int]:
    s, pos = read_compact_nullable_string(buf, pos)
    if s is None:
        raise null_field(field)
    return s, pos


def _utf8(s: str) -> bytes:
    b = s.encode()
    if len(b) > 0x7FFF:  # Kafka's limit for compact strings too
        raise UnsupportedVersionError(f"a string of {len(b)} bytes is longer than 32767")
    return b


def write_string(out: bytearray, s: str) -> None:
    b = _utf8(s)
    out += pack_int16(len(b))
    out += b


def write_nullable_string(out: bytearray, s: str | None) -> None:
    if s is None:
        out += b"\xff\xff"
    else:
        write_string(out, s)


def write_compact_string(out: bytearray, s: str) -> None:
    b = _utf8(s)
    write_uvarint(out, len(b) + 1)
    out += b


def write_compact_nullable_string(out: bytearray, s: str | None) -> None:
    if s is None:
        out.append(0)
    else:
        write_compact_string(out, s)


# Bytes: int32 length (-1 null) or compact uvarint length+1 (0 null). Records are bytes on the
# wire, but decode as a memoryview into the request buffer: no copy of the batches.


def read_nullable_records(buf: memoryview, pos: int) -> tuple[memoryview | None, int]:
    n = unpack_int32(buf, pos)[0]
    pos += 4
    if n < 0:
        return None, pos
    _need(buf, pos + n)
    return buf[pos : pos + n], pos + n


def read_compact_nullable_records(buf: memoryview, pos: int) -> tuple[memoryview | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    n -= 1
    _need(buf, pos + n)
    return buf[pos : pos + n], pos + n


def read_records(buf: memoryview, pos: int, field: str) -> tuple[memoryview, int]:
    b, pos = read_nullable_records(buf, pos)
    if b is None:
        raise null_field(field)
    return b, pos


def read_compact_records(buf: memoryview, pos: int, field: str) -> tuple[memoryview, int]:
    b, pos = read_compact_nullable_records(buf, pos)
    if b is None:
        raise null_field(field)
    return b, pos


def read_nullable_bytes(buf: memoryview, pos: int) -> tuple[bytes | None, int]:
    b, pos = read_nullable_records(buf, pos)
    return (None if b is None else bytes(b)), pos


def read_bytes(buf: memoryview, pos: int, field: str) -> tuple[bytes, int]:
    b, pos = read_records(buf, pos, field)
    return bytes(b), pos


def read_compact_nullable_bytes(buf: memoryview, pos: int) -> tuple[bytes | None, int]:
    b, pos = read_compact_nullable_records(buf, pos)
    return (None if b is None else bytes(b)), pos


def read_compact_bytes(buf: memoryview, pos: int, field: str) -> tuple[bytes, int]:
    b, pos = read_compact_records(buf, pos, field)
    return bytes(b), pos


def write_bytes(out: bytearray, b: bytes | memoryview) -> None:
    out += pack_int32(len(b))
    out += b


def write_nullable_bytes(out: bytearray, b: bytes | memoryview | None) -> None:
    if b is None:
        out += b"\xff\xff\xff\xff"
    else:
        write_bytes(out, b)


def write_compact_bytes(out: bytearray, b: bytes | memoryview) -> None:
    write_uvarint(out, len(b) + 1)
    out += b


def write_compact_nullable_bytes(out: bytearray, b: bytes | memoryview | None) -> None:
    if b is None:
        out.append(0)
    else:
        write_compact_bytes(out, b)


def read_uuid(buf: memoryview, pos: int) -> tuple[UUID, int]:
    _need(buf, pos + 16)
    return UUID(bytes=bytes(buf[pos : pos + 16])), pos + 16


def write_uuid(out: bytearray, u: UUID) -> None:
    out += u.bytes


# Tagged fields: uvarint count, then (uvarint tag, uvarint size, value) in increasing tag order.


def read_unknown_tag(buf: memoryview, pos: int, size: int) -> tuple[bytes, int]:
    _need(buf, pos + size)
    return bytes(buf[pos : pos + size]), pos + size


def read_unknown_tags(buf: memoryview, pos: int) -> tuple[list[tuple[int, bytes]], int]:
    """A tagged-field buffer of a struct that knows no tags at this version: all kept raw."""
    unknown = []
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        raw, pos = read_unknown_tag(buf, pos, size)
        unknown.append((tag, raw))
    return unknown, pos


def write_tagged_fields(out: bytearray, fields: Iterable[tuple[int, bytes | bytearray]]) -> None:
    """The tagged-field buffer: the known fields the caller encoded and the unknown ones it
    kept, sorted by tag as Kafka writes them."""
    ordered = sorted(fields, key=lambda f: f[0])
    if not ordered:
        out.append(0)
        return
    write_uvarint(out, len(ordered))
    for tag, value in ordered:
        write_uvarint(out, tag)
        write_uvarint(out, len(value))
        out += value
