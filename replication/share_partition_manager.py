"""SharePartitionManager: the leader's share partitions and share sessions (Kafka's
SharePartitionManager, which sits beside ReplicaManager).

A ShareFetch reads each partition of its session from the log where the share partition
says (its first available record), lets the share partition acquire what it read for the
member, and answers the batches holding acquired records with the acquired ranges and
their delivery counts; the consumer keeps only those. A share partition starts, the first
time a group reads it, at share.auto.offset.reset: the high watermark (latest, the default)
or the log start offset (earliest).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.records import iter_headers
from josefk.replication.partition import FetchIsolation, Partition
from josefk.replication.purgatory import DelayedOperation
from josefk.replication.replica_manager import FetchPartition, ReplicaManager
from josefk.replication.share_partition import (
    FINISHED,
    AbortedRange,
    AckBatch,
    AcquiredRange,
    BatchInfo,
    PersistedState,
    SharePartition,
    SharePartitionSettings,
)
from josefk.replication.share_session import ShareSessionCache

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
ShareKey = tuple[str, str, int]  # (group id, topic, partition)


class SharePersister(Protocol):
    """Where share partitions keep their state (Kafka's Persister: the share coordinator's
    __share_group_state)."""

    def read(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PersistedState | None: ...

    def write(self, group_id: str, topic_id: uuid.UUID, partition: int, state: PersistedState) -> None: ...


class InMemory:
    """No persistence: state lives as long as the broker."""

    def read(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PersistedState | None:
        return None

    def write(self, group_id: str, topic_id: uuid.UUID, partition: int, state: PersistedState) -> None:
        return None


@dataclass(frozen=True)
class ShareGroupSettings:
    """A share group's delivery configs (Kafka's group configs share.* and the broker's group.share.*)."""

    auto_offset_reset: str = "latest"  # share.auto.offset.reset
    reset_duration_ms: int | None = None  # share.auto.offset.reset=by_duration:<duration>, in ms
    isolation_level: str = "read_uncommitted"  # share.isolation.level
    partition: SharePartitionSettings = field(default_factory=SharePartitionSettings)


@dataclass
class PartitionFetch:
    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    records: bytes = b""
    acquired: list[AcquiredRange] = field(default_factory=list)


