"""One log segment: `<20-digit base offset>.log` plus its `.index`, `.timeindex` and,
once a transaction aborts in it, `.txnindex` (log/transaction_index.py).

The .log file is a plain concatenation of v2 record batches, exactly as Kafka stores
them. Writes go straight to the file with pwrite (no user-space buffer), so once
append() returns the bytes are in the page cache and survive a process kill; fsync
(flush) is only for power loss and may run on another thread.

Reads return FileRegions: byte ranges of the .log file that always start and end on
batch boundaries, for the broker to sendfile or pread. Batches written by this process
or validated by recover() are trusted; bytes loaded from disk without recovery (a clean
start) are CRC-checked the first time they are served, so corruption in an old segment
surfaces as CorruptRecordError instead of reaching a client.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from josefk.log.index import CorruptIndexError, OffsetIndex, TimeIndex
from josefk.log.transaction_index import TXN_INDEX_SUFFIX, TransactionIndex
from josefk.protocol.records import (
    HEADER_SIZE,
    LOG_OVERHEAD,
    BatchHeader,
    CorruptRecordError,
    iter_headers,
    read_header,
    verify_crc,
)
from josefk.utils.time import SYSTEM_TIME, Time

logger = logging.getLogger(__name__)

LOG_SUFFIX = ".log"
INDEX_SUFFIX = ".index"
TIME_INDEX_SUFFIX = ".timeindex"
DELETED_SUFFIX = ".deleted"

INT_MAX = 0x7FFFFFFF
_HEADER = struct.Struct(">qiibIhiqqqhii")
_SCAN_CHUNK = 16384
_RECOVER_CHUNK = 1 << 20


def filename_prefix(offset: int) -> str:
    """Kafka's file name for an offset: 20 digits, zero-padded."""
    return f"{offset:020d}"


@dataclass(slots=True)
class FileRegion:
    """Whole batches at [position, position + size) of a segment's .log file.

    `file` is the segment's open file object (for loop.sock_sendfile, which may move its
    file position; the segment itself never relies on it); `read_bytes` preads the
    range. Use the region promptly: a deleted or truncated segment closes its file.
    """

    file: io.FileIO
    path: Path
    position: int
    size: int
    base_offset: int  # base offset of the first batch in the region
    next_offset: int  # offset after the last batch in the region

    @property
    def fd(self) -> int:
        return self.file.fileno()

    def read_bytes(self) -> bytes:
        return _pread_exact(self.fd, self.size, self.position)


def _pread_exact(fd: int, size: int, position: int) -> bytes:
    data = os.pread(fd, size, position)
    if len(data) == size:
        return data
    parts = [data]
    got = len(data)
    while got < size:
        chunk = os.pread(fd, size - got, position + got)
        if not chunk:
            raise CorruptRecordError(f"unexpected end of file at position {position + got}")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


