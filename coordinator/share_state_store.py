"""__share_group_state: where share partitions keep their delivery state (KIP-932's share
coordinator, Kafka's ShareCoordinatorShard and its records ShareSnapshot / ShareUpdate).

The state of (group, topic id, partition) lives in the partition of __share_group_state that
the key "group:topicId:partition" hashes to (Java's String.hashCode, as Kafka's
SharePartitionKey.asCoordinatorKey). josefk writes a ShareSnapshot (the whole state) at each
change; a load replays the partition, applying snapshots and, from a log Kafka wrote,
ShareUpdate records (the batches that changed) and tombstones. Records are Kafka 4.4's:
the key is int16 record type (0 snapshot, 1 update), then GroupId (int16-length string),
TopicId (uuid) and Partition (int32); the value is int16 version 0 and a flexible body.

This broker's share coordinator serves the state of the partitions of __share_group_state it
leads, to its own share partitions in-process and to the other brokers' over the share
coordinator RPCs (server/share_state_apis.py), with Kafka 4.4's checks: a state must be
initialized before it is written or read, and a request is fenced when its state epoch or its
share partition's leader epoch is older than the stored one.
"""

from __future__ import annotations

import base64
import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from josefk.coordinator.offsets_store import CoordinatorPartitions, read_batches
from josefk.coordinator.offsets_store import partition_for as group_partition_for
from josefk.coordinator.record_io import RecordReader, RecordWriter
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.share_partition import PersistedState, RecordState, StateBatch
from josefk.replication.share_state_service import ReadResult, StateKey, StateResult, SummaryResult, WriteState
from josefk.utils.time import Time

log = logging.getLogger(__name__)

SHARE_STATE_TOPIC = "__share_group_state"
SNAPSHOT, UPDATE = 0, 1
UNKNOWN_DELIVERY_COMPLETE_COUNT = -1
WRITE_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class ShareStateTopicConfig:
    """The share.coordinator.state.topic.* broker configs."""

    num_partitions: int = 50
    replication_factor: int = 3
    min_isr: int = 2
    segment_bytes: int = 104_857_600


class TopicsView(Protocol):
    @property
    def topics(self) -> Mapping[str, Mapping[int, object]]: ...


def kafka_uuid_string(value: uuid.UUID) -> str:
    """Kafka's Uuid.toString: URL-safe base64 of the 16 bytes, unpadded."""
    return base64.urlsafe_b64encode(value.bytes).decode().rstrip("=")


def partition_for(key: StateKey, num_partitions: int) -> int:
    """Kafka's Utils.abs(SharePartitionKey.asCoordinatorKey().hashCode()) % partitions."""
    group_id, topic_id, partition = key
    return group_partition_for(f"{group_id}:{kafka_uuid_string(topic_id)}:{partition}", num_partitions)


def encode_key(kind: int, key: StateKey) -> bytes:
    group_id, topic_id, partition = key
    return bytes(RecordWriter().int16(kind).string(group_id).uuid(topic_id).int32(partition).buf)


def decode_key(data: bytes) -> tuple[int, StateKey]:
    reader = RecordReader(data)
    kind = reader.int16()
    group_id = reader.string() or ""
    return kind, (group_id, reader.uuid(), reader.int32())


def _write_batches(w: RecordWriter, batches: tuple[StateBatch, ...]) -> None:
    w.compact_array_length(len(batches))
    for b in batches:
        w.int64(b.first_offset).int64(b.last_offset).int8(int(b.state)).int16(b.delivery_count).no_tagged_fields()


def encode_snapshot(state: PersistedState, snapshot_epoch: int, leader_epoch: int, now_ms: int) -> bytes:
    """A ShareSnapshotValue v0 (create and write timestamps both now; no DeliveryCompleteCount)."""
    w = RecordWriter().int16(0).int32(snapshot_epoch).int32(state.state_epoch).int32(leader_epoch)
    w.int64(state.start_offset).int64(now_ms).int64(now_ms)
    _write_batches(w, state.batches)
    return bytes(w.no_tagged_fields().buf)


def _read_batches(r: RecordReader) -> tuple[StateBatch, ...]:
    batches = []
    for _ in range(r.compact_array_length()):
        first, last, state, count = r.int64(), r.int64(), r.int8(), r.int16()
        r.skip_tagged_fields()
        batches.append(StateBatch(first, last, RecordState(state), count))
    return tuple(batches)


