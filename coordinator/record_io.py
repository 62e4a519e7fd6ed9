"""Big-endian readers and writers of the coordinators' record keys and values (the
encodings of Kafka's generated coordinator records: the classic ones non-flexible, the
KIP-848 values flexible, with compact strings and arrays and tagged fields)."""

from __future__ import annotations

import struct
import uuid


class RecordFormatError(ValueError):
    """A key or value in a coordinator topic that this broker cannot read."""


class RecordWriter:
    def __init__(self) -> None:
        self.buf = bytearray()

    def int16(self, v: int) -> RecordWriter:
        self.buf += struct.pack(">h", v)
        return self

    def int32(self, v: int) -> RecordWriter:
        self.buf += struct.pack(">i", v)
        return self

    def int64(self, v: int) -> RecordWriter:
        self.buf += struct.pack(">q", v)
        return self

    def string(self, v: str | None) -> RecordWriter:
        if v is None:
            return self.int16(-1)
        data = v.encode()
        self.int16(len(data))
        self.buf += data
        return self

    def bytes_(self, v: bytes | None) -> RecordWriter:
        if v is None:
            return self.int32(-1)
        self.int32(len(v))
        self.buf += v
        return self


    def int8(self, v: int) -> RecordWriter:
        self.buf += struct.pack(">b", v)
        return self

    def uvarint(self, v: int) -> RecordWriter:
        while v >= 0x80:
            self.buf.append((v & 0x7F) | 0x80)
            v >>= 7
        self.buf.append(v)
        return self

    def compact_string(self, v: str | None) -> RecordWriter:
        if v is None:
            return self.uvarint(0)
        data = v.encode()
        self.uvarint(len(data) + 1)
        self.buf += data
        return self

    def compact_array_length(self, n: int) -> RecordWriter:
        return self.uvarint(n + 1)

    def compact_bytes(self, v: bytes) -> RecordWriter:
        self.uvarint(len(v) + 1)
        self.buf += v
        return self

    def uuid(self, v: uuid.UUID) -> RecordWriter:
        self.buf += v.bytes
        return self

    def no_tagged_fields(self) -> RecordWriter:
        return self.uvarint(0)


class RecordReader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def _take(self, fmt: str) -> int:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise RecordFormatError("truncated record")
        (v,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return v

    def int8(self) -> int:
        return self._take(">b")

    def int16(self) -> int:
        return self._take(">h")

    def int32(self) -> int:
        return self._take(">i")

    def int64(self) -> int:
        return self._take(">q")

    def _raw(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise RecordFormatError("truncated record")
        out = bytes(self.data[self.pos:self.pos + n])
        self.pos += n
        return out

    def string(self) -> str | None:
        n = self.int16()
        return None if n < 0 else self._raw(n).decode()

    def bytes_(self) -> bytes | None:
        n = self.int32()
        return None if n < 0 else self._raw(n)

    def uvarint(self) -> int:
        value = shift = 0
        while True:
            b = self._raw(1)[0]
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7

    def compact_string(self) -> str | None:
        n = self.uvarint() - 1
        return None if n < 0 else self._raw(n).decode()

    def compact_array_length(self) -> int:
        """The element count; -1 for a null array."""
        return self.uvarint() - 1

    def compact_bytes(self) -> bytes:
        return self._raw(self.uvarint() - 1)

    def uuid(self) -> uuid.UUID:
        return uuid.UUID(bytes=self._raw(16))

    def at_end(self) -> bool:
        return self.pos == len(self.data)

    def tagged_fields(self) -> dict[int, bytes]:
        """The tagged fields, tag -> raw bytes, for a reader that knows some of them."""
        out = {}
        for _ in range(self.uvarint()):
            tag = self.uvarint()
            out[tag] = self._raw(self.uvarint())
        return out

    def skip_tagged_fields(self) -> None:
        for _ in range(self.uvarint()):
            self.uvarint()  # tag
            self._raw(self.uvarint())


# -- what the KIP-848 consumer group and KIP-1071 streams group records share ----------------


def member_key(record_type: int, group: str, member_id: str | None) -> bytes:
    """A key: its int16 record type, the group id, and the member id of a per-member record (None:
    a group-level record, which has none)."""
    w = RecordWriter().int16(record_type).string(group)
    if member_id is not None:
        w.string(member_id)
    return bytes(w.buf)


def flexible_value(version: int = 0) -> RecordWriter:
    """A writer of a value, its int16 version written."""
    return RecordWriter().int16(version)


def read_flexible_value(data: bytes, what: str, version: int = 0) -> RecordReader:
    """A reader past a value's version, which must be `version`: `what` names the records in the error."""
    r = RecordReader(data)
    found = r.int16()
    if found != version:
        raise RecordFormatError(f"unknown {what} record value version {found}")
    return r