class LogSegment:
    """A segment of a partition's log. Not thread-safe except flush(), which may run on a
    background thread while the owning event loop keeps appending."""

    def __init__(
        self,
        directory: Path,
        base_offset: int,
        *,
        index_interval_bytes: int = 4096,
        max_index_size: int = 10485760,
        active: bool = False,
        file_suffix: str = "",
        time: Time = SYSTEM_TIME,
    ) -> None:
        """Open the segment's files, creating empty ones if absent. An `active` segment
        gets preallocated indexes it can append to; others are opened at their size.
        `time` stamps a new segment's creation, from which segment.ms rolls it."""
        self._time = time
        self.directory = Path(directory)
        self.base_offset = base_offset
        self.index_interval_bytes = index_interval_bytes
        self.max_index_size = max_index_size
        prefix = self.directory / filename_prefix(base_offset)
        self.path = Path(f"{prefix}{LOG_SUFFIX}{file_suffix}")
        self._lock = threading.Lock()
        self._closed = False
        created = not self.path.exists()
        index_missing = not (Path(f"{prefix}{INDEX_SUFFIX}{file_suffix}").exists()
                             and Path(f"{prefix}{TIME_INDEX_SUFFIX}{file_suffix}").exists())
        self._file = io.FileIO(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), "r+b", closefd=True)
        self._fd = self._file.fileno()
        self._size = os.fstat(self._fd).st_size
        self._active = active
        size_hint = max_index_size if active else None
        self.offset_index = OffsetIndex(Path(f"{prefix}{INDEX_SUFFIX}{file_suffix}"), base_offset, size_hint)
        self.time_index = TimeIndex(Path(f"{prefix}{TIME_INDEX_SUFFIX}{file_suffix}"), base_offset, size_hint)
        self.txn_index = TransactionIndex(base_offset, Path(f"{prefix}{TXN_INDEX_SUFFIX}{file_suffix}"))
        # Bytes found on disk at open, [0, _trusted_from), are CRC-checked lazily: the
        # prefix [0, _verified_pos) has been. Bytes appended since are trusted (the log
        # validated them before writing).
        self._trusted_from = self._size
        self._verified_pos = 0
        self.needs_recovery = (not created and self._size > 0 and index_missing)
        self._max_timestamp, self._offset_of_max_timestamp = self.time_index.last_entry
        _, last_indexed_pos = self.offset_index.lookup(self.offset_index.last_offset)
        self._bytes_since_last_index_entry = self._size - last_indexed_pos if self.offset_index.entries else self._size
        self._created_ms = time.milliseconds() if created else int(os.fstat(self._fd).st_mtime * 1000)
        self._rolling_base_timestamp: int | None = None

    # -- properties ---------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self._size

    @property
    def file(self) -> io.FileIO:
        return self._file

    @property
    def is_active(self) -> bool:
        return self._active

    @property
    def max_timestamp(self) -> int:
        """Largest batch max timestamp in the segment, -1 if none."""
        return self._max_timestamp

    @property
    def offset_of_max_timestamp(self) -> int:
        """Last offset of the first batch that reached max_timestamp (Kafka's shallow offset)."""
        return self._offset_of_max_timestamp

    @property
    def largest_timestamp(self) -> int:
        """For time-based retention: the max timestamp, or the file's mtime if there is none."""
        if self._max_timestamp >= 0:
            return self._max_timestamp
        return int(os.fstat(self._fd).st_mtime * 1000)

    @property
    def created_ms(self) -> int:
        return self._created_ms

    def sanity_check(self) -> None:
        """Raise CorruptIndexError if an index is unusable (the caller then recovers)."""
        if self.needs_recovery:
            raise CorruptIndexError(f"index of {self.path} is missing")
        self.offset_index.sanity_check()
        self.time_index.sanity_check()
        self.txn_index.sanity_check()
        if self.offset_index.entries:
            _, pos = self.offset_index.entry(self.offset_index.entries - 1)
            if pos >= self._size:
                raise CorruptIndexError(f"index of {self.path} points past the end of the log")

    # -- batch scanning -----------------------------------------------------------------

    def _headers_from(self, position: int, end: int | None = None) -> Iterator[BatchHeader]:
        """Headers of the batches from `position` (a batch boundary) up to `end`.

        Positions in the yielded headers are file positions. A header that cannot be a
        real batch raises CorruptRecordError: the caller must never serve past it.
        """
        limit = self._size if end is None else min(end, self._size)
        buf = b""
        buf_pos = position
        pos = position
        while pos < limit:
            rel = pos - buf_pos
            if rel < 0 or rel + HEADER_SIZE > len(buf):
                buf = os.pread(self._fd, max(_SCAN_CHUNK, HEADER_SIZE), pos)
                buf_pos, rel = pos, 0
            if len(buf) - rel < HEADER_SIZE:
                raise CorruptRecordError(f"{self.path}: truncated batch header at position {pos}")
            header = BatchHeader(pos, *_HEADER.unpack_from(buf, rel))
            size = header.size
            if (header.magic != 2 or header.batch_length < HEADER_SIZE - LOG_OVERHEAD
                    or pos + size > self._size or header.base_offset < self.base_offset
                    or header.last_offset_delta < 0):
                raise CorruptRecordError(
                    f"{self.path}: corrupt batch header at position {pos} (magic {header.magic}, "
                    f"length {header.batch_length}, base offset {header.base_offset})")
            yield header
            pos += size

    def translate_offset(self, offset: int, start_position: int = 0) -> BatchHeader | None:
        """The first batch whose last offset is >= `offset` (the batch containing it)."""
        _, pos = self.offset_index.lookup(offset)
        for header in self._headers_from(max(pos, start_position)):
            if header.last_offset >= offset:
                return header
        return None

    def read_next_offset(self) -> int:
        """Offset after the segment's last batch (base_offset when empty)."""
        _, pos = self.offset_index.lookup(self.offset_index.last_offset)
        next_offset = self.base_offset
        for header in self._headers_from(pos):
            next_offset = header.next_offset
        return next_offset

    def iter_headers(self, start_position: int = 0) -> Iterator[BatchHeader]:
        """Every batch header from `start_position` (a batch boundary) to the end."""
        return self._headers_from(start_position)

    def read_batch(self, header: BatchHeader) -> bytes:
        """The bytes of the batch at `header.position` (a control batch's record, say)."""
        return _pread_exact(self._fd, header.size, header.position)

    def first_batch(self) -> BatchHeader | None:
        return next(iter(self._headers_from(0)), None)

    # -- append -------------------------------------------------------------------------

    def append(
        self,
        largest_offset: int,
        largest_timestamp: int,
        offset_of_max_timestamp: int,
        records: bytes | bytearray | memoryview,
        headers: list[BatchHeader] | None = None,
    ) -> None:
        """Write already validated batches at the end of the segment and index them.

        `headers` (positions relative to `records`) saves re-parsing when the caller has
        them. The offset index gets an entry (the batch's last offset, its position)
        every index.interval.bytes, like Kafka 3.x.
        """
        if not records:
            return
        if largest_offset - self.base_offset > INT_MAX or largest_offset < self.base_offset:
            raise ValueError(f"offset {largest_offset} cannot be stored relative to segment "
                             f"base offset {self.base_offset}")
        if headers is None:
            headers = list(iter_headers(records))
        start = self._size
        view = memoryview(records)
        written = 0
        try:
            while written < len(view):
                written += os.pwrite(self._fd, view[written:], start + written)
        except OSError:
            if written:
                # A partial batch (ENOSPC midway) is cut off, best effort, so the file ends
                # on a batch boundary; recovery would cut it otherwise.
                with contextlib.suppress(OSError):
                    os.ftruncate(self._fd, start)
            raise
        for h in headers:
            if h.max_timestamp > self._max_timestamp:
                self._max_timestamp = h.max_timestamp
                self._offset_of_max_timestamp = h.last_offset
            if self._bytes_since_last_index_entry > self.index_interval_bytes:
                self._add_index_entries(h.last_offset, start + h.position)
            self._bytes_since_last_index_entry += h.size
        if largest_timestamp > self._max_timestamp:
            self._max_timestamp, self._offset_of_max_timestamp = largest_timestamp, offset_of_max_timestamp
        self._size = start + len(view)
        if self._rolling_base_timestamp is None and start == 0 and headers:
            self._rolling_base_timestamp = headers[0].max_timestamp

    def _add_index_entries(self, last_offset: int, position: int) -> None:
        # A full index only loses precision (entries are sparse); the log rolls before
        # the next append when it sees is_full().
        index = self.offset_index
        if not index.is_full() and (index.entries == 0 or last_offset > index.last_offset):
            index.append(last_offset, position)
        if not self.time_index.is_full():
            self.time_index.maybe_append(self._max_timestamp, self._offset_of_max_timestamp)
        self._bytes_since_last_index_entry = 0

    # -- read ---------------------------------------------------------------------------

    def read(
        self,
        start_offset: int,
        max_size: int,
        max_position: int | None = None,
        min_one_message: bool = True,
    ) -> FileRegion | None:
        """Whole batches from the one containing `start_offset`, at most `max_size` bytes
        (or the whole first batch with `min_one_message`), ending at or before
        `max_position`. None if no batch in this segment reaches `start_offset`; a
        zero-size region if the first batch does not fit."""
        limit = self._size if max_position is None else min(max_position, self._size)
        first = self.translate_offset(start_offset)
        if first is None:
            return None
        start = first.position
        budget = max(max_size, 0)
        if min_one_message and first.size > budget:
            budget = first.size
        end_limit = min(limit, start + budget)
        if start + first.size > end_limit:
            return FileRegion(self._file, self.path, start, 0, first.base_offset, first.base_offset)
        end, next_offset = self._last_boundary(first, end_limit)
        if end > self._verified_pos and start < self._trusted_from:
            self._verify(start, min(end, self._trusted_from))
        return FileRegion(self._file, self.path, start, end - start, first.base_offset, next_offset)

    def _last_boundary(self, first: BatchHeader, end_limit: int) -> tuple[int, int]:
        """(end position, next offset) of the last whole batch ending at or before
        `end_limit`, given that `first` fits. Jumps via the index, then scans."""
        end, next_offset = first.position + first.size, first.next_offset
        _, indexed = self.offset_index.lookup_position(end_limit)
        scan_from = end
        if indexed > end:
            scan_from = indexed
            end = indexed  # the batch before an indexed position ends there
            next_offset = -1
        for header in self._headers_from(scan_from, end_limit):
            if header.position + header.size > end_limit:
                if next_offset < 0:
                    next_offset = header.base_offset
                break
            end, next_offset = header.position + header.size, header.next_offset
        if next_offset < 0:  # the indexed batch was the last scanned and did not fit
            next_offset = self._translate_offset_at(end)
        return end, next_offset

    def _translate_offset_at(self, position: int) -> int:
        header = next(iter(self._headers_from(position)), None)
        return header.base_offset if header else self.read_next_offset()

    def _verify(self, start: int, end: int) -> None:
        """CRC-check batches in [start, end) that no one has checked since the file was
        opened; advances the verified watermark when the range touches it."""
        from_pos = self._verified_pos if start <= self._verified_pos else start
        pos = from_pos
        while pos < end:
            chunk_end = min(end, pos + _RECOVER_CHUNK)
            buf = _pread_exact(self._fd, chunk_end - pos, pos)
            # extend to whole batches: the chunk may cut the last one
            consumed = 0
            while consumed < len(buf):
                if len(buf) - consumed < HEADER_SIZE:
                    break
                size = LOG_OVERHEAD + struct.unpack_from(">i", buf, consumed + 8)[0]
                if size < HEADER_SIZE or pos + consumed + size > self._size:
                    raise CorruptRecordError(f"{self.path}: bad batch length at position {pos + consumed}")
                if consumed + size > len(buf):
                    if consumed == 0:  # one batch bigger than the chunk: read it whole
                        buf = _pread_exact(self._fd, size, pos)
                        continue
                    break
                try:
                    header = read_header(buf, consumed)
                    verify_crc(buf, header)
                except CorruptRecordError as e:
                    raise CorruptRecordError(f"{self.path}: {e} (position {pos + consumed})") from None
                consumed += size
            if consumed == 0:
                raise CorruptRecordError(f"{self.path}: unreadable batch at position {pos}")
            pos += consumed
        if from_pos == self._verified_pos:
            self._verified_pos = max(self._verified_pos, pos)

    def verify(self) -> None:
        """CRC-check the whole segment now (raises CorruptRecordError)."""
        if self._verified_pos < self._trusted_from:
            self._verify(self._verified_pos, self._trusted_from)

    # -- timestamps ---------------------------------------------------------------------

    def rolling_base_timestamp(self) -> int | None:
        """Max timestamp of the first batch: segment.ms counts from it (Kafka's rule)."""
        if self._rolling_base_timestamp is None and self._size > 0:
            first = self.first_batch()
            self._rolling_base_timestamp = first.max_timestamp if first else None
        return self._rolling_base_timestamp

    def time_waited_for_roll(self, now_ms: int, message_timestamp: int) -> int:
        base = self.rolling_base_timestamp()
        if base is not None and base >= 0:
            return message_timestamp - base
        return now_ms - self._created_ms

    def find_offset_by_timestamp(self, timestamp: int, starting_offset: int = 0) -> tuple[int, int] | None:
        """(timestamp, offset) of the first record at or after `starting_offset` whose
        timestamp is >= `timestamp`, or None. Decodes the one batch it lands in."""
        _, indexed_offset = self.time_index.lookup(timestamp)
        _, pos = self.offset_index.lookup(max(indexed_offset, starting_offset))
        for header in self._headers_from(pos):
            if header.max_timestamp >= timestamp and header.last_offset >= starting_offset:
                for ts, off in self._record_timestamps(header):
                    if ts >= timestamp and off >= starting_offset:
                        return ts, off
        return None

    def _record_timestamps(self, header: BatchHeader) -> list[tuple[int, int]]:
        """(timestamp, offset) of each record of a batch; falls back to the batch's own
        (max timestamp, base offset) if the records cannot be decoded."""
        buf = _pread_exact(self._fd, header.size, header.position)
        try:
            from josefk.protocol.record_codec import decode_batch

            local = read_header(buf, 0)
            return [(r.timestamp, r.offset) for r in decode_batch(buf, local)]
        except (ImportError, ValueError):
            return [(header.max_timestamp, header.base_offset)]

    def offset_of_timestamp_in_batch(self, timestamp: int, last_offset: int) -> int:
        """Offset of the first record carrying `timestamp` in the batch ending at
        `last_offset` (for ListOffsets MAX_TIMESTAMP); the batch's last offset if unknown."""
        header = self.translate_offset(last_offset)
        if header is None:
            return last_offset
        for ts, off in self._record_timestamps(header):
            if ts == timestamp:
                return off
        return last_offset

    # -- recovery and truncation ----------------------------------------------------------

    def recover(self) -> int:
        """Rebuild the indexes from the .log file, validating every batch (magic 2, sane
        size, CRC, offsets within the segment and increasing); everything from the first
        bad batch on is cut off. Returns the number of bytes truncated."""
        self.offset_index.resize(self.max_index_size)
        self.time_index.resize(self.max_index_size)
        self.offset_index.reset()
        self.time_index.reset()
        self.txn_index.reset()  # the loader refills it while it replays the producer state
        self._max_timestamp, self._offset_of_max_timestamp = -1, self.base_offset
        self._bytes_since_last_index_entry = 0
        file_size = os.fstat(self._fd).st_size
        pos = 0
        next_offset = self.base_offset
        buf, buf_pos = b"", 0
        while pos < file_size:
            rel = pos - buf_pos
            if rel + HEADER_SIZE > len(buf):
                buf, buf_pos, rel = os.pread(self._fd, _RECOVER_CHUNK, pos), pos, 0
            if len(buf) - rel < LOG_OVERHEAD:
                break
            length = struct.unpack_from(">i", buf, rel + 8)[0]
            size = LOG_OVERHEAD + length
            if length < HEADER_SIZE - LOG_OVERHEAD or pos + size > file_size:
                break
            if rel + size > len(buf):
                want = max(size, min(_RECOVER_CHUNK, file_size - pos))
                buf, buf_pos, rel = _pread_exact(self._fd, want, pos), pos, 0
            try:
                header = read_header(buf, rel)
                verify_crc(buf, header)
            except CorruptRecordError:
                break
            if (header.base_offset < next_offset or header.last_offset_delta < 0
                    or header.last_offset - self.base_offset > INT_MAX):
                break
            if header.max_timestamp > self._max_timestamp:
                self._max_timestamp, self._offset_of_max_timestamp = header.max_timestamp, header.last_offset
            if self._bytes_since_last_index_entry > self.index_interval_bytes:
                self._add_index_entries(header.last_offset, pos)
            self._bytes_since_last_index_entry += size
            next_offset = header.next_offset
            pos += size
        truncated = file_size - pos
        if truncated:
            os.ftruncate(self._fd, pos)
        self._size = pos
        self._verified_pos = self._trusted_from = pos
        self._rolling_base_timestamp = None
        if self._max_timestamp >= 0:
            self.time_index.maybe_append(self._max_timestamp, self._offset_of_max_timestamp, skip_full_check=True)
        if not self._active:
            self.offset_index.trim_to_valid_size()
            self.time_index.trim_to_valid_size()
        self.needs_recovery = False
        return truncated

    def truncate_to(self, offset: int) -> int:
        """Remove the batch containing `offset` and everything after it; returns the
        bytes removed. The segment becomes appendable (active)."""
        header = self.translate_offset(offset)
        if header is None:
            return 0
        self.offset_index.truncate_to(offset)
        self.time_index.truncate_to(offset)
        self.txn_index.truncate_to(offset)
        self.make_active()
        removed = self._size - header.position
        os.ftruncate(self._fd, header.position)
        self._size = header.position
        self._verified_pos = min(self._verified_pos, self._size)
        self._trusted_from = min(self._trusted_from, self._size)
        if self._size == 0:
            self._created_ms = self._time.milliseconds()
            self._rolling_base_timestamp = None
        _, last_pos = self.offset_index.lookup(self.offset_index.last_offset)
        self._bytes_since_last_index_entry = self._size - last_pos if self.offset_index.entries else self._size
        self._reload_max_timestamp()
        return removed

    def _reload_max_timestamp(self) -> None:
        """Kafka's readLargestTimestamp: the time index's last entry, then a scan of the
        batches after it."""
        self._max_timestamp, self._offset_of_max_timestamp = self.time_index.last_entry
        _, pos = self.offset_index.lookup(self._offset_of_max_timestamp)
        for header in self._headers_from(pos):
            if header.max_timestamp > self._max_timestamp:
                self._max_timestamp, self._offset_of_max_timestamp = header.max_timestamp, header.last_offset

    # -- lifecycle ----------------------------------------------------------------------

    def make_active(self) -> None:
        """Preallocate the indexes so the segment can take appends."""
        if not self._active:
            self.offset_index.resize(self.max_index_size)
            self.time_index.resize(self.max_index_size)
            self._active = True

    def make_inactive(self) -> None:
        """On roll: record the final max timestamp and trim the indexes to size."""
        if self._max_timestamp >= 0:
            self.time_index.maybe_append(self._max_timestamp, self._offset_of_max_timestamp, skip_full_check=True)
        self.offset_index.trim_to_valid_size()
        self.time_index.trim_to_valid_size()
        self._active = False

    def flush(self) -> None:
        """fsync the .log, .index and .timeindex files. Safe from another thread: it
        syncs duplicates of the descriptors, so a concurrent close cannot pull them away
        (the indexes hold none: they open their file to sync it)."""
        with self._lock:
            if self._closed:
                return
            fds = [os.dup(self._fd)]
            txn_fd = self.txn_index.dup_fd()
            if txn_fd is not None:
                fds.append(txn_fd)
        try:
            for fd in fds:
                os.fsync(fd)
            self.offset_index.flush()
            self.time_index.flush()
        finally:
            for fd in fds:
                os.close(fd)

    def close(self) -> None:
        """Trim the indexes (recording the final max timestamp) and close the files."""
        with self._lock:
            if self._closed:
                return
            if self._active:
                self.make_inactive()
            if os.fstat(self._fd).st_size != self._size:
                os.ftruncate(self._fd, self._size)
            self._closed = True
            self.offset_index.close()
            self.time_index.close()
            self.txn_index.close()
            self._file.close()

    def close_handlers(self) -> None:
        """Close the files without touching them (the segment is going away)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self.offset_index.close()
            self.time_index.close()
            self.txn_index.close()
            self._file.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def delete(self) -> None:
        """Close and remove the segment's files, each named in a line as Kafka's
        LogSegment.deleteIfExists does (a missing .txnindex is not worth one)."""
        self.close_handlers()
        for kind, path, report_missing in (("log", self.path, True), ("offset index", self.offset_index.path, True),
                                           ("time index", self.time_index.path, True),
                                           ("transaction index", self.txn_index.path, False)):
            try:
                path.unlink()
                logger.info("Deleted %s %s.", kind, path.absolute())
            except FileNotFoundError:
                if report_missing:
                    logger.info("Failed to delete %s %s because it does not exist.", kind, path.absolute())

    @property
    def last_modified_ms(self) -> int:
        """The .log file's mtime, as Kafka's LogSegment.lastModified (0 once it is gone)."""
        try:
            return int(os.stat(self.path).st_mtime * 1000)
        except OSError:
            return 0

    def __repr__(self) -> str:
        """Kafka's LogSegment.toString, which its retention and deletion lines print."""
        return (f"LogSegment(baseOffset={self.base_offset}, size={self._size}, "
                f"lastModifiedTime={self.last_modified_ms}, largestRecordTimestamp={self._max_timestamp})")