def decode_value(kind: int, data: bytes) -> tuple[int, PersistedState]:
    """(snapshot epoch, state) of a ShareSnapshotValue; of a ShareUpdateValue the state holds
    only the changed batches, and a start offset of -1 if it did not move."""
    snapshot_epoch, _leader_epoch, state = decode_value_with_leader_epoch(kind, data)
    return snapshot_epoch, state


def decode_value_with_leader_epoch(kind: int, data: bytes) -> tuple[int, int, PersistedState]:
    """(snapshot epoch, share partition leader epoch, state), as decode_value."""
    r = RecordReader(data)
    r.int16()  # version 0
    if kind == SNAPSHOT:
        snapshot_epoch, state_epoch, leader_epoch, start = r.int32(), r.int32(), r.int32(), r.int64()
        r.int64()  # create timestamp
        r.int64()  # write timestamp
        return snapshot_epoch, leader_epoch, PersistedState(start, _read_batches(r), state_epoch)
    snapshot_epoch, leader_epoch, start = r.int32(), r.int32(), r.int64()
    return snapshot_epoch, leader_epoch, PersistedState(start, _read_batches(r))


def _apply_update(current: PersistedState, update: PersistedState) -> PersistedState:
    """Kafka's combineStateBatches: where batches overlap, the higher delivery count wins,
    then the later state (a record's state only moves forward); nothing below the start offset
    is kept."""
    start = current.start_offset if update.start_offset < 0 else update.start_offset
    offsets: dict[int, tuple[RecordState, int]] = {}
    for source in (current.batches, update.batches):
        for b in source:
            for o in range(max(b.first_offset, start), b.last_offset + 1):
                old = offsets.get(o)
                if old is None or (b.delivery_count, b.state) >= (old[1], old[0]):
                    offsets[o] = (b.state, b.delivery_count)
    batches: list[StateBatch] = []
    for o in sorted(offsets):
        state, count = offsets[o]
        if batches and batches[-1].last_offset == o - 1 and (batches[-1].state, batches[-1].delivery_count) == (
                state, count):
            batches[-1] = replace(batches[-1], last_offset=o)
        else:
            batches.append(StateBatch(o, o, state, count))
    return PersistedState(start, tuple(batches), current.state_epoch)


@dataclass(frozen=True)
class StoredState:
    """A share partition's state as the coordinator keeps it."""

    state: PersistedState
    snapshot_epoch: int
    leader_epoch: int  # the newest share-partition leader epoch seen: older leaders are fenced
    reported_leader_epoch: int  # what a summary tells: set by an initialize, or a read that raised the epoch
    delivery_complete_count: int = -1


def _completed(state: PersistedState) -> int:
    """Records at or past the start offset delivered for good (-1 while uninitialized)."""
    if state.start_offset < 0:
        return -1
    return sum(b.last_offset - max(b.first_offset, state.start_offset) + 1 for b in state.batches
               if b.state in (RecordState.ACKNOWLEDGED, RecordState.ARCHIVED) and b.last_offset >= state.start_offset)


def _invalid(message: str) -> StateResult:
    return StateResult(ErrorCode.INVALID_REQUEST, message)


def _check(key: StateKey, leader_epoch: int) -> StateResult | None:
    """A read's or write's own mistakes, refused before the state is looked at."""
    if key[2] < 0:
        return _invalid(NEGATIVE_PARTITION)
    if leader_epoch < 0:
        return _invalid(NEGATIVE_LEADER_EPOCH)
    return None


NEGATIVE_PARTITION = "The partition id cannot be a negative number."
NEGATIVE_STATE_EPOCH = "The state epoch cannot be a negative number."
NEGATIVE_LEADER_EPOCH = "The leader epoch cannot be a negative number."
FENCED_LEADER_EPOCH_MESSAGE = "The leader epoch in the request is older than the epoch on the broker."
FENCED_STATE_EPOCH_MESSAGE = "The coordinator rejected the request because the state epoch did not match."
NOT_COORDINATOR_MESSAGE = "This is not the correct coordinator."
# An append's failure as the share coordinator answers it (Kafka's CoordinatorRuntime).
_APPEND_ERRORS = {ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR,
                  ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: ErrorCode.NOT_COORDINATOR,
                  ErrorCode.KAFKA_STORAGE_ERROR: ErrorCode.NOT_COORDINATOR}


