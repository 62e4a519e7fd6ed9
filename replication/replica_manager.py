"""ReplicaManager: the partitions this broker hosts, and the way in and out of their logs.

It applies the controller's LeaderAndIsr / StopReplica (and forwards UpdateMetadata to
the MetadataCache), appends produced batches to leader partitions, and reads fetches,
parking a fetch in the purgatory when it must wait for data.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.replication.partition import Partition, ReadResult
from josefk.replication.state import BrokerInfo, PartitionState
from josefk.server.metadata_cache import MetadataCache
from josefk.server.purgatory import DelayedOperation, DelayedOperationPurgatory

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]


@dataclass
class AppendResult:
    error: ErrorCode = ErrorCode.NONE
    base_offset: int = -1
    log_append_time: int = -1
    log_start_offset: int = -1
    message: str | None = None


@dataclass
class FetchPartition:
    topic: str
    partition: int
    fetch_offset: int
    max_bytes: int


@dataclass
class FetchResult:
    topic: str
    partition: int
    error: ErrorCode
    read: ReadResult | None = None


class ReplicaManager:
    def __init__(self, broker_id: int, log_manager: LogManager, metadata_cache: MetadataCache,
                 log_config_for: Callable[[str], LogConfig]) -> None:
        self.broker_id = broker_id
        self.log_manager = log_manager
        self.metadata_cache = metadata_cache
        self.log_config_for = log_config_for
        self.partitions: dict[TopicPartition, Partition] = {}
        self.fetch_purgatory = DelayedOperationPurgatory("Fetch")
        self.controller_epoch = 0

    # -- controller requests -----------------------------------------------------------

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> None:
        if controller_epoch < self.controller_epoch:
            log.warning("Ignoring LeaderAndIsr from stale controller epoch %d", controller_epoch)
            return
        self.controller_epoch = controller_epoch
        for state in states:
            key = (state.topic, state.partition)
            partition = self.partitions.get(key)
            if partition is None:
                log_ = self.log_manager.get_or_create_log(state.topic, state.partition,
                                                          self.log_config_for(state.topic))
                partition = Partition(state.topic, state.partition, self.broker_id, log_)
                self.partitions[key] = partition
            elif state.leader_epoch < partition.leader_epoch:
                continue
            if state.leader == self.broker_id:
                partition.make_leader(state)
            else:
                partition.make_follower(state)
            self.fetch_purgatory.check(key)

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState], deleted_topics: list[str]) -> None:
        self.metadata_cache.update(controller_id, live_brokers, states, deleted_topics)

    def stop_replica(self, controller_epoch: int, partitions: list[TopicPartition], delete: bool) -> None:
        for key in partitions:
            partition = self.partitions.pop(key, None)
            if partition is not None and delete:
                self.log_manager.delete_log(*key)
            self.fetch_purgatory.check(key)

    def update_topic_config(self, topic: str) -> None:
        config = self.log_config_for(topic)
        for (t, _p), partition in self.partitions.items():
            if t == topic:
                partition.log.update_config(config)

    # -- produce -------------------------------------------------------------------------

    def append_records(self, entries: dict[TopicPartition, bytes], required_acks: int,
                       now_ms: int) -> dict[TopicPartition, AppendResult]:
        results: dict[TopicPartition, AppendResult] = {}
        for key, records in entries.items():
            partition = self.partitions.get(key)
            if partition is None:
                known = self.metadata_cache.partition(*key) is not None
                code = ErrorCode.NOT_LEADER_OR_FOLLOWER if known else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                results[key] = AppendResult(code)
                continue
            try:
                info = partition.append_as_leader(records, required_acks, now_ms)
            except KafkaError as e:
                results[key] = AppendResult(e.code, message=e.message)
                continue
            results[key] = AppendResult(ErrorCode.NONE, info.first_offset, info.log_append_time,
                                        info.log_start_offset)
            self.fetch_purgatory.check(key)
        return results

    # -- fetch ---------------------------------------------------------------------------

    def read_from_local_log(self, fetches: list[FetchPartition], max_bytes: int,
                            committed_only: bool) -> list[FetchResult]:
        results = []
        limit = max_bytes
        min_one = True
        for f in fetches:
            key = (f.topic, f.partition)
            partition = self.partitions.get(key)
            if partition is None:
                known = self.metadata_cache.partition(*key) is not None
                code = ErrorCode.NOT_LEADER_OR_FOLLOWER if known else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                results.append(FetchResult(f.topic, f.partition, code))
                continue
            try:
                read = partition.read(f.fetch_offset, max(0, min(f.max_bytes, limit)), committed_only, min_one)
            except KafkaError as e:
                results.append(FetchResult(f.topic, f.partition, e.code))
                continue
            size = read.size
            if size:
                min_one = False
                limit -= size
            results.append(FetchResult(f.topic, f.partition, ErrorCode.NONE, read))
        return results

    def fetch_messages(self, fetches: list[FetchPartition], max_bytes: int, min_bytes: int, max_wait_ms: int,
                       committed_only: bool, respond: Callable[[list[FetchResult]], None]) -> None:
        results = self.read_from_local_log(fetches, max_bytes, committed_only)
        total = sum(r.read.size for r in results if r.read is not None)
        errors = any(r.error != ErrorCode.NONE for r in results)
        if max_wait_ms <= 0 or not fetches or total >= min_bytes or errors:
            respond(results)
            return
        op = DelayedFetch(self, fetches, max_bytes, min_bytes, max_wait_ms, committed_only, respond)
        self.fetch_purgatory.try_complete_else_watch(op, [(f.topic, f.partition) for f in fetches])

    def shutdown(self) -> None:
        self.fetch_purgatory.cancel_all()


class DelayedFetch(DelayedOperation):
    """A fetch that waits until min_bytes are readable, a partition errors, or max_wait_ms."""

    def __init__(self, manager: ReplicaManager, fetches: list[FetchPartition], max_bytes: int, min_bytes: int,
                 max_wait_ms: int, committed_only: bool, respond: Callable[[list[FetchResult]], None]) -> None:
        super().__init__(max_wait_ms)
        self.manager = manager
        self.fetches = fetches
        self.max_bytes = max_bytes
        self.min_bytes = min_bytes
        self.committed_only = committed_only
        self.respond = respond

    def try_complete(self) -> bool:
        results = self.manager.read_from_local_log(self.fetches, self.max_bytes, self.committed_only)
        total = sum(r.read.size for r in results if r.read is not None)
        if total >= self.min_bytes or any(r.error != ErrorCode.NONE for r in results):
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        self.respond(self.manager.read_from_local_log(self.fetches, self.max_bytes, self.committed_only))
