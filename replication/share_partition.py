"""One share partition: a share group's delivery state of one topic partition (Kafka's
SharePartition, core server/share).

The partition's records from the share-partition start offset (SPSO) on are in flight:
each is available, acquired by one member under an acquisition lock, acknowledged, or
archived. A fetch acquires available records (new ones past the end offset, SPEO, or
released ones below it) and counts a delivery; the lock's expiry or a release gives the
record back, archived instead once its delivery count reached group.share.delivery.count.limit;
accept acknowledges, reject archives, renew restarts the lock. The start offset moves past
every acknowledged or archived record at its head, so only the window between the two
offsets is kept, and at most group.share.partition.max.record.locks records are acquired
past the start offset at once.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import ScheduledTask, Scheduler

log = logging.getLogger(__name__)


class RecordState(enum.IntEnum):
    """Kafka's RecordState ids, as __share_group_state stores them."""

    AVAILABLE = 0
    ACQUIRED = 1
    ACKNOWLEDGED = 2
    ARCHIVED = 4


FINISHED = (RecordState.ACKNOWLEDGED, RecordState.ARCHIVED)  # delivered for good


class AcknowledgeType(enum.IntEnum):
    GAP = 0
    ACCEPT = 1
    RELEASE = 2
    REJECT = 3
    RENEW = 4


@dataclass(frozen=True)
class SharePartitionSettings:
    record_lock_duration_ms: int = 30_000
    delivery_count_limit: int = 5
    max_record_locks: int = 2000


@dataclass(frozen=True)
class BatchInfo:
    """What acquisition needs of a fetched batch's header."""

    base_offset: int
    last_offset: int
    is_control: bool = False
    is_transactional: bool = False
    producer_id: int = -1


@dataclass(frozen=True)
class AbortedRange:
    """An aborted transaction (read_committed): its producer's batches in the range are dropped."""

    producer_id: int
    first_offset: int
    last_offset: int


@dataclass(frozen=True)
class AcquiredRange:
    first_offset: int
    last_offset: int
    delivery_count: int


@dataclass(frozen=True)
class AckBatch:
    first_offset: int
    last_offset: int
    types: tuple[int, ...]  # one for the whole range, or one per offset


@dataclass(frozen=True)
class StateBatch:
    """A run of in-flight records with one state and delivery count, as __share_group_state keeps them."""

    first_offset: int
    last_offset: int
    state: RecordState
    delivery_count: int


@dataclass(frozen=True)
class PersistedState:
    """A share partition's durable state (Kafka's ReadShareGroupState answer): acquired
    records are kept as available, with the deliveries they have had."""

    start_offset: int
    batches: tuple[StateBatch, ...] = ()
    state_epoch: int = 0


@dataclass
class InFlight:
    state: RecordState
    delivery_count: int = 0
    member_id: str | None = None
    lock: int = 0  # the acquisition (or renewal) whose timer guards it


@dataclass
class _Lock:
    task: ScheduledTask
    offsets: list[int] = field(default_factory=list)


