"""Log compaction (Kafka's LogCleaner, LogCleanerManager and Cleaner).

For a log with cleanup.policy=compact (or compact,delete) the cleaner keeps, for every
key, the record with the highest offset, and removes the older ones. Offsets never
change: a cleaned log has gaps, which every reader already tolerates.

The log is split at two points. The *first dirty offset* (checkpointed per partition in
each log dir's `cleaner-offset-checkpoint`) is where the last clean stopped; below it the
log is clean (no key repeats). The *first uncleanable offset* is the base of the active
segment, of the segment holding the last stable offset (the high watermark, or an
undecided transaction's first offset below it), or of the first segment holding a
record newer than min.compaction.lag.ms. A
log is cleaned when dirty bytes / (clean + dirty bytes) exceeds min.cleanable.dirty.ratio
(or its oldest dirty record is older than max.compaction.lag.ms, or a kept tombstone's
delete horizon has passed). The dirtiest such log goes first.

Cleaning one log:
1. Build the offset map: key -> last offset, over the dirty segments (whole segments,
   until the map holds `max_map_entries` keys). Its end is the new first dirty offset.
2. Rewrite every segment below that end, in groups whose total fits segment.bytes, into
   one new segment per group (named after the group's first base offset). A record is
   kept if no later offset has its key; records without a key are dropped (Kafka
   rejects them on compacted topics). Batches stay batches, Kafka's way (MemoryRecords
   .filterTo): an untouched batch is copied byte for byte; a batch that lost records is
   rebuilt with the same base offset, last offset delta, producer id/epoch, base sequence,
   partition leader epoch, codec and timestamp type; a batch that lost every record is
   dropped, except that an idempotent producer's last batch is kept as an *empty* batch
   (header only, zero records) so its sequence number survives, as Kafka does.
3. Tombstones (a key with a null value) follow KIP-534: the first clean that keeps a
   tombstone stamps its batch with a delete horizon (now + delete.retention.ms, stored
   in the base timestamp with attribute bit 0x40, which Kafka's reader understands); a
   later clean after the horizon drops it. A consumer thus has delete.retention.ms after
   the clean to see the delete.
4. Swap: the group's files are written as `<base>.log.cleaned` (+ indexes) and fsynced,
   then Log.replace_segments renames them `.swap`, schedules the old segments for
   deletion (`.deleted`) and renames the `.swap` files into place. After a crash, Log
   loading deletes `.cleaned` leftovers and completes a `.swap` (removing the segments
   its offset range covers), so every state is recoverable.

Transactions follow Kafka's rules (its CleanedTransactionMetadata). Cleaning stops at
the first unstable offset as well, so a transaction not yet decided is never touched.
The aborted transactions overlapping the cleaned range come from the .txnindex files:
their records do not enter the offset map and their batches are removed (an active
producer's last batch stays as an empty batch, as above). A marker stays while its
transaction still had batches in this clean (an ABORT marker then keeps its .txnindex
entry in the cleaned segment); once the transaction's data is gone the marker gets a
delete horizon like a tombstone and goes after delete.retention.ms.

Threading: a Log belongs to the event loop. `plan()` (on the loop) picks a log and
snapshots its non-active segments (duplicated file descriptors, sizes, producers' last
offsets); `CleaningTask.build()` reads those immutable segments and writes the
`.cleaned` files, and may run in a worker thread; `commit()` (on the loop) swaps them in
only if the log still holds exactly those segments, else discards the work. The active
segment is never read or touched. `clean_once()` does all three inline (tests, tools);
`clean_once_async()` runs build() and the checkpoint write through asyncio.to_thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import crc32c

from josefk.log.checkpoint import CorruptCheckpointError, OffsetCheckpointFile
from josefk.log.config import LONG_MAX, LogConfig
from josefk.log.loader import CLEANED_SUFFIX, read_marker
from josefk.log.log import Log
from josefk.log.segment import INDEX_SUFFIX, INT_MAX, LOG_SUFFIX, TIME_INDEX_SUFFIX, LogSegment, filename_prefix
from josefk.log.transaction_index import TXN_INDEX_SUFFIX, AbortedTxn
from josefk.protocol.record_codec import Record, build_batch, decode_batch
from josefk.protocol.records import (
    ATTRIBUTES_OFFSET,
    COMPRESSION_MASK,
    CRC_OFFSET,
    HEADER_SIZE,
    LOG_OVERHEAD,
    BatchHeader,
    CorruptRecordError,
    compute_crc,
    iter_headers,
    read_header,
)

logger = logging.getLogger(__name__)

CLEANER_OFFSET_CHECKPOINT = "cleaner-offset-checkpoint"
DELETE_HORIZON_MASK = 0x40  # Kafka's DefaultRecordBatch.DELETE_HORIZON_FLAG_MASK
_LAST_OFFSET_DELTA_OFFSET = 23
_BASE_TIMESTAMP_OFFSET = 27
_READ_CHUNK = 1 << 20
_WRITE_CHUNK = 1 << 20
_CLEANED_FILES = (LOG_SUFFIX, INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX)
_AFTER_CRC = struct.Struct(">hiqqqhii")
_BEFORE_CRC = struct.Struct(">qiibI")

TopicPartition = tuple[str, int]


def delete_horizon(header: BatchHeader) -> int | None:
    """The batch's delete horizon (KIP-534), or None if it has not been set."""
    return header.base_timestamp if header.attributes & DELETE_HORIZON_MASK else None


