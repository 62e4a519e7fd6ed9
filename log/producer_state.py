"""Idempotent-producer state of one partition (Kafka's ProducerStateManager).

For every producer id the partition remembers the epoch and the last five batches it
appended (first/last sequence, first/last offset). A leader append is checked against
it: a retried batch that matches a remembered one is a duplicate and is answered with
the original offsets instead of being written again; a gap in the sequence or a stale
epoch is rejected, so a producer's records land exactly once and in order.

Persistence follows Kafka: the state is snapshotted to `<20-digit offset>.snapshot`
(Kafka's ProducerSnapshot v1 layout, CRC-32C protected) when a segment rolls and when
the log closes; on load the latest valid snapshot at or below the log end offset is
read and the batch headers after it are replayed (Log does the replay). A snapshot
keeps only each producer's last batch, as Kafka's does.

Transactions: a producer's first transactional batch opens a transaction at its offset
(an ongoing transaction); the COMMIT or ABORT marker (control batch) completes it and
yields a CompletedTxn. A completed transaction stays "unreplicated" until the high
watermark passes its marker. The first unstable offset is the lowest first offset of an
ongoing or unreplicated transaction; the last stable offset, what read_committed
consumers may read up to, is that bounded by the high watermark (Log keeps it). Markers
are checked as Kafka's ProducerAppendInfo does: an older producer epoch is
INVALID_PRODUCER_EPOCH, an older coordinator epoch TRANSACTION_COORDINATOR_FENCED (both
only logged for replication). Snapshots keep each producer's coordinator epoch and open
transaction, so the ongoing transactions survive a restart.
"""

from __future__ import annotations

import itertools
import logging
import os
import struct
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import crc32c

from josefk.log.checkpoint import write_atomically
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.records import BatchHeader

logger = logging.getLogger(__name__)

SNAPSHOT_SUFFIX = ".snapshot"
NUM_BATCHES_TO_RETAIN = 5
INT_MAX = 0x7FFFFFFF
MAX_EPOCH = 0x7FFF  # Short.MAX_VALUE
_SNAPSHOT_VERSION = 1
_HEAD = struct.Struct(">hI")
_COUNT = struct.Struct(">i")
_ENTRY = struct.Struct(">qhiqiqiq")


@dataclass(slots=True)
class BatchMetadata:
    first_seq: int
    last_seq: int
    first_offset: int
    last_offset: int
    timestamp: int


@dataclass(slots=True)
class ProducerEntry:
    producer_id: int
    epoch: int
    batches: deque[BatchMetadata] = field(default_factory=lambda: deque(maxlen=NUM_BATCHES_TO_RETAIN))
    last_timestamp: int = -1
    coordinator_epoch: int = -1
    current_txn_first_offset: int = -1

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else -1

    @property
    def last_offset(self) -> int:
        return self.batches[-1].last_offset if self.batches else -1

    def find_duplicate(self, header: BatchHeader) -> BatchMetadata | None:
        if header.producer_epoch != self.epoch:
            return None
        last_seq = header.last_sequence
        for batch in self.batches:
            if batch.first_seq == header.base_sequence and batch.last_seq == last_seq:
                return batch
        return None


@dataclass(frozen=True, slots=True)
class CompletedTxn:
    """A transaction ended by a marker at `last_offset` (Kafka's CompletedTxn)."""

    producer_id: int
    first_offset: int
    last_offset: int
    is_aborted: bool


@dataclass(frozen=True, slots=True)
class EndTxnMarker:
    """What a control batch says: commit or abort, and the coordinator epoch that wrote it."""

    commit: bool
    coordinator_epoch: int


class VerificationGuard:
    """One verification of a producer's transaction on a partition (Kafka's
    VerificationGuard): unique, so a stale verification never matches a newer one."""

    __slots__ = ("value",)
    _ids = itertools.count(1)

    def __init__(self, value: int | None = None) -> None:
        self.value = next(self._ids) if value is None else value

    def verifies(self, other: VerificationGuard) -> bool:
        return other is not SENTINEL and other.value == self.value

    def __repr__(self) -> str:
        return f"VerificationGuard(value={self.value})"


