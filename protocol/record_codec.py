"""Records inside a v2 record batch (magic 2): decode and build complete batches, sans-IO.

The hot path keeps batches opaque (josefk.protocol.records); this module is for the
places that must look inside: format conversion for old clients, compacted topics,
internal topics the broker writes itself, and tests.

Record layout (all varints zigzag-encoded):
    length varint, attributes int8, timestampDelta varlong, offsetDelta varint,
    keyLength varint, key, valueLength varint, value,
    headerCount varint, [headerKeyLength varint, headerKey, headerValueLength varint, value]
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import crc32c

from josefk.protocol import compression as codecs
from josefk.protocol.records import (
    COMPRESSION_MASK,
    CONTROL_MASK,
    HEADER_SIZE,
    LOG_OVERHEAD,
    TIMESTAMP_TYPE_MASK,
    TRANSACTIONAL_MASK,
    BatchHeader,
    CorruptRecordError,
    iter_headers,
    verify_crc,
)

NO_TIMESTAMP = -1
Buffer = bytes | bytearray | memoryview
Header = tuple[str, bytes | None]

# Everything after the CRC: attributes .. record count; the CRC covers this plus the records.
_AFTER_CRC = struct.Struct(">hiqqqhii")
_BEFORE_CRC = struct.Struct(">qiibI")


@dataclass(slots=True)
class Record:
    """One record with absolute offset and timestamp (deltas exist only on the wire)."""

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[Header] = field(default_factory=list)


# --- varints ----------------------------------------------------------------------


def zigzag_encode(n: int) -> int:
    """Map signed to unsigned so small negatives stay short (-1 -> 1, 1 -> 2)."""
    return (n << 1) ^ (n >> 63)


def zigzag_decode(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def write_varint(out: bytearray, n: int) -> None:
    """Append a zigzag varint/varlong (the record format's signed integers)."""
    u = zigzag_encode(n) & 0xFFFFFFFFFFFFFFFF
    while u >= 0x80:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)


def encode_varint(n: int) -> bytes:
    out = bytearray()
    write_varint(out, n)
    return bytes(out)


def read_varint(buf: Buffer, pos: int) -> tuple[int, int]:
    """Read a zigzag varint at `pos`; returns (value, next position). At most 10 bytes (varlong)."""
    result = shift = 0
    end = len(buf)
    while True:
        if pos >= end:
            raise CorruptRecordError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return zigzag_decode(result), pos
        shift += 7
        if shift >= 70:
            raise CorruptRecordError("varint longer than 10 bytes")


def varint_size(n: int) -> int:
    u = zigzag_encode(n) & 0xFFFFFFFFFFFFFFFF
    size = 1
    while u >= 0x80:
        u >>= 7
        size += 1
    return size


# --- records ----------------------------------------------------------------------


def _write_bytes(out: bytearray, data: bytes | None) -> None:
    if data is None:
        write_varint(out, -1)
    else:
        write_varint(out, len(data))
        out += data


def encode_record(out: bytearray, offset_delta: int, timestamp_delta: int, record: Record) -> None:
    """Append one length-prefixed record."""
    body = bytearray(b"\x00")  # attributes: unused
    write_varint(body, timestamp_delta)
    write_varint(body, offset_delta)
    _write_bytes(body, record.key)
    _write_bytes(body, record.value)
    write_varint(body, len(record.headers))
    for hkey, hvalue in record.headers:
        _write_bytes(body, hkey.encode())
        _write_bytes(body, hvalue)
    write_varint(out, len(body))
    out += body


def _read_bytes(buf: Buffer, pos: int, end: int) -> tuple[bytes | None, int]:
    size, pos = read_varint(buf, pos)
    if size < 0:
        return None, pos
    if pos + size > end:
        raise CorruptRecordError("record field extends past the record")
    return bytes(buf[pos : pos + size]), pos + size