def iter_segment_batches(fd: int, size: int) -> Iterator[tuple[BatchHeader, bytes | memoryview]]:
    """(header, buffer) for each batch of a segment file, reading `fd` in large chunks;
    the header's position is relative to the buffer. Corrupt data raises CorruptRecordError."""
    pos = 0
    while pos < size:
        chunk = os.pread(fd, min(_READ_CHUNK, size - pos), pos)
        view = memoryview(chunk)
        rel = 0
        while rel < len(view):
            if len(view) - rel < HEADER_SIZE:
                break
            length = struct.unpack_from(">i", view, rel + 8)[0]
            if length < HEADER_SIZE - LOG_OVERHEAD or pos + rel + LOG_OVERHEAD + length > size:
                raise CorruptRecordError(f"bad batch length {length} at position {pos + rel}")
            if rel + LOG_OVERHEAD + length > len(view):
                break
            yield read_header(view, rel), view
            rel += LOG_OVERHEAD + length
        if rel == 0:  # one batch bigger than the chunk
            header_bytes = os.pread(fd, LOG_OVERHEAD, pos)
            length = struct.unpack_from(">i", header_bytes, 8)[0]
            whole = os.pread(fd, LOG_OVERHEAD + length, pos)
            if len(whole) != LOG_OVERHEAD + length:
                raise CorruptRecordError(f"short read at position {pos}")
            yield read_header(whole, 0), whole
            rel = len(whole)
        pos += rel


def empty_batch(header: BatchHeader) -> bytes:
    """Kafka's DefaultRecordBatch.writeEmptyHeader: the batch's offsets, producer fields
    and max timestamp, no records, no compression."""
    attributes = header.attributes & ~(COMPRESSION_MASK | DELETE_HORIZON_MASK)
    after = _AFTER_CRC.pack(attributes, header.last_offset_delta, header.max_timestamp, header.max_timestamp,
                            header.producer_id, header.producer_epoch, header.base_sequence, 0)
    return _BEFORE_CRC.pack(header.base_offset, HEADER_SIZE - LOG_OVERHEAD, header.partition_leader_epoch, 2,
                            crc32c.crc32c(after)) + after


def rebuild_batch(header: BatchHeader, records: list[Record], horizon: int | None) -> bytes:
    """The batch with only `records`, keeping everything Kafka keeps (base offset, last
    offset delta, producer fields, leader epoch, codec, timestamp type), plus the
    delete horizon if given (base timestamp = horizon, attribute bit 0x40)."""
    log_append = header.is_log_append_time
    out = bytearray(build_batch(
        records, base_offset=header.base_offset, compression=header.compression,
        producer_id=header.producer_id, producer_epoch=header.producer_epoch, base_sequence=header.base_sequence,
        timestamp_type_log_append=log_append, is_transactional=header.is_transactional,
        is_control=header.is_control, partition_leader_epoch=header.partition_leader_epoch,
        base_timestamp=horizon, max_timestamp=header.max_timestamp if log_append else None))
    struct.pack_into(">i", out, _LAST_OFFSET_DELTA_OFFSET, header.last_offset_delta)
    if horizon is not None:
        attributes = struct.unpack_from(">h", out, ATTRIBUTES_OFFSET)[0] | DELETE_HORIZON_MASK
        struct.pack_into(">h", out, ATTRIBUTES_OFFSET, attributes)
    struct.pack_into(">I", out, CRC_OFFSET, compute_crc(out, read_header(out, 0)))
    return bytes(out)


