"""Compression codecs for record batches and legacy message sets, sans-IO.

Kafka's wire formats carry a 3-bit codec id. Three of the codecs have quirks that
matter for interoperability with real clients:

* snappy: the Java client (via xerial snappy-java) and librdkafka wrap raw snappy
  blocks in the xerial stream framing; older or other clients send raw snappy. We read
  both and write xerial framing, which every client can read.
* lz4: payloads are standard LZ4 frames with independent blocks, except that Kafka
  before 0.10 (message format magic 0) computed the frame header checksum over the
  wrong bytes (KAFKA-3160: the 4 magic bytes were included). Magic 0 is read and
  written with that broken checksum, as old clients expect.
* zstd: only valid in magic 2 batches (Kafka 2.1+).

Decompression is bounded (MAX_DECOMPRESSED_SIZE): gzip reaches ~1,000x and zstd 32,768x,
so a 1 MB produce request could otherwise make the broker allocate gigabytes. Kafka streams
records out of its decompressors instead; a whole-batch bound is the Python equivalent.
"""

from __future__ import annotations

import gzip
import struct
import zlib

import cramjam
import lz4.frame
import zstandard

from josefk.protocol.records import CorruptRecordError

NONE = 0
GZIP = 1
SNAPPY = 2
LZ4 = 3
ZSTD = 4

CODEC_NAMES = {NONE: "none", GZIP: "gzip", SNAPPY: "snappy", LZ4: "lz4", ZSTD: "zstd"}

Buffer = bytes | bytearray | memoryview


class UnsupportedCodecError(ValueError):
    """The codec id is unknown or not allowed for this format (UNSUPPORTED_COMPRESSION_TYPE)."""


class DecompressionError(CorruptRecordError):
    """The compressed payload is malformed; callers treat it like any corrupt record."""


class DecompressedSizeError(DecompressionError):
    """The payload expands past the bound; a produce gets MESSAGE_TOO_LARGE, which makes
    the Java producer split the batch and retry."""


# No real producer writes a batch near this: batch.size bounds the compressed size
# (16 KiB by default) and max.request.size the request (1 MiB).
MAX_DECOMPRESSED_SIZE = 256 * 1024 * 1024
_LZ4_CHUNK = 64 * 1024  # Kafka's LZ4 block size; python-lz4 allocates each max_length whole


def codec_name(codec: int) -> str:
    return CODEC_NAMES.get(codec, f"unknown({codec})")


def _check(codec: int, magic: int) -> None:
    if codec not in CODEC_NAMES:
        raise UnsupportedCodecError(f"unknown compression codec id {codec}")
    if codec == ZSTD and magic < 2:
        raise UnsupportedCodecError("zstd compression requires message format magic 2")


def compress(codec: int, data: Buffer, *, magic: int = 2) -> bytes:
    """Compress `data` the way the Java client does for this codec and message format."""
    _check(codec, magic)
    if codec == NONE:
        return bytes(data)
    if codec == GZIP:
        return gzip.compress(bytes(data), compresslevel=6, mtime=0)
    if codec == SNAPPY:
        return _xerial_compress(data)
    if codec == LZ4:
        return _lz4_compress(data, broken_checksum=magic == 0)
    return bytes(cramjam.zstd.compress(data, level=3))


def decompress(codec: int, data: Buffer, *, magic: int = 2, max_size: int | None = None) -> bytes:
    """Decompress a payload written by any common client; malformed input raises
    DecompressionError, output beyond `max_size` (MAX_DECOMPRESSED_SIZE by default)
    DecompressedSizeError before it is held."""
    _check(codec, magic)
    out = _Output(MAX_DECOMPRESSED_SIZE if max_size is None else max_size)
    try:
        if codec == NONE:
            return bytes(data)
        if codec == GZIP:
            _gzip_decompress(data, out)
        elif codec == SNAPPY:
            _snappy_decompress(data, out)
        elif codec == LZ4:
            _lz4_decompress(data, out, allow_broken_checksum=magic == 0)
        else:
            _zstd_decompress(data, out)
        return b"".join(out.parts)
    except DecompressionError:
        raise
    except Exception as exc:  # the codec libraries raise assorted exception types
        raise DecompressionError(f"cannot decompress {codec_name(codec)} payload: {exc}") from exc