def decode_records(
    data: Buffer, count: int, base_offset: int, base_timestamp: int, log_append_time: int | None = None
) -> list[Record]:
    """Decode `count` records from uncompressed record bytes, which they must fill exactly."""
    if count < 0:
        raise CorruptRecordError(f"negative record count {count}")
    records: list[Record] = []
    pos, total = 0, len(data)
    for _ in range(count):
        length, pos = read_varint(data, pos)
        end = pos + length
        if length < 1 or end > total:
            raise CorruptRecordError("record extends past the end of the batch")
        pos += 1  # attributes
        ts_delta, pos = read_varint(data, pos)
        offset_delta, pos = read_varint(data, pos)
        key, pos = _read_bytes(data, pos, end)
        value, pos = _read_bytes(data, pos, end)
        n_headers, pos = read_varint(data, pos)
        if n_headers < 0:
            raise CorruptRecordError("negative header count")
        headers: list[Header] = []
        for _ in range(n_headers):
            hkey, pos = _read_bytes(data, pos, end)
            if hkey is None:
                raise CorruptRecordError("null header key")
            hvalue, pos = _read_bytes(data, pos, end)
            # Kafka reads header keys with new String(bytes, UTF_8), which replaces bad
            # sequences: the validator accepts such keys, so every reader must read them.
            headers.append((hkey.decode("utf-8", "replace"), hvalue))
        if pos != end:
            raise CorruptRecordError("record length does not match its fields")
        timestamp = log_append_time if log_append_time is not None else base_timestamp + ts_delta
        records.append(Record(base_offset + offset_delta, timestamp, key, value, headers))
    if pos != total:
        raise CorruptRecordError("bytes left over after the declared record count")
    return records


@dataclass(slots=True)
class RecordScan:
    """What validation needs from a batch's records, found without materialising them."""

    min_timestamp_delta: int
    max_timestamp_delta: int
    offsets_consecutive: bool  # offset deltas are 0, 1, ..., count - 1


def scan_records(data: Buffer, count: int) -> RecordScan:
    """Check the framing of `count` records in uncompressed record bytes, which they must
    fill exactly, without copying keys, values or headers (Kafka's skipKeyValueIterator).

    Raises CorruptRecordError naming what is wrong, in Kafka's words where it has them.
    Varints of one and two bytes, nearly all of them, are read inline (a call per field
    doubles the cost): this runs on every compressed append.
    """
    if count < 0:
        raise CorruptRecordError(f"negative record count {count}")
    pos, total = 0, len(data)
    lo, hi = 1 << 63, -(1 << 63)
    consecutive = True
    try:
        for index in range(count):
            if pos >= total:
                raise CorruptRecordError("Incorrect declared batch size, premature EOF reached")
            # Each field: b < 0x80 is a one-byte varint, a second byte < 0x80 ends a two-byte one.
            b = data[pos]
            if b < 0x80:
                length, pos = (b >> 1) ^ -(b & 1), pos + 1
            elif data[pos + 1] < 0x80:
                u = (b & 0x7F) | (data[pos + 1] << 7)
                length, pos = (u >> 1) ^ -(u & 1), pos + 2
            else:
                length, pos = read_varint(data, pos)
            end = pos + length
            if length < 1 or end > total:
                raise CorruptRecordError(f"Invalid record size: expected {length} bytes in record payload, "
                                         f"but only {total - pos} remain")
            pos += 1  # attributes
            b = data[pos]
            if b < 0x80:
                ts_delta, pos = (b >> 1) ^ -(b & 1), pos + 1
            elif data[pos + 1] < 0x80:
                u = (b & 0x7F) | (data[pos + 1] << 7)
                ts_delta, pos = (u >> 1) ^ -(u & 1), pos + 2
            else:
                ts_delta, pos = read_varint(data, pos)
            if ts_delta < lo:
                lo = ts_delta
            if ts_delta > hi:
                hi = ts_delta
            b = data[pos]
            if b < 0x80:
                offset_delta, pos = (b >> 1) ^ -(b & 1), pos + 1
            elif data[pos + 1] < 0x80:
                u = (b & 0x7F) | (data[pos + 1] << 7)
                offset_delta, pos = (u >> 1) ^ -(u & 1), pos + 2
            else:
                offset_delta, pos = read_varint(data, pos)
            if offset_delta != index:
                consecutive = False
            for _ in (0, 1):  # key, value: a length (negative = null) and that many bytes
                b = data[pos]
                if b < 0x80:
                    size, pos = (b >> 1) ^ -(b & 1), pos + 1
                elif data[pos + 1] < 0x80:
                    u = (b & 0x7F) | (data[pos + 1] << 7)
                    size, pos = (u >> 1) ^ -(u & 1), pos + 2
                else:
                    size, pos = read_varint(data, pos)
                if size > 0:
                    pos += size
            headers, pos = read_varint(data, pos)
            if headers < 0:
                raise CorruptRecordError(f"Found invalid number of record headers {headers}")
            for _ in range(headers):
                size, pos = read_varint(data, pos)
                if size < 0:
                    raise CorruptRecordError(f"Invalid negative header key size {size}")
                pos += size
                size, pos = read_varint(data, pos)
                if size > 0:
                    pos += size
            if pos != end:
                raise CorruptRecordError(f"Invalid record size: expected to read {length} bytes in record "
                                         f"payload, but instead read {length + pos - end}")
    except IndexError:
        raise CorruptRecordError("Incorrect declared batch size, premature EOF reached") from None
    if pos != total:
        raise CorruptRecordError("Incorrect declared batch size, records still remaining in file")
    if not count:
        lo = hi = 0
    return RecordScan(lo, hi, consecutive)


