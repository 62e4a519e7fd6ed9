"""Loading a partition's log from its directory (Kafka's LogLoader), kept out of the log.

Loading opens the segments, completes a cleaner swap a crash interrupted, drops files a
crash left half-made, and, if the last shutdown was not clean, recovers every segment
from the one holding the recovery point (CRC checks; a torn tail is cut and every later
segment deleted). It then rebuilds the producer state from the latest snapshot plus the
batches after it. The result is what the Log starts from: its segments and offsets.
"""

from __future__ import annotations

import bisect
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from josefk.log.checkpoint import fsync_dir
from josefk.log.config import LogConfig
from josefk.log.index import CorruptIndexError
from josefk.log.producer_state import CompletedTxn, EndTxnMarker, ProducerStateManager
from josefk.log.segment import (
    DELETED_SUFFIX,
    INDEX_SUFFIX,
    LOG_SUFFIX,
    TIME_INDEX_SUFFIX,
    LogSegment,
    filename_prefix,
)
from josefk.log.transaction_index import TXN_INDEX_SUFFIX, AbortedTxn
from josefk.protocol.control_records import ControlRecordType, read_end_txn_marker
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Buffer
from josefk.protocol.records import BatchHeader, CorruptRecordError
from josefk.utils.time import Time

logger = logging.getLogger(__name__)

CLEANED_SUFFIX = ".cleaned"
SWAP_SUFFIX = ".swap"


@dataclass
class LoadedLog:
    """What a Log starts from (Kafka's LoadedLogOffsets, with the segments)."""

    segments: list[LogSegment]  # by base offset; the last one active
    log_start_offset: int
    recovery_point: int
    log_end_offset: int
    created_segment: bool  # the directory gained a file: it needs an fsync


def open_segment(dir: Path, base: int, config: LogConfig, time: Time, *, active: bool) -> LogSegment:
    return LogSegment(dir, base, index_interval_bytes=config.index_interval_bytes,
                      max_index_size=config.segment_index_bytes, active=active, time=time)


def create_segment(dir: Path, base: int, config: LogConfig, time: Time) -> LogSegment:
    """A new, empty active segment at `base`, replacing empty files a crash left there."""
    prefix = dir / filename_prefix(base)
    for suffix in (LOG_SUFFIX, INDEX_SUFFIX, TIME_INDEX_SUFFIX):
        stale = Path(f"{prefix}{suffix}")
        if stale.exists():
            if suffix == LOG_SUFFIX and stale.stat().st_size > 0:
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                                 f"Trying to roll a new log segment with start offset {base} "
                                 f"while it already exists: {stale}")
            stale.unlink()
    return open_segment(dir, base, config, time, active=True)


def read_marker(batch: Buffer, position: int = 0) -> EndTxnMarker | None:
    """The end-transaction marker a control batch holds; None for another control record
    (Kafka skips those when it tracks transactions)."""
    try:
        kind, coordinator_epoch = read_end_txn_marker(batch, position)
    except CorruptRecordError:
        return None
    return EndTxnMarker(kind == ControlRecordType.COMMIT, coordinator_epoch)


def apply_batch(producer_state: ProducerStateManager, segment: LogSegment, header: BatchHeader,
                marker: EndTxnMarker | None, index_aborted: bool = True) -> CompletedTxn | None:
    """Update the producer state with a batch in `segment`; a marker completing an aborted
    transaction adds its entry to the segment's .txnindex (unless `index_aborted` is off:
    the entry is already there). Returns the completed transaction."""
    completed = producer_state.update(header, marker)
    if completed is not None:
        if completed.is_aborted and index_aborted:
            segment.txn_index.append(AbortedTxn(completed.producer_id, completed.first_offset,
                                                completed.last_offset, producer_state.last_stable_offset(completed)))
        producer_state.complete_txn(completed)
    return completed


def rebuild_producer_state(producer_state: ProducerStateManager, segments: list[LogSegment],
                           log_start_offset: int, log_end_offset: int, reindex_from: int | None = None) -> None:
    """Latest snapshot at or below the log end offset (and `reindex_from`), then replay
    the batches after it; aborted transactions whose marker is at or after `reindex_from`
    go to their segment's .txnindex (those segments' indexes were reset)."""
    max_snapshot = log_end_offset if reindex_from is None else min(log_end_offset, reindex_from)
    snapshot = producer_state.load_latest_snapshot(max_snapshot)
    start = snapshot if snapshot is not None else log_start_offset
    if start >= log_end_offset:
        return
    bases = [s.base_offset for s in segments]
    for segment in segments[max(bisect.bisect_right(bases, start) - 1, 0):]:
        _, pos = segment.offset_index.lookup(start)
        try:
            for header in segment.iter_headers(pos):
                if header.last_offset >= start and header.producer_id >= 0:
                    marker = read_marker(segment.read_batch(header)) if header.is_control else None
                    index = reindex_from is not None and header.last_offset >= reindex_from
                    apply_batch(producer_state, segment, header, marker, index)
        except CorruptRecordError as e:
            logger.error("%s: cannot rebuild producer state past corruption: %s", segment.path.parent.name, e)
            return


