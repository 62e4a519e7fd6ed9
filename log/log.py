"""A partition's log (Kafka's UnifiedLog): an ordered list of segments in one directory.

The log validates what a producer sends (CRC, sizes and producer sequence here, the
records in josefk.log.validator), assigns offsets by patching each batch's header in
place, and appends to the active segment, rolling to a new one by size, age, index
capacity or offset range. Reads hand back FileRegions of whole batches. It starts from
what josefk.log.loader (Kafka's LogLoader) recovered from its directory.

Transactions (Kafka's UnifiedLog): the coordinator's COMMIT/ABORT markers are appended
with origin COORDINATOR; the producer state tracks open transactions, an aborted one is
indexed in its marker's segment (.txnindex), and the last stable offset (LSO), the
first offset of an undecided transaction bounded by the high watermark, is what
read_committed consumers may read up to. The log keeps the high watermark the
partition hands it (update_high_watermark) so that it can bound the LSO.

Threading: the log belongs to the event-loop thread, except flush(), which may run on
a background thread while appends continue (it works on a copy of the segment list
and each segment syncs duplicated descriptors).
"""

from __future__ import annotations

import bisect
import enum
import logging
import os
import random
import shutil
import threading
import uuid
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from josefk.log.checkpoint import fsync_dir
from josefk.log.config import LogConfig
from josefk.log.leader_epoch import LeaderEpochFileCache
from josefk.log.loader import (
    CLEANED_SUFFIX,
    SWAP_SUFFIX,
    LogLoader,
    apply_batch,
    create_segment,
    open_segment,
    read_marker,
    rebuild_producer_state,
)
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.log.partition_metadata import kafka_uuid, read_topic_id, write_topic_id
from josefk.log.producer_state import (
    SENTINEL,
    SNAPSHOT_SUFFIX,
    BatchMetadata,
    EndTxnMarker,
    ProducerStateManager,
    VerificationGuard,
)
from josefk.log.segment import (
    DELETED_SUFFIX,
    INDEX_SUFFIX,
    INT_MAX,
    LOG_SUFFIX,
    TIME_INDEX_SUFFIX,
    TXN_INDEX_SUFFIX,
    FileRegion,
    LogSegment,
    filename_prefix,
)
from josefk.log.transaction_index import AbortedTxn
from josefk.log.validator import up_convert_legacy, validate_batches
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.records import (
    BatchHeader,
    CorruptRecordError,
    iter_headers,
    set_base_offset,
    set_log_append_time,
    set_partition_leader_epoch,
    verify_crc,
)
from josefk.utils.metrics import LogFlushStats
from josefk.utils.time import SYSTEM_TIME, Time

logger = logging.getLogger(__name__)
# Kafka's LocalLog, whose roll and segment file deletion lines josefk's Log also writes.
local_logger = logging.getLogger(f"{__name__}.local")

EARLIEST_TIMESTAMP = -2
LATEST_TIMESTAMP = -1
MAX_TIMESTAMP = -3
EARLIEST_LOCAL_TIMESTAMP = -4


class AppendOrigin(enum.Enum):
    """Who is appending: clients get full validation, the coordinator may write
    control batches, replication keeps the leader's offsets."""

    CLIENT = "client"
    COORDINATOR = "coordinator"
    REPLICATION = "replication"


@dataclass(slots=True)
class LogAppendInfo:
    """Outcome of an append: what a ProduceResponse partition needs, and more."""

    first_offset: int
    last_offset: int
    log_append_time: int = -1
    log_start_offset: int = 0
    record_count: int = 0
    duplicate: bool = False
    max_timestamp: int = -1
    offset_of_max_timestamp: int = -1
    valid_bytes: int = 0
    records_converted: int = 0  # up-converted from a v0/v1 message set (ProduceMessageConversionsPerSec)


@dataclass(slots=True)
class FetchDataInfo:
    """A read: file regions of whole batches, in offset order, possibly empty."""

    fetch_offset: int
    regions: list[FileRegion] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(r.size for r in self.regions)

    @property
    def is_empty(self) -> bool:
        return not self.regions

    @property
    def next_offset(self) -> int:
        """Offset after the last batch returned (fetch_offset when empty)."""
        return self.regions[-1].next_offset if self.regions else self.fetch_offset

    def read_bytes(self) -> bytes:
        return b"".join(r.read_bytes() for r in self.regions)


class UnexpectedAppendOffsetError(KafkaError):
    """A follower append whose first offset is below the log end offset."""

    def __init__(self, message: str, first_offset: int, last_offset: int) -> None:
        super().__init__(ErrorCode.UNKNOWN_SERVER_ERROR, message)
        self.first_offset = first_offset
        self.last_offset = last_offset


