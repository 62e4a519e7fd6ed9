"""Big-endian readers and writers of the coordinators' record keys and values (the
non-flexible encodings of Kafka's generated coordinator records)."""

from __future__ import annotations

import struct


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

    def skip_tagged_fields(self) -> None:
        for _ in range(self.uvarint()):
            self.uvarint()  # tag
            self._raw(self.uvarint())