class TxnTracker:
    """Kafka's CleanedTransactionMetadata for one pass over consecutive batches: which
    batches belong to aborted transactions, and whether a marker may go."""

    def __init__(self, aborted: list[AbortedTxn]) -> None:
        self._pending = deque(sorted(aborted, key=lambda t: t.first_offset))
        self._ongoing_aborted: dict[int, tuple[AbortedTxn, bool]] = {}  # pid -> (txn, a batch seen)
        self._ongoing_committed: set[int] = set()

    def _consume_up_to(self, offset: int) -> None:
        while self._pending and self._pending[0].first_offset <= offset:
            txn = self._pending.popleft()
            self._ongoing_aborted[txn.producer_id] = (txn, False)

    def is_aborted(self, header: BatchHeader) -> bool:
        """For a data batch: whether it belongs to an aborted transaction."""
        self._consume_up_to(header.last_offset)
        if not header.is_transactional:
            return False
        ongoing = self._ongoing_aborted.get(header.producer_id)
        if ongoing is not None:
            self._ongoing_aborted[header.producer_id] = (ongoing[0], True)
            return True
        self._ongoing_committed.add(header.producer_id)
        return False

    def on_marker(self, header: BatchHeader, buf: bytes | memoryview) -> tuple[bool, AbortedTxn | None]:
        """For a control batch: (may it be discarded, the aborted transaction to keep in the
        cleaned .txnindex). A marker is kept while its transaction had batches in this pass."""
        self._consume_up_to(header.last_offset)
        if header.record_count == 0:
            return True, None  # already emptied by an earlier clean
        marker = read_marker(buf, header.position)
        if marker is None:
            return False, None
        if marker.commit:
            if header.producer_id in self._ongoing_committed:
                self._ongoing_committed.discard(header.producer_id)
                return False, None
            return True, None
        txn, seen = self._ongoing_aborted.pop(header.producer_id, (None, False))
        if txn is not None and seen:
            return False, txn
        return True, None


@dataclass(slots=True)
class CleanerStats:
    """What one clean did (logged, and handy in tests)."""

    topic_partition: TopicPartition
    first_dirty: int = 0
    end_offset: int = 0
    segments_read: int = 0
    segments_written: int = 0
    bytes_read: int = 0
    bytes_written: int = 0
    records_read: int = 0
    records_retained: int = 0
    tombstones_dropped: int = 0
    empty_batches_kept: int = 0
    elapsed_ms: float = 0.0


@dataclass(slots=True)
class _SegmentSnapshot:
    segment: LogSegment
    base_offset: int
    next_base: int  # base offset of the following segment (end of this one's range)
    size: int
    fd: int  # a duplicate of the segment's descriptor, owned by the task