SENTINEL = VerificationGuard(0)  # no verification: it verifies nothing


@dataclass(slots=True)
class VerificationStateEntry:
    """A producer's verification in progress (Kafka's VerificationStateEntry). It keeps
    the lowest sequence seen meanwhile: a higher one may not be written before it, or
    a retried lower batch would fail OUT_OF_ORDER_SEQUENCE_NUMBER forever."""

    timestamp: int
    lowest_sequence: int
    epoch: int
    guard: VerificationGuard = field(default_factory=VerificationGuard)

    def maybe_update_lowest_sequence_and_epoch(self, sequence: int, epoch: int) -> None:
        if epoch == self.epoch and sequence < self.lowest_sequence:
            self.lowest_sequence = sequence
        if epoch > self.epoch:
            self.epoch, self.lowest_sequence = epoch, sequence


def in_sequence(last_seq: int, next_seq: int) -> bool:
    """Whether `next_seq` follows `last_seq`, sequences wrapping at Int.MAX_VALUE."""
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT_MAX)


def snapshot_path(directory: Path, offset: int) -> Path:
    return Path(directory) / f"{offset:020d}{SNAPSHOT_SUFFIX}"


class ProducerStateManager:
    """Producer id -> ProducerEntry for one partition, with snapshot files in its dir."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.producers: dict[int, ProducerEntry] = {}
        self.ongoing_txns: dict[int, int] = {}  # producer id -> first offset of its open transaction
        self.unreplicated_txns: list[CompletedTxn] = []  # completed, marker not yet below the HW
        self.verification_states: dict[int, VerificationStateEntry] = {}

    # -- transaction verification -------------------------------------------------------

    def has_ongoing_transaction(self, producer_id: int) -> bool:
        entry = self.producers.get(producer_id)
        return entry is not None and entry.current_txn_first_offset >= 0

    def maybe_create_verification_state_entry(self, producer_id: int, sequence: int, epoch: int,
                                              now_ms: int) -> VerificationStateEntry:
        """The producer's verification entry, created if absent (a retry while verifying
        reuses the guard)."""
        entry = self.verification_states.get(producer_id)
        if entry is None:
            entry = self.verification_states[producer_id] = VerificationStateEntry(now_ms, sequence, epoch)
        entry.maybe_update_lowest_sequence_and_epoch(sequence, epoch)
        return entry

    def verification_guard(self, producer_id: int) -> VerificationGuard:
        entry = self.verification_states.get(producer_id)
        return entry.guard if entry is not None else SENTINEL

    def check_verified(self, headers: list[BatchHeader], guard: VerificationGuard) -> None:
        """Kafka's analyzeAndValidateProducerState check: a transactional data batch may
        only open a transaction here under the guard its verification started with."""
        for h in headers:
            if (h.is_transactional and not h.is_control and not self.has_ongoing_transaction(h.producer_id)
                    and not self.verification_guard(h.producer_id).verifies(guard)):
                raise KafkaError(ErrorCode.INVALID_TXN_STATE, "Record was not part of an ongoing transaction")

    # -- leader-side validation ---------------------------------------------------------

    def check_marker(self, h: BatchHeader, marker: EndTxnMarker, partition: str = "",
                     replication: bool = False, transaction_version: int = 0) -> None:
        """Kafka's checkProducerEpoch and checkCoordinatorEpoch for a transaction marker:
        raises for a leader append, only logs for replication (the leader decided). A
        transactions v2 marker (`transaction_version` 2, WriteTxnMarkers v2, KIP-1228) must
        carry an epoch above the producer's, since its coordinator bumped it, except for a
        retry of a marker whose transaction is already complete (Kafka 4.4's rule)."""
        entry = self.producers.get(h.producer_id)
        if entry is None:
            return
        problem: KafkaError | None = None
        epoch = h.producer_epoch
        if transaction_version >= 2:
            retried = epoch == entry.epoch and (entry.current_txn_first_offset < 0 or epoch == MAX_EPOCH)
            stale = epoch <= entry.epoch and not retried
        else:
            stale = epoch < entry.epoch
        if stale:
            problem = KafkaError(ErrorCode.INVALID_PRODUCER_EPOCH,
                                 f"Epoch of producer {h.producer_id} at offset {h.base_offset} in {partition} is "
                                 f"{epoch}, which is smaller than {'or equal to ' if transaction_version >= 2 else ''}"
                                 f"the last seen epoch {entry.epoch}")
        elif entry.coordinator_epoch > marker.coordinator_epoch:
            problem = KafkaError(ErrorCode.TRANSACTION_COORDINATOR_FENCED,
                                 f"Invalid coordinator epoch for producerId {h.producer_id} at offset "
                                 f"{h.base_offset} in partition {partition}: {marker.coordinator_epoch} (zombie), "
                                 f"{entry.coordinator_epoch} (current)")
        if problem is not None:
            if not replication:
                raise problem
            logger.warning("%s", problem.message)

    def check(self, headers: list[BatchHeader], partition: str = "") -> BatchMetadata | None:
        """Validate the producer fields of a leader append before offsets are assigned.

        Returns the remembered metadata if a batch is a retry of one already in the
        log (the append must then be answered with its offsets and not written);
        raises KafkaError for a stale epoch or out-of-order sequence. Several batches
        of one producer in an append must follow each other.
        """
        pending: dict[int, tuple[int, int]] = {}  # pid -> (epoch, last seq) within this append
        for h in headers:
            pid = h.producer_id
            if pid < 0:
                continue
            entry = self.producers.get(pid)
            if pid not in pending and entry is not None:
                duplicate = entry.find_duplicate(h) if h.base_sequence >= 0 else None
                if duplicate is not None:
                    return duplicate
            verifying = self.verification_states.get(pid)
            if verifying is not None and h.base_sequence > verifying.lowest_sequence:
                raise KafkaError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                                 f"Out of order sequence number for producer {pid} at offset {h.base_offset} in "
                                 f"partition {partition}: {h.base_sequence} (incoming seq. number), "
                                 f"{verifying.lowest_sequence} (earliest seen sequence)")
            if pid in pending:
                epoch, last_seq = pending[pid]
            elif entry is not None:
                epoch, last_seq = entry.epoch, entry.last_seq
            else:
                pending[pid] = (h.producer_epoch, h.last_sequence)
                continue  # a producer we know nothing of: accept any sequence
            if entry is not None and entry.current_txn_first_offset >= 0 and not (h.is_transactional
                                                                               or h.is_control):
                raise KafkaError(ErrorCode.INVALID_TXN_STATE,
                                 f"Expected transactional write from producer {pid} at offset {h.base_offset} "
                                 f"in partition {partition}")
            if h.producer_epoch < epoch:
                raise KafkaError(ErrorCode.INVALID_PRODUCER_EPOCH,
                                 f"Epoch of producer {pid} at offset {h.base_offset} in {partition} is "
                                 f"{h.producer_epoch}, which is smaller than the last seen epoch {epoch}")
            if h.base_sequence >= 0:
                if h.producer_epoch > epoch:
                    if h.base_sequence != 0:
                        raise KafkaError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                                         f"Invalid sequence number for new epoch of producer {pid} in "
                                         f"{partition}: {h.producer_epoch} (request epoch), "
                                         f"{h.base_sequence} (seq. number), {epoch} (current producer epoch)")
                elif last_seq >= 0 and not in_sequence(last_seq, h.base_sequence):
                    raise KafkaError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                                     f"Out of order sequence number for producer {pid} in {partition}: "
                                     f"{h.base_sequence} (incoming seq. number), {last_seq} "
                                     f"(current end sequence number)")
            pending[pid] = (h.producer_epoch, h.last_sequence if h.base_sequence >= 0 else last_seq)
        return None

    # -- updates --------------------------------------------------------------------------

    def update(self, h: BatchHeader, marker: EndTxnMarker | None = None) -> CompletedTxn | None:
        """Record a batch that is now in the log (leader, follower or replay on load).
        A control batch needs its `marker`; it returns the transaction it completed
        (None for a marker without data, which changes nothing readers see). The caller
        indexes an aborted one and then calls complete_txn."""
        pid = h.producer_id
        if pid < 0 or (h.is_control and marker is None):
            return None  # an emptied control batch: the cleaner removed its transaction entirely
        if h.is_transactional:
            # data opened the transaction or a marker ended it: the verification is spent
            self.verification_states.pop(pid, None)
        entry = self.producers.get(pid)
        if entry is None:
            entry = self.producers[pid] = ProducerEntry(pid, h.producer_epoch)
        elif h.producer_epoch > entry.epoch:
            entry.epoch = h.producer_epoch
            entry.batches.clear()
        elif h.producer_epoch < entry.epoch and not h.is_control:
            return None  # an older epoch's batch (replication): it cannot be retried any more
        entry.last_timestamp = h.max_timestamp
        if marker is not None:
            completed = None
            if entry.current_txn_first_offset >= 0:
                completed = CompletedTxn(pid, entry.current_txn_first_offset, h.last_offset, not marker.commit)
            entry.coordinator_epoch = marker.coordinator_epoch
            entry.current_txn_first_offset = -1
            return completed
        if h.base_sequence >= 0:
            entry.batches.append(BatchMetadata(h.base_sequence, h.last_sequence, h.base_offset,
                                               h.last_offset, h.max_timestamp))
        if h.is_transactional and entry.current_txn_first_offset < 0:
            entry.current_txn_first_offset = h.base_offset
            self.ongoing_txns[pid] = h.base_offset
        return None

    def complete_txn(self, txn: CompletedTxn) -> None:
        """The transaction's marker is in the log: it stops being ongoing and stays unstable
        until the high watermark passes the marker."""
        self.ongoing_txns.pop(txn.producer_id, None)
        self.unreplicated_txns.append(txn)

    def last_stable_offset(self, completed: CompletedTxn) -> int:
        """The LSO right after `completed` (Kafka's lastStableOffset(completedTxn)): the first
        offset of the oldest other ongoing transaction, else just past the marker. Stored
        in the aborted-transaction index entry."""
        others = [first for pid, first in self.ongoing_txns.items() if pid != completed.producer_id]
        return min(others) if others else completed.last_offset + 1

    def on_high_watermark_updated(self, high_watermark: int) -> None:
        self.unreplicated_txns = [t for t in self.unreplicated_txns if t.last_offset >= high_watermark]

    def first_unstable_offset(self) -> int | None:
        """The lowest first offset of a transaction not yet decided and replicated."""
        if not self.unreplicated_txns and not self.ongoing_txns:  # every read asks: the usual answer, cheaply
            return None
        firsts = [t.first_offset for t in self.unreplicated_txns]
        firsts.extend(self.ongoing_txns.values())
        return min(firsts) if firsts else None

    def clear(self) -> None:
        self.producers.clear()
        self.ongoing_txns.clear()
        self.unreplicated_txns.clear()

    def remove_expired(self, now_ms: int, expiration_ms: int) -> None:
        """Forget producers idle longer than producer.id.expiration.ms, and verifications
        started as long ago and never followed by an append."""
        for pid in [p for p, e in self.producers.items()
                    if e.current_txn_first_offset < 0 and now_ms - e.last_timestamp >= expiration_ms]:
            del self.producers[pid]
        for pid in [p for p, v in self.verification_states.items() if now_ms - v.timestamp >= expiration_ms]:
            del self.verification_states[pid]

    # -- snapshots --------------------------------------------------------------------------

    def snapshot_offsets(self) -> list[int]:
        """Offsets of the snapshot files present, ascending."""
        offsets = []
        for name in os.listdir(self.directory):
            if name.endswith(SNAPSHOT_SUFFIX):
                try:
                    offsets.append(int(name[: -len(SNAPSHOT_SUFFIX)]))
                except ValueError:
                    continue
        return sorted(offsets)

    def take_snapshot(self, offset: int, sync: bool = False) -> Path:
        """Write the state as of `offset` (tmp file, then rename). Without `sync` it is not
        fsynced: a torn snapshot fails its CRC on load and an older one is used."""
        started = time.monotonic()
        body = bytearray(_COUNT.pack(len(self.producers)))
        for e in self.producers.values():
            if e.batches:
                last = e.batches[-1]
                body += _ENTRY.pack(e.producer_id, e.epoch, last.last_seq, last.last_offset,
                                    last.last_offset - last.first_offset, e.last_timestamp,
                                    e.coordinator_epoch, e.current_txn_first_offset)
            else:
                body += _ENTRY.pack(e.producer_id, e.epoch, -1, -1, 0, e.last_timestamp,
                                    e.coordinator_epoch, e.current_txn_first_offset)
        data = _HEAD.pack(_SNAPSHOT_VERSION, crc32c.crc32c(body)) + body
        path = snapshot_path(self.directory, offset)
        write_atomically(path, data, sync=sync)
        logger.info("[ProducerStateManager partition=%s] Wrote producer snapshot at offset %d with %d producer ids "
                    "in %d ms.", self.directory.name, offset, len(self.producers),
                    (time.monotonic() - started) * 1000)
        return path

    @staticmethod
    def read_snapshot(path: Path) -> dict[int, ProducerEntry]:
        """Parse a snapshot file; ValueError if it is torn or corrupt."""
        data = Path(path).read_bytes()
        if len(data) < _HEAD.size + _COUNT.size:
            raise ValueError(f"snapshot {path} is truncated")
        version, crc = _HEAD.unpack_from(data, 0)
        if version != _SNAPSHOT_VERSION:
            raise ValueError(f"snapshot {path} has unknown version {version}")
        body = data[_HEAD.size:]
        if crc32c.crc32c(body) != crc:
            raise ValueError(f"snapshot {path} fails its CRC check")
        (count,) = _COUNT.unpack_from(body, 0)
        if count < 0 or len(body) != _COUNT.size + count * _ENTRY.size:
            raise ValueError(f"snapshot {path} has a bad entry count")
        producers: dict[int, ProducerEntry] = {}
        for i in range(count):
            pid, epoch, last_seq, last_offset, delta, ts, coord_epoch, txn_first = _ENTRY.unpack_from(
                body, _COUNT.size + i * _ENTRY.size)
            entry = ProducerEntry(pid, epoch, last_timestamp=ts, coordinator_epoch=coord_epoch,
                                  current_txn_first_offset=txn_first)
            if last_offset >= 0 and last_seq >= 0:
                first_seq = last_seq - delta if last_seq >= delta else INT_MAX - (delta - last_seq) + 1
                entry.batches.append(BatchMetadata(first_seq, last_seq, last_offset - delta, last_offset, ts))
            producers[pid] = entry
        return producers

    def load_latest_snapshot(self, max_offset: int) -> int | None:
        """Load the newest readable snapshot at or below `max_offset`; snapshots above it
        and unreadable ones are deleted. Returns the snapshot's offset, None if none."""
        self.clear()
        for offset in reversed(self.snapshot_offsets()):
            path = snapshot_path(self.directory, offset)
            if offset > max_offset:
                path.unlink(missing_ok=True)
                continue
            try:
                self.producers = self.read_snapshot(path)
                self.ongoing_txns = {pid: e.current_txn_first_offset for pid, e in self.producers.items()
                                     if e.current_txn_first_offset >= 0}
                return offset
            except (OSError, ValueError):
                path.unlink(missing_ok=True)
        return None

    def delete_snapshots_above(self, offset: int) -> None:
        for o in self.snapshot_offsets():
            if o > offset:
                snapshot_path(self.directory, o).unlink(missing_ok=True)

    def delete_snapshots_below(self, offset: int) -> None:
        for o in self.snapshot_offsets():
            if o < offset:
                snapshot_path(self.directory, o).unlink(missing_ok=True)
