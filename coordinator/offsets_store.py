"""Persistence of groups and offsets in __consumer_offsets (Kafka's GroupMetadataManager, I/O half).

Writes are appended like any produce (acks=-1), so they are replicated and survive a
restart; reads replay a partition's log from its start, last record per key winning,
which is exactly what log compaction preserves. Both go through CoordinatorPartitions,
never the ReplicaManager itself.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from josefk.coordinator.consumer_group_records import ConsumerGroupKey, RecordType, StoredConsumerGroup
from josefk.coordinator.group_metadata import GroupMetadata, OffsetAndMetadata
from josefk.coordinator.group_records import (
    GroupKey,
    OffsetKey,
    RecordFormatError,
    group_key,
    group_value,
    offset_key,
    offset_value,
    read_group_value,
    read_key,
    read_offset_value,
)
from josefk.coordinator.share_group_records import IGNORED as SHARE_IGNORED
from josefk.coordinator.share_group_records import ShareGroupKey
from josefk.coordinator.streams_group_records import RecordType as StreamsRecordType
from josefk.coordinator.streams_group_records import StoredStreamsGroup, StreamsGroupKey
from josefk.log.log import FetchDataInfo
from josefk.log.producer_state import SENTINEL, VerificationGuard
from josefk.protocol.control_records import ControlRecordType, control_record_type
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch, decode_batch
from josefk.protocol.records import BatchHeader, CorruptRecordError, iter_headers
from josefk.utils.java_format import java_string_hash
from josefk.utils.time import Time

log = logging.getLogger(__name__)

OFFSETS_TOPIC = "__consumer_offsets"
LOAD_CHUNK_BYTES = 5 * 1024 * 1024  # offsets.load.buffer.size

TopicPartition = tuple[str, int]


class CoordinatorPartitions(Protocol):
    """What the group coordinator needs of this broker's replicas of its topic, and no more
    (Kafka's coordinators see PartitionWriter and CoordinatorLoader, not the ReplicaManager):
    which partitions it leads, appending to them and replaying them.
    replication.coordinator_partitions.LocalCoordinatorPartitions implements it."""

    def leader_epoch(self, tp: TopicPartition) -> int | None:
        """If this broker leads `tp`, the leader epoch at which it became leader (Kafka's
        coordinator epoch: the controller bumping the epoch of a leader it keeps, as when it
        shrinks the ISR, does not change it), else None."""
        ...

    def led_partitions(self, topic: str) -> dict[int, int]:
        """Partition -> leader_epoch(), for each partition of `topic` this broker leads."""
        ...

    def append(self, tp: TopicPartition, records: bytes, required_acks: int, now_ms: int, timeout_ms: int,
               done: Callable[[ErrorCode, str | None], None],
               verification_guard: VerificationGuard = SENTINEL) -> None:
        """Append a batch as leader; `done` gets the error and its message once the write is
        acknowledged (with acks=-1 when the ISR has it, possibly from a later loop turn).
        A transactional batch opening its transaction needs `verification_guard`, from
        verify_transaction, when transaction verification is on."""
        ...

    def verify_transaction(self, tp: TopicPartition, transactional_id: str, producer_id: int, producer_epoch: int,
                           done: Callable[[ErrorCode, VerificationGuard], None], add: bool = False) -> None:
        """Before writing in a producer's transaction to `tp`: check with its transaction
        coordinator that `tp` is in it (with `add`, have it added: transactions v2),
        unless its transaction is already open there or verification is off. `done` gets
        the error (NONE) and the guard to append under, now or on a later loop turn."""
        ...

    def log_offsets(self, tp: TopicPartition) -> tuple[int, int] | None:
        """(log start offset, log end offset) of the local replica; None without one."""
        ...

    def read(self, tp: TopicPartition, offset: int, max_bytes: int) -> FetchDataInfo:
        """Whole batches from `offset`, at least one, up to the log end (not the high watermark)."""
        ...


@functools.lru_cache(maxsize=1 << 16)
def java_string_hashcode(s: str) -> int:
    """Java's String.hashCode over UTF-16 code units, as a signed 32-bit int. Cached: the
    coordinators map the same group and transactional ids several times per request, and
    the loop over code units is a measurable share of a transaction's CPU."""
    h = java_string_hash(s)
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for(group_id: str, num_partitions: int) -> int:
    """abs(hashCode) % n with Kafka's Utils.abs (Integer.MIN_VALUE maps to 0)."""
    h = java_string_hashcode(group_id)
    return (0 if h == -(1 << 31) else abs(h)) % num_partitions


def _append_error_for_group(code: int) -> ErrorCode:
    """How a failed append of group metadata surfaces to JoinGroup/SyncGroup callers."""
    if code in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_ENOUGH_REPLICAS,
                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND):
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    if code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.KAFKA_STORAGE_ERROR):
        return ErrorCode.NOT_COORDINATOR
    if code == ErrorCode.REQUEST_TIMED_OUT:
        return ErrorCode.REBALANCE_IN_PROGRESS
    if code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.INVALID_FETCH_SIZE):
        return ErrorCode.UNKNOWN_SERVER_ERROR
    return ErrorCode(code)