class _Output:
    """Decompressed parts, refused once they exceed the bound."""

    def __init__(self, max_size: int) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.max_size = max_size

    @property
    def room(self) -> int:
        """Bytes a codec may still produce, plus one to tell "too large" from "exactly full"."""
        return self.max_size - self.size + 1

    def add(self, part: bytes) -> None:
        self.size += len(part)
        if self.size > self.max_size:
            raise DecompressedSizeError(f"payload decompresses to more than {self.max_size} bytes")
        self.parts.append(part)


# --- gzip -------------------------------------------------------------------------


def _gzip_decompress(data: Buffer, out: _Output) -> None:
    """Read all gzip members: some producers write several concatenated members. zlib grows
    its output buffer as it writes, so a bound at `room` allocates no more than it produces."""
    data = bytes(data)
    while data:
        d = zlib.decompressobj(wbits=31)
        out.add(d.decompress(data, out.room))
        if not d.eof:
            raise DecompressionError("truncated gzip payload")
        data = d.unused_data


# --- snappy -----------------------------------------------------------------------

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = struct.Struct(">8sii")  # magic, version, min compatible version
XERIAL_BLOCK_SIZE = 32 * 1024  # snappy-java's default block size


def _xerial_compress(data: Buffer) -> bytes:
    """xerial snappy-java stream: header, then (int32 length, raw snappy block) pairs."""
    view = memoryview(data)
    parts = [_XERIAL_HEADER.pack(XERIAL_MAGIC, 1, 1)]
    for start in range(0, len(view), XERIAL_BLOCK_SIZE):
        block = bytes(cramjam.snappy.compress_raw(view[start : start + XERIAL_BLOCK_SIZE]))
        parts.append(struct.pack(">i", len(block)))
        parts.append(block)
    return b"".join(parts)


# A snappy element expands at most 64 bytes from 3 (a copy with a 2-byte offset).
SNAPPY_MAX_EXPANSION = 22


def _snappy_raw(block: memoryview) -> bytes:
    """One raw snappy block. cramjam allocates the length its preamble declares before it
    decodes a byte, and aborts the process if that fails: a 5-byte payload could claim
    4 GiB. A length more than the block's bytes can expand to is refused first."""
    declared = shift = 0
    for position, byte in enumerate(block[:5]):
        declared |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if declared > SNAPPY_MAX_EXPANSION * (len(block) - position - 1):
                raise DecompressionError(f"snappy block of {len(block)} bytes declares {declared} "
                                         f"uncompressed bytes, more than it can hold")
            return bytes(cramjam.snappy.decompress_raw(block))
    raise DecompressionError("malformed snappy length preamble")


def _snappy_decompress(data: Buffer, out: _Output) -> None:
    """Raw snappy, or xerial framing recognised by its 8-byte magic."""
    view = memoryview(data)
    if len(view) < _XERIAL_HEADER.size or bytes(view[:8]) != XERIAL_MAGIC:
        out.add(_snappy_raw(view))
        return
    pos = _XERIAL_HEADER.size
    while pos < len(view):
        if pos + 4 > len(view):
            raise DecompressionError("truncated xerial snappy block length")
        (size,) = struct.unpack_from(">i", view, pos)
        pos += 4
        if size < 0 or pos + size > len(view):
            raise DecompressionError("truncated xerial snappy block")
        out.add(_snappy_raw(view[pos : pos + size]))
        pos += size


# --- lz4 --------------------------------------------------------------------------

LZ4_FRAME_MAGIC = b"\x04\x22\x4d\x18"
_FLG_CONTENT_SIZE = 0x08