class LogLoader:
    def __init__(self, dir: Path, config: LogConfig, producer_state: ProducerStateManager, time: Time) -> None:
        self.dir = dir
        self.config = config
        self.producer_state = producer_state
        self.time = time
        self._reindex_from: int | None = None  # base of the first segment whose .txnindex was reset

    def _recovered(self, segment: LogSegment) -> None:
        if self._reindex_from is None or segment.base_offset < self._reindex_from:
            self._reindex_from = segment.base_offset

    def load(self, recovery_point: int, log_start_offset: int, clean_shutdown: bool) -> LoadedLog:
        segments = [self._open_checked(base) for base in self._segment_files()]
        if not clean_shutdown and segments:
            self._recover_from(segments, recovery_point)
        created = not segments
        if created:
            segments.append(create_segment(self.dir, log_start_offset, self.config, self.time))
        else:
            segments[-1].make_active()
        try:
            leo = segments[-1].read_next_offset()
        except CorruptRecordError as e:
            logger.warning("%s: %s; recovering the active segment", self.dir.name, e)
            segments[-1].recover()
            self._recovered(segments[-1])
            leo = segments[-1].read_next_offset()
        start = min(max(log_start_offset, segments[0].base_offset), leo)
        self.producer_state.delete_snapshots_below(segments[0].base_offset)
        rebuild_producer_state(self.producer_state, segments, start, leo, self._reindex_from)
        return LoadedLog(segments, start, leo if clean_shutdown else min(recovery_point, leo), leo, created)

    def _segment_files(self) -> list[int]:
        """Base offsets of the .log files, after finishing swaps and dropping leftovers."""
        names = os.listdir(self.dir)
        log_bases: list[int] = []
        swaps: list[int] = []
        for name in names:
            path = self.dir / name
            if name.endswith(LOG_SUFFIX + SWAP_SUFFIX) and name[:20].isdigit():
                swaps.append(int(name[:20]))
                continue
            if name.endswith((DELETED_SUFFIX, CLEANED_SUFFIX, SWAP_SUFFIX, ".tmp")):
                path.unlink(missing_ok=True)
                continue
            stem, _, suffix = name.partition(".")
            if not stem.isdigit() or len(stem) != 20:
                continue
            if "." + suffix == LOG_SUFFIX:
                log_bases.append(int(stem))
            elif ("." + suffix in (INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX)
                  and f"{stem}{LOG_SUFFIX}" not in names):
                path.unlink(missing_ok=True)  # an index without its log
        for base in sorted(swaps):
            self._complete_swap(base, log_bases)
        return sorted(log_bases)

    def _open_checked(self, base: int) -> LogSegment:
        segment = open_segment(self.dir, base, self.config, self.time, active=False)
        try:
            segment.sanity_check()
        except CorruptIndexError as e:
            logger.warning("%s: %s; rebuilding the indexes", self.dir.name, e)
            segment.recover()
            self._recovered(segment)
        return segment

    def _complete_swap(self, base: int, log_bases: list[int]) -> None:
        """Finish a cleaner swap interrupted by a crash (Kafka's LogLoader rule): a
        `.log.swap` file is a complete cleaned segment, so the segments whose base offsets
        fall inside its offset range are the ones it replaces; they go, and it takes their
        place. Its indexes are rebuilt (they may not have been renamed yet)."""
        prefix = self.dir / filename_prefix(base)
        swap = Path(f"{prefix}{LOG_SUFFIX}{SWAP_SUFFIX}")
        for suffix in (INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX):
            Path(f"{prefix}{suffix}{SWAP_SUFFIX}").unlink(missing_ok=True)
        probe = LogSegment(self.dir, base, file_suffix=SWAP_SUFFIX, time=self.time)
        try:
            probe.recover()
            next_offset = probe.read_next_offset()
        finally:
            probe.close_handlers()
        for suffix in (INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX):
            Path(f"{prefix}{suffix}{SWAP_SUFFIX}").unlink(missing_ok=True)
            Path(f"{prefix}{suffix}").unlink(missing_ok=True)  # the replaced segment's, if still there
        if self._reindex_from is None or base < self._reindex_from:
            self._reindex_from = base  # its .txnindex is rebuilt with the producer state
        if probe.size == 0:
            swap.unlink(missing_ok=True)
        replaced = [b for b in log_bases if base <= b < max(next_offset, base + 1)]
        for old in replaced:
            old_prefix = self.dir / filename_prefix(old)
            for suffix in (LOG_SUFFIX, INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX):
                Path(f"{old_prefix}{suffix}").unlink(missing_ok=True)
            log_bases.remove(old)
        if swap.exists():
            os.rename(swap, Path(f"{prefix}{LOG_SUFFIX}"))
            log_bases.append(base)
        fsync_dir(self.dir)
        logger.info("%s: completed an interrupted cleaner swap at offset %d (replaced %s)", self.dir.name, base,
                    replaced)

    def _recover_from(self, segments: list[LogSegment], recovery_point: int) -> None:
        """Recover every segment from the one holding the recovery point on; a segment
        that had to be truncated makes every later segment suspect, so they go. The lines
        are Kafka's LogLoader.recoverLog and LogSegment.recover's."""
        bases = [s.base_offset for s in segments]
        first = max(bisect.bisect_right(bases, recovery_point) - 1, 0)
        prefix = f"[LogLoader partition={self.dir.name}, dir={self.dir.parent}]"
        for i in range(first, len(segments)):
            segment = segments[i]
            logger.info("%s Recovering unflushed segment %d. %d/%d recovered for %s.", prefix, segment.base_offset,
                        i - first, len(segments) - first, self.dir.name)
            truncated = segment.recover()
            self._recovered(segment)
            if truncated:
                logger.warning("%s Found invalid messages in log segment %s at byte offset %d; truncated %d bytes.",
                               prefix, segment.path.absolute(), segment.size, truncated)
                logger.warning("%s Corruption found in segment %d, truncating to offset %d", prefix,
                               segment.base_offset, segment.read_next_offset())
                if segments[i + 1:]:
                    logger.info("%s Deleting segment files %s", prefix, ",".join(map(repr, segments[i + 1:])))
                for later in segments[i + 1:]:
                    later.delete()
                del segments[i + 1:]
                break
