"""The leader append path: up_convert_legacy and validate_batches through a real Log on disk.

Contract: Log.append_as_leader either appends or raises KafkaError, never another type; and
where the validator walks records (compacted topics: every batch), what it appends every
reader can decode, so a successful append there is read back from the log and decoded.
The delete topic (a small max.message.bytes) checks plain batches by header only, by design
(log/validator.py), so only the first part of the contract holds there.

Input layout: a flags byte, then the record set. Flag bit 0 re-signs every CRC (v2 batch
CRC-32C and legacy message CRC-32) after mutation, so that inputs get past the CRC check to
the decompression and record walk; bits 1-2 pick the topic's configuration (CreateTime,
LogAppendTime, timestamp bounds, a small max.message.bytes).
"""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import crc32c

from fuzz.seeds import NOW_MS, batches, message_sets
from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol.errors import KafkaError
from josefk.protocol.record_codec import decode_all
from josefk.protocol.records import ATTRIBUTES_OFFSET, CRC_OFFSET, HEADER_SIZE, LOG_OVERHEAD, MAGIC_OFFSET

MAX_LEN = 8192
CONFIGS = (
    LogConfig(cleanup_policy="compact"),
    LogConfig(cleanup_policy="compact", message_timestamp_type="LogAppendTime"),
    LogConfig(cleanup_policy="compact", message_timestamp_before_max_ms=3_600_000,
              message_timestamp_after_max_ms=3_600_000),
    LogConfig(max_message_bytes=512),
)
RECREATE_BYTES = 64 << 20  # a long run starts each log afresh past this, to bound the disk it takes


class Finding(Exception):
    """The append path broke its contract."""


_scratch: Path | None = None
_logs: list[Log] = []


def seeds() -> list[bytes]:
    record_sets = [*batches(), *message_sets()]
    return [bytes([flags]) + records for records in record_sets for flags in (0, 1, 3, 5, 7)]


def setup(scratch: Path) -> None:
    global _scratch
    _scratch = scratch
    _logs[:] = [Log(scratch / f"fuzz-{i}", config) for i, config in enumerate(CONFIGS)]


def resign(buf: bytearray) -> None:
    """Recompute the CRC of each top-level v2 batch or legacy message, walking by length."""
    pos, end = 0, len(buf)
    while pos + MAGIC_OFFSET < end:
        length = int.from_bytes(buf[pos + 8 : pos + 12], "big", signed=True)
        stop = pos + LOG_OVERHEAD + length
        if length <= 0 or stop > end:
            return
        magic = buf[pos + MAGIC_OFFSET]
        if magic == 2 and length >= HEADER_SIZE - LOG_OVERHEAD:
            crc = crc32c.crc32c(memoryview(buf)[pos + ATTRIBUTES_OFFSET : stop])
            buf[pos + CRC_OFFSET : pos + ATTRIBUTES_OFFSET] = crc.to_bytes(4, "big")
        elif magic in (0, 1) and length >= 4:
            crc = zlib.crc32(memoryview(buf)[pos + MAGIC_OFFSET : stop])
            buf[pos + LOG_OVERHEAD : pos + MAGIC_OFFSET] = crc.to_bytes(4, "big")
        pos = stop


def _log(index: int) -> Log:
    log = _logs[index]
    if log.size_in_bytes > RECREATE_BYTES:
        log.close()
        shutil.rmtree(log.dir)
        assert _scratch is not None
        log = _logs[index] = Log(_scratch / f"fuzz-{index}", CONFIGS[index])
    return log


def test_one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    flags, buf = data[0], bytearray(data[1:])
    if flags & 1:
        resign(buf)
    log = _log((flags >> 1) & 3)
    try:
        info = log.append_as_leader(buf, leader_epoch=0, now_ms=NOW_MS)
    except KafkaError:
        return
    except Exception as e:
        raise Finding(f"append_as_leader raised {e!r}, not KafkaError") from e
    if info.duplicate or info.first_offset < 0 or not log.config.compact:
        return
    stored = log.read(info.first_offset, 1 << 30, max_offset=info.last_offset + 1).read_bytes()
    try:
        decode_all(stored)
    except Exception as e:
        raise Finding(f"appended records at {info.first_offset}..{info.last_offset} do not decode: {e!r}") from e