_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
_M32 = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def xxh32(data: Buffer, seed: int = 0) -> int:
    """XXH32, needed for LZ4 frame header checksums (only a few bytes are ever hashed)."""
    b = bytes(data)
    n, pos = len(b), 0
    if n >= 16:
        v = [(seed + _P1 + _P2) & _M32, (seed + _P2) & _M32, seed & _M32, (seed - _P1) & _M32]
        while pos + 16 <= n:
            for i, lane in enumerate(struct.unpack_from("<4I", b, pos)):
                v[i] = (_rotl((v[i] + lane * _P2) & _M32, 13) * _P1) & _M32
            pos += 16
        h = _rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)
    else:
        h = seed + _P5
    h = (h + n) & _M32
    while pos + 4 <= n:
        (word,) = struct.unpack_from("<I", b, pos)
        h = (_rotl((h + word * _P3) & _M32, 17) * _P4) & _M32
        pos += 4
    while pos < n:
        h = (_rotl((h + b[pos] * _P5) & _M32, 11) * _P1) & _M32
        pos += 1
    h ^= h >> 15
    h = (h * _P2) & _M32
    h ^= h >> 13
    h = (h * _P3) & _M32
    h ^= h >> 16
    return h


def _lz4_header_end(frame: bytes) -> int:
    """Index of the header checksum byte (after magic, FLG, BD and optional content size)."""
    if len(frame) < 7 or frame[:4] != LZ4_FRAME_MAGIC:
        raise DecompressionError("not an LZ4 frame")
    end = 6 + (8 if frame[4] & _FLG_CONTENT_SIZE else 0)
    if len(frame) <= end:
        raise DecompressionError("truncated LZ4 frame header")
    return end


def _lz4_compress(data: Buffer, *, broken_checksum: bool) -> bytes:
    """LZ4 frame with independent 64 KiB blocks and no content size, as Kafka's Java codec writes."""
    frame = lz4.frame.compress(
        bytes(data),
        block_size=lz4.frame.BLOCKSIZE_MAX64KB,
        block_linked=False,
        content_checksum=False,
        store_size=False,
    )
    if not broken_checksum:
        return frame
    end = _lz4_header_end(frame)
    wrong = (xxh32(frame[:end]) >> 8) & 0xFF  # KAFKA-3160: hashed from the magic, not from FLG
    return frame[:end] + bytes([wrong]) + frame[end + 1 :]


def _lz4_decompress(data: Buffer, out: _Output, *, allow_broken_checksum: bool) -> None:
    """Every frame in the payload (clients write one; a reader must not drop a second),
    read in chunks: python-lz4 allocates the whole `max_length` it is given."""
    rest = bytes(data)
    while rest:
        end = _lz4_header_end(rest)
        right = (xxh32(rest[4:end]) >> 8) & 0xFF
        if rest[end] != right:
            wrong = (xxh32(rest[:end]) >> 8) & 0xFF
            if not (allow_broken_checksum and rest[end] == wrong):
                raise DecompressionError("LZ4 frame header checksum mismatch")
            rest = rest[:end] + bytes([right]) + rest[end + 1 :]
        reader = lz4.frame.LZ4FrameDecompressor()
        out.add(reader.decompress(rest, max_length=min(_LZ4_CHUNK, out.room)))
        while not reader.eof and not reader.needs_input:
            out.add(reader.decompress(b"", max_length=min(_LZ4_CHUNK, out.room)))
        if not reader.eof:
            raise DecompressionError("truncated LZ4 frame")
        rest = reader.unused_data


# --- zstd -------------------------------------------------------------------------

# A zstd block yields at most 128 KiB and takes at least 4 bytes (an RLE block).
ZSTD_MAX_EXPANSION = 128 * 1024 // 4


def _zstd_decompress(data: Buffer, out: _Output) -> None:
    """Every frame in the payload. python-zstandard's bounded readers do not report a
    truncated frame, its decompressobj has no output bound: so input is fed in pieces
    small enough that one piece cannot expand past the room left (plus one block)."""
    rest = bytes(data)
    while True:
        d = zstandard.ZstdDecompressor().decompressobj()  # a decompressor is not thread-safe
        pos = 0
        while not d.eof and pos < len(rest):
            piece = max(64, out.room // ZSTD_MAX_EXPANSION)
            out.add(d.decompress(rest[pos : pos + piece]))
            pos += piece
        if not d.eof:
            raise DecompressionError("truncated zstd frame")
        rest = d.unused_data + rest[pos:]
        if not rest:
            return