class SharePartitionManager:
    def __init__(self, replica_manager: ReplicaManager,
                 settings_for: Callable[[str], ShareGroupSettings] = lambda _group: ShareGroupSettings(),
                 sessions: ShareSessionCache | None = None, persister: SharePersister | None = None) -> None:
        self.replica_manager = replica_manager
        self.settings_for = settings_for
        self.sessions = sessions or ShareSessionCache()
        self.persister: SharePersister = persister or InMemory()
        self.partitions: dict[ShareKey, SharePartition] = {}

    def share_partition(self, group_id: str, topic: str, partition: int) -> SharePartition:
        """The group's share partition, initialized from the log on first use; raises
        KafkaError if this broker does not lead the partition."""
        key = (group_id, topic, partition)
        leader = self.replica_manager.leader_partition(topic, partition)
        sp = self.partitions.get(key)
        if sp is None:
            settings = self.settings_for(group_id)
            topic_id = self.replica_manager.metadata_cache.topic_ids.get(topic)
            sp = SharePartition(group_id, topic, partition, settings.partition, self.replica_manager.scheduler,
                                lambda: self.replica_manager.fetch_purgatory.check((topic, partition)),
                                lambda changed: self._persist(changed, topic_id))
            stored = self.persister.read(group_id, topic_id, partition) if topic_id is not None else None
            if stored is not None:
                sp.restore(stored)
                log.info("Read share partition %s-%s-%d back at start offset %d", group_id, topic, partition,
                         sp.start_offset)
            self.partitions[key] = sp
        if not sp.initialized:
            start = self._reset_offset(leader, self.settings_for(group_id))
            sp.initialize(start)
            log.info("Initialized share partition %s-%s-%d at offset %d", group_id, topic, partition, start)
            self._persist(sp, self.replica_manager.metadata_cache.topic_ids.get(topic))
        sp.move_to_log_start(leader.log.log_start_offset)
        return sp

    def _reset_offset(self, leader: Partition, settings: ShareGroupSettings) -> int:
        """Where a new share partition starts (Kafka's SharePartition.startOffsetDuringInitialization):
        the log start (earliest), the first record at or after now minus the duration
        (by_duration; none: the latest), else the high watermark (latest)."""
        if settings.auto_offset_reset == "earliest":
            return leader.log.log_start_offset
        if settings.reset_duration_ms is not None:
            found = leader.fetch_offset_for_timestamp(
                self.replica_manager.time.milliseconds() - settings.reset_duration_ms, FetchIsolation.HIGH_WATERMARK)
            if found is not None:
                return found.offset
        return leader.high_watermark

    def _persist(self, sp: SharePartition, topic_id: uuid.UUID | None) -> None:
        if topic_id is not None:
            self.persister.write(sp.group_id, topic_id, sp.partition, sp.persisted())

    def fetch(self, group_id: str, member_id: str, partitions: Iterable[TopicPartition], max_records: int,
              max_bytes: int) -> dict[TopicPartition, PartitionFetch]:
        """Acquire records for the member from each partition, `max_records` in all (whole
        batches, as Kafka), `max_bytes` read at most."""
        settings = self.settings_for(group_id)
        isolation = (FetchIsolation.TXN_COMMITTED if settings.isolation_level == "read_committed"
                     else FetchIsolation.HIGH_WATERMARK)
        out: dict[TopicPartition, PartitionFetch] = {}
        budget_records, budget_bytes = max(max_records, 1), max(max_bytes, 1)
        for topic, partition in partitions:
            if budget_records <= 0 or budget_bytes <= 0:
                out[(topic, partition)] = PartitionFetch()
                continue
            try:
                sp = self.share_partition(group_id, topic, partition)
                sp.settings = settings.partition  # the group's configs as they are now (Kafka reads them per acquire)
                got = self._fetch_one(sp, member_id, budget_records, budget_bytes, isolation)
            except KafkaError as e:
                out[(topic, partition)] = PartitionFetch(e.code, e.message)
                continue
            out[(topic, partition)] = got
            budget_records -= sum(r.last_offset - r.first_offset + 1 for r in got.acquired)
            budget_bytes -= len(got.records)
        return out

    def _fetch_one(self, sp: SharePartition, member_id: str, max_records: int, max_bytes: int,
                   isolation: FetchIsolation) -> PartitionFetch:
        offset = sp.next_fetch_offset()
        [read] = self.replica_manager.read_from_local_log(
            [FetchPartition(sp.topic, sp.partition, offset, max_bytes)], max_bytes, isolation)
        if read.error != ErrorCode.NONE or read.read is None:
            return PartitionFetch(read.error)
        data = b"".join(region.read_bytes() for region in read.read.regions)
        headers = list(iter_headers(data))
        batches = [BatchInfo(h.base_offset, h.last_offset, h.is_control, h.is_transactional, h.producer_id)
                   for h in headers]
        aborted = [AbortedRange(t.producer_id, t.first_offset, t.last_offset)
                   for t in read.read.aborted_transactions or []]
        acquired = sp.acquire(member_id, batches, max_records, aborted)
        if not acquired:
            return PartitionFetch()
        offsets = [(r.first_offset, r.last_offset) for r in acquired]
        kept = b"".join(data[h.position:h.position + h.size] for h in headers
                        if any(first <= h.last_offset and h.base_offset <= last for first, last in offsets))
        return PartitionFetch(records=kept, acquired=acquired)

    def acknowledge(self, group_id: str, member_id: str, acks: dict[TopicPartition, list[AckBatch]]
                    ) -> dict[TopicPartition, tuple[ErrorCode, str | None]]:
        out: dict[TopicPartition, tuple[ErrorCode, str | None]] = {}
        for (topic, partition), batches in acks.items():
            try:
                sp = self.share_partition(group_id, topic, partition)
            except KafkaError as e:
                out[(topic, partition)] = (e.code, e.message)
                continue
            out[(topic, partition)] = sp.acknowledge(member_id, batches)
        return out

    def release(self, group_id: str, member_id: str, partitions: Iterable[TopicPartition] | None = None) -> None:
        """Give back what the member holds in the group's share partitions (all, or `partitions`)."""
        wanted = None if partitions is None else set(partitions)
        for (group, topic, partition), sp in self.partitions.items():
            if group == group_id and (wanted is None or (topic, partition) in wanted):
                sp.release_member(member_id)

    def member_left(self, group_id: str, member_id: str) -> None:
        """The member left the group or was fenced: its session ends and its records come back."""
        self.sessions.remove(group_id, member_id)
        self.release(group_id, member_id)

    def acquirable(self, group_id: str, partitions: Iterable[TopicPartition]) -> bool:
        """Whether a fetch could now acquire something: released records, or the log past the end offset."""
        for topic, partition in partitions:
            sp = self.partitions.get((group_id, topic, partition))
            local = self.replica_manager.partitions.get((topic, partition))
            if sp is None or local is None or not local.is_leader:
                return True  # an error or a first read: answer now
            if sp.acquirable():
                return True
            isolation_level = self.settings_for(group_id).isolation_level
            upper = local.last_stable_offset if isolation_level == "read_committed" else local.high_watermark
            if upper > sp.end_offset:
                return True
        return False