def _write_error(code: int) -> ErrorCode:
    """How a failed write of a consumer group's records surfaces to its heartbeat (Kafka's
    GroupCoordinatorService.handleOperationException)."""
    if code in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_ENOUGH_REPLICAS,
                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, ErrorCode.REQUEST_TIMED_OUT):
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    if code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.KAFKA_STORAGE_ERROR):
        return ErrorCode.NOT_COORDINATOR
    if code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.INVALID_FETCH_SIZE):
        return ErrorCode.UNKNOWN_SERVER_ERROR
    return ErrorCode(code)


def _append_error_for_offsets(code: int) -> ErrorCode:
    """How a failed append of offsets surfaces to OffsetCommit callers."""
    if code in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_ENOUGH_REPLICAS,
                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND):
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    if code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.KAFKA_STORAGE_ERROR):
        return ErrorCode.NOT_COORDINATOR
    if code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.INVALID_FETCH_SIZE):
        return ErrorCode.INVALID_COMMIT_OFFSET_SIZE
    return ErrorCode(code)


def _offset_commit_error_for_verification(code: int) -> ErrorCode:
    """Kafka's maybeConvertOffsetCommitError for a failed verification: NETWORK_EXCEPTION,
    which older clients may not retry, becomes COORDINATOR_LOAD_IN_PROGRESS (retried
    without a coordinator lookup); INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING and
    the like pass unchanged."""
    if code == ErrorCode.NETWORK_EXCEPTION:
        return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
    return _append_error_for_offsets(code)


def read_batches(partitions: CoordinatorPartitions, tp: TopicPartition,
                 chunk_bytes: int = LOAD_CHUNK_BYTES) -> Iterator[list[tuple[BatchHeader, list[Record]]]]:
    """A coordinator partition's batches (control batches too) from log start to log end, a
    chunk at a time, so a big load can yield the event loop between chunks. A corrupt
    batch ends its chunk with an error line."""
    offsets = partitions.log_offsets(tp)
    if offsets is None:
        return
    offset, end = offsets
    while offset < end:
        info = partitions.read(tp, offset, chunk_bytes)
        if not info.regions:
            break
        data = info.read_bytes()
        batches: list[tuple[BatchHeader, list[Record]]] = []
        try:
            for header in iter_headers(data):
                batches.append((header, decode_batch(data, header)))
        except CorruptRecordError as e:
            log.error("Corrupt batch in %s-%d near offset %d: %s", tp[0], tp[1], offset, e)
        yield batches
        next_offset = info.next_offset
        if next_offset <= offset:
            break
        offset = next_offset


