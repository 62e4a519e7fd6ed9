"""Record batch v2 headers: read, validate and patch batches without decoding records.

A v2 batch is kept opaque on the hot path: the broker checks its 61-byte header and its
CRC-32C, then rewrites only the base offset and partition leader epoch, which the CRC
does not cover. Record-level encoding lives in josefk.protocol.record_codec; the legacy
message sets (magic 0 and 1) in josefk.protocol.legacy.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass

import crc32c

HEADER_SIZE = 61
LOG_OVERHEAD = 12  # base offset (8) + batch length (4): bytes before the length counts
MAGIC_OFFSET = 16
CRC_OFFSET = 17
ATTRIBUTES_OFFSET = 21

COMPRESSION_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08
TRANSACTIONAL_MASK = 0x10
CONTROL_MASK = 0x20

NO_PRODUCER_ID = -1
NO_SEQUENCE = -1

_HEADER = struct.Struct(">qiibIhiqqqhii")


class CorruptRecordError(ValueError):
    """The bytes are not a well-formed record batch (maps to CORRUPT_MESSAGE)."""


@dataclass(slots=True)
class BatchHeader:
    """The fixed 61-byte header of a v2 batch, plus where it sits in its buffer."""

    position: int
    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    @property
    def size(self) -> int:
        """Bytes the whole batch occupies, header included."""
        return LOG_OVERHEAD + self.batch_length

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.last_offset_delta + 1

    @property
    def compression(self) -> int:
        return self.attributes & COMPRESSION_MASK

    @property
    def is_log_append_time(self) -> bool:
        return bool(self.attributes & TIMESTAMP_TYPE_MASK)

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_MASK)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_MASK)

    @property
    def last_sequence(self) -> int:
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return (self.base_sequence + self.last_offset_delta) & 0x7FFFFFFF


def read_header(buf: bytes | bytearray | memoryview, position: int = 0) -> BatchHeader:
    """Parse the v2 batch header at `position`, checking only sizes and magic."""
    if len(buf) - position < HEADER_SIZE:
        raise CorruptRecordError("truncated record batch header")
    header = BatchHeader(position, *_HEADER.unpack_from(buf, position))
    if header.magic != 2:
        raise CorruptRecordError(f"expected magic 2, found {header.magic}")
    if header.batch_length < HEADER_SIZE - LOG_OVERHEAD:
        raise CorruptRecordError(f"batch length {header.batch_length} below the header size")
    if position + header.size > len(buf):
        raise CorruptRecordError("record batch extends past the end of the record set")
    return header


def first_batch_is_transactional(buf: bytes | bytearray | memoryview) -> bool:
    """Whether a produced record set's first batch carries the transactional flag.

    Kafka looks at the first batch only (RequestUtils.hasTransactionalRecords), before any
    validation: a set too short for its first batch, or of magic 0/1, counts as not
    transactional and is left for the log's validator to refuse.
    """
    if len(buf) < ATTRIBUTES_OFFSET + 2:
        return False
    length = struct.unpack_from(">i", buf, LOG_OVERHEAD - 4)[0]
    if LOG_OVERHEAD + length > len(buf) or buf[MAGIC_OFFSET] != 2:
        return False
    return bool(struct.unpack_from(">h", buf, ATTRIBUTES_OFFSET)[0] & TRANSACTIONAL_MASK)


def whole_batches_size(buf: bytes | bytearray | memoryview) -> int:
    """The bytes of the complete batches (or legacy message entries: the same offset and
    length framing) a fetched record set starts with. A leader's read of max_bytes may end
    inside its last batch; Kafka's fetcher reads up to there (ByteBufferLogInputStream) and
    appends only those bytes (validBytes). A malformed length is left for the log to refuse."""
    position, end = 0, len(buf)
    while end - position >= LOG_OVERHEAD:
        length = struct.unpack_from(">i", buf, position + LOG_OVERHEAD - 4)[0]
        if length < 0:
            return end
        if position + LOG_OVERHEAD + length > end:
            break
        position += LOG_OVERHEAD + length
    return position


def iter_headers(buf: bytes | bytearray | memoryview) -> Iterator[BatchHeader]:
    """Walk the v2 batches of a complete record set; a short or malformed tail raises."""
    position, end = 0, len(buf)
    while position < end:
        header = read_header(buf, position)
        yield header
        position += header.size


def compute_crc(buf: bytes | bytearray | memoryview, header: BatchHeader) -> int:
    start = header.position + ATTRIBUTES_OFFSET
    return crc32c.crc32c(memoryview(buf)[start : header.position + header.size])


def verify_crc(buf: bytes | bytearray | memoryview, header: BatchHeader) -> None:
    if compute_crc(buf, header) != header.crc:
        raise CorruptRecordError(f"CRC mismatch in batch at offset {header.base_offset}")


def set_base_offset(buf: bytearray, header: BatchHeader, base_offset: int) -> None:
    """Assign offsets to a batch in place; the CRC stays valid because it does not cover them."""
    struct.pack_into(">q", buf, header.position, base_offset)
    header.base_offset = base_offset


def set_partition_leader_epoch(buf: bytearray, header: BatchHeader, epoch: int) -> None:
    struct.pack_into(">i", buf, header.position + 12, epoch)
    header.partition_leader_epoch = epoch


def set_log_append_time(buf: bytearray, header: BatchHeader, timestamp: int) -> None:
    """Stamp LogAppendTime: sets the timestamp-type bit and max timestamp, then re-signs."""
    header.attributes |= TIMESTAMP_TYPE_MASK
    header.max_timestamp = timestamp
    struct.pack_into(">h", buf, header.position + ATTRIBUTES_OFFSET, header.attributes)
    struct.pack_into(">q", buf, header.position + 35, timestamp)
    header.crc = compute_crc(buf, header)
    struct.pack_into(">I", buf, header.position + CRC_OFFSET, header.crc)


def set_max_timestamp(buf: bytearray, header: BatchHeader, timestamp: int) -> None:
    """Correct a batch's max timestamp to what its records hold, then re-sign."""
    header.max_timestamp = timestamp
    struct.pack_into(">q", buf, header.position + 35, timestamp)
    header.crc = compute_crc(buf, header)
    struct.pack_into(">I", buf, header.position + CRC_OFFSET, header.crc)
