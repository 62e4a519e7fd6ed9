"""ReplicaManager: the partitions this broker hosts, and the way in and out of their logs.

It applies the controller's LeaderAndIsr / StopReplica (and forwards UpdateMetadata to
the MetadataCache), appends produced batches to leader partitions (holding acks=all
responses in the produce purgatory until the ISR has them), serves fetches from clients
and followers (parking fetches that must wait), runs the replica fetchers for partitions
it follows, and checkpoints high watermarks.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from josefk.log.checkpoint import OffsetCheckpointFile
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.replication.coordination_store import BadVersionError, CoordinationStore, NoNodeError
from josefk.replication.partition import Partition, ReadResult
from josefk.replication.replica_fetcher import ReplicaFetcher
from josefk.replication.state import ISR_CHANGE_NOTIFICATION, BrokerInfo, PartitionState, partition_state_path
from josefk.server.metadata_cache import MetadataCache
from josefk.server.purgatory import DelayedOperation, DelayedOperationPurgatory

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint"


@dataclass
class AppendResult:
    error: ErrorCode = ErrorCode.NONE
    base_offset: int = -1
    log_append_time: int = -1
    log_start_offset: int = -1
    message: str | None = None
    required_offset: int = -1  # the high watermark that acknowledges this append (acks=all)


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


@dataclass
class ReplicationSettings:
    replica_lag_time_max_ms: int = 30000
    replica_fetch_wait_max_ms: int = 500
    replica_fetch_max_bytes: int = 1048576


class ReplicaManager:
    def __init__(self, broker_id: int, log_manager: LogManager, metadata_cache: MetadataCache,
                 log_config_for: Callable[[str], LogConfig], store: CoordinationStore,
                 settings: ReplicationSettings) -> None:
        self.broker_id = broker_id
        self.log_manager = log_manager
        self.metadata_cache = metadata_cache
        self.log_config_for = log_config_for
        self.store = store
        self.settings = settings
        self.partitions: dict[TopicPartition, Partition] = {}
        self.fetchers: dict[int, ReplicaFetcher] = {}
        self.fetch_purgatory = DelayedOperationPurgatory("Fetch")
        self.produce_purgatory = DelayedOperationPurgatory("Produce")
        self.controller_epoch = 0
        self.hw_checkpoints = {d: OffsetCheckpointFile(Path(d) / HIGH_WATERMARK_CHECKPOINT)
                               for d in log_manager.log_dirs}
        self.saved_high_watermarks: dict[TopicPartition, int] = {}
        self.leadership_listeners: list[Callable[[], None]] = []
        for checkpoint in self.hw_checkpoints.values():
            self.saved_high_watermarks.update(checkpoint.read())

    # -- controller requests -----------------------------------------------------------

    def _get_or_create_partition(self, state: PartitionState) -> Partition:
        key = (state.topic, state.partition)
        partition = self.partitions.get(key)
        if partition is None:
            log_ = self.log_manager.get_or_create_log(state.topic, state.partition, self.log_config_for(state.topic))
            partition = Partition(state.topic, state.partition, self.broker_id, log_, self._write_isr)
            partition.high_watermark = min(self.saved_high_watermarks.get(key, 0), log_.log_end_offset)
            self.partitions[key] = partition
        return partition

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> None:
        if controller_epoch < self.controller_epoch:
            log.warning("Ignoring LeaderAndIsr from stale controller epoch %d", controller_epoch)
            return
        self.controller_epoch = controller_epoch
        brokers = {b.broker_id: b for b in live_brokers}
        for state in states:
            existing = self.partitions.get((state.topic, state.partition))
            if existing is not None and state.leader_epoch < existing.leader_epoch:
                continue
            partition = self._get_or_create_partition(state)
            self._remove_from_fetchers(partition.key)
            if state.leader == self.broker_id:
                partition.make_leader(state)
            else:
                partition.make_follower(state)
                leader = brokers.get(state.leader) or self.metadata_cache.brokers.get(state.leader)
                if leader is not None:
                    self._fetcher_for(leader).add(partition)
            self.fetch_purgatory.check(partition.key)
            self.produce_purgatory.check(partition.key)
        self._notify_leadership()

    def add_leadership_listener(self, listener: Callable[[], None]) -> None:
        """Called after every LeaderAndIsr / StopReplica (Kafka's onLeadershipChange), e.g.
        for the group coordinator to load or unload __consumer_offsets partitions."""
        self.leadership_listeners.append(listener)

    def _notify_leadership(self) -> None:
        for listener in self.leadership_listeners:
            listener()

    def _fetcher_for(self, leader: BrokerInfo) -> ReplicaFetcher:
        fetcher = self.fetchers.get(leader.broker_id)
        if fetcher is None or (fetcher.leader.host, fetcher.leader.port) != (leader.host, leader.port):
            if fetcher is not None:
                fetcher.close()
            fetcher = ReplicaFetcher(self.broker_id, leader, self.settings.replica_fetch_wait_max_ms,
                                     self.settings.replica_fetch_max_bytes, self._on_follower_append)
            self.fetchers[leader.broker_id] = fetcher
        return fetcher

    def _remove_from_fetchers(self, key: TopicPartition) -> None:
        for fetcher in self.fetchers.values():
            fetcher.remove(key)

    def _on_follower_append(self, partition: Partition) -> None:
        self.fetch_purgatory.check(partition.key)

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState]) -> None:
        self.metadata_cache.update(controller_id, live_brokers, states)

    def stop_replica(self, controller_epoch: int, partitions: list[TopicPartition], delete: bool) -> None:
        for key in partitions:
            self._remove_from_fetchers(key)
            partition = self.partitions.pop(key, None)
            if partition is not None and delete:
                self.log_manager.delete_log(*key)
                self.saved_high_watermarks.pop(key, None)
            self.fetch_purgatory.check(key)
            self.produce_purgatory.check(key)
        self._notify_leadership()

    def high_watermark_of(self, key: TopicPartition) -> int | None:
        """The partition's high watermark, or None if this broker does not host it."""
        partition = self.partitions.get(key)
        return partition.high_watermark if partition is not None else None

    def update_topic_config(self, topic: str) -> None:
        config = self.log_config_for(topic)
        for (t, _p), partition in self.partitions.items():
            if t == topic:
                partition.log.update_config(config)

    # -- ISR changes made by leaders ------------------------------------------------------

    def _write_isr(self, partition: Partition, new_isr: list[int]) -> bool:
        """Conditionally update the partition state in the store, then tell the controller
        through an ISR change notification (Kafka's ZooKeeper-mode protocol)."""
        state = {"controller_epoch": partition.controller_epoch, "leader": partition.leader_id, "version": 1,
                 "leader_epoch": partition.leader_epoch, "isr": new_isr}
        path = partition_state_path(partition.topic, partition.partition)
        try:
            partition.zk_version = self.store.set(path, json.dumps(state).encode(), partition.zk_version)
        except (BadVersionError, NoNodeError):
            log.info("%s-%d: ISR update to %s lost to a newer state; waiting for the controller",
                     partition.topic, partition.partition, new_isr)
            return False
        notice = {"version": 1, "partitions": [{"topic": partition.topic, "partition": partition.partition}]}
        self.store.create_sequential(f"{ISR_CHANGE_NOTIFICATION}/isr_change_", json.dumps(notice).encode())
        return True

    def maybe_shrink_isrs(self) -> None:
        for partition in list(self.partitions.values()):
            if partition.maybe_shrink_isr(self.settings.replica_lag_time_max_ms):
                self._high_watermark_moved(partition)

    def _high_watermark_moved(self, partition: Partition) -> None:
        self.fetch_purgatory.check(partition.key)
        self.produce_purgatory.check(partition.key)

    def high_watermark_snapshot(self) -> dict[Path, dict[TopicPartition, int]]:
        """High watermarks per log dir, taken on the event loop (partitions change there)."""
        by_dir: dict[Path, dict[TopicPartition, int]] = {Path(d): {} for d in self.hw_checkpoints}
        for key, partition in list(self.partitions.items()):
            log_dir = self.log_manager.log_dir_of(*key)
            if log_dir is not None:
                by_dir.setdefault(Path(log_dir), {})[key] = partition.high_watermark
        return by_dir

    def write_high_watermarks(self, snapshot: dict[Path, dict[TopicPartition, int]]) -> None:
        """Write replication-offset-checkpoint files (atomic, fsynced: call it off the loop)."""
        for log_dir, offsets in snapshot.items():
            checkpoint = self.hw_checkpoints.get(log_dir)
            if checkpoint is not None:
                checkpoint.write(offsets)

    def leader_partition(self, topic: str, partition: int) -> Partition:
        """The partition if this broker leads it; else Kafka's error for the client to act on:
        NOT_LEADER_OR_FOLLOWER (refresh metadata) or UNKNOWN_TOPIC_OR_PARTITION."""
        found = self.partitions.get((topic, partition))
        if found is not None and found.is_leader:
            return found
        if found is not None or self.metadata_cache.partition(topic, partition) is not None:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)

    # -- produce -------------------------------------------------------------------------

    def append_records(self, entries: dict[TopicPartition, bytes], required_acks: int, now_ms: int,
                       timeout_ms: int, respond: Callable[[dict[TopicPartition, AppendResult]], None]) -> None:
        results: dict[TopicPartition, AppendResult] = {}
        for key, records in entries.items():
            try:
                info = self.leader_partition(*key).append_as_leader(records, required_acks, now_ms)
            except KafkaError as e:
                results[key] = AppendResult(e.code, message=e.message)
                continue
            results[key] = AppendResult(ErrorCode.NONE, info.first_offset, info.log_append_time,
                                        info.log_start_offset, required_offset=info.last_offset + 1)
            self.fetch_purgatory.check(key)
        waiting = [k for k, r in results.items() if r.error == ErrorCode.NONE and
                   self.partitions[k].high_watermark < r.required_offset]
        if required_acks != -1 or not waiting:
            respond(results)
            return
        op = DelayedProduce(self, results, waiting, timeout_ms, respond)
        self.produce_purgatory.try_complete_else_watch(op, waiting)

    # -- fetch ---------------------------------------------------------------------------

    def read_from_local_log(self, fetches: list[FetchPartition], max_bytes: int,
                            committed_only: bool) -> list[FetchResult]:
        results = []
        limit = max_bytes
        min_one = True
        for f in fetches:
            try:
                partition = self.leader_partition(f.topic, f.partition)
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
                       replica_id: int, respond: Callable[[list[FetchResult]], None]) -> None:
        if replica_id >= 0:
            for f in fetches:
                partition = self.partitions.get((f.topic, f.partition))
                if partition is not None and partition.update_follower_fetch(replica_id, f.fetch_offset):
                    self._high_watermark_moved(partition)
        committed_only = replica_id < 0
        results = self.read_from_local_log(fetches, max_bytes, committed_only)
        total = sum(r.read.size for r in results if r.read is not None)
        errors = any(r.error != ErrorCode.NONE for r in results)
        if max_wait_ms <= 0 or not fetches or total >= min_bytes or errors:
            respond(results)
            return
        op = DelayedFetch(self, fetches, max_bytes, min_bytes, max_wait_ms, committed_only, respond)
        self.fetch_purgatory.try_complete_else_watch(op, [(f.topic, f.partition) for f in fetches])

    def shutdown(self) -> None:
        for fetcher in self.fetchers.values():
            fetcher.close()
        self.fetchers.clear()
        self.fetch_purgatory.cancel_all()
        self.produce_purgatory.cancel_all()
        self.write_high_watermarks(self.high_watermark_snapshot())


class DelayedProduce(DelayedOperation):
    """acks=all: respond once every partition's high watermark covers its append, or
    time out with REQUEST_TIMED_OUT for the partitions still waiting."""

    def __init__(self, manager: ReplicaManager, results: dict[TopicPartition, AppendResult],
                 waiting: list[TopicPartition], timeout_ms: int,
                 respond: Callable[[dict[TopicPartition, AppendResult]], None]) -> None:
        super().__init__(timeout_ms)
        self.manager = manager
        self.results = results
        self.waiting = waiting
        self.respond = respond

    def _pending(self) -> list[TopicPartition]:
        pending = []
        for key in self.waiting:
            partition = self.manager.partitions.get(key)
            if partition is None or not partition.is_leader:
                self.results[key].error = ErrorCode.NOT_LEADER_OR_FOLLOWER
            elif partition.high_watermark < self.results[key].required_offset:
                pending.append(key)
        return pending

    def try_complete(self) -> bool:
        if not self._pending():
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        for key in self._pending():
            self.results[key].error = ErrorCode.REQUEST_TIMED_OUT
        self.respond(self.results)


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