class ShareStateStore:
    """The share coordinator: the share partitions' state in the partitions of
    __share_group_state this broker leads (replication.share_state_service.ShareStateService)."""

    def __init__(self, partitions: CoordinatorPartitions, topics: TopicsView, config: ShareStateTopicConfig,
                 ensure_topic: Callable[[], None], time: Time) -> None:
        """`ensure_topic` creates __share_group_state if it is missing (in the background)."""
        self.partitions = partitions
        self.topics = topics
        self.config = config
        self.ensure_topic = ensure_topic
        self.time = time
        self.states: dict[StateKey, StoredState] = {}
        self.loaded: dict[int, int] = {}  # state partition -> the leader epoch it was loaded at

    def _num_partitions(self) -> int | None:
        found = self.topics.topics.get(SHARE_STATE_TOPIC)
        return len(found) if found else None

    def state_partition(self, key: StateKey) -> int | None:
        """The partition of __share_group_state that keeps `key` (None while the topic is missing)."""
        count = self._num_partitions()
        return partition_for(key, count) if count is not None else None

    def _led_partition(self, key: StateKey) -> tuple[int, int] | None:
        """(state partition, leader epoch) if this broker leads the key's partition, loaded."""
        count = self._num_partitions()
        if count is None:
            self.ensure_topic()
            return None
        p = partition_for(key, count)
        epoch = self.partitions.leader_epoch((SHARE_STATE_TOPIC, p))
        if epoch is None:
            return None
        if self.loaded.get(p) != epoch:
            self._load(p, count)
            self.loaded[p] = epoch
        return p, epoch

    def _load(self, p: int, count: int) -> None:
        for key in [k for k in self.states if partition_for(k, count) == p]:
            del self.states[key]
        for batches in read_batches(self.partitions, (SHARE_STATE_TOPIC, p)):
            for header, records in batches:
                if header.is_control:
                    continue
                for record in records:
                    if record.key is None:
                        continue
                    kind, key = decode_key(record.key)
                    if record.value is None:
                        self.states.pop(key, None)
                        continue
                    snapshot_epoch, leader_epoch, value = decode_value_with_leader_epoch(kind, record.value)
                    current = self.states.get(key)
                    if kind == SNAPSHOT:
                        state = value
                    elif kind == UPDATE and current is not None:
                        state = _apply_update(current.state, value)
                    else:
                        continue
                    if current is not None:
                        leader_epoch = max(leader_epoch, current.leader_epoch)
                    self.states[key] = StoredState(state, snapshot_epoch, leader_epoch, leader_epoch,
                                                   _completed(state))
        log.info("Loaded the share-group state of %s-%d", SHARE_STATE_TOPIC, p)

    # -- the share coordinator's operations ---------------------------------------------------

    def initialize(self, key: StateKey, state_epoch: int, start_offset: int,
                   done: Callable[[StateResult], None]) -> None:
        """InitializeShareGroupState: a fresh state at `start_offset` (-1: none yet) and `state_epoch`."""
        if key[2] < 0:
            return done(_invalid(NEGATIVE_PARTITION))
        if state_epoch < 0:
            return done(_invalid(NEGATIVE_STATE_EPOCH))
        led = self._led_partition(key)
        if led is None:
            return done(StateResult(ErrorCode.NOT_COORDINATOR, NOT_COORDINATOR_MESSAGE))
        current = self.states.get(key)
        if current is not None and current.state.state_epoch > state_epoch:
            return done(StateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE))
        state = PersistedState(start_offset, (), state_epoch)
        leader_epoch = current.leader_epoch if current is not None else 0
        self._commit(key, led[0], StoredState(state, current.snapshot_epoch + 1 if current else 0, leader_epoch, 0,
                                              _completed(state)), done)

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None:
        """ReadShareGroupState by the share partition's leader at `leader_epoch`, which a newer
        leader's read records (fencing the older one)."""
        error = _check(key, leader_epoch)
        if error is not None:
            return done(ReadResult(error.error, error.message))
        led = self._led_partition(key)
        current = self.states.get(key)
        if led is None:
            return done(ReadResult(ErrorCode.NOT_COORDINATOR, NOT_COORDINATOR_MESSAGE))
        if current is None:
            return done(ReadResult(ErrorCode.INVALID_REQUEST, "Read operation on uninitialized share partition "
                                                              "not allowed."))
        if leader_epoch < current.leader_epoch:
            return done(ReadResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE))
        if leader_epoch == current.leader_epoch:  # recorded already (by a read, or a write)
            return done(ReadResult(state=current.state))
        self._commit(key, led[0], replace(current, leader_epoch=leader_epoch, reported_leader_epoch=leader_epoch),
                     lambda r: done(ReadResult(r.error, r.message, current.state if r.error == ErrorCode.NONE
                                               else None)))

    def write(self, key: StateKey, write: WriteState, done: Callable[[StateResult], None]) -> None:
        """WriteShareGroupState: the written batches replace what they overlap; the start
        offset only moves forward."""
        error = _check(key, write.leader_epoch)
        if error is not None:
            return done(error)
        if write.state_epoch < 0:
            return done(_invalid(NEGATIVE_STATE_EPOCH))
        led = self._led_partition(key)
        current = self.states.get(key)
        if led is None:
            return done(StateResult(ErrorCode.NOT_COORDINATOR, NOT_COORDINATOR_MESSAGE))
        if current is None:
            return done(_invalid("Write operation on uninitialized share partition not allowed."))
        if write.leader_epoch < current.leader_epoch:
            return done(StateResult(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE))
        if write.state_epoch < current.state.state_epoch:
            return done(StateResult(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE))
        moves = write.start_offset >= 0 and write.start_offset >= current.state.start_offset
        start = write.start_offset if moves else -1
        state = _apply_update(current.state, PersistedState(start, write.batches))
        count = current.delivery_complete_count
        if (moves or write.start_offset < 0) and write.delivery_complete_count >= 0:
            count = write.delivery_complete_count
        self._commit(key, led[0], replace(current, state=state, leader_epoch=write.leader_epoch,
                                          delivery_complete_count=count), done)

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None:
        """DeleteShareGroupState: a tombstone; deleting a state that is not there succeeds."""
        if key[2] < 0:
            return done(_invalid(NEGATIVE_PARTITION))
        led = self._led_partition(key)
        if led is None:
            return done(StateResult(ErrorCode.NOT_COORDINATOR, NOT_COORDINATOR_MESSAGE))
        if key not in self.states:
            return done(StateResult())
        del self.states[key]
        self._append(key, led[0], None, done)

    def summary(self, key: StateKey) -> SummaryResult:
        """ReadShareGroupStateSummary: the start offset and epochs, no batches; an
        uninitialized state answers a start offset of -1."""
        if key[2] < 0:
            return SummaryResult(ErrorCode.INVALID_REQUEST, NEGATIVE_PARTITION)
        if self._led_partition(key) is None:
            return SummaryResult(ErrorCode.NOT_COORDINATOR, NOT_COORDINATOR_MESSAGE)
        current = self.states.get(key)
        if current is None:
            return SummaryResult()
        return SummaryResult(state_epoch=current.state.state_epoch, leader_epoch=current.reported_leader_epoch,
                             start_offset=current.state.start_offset,
                             delivery_complete_count=current.delivery_complete_count)

    def topic_ids_of(self, group_id: str) -> set[uuid.UUID]:
        """The topics the group has state for in the partitions this broker leads."""
        return {topic_id for group, topic_id, _p in self.states if group == group_id}

    def _commit(self, key: StateKey, p: int, stored: StoredState, done: Callable[[StateResult], None]) -> None:
        """Keep `stored` and write it as a snapshot; `done` once the state partition's ISR has it."""
        self.states[key] = stored
        now = self.time.milliseconds()
        self._append(key, p, encode_snapshot(stored.state, stored.snapshot_epoch, stored.leader_epoch, now), done)

    def _append(self, key: StateKey, p: int, value: bytes | None, done: Callable[[StateResult], None]) -> None:
        now = self.time.milliseconds()
        records = build_batch([Record(0, now, encode_key(SNAPSHOT, key), value)])

        def written(error: ErrorCode, message: str | None) -> None:
            if error == ErrorCode.NONE:
                done(StateResult())
                return
            log.warning("Writing the state of share partition %s-%s-%d to %s-%d failed: %s %s", key[0], key[1],
                        key[2], SHARE_STATE_TOPIC, p, error.name, message or "")
            self.loaded.pop(p, None)  # what was kept in memory may not be in the log: read it again
            answer = _APPEND_ERRORS.get(error, ErrorCode.COORDINATOR_NOT_AVAILABLE)
            done(StateResult(answer, NOT_COORDINATOR_MESSAGE if answer == ErrorCode.NOT_COORDINATOR else None))

        self.partitions.append((SHARE_STATE_TOPIC, p), records, -1, now, WRITE_TIMEOUT_MS, written)
