"""Legacy message sets (magic 0 and 1), and conversion to and from v2 batches, sans-IO.

The broker stores only v2 batches. Produce requests v0-v2 carry message sets, which are
up-converted with `to_v2`; Fetch v0-v3 responses must carry message sets, which are
down-converted from the log with `from_v2`.

MessageSet entry: offset int64, size int32, then the message:
    crc uint32 (CRC-32 of everything after it), magic int8, attributes int8,
    [timestamp int64, magic 1 only], key bytes (int32 length, -1 = null), value bytes.
Attributes: bits 0-2 codec, bit 3 timestamp type (magic 1). A compressed "wrapper"
message holds a whole compressed message set as its value; its offset is the last inner
offset. Inner offsets are absolute with magic 0 and relative (0..n-1) with magic 1.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from josefk.protocol import compression as codecs
from josefk.protocol.record_codec import Record, build_batch, decode_batch
from josefk.protocol.records import (
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    CorruptRecordError,
    read_header,
)

NO_TIMESTAMP = -1
NO_TIMESTAMP_TYPE = -1
CREATE_TIME = 0
LOG_APPEND_TIME = 1

CODEC_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08

_ENTRY = struct.Struct(">qi")  # offset, message size
_PREFIX = struct.Struct(">Ibb")  # crc, magic, attributes
_TIMESTAMP = struct.Struct(">q")
_INT32 = struct.Struct(">i")
# crc + magic + attributes + key length + value length (+ timestamp for magic 1)
MIN_MESSAGE_SIZE = {0: 14, 1: 22}

Buffer = bytes | bytearray | memoryview


@dataclass(slots=True)
class LegacyMessage:
    """One (decompressed) message with its absolute offset.

    timestamp is -1 and timestamp_type -1 for magic 0; for magic 1 timestamp_type is
    CREATE_TIME or LOG_APPEND_TIME.
    """

    offset: int
    magic: int
    timestamp: int
    timestamp_type: int
    key: bytes | None
    value: bytes | None


@dataclass(slots=True)
class _Entry:
    offset: int
    magic: int
    attributes: int
    timestamp: int
    key: bytes | None
    value: bytes | None


# --- decoding ---------------------------------------------------------------------


def _read_bytes(buf: Buffer, pos: int, end: int) -> tuple[bytes | None, int]:
    if pos + 4 > end:
        raise CorruptRecordError("message key or value length past the end of the message")
    (size,) = _INT32.unpack_from(buf, pos)
    pos += 4
    if size < 0:
        return None, pos
    if pos + size > end:
        raise CorruptRecordError("message key or value past the end of the message")
    return bytes(buf[pos : pos + size]), pos + size


def _iter_entries(buf: Buffer, allow_partial_tail: bool) -> Iterable[_Entry]:
    """Shallow walk: each top-level message, CRC-checked, compressed values left as they are."""
    view = memoryview(buf)
    pos, end = 0, len(view)
    while pos < end:
        if end - pos < LOG_OVERHEAD:
            if allow_partial_tail:
                return
            raise CorruptRecordError("truncated message set entry header")
        offset, size = _ENTRY.unpack_from(view, pos)
        if size < MIN_MESSAGE_SIZE[0]:
            raise CorruptRecordError(f"message size {size} below the minimum message size")
        msg_end = pos + LOG_OVERHEAD + size
        if msg_end > end:
            if allow_partial_tail:
                return
            raise CorruptRecordError("message extends past the end of the message set")
        crc, magic, attributes = _PREFIX.unpack_from(view, pos + LOG_OVERHEAD)
        if magic not in MIN_MESSAGE_SIZE:
            raise CorruptRecordError(f"unexpected magic {magic} in a legacy message set")
        if size < MIN_MESSAGE_SIZE[magic]:
            raise CorruptRecordError(f"message size {size} below the minimum for magic {magic}")
        if zlib.crc32(view[pos + MAGIC_OFFSET : msg_end]) != crc:
            raise CorruptRecordError(f"CRC mismatch in message at offset {offset}")
        p = pos + MAGIC_OFFSET + 2
        timestamp = NO_TIMESTAMP
        if magic == 1:
            (timestamp,) = _TIMESTAMP.unpack_from(view, p)
            p += 8
        key, p = _read_bytes(view, p, msg_end)
        value, p = _read_bytes(view, p, msg_end)
        if p != msg_end:
            raise CorruptRecordError(f"message at offset {offset} has trailing bytes")
        yield _Entry(offset, magic, attributes, timestamp, key, value)
        pos = msg_end


def _expand(entry: _Entry) -> list[LegacyMessage]:
    """One top-level entry as messages: itself, or the inner messages of a compressed wrapper."""
    magic = entry.magic
    log_append = magic == 1 and bool(entry.attributes & TIMESTAMP_TYPE_MASK)
    ts_type = NO_TIMESTAMP_TYPE if magic == 0 else (LOG_APPEND_TIME if log_append else CREATE_TIME)
    codec = entry.attributes & CODEC_MASK
    if not codec:
        return [LegacyMessage(entry.offset, magic, entry.timestamp, ts_type, entry.key, entry.value)]
    if entry.value is None:
        raise CorruptRecordError(f"compressed message at offset {entry.offset} has a null value")
    inner = list(_iter_entries(codecs.decompress(codec, entry.value, magic=magic), False))
    if not inner:
        raise CorruptRecordError(f"compressed message at offset {entry.offset} is empty")
    # magic 1 inner offsets are relative; the wrapper carries the last absolute offset
    shift = entry.offset - inner[-1].offset if magic == 1 else 0
    messages = []
    for e in inner:
        if e.attributes & CODEC_MASK:
            raise CorruptRecordError(f"nested compression in message at offset {entry.offset}")
        if e.magic != magic:
            raise CorruptRecordError(f"inner magic {e.magic} differs from wrapper magic {magic}")
        ts = entry.timestamp if log_append else e.timestamp
        messages.append(LegacyMessage(e.offset + shift, magic, ts, ts_type, e.key, e.value))
    return messages


def decode_message_set(buf: Buffer, *, allow_partial_tail: bool = False) -> list[LegacyMessage]:
    """Every message of a magic 0/1 message set, decompressing wrappers.

    A fetch response may end in a partial message (the broker cuts at max bytes): pass
    allow_partial_tail=True to stop there silently. Anything else malformed raises
    CorruptRecordError; an unusable codec raises compression.UnsupportedCodecError.
    """
    return [m for entry in _iter_entries(buf, allow_partial_tail) for m in _expand(entry)]


# --- encoding ---------------------------------------------------------------------


def _encode_message(
    out: bytearray,
    offset: int,
    magic: int,
    attributes: int,
    timestamp: int,
    key: bytes | None,
    value: bytes | None,
) -> None:
    body = bytearray((magic, attributes))
    if magic == 1:
        body += _TIMESTAMP.pack(timestamp)
    for field in (key, value):
        if field is None:
            body += _INT32.pack(-1)
        else:
            body += _INT32.pack(len(field))
            body += field
    out += _ENTRY.pack(offset, len(body) + 4)
    out += struct.pack(">I", zlib.crc32(body))
    out += body


def build_message_set(messages: Iterable[LegacyMessage], magic: int, compression: int = 0) -> bytes:
    """Encode messages (with their absolute offsets) as a magic 0/1 message set.

    With a codec, all messages go into one wrapper whose offset is the last message's;
    inner offsets are relative for magic 1. For magic 1 a message with timestamp_type
    LOG_APPEND_TIME sets the timestamp-type bit (on the wrapper, when compressed).
    """
    if magic not in MIN_MESSAGE_SIZE:
        raise ValueError(f"legacy message sets have magic 0 or 1, not {magic}")
    messages = list(messages)
    out = bytearray()
    if not messages:
        return b""

    def ts_bits(m: LegacyMessage) -> int:
        return TIMESTAMP_TYPE_MASK if magic == 1 and m.timestamp_type == LOG_APPEND_TIME else 0

    if not compression:
        for m in messages:
            _encode_message(out, m.offset, magic, ts_bits(m), m.timestamp, m.key, m.value)
        return bytes(out)
    base = messages[0].offset if magic == 1 else 0
    inner = bytearray()
    for m in messages:
        _encode_message(inner, m.offset - base, magic, ts_bits(m), m.timestamp, m.key, m.value)
    wrapped = codecs.compress(compression, inner, magic=magic)
    attributes = (compression & CODEC_MASK) | max(ts_bits(m) for m in messages)
    timestamp = max(m.timestamp for m in messages) if magic == 1 else NO_TIMESTAMP
    _encode_message(out, messages[-1].offset, magic, attributes, timestamp, None, wrapped)
    return bytes(out)


# --- conversion -------------------------------------------------------------------


def to_v2(buf: Buffer) -> bytes:
    """Up-convert a produced magic 0/1 message set into one v2 batch, as Kafka does on produce.

    Offsets become 0..n-1 (the log assigns the base offset), the codec of the first
    compressed wrapper is kept, magic 1 timestamps are kept and magic 0 ones are -1
    (NO_TIMESTAMP). A truncated or corrupt message set raises CorruptRecordError.
    """
    messages: list[LegacyMessage] = []
    codec = 0
    for entry in _iter_entries(buf, False):
        codec = codec or entry.attributes & CODEC_MASK
        messages.extend(_expand(entry))
    if not messages:
        raise CorruptRecordError("empty message set")
    records = [Record(i, m.timestamp, m.key, m.value) for i, m in enumerate(messages)]
    return build_batch(records, compression=codec)


def from_v2(buf: Buffer, magic: int, *, allow_partial_tail: bool = True) -> bytes:
    """Down-convert v2 batches read from the log into a magic 0/1 message set for Fetch v0-v3.

    Offsets stay absolute. A compressed batch becomes one compressed wrapper with the
    same codec, an uncompressed batch becomes plain messages; headers and control
    batches are dropped. zstd cannot be expressed in magic 0/1 and raises
    UnsupportedCodecError (Kafka answers UNSUPPORTED_COMPRESSION_TYPE). A partial batch
    at the end (a log read cut at max bytes) is skipped unless allow_partial_tail=False.
    """
    if magic not in MIN_MESSAGE_SIZE:
        raise ValueError(f"legacy message sets have magic 0 or 1, not {magic}")
    view = memoryview(buf)
    out = bytearray()
    pos, end = 0, len(view)
    while pos < end:
        if end - pos < HEADER_SIZE or pos + LOG_OVERHEAD + _INT32.unpack_from(view, pos + 8)[0] > end:
            if allow_partial_tail:
                break
            raise CorruptRecordError("truncated record batch")
        header = read_header(view, pos)
        pos += header.size
        if header.is_control:
            continue
        if header.compression == codecs.ZSTD:
            raise codecs.UnsupportedCodecError(f"zstd batch at offset {header.base_offset} needs magic 2")
        records = decode_batch(view, header)
        if not records:
            continue
        ts_type = (
            NO_TIMESTAMP_TYPE
            if magic == 0
            else (LOG_APPEND_TIME if header.is_log_append_time else CREATE_TIME)
        )
        messages = [
            LegacyMessage(r.offset, magic, r.timestamp if magic else NO_TIMESTAMP, ts_type, r.key, r.value)
            for r in records
        ]
        out += build_message_set(messages, magic, header.compression)
    return bytes(out)