@dataclass
class CleaningTask:
    """One log's clean: planned on the loop, built anywhere, committed on the loop."""

    key: TopicPartition
    log: Log
    config: LogConfig
    now_ms: int
    first_dirty: int
    first_uncleanable: int
    segments: list[_SegmentSnapshot]  # from the log's first segment to first_uncleanable
    producer_last_offsets: dict[int, int]
    max_map_entries: int
    aborted: list[AbortedTxn] = field(default_factory=list)  # overlapping the cleanable range
    producer_epochs: dict[int, int] = field(default_factory=dict)
    groups: list[tuple[list[LogSegment], int | None]] = field(default_factory=list)
    end_offset: int = -1
    min_tombstone_horizon: int | None = None
    stats: CleanerStats | None = None
    error: BaseException | None = None

    # -- building (any thread) ------------------------------------------------------------

    def build(self) -> None:
        """Build the offset map and write the `.cleaned` segments; errors are kept in
        `error` (the commit then discards everything)."""
        started = time.monotonic()
        self.stats = CleanerStats(self.key, self.first_dirty)
        try:
            offset_map, self.end_offset = self._build_offset_map()
            self.stats.end_offset = self.end_offset
            to_clean = [s for s in self.segments if s.base_offset < self.end_offset]
            for group in self._group(to_clean):
                self.groups.append(([s.segment for s in group], self._clean_group(group, offset_map)))
        except BaseException as e:  # noqa: BLE001 - reported by commit()
            self.error = e
        finally:
            for s in self.segments:
                os.close(s.fd)
            self.segments = []
        self.stats.elapsed_ms = (time.monotonic() - started) * 1000

    def _build_offset_map(self) -> tuple[dict[bytes, int], int]:
        offset_map: dict[bytes, int] = {}
        end = self.first_dirty
        txns = TxnTracker([t for t in self.aborted if t.last_offset >= self.first_dirty])
        for s in self.segments:
            if s.next_base <= self.first_dirty:
                continue
            if s.base_offset >= self.first_uncleanable:
                break
            if offset_map and len(offset_map) >= self.max_map_entries:
                break
            for header, buf in iter_segment_batches(s.fd, s.size):
                if header.is_control or header.last_offset < self.first_dirty:
                    continue
                if txns.is_aborted(header):
                    continue
                for record in decode_batch(buf, header):
                    if record.key is not None and record.offset >= self.first_dirty:
                        offset_map[record.key] = record.offset
            end = max(end, s.next_base)
        return offset_map, min(end, self.first_uncleanable) if end > self.first_dirty else self.first_dirty

    def _group(self, segments: list[_SegmentSnapshot]) -> Iterator[list[_SegmentSnapshot]]:
        """Kafka's groupSegmentsBySize: consecutive segments whose total size fits
        segment.bytes, index entries fit segment.index.bytes, offsets fit 32 bits."""
        cfg = self.config
        group: list[_SegmentSnapshot] = []
        size = index = 0
        for s in segments:
            s_index = s.segment.offset_index.size_in_bytes + s.segment.time_index.size_in_bytes
            if group and (size + s.size > cfg.segment_bytes or index + s_index > cfg.segment_index_bytes
                          or s.next_base - 1 - group[0].base_offset > INT_MAX):
                yield group
                group, size, index = [], 0, 0
            group.append(s)
            size += s.size
            index += s_index
        if group:
            yield group

    def _clean_group(self, group: list[_SegmentSnapshot], offset_map: dict[bytes, int]) -> int | None:
        """Write the group's retained batches to `<base>.log.cleaned`; returns the base, or
        None when nothing is left (the files are then removed)."""
        stats = self.stats
        assert stats is not None
        cfg = self.config
        base = group[0].base_offset
        directory = self.log.dir
        prefix = directory / filename_prefix(base)
        for suffix in _CLEANED_FILES:
            Path(f"{prefix}{suffix}{CLEANED_SUFFIX}").unlink(missing_ok=True)
        out = LogSegment(directory, base, index_interval_bytes=cfg.index_interval_bytes,
                         max_index_size=cfg.segment_index_bytes, active=True, file_suffix=CLEANED_SUFFIX)
        # Kafka collects the group's aborted transactions over [group start, next segment's base)
        start, upper = group[0].base_offset, group[-1].next_base
        txns = TxnTracker([t for t in self.aborted if t.last_offset >= start and t.first_offset < upper])
        pending = bytearray()
        try:
            for s in group:
                stats.segments_read += 1
                stats.bytes_read += s.size
                for header, buf in iter_segment_batches(s.fd, s.size):
                    kept = self._filter_batch(header, buf, offset_map, txns, out)
                    if kept:
                        pending += kept
                        if len(pending) >= _WRITE_CHUNK:
                            self._write(out, pending)
                            pending = bytearray()
            self._write(out, pending)
            out.make_inactive()
            if out.size == 0:
                out.delete()
                return None
            out.flush()
            out.close()
        except BaseException:
            out.delete()
            raise
        stats.segments_written += 1
        stats.bytes_written += out.size
        return base

    @staticmethod
    def _write(out: LogSegment, data: bytearray) -> None:
        if not data:
            return
        headers = list(iter_headers(data))
        max_ts, offset_of_max = -1, headers[0].base_offset
        for h in headers:
            if h.max_timestamp > max_ts:
                max_ts, offset_of_max = h.max_timestamp, h.last_offset
        out.append(headers[-1].last_offset, max_ts, offset_of_max, data, headers)

    def _note_horizon(self, horizon: int) -> None:
        if self.min_tombstone_horizon is None or horizon < self.min_tombstone_horizon:
            self.min_tombstone_horizon = horizon

    def _filter_marker(self, header: BatchHeader, buf: bytes | memoryview, txns: TxnTracker,
                       out: LogSegment) -> bytes | memoryview | None:
        """A transaction marker stays while its transaction's batches do; then it gets a
        delete horizon (Kafka piggy-backs on the tombstone rule) and goes after it."""
        original = memoryview(buf)[header.position:header.position + header.size]
        can_discard, aborted = txns.on_marker(header, buf)
        if aborted is not None:
            out.txn_index.append(aborted)
        if not can_discard:
            return original
        horizon = delete_horizon(header)
        if horizon is None:
            horizon = self.now_ms + self.config.delete_retention_ms
            self._note_horizon(horizon)
            return rebuild_batch(header, decode_batch(buf, header), horizon)
        if self.now_ms >= horizon:
            # an active producer whose last entry is this marker keeps it, emptied, for its epoch
            last = self.producer_last_offsets.get(header.producer_id)
            keep = last == -1 and self.producer_epochs.get(header.producer_id) == header.producer_epoch
            return empty_batch(header) if keep else None
        self._note_horizon(horizon)
        return original

    def _filter_batch(self, header: BatchHeader, buf: bytes | memoryview, offset_map: dict[bytes, int],
                      txns: TxnTracker, out: LogSegment) -> bytes | memoryview | None:
        """The batch as it should be after cleaning (Kafka's MemoryRecords.filterTo)."""
        stats = self.stats
        assert stats is not None
        if header.is_control:
            return self._filter_marker(header, buf, txns, out)
        original = memoryview(buf)[header.position:header.position + header.size]
        records = decode_batch(buf, header)
        stats.records_read += len(records)
        horizon = delete_horizon(header)
        now = self.now_ms
        retained: list[Record] = []
        has_tombstones = False
        aborted = txns.is_aborted(header)
        for r in records:
            if r.key is None or aborted:
                continue
            latest = offset_map.get(r.key)
            if latest is not None and latest > r.offset:
                continue
            if r.value is None:
                if horizon is not None and now >= horizon:
                    stats.tombstones_dropped += 1
                    continue
                has_tombstones = True
            retained.append(r)
        stats.records_retained += len(retained)
        if has_tombstones:
            if horizon is None:
                horizon = now + self.config.delete_retention_ms
            self._note_horizon(horizon)
        if len(retained) == len(records) and (not has_tombstones or delete_horizon(header) is not None):
            return original
        if retained:
            return rebuild_batch(header, retained, horizon if has_tombstones else delete_horizon(header))
        if header.producer_id >= 0 and self.producer_last_offsets.get(header.producer_id) == header.last_offset:
            stats.empty_batches_kept += 1
            return empty_batch(header)
        return None