@dataclass
class LoadedPartition:
    """What replaying one partition yields: the last stored state of each group (classic
    and KIP-848 consumer groups; a group id is one kind or the other, the last written
    wins), and the offsets of transactions not yet ended (Kafka's
    pendingTransactionalOffsetCommits), which a COMMIT marker makes committed and an ABORT
    marker drops."""

    time: Time  # the coordinator's, for the groups it reads
    groups: dict[str, GroupMetadata] = field(default_factory=dict)
    offsets: dict[str, dict[tuple[str, int], OffsetAndMetadata]] = field(default_factory=dict)
    removed_groups: set[str] = field(default_factory=set)
    consumer_groups: dict[str, StoredConsumerGroup] = field(default_factory=dict)
    share_groups: dict[str, dict[bytes, bytes]] = field(default_factory=dict)  # group -> its records, key -> value
    streams_groups: dict[str, StoredStreamsGroup] = field(default_factory=dict)
    # producer id -> group -> offsets written in its open transaction
    pending_txn: dict[int, dict[str, dict[tuple[str, int], OffsetAndMetadata]]] = field(default_factory=dict)

    def apply(self, header: BatchHeader, record: Record) -> None:
        if record.key is None:
            return
        if header.is_control:
            pending = self.pending_txn.pop(header.producer_id, {})
            if control_record_type(record.key) == ControlRecordType.COMMIT:
                for group, offsets in pending.items():
                    self.offsets.setdefault(group, {}).update(offsets)
            return
        key = read_key(record.key)
        if isinstance(key, OffsetKey):
            tp = (key.topic, key.partition)
            if header.is_transactional:
                if record.value is not None:
                    by_group = self.pending_txn.setdefault(header.producer_id, {})
                    by_group.setdefault(key.group, {})[tp] = read_offset_value(record.value)
                return
            group_offsets = self.offsets.setdefault(key.group, {})
            if record.value is None:
                group_offsets.pop(tp, None)
            else:
                group_offsets[tp] = read_offset_value(record.value)
        elif isinstance(key, GroupKey):
            if record.value is None:
                self.groups.pop(key.group, None)
                self.removed_groups.add(key.group)
            else:
                self.groups[key.group] = read_group_value(key.group, record.value, self.time)
                self.removed_groups.discard(key.group)
                self.consumer_groups.pop(key.group, None)
                self.streams_groups.pop(key.group, None)
        elif isinstance(key, ConsumerGroupKey):
            self._apply_consumer_group(key, record.value)
        elif isinstance(key, StreamsGroupKey):
            self._apply_streams_group(key, record.value)
        elif isinstance(key, ShareGroupKey) and key.type not in SHARE_IGNORED:
            records = self.share_groups.setdefault(key.group, {})
            if record.value is None:
                records.pop(record.key, None)
            else:
                records[record.key] = record.value

    def _apply_consumer_group(self, key: ConsumerGroupKey, value: bytes | None) -> None:
        if key.type == RecordType.PARTITION_METADATA:
            return  # replaced by the group record's MetadataHash in Kafka 4.1; josefk recomputes it
        if value is None:
            if key.type == RecordType.GROUP_METADATA:
                self.consumer_groups.pop(key.group, None)
            elif key.group in self.consumer_groups:
                self.consumer_groups[key.group].apply(key, None)
            return
        if key.group not in self.consumer_groups:
            self.groups.pop(key.group, None)  # a classic group converted to a consumer group
            self.consumer_groups[key.group] = StoredConsumerGroup(key.group)
        self.consumer_groups[key.group].apply(key, value)

    def _apply_streams_group(self, key: StreamsGroupKey, value: bytes | None) -> None:
        """As a consumer group's: the group epoch's tombstone ends the group, and a streams
        record of a group last written as a classic group makes it a streams group."""
        if key.type == StreamsRecordType.PARTITION_METADATA:
            return
        if value is None:
            if key.type == StreamsRecordType.GROUP_METADATA:
                self.streams_groups.pop(key.group, None)
            elif key.group in self.streams_groups:
                self.streams_groups[key.group].apply(key, None)
            return
        if key.group not in self.streams_groups:
            self.groups.pop(key.group, None)
            self.streams_groups[key.group] = StoredStreamsGroup(key.group)
        self.streams_groups[key.group].apply(key, value)


