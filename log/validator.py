"""What the log accepts from a leader append (Kafka's LogValidator), kept out of the log.

A CRC proves the bytes arrived as the producer sent them, not that they make sense: a
compressed batch with a valid CRC may hold a payload that does not decompress, or records
that do not match the header's count. Such a batch must be refused on append, or every
reader fails on it later. So a compressed batch is decompressed and its records walked, as
Kafka does, and the error codes are Kafka's:

- INVALID_RECORD: a client batch with a bad header (control batch, count against offset
  range, sequence), records that do not fill the batch exactly or are malformed, offset
  deltas other than 0..n-1;
- UNKNOWN_SERVER_ERROR: a payload that does not decompress, or an unknown codec (Kafka's
  KafkaException "Failed to decompress record stream" and IllegalArgumentException);
- MESSAGE_TOO_LARGE: a payload that expands past compression.MAX_DECOMPRESSED_SIZE (Kafka
  streams records out of the decompressor and has no such bound; see compression.py);
- INVALID_TIMESTAMP: a record timestamp outside message.timestamp.{before,after}.max.ms;
- CORRUPT_MESSAGE: a v0/v1 message set that cannot be read (inner CRC, truncation).

Two deviations, both measured (bench/append_path.py, docs/reliability.md):
- An uncompressed batch's records are walked only on a compacted topic, whose keys the
  cleaner reads; elsewhere its header is checked and its records reach consumers byte for
  byte under the producer's CRC (and a header's max timestamp is taken as sent). Kafka
  walks them too, but in Python the walk costs more than the rest of an append: it would
  cap a core at a few hundred thousand records/s.
- Where Kafka rewrites a compressed batch whose offset deltas are not 0..n-1, josefk
  refuses it: it never recompresses on append.
Replicated batches are not validated here.
"""

from __future__ import annotations

from josefk.log.config import LogConfig
from josefk.protocol import compression as codecs
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import scan_records
from josefk.protocol.records import (
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    BatchHeader,
    CorruptRecordError,
    set_max_timestamp,
)


def up_convert_legacy(buf: bytearray, name: str) -> bytearray:
    """Old clients send message sets (magic 0/1); the log stores v2 only. Converting
    decompresses the wrappers and checks every inner message (CRC, magic, nesting)."""
    end = len(buf)
    if end > MAGIC_OFFSET and buf[MAGIC_OFFSET] == 2 and int.from_bytes(buf[8:12], "big") + LOG_OVERHEAD == end:
        return buf  # the usual case: one v2 batch
    pos = 0
    legacy = False
    while pos + LOG_OVERHEAD <= end:
        if pos + MAGIC_OFFSET >= end:
            break
        if buf[pos + MAGIC_OFFSET] < 2:
            legacy = True
            break
        length = int.from_bytes(buf[pos + 8 : pos + 12], "big", signed=True)
        if length <= 0:
            break  # malformed: parsing the headers reports it
        pos += LOG_OVERHEAD + length
    if not legacy:
        return buf
    from josefk.protocol.legacy import to_v2

    try:
        return bytearray(to_v2(bytes(buf)))
    except codecs.DecompressedSizeError as too_large:
        raise _too_large(too_large, name) from None
    except codecs.DecompressionError as failed:
        raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR,
                         f"Failed to decompress record stream in topic partition {name}: {failed}") from None
    except (ValueError, KeyError, IndexError) as corrupt:
        raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt legacy message set for {name}: {corrupt}") from None


def _too_large(e: codecs.DecompressedSizeError, name: str) -> KafkaError:
    return KafkaError(ErrorCode.MESSAGE_TOO_LARGE, f"A batch in topic partition {name}: {e}")


def validate_batches(buf: bytearray, headers: list[BatchHeader], config: LogConfig, now: int, *,
                     from_client: bool, name: str) -> None:
    """Refuse (KafkaError) any batch a reader could not use; a walked CREATE_TIME batch
    whose header understates its records' max timestamp gets the true one, as in Kafka."""
    for h in headers:
        if from_client:
            _validate_client_header(h, name)
        _validate_records(buf, h, config, now, name)


def _validate_client_header(h: BatchHeader, name: str) -> None:
    """The checks of Kafka's validateBatch that need only the header."""
    if h.record_count <= 0 or h.record_count != h.last_offset_delta + 1:
        raise KafkaError(ErrorCode.INVALID_RECORD,
                         f"Inconsistent batch offset range [0, {h.last_offset_delta}] and count of records "
                         f"{h.record_count} in topic partition {name}")
    if h.is_control:
        raise KafkaError(ErrorCode.INVALID_RECORD,
                         f"Clients are not allowed to write control records in topic partition {name}")
    if h.is_transactional and h.producer_id < 0:
        raise KafkaError(ErrorCode.INVALID_RECORD,
                         f"Transactional record batch without a producer id in topic partition {name}")
    if h.producer_id >= 0 and h.base_sequence < 0:
        raise KafkaError(ErrorCode.INVALID_RECORD,
                         f"Invalid sequence number {h.base_sequence} in record batch with producerId "
                         f"{h.producer_id} in topic partition {name}")


def _validate_records(buf: bytearray, h: BatchHeader, config: LogConfig, now: int, name: str) -> None:
    if not h.compression and not config.compact:
        if not config.log_append_time:
            _validate_timestamps(config, h.base_timestamp, h.max_timestamp, now, name)
        return
    data: memoryview | bytes = memoryview(buf)[h.position + HEADER_SIZE : h.position + h.size]
    if h.compression:
        try:
            data = codecs.decompress(h.compression, data, magic=2)
        except codecs.UnsupportedCodecError as unsupported:
            raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, f"{unsupported} in topic partition {name}") from None
        except codecs.DecompressedSizeError as too_large:
            raise _too_large(too_large, name) from None
        except codecs.DecompressionError as failed:
            raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR,
                             f"Failed to decompress record stream in topic partition {name}: {failed}") from None
    try:
        scan = scan_records(data, h.record_count)
    except CorruptRecordError as corrupt:
        raise KafkaError(ErrorCode.INVALID_RECORD, f"{corrupt} in topic partition {name}") from None
    if not scan.offsets_consecutive:
        raise KafkaError(ErrorCode.INVALID_RECORD,
                         f"Record offset deltas of a batch are not 0..{h.record_count - 1} in topic partition {name}")
    if config.log_append_time or h.record_count == 0:
        return
    lowest, highest = h.base_timestamp + scan.min_timestamp_delta, h.base_timestamp + scan.max_timestamp_delta
    _validate_timestamps(config, lowest, highest, now, name)
    if not h.is_log_append_time and max(highest, -1) != h.max_timestamp:
        set_max_timestamp(buf, h, max(highest, -1))


def _validate_timestamps(config: LogConfig, lowest: int, highest: int, now: int, name: str) -> None:
    """Every record's timestamp (NO_TIMESTAMP aside) within the topic's bounds: checking
    the lowest and highest is checking them all."""
    before = config.message_timestamp_before_max_ms
    after = config.message_timestamp_after_max_ms
    diff = config.message_timestamp_difference_max_ms
    if diff is not None:
        before = diff if before is None else min(before, diff)
        after = diff if after is None else min(after, diff)
    if before is None and after is None:
        return
    for ts in (lowest, highest):
        if ts == -1:
            continue
        if (before is not None and now - ts > before) or (after is not None and ts - now > after):
            raise KafkaError(ErrorCode.INVALID_TIMESTAMP,
                             f"Timestamp {ts} of a record in {name} is out of range: now {now}, "
                             f"before.max.ms {before}, after.max.ms {after}")
