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

import functools
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
from josefk.replication.share_state_service import ReadResult, StateKey, SummaryResult

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
ShareKey = tuple[str, str, int]  # (group id, topic, partition)


class SharePersister(Protocol):
    """Where share partitions keep their state (Kafka's Persister: the share coordinator's
    __share_group_state, replication/share_state_persister.py)."""

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None:
        """The stored state; a result without state when there is none yet."""
        ...

    def write(self, key: StateKey, leader_epoch: int, state: PersistedState) -> None: ...

    def flushed(self, key: StateKey, done: Callable[[ErrorCode], None]) -> None:
        """`done` once the writes of `key` asked so far are stored (or failed: their error)."""
        ...


class InMemory:
    """No persistence: state lives as long as the broker."""

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None:
        done(ReadResult())

    def write(self, key: StateKey, leader_epoch: int, state: PersistedState) -> None:
        return None

    def flushed(self, key: StateKey, done: Callable[[ErrorCode], None]) -> None:
        done(ErrorCode.NONE)


class Loading(KafkaError):
    """A share partition whose state is still being read: a fetch gets nothing from it yet."""


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
        self._leader_epochs: dict[ShareKey, int] = {}  # the leader epoch each share partition was read at

    def share_partition(self, group_id: str, topic: str, partition: int) -> SharePartition:
        """The group's share partition, once its state is read back from the share
        coordinator (or, the first time a group reads the partition, initialized from the
        log); raises KafkaError if this broker does not lead the partition, Loading while
        the state is being read."""
        key = (group_id, topic, partition)
        leader = self.replica_manager.leader_partition(topic, partition)
        sp = self.partitions.get(key)
        if sp is not None and self._leader_epochs.get(key) != leader.leader_epoch:
            sp.close()  # led again since: the state at the coordinator is newer than this
            sp = None
        if sp is None:
            # where the group starts if it has no state yet: share.auto.offset.reset as of this first read
            start = self._reset_offset(leader, self.settings_for(group_id))
            sp = self._open(group_id, topic, partition, leader.leader_epoch, start)
        if sp.loading:
            raise Loading(ErrorCode.NONE, f"The state of share partition {group_id}-{topic}-{partition} is loading")
        sp.move_to_log_start(leader.log.log_start_offset)
        return sp

    def _open(self, group_id: str, topic: str, partition: int, leader_epoch: int, start: int) -> SharePartition:
        """A new share partition, its state asked of the persister (maybe answered at once);
        without a stored state it starts at `start`."""
        key = (group_id, topic, partition)
        settings = self.settings_for(group_id)
        topic_id = self.replica_manager.metadata_cache.topic_ids.get(topic)
        sp = SharePartition(group_id, topic, partition, settings.partition, self.replica_manager.scheduler,
                            lambda: self.replica_manager.fetch_purgatory.check((topic, partition)),
                            lambda changed: self._persist(changed, topic_id))
        self.partitions[key] = sp
        self._leader_epochs[key] = leader_epoch
        if topic_id is None:
            sp.initialize(start)
            return sp
        sp.loading = True

        def read(result: ReadResult) -> None:
            if self.partitions.get(key) is not sp:
                return
            if result.error != ErrorCode.NONE:
                log.warning("Reading the state of share partition %s-%s-%d failed: %s %s", group_id, topic,
                            partition, result.error.name, result.message or "")
                del self.partitions[key]  # the next fetch asks again
                return
            sp.loading = False
            if result.state is not None and result.state.start_offset >= 0:
                sp.restore(result.state)
                log.info("Read share partition %s-%s-%d back at start offset %d", group_id, topic, partition,
                         sp.start_offset)
            else:
                sp.initialize(start)
                log.info("Initialized share partition %s-%s-%d at offset %d", group_id, topic, partition, start)
                self._persist(sp, topic_id)
            self.replica_manager.fetch_purgatory.check((topic, partition))

        self.persister.read((group_id, topic_id, partition), leader_epoch, read)
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
            self.persister.write((sp.group_id, topic_id, sp.partition),
                                 self._leader_epochs.get((sp.group_id, sp.topic, sp.partition), 0), sp.persisted())

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
            except Loading:
                out[(topic, partition)] = PartitionFetch()
                continue
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
            except Loading:  # what the member holds was acquired before this broker led the partition
                out[(topic, partition)] = (ErrorCode.INVALID_RECORD_STATE, None)
                continue
            except KafkaError as e:
                out[(topic, partition)] = (e.code, e.message)
                continue
            out[(topic, partition)] = sp.acknowledge(member_id, batches)
        return out

    def when_persisted(self, group_id: str, partitions: Iterable[TopicPartition],
                       done: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
        """`done` once the state changes made so far to the group's share `partitions` are in
        __share_group_state, with each partition's write error (Kafka answers an
        acknowledgement only after its state write)."""
        keys: dict[TopicPartition, StateKey] = {}
        for topic, partition in partitions:
            topic_id = self.replica_manager.metadata_cache.topic_ids.get(topic)
            if topic_id is not None and (group_id, topic, partition) in self.partitions:
                keys[(topic, partition)] = (group_id, topic_id, partition)
        errors: dict[TopicPartition, ErrorCode] = {}
        if not keys:
            done(errors)
            return

        def one(tp: TopicPartition, error: ErrorCode) -> None:
            errors[tp] = error
            if len(errors) == len(keys):
                done(errors)

        for tp, key in keys.items():
            self.persister.flushed(key, functools.partial(one, tp))

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

    def disconnected(self, connection_id: str) -> None:
        """A client connection closed: the share session opened on it ends as if its member left
        (Kafka's ShareSessionCache disconnect listener; the member stays in its group)."""
        key = self.sessions.disconnected(connection_id)
        if key is not None:
            self.member_left(*key)

    def forget(self, group_id: str, topic: str) -> None:
        """Drop the group's share partitions of `topic` held here: an admin replaced or deleted
        their state (Alter/DeleteShareGroupOffsets), which the next fetch reads again."""
        for key in [k for k in self.partitions if k[0] == group_id and k[1] == topic]:
            self.partitions.pop(key).close()
            self._leader_epochs.pop(key, None)

    def acquirable(self, group_id: str, partitions: Iterable[TopicPartition]) -> bool:
        """Whether a fetch could now acquire something: released records, or the log past the end offset."""
        for topic, partition in partitions:
            sp = self.partitions.get((group_id, topic, partition))
            local = self.replica_manager.partitions.get((topic, partition))
            if sp is not None and sp.loading:
                continue  # its state being read: the read's end checks the purgatory
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

    def __init__(self, manager: SharePartitionManager,
                 stored: Callable[[StateKey], SummaryResult] = lambda _key: SummaryResult(),
                 stored_topics: Callable[[str], set[uuid.UUID]] = lambda _group: set()) -> None:
        """`stored`: the summary this broker's share coordinator keeps of a share partition
        not led here (Kafka's group coordinator asks any broker's with ReadShareGroupStateSummary);
        `stored_topics`: the ids of the topics it keeps a group's state for."""
        self.manager = manager
        self.stored = stored
        self.stored_topics = stored_topics

    def topics_of(self, group_id: str) -> set[str]:
        """The group's topics with share partitions held here or state kept here (an admin's
        AlterShareGroupOffsets makes state no share partition holds yet)."""
        names = {topic_id: name for name, topic_id in self.manager.replica_manager.metadata_cache.topic_ids.items()}
        return ({topic for (group, topic, _p) in self.manager.partitions if group == group_id}
                | {names[t] for t in self.stored_topics(group_id) if t in names})

    def summary(self, group_id: str, topic: str, topic_id: uuid.UUID, partition: int) -> ShareOffsetSummary | None:
        sp = self.manager.partitions.get((group_id, topic, partition))
        if sp is not None and sp.initialized:
            start, done = sp.start_offset, sum(1 for r in sp.records.values() if r.state in FINISHED)
        else:
            stored = self.stored((group_id, topic_id, partition))
            if stored.error != ErrorCode.NONE or stored.start_offset < 0:
                return None
            start, done = stored.start_offset, max(stored.delivery_complete_count, 0)
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