class LogCleaner:
    """Picks the dirtiest compacted log and cleans it; keeps cleaner-offset-checkpoint.

    `max_map_entries` bounds the offset map (Kafka's log.cleaner.dedupe.buffer.size); a
    log with more distinct dirty keys is cleaned in several passes.
    """

    def __init__(self, log_manager, max_map_entries: int = 1_000_000, backoff_ms: int = 15_000,
                 last_stable_offset: Callable[[TopicPartition], int | None] | None = None) -> None:
        """`last_stable_offset` (the replica manager's) keeps cleaning below each log's last
        stable offset, as Kafka's: a record a follower may still lack, that a new leader
        may truncate, or of an undecided transaction, is never compacted away. None from it
        means "unknown": that log is not cleaned. Without it (tests, tools) the whole
        non-active log below the first unstable offset is cleanable."""
        self.log_manager = log_manager
        self.last_stable_offset = last_stable_offset
        self.max_map_entries = max_map_entries
        self.backoff_ms = backoff_ms
        self._checkpoint_files = {d: OffsetCheckpointFile(Path(d) / CLEANER_OFFSET_CHECKPOINT)
                                  for d in log_manager.log_dirs}
        self._first_dirty: dict[TopicPartition, int] = {}
        self._horizons: dict[TopicPartition, int] = {}
        self._uncleanable: set[TopicPartition] = set()
        self._checkpoint_lock = threading.Lock()
        self.last_stats: CleanerStats | None = None
        for checkpoint in self._checkpoint_files.values():
            try:
                self._first_dirty.update(checkpoint.read())
            except (OSError, CorruptCheckpointError) as e:
                logger.warning("Ignoring unreadable %s: %s", checkpoint.path, e)

    # -- choosing a log ---------------------------------------------------------------------

    def first_dirty_offset(self, key: TopicPartition, log: Log) -> int:
        """The checkpointed first dirty offset, reset to the log start if out of range."""
        offset = self._first_dirty.get(key, log.log_start_offset)
        if offset < log.log_start_offset or offset > log.log_end_offset:
            offset = log.log_start_offset
        return offset

    def cleanable_ratio(self, key: TopicPartition, log: Log, now_ms: int) -> tuple[float, int, int, bool]:
        """(dirty ratio, first dirty, first uncleanable, must clean now) for a log."""
        cfg = log.config
        segments = log.segments
        first_dirty = self.first_dirty_offset(key, log)
        first_uncleanable = segments[-1].base_offset
        bound = log.first_unstable_offset  # an undecided transaction is never cleaned
        if self.last_stable_offset is not None:
            lso = self.last_stable_offset(key)
            bound = segments[0].base_offset if lso is None else lso if bound is None else min(bound, lso)
        if bound is not None:
            # whole segments only: the one holding the bound stays dirty
            first_uncleanable = min(first_uncleanable, max((s.base_offset for s in segments if s.base_offset <= bound),
                                                           default=segments[0].base_offset))
        lag = cfg.min_compaction_lag_ms
        if lag > 0:
            for i, s in enumerate(segments[:-1]):
                if segments[i + 1].base_offset > first_dirty and s.largest_timestamp > now_ms - lag:
                    first_uncleanable = min(first_uncleanable, s.base_offset)
                    break
        clean = dirty = 0
        first_dirty_segment: LogSegment | None = None
        for i, s in enumerate(segments[:-1]):
            next_base = segments[i + 1].base_offset
            if next_base <= first_dirty:
                clean += s.size
            elif s.base_offset < first_uncleanable:
                dirty += s.size
                first_dirty_segment = first_dirty_segment or s
        ratio = dirty / (clean + dirty) if dirty else 0.0
        force = False
        if dirty and cfg.max_compaction_lag_ms < LONG_MAX and first_dirty_segment is not None:
            ts = first_dirty_segment.rolling_base_timestamp()
            force = ts is not None and 0 <= ts < now_ms - cfg.max_compaction_lag_ms
        horizon = self._horizons.get(key)
        if horizon is not None and now_ms >= horizon:
            force = True
        return ratio, first_dirty, first_uncleanable, force

    def plan(self, now_ms: int | None = None) -> CleaningTask | None:
        """On the loop: pick the dirtiest eligible log and snapshot what cleaning needs."""
        now = self.log_manager.time.milliseconds() if now_ms is None else now_ms
        best: tuple[float, TopicPartition, Log, int, int] | None = None
        for key, log in self.log_manager.all_logs().items():
            if (log.closed or not log.config.compact or key in self._uncleanable
                    or self.log_manager.is_cleaning_paused(*key)):
                continue
            ratio, first_dirty, first_uncleanable, force = self.cleanable_ratio(key, log, now)
            if not (force or (ratio > 0 and ratio > log.config.min_cleanable_dirty_ratio)):
                continue
            score = 2.0 + ratio if force else ratio
            if best is None or score > best[0]:
                best = (score, key, log, first_dirty, first_uncleanable)
        if best is None:
            return None
        _, key, log, first_dirty, first_uncleanable = best
        segments = log.segments
        snaps: list[_SegmentSnapshot] = []
        try:
            for i, s in enumerate(segments[:-1]):
                if s.base_offset >= first_uncleanable:
                    break
                snaps.append(_SegmentSnapshot(s, s.base_offset, segments[i + 1].base_offset, s.size,
                                              os.dup(s.file.fileno())))
        except (OSError, ValueError) as e:
            for snap in snaps:
                os.close(snap.fd)
            logger.warning("Cannot clean %s-%d now: %s", key[0], key[1], e)
            return None
        last_offsets = {pid: e.last_offset for pid, e in log.producer_state.producers.items()}
        epochs = {pid: e.epoch for pid, e in log.producer_state.producers.items()}
        aborted = log.collect_aborted_transactions(segments[0].base_offset, first_uncleanable)
        return CleaningTask(key, log, log.config, now, first_dirty, first_uncleanable, snaps, last_offsets,
                            self.max_map_entries, aborted, epochs)

    # -- committing ---------------------------------------------------------------------------

    def commit(self, task: CleaningTask) -> bool:
        """On the loop: swap the cleaned segments in; discard them if the log moved on."""
        key = task.key
        if task.error is not None:
            self._discard(task, 0)
            if isinstance(task.error, CorruptRecordError):
                self._uncleanable.add(key)
                logger.error("Cannot clean %s-%d, marking it uncleanable: %s", key[0], key[1], task.error)
            elif isinstance(task.error, OSError):
                log_dir = task.log.dir.parent
                self.log_manager.failure_channel.maybe_add_offline_log_dir(
                    log_dir, f"Failed to clean up log for {key[0]}-{key[1]} in dir {log_dir} due to IOException",
                    task.error)
            else:
                logger.warning("Cleaning %s-%d failed: %s", key[0], key[1], task.error)
            return False
        for i, (old, base) in enumerate(task.groups):
            try:
                swapped = task.log.replace_segments(old, base)
            except OSError as e:
                self.log_manager.failure_channel.maybe_add_offline_log_dir(
                    task.log.dir.parent, f"Swapping cleaned segments into {key[0]}-{key[1]} failed", e)
                swapped = False
            if not swapped:
                logger.info("%s-%d changed while it was cleaned; discarding the rest of the clean", *key)
                self._discard(task, i)
                return False
        self._first_dirty[key] = task.end_offset
        if task.min_tombstone_horizon is not None:
            self._horizons[key] = task.min_tombstone_horizon
        else:
            self._horizons.pop(key, None)
        self.last_stats = task.stats
        s = task.stats
        if s is not None:
            logger.info("Cleaned %s-%d up to offset %d: %d segments (%d bytes) -> %d segments (%d bytes), "
                        "%d of %d records kept, %d tombstones dropped, %.0f ms", key[0], key[1], s.end_offset,
                        s.segments_read, s.bytes_read, s.segments_written, s.bytes_written, s.records_retained,
                        s.records_read, s.tombstones_dropped, s.elapsed_ms)
        return True

    @staticmethod
    def _discard(task: CleaningTask, start: int) -> None:
        for _, base in task.groups[start:]:
            if base is None:
                continue
            prefix = task.log.dir / filename_prefix(base)
            for suffix in _CLEANED_FILES:
                Path(f"{prefix}{suffix}{CLEANED_SUFFIX}").unlink(missing_ok=True)

    def checkpoint(self) -> None:
        """Write cleaner-offset-checkpoint in every log dir (thread-safe)."""
        logs = self.log_manager.all_logs()
        with self._checkpoint_lock:
            by_dir: dict[Path, dict[TopicPartition, int]] = {Path(d): {} for d in self._checkpoint_files}
            for key, offset in list(self._first_dirty.items()):
                log_dir = self.log_manager.log_dir_of(*key)
                if key in logs and log_dir is not None:
                    by_dir.setdefault(Path(log_dir), {})[key] = offset
            for log_dir, offsets in by_dir.items():
                checkpoint = self._checkpoint_files.get(log_dir)
                if checkpoint is None or self.log_manager.failure_channel.has_offline_log_dir(log_dir):
                    continue
                try:
                    checkpoint.write(offsets)
                except OSError as e:
                    self.log_manager.failure_channel.maybe_add_offline_log_dir(
                        log_dir, f"Disk error while writing to cleaner offset checkpoint {checkpoint.path}", e)

    # -- entry points -------------------------------------------------------------------------

    def clean_once(self, now_ms: int | None = None) -> int:
        """Clean the dirtiest eligible log inline; returns 1 if a log was cleaned, else 0."""
        task = self.plan(now_ms)
        if task is None:
            return 0
        self.log_manager.begin_cleaning(*task.key)
        try:
            task.build()
            if not self.commit(task):
                return 0
        finally:
            self.log_manager.end_cleaning(*task.key)
        self.checkpoint()
        return 1

    async def clean_once_async(self, now_ms: int | None = None) -> int:
        """As clean_once, with the reading, writing and fsyncs in a worker thread."""
        task = self.plan(now_ms)
        if task is None:
            return 0
        self.log_manager.begin_cleaning(*task.key)  # a log dir move waits with its swap until the end
        try:
            await asyncio.to_thread(task.build)
            if not self.commit(task):
                return 0
        finally:
            self.log_manager.end_cleaning(*task.key)
        await asyncio.to_thread(self.checkpoint)
        return 1