# --- batches ----------------------------------------------------------------------


def decode_batch(buf: Buffer, header: BatchHeader, *, check_crc: bool = True) -> list[Record]:
    """All records of one v2 batch, decompressed, with absolute offsets and timestamps.

    With LogAppendTime every record takes the batch's max timestamp, as Kafka's readers do.
    """
    if check_crc:
        verify_crc(buf, header)
    data: Buffer = memoryview(buf)[header.position + HEADER_SIZE : header.position + header.size]
    if header.compression:
        data = codecs.decompress(header.compression, data, magic=2)
    log_append = header.max_timestamp if header.is_log_append_time else None
    return decode_records(data, header.record_count, header.base_offset, header.base_timestamp, log_append)


def iter_batches(buf: Buffer, *, check_crc: bool = True) -> Iterator[tuple[BatchHeader, list[Record]]]:
    """Every batch of a complete v2 record set with its records."""
    for header in iter_headers(buf):
        yield header, decode_batch(buf, header, check_crc=check_crc)


def decode_all(buf: Buffer, *, check_crc: bool = True) -> list[Record]:
    """The records of every batch in a complete v2 record set, flattened."""
    return [r for _, records in iter_batches(buf, check_crc=check_crc) for r in records]


def build_batch(
    records: Iterable[Record],
    *,
    base_offset: int = 0,
    compression: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    timestamp_type_log_append: bool = False,
    is_transactional: bool = False,
    is_control: bool = False,
    partition_leader_epoch: int = -1,
    base_timestamp: int | None = None,
    max_timestamp: int | None = None,
) -> bytes:
    """A complete, CRC-signed v2 batch. Offset deltas are `record.offset - base_offset`.

    base_timestamp defaults to the first record's timestamp and max_timestamp to the
    largest record timestamp (pass the append time for a LogAppendTime batch).
    """
    records = list(records)
    if not records:
        raise ValueError("a record batch needs at least one record")
    if base_timestamp is None:
        base_timestamp = records[0].timestamp
    if max_timestamp is None:
        max_timestamp = max(r.timestamp for r in records)
    body = bytearray()
    previous = -1
    for record in records:
        delta = record.offset - base_offset
        if delta <= previous or delta > 0x7FFFFFFF:
            raise ValueError(f"record offset {record.offset} out of order or out of range for the batch")
        previous = delta
        encode_record(body, delta, record.timestamp - base_timestamp, record)
    payload = codecs.compress(compression, body, magic=2) if compression else bytes(body)
    attributes = compression & COMPRESSION_MASK
    if timestamp_type_log_append:
        attributes |= TIMESTAMP_TYPE_MASK
    if is_transactional:
        attributes |= TRANSACTIONAL_MASK
    if is_control:
        attributes |= CONTROL_MASK
    after_crc = _AFTER_CRC.pack(
        attributes,
        previous,
        base_timestamp,
        max_timestamp,
        producer_id,
        producer_epoch,
        base_sequence,
        len(records),
    )
    crc = crc32c.crc32c(payload, crc32c.crc32c(after_crc))
    batch_length = HEADER_SIZE - LOG_OVERHEAD + len(payload)
    return _BEFORE_CRC.pack(base_offset, batch_length, partition_leader_epoch, 2, crc) + after_crc + payload