class Log:
    """One partition's log in `dir` (named `<topic>-<partition>` by the LogManager)."""

    def __init__(
        self,
        dir: Path,
        config: LogConfig,
        recovery_point: int = 0,
        log_start_offset: int = 0,
        clean_shutdown: bool = True,
        failure_channel: LogDirFailureChannel | None = None,
        time: Time = SYSTEM_TIME,
        flush_stats: LogFlushStats | None = None,
    ) -> None:
        """`failure_channel` hears of I/O errors: they take the log dir (the parent of
        `dir`) offline, and every I/O method then raises KAFKA_STORAGE_ERROR. `time` is the
        clock of appends, rolls, flushes and retention when the caller gives no now_ms."""
        self._flush_lock = threading.Lock()  # a flush (worker thread) and a rename of the dir
        self._detached = False  # renamed away by rename_dir: never flushed again
        self.dir = Path(dir)
        self._time = time
        self._flush_stats = flush_stats
        self._failures = failure_channel or LogDirFailureChannel()
        # A new partition dir's entry in the log dir is made durable by the first flush (as
        # the new segment's files are), not here: one fsync per created partition made
        # creating 10,000 of them take minutes.
        self._parent_dir_dirty = not self.dir.exists()
        self.dir.mkdir(parents=True, exist_ok=True)
        self._config = config
        self._segments: list[LogSegment] = []
        self._bases: list[int] = []
        self._pending_deletes: list[tuple[int, LogSegment]] = []
        self._producer_state = ProducerStateManager(self.dir)
        self._roll_jitter_ms = self._draw_jitter()
        self._dir_dirty = False
        self._flush_offset_on_roll = 0
        self._last_flush_ms = time.milliseconds()
        self._closed = False
        self._retired = False
        self._leader_epoch_cache = LeaderEpochFileCache(self.dir)
        self._topic_id = read_topic_id(self.dir)
        loaded = LogLoader(self.dir, config, self._producer_state, time).load(
            recovery_point, log_start_offset, clean_shutdown)
        self._segments = loaded.segments
        self._bases = [s.base_offset for s in loaded.segments]
        self._leo = loaded.log_end_offset
        self._log_start_offset = loaded.log_start_offset
        self._recovery_point = self._flush_offset_on_roll = loaded.recovery_point
        self._dir_dirty = loaded.created_segment
        self._leader_epoch_cache.truncate_from_end(self._leo)
        self._leader_epoch_cache.truncate_from_start(self._log_start_offset)
        self._high_watermark = self._log_start_offset

    def _add_segment(self, base: int) -> LogSegment:
        """A new active segment at `base` (a roll, or a log emptied and restarted)."""
        segment = create_segment(self.dir, base, self._config, self._time)
        self._segments.append(segment)
        self._bases.append(base)
        self._dir_dirty = True
        return segment

    @staticmethod
    def _draw_jitter_for(cfg: LogConfig) -> int:
        return random.randrange(cfg.segment_jitter_ms) if cfg.segment_jitter_ms > 0 else 0

    def _draw_jitter(self) -> int:
        return self._draw_jitter_for(self._config)

    # -- properties ---------------------------------------------------------------------

    @property
    def config(self) -> LogConfig:
        return self._config

    def update_config(self, config: LogConfig) -> None:
        """Take a new topic config; it applies to appends and rolls from now on."""
        self._config = config
        self._roll_jitter_ms = self._draw_jitter()
        for segment in self._segments:
            segment.index_interval_bytes = config.index_interval_bytes
            segment.max_index_size = config.segment_index_bytes

    @property
    def log_start_offset(self) -> int:
        return self._log_start_offset

    @property
    def log_end_offset(self) -> int:
        return self._leo

    @property
    def recovery_point(self) -> int:
        return self._recovery_point

    @property
    def high_watermark(self) -> int:
        return self._high_watermark

    def update_high_watermark(self, high_watermark: int) -> None:
        """The partition's high watermark moved (or was reset): transactions whose marker
        it passed become stable."""
        self._high_watermark = min(max(high_watermark, self._log_start_offset), self._leo)
        self._producer_state.on_high_watermark_updated(self._high_watermark)

    @property
    def first_unstable_offset(self) -> int | None:
        """First offset of a transaction not yet decided or whose marker is not yet below
        the high watermark (Kafka's firstUnstableOffset); None when there is none."""
        return self._producer_state.first_unstable_offset()

    @property
    def last_stable_offset(self) -> int:
        """Where read_committed reads stop: the first unstable offset if below the high
        watermark, else the high watermark."""
        unstable = self._producer_state.first_unstable_offset()
        return unstable if unstable is not None and unstable < self._high_watermark else self._high_watermark

    @property
    def size_in_bytes(self) -> int:
        return sum(s.size for s in self._segments)

    @property
    def segments(self) -> list[LogSegment]:
        """The segments in offset order (a copy)."""
        return list(self._segments)

    @property
    def active_segment(self) -> LogSegment:
        return self._segments[-1]

    @property
    def leader_epoch_cache(self) -> LeaderEpochFileCache:
        """Epoch -> start offset, kept in leader-epoch-checkpoint (OffsetForLeaderEpoch)."""
        return self._leader_epoch_cache

    @property
    def producer_state(self) -> ProducerStateManager:
        return self._producer_state

    @property
    def unflushed_messages(self) -> int:
        return self._leo - self._recovery_point

    @property
    def flush_due(self) -> bool:
        """flush.messages messages are unflushed: whoever appended should now flush, off the
        event loop (an fsync on a slow disk must not stall every other partition)."""
        flush_messages = self._config.flush_messages
        return flush_messages is not None and self._leo - self._recovery_point >= flush_messages

    @property
    def last_flush_ms(self) -> int:
        return self._last_flush_ms

    @property
    def dir(self) -> Path:
        return self._dir

    @dir.setter
    def dir(self, dir: Path) -> None:
        """The name and log dir are kept with the dir, for every append and read names them."""
        self._dir = dir
        self._name = dir.name
        self._parent = dir.parent

    @property
    def name(self) -> str:
        return self._name

    # -- append -------------------------------------------------------------------------

    def append_as_leader(
        self,
        records: bytes | bytearray | memoryview,
        leader_epoch: int,
        now_ms: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
        marker_transaction_version: int = 0,
    ) -> LogAppendInfo:
        """Validate, assign offsets and append a producer's record set.
        `marker_transaction_version`: a WriteTxnMarkers v2 marker's transaction version.

        A bytearray is patched in place (offsets, leader epoch, LogAppendTime).
        Raises KafkaError: CORRUPT_MESSAGE, MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE,
        INVALID_RECORD, INVALID_TIMESTAMP, INVALID_PRODUCER_EPOCH,
        OUT_OF_ORDER_SEQUENCE_NUMBER, INVALID_TXN_STATE. A retried batch already in the
        log returns its original offsets with duplicate=True and writes nothing.
        With a `verification_guard` (transaction.partition.verification.enable; SENTINEL
        when none was started) a transactional batch may only open a transaction under
        the guard its verification started (start_transaction_verification); None skips
        the check.
        """
        with self._guard("appending to"):
            return self._append_as_leader(records, leader_epoch, now_ms, origin, verification_guard,
                                          marker_transaction_version)

    def start_transaction_verification(self, producer_id: int, sequence: int, epoch: int) -> VerificationGuard:
        """Kafka's maybeStartTransactionVerification: the guard to verify the producer's
        transaction under, or SENTINEL if its transaction is already open here (the
        coordinator knew of it when it was opened)."""
        state = self._producer_state
        if state.has_ongoing_transaction(producer_id):
            return SENTINEL
        return state.maybe_create_verification_state_entry(producer_id, sequence, epoch,
                                                           self._time.milliseconds()).guard

    def _append_as_leader(
        self,
        records: bytes | bytearray | memoryview,
        leader_epoch: int,
        now_ms: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
        marker_transaction_version: int = 0,
    ) -> LogAppendInfo:
        self._check_open()
        now = self._time.milliseconds() if now_ms is None else now_ms
        cfg = self._config
        buf = records if isinstance(records, bytearray) else bytearray(records)
        if not buf:
            return LogAppendInfo(-1, -1, -1, self._log_start_offset)
        received = buf
        buf = up_convert_legacy(buf, self.name)
        headers = self._parse(buf)
        if len(buf) > cfg.segment_bytes:
            raise KafkaError(ErrorCode.RECORD_LIST_TOO_LARGE,
                             f"The record batch size in the append to {self.name} is {len(buf)} bytes "
                             f"which exceeds the maximum configured segment size of {cfg.segment_bytes}.")
        for h in headers:
            if h.size > cfg.max_message_bytes:
                raise KafkaError(ErrorCode.MESSAGE_TOO_LARGE,
                                 f"The record batch size in the append to {self.name} is {h.size} bytes "
                                 f"which exceeds the maximum configured value of {cfg.max_message_bytes}.")
        validate_batches(buf, headers, cfg, now, from_client=origin is AppendOrigin.CLIENT, name=self.name)
        duplicate = self._producer_state.check(headers, self.name)
        if duplicate is not None:
            return self._duplicate_info(duplicate)
        if verification_guard is not None and origin is not AppendOrigin.REPLICATION:
            self._producer_state.check_verified(headers, verification_guard)
        markers = self._markers(buf, headers)
        for h in headers:
            marker = markers.get(h.position)
            if marker is not None:
                self._producer_state.check_marker(h, marker, self.name,
                                                  transaction_version=marker_transaction_version)
        offset = self._leo
        record_count = 0
        max_ts, offset_of_max_ts = -1, offset
        for h in headers:
            set_base_offset(buf, h, offset)
            set_partition_leader_epoch(buf, h, leader_epoch)
            if cfg.log_append_time:
                set_log_append_time(buf, h, now)
            if h.max_timestamp > max_ts:
                max_ts, offset_of_max_ts = h.max_timestamp, h.last_offset
            record_count += h.record_count
            offset = h.next_offset
        first_offset, last_offset = headers[0].base_offset, offset - 1
        self._leader_epoch_cache.assign(leader_epoch, first_offset)
        self._append(buf, headers, first_offset, last_offset, max_ts, offset_of_max_ts, now, markers)
        return LogAppendInfo(first_offset, last_offset, now if cfg.log_append_time else -1,
                             self._log_start_offset, record_count, False, max_ts, offset_of_max_ts, len(buf),
                             record_count if buf is not received else 0)

    def append_as_follower(self, records: bytes | bytearray | memoryview, now_ms: int | None = None) -> LogAppendInfo:
        """Append batches that already carry the leader's offsets (replication).

        Offsets must increase and start at or after the log end offset (gaps are kept,
        as after compaction on the leader); UnexpectedAppendOffsetError otherwise.
        """
        with self._guard("appending to"):
            return self._append_as_follower(records, now_ms)

    def _append_as_follower(self, records: bytes | bytearray | memoryview,
                            now_ms: int | None = None) -> LogAppendInfo:
        self._check_open()
        now = self._time.milliseconds() if now_ms is None else now_ms
        buf = records if isinstance(records, bytearray) else bytearray(records)
        if not buf:
            return LogAppendInfo(-1, -1, -1, self._log_start_offset)
        headers = self._parse(buf)
        first_offset = headers[0].base_offset
        if first_offset < self._leo:
            raise UnexpectedAppendOffsetError(
                f"Unexpected offset in append to {self.name}. First offset {first_offset} is less than "
                f"the next offset {self._leo}.", first_offset, headers[-1].last_offset)
        expected = first_offset
        max_ts, offset_of_max_ts, record_count = -1, first_offset, 0
        for h in headers:
            if h.base_offset < expected:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE,
                                 f"Out of order offsets in append to {self.name}: {h.base_offset} after "
                                 f"{expected - 1}")
            expected = h.next_offset
            record_count += h.record_count
            self._leader_epoch_cache.assign(h.partition_leader_epoch, h.base_offset)
            if h.max_timestamp > max_ts:
                max_ts, offset_of_max_ts = h.max_timestamp, h.last_offset
        last_offset = headers[-1].last_offset
        self._append(buf, headers, first_offset, last_offset, max_ts, offset_of_max_ts, now,
                     self._markers(buf, headers))
        return LogAppendInfo(first_offset, last_offset, -1, self._log_start_offset, record_count, False,
                             max_ts, offset_of_max_ts, len(buf))

    @staticmethod
    def _markers(buf: bytearray, headers: list[BatchHeader]) -> dict[int, EndTxnMarker]:
        """The end-transaction markers among the batches, by position in `buf` (which offset
        assignment does not move)."""
        markers: dict[int, EndTxnMarker] = {}
        for h in headers:
            if h.is_control:
                marker = read_marker(buf, h.position)
                if marker is not None:
                    markers[h.position] = marker
        return markers

    def _append(self, buf: bytearray, headers: list[BatchHeader], first_offset: int, last_offset: int,
                max_ts: int, offset_of_max_ts: int, now: int, markers: dict[int, EndTxnMarker]) -> None:
        segment = self._maybe_roll(len(buf), max_ts, first_offset, last_offset, now)
        segment.append(last_offset, max_ts, offset_of_max_ts, buf, headers)
        for h in headers:
            if h.producer_id >= 0:
                apply_batch(self._producer_state, segment, h, markers.get(h.position))
        self._leo = last_offset + 1

    def _parse(self, buf: bytearray) -> list[BatchHeader]:
        try:
            headers = list(iter_headers(buf))
            for h in headers:
                verify_crc(buf, h)
        except CorruptRecordError as e:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt record set for {self.name}: {e}") from None
        return headers

    def _duplicate_info(self, dup: BatchMetadata) -> LogAppendInfo:
        return LogAppendInfo(dup.first_offset, dup.last_offset,
                             dup.timestamp if self._config.log_append_time else -1,
                             self._log_start_offset, 0, True, dup.timestamp, dup.last_offset)

    # -- rolling ------------------------------------------------------------------------

    def _maybe_roll(self, size: int, max_ts: int, first_offset: int, last_offset: int, now: int) -> LogSegment:
        segment = self._segments[-1]
        cfg = self._config
        if (
            (segment.size > 0 and segment.size > cfg.segment_bytes - size)
            or (segment.size > 0
                and segment.time_waited_for_roll(now, max_ts) > cfg.segment_ms - self._roll_jitter_ms)
            or segment.offset_index.is_full()
            or segment.time_index.is_full()
            or last_offset - segment.base_offset > INT_MAX
        ):
            return self.roll(first_offset)
        return segment

    def roll(self, new_base: int | None = None) -> LogSegment:
        """Start a new active segment at `new_base` (default: the log end offset)."""
        with self._guard("rolling"):
            return self._roll(new_base)

    def _roll(self, new_base: int | None = None) -> LogSegment:
        started = self._time.hi_res_clock_ms()
        base = self._leo if new_base is None else new_base
        active = self._segments[-1]
        if active.size == 0:
            if active.base_offset == base:
                return active
            # an empty active segment at another offset (a follower's gap): replace it
            self._segments.pop()
            self._bases.pop()
            active.delete()
        elif base <= active.base_offset:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"Cannot roll {self.name} to offset {base}, not above the active segment "
                             f"{active.base_offset}")
        else:
            active.make_inactive()
        if base == self._leo:
            self._producer_state.take_snapshot(base)
        segment = self._add_segment(base)
        self._roll_jitter_ms = self._draw_jitter()
        self._flush_offset_on_roll = base
        local_logger.info("[LocalLog partition=%s, dir=%s] Rolled new log segment at offset %d in %d ms.", self.name,
                          self.dir.parent, base, self._time.hi_res_clock_ms() - started)
        return segment

    # -- read ---------------------------------------------------------------------------

    def read(
        self,
        offset: int,
        max_bytes: int,
        max_offset: int | None = None,
        min_one_message: bool = True,
    ) -> FetchDataInfo:
        """Whole batches from the one containing `offset`, across segments, up to
        `max_bytes` (the first batch always, with `min_one_message`).

        `max_offset` (the high watermark for consumers) is exclusive: only batches
        that end below it are returned, so no record at or above it is exposed (a
        batch straddling it is held back, as Kafka does). OFFSET_OUT_OF_RANGE if
        `offset` is below the log start or above the log end; empty at the log end.
        A corrupt batch raises KafkaError(CORRUPT_MESSAGE) instead of being served.
        """
        if self.nothing_after(offset, max_offset):
            # Nothing new, the usual answer for most partitions of a fetch over many: no I/O
            # guard to build (what _read would answer, and the guard could not fail).
            return FetchDataInfo(offset)
        with self._guard("reading"):
            return self._read(offset, max_bytes, max_offset, min_one_message)

    def nothing_after(self, offset: int, max_offset: int | None = None) -> bool:
        """Whether read(offset, max_offset=max_offset) would answer no records and no error,
        without building anything: the offset is in the log, at or past where reads stop."""
        leo = self._leo
        return (offset >= (leo if max_offset is None else min(max_offset, leo))
                and self._log_start_offset <= offset <= leo and not self._closed
                and not self._failures.any_offline)

    def _read(
        self,
        offset: int,
        max_bytes: int,
        max_offset: int | None = None,
        min_one_message: bool = True,
    ) -> FetchDataInfo:
        self._check_open()
        leo = self._leo
        if offset < self._log_start_offset or offset > leo:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Received request for offset {offset} for partition {self.name}, but we only "
                             f"have log segments in the range {self._log_start_offset} to {leo}.")
        upper = leo if max_offset is None else min(max_offset, leo)
        info = FetchDataInfo(offset)
        if offset >= upper:
            return info
        remaining = max_bytes
        start = offset
        i = max(bisect.bisect_right(self._bases, offset) - 1, 0)
        upper_segment = bisect.bisect_right(self._bases, upper) - 1 if upper < leo else -1
        try:
            for j in range(i, len(self._segments)):
                segment = self._segments[j]
                if segment.base_offset >= upper:
                    break
                max_position = None
                if j == upper_segment:
                    limit_batch = segment.translate_offset(upper)
                    if limit_batch is not None:
                        max_position = limit_batch.position
                region = segment.read(start, remaining, max_position, min_one_message and not info.regions)
                if region is None:
                    continue
                if region.size == 0:
                    break
                info.regions.append(region)
                remaining -= region.size
                start = region.next_offset
                if remaining <= 0 or region.position + region.size < segment.size or start >= upper:
                    break
        except CorruptRecordError as e:
            logger.error("%s: corrupt data while reading offset %d: %s", self.name, offset, e)
            if info.regions:
                return info  # serve what precedes the corruption; the next fetch raises
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt data in {self.name}: {e}") from None
        return info

    def collect_aborted_transactions(self, start_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """The aborted transactions overlapping [start_offset, upper_bound_offset), from the
        .txnindex of the segment holding start_offset on (Kafka's collectAbortedTransactions)."""
        found: list[AbortedTxn] = []
        i = max(bisect.bisect_right(self._bases, start_offset) - 1, 0)
        for segment in list(self._segments[i:]):
            result = segment.txn_index.collect_aborted_txns(start_offset, upper_bound_offset)
            found.extend(result.aborted)
            if result.is_complete:
                break
        return found

    # -- timestamps -----------------------------------------------------------------------

    def fetch_offset_by_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        """(offset, timestamp) for ListOffsets: the first record whose timestamp is >=
        `timestamp`, found through the time index and decoding that one batch. Also takes
        Kafka's special values -2 (earliest), -1 (latest), -3 (max timestamp) and -4
        (earliest local). None if no record qualifies."""
        if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
            return self._log_start_offset, -1
        if timestamp == LATEST_TIMESTAMP:
            return self._leo, -1
        if timestamp == MAX_TIMESTAMP:
            return self.latest_timestamp_offset()
        try:
            for segment in self._segments:
                if segment.max_timestamp >= timestamp:
                    found = segment.find_offset_by_timestamp(timestamp, self._log_start_offset)
                    if found is not None:
                        return found[1], found[0]
        except CorruptRecordError as e:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt data in {self.name}: {e}") from None
        return None

    def latest_timestamp_offset(self) -> tuple[int, int] | None:
        """(offset, timestamp) of the record with the largest timestamp (ListOffsets -3);
        the first such record if several share it. None if the log has no timestamps."""
        best: LogSegment | None = None
        for segment in self._segments:
            if best is None or segment.max_timestamp > best.max_timestamp:
                best = segment
        if best is None or best.max_timestamp < 0:
            return None
        ts = best.max_timestamp
        try:
            return best.offset_of_timestamp_in_batch(ts, best.offset_of_max_timestamp), ts
        except CorruptRecordError as e:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt data in {self.name}: {e}") from None

    # -- truncation and retention ------------------------------------------------------------

    def truncate_to(self, offset: int) -> bool:
        """Remove everything from `offset` on (a follower diverging from its leader).
        Truncation removes whole batches: the one containing `offset` goes entirely.
        Returns whether anything was removed. At or past the log end it still drops epoch
        entries starting at the log end, as Kafka's UnifiedLog.truncateTo: a leader records
        its epoch there on election, and if it lost the leadership before writing, that
        epoch (which no other replica has) would stay the follower's last fetched one and
        every fetch would be answered with the same diverging epoch."""
        with self._guard("truncating"):
            return self._truncate_to(offset)

    def _truncate_to(self, offset: int) -> bool:
        self._check_open()
        if offset < 0:
            raise ValueError(f"cannot truncate {self.name} to a negative offset {offset}")
        if offset >= self._leo:
            # Nothing to remove, but an epoch this replica started as leader without
            # appending to it may sit at the log end; left there, the follower would keep
            # fetching with an epoch its leader never had (Kafka's truncateTo drops it too).
            self._leader_epoch_cache.truncate_from_end(self._leo)
            return False
        if offset < self._segments[0].base_offset:
            self.truncate_fully_and_start_at(offset)
            return True
        while len(self._segments) > 1 and self._segments[-1].base_offset > offset:
            segment = self._segments.pop()
            self._bases.pop()
            self._schedule_delete(segment)
        active = self._segments[-1]
        active.truncate_to(offset)
        active.make_active()
        self._leo = active.read_next_offset()
        self._recovery_point = min(self._recovery_point, self._leo)
        self._flush_offset_on_roll = min(self._flush_offset_on_roll, self._leo)
        self._log_start_offset = min(self._log_start_offset, self._leo)
        self._leader_epoch_cache.truncate_from_end(self._leo)
        self._rebuild_producer_state()
        self.update_high_watermark(min(self._high_watermark, self._leo))
        return True

    def truncate_fully_and_start_at(self, offset: int) -> None:
        """Drop every segment and continue empty at `offset` (a follower far behind)."""
        with self._guard("truncating"):
            self._truncate_fully_and_start_at(offset)

    def _truncate_fully_and_start_at(self, offset: int) -> None:
        self._check_open()
        for segment in self._segments:
            self._schedule_delete(segment)
        self._segments.clear()
        self._bases.clear()
        self._producer_state.clear()
        self._producer_state.delete_snapshots_above(-1)
        self._add_segment(offset)
        self._leo = self._log_start_offset = self._recovery_point = offset
        self._flush_offset_on_roll = offset
        self._leader_epoch_cache.clear()
        self.update_high_watermark(offset)

    def _rebuild_producer_state(self) -> None:
        self._producer_state.delete_snapshots_above(self._leo)
        rebuild_producer_state(self._producer_state, self._segments, self._log_start_offset, self._leo)

    def maybe_increment_log_start_offset(self, offset: int) -> None:
        """Advance the log start offset (DeleteRecords, retention); whole segments below
        it are deleted by delete_old_segments."""
        if offset > self._leo:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Cannot increment the log start offset of {self.name} to {offset}: it is "
                             f"beyond the log end offset {self._leo}")
        if offset > self._log_start_offset:
            self._log_start_offset = offset
            self._leader_epoch_cache.truncate_from_start(offset)

    def delete_old_segments(self, now_ms: int | None = None) -> int:
        """Retention: delete whole segments that are past retention.ms, beyond retention.bytes,
        or wholly below the log start offset (the active one too, as Kafka does, once the high
        watermark has passed it). Returns the count."""
        with self._guard("deleting segments of"):
            return self._delete_old_segments(now_ms)

    def _delete_old_segments(self, now_ms: int | None = None) -> int:
        """Kafka's deletableSegments: from the oldest segment on, the active one included unless
        it is empty, and none holding an offset at or beyond the high watermark (so the log
        start never passes it). Deleting every segment rolls a new active one first."""
        now = self._time.milliseconds() if now_ms is None else now_ms
        cfg = self._config
        size = self.size_in_bytes
        excess = size - cfg.retention_bytes if cfg.retention_bytes >= 0 else -1
        reasons: list[tuple[LogSegment, str]] = []
        below_start_offset: list[LogSegment] = []
        segments = self._segments
        for i, segment in enumerate(segments):
            following = segments[i + 1] if i + 1 < len(segments) else None
            if following is None and segment.size == 0:
                break
            if self._high_watermark < (following.base_offset if following is not None else self._leo):
                break
            below_start = following is not None and following.base_offset <= self._log_start_offset
            by_time = cfg.delete and cfg.retention_ms >= 0 and now - segment.largest_timestamp > cfg.retention_ms
            by_size = cfg.delete and excess >= segment.size
            if not (below_start or by_time or by_size):
                break
            if by_size:
                excess -= segment.size
            size -= segment.size
            # Kafka's SegmentDeletionReasons, checked in its order: time, size, start offset.
            if by_time:
                basis = ("the largest record timestamp in the segment" if segment.max_timestamp >= 0
                         else "the last modified time of the segment")
                reasons.append((segment, f"due to log retention time {cfg.retention_ms}ms breach based on {basis}"))
            elif by_size:
                reasons.append((segment, f"due to log retention size {cfg.retention_bytes} breach. "
                                         f"Log size after deletion will be {size}."))
            else:
                below_start_offset.append(segment)
        count = len(reasons) + len(below_start_offset)
        if count == len(segments):
            self._roll()  # a log always has a segment: the new active one, at the log end
        for _ in range(count):
            self._segments.pop(0)
            self._bases.pop(0)
        for segment in [s for s, _ in reasons] + below_start_offset:
            self._schedule_delete(segment)
        if count:
            self._log_start_offset = max(self._log_start_offset, self._segments[0].base_offset)
        prefix = f"[UnifiedLog partition={self.name}, dir={self.dir.parent}]"
        if reasons:
            logger.info("%s Incremented log start offset to %d due to segment deletion", prefix,
                        self._log_start_offset)
            for segment, reason in reasons:
                logger.info("%s Deleting segment %r %s", prefix, segment, reason)
        if below_start_offset:
            logger.info("%s Deleting segments due to log start offset %d breach: %s", prefix, self._log_start_offset,
                        ",".join(map(repr, below_start_offset)))
        if count:
            self._producer_state.delete_snapshots_below(self._segments[0].base_offset)
            self._leader_epoch_cache.truncate_from_start(self._log_start_offset)
        return count

    def replace_segments(self, old: list[LogSegment], cleaned_base: int | None) -> bool:
        """Swap in a cleaned segment for `old` (consecutive, non-active segments of this
        log), Kafka's protocol: `<base>.*.cleaned` -> `.swap` (the .log last: once it is a
        .swap the clean is committed), old segments -> `.deleted`, `.swap` -> final names.
        A crash anywhere leaves a state the LogLoader completes (see its _complete_swap).
        `cleaned_base` None: the cleaned result was empty, the old segments just go.
        Returns False (and changes nothing) if the log moved on meanwhile (old segments
        deleted, truncated or rolled over), so a clean built off-loop can be discarded."""
        if self._closed or not old:
            return False
        try:
            start = next(i for i, s in enumerate(self._segments) if s is old[0])
        except StopIteration:
            return False
        end = start + len(old)
        if (self._segments[start:end] != old or end >= len(self._segments)
                or any(s.is_active or s.closed for s in old)):
            return False
        if cleaned_base is not None:
            prefix = self.dir / filename_prefix(cleaned_base)
            if Path(f"{prefix}{TXN_INDEX_SUFFIX}{CLEANED_SUFFIX}").exists():
                os.rename(f"{prefix}{TXN_INDEX_SUFFIX}{CLEANED_SUFFIX}", f"{prefix}{TXN_INDEX_SUFFIX}{SWAP_SUFFIX}")
            for suffix in (INDEX_SUFFIX, TIME_INDEX_SUFFIX, LOG_SUFFIX):
                os.rename(f"{prefix}{suffix}{CLEANED_SUFFIX}", f"{prefix}{suffix}{SWAP_SUFFIX}")
            fsync_dir(self.dir)
        for segment in old:
            self._schedule_delete(segment)
        new_segments: list[LogSegment] = []
        if cleaned_base is not None:
            prefix = self.dir / filename_prefix(cleaned_base)
            if Path(f"{prefix}{TXN_INDEX_SUFFIX}{SWAP_SUFFIX}").exists():
                os.rename(f"{prefix}{TXN_INDEX_SUFFIX}{SWAP_SUFFIX}", f"{prefix}{TXN_INDEX_SUFFIX}")
            for suffix in (INDEX_SUFFIX, TIME_INDEX_SUFFIX, LOG_SUFFIX):
                os.rename(f"{prefix}{suffix}{SWAP_SUFFIX}", f"{prefix}{suffix}")
            segment = open_segment(self.dir, cleaned_base, self._config, self._time, active=False)
            segment.sanity_check()
            new_segments.append(segment)
        fsync_dir(self.dir)
        self._segments[start:end] = new_segments
        self._bases[start:end] = [s.base_offset for s in new_segments]
        return True

    def _schedule_delete(self, segment: LogSegment) -> None:
        """Kafka's asynchronous delete: the files get a .deleted suffix now (so a restart
        ignores them) and are removed after file.delete.delay.ms, giving reads that hold
        FileRegions of the segment time to finish."""
        for path in (segment.path, segment.offset_index.path, segment.time_index.path):
            try:
                os.rename(path, Path(f"{path}{DELETED_SUFFIX}"))
            except FileNotFoundError:
                pass
        segment.txn_index.rename_to(Path(f"{segment.txn_index.path}{DELETED_SUFFIX}"))
        segment.path = Path(f"{segment.path}{DELETED_SUFFIX}")
        segment.offset_index.path = Path(f"{segment.offset_index.path}{DELETED_SUFFIX}")
        segment.time_index.path = Path(f"{segment.time_index.path}{DELETED_SUFFIX}")
        self._pending_deletes.append((self._time.hi_res_clock_ms() + self._config.file_delete_delay_ms, segment))

    def delete_expired_files(self, force: bool = False) -> None:
        """Remove segments whose delete delay has passed (all of them with `force`)."""
        now = self._time.hi_res_clock_ms()
        due = [segment for deadline, segment in self._pending_deletes if force or deadline <= now]
        if not due:
            return
        self._pending_deletes = [(d, s) for d, s in self._pending_deletes if not (force or d <= now)]
        local_logger.info("[LocalLog partition=%s, dir=%s] Deleting segment files %s", self.name, self.dir.parent,
                          ",".join(map(repr, due)))
        for segment in due:
            segment.delete()

    # -- durability -------------------------------------------------------------------------

    def flush(self, up_to: int | None = None) -> None:
        """fsync everything below `up_to` (default: the log end offset) and advance the
        recovery point. Safe to call from a background thread during appends; a log whose
        dir rename_dir moved away is not flushed any more."""
        with self._flush_lock:
            if self._detached:
                return
            with self._guard("flushing"):
                self._flush(up_to)

    def rename_dir(self, new: Path) -> None:
        """Rename the dir of a log leaving service (deleted, or replaced by its future replica in
        another log dir), never while a flush in a worker thread is at it: that flush would find
        the old name gone and take the whole log dir offline. An OSError is the caller's."""
        with self._flush_lock:
            os.rename(self._dir, new)
            self.dir = new
            self._detached = True

    def _flush(self, up_to: int | None = None) -> None:
        target = self._leo if up_to is None else min(up_to, self._leo)
        start = self._recovery_point
        if (target <= start and not self._dir_dirty and not self._parent_dir_dirty
                and not self._leader_epoch_cache.unsynced):
            self._last_flush_ms = self._time.milliseconds()
            return
        started = self._time.hi_res_clock_ms()
        segments = list(self._segments)
        for i, segment in enumerate(segments):
            next_base = segments[i + 1].base_offset if i + 1 < len(segments) else None
            if segment.base_offset < target and (next_base is None or next_base > start):
                segment.flush()
        self._leader_epoch_cache.sync()
        if self._dir_dirty:
            self._dir_dirty = False
            fsync_dir(self.dir)
        if self._parent_dir_dirty:
            self._parent_dir_dirty = False
            fsync_dir(self.dir.parent)
        if self._flush_stats is not None:
            self._flush_stats.flushes.record(self._time.hi_res_clock_ms() - started)
        self._last_flush_ms = self._time.milliseconds()
        if target > self._recovery_point:
            self._recovery_point = min(target, self._leo)

    @property
    def flush_offset_on_roll(self) -> int:
        """Base offset of the newest segment: everything below it should be fsynced soon
        (Kafka flushes a rolled segment in the background)."""
        return self._flush_offset_on_roll

    def verify(self) -> None:
        """CRC-check every segment now; raises KafkaError(CORRUPT_MESSAGE)."""
        try:
            for segment in list(self._segments):
                segment.verify()
        except CorruptRecordError as e:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"Corrupt data in {self.name}: {e}") from None

    @property
    def topic_id(self) -> uuid.UUID | None:
        """The topic id in the dir's partition.metadata file, None before one is known."""
        return self._topic_id

    def describe(self) -> str:
        """Kafka's UnifiedLog.toString, which its load and deletion lines print."""
        topic, _, partition = self.name.rpartition("-")
        topic_id = "null" if self._topic_id is None else kafka_uuid(self._topic_id)
        return (f"Log(dir={self.dir}, topicId={topic_id}, topic={topic}, partition={partition}, "
                f"highWatermark={self._high_watermark}, lastStableOffset={self.last_stable_offset}, "
                f"logStartOffset={self._log_start_offset}, logEndOffset={self._leo})")

    def assign_topic_id(self, topic_id: uuid.UUID) -> None:
        """Record the topic id in partition.metadata the first time it is known (Kafka's
        UnifiedLog.assignTopicId); the caller has refused a different one already."""
        if self._topic_id == topic_id:
            return
        with self._guard("writing the partition metadata of"):
            write_topic_id(self.dir, topic_id)
        self._topic_id = topic_id

    # -- lifecycle ----------------------------------------------------------------------

    def _guard(self, what: str) -> AbstractContextManager[None]:
        return self._failures.guard(
            self._parent, lambda: f"Error while {what} log for {self.name} in dir {self.dir.parent}")

    def _check_open(self) -> None:
        if self._closed:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Log {self.name} is closed")

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Snapshot producer state, trim and sync the active segment's indexes, close all."""
        if self._closed:
            return
        self._closed = True
        try:
            self._producer_state.take_snapshot(self._leo, sync=True)
        except OSError as e:
            logger.warning("%s: could not write the producer snapshot: %s", self.name, e)
        active = self._segments[-1]
        active.make_inactive()
        active.flush()
        for segment in self._segments:
            segment.close()
        self.delete_expired_files(force=True)

    def close_handlers(self) -> None:
        """Close the files without writing anything (the log dir failed, or the log is
        being deleted): what is on disk stays for recovery to read."""
        if not self._closed or self._retired:
            self._closed = True
            self._retired = False
            for segment in self._segments:
                segment.close_handlers()
            for _, segment in self._pending_deletes:
                segment.close_handlers()
            self._pending_deletes.clear()

    def retire(self) -> None:
        """Refuse every further append and read, but keep the files open so that reads
        already handed out (FileRegions in flight) finish: a replaced log (a replica moved
        to another log dir) waits for file.delete.delay.ms before delete() closes them."""
        self._closed = self._retired = True

    def delete(self) -> None:
        """Close the log and remove its directory."""
        self.close_handlers()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __repr__(self) -> str:
        return (f"Log({self.dir}, start={self._log_start_offset}, end={self._leo}, "
                f"segments={len(self._segments)})")


__all__ = [
    "AppendOrigin",
    "FetchDataInfo",
    "FileRegion",
    "Log",
    "LogAppendInfo",
    "UnexpectedAppendOffsetError",
    "SNAPSHOT_SUFFIX",
]