class SharePartition:
    def __init__(self, group_id: str, topic: str, partition: int, settings: SharePartitionSettings,
                 scheduler: Scheduler, on_available: Callable[[], None] = lambda: None,
                 on_change: Callable[[SharePartition], None] = lambda _sp: None) -> None:
        self.group_id = group_id
        self.topic = topic
        self.partition = partition
        self.settings = settings
        self.scheduler = scheduler
        self.on_available = on_available  # records can be acquired again: wake waiting fetches
        self.on_change = on_change  # a delivery state to persist (an acknowledgement, a release, an expiry)
        self.start_offset = -1  # -1 until initialized
        self.loading = False  # its state is being read from the share coordinator
        self.end_offset = -1
        self.state_epoch = 0
        self.records: dict[int, InFlight] = {}
        self._locks: dict[int, _Lock] = {}
        self._next_lock = 1

    def __repr__(self) -> str:
        return (f"SharePartition({self.group_id}, {self.topic}-{self.partition}, start={self.start_offset}, "
                f"end={self.end_offset}, in_flight={len(self.records)})")

    @property
    def initialized(self) -> bool:
        return self.start_offset >= 0

    def initialize(self, start_offset: int) -> None:
        """Start at `start_offset` (share.auto.offset.reset)."""
        self.start_offset = start_offset
        self.records = {}
        self.end_offset = start_offset

    def restore(self, state: PersistedState) -> None:
        """Start from the state read back from __share_group_state."""
        self.initialize(state.start_offset)
        self.state_epoch = state.state_epoch
        for batch in state.batches:
            for offset in range(max(batch.first_offset, state.start_offset), batch.last_offset + 1):
                self.records[offset] = InFlight(RecordState(batch.state) if batch.state != RecordState.ACQUIRED
                                                else RecordState.AVAILABLE, batch.delivery_count)
        self.end_offset = max([self.start_offset, *(o + 1 for o in self.records)])
        self._advance_start()

    def persisted(self) -> PersistedState:
        """The state to write: runs of one state and count (acquired ones as available)."""
        batches: list[StateBatch] = []
        for offset in sorted(self.records):
            record = self.records[offset]
            state = RecordState.AVAILABLE if record.state == RecordState.ACQUIRED else record.state
            last = batches[-1] if batches else None
            if (last is not None and last.last_offset == offset - 1 and last.state == state
                    and last.delivery_count == record.delivery_count):
                batches[-1] = StateBatch(last.first_offset, offset, state, record.delivery_count)
            else:
                batches.append(StateBatch(offset, offset, state, record.delivery_count))
        return PersistedState(self.start_offset, tuple(batches), self.state_epoch)

    def close(self) -> None:
        """Stop its acquisition locks' timers: the partition is read again from the coordinator."""
        for lock in self._locks.values():
            lock.task.cancel()
        self._locks.clear()

    def move_to_log_start(self, log_start_offset: int) -> None:
        """Records deleted from the log (retention, DeleteRecords) are gone from the window too."""
        if self.initialized and log_start_offset > self.start_offset:
            for offset in [o for o in self.records if o < log_start_offset]:
                del self.records[offset]
            self.start_offset = log_start_offset
            self.end_offset = max(self.end_offset, log_start_offset)
            self._advance_start()

    def next_fetch_offset(self) -> int:
        """Where a fetch reads from: the first available record in flight, else the end offset."""
        available = [o for o, r in self.records.items() if r.state == RecordState.AVAILABLE]
        return min(available) if available else self.end_offset

    def acquirable(self) -> bool:
        """Whether anything could be acquired now without reading past the end offset."""
        return any(r.state == RecordState.AVAILABLE for r in self.records.values())

    # -- acquisition ----------------------------------------------------------------------

    def acquire(self, member_id: str, batches: Sequence[BatchInfo], max_records: int,
                aborted: Sequence[AbortedRange] = ()) -> list[AcquiredRange]:
        """Acquire for `member_id` the available records of `batches` (read from
        next_fetch_offset, in offset order), whole batches while fewer than `max_records` are
        taken (Kafka's batch-optimized acquisition). Control records and, read_committed,
        aborted transactions' records are archived, never delivered."""
        acquired: list[int] = []
        for batch in batches:
            if acquired and len(acquired) >= max_records:
                break
            dropped = batch.is_control or any(
                batch.is_transactional and a.producer_id == batch.producer_id
                and a.first_offset <= batch.base_offset <= a.last_offset for a in aborted)
            for offset in range(max(batch.base_offset, self.start_offset), batch.last_offset + 1):
                if offset >= self.end_offset:
                    if offset >= self.start_offset + self.settings.max_record_locks and self.records:
                        break
                    for gap in range(self.end_offset, offset):  # offsets the log no longer has
                        self.records[gap] = InFlight(RecordState.ARCHIVED)
                    self.records[offset] = InFlight(RecordState.AVAILABLE)
                    self.end_offset = offset + 1
                record = self.records.get(offset)
                if record is None or record.state != RecordState.AVAILABLE:
                    continue
                if dropped:
                    record.state = RecordState.ARCHIVED
                    continue
                record.state = RecordState.ACQUIRED
                record.member_id = member_id
                record.delivery_count += 1
                acquired.append(offset)
        self._advance_start()
        if not acquired:
            return []
        self._lock(member_id, acquired)
        return _ranges(acquired, self.records)

    def _lock(self, member_id: str, offsets: list[int]) -> None:
        lock_id = self._next_lock
        self._next_lock += 1
        for offset in offsets:
            self.records[offset].lock = lock_id
        task = self.scheduler.schedule(self.settings.record_lock_duration_ms, self._expire, lock_id, member_id)
        self._locks[lock_id] = _Lock(task, offsets)

    def _expire(self, lock_id: int, member_id: str) -> None:
        lock = self._locks.pop(lock_id, None)
        if lock is None:
            return
        released = [o for o in lock.offsets if (r := self.records.get(o)) is not None and r.lock == lock_id
                    and r.state == RecordState.ACQUIRED and r.member_id == member_id]
        if released:
            log.info("Acquisition lock of %d records of share partition %s-%s-%d held by member %s expired",
                     len(released), self.group_id, self.topic, self.partition, member_id)
            self._release(released)

    def _release(self, offsets: list[int]) -> None:
        for offset in offsets:
            record = self.records[offset]
            record.member_id = None
            record.lock = 0
            record.state = (RecordState.ARCHIVED if record.delivery_count >= self.settings.delivery_count_limit
                            else RecordState.AVAILABLE)
        self._advance_start()
        self._drop_idle_locks()
        self.on_change(self)
        self.on_available()

    def release_member(self, member_id: str) -> int:
        """Give back everything `member_id` holds (its share session closed, or it left)."""
        held = [o for o, r in self.records.items() if r.state == RecordState.ACQUIRED and r.member_id == member_id]
        if held:
            self._release(held)
        return len(held)

    def _drop_idle_locks(self) -> None:
        live = {r.lock for r in self.records.values() if r.state == RecordState.ACQUIRED}
        for lock_id in [i for i in self._locks if i not in live]:
            self._locks.pop(lock_id).task.cancel()

    # -- acknowledgement ------------------------------------------------------------------

    def acknowledge(self, member_id: str, batches: Sequence[AckBatch]) -> tuple[ErrorCode, str | None]:
        """Apply a member's acknowledgements, all or none: each offset must be a record it
        holds (a gap may also be one already archived)."""
        plan: list[tuple[int, AcknowledgeType]] = []
        for batch in batches:
            count = batch.last_offset - batch.first_offset + 1
            if count <= 0 or len(batch.types) not in (1, count):
                return ErrorCode.INVALID_REQUEST, "Invalid acknowledgement batch."
            try:
                types = [AcknowledgeType(t) for t in batch.types]
            except ValueError:
                return ErrorCode.INVALID_REQUEST, "Invalid acknowledge type."
            for i, offset in enumerate(range(batch.first_offset, batch.last_offset + 1)):
                kind = types[0] if len(types) == 1 else types[i]
                record = self.records.get(offset)
                held = (record is not None and record.state == RecordState.ACQUIRED
                        and record.member_id == member_id)
                if not held and not (kind == AcknowledgeType.GAP and (
                        offset < self.start_offset or (record is not None and record.state == RecordState.ARCHIVED))):
                    return ErrorCode.INVALID_RECORD_STATE, (
                        "The record state is invalid. The acknowledgement of delivery could not be completed.")
                if held:
                    plan.append((offset, kind))
        released: list[int] = []
        renewed: list[int] = []
        for offset, kind in plan:
            record = self.records[offset]
            if kind == AcknowledgeType.ACCEPT:
                record.state, record.member_id = RecordState.ACKNOWLEDGED, None
            elif kind in (AcknowledgeType.REJECT, AcknowledgeType.GAP):
                record.state, record.member_id = RecordState.ARCHIVED, None
            elif kind == AcknowledgeType.RELEASE:
                released.append(offset)
            else:
                renewed.append(offset)
        if renewed:
            self._lock(member_id, renewed)
        if released:
            self._release(released)
        elif plan:
            self._advance_start()
            self._drop_idle_locks()
            self.on_change(self)
        return ErrorCode.NONE, None

    def _advance_start(self) -> None:
        while self.start_offset < self.end_offset:
            record = self.records.get(self.start_offset)
            if record is None or record.state not in (RecordState.ACKNOWLEDGED, RecordState.ARCHIVED):
                break
            del self.records[self.start_offset]
            self.start_offset += 1

    def summary(self) -> dict[RecordState, int]:
        counts: dict[RecordState, int] = {}
        for record in self.records.values():
            counts[record.state] = counts.get(record.state, 0) + 1
        return counts


def _ranges(offsets: list[int], records: dict[int, InFlight]) -> list[AcquiredRange]:
    """Contiguous runs of acquired offsets with one delivery count each."""
    out: list[AcquiredRange] = []
    for offset in sorted(offsets):
        count = records[offset].delivery_count
        if out and out[-1].last_offset == offset - 1 and out[-1].delivery_count == count:
            out[-1] = AcquiredRange(out[-1].first_offset, offset, count)
        else:
            out.append(AcquiredRange(offset, offset, count))
    return out
