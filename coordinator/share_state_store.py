"""__share_group_state: where share partitions keep their delivery state (KIP-932's share
coordinator, Kafka's ShareCoordinatorShard and its records ShareSnapshot / ShareUpdate).

The state of (group, topic id, partition) lives in the partition of __share_group_state that
the key "group:topicId:partition" hashes to (Java's String.hashCode, as Kafka's
SharePartitionKey.asCoordinatorKey). josefk writes a ShareSnapshot (the whole state) at each
change; a load replays the partition, applying snapshots and, from a log Kafka wrote,
ShareUpdate records (the batches that changed) and tombstones. Records are Kafka 4.4's:
the key is int16 record type (0 snapshot, 1 update), then GroupId (int16-length string),
TopicId (uuid) and Partition (int32); the value is int16 version 0 and a flexible body.

This broker serves the state of the partitions of __share_group_state it leads; a share
partition whose state partition another broker leads keeps its state in memory (Kafka asks
that broker's share coordinator with ReadShareGroupState / WriteShareGroupState, which
josefk does not implement yet).
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
from josefk.utils.time import Time

log = logging.getLogger(__name__)

SHARE_STATE_TOPIC = "__share_group_state"
SNAPSHOT, UPDATE = 0, 1
UNKNOWN_DELIVERY_COMPLETE_COUNT = -1
WRITE_TIMEOUT_MS = 30_000

StateKey = tuple[str, uuid.UUID, int]


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
    r = RecordReader(data)
    r.int16()  # version 0
    if kind == SNAPSHOT:
        snapshot_epoch, state_epoch, _leader_epoch, start = r.int32(), r.int32(), r.int32(), r.int64()
        r.int64()  # create timestamp
        r.int64()  # write timestamp
        return snapshot_epoch, PersistedState(start, _read_batches(r), state_epoch)
    snapshot_epoch, _leader_epoch, start = r.int32(), r.int32(), r.int64()
    return snapshot_epoch, PersistedState(start, _read_batches(r))


def _apply_update(current: PersistedState, update: PersistedState) -> PersistedState:
    """Kafka's combineStateBatches: the update's batches replace what they overlap; nothing
    below the start offset is kept."""
    start = current.start_offset if update.start_offset < 0 else update.start_offset
    offsets: dict[int, tuple[RecordState, int]] = {}
    for source in (current.batches, update.batches):
        for b in source:
            for o in range(max(b.first_offset, start), b.last_offset + 1):
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


class ShareStateStore:
    """The persister of this broker's share partitions (replication.share_partition_manager.SharePersister)."""

    def __init__(self, partitions: CoordinatorPartitions, topics: TopicsView, config: ShareStateTopicConfig,
                 ensure_topic: Callable[[], None], time: Time) -> None:
        """`ensure_topic` creates __share_group_state if it is missing (in the background)."""
        self.partitions = partitions
        self.topics = topics
        self.config = config
        self.ensure_topic = ensure_topic
        self.time = time
        self.states: dict[StateKey, tuple[int, PersistedState]] = {}  # key -> (snapshot epoch, state)
        self.loaded: dict[int, int] = {}  # state partition -> the leader epoch it was loaded at
        self.pending: dict[StateKey, PersistedState] = {}  # not yet written: no state partition here yet

    def _num_partitions(self) -> int | None:
        found = self.topics.topics.get(SHARE_STATE_TOPIC)
        return len(found) if found else None

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
                    elif kind == SNAPSHOT:
                        self.states[key] = decode_value(kind, record.value)
                    elif kind == UPDATE and key in self.states:
                        epoch, update = decode_value(kind, record.value)
                        self.states[key] = (epoch, _apply_update(self.states[key][1], update))
        log.info("Loaded the share-group state of %s-%d", SHARE_STATE_TOPIC, p)

    def read(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PersistedState | None:
        key = (group_id, topic_id, partition)
        if self._led_partition(key) is None:
            return None
        found = self.states.get(key)
        return found[1] if found is not None else None

    def write(self, group_id: str, topic_id: uuid.UUID, partition: int, state: PersistedState) -> None:
        """Append the state as a snapshot; while its state partition is not ready here (the
        topic being created, its leadership not yet taken), it waits and is written with the
        next write that can be."""
        self.pending[(group_id, topic_id, partition)] = state
        for key, waiting in list(self.pending.items()):
            if self._append(key, waiting):
                del self.pending[key]

    def _append(self, key: StateKey, state: PersistedState) -> bool:
        group_id, topic_id, partition = key
        led = self._led_partition(key)
        if led is None:
            return False
        p, leader_epoch = led
        snapshot_epoch = self.states[key][0] + 1 if key in self.states else 0
        self.states[key] = (snapshot_epoch, state)
        now = self.time.milliseconds()
        records = build_batch([Record(0, now, encode_key(SNAPSHOT, key),
                                      encode_snapshot(state, snapshot_epoch, leader_epoch, now))])

        def written(error: ErrorCode, message: str | None) -> None:
            if error != ErrorCode.NONE:
                log.warning("Writing the state of share partition %s-%s-%d to %s-%d failed: %s %s", group_id,
                            topic_id, partition, SHARE_STATE_TOPIC, p, error.name, message or "")

        self.partitions.append((SHARE_STATE_TOPIC, p), records, -1, now, WRITE_TIMEOUT_MS, written)
        return True