class OffsetsStore:
    """Appends coordinator records to, and replays them from, __consumer_offsets partitions."""

    def __init__(self, partitions: CoordinatorPartitions, num_partitions: int, time: Time,
                 commit_timeout_ms: int = 5000) -> None:
        self.partitions = partitions
        self.num_partitions = num_partitions
        self.time = time
        self.commit_timeout_ms = commit_timeout_ms  # offsets.commit.timeout.ms

    def partition_for(self, group_id: str) -> int:
        return partition_for(group_id, self.num_partitions)

    def _append(self, partition: int, records: list[tuple[bytes, bytes | None]],
                done: Callable[[ErrorCode], None], required_acks: int = -1,
                producer: tuple[int, int] | None = None, verification_guard: VerificationGuard = SENTINEL) -> None:
        """Append one batch; `done` gets the error once the write is acknowledged (with
        acks=-1 that is when the ISR has it, possibly from a later loop turn). With a
        `producer` (id, epoch) the batch is part of that producer's transaction; its
        sequence is unset, as the coordinator's own appends are not deduplicated."""
        if not records:
            done(ErrorCode.NONE)
            return
        ts = self.time.milliseconds()
        producer_id, producer_epoch = producer if producer is not None else (-1, -1)
        batch = build_batch([Record(i, ts, k, v) for i, (k, v) in enumerate(records)], producer_id=producer_id,
                            producer_epoch=producer_epoch, is_transactional=producer is not None)
        tp = (OFFSETS_TOPIC, partition)

        def respond(error: ErrorCode, message: str | None) -> None:
            if error != ErrorCode.NONE:
                log.warning("Appending %d records to %s-%d failed: %s %s", len(records), *tp, error.name,
                            message or "")
            done(error)

        try:
            self.partitions.append(tp, batch, required_acks, ts, self.commit_timeout_ms, respond, verification_guard)
        except Exception:  # a log failure must not take the coordinator down with it
            log.exception("Appending %d records to %s-%d failed", len(records), *tp)
            done(ErrorCode.UNKNOWN_SERVER_ERROR)

    def store_group(self, group: GroupMetadata, assignment: dict[str, bytes],
                    done: Callable[[ErrorCode], None]) -> None:
        """Persist the group with these member assignments; `done` gets the error as
        JoinGroup/SyncGroup report it."""
        record = (group_key(group.group_id), group_value(group, assignment))
        self._append(self.partition_for(group.group_id), [record],
                     lambda error: done(ErrorCode.NONE if error == ErrorCode.NONE else _append_error_for_group(error)))

    def store_records(self, group_id: str, records: list[tuple[bytes, bytes | None]],
                      done: Callable[[ErrorCode], None], required_acks: int = -1) -> None:
        """Append a group's records (a consumer group's, from consumer_group_records); `done`
        gets the error as Kafka's group coordinator service reports a failed write."""
        self._append(self.partition_for(group_id), records,
                     lambda error: done(ErrorCode.NONE if error == ErrorCode.NONE else _write_error(error)),
                     required_acks=required_acks)

    def store_offsets(self, group_id: str, offsets: dict[tuple[str, int], OffsetAndMetadata],
                      done: Callable[[ErrorCode], None], producer: tuple[int, int] | None = None,
                      verification_guard: VerificationGuard = SENTINEL) -> None:
        records: list[tuple[bytes, bytes | None]] = [
            (offset_key(group_id, topic, p), offset_value(om)) for (topic, p), om in offsets.items()]
        self._append(self.partition_for(group_id), records,
                     lambda error: done(ErrorCode.NONE if error == ErrorCode.NONE
                                        else _append_error_for_offsets(error)), producer=producer,
                     verification_guard=verification_guard)

    def verify_transaction(self, group_id: str, transactional_id: str, producer_id: int, producer_epoch: int,
                           done: Callable[[ErrorCode, VerificationGuard], None], add: bool = False) -> None:
        """Verify the producer's transaction on the group's partition before its offsets are
        written there (Kafka 3.9's handleTxnCommitOffsets); `done` gets the error as
        TxnOffsetCommit reports it (GroupMetadataManager.maybeConvertOffsetCommitError)."""
        def verified(error: ErrorCode, guard: VerificationGuard) -> None:
            done(ErrorCode.NONE if error == ErrorCode.NONE else _offset_commit_error_for_verification(error), guard)

        self.partitions.verify_transaction((OFFSETS_TOPIC, self.partition_for(group_id)), transactional_id,
                                           producer_id, producer_epoch, verified, add)

    def write_tombstones(self, group_id: str, partitions: list[tuple[str, int]], group: bool) -> ErrorCode:
        """Delete offsets (and the group record itself when `group`) by writing null values.
        Like Kafka's cleanup, this does not wait for replication (acks=1, answered at once)."""
        records: list[tuple[bytes, bytes | None]] = [(offset_key(group_id, t, p), None) for t, p in partitions]
        if group:
            records.append((group_key(group_id), None))
        outcome: list[ErrorCode] = []
        self._append(self.partition_for(group_id), records, outcome.append, required_acks=1)
        return outcome[0] if outcome else ErrorCode.NONE

    def read_chunks(self, partition: int) -> Iterator[list[tuple[BatchHeader, list[Record]]]]:
        """The partition's batches from log start to log end, a chunk at a time."""
        return read_batches(self.partitions, (OFFSETS_TOPIC, partition))

    @staticmethod
    def replay(loaded: LoadedPartition, batches: list[tuple[BatchHeader, list[Record]]], partition: int) -> None:
        for header, records in batches:
            for record in records:
                try:
                    loaded.apply(header, record)
                except (RecordFormatError, CorruptRecordError, UnicodeDecodeError, KeyError) as e:
                    log.warning("Skipping unreadable record at offset %d of %s-%d: %s", record.offset,
                                OFFSETS_TOPIC, partition, e)