@dataclass(frozen=True)
class ShareOffsetSummary:
    """What DescribeShareGroupOffsets tells of one share partition (Kafka's
    ReadShareGroupStateSummary answer, and KIP-1226's lag)."""

    start_offset: int
    lag: int = -1  # records past the start offset not yet delivered for good; -1 unknown


class ShareSummaries:
    """The start offsets and lags of a group's share partitions on this broker."""

    def __init__(self, manager: SharePartitionManager) -> None:
        self.manager = manager

    def topics_of(self, group_id: str) -> set[str]:
        return {topic for (group, topic, _p) in self.manager.partitions if group == group_id}

    def summary(self, group_id: str, topic: str, topic_id: uuid.UUID, partition: int) -> ShareOffsetSummary | None:
        sp = self.manager.partitions.get((group_id, topic, partition))
        if sp is not None and sp.initialized:
            start, done = sp.start_offset, sum(1 for r in sp.records.values() if r.state in FINISHED)
        else:
            stored = self.manager.persister.read(group_id, topic_id, partition)
            if stored is None:
                return None
            start = stored.start_offset
            done = sum(b.last_offset - b.first_offset + 1 for b in stored.batches if b.state in FINISHED)
        local = self.manager.replica_manager.partitions.get((topic, partition))
        lag = max(0, local.high_watermark - start - done) if local is not None and local.is_leader else -1
        return ShareOffsetSummary(start, lag)


class DelayedShareFetch(DelayedOperation):
    """A ShareFetch that acquired nothing waits, up to max_wait_ms, for records to become
    acquirable: an append or a high-watermark move (the fetch purgatory's keys are the
    partitions) or a release on one of its share partitions (which checks the same keys)."""

    def __init__(self, manager: SharePartitionManager, group_id: str, partitions: list[TopicPartition],
                 max_wait_ms: int, complete: Callable[[], None]) -> None:
        super().__init__(max_wait_ms)
        self.manager = manager
        self.group_id = group_id
        self.partitions = partitions
        self.complete = complete

    def try_complete(self) -> bool:
        if self.manager.acquirable(self.group_id, self.partitions):
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        self.complete()
