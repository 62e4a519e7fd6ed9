"""ReplicaManager: the partitions this broker hosts, and the way in and out of their logs.

It applies the controller's LeaderAndIsr / StopReplica (and forwards UpdateMetadata to
the MetadataCache), appends produced batches to leader partitions (holding acks=all
responses in the produce purgatory until the ISR has them), serves fetches from clients
and followers (parking fetches that must wait), runs the replica fetchers for partitions
it follows, and checkpoints high watermarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from josefk.clients.network_client import PLAINTEXT, ClientSecurity
from josefk.log.checkpoint import OffsetCheckpointFile
from josefk.log.config import LogConfig
from josefk.log.log import AppendOrigin, Log
from josefk.log.log_manager import LogManager
from josefk.log.producer_state import SENTINEL, VerificationGuard
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.inter_broker import LATEST_PROTOCOL, InterBrokerProtocol
from josefk.protocol.records import first_batch_is_transactional, read_header
from josefk.replication.alter_log_dirs import LogDirMove
from josefk.replication.alter_partition import AlterPartitionManager, IsrChange
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import FetchIsolation, Partition, ReadResult, TimestampAndOffset
from josefk.replication.purgatory import DelayedOperation, DelayedOperationPurgatory
from josefk.replication.replica_fetcher import ReplicaFetcher
from josefk.replication.replication_quota import (
    UNBOUNDED_QUOTA,
    ReplicaQuota,
    ReplicationQuotas,
    should_leader_throttle,
)
from josefk.utils.heap import HeapFreezer
from josefk.utils.metrics import BrokerMetrics
from josefk.utils.scheduler import LOOP_SCHEDULER, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.coordination_store import BadVersionError, CoordinationStore, NoNodeError
from josefk.zk.zk_data import (
    ISR_CHANGE_NOTIFICATION,
    LOG_DIR_EVENT_PREFIX,
    LOG_DIR_FAILURE_EVENT,
    BrokerInfo,
    LeaderAndIsrResult,
    PartitionState,
    partition_state_path,
)

log = logging.getLogger(__name__)
state_change_log = logging.getLogger("state.change.logger")

# Errors Kafka's ReplicaManager answers a partition with without counting a failed request
# (FailedProduceRequestsPerSec, FailedFetchRequestsPerSec): the client's or the cluster's
# state, not the broker failing.
_EXPECTED_APPEND_ERRORS = frozenset({
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.MESSAGE_TOO_LARGE,
    ErrorCode.RECORD_LIST_TOO_LARGE, ErrorCode.CORRUPT_MESSAGE, ErrorCode.KAFKA_STORAGE_ERROR})
_EXPECTED_READ_ERRORS = frozenset({
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.UNKNOWN_LEADER_EPOCH,
    ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.REPLICA_NOT_AVAILABLE, ErrorCode.KAFKA_STORAGE_ERROR,
    ErrorCode.OFFSET_OUT_OF_RANGE, ErrorCode.INCONSISTENT_TOPIC_ID})

TopicPartition = tuple[str, int]
HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint"


def _halt(reason: str) -> None:
    """Kafka's Exit.halt(1): stop at once, writing nothing more (the files left are for
    recovery at the next start-up)."""
    log.critical(reason)
    logging.shutdown()
    os._exit(1)


def _flush_logs(logs: dict[TopicPartition, Log]) -> dict[TopicPartition, KafkaError]:
    """fsync each log (in a worker thread); the failures, by partition."""
    failed = {}
    for key, log_ in logs.items():
        try:
            log_.flush()
        except KafkaError as e:
            failed[key] = e
    return failed


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
    last_fetched_epoch: int = -1  # Fetch v12+ (KIP-320)
    current_leader_epoch: int = -1  # Fetch v9+: the leader epoch the fetcher knows (KIP-320)
    # What a consumer's incremental fetch session last told it of the partition (-1: none):
    # a read that would tell it nothing else is answered NOTHING_NEW.
    session_high_watermark: int = -1
    session_log_start_offset: int = -1


@dataclass
class FetchResult:
    topic: str
    partition: int
    error: ErrorCode
    read: ReadResult | None = None


# A session partition with nothing new for its consumer (FetchPartition.session_high_watermark):
# the session leaves it out of the response, so nothing is built for it.
NOTHING_NEW = FetchResult("", -1, ErrorCode.NONE)
# A consumer's partition with nothing to read (Partition.quiet_at), for a caller that asked for
# it (`quiet`): its answer is the partition's offsets alone, which the caller reads from the
# Partition in the same call that gets the results, so nothing is built for it.
QUIET = FetchResult("", -1, ErrorCode.NONE)


@dataclass
class ReplicationSettings:
    replica_lag_time_max_ms: int = 30000
    replica_fetch_wait_max_ms: int = 500
    replica_fetch_max_bytes: int = 1048576
    # How long a fetcher waits after a failed fetch, or when it has nothing to fetch.
    replica_fetch_backoff_ms: int = 1000
    # How fetchers reach leaders: the inter-broker listener's security protocol and credentials.
    inter_broker_security: ClientSecurity = PLAINTEXT
    # inter.broker.protocol.version: the Fetch and OffsetForLeaderEpoch versions followers send.
    protocol: InterBrokerProtocol = LATEST_PROTOCOL
    broker_epoch: Callable[[], int] = lambda: -1  # this broker's registration epoch, for Fetch v15+


class TransactionVerification(Protocol):
    """Asks a producer's transaction coordinator whether partitions are in its ongoing
    transaction (AddPartitionsToTxn verify_only); add_partitions_to_txn_manager's
    AddPartitionsToTxnManager implements it, as Kafka's of that name."""

    def verify_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int,
                           partitions: list[TopicPartition],
                           callback: Callable[[dict[TopicPartition, ErrorCode]], None], add: bool = False) -> None:
        """`callback` gets each partition's answer once, on a later loop turn (or at once,
        without a coordinator): NONE, or the error as AddPartitionsToTxnManager gives it
        (INVALID_TXN_STATE, INVALID_PRODUCER_EPOCH, CONCURRENT_TRANSACTIONS, NOT_COORDINATOR,
        COORDINATOR_NOT_AVAILABLE, NETWORK_EXCEPTION, ...). With `add` the coordinator adds
        the partitions to the transaction (Produce v12+, KIP-890 part 2)."""
        ...

    def close(self) -> None:
        """Ask and answer nothing more (broker shutdown)."""
        ...


VerificationCallback = Callable[[dict[TopicPartition, ErrorCode], dict[TopicPartition, VerificationGuard]], None]
# A produce's answer: the appends' results, and the partitions a verification refused.
ProduceCallback = Callable[[dict[TopicPartition, AppendResult], dict[TopicPartition, AppendResult]], None]
# A verification the coordinator could not answer: Kafka's ReplicaManager answers the produce
# NOT_ENOUGH_REPLICAS, which every producer retries without refreshing its metadata.
_UNVERIFIED = dict.fromkeys(
    (ErrorCode.CONCURRENT_TRANSACTIONS, ErrorCode.NETWORK_EXCEPTION, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
     ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR), ErrorCode.NOT_ENOUGH_REPLICAS)


class HeldConnection(Protocol):
    """The producer's connection, which reads nothing more while a verification is asked."""

    def start_throttling(self) -> None: ...

    def end_throttling(self) -> None: ...


def _transactional_batches(entries: Mapping[TopicPartition, bytes | memoryview]
                           ) -> tuple[dict[TopicPartition, int], tuple[int, int] | None]:
    """The partitions with a transactional batch, by base sequence, and the producer (id,
    epoch) that wrote them; raises INVALID_PRODUCER_ID_MAPPING when several did, as Kafka
    refuses the whole request (InvalidPidMappingException)."""
    sequences: dict[TopicPartition, int] = {}
    producers = set()
    for key, records in entries.items():
        if first_batch_is_transactional(records) and (header := read_header(records)).producer_id >= 0:
            sequences[key] = header.base_sequence
            producers.add((header.producer_id, header.producer_epoch))
    if len(producers) > 1:
        raise KafkaError(ErrorCode.INVALID_PRODUCER_ID_MAPPING,
                         "Transactional records contained more than one producer ID")
    return sequences, producers.pop() if producers else None


def _unverified(error: ErrorCode) -> AppendResult:
    """The answer to a partition whose verification failed, with Kafka's message."""
    if error == ErrorCode.INVALID_TXN_STATE:
        return AppendResult(error, message="Partition was not added to the transaction")
    if error in _UNVERIFIED:
        return AppendResult(_UNVERIFIED[error], message="Unable to verify the partition has been added to the "
                                                        f"transaction. Underlying error: {error.name}")
    return AppendResult(error)


class ReplicaManager:
    def __init__(self, broker_id: int, log_manager: LogManager, metadata_cache: MetadataCache,
                 log_config_for: Callable[[str], LogConfig], store: CoordinationStore,
                 settings: ReplicationSettings, store_executor: Executor,
                 time: Time = SYSTEM_TIME, scheduler: Scheduler = LOOP_SCHEDULER,
                 halt: Callable[[str], None] | None = None, metrics: BrokerMetrics | None = None,
                 alter_partition: AlterPartitionManager | None = None, heap: HeapFreezer | None = None,
                 verifier: TransactionVerification | None = None,
                 verification_enabled: Callable[[], bool] = lambda: True,
                 quotas: ReplicationQuotas | None = None) -> None:
        """`store_executor` runs the store writes leaders make (ISR changes) off the loop;
        with `alter_partition` leaders ask the controller instead (KIP-497).
        `halt(reason)` ends the process when every log dir has failed (Kafka's Exit.halt). `time`
        times followers' lag; `scheduler` runs the purgatories' timeouts; `heap` refreezes the
        collector's view of the heap as partitions are added (the default freezes nothing).
        `verifier` checks a transaction's first write to a partition with its coordinator
        while `verification_enabled()` (transaction.partition.verification.enable, dynamic as
        in Kafka); None: never. `quotas` are the replication throttles (the followers' is
        the fetchers', the leader's the fetch path's)."""
        self.broker_id = broker_id
        self.verifier = verifier
        self.verification_enabled = verification_enabled
        self._verification_stopped = False
        self.heap = heap or HeapFreezer(freeze=lambda: None)
        self.store_executor = store_executor
        self.metrics = metrics or BrokerMetrics()  # BrokerTopicMetrics in, IsrShrinks/IsrExpands
        self.time = time
        self.log_manager = log_manager
        self.metadata_cache = metadata_cache
        self.log_config_for = log_config_for
        self.store = store
        self.settings = settings
        self.quotas = quotas or ReplicationQuotas()
        self.partitions: dict[TopicPartition, Partition] = {}
        self.offline_partitions: set[TopicPartition] = set()  # Kafka's HostedPartition.Offline
        self.halt = halt or _halt
        self.fetchers: dict[int, ReplicaFetcher] = {}
        self.fetching_stopped = False  # controlled shutdown: this broker follows no leader any more
        self.fetch_purgatory = DelayedOperationPurgatory("Fetch", scheduler)
        self.produce_purgatory = DelayedOperationPurgatory("Produce", scheduler)
        self.controller_epoch = 0
        self.hw_checkpoints = {d: OffsetCheckpointFile(Path(d) / HIGH_WATERMARK_CHECKPOINT)
                               for d in log_manager.live_log_dirs}
        self.saved_high_watermarks: dict[TopicPartition, int] = {}
        self.leadership_listeners: list[Callable[[], None]] = []
        self.metadata_listeners: list[Callable[[set[str]], None]] = []
        self.scheduler = scheduler
        self.log_dir_moves: dict[TopicPartition, asyncio.Task] = {}  # Kafka's ReplicaAlterLogDirsManager
        self.alter_partition = alter_partition
        for checkpoint in self.hw_checkpoints.values():
            self.saved_high_watermarks.update(checkpoint.read())

    # -- controller requests -----------------------------------------------------------

    def _get_or_create_partition(self, state: PartitionState) -> Partition:
        key = (state.topic, state.partition)
        partition = self.partitions.get(key)
        if partition is None:
            log_ = self.log_manager.get_or_create_log(state.topic, state.partition, self.log_config_for(state.topic),
                                                      is_new=state.is_new)
            partition = Partition(state.topic, state.partition, self.broker_id, log_, self, self.time)
            partition.high_watermark = min(self.saved_high_watermarks.get(key, 0), log_.log_end_offset)
            self.partitions[key] = partition
            if self.log_manager.future_log(*key) is not None:
                self._start_log_dir_move(partition)  # a move the broker stopped in the middle of
        return partition

    def _stale_controller(self, api: str, controller_id: int, controller_epoch: int) -> bool:
        if controller_epoch < self.controller_epoch:
            log.warning("Ignoring %s from controller %d with stale controller epoch %d (current %d)", api,
                        controller_id, controller_epoch, self.controller_epoch)
            return True
        self.controller_epoch = controller_epoch
        return False

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> LeaderAndIsrResult:
        """Become leader or follower of each partition. A partition in a failed log dir
        (or whose log cannot be created) gets KAFKA_STORAGE_ERROR: the controller then
        counts that replica offline."""
        if self._stale_controller("LeaderAndIsr", controller_id, controller_epoch):
            return LeaderAndIsrResult(ErrorCode.STALE_CONTROLLER_EPOCH)
        result = LeaderAndIsrResult(ErrorCode.NONE)
        brokers = {b.broker_id: b for b in live_brokers}
        started = self.time.hi_res_clock_ms()
        state_change_log.info("[Broker id=%d] Handling LeaderAndIsr request from controller %d epoch %d for %d "
                              "partitions", self.broker_id, controller_id, controller_epoch, len(states))
        for state in states:
            key = (state.topic, state.partition)
            if key in self.offline_partitions:
                log.warning("Ignoring LeaderAndIsr for %s-%d: its log dir is offline", *key)
                result.partition_errors[key] = ErrorCode.KAFKA_STORAGE_ERROR
                continue
            existing = self.partitions.get(key)
            if existing is not None and (state.leader_epoch, state.zk_version) < (existing.leader_epoch,
                                                                                  existing.zk_version):
                # An older leader epoch, or the same one at an older partition epoch (zk
                # version): a request that crossed the leader's own ISR write. Applying it
                # would rewind the version its next ISR write is conditional on (Kafka
                # skips such states in Partition.makeLeader/makeFollower).
                log.info("Skipped LeaderAndIsr for %s-%d at leader epoch %d, version %d: already at %d, %d", *key,
                         state.leader_epoch, state.zk_version, existing.leader_epoch, existing.zk_version)
                continue
            try:
                partition = self._get_or_create_partition(state)
            except KafkaError as e:
                log.error("Could not create the log of %s-%d: %s", *key, e)
                result.partition_errors[key] = e.code
                continue
            if None not in (state.topic_id, partition.topic_id) and state.topic_id != partition.topic_id:
                # The log dir holds another topic of that name (one deleted while this
                # broker was away): Kafka's hasConsistentTopicId refuses the partition.
                log.error("Topic id %s in LeaderAndIsr for %s-%d differs from the log's %s", state.topic_id, *key,
                          partition.topic_id)
                result.partition_errors[key] = ErrorCode.INCONSISTENT_TOPIC_ID
                continue
            self._remove_from_fetchers(partition.key)
            if state.leader == self.broker_id:
                partition.make_leader(state)
            else:
                partition.make_follower(state)
                leader = brokers.get(state.leader) or self.metadata_cache.brokers.get(state.leader)
                if leader is not None and not self.fetching_stopped:
                    self._fetcher_for(leader).add(partition)
            self.fetch_purgatory.check(partition.key)
            self.produce_purgatory.check(partition.key)
        self.heap.grown_to(len(self.partitions))
        self._notify_leadership()
        state_change_log.info("[Broker id=%d] Finished LeaderAndIsr request in %dms from controller %d for %d "
                              "partitions", self.broker_id, self.time.hi_res_clock_ms() - started, controller_id,
                              len(states))
        return result

    def add_leadership_listener(self, listener: Callable[[], None]) -> None:
        """Called after every LeaderAndIsr / StopReplica (Kafka's onLeadershipChange), e.g.
        for the group coordinator to load or unload __consumer_offsets partitions."""
        self.leadership_listeners.append(listener)

    def add_metadata_listener(self, listener: Callable[[set[str]], None]) -> None:
        """Called with the topics of every UpdateMetadata applied, local or from the network
        (Kafka's tryCompleteDelayedTopicOperations): admin requests waiting for their
        topics to show up in, or leave, the metadata cache."""
        self.metadata_listeners.append(listener)

    def _notify_leadership(self) -> None:
        for listener in self.leadership_listeners:
            listener()

    def _fetcher_for(self, leader: BrokerInfo) -> ReplicaFetcher:
        """The fetcher for this leader; a new one when the leader moved address or the old
        fetcher's task ended (it then takes over the old one's partitions)."""
        fetcher = self.fetchers.get(leader.broker_id)
        if fetcher is not None and fetcher.alive and (fetcher.leader.host, fetcher.leader.port) == (leader.host,
                                                                                                    leader.port):
            return fetcher
        replacement = ReplicaFetcher(self.broker_id, leader, self.settings.replica_fetch_wait_max_ms,
                                     self.settings.replica_fetch_max_bytes, self._on_follower_append,
                                     self.settings.inter_broker_security, self.settings.protocol,
                                     self.settings.broker_epoch, self.quotas.follower,
                                     self.settings.replica_fetch_backoff_ms, self.time)
        if fetcher is not None:
            fetcher.close()
            for partition in fetcher.partitions.values():
                replacement.add(partition)
        self.fetchers[leader.broker_id] = replacement
        return replacement

    def _remove_from_fetchers(self, key: TopicPartition) -> None:
        for fetcher in self.fetchers.values():
            fetcher.remove(key)

    def _on_follower_append(self, partition: Partition) -> None:
        self.fetch_purgatory.check(partition.key)

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState]) -> ErrorCode:
        if self._stale_controller("UpdateMetadata", controller_id, controller_epoch):
            return ErrorCode.STALE_CONTROLLER_EPOCH
        self.metadata_cache.update(controller_id, live_brokers, states)
        topics = {s.topic for s in states}
        for listener in self.metadata_listeners:
            listener(topics)
        return ErrorCode.NONE

    def stop_replica(self, controller_epoch: int, partitions: list[TopicPartition], delete: bool) -> ErrorCode:
        if self._stale_controller("StopReplica", -1, controller_epoch):
            return ErrorCode.STALE_CONTROLLER_EPOCH
        for key in partitions:
            self._remove_from_fetchers(key)
            if delete:
                self._stop_log_dir_move(key)
                if self.partitions.pop(key, None) is not None:
                    self.log_manager.delete_log(*key)
                    if not any(topic == key[0] for topic, _ in self.partitions):
                        self.metrics.topics.remove_topic(key[0])  # Kafka's BrokerTopicStats.removeMetrics
                self.saved_high_watermarks.pop(key, None)
            elif key in self.partitions:
                # Kafka keeps the partition (its log and high watermark, checkpointed at
                # shutdown) and only stops replicating it; it no longer serves as leader.
                self.partitions[key].stop_serving()
            self.fetch_purgatory.check(key)
            self.produce_purgatory.check(key)
        self._notify_leadership()
        return ErrorCode.NONE

    def update_topic_config(self, topic: str, config: LogConfig) -> None:
        """Kafka's TopicConfigHandler: the topic's logs and its replication throttles."""
        self.quotas.update_topic(topic, config, self.broker_id)
        for (t, _p), partition in self.partitions.items():
            if t == topic:
                partition.log.update_config(config)

    # -- ISR changes made by leaders ------------------------------------------------------

    def submit(self, partition: Partition, new_isr: list[int]) -> None:
        """IsrChangeSender: with an AlterPartitionManager (inter.broker.protocol.version
        2.7 and later) ask the controller; else write the leader's new ISR to the store
        off the event loop (a slow or unreachable ZooKeeper must not stall produce and
        fetch), as Kafka before 2.7. The partition applies the change when it is back."""
        epoch = partition.leader_epoch
        if self.alter_partition is not None:
            self.alter_partition.submit(IsrChange(
                partition.topic, partition.partition, partition.topic_id, epoch, partition.zk_version, new_isr,
                lambda error, version: self._isr_change_done(partition, epoch, new_isr, version, error)))
            return
        future = asyncio.get_running_loop().run_in_executor(
            self.store_executor, self._write_isr, partition.topic, partition.partition, partition.controller_epoch,
            partition.leader_id, epoch, new_isr, partition.zk_version)

        def written(done: asyncio.Future) -> None:
            try:
                version = done.result()
            except Exception as e:  # noqa: BLE001 - connection loss, session expiry: retried later
                log.warning("%s-%d: ISR update to %s failed: %r", partition.topic, partition.partition, new_isr, e)
                version = None
            self._isr_change_done(partition, epoch, new_isr, version)

        future.add_done_callback(written)

    def _isr_change_done(self, partition: Partition, epoch: int, new_isr: list[int], version: int | None,
                         error: ErrorCode = ErrorCode.NONE) -> None:
        """An ISR change came back: `version` is the partition state's new version if it was
        committed, None if not (the leader sends it again at a later check if still needed,
        unless the controller's `error` says to await the latest metadata)."""
        old_isr = partition.isr
        moved = partition.complete_isr_change(epoch, new_isr, version, error)
        if partition.isr is not old_isr:  # the change was committed and applied
            self.metrics.replica_manager.record_isr_change(old_isr, partition.isr)
        if moved or version is not None:  # acks=all waiters re-check min.insync.replicas too
            self._high_watermark_moved(partition)

    def _write_isr(self, topic: str, index: int, controller_epoch: int, leader: int, leader_epoch: int,
                   new_isr: list[int], zk_version: int) -> int | None:
        """Conditionally update the partition state in the store, then tell the controller
        through an ISR change notification (Kafka's ZooKeeper-mode protocol). Runs on the
        store executor; returns the new version, or None when the state changed under us."""
        state = {"controller_epoch": controller_epoch, "leader": leader, "version": 1,
                 "leader_epoch": leader_epoch, "isr": new_isr}
        try:
            version = self.store.set(partition_state_path(topic, index), json.dumps(state).encode(), zk_version)
        except (BadVersionError, NoNodeError):
            log.info("%s-%d: ISR update to %s lost to a newer state; waiting for the controller",
                     topic, index, new_isr)
            return None
        notice = {"version": 1, "partitions": [{"topic": topic, "partition": index}]}
        self.store.create_sequential(f"{ISR_CHANGE_NOTIFICATION}/isr_change_", json.dumps(notice).encode())
        return version

    def maybe_shrink_isrs(self) -> None:
        for partition in list(self.partitions.values()):
            partition.maybe_shrink_isr(self.settings.replica_lag_time_max_ms)

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
        """Write replication-offset-checkpoint files (atomic, fsynced: call it off the loop).
        An I/O error takes the log dir offline."""
        failures = self.log_manager.failure_channel
        for log_dir, offsets in snapshot.items():
            checkpoint = self.hw_checkpoints.get(log_dir)
            if checkpoint is None:
                continue
            with contextlib.suppress(KafkaError), failures.guard(
                    log_dir, f"Error while writing to high watermark file in directory {log_dir}"):
                checkpoint.write(offsets)

    # -- moving replicas between log dirs -------------------------------------------------

    def alter_replica_log_dirs(self, dirs: dict[TopicPartition, str]) -> dict[TopicPartition, ErrorCode]:
        """AlterReplicaLogDirs, Kafka's ReplicaManager.alterReplicaLogDirs: per partition,
        LOG_DIR_NOT_FOUND (not in log.dirs), KAFKA_STORAGE_ERROR (dir or partition offline,
        or a dir offline when the future log would be created), REPLICA_NOT_AVAILABLE (not
        a replica here) or UNKNOWN_TOPIC_OR_PARTITION; the two last still remember the
        dir for when the partition is created here."""
        results = {}
        for key, destination in dirs.items():
            try:
                self._alter_replica_log_dir(key, destination)
                results[key] = ErrorCode.NONE
            except KafkaError as e:
                log.warning("Unable to alter log dirs for %s-%d: %s", key[0], key[1], e.message or e.code.name)
                results[key] = e.code
        return results

    def _alter_replica_log_dir(self, key: TopicPartition, destination: str) -> None:
        manager = self.log_manager
        if len(f"{key[0]}-{key[1]}.{'0' * 32}-future") > 255:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, "The topic name is too long.")
        if not manager.is_log_dir_online(destination):
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Log directory {destination} is offline")
        if key in self.offline_partitions:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Partition {key[0]}-{key[1]} is offline")
        partition = self.partitions.get(key)
        future_dir = manager.future_log_dir_of(*key)
        if partition is not None and future_dir is not None and future_dir.absolute() != Path(destination):
            self._stop_log_dir_move(key)  # another destination: the move so far is abandoned
        manager.maybe_update_preferred_log_dir(key[0], key[1], destination)
        if partition is None:
            if self.metadata_cache.partition(*key) is not None:
                raise KafkaError(ErrorCode.REPLICA_NOT_AVAILABLE, f"Broker {self.broker_id} hosts no replica of "
                                                                  f"{key[0]}-{key[1]}")
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Partition {key[0]}-{key[1]} doesn't exist")
        current_dir = manager.log_dir_of(*key)
        if current_dir is not None and current_dir.absolute() == Path(destination):
            log.info("Current log directory %s is same as requested log dir %s. Skipping future replica creation.",
                     current_dir, destination)
            return
        if manager.future_log(*key) is None:
            manager.create_future_log(key[0], key[1], destination)
        if key not in self.log_dir_moves:
            self._start_log_dir_move(partition)

    def _start_log_dir_move(self, partition: Partition) -> None:
        move = LogDirMove(partition.key, partition, self.log_manager, self.settings.replica_fetch_max_bytes,
                          self.quotas.alter_log_dirs)
        task = asyncio.get_running_loop().create_task(move.run(), name=f"log-dir-move-{partition.topic}-"
                                                                        f"{partition.partition}")
        self.log_dir_moves[partition.key] = task

        def done(_: asyncio.Task) -> None:
            if self.log_dir_moves.get(partition.key) is task:
                del self.log_dir_moves[partition.key]
            if move.swapped:
                self.scheduler.schedule(partition.log.config.file_delete_delay_ms,
                                        self.log_manager.delete_retired_logs)
                self._high_watermark_moved(partition)

        task.add_done_callback(done)

    def _stop_log_dir_move(self, key: TopicPartition) -> None:
        task = self.log_dir_moves.pop(key, None)
        if task is not None:
            task.cancel()
        self.log_manager.remove_future_log(*key)

    def future_log_lag(self, key: TopicPartition) -> int:
        """How far the future log is behind the current one (DescribeLogDirs' offset_lag)."""
        future, partition = self.log_manager.future_log(*key), self.partitions.get(key)
        if future is None or partition is None:
            return -1
        return max(partition.log.log_end_offset - future.log_end_offset, 0)

    # -- log dir failure ----------------------------------------------------------------

    def handle_log_dir_failure(self, log_dir: Path) -> None:
        """Kafka's ReplicaManager.handleLogDirFailure, run on the event loop: the dir's
        partitions go offline (no fetching, KAFKA_STORAGE_ERROR to every request for them),
        the log manager drops the dir, and the controller hears of it through a
        log_dir_event_notification znode. With no log dir left the broker halts."""
        log_dir = Path(log_dir)
        if log_dir not in self.log_manager.live_log_dirs:
            return
        log.warning("Stopping serving replicas in dir %s", log_dir)
        offline = [key for key in self.partitions if self.log_manager.log_dir_of(*key) == log_dir]
        moving = [k for k in self.log_dir_moves if self.log_manager.future_log_dir_of(*k) == log_dir]
        for key in [*offline, *moving]:
            self._stop_log_dir_move(key)
        for key in offline:
            self._remove_from_fetchers(key)
            self.partitions.pop(key).stop_serving()
            self.offline_partitions.add(key)
        self.hw_checkpoints.pop(log_dir, None)
        log.warning("Broker %d stopped fetcher for partitions %s and stopped moving logs for partitions %s because "
                    "they are in the failed log directory %s.", self.broker_id,
                    ",".join(f"{t}-{p}" for t, p in offline), ",".join(f"{t}-{p}" for t, p in moving), log_dir)
        self.log_manager.handle_log_dir_failure(log_dir)
        if not self.log_manager.live_log_dirs:
            self.halt(f"Shutdown broker because all log dirs in {', '.join(map(str, self.log_manager.log_dirs))} "
                      "have failed")
            return
        for key in offline:
            self.fetch_purgatory.check(key)
            self.produce_purgatory.check(key)
        self._notify_leadership()
        self.store_executor.submit(self._propagate_log_dir_event)
        log.warning("Stopped serving replicas in dir %s", log_dir)

    def _propagate_log_dir_event(self) -> None:
        """Kafka's zkClient.propagateLogDirEvent (runs on the store executor)."""
        event = {"version": 1, "broker": self.broker_id, "event": LOG_DIR_FAILURE_EVENT}
        try:
            self.store.create_sequential(LOG_DIR_EVENT_PREFIX, json.dumps(event).encode())
        except Exception:  # noqa: BLE001 - the store may be gone; the controller learns at the next LeaderAndIsr
            log.exception("Could not tell the controller that a log dir of broker %d failed", self.broker_id)

    def leader_partition(self, topic: str, partition: int, current_leader_epoch: int = -1) -> Partition:
        """The partition if this broker leads it at `current_leader_epoch` (-1: any); else
        Kafka's error for the client to act on: FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH
        (checked first, as Kafka's getLocalLog), KAFKA_STORAGE_ERROR (its log dir failed),
        NOT_LEADER_OR_FOLLOWER (refresh metadata) or UNKNOWN_TOPIC_OR_PARTITION."""
        found = self.partitions.get((topic, partition))
        if found is not None:
            found.check_leader_epoch(current_leader_epoch)
        if found is not None and found.is_leader:
            return found
        if (topic, partition) in self.offline_partitions:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"Partition {topic}-{partition} is in an offline log directory")
        if found is not None or self.metadata_cache.partition(topic, partition) is not None:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)

    def fetch_offset_for_timestamp(self, topic: str, partition: int, timestamp: int, isolation: FetchIsolation,
                                   current_leader_epoch: int = -1) -> TimestampAndOffset | None:
        """ListOffsets for one partition this broker leads; raises KafkaError as leader_partition."""
        return self.leader_partition(topic, partition, current_leader_epoch).fetch_offset_for_timestamp(
            timestamp, isolation)

    def _active_verifier(self) -> TransactionVerification | None:
        """The verifier while transaction.partition.verification.enable is on."""
        return self.verifier if self.verification_enabled() else None

    def start_transaction_verification(self, sequences: dict[TopicPartition, int], transactional_id: str | None,
                                       producer_id: int, producer_epoch: int,
                                       callback: VerificationCallback, add: bool = False) -> None:
        """Kafka's maybeStartTransactionVerificationForPartitions: start a verification
        (a VerificationGuard) on each partition, by base sequence, where the producer's
        transaction is not open yet, and ask the coordinator about those. `callback` gets
        each failed partition's error and the guards to append under; at once if there
        is nothing to ask, else on a later loop turn."""
        # Adding (transactions v2) is not optional: the producer sent no AddPartitionsToTxn.
        verifier = self.verifier if add else self._active_verifier()
        if transactional_id is None or verifier is None:
            callback({}, {})
            return
        errors: dict[TopicPartition, ErrorCode] = {}
        guards: dict[TopicPartition, VerificationGuard] = {}
        for key, sequence in sequences.items():
            try:
                guard = self.leader_partition(*key).start_transaction_verification(producer_id, sequence,
                                                                                   producer_epoch)
            except KafkaError as e:
                errors[key] = e.code
                continue
            if guard is not SENTINEL:
                guards[key] = guard
        if not guards:
            callback(errors, {})
            return

        def verified(answers: dict[TopicPartition, ErrorCode]) -> None:
            if self._verification_stopped:  # the broker is going down and answers nothing more
                return
            errors.update((key, error) for key, error in answers.items() if error != ErrorCode.NONE)
            callback(errors, guards)

        verifier.verify_transaction(transactional_id, producer_id, producer_epoch, sorted(guards), verified, add)

    def stop_verifying(self) -> None:
        """At shutdown, once no request handler runs: the verifications still waiting for a
        coordinator are dropped, their requests left unanswered (Kafka's
        AddPartitionsToTxnManager shuts down with its ReplicaManager)."""
        self._verification_stopped = True
        if self.verifier is not None:
            self.verifier.close()

    def last_stable_offset_of(self, key: TopicPartition) -> int | None:
        """The partition's last stable offset, or None if this broker does not host it."""
        partition = self.partitions.get(key)
        return partition.last_stable_offset if partition is not None else None

    # -- produce -------------------------------------------------------------------------

    def handle_produce_append(self, entries: Mapping[TopicPartition, bytes | memoryview], required_acks: int,
                              now_ms: int, timeout_ms: int, transactional_id: str | None, respond: ProduceCallback,
                              connection: HeldConnection, add_partitions: bool = False) -> None:
        """Kafka's handleProduceAppend: a producer's records, appended once the partitions
        where its transaction is not open yet are verified with its coordinator (KIP-890), or
        with `add_partitions` (Produce v12+) added to its transaction by the coordinator.
        While the coordinator is asked the connection is held (as Kafka reads one request
        at a time), so the producer's next requests are appended after this one. Raises
        KafkaError (INVALID_PRODUCER_ID_MAPPING) for the whole request."""
        sequences, producer = _transactional_batches(entries) if transactional_id is not None else ({}, None)
        if producer is None:
            self.append_records(entries, required_acks, now_ms, timeout_ms, lambda results: respond(results, {}))
            return
        held = False
        answered = False

        def verified(failed: dict[TopicPartition, ErrorCode], guards: dict[TopicPartition, VerificationGuard]) -> None:
            nonlocal answered
            answered = True
            unverified = {key: _unverified(error) for key, error in failed.items()}
            try:
                self.append_records({k: v for k, v in entries.items() if k not in unverified}, required_acks,
                                    now_ms, timeout_ms, lambda results: respond(results, unverified),
                                    verification_guards=guards)
            finally:
                if held:
                    connection.end_throttling()

        self.start_transaction_verification(sequences, transactional_id, *producer, verified, add_partitions)
        if not answered:  # the coordinator was asked
            held = True
            connection.start_throttling()

    def append_records(self, entries: Mapping[TopicPartition, bytes | memoryview], required_acks: int, now_ms: int,
                       timeout_ms: int, respond: Callable[[dict[TopicPartition, AppendResult]], None],
                       origin: AppendOrigin = AppendOrigin.CLIENT,
                       verification_guards: dict[TopicPartition, VerificationGuard] | None = None,
                       marker_transaction_version: int = 0) -> None:
        """Append to partitions this broker leads; `origin` COORDINATOR lets the
        transaction markers of WriteTxnMarkers in (clients may not write control batches),
        checked by their `marker_transaction_version` (WriteTxnMarkers v2).
        With verification on, a transactional batch opening a transaction needs the guard
        its start_transaction_verification gave (`verification_guards`)."""
        results: dict[TopicPartition, AppendResult] = {}
        topic_stats = self.metrics.topics
        guards = verification_guards or {}
        verifying = self._active_verifier() is not None
        requests = topic_stats.produce_requests
        for key, records in entries.items():
            requests[key[0]] = requests.get(key[0], 0) + 1
            guard = guards.get(key, SENTINEL) if verifying else None
            try:
                info = self.leader_partition(*key).append_as_leader(records, required_acks, now_ms, origin, guard,
                                                                    marker_transaction_version)
            except KafkaError as e:
                results[key] = AppendResult(e.code, message=e.message)
                if e.code not in _EXPECTED_APPEND_ERRORS:
                    failed = topic_stats.failed_produce_requests
                    failed[key[0]] = failed.get(key[0], 0) + 1
                continue
            results[key] = AppendResult(ErrorCode.NONE, info.first_offset, info.log_append_time,
                                        info.log_start_offset, required_offset=info.last_offset + 1)
            # Kafka marks MessagesInPerSec / BytesInPerSec per appended partition batch, not per record
            topic_stats.record_append(key[0], max(0, info.last_offset - info.first_offset + 1), len(records))
            topic_stats.record_conversions(topic_stats.produce_conversions, key[0], info.records_converted)
            self.fetch_purgatory.check(key)
        due = {key: self.partitions[key].log for key, r in results.items()
               if r.error == ErrorCode.NONE and self.partitions[key].log.flush_due}
        if not due:
            self._complete_append(results, required_acks, timeout_ms, respond)
            return
        # flush.messages reached: the answer waits for the fsync, which runs in a worker thread.
        flushed = asyncio.get_running_loop().run_in_executor(None, _flush_logs, due)

        def after_flush(done: asyncio.Future) -> None:
            try:
                failed = done.result()
            except Exception as e:  # noqa: BLE001 - the producer must hear back either way
                log.exception("Flushing %s failed", sorted(due))
                failed = {key: KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, str(e)) for key in due}
            for key, error in failed.items():
                results[key] = AppendResult(error.code, message=error.message)
            self._complete_append(results, required_acks, timeout_ms, respond)

        flushed.add_done_callback(after_flush)

    def _complete_append(self, results: dict[TopicPartition, AppendResult], required_acks: int, timeout_ms: int,
                         respond: Callable[[dict[TopicPartition, AppendResult]], None]) -> None:
        if required_acks != -1:
            respond(results)
            return
        appended = [k for k, r in results.items() if r.error == ErrorCode.NONE]
        op = DelayedProduce(self, results, appended, timeout_ms, respond)
        self.produce_purgatory.try_complete_else_watch(op, appended)

    # -- fetch ---------------------------------------------------------------------------

    def read_from_local_log(self, fetches: list[FetchPartition], max_bytes: int, isolation: FetchIsolation,
                            replica_id: int = -1, quota: ReplicaQuota = UNBOUNDED_QUOTA,
                            quiet: bool = False) -> list[FetchResult]:
        """Kafka's readFromLog: a throttled partition of a follower out of the ISR, while the
        leader's replication quota is exceeded, is read (for its errors and offsets) but
        answered with no records; it then takes nothing of the response's max_bytes. With
        `quiet`, a consumer's partition with nothing to read is answered QUIET."""
        results = []
        limit = max_bytes
        min_one = True
        topic_stats = self.metrics.topics
        requests = topic_stats.fetch_requests
        partitions = self.partitions
        consumer = replica_id < 0
        for f in fetches:
            requests[f.topic] = requests.get(f.topic, 0) + 1
            if consumer and (quiet or f.session_high_watermark >= 0):
                found = partitions.get((f.topic, f.partition))
                if found is not None:
                    if f.session_high_watermark >= 0 and f.last_fetched_epoch < 0 and found.unchanged_for(
                            f.fetch_offset, f.current_leader_epoch, isolation, f.session_high_watermark,
                            f.session_log_start_offset):
                        results.append(NOTHING_NEW)
                        continue
                    if quiet and found.quiet_at(f.fetch_offset, f.current_leader_epoch, isolation,
                                                f.last_fetched_epoch):
                        results.append(QUIET)
                        continue
            try:
                partition = self.leader_partition(f.topic, f.partition, f.current_leader_epoch)
                read = partition.read(f.fetch_offset, max(0, min(f.max_bytes, limit)), isolation, min_one,
                                      f.last_fetched_epoch)
                if replica_id >= 0 and read.regions and should_leader_throttle(quota, partition.key, partition.isr,
                                                                               replica_id):
                    read.regions = []
            except KafkaError as e:
                results.append(FetchResult(f.topic, f.partition, e.code))
                if e.code not in _EXPECTED_READ_ERRORS:
                    failed = topic_stats.failed_fetch_requests
                    failed[f.topic] = failed.get(f.topic, 0) + 1
                continue
            size = read.size
            if size:
                min_one = False
                limit -= size
            results.append(FetchResult(f.topic, f.partition, ErrorCode.NONE, read))
        return results

    def fetch_messages(self, fetches: list[FetchPartition], max_bytes: int, min_bytes: int, max_wait_ms: int,
                       replica_id: int, respond: Callable[[list[FetchResult]], None],
                       isolation_level: int = 0, quota: ReplicaQuota = UNBOUNDED_QUOTA, quiet: bool = False) -> None:
        """Read for a follower (`replica_id` >= 0, to the log end) or a consumer (to the
        high watermark; to the last stable offset with `isolation_level` 1, read_committed).
        Fewer than min_bytes wait in the purgatory, which is checked on appends and
        high-watermark moves, the only events that move a last stable offset. `quota` is the
        leader's replication quota for a follower's fetch (Kafka's replicationQuota); `quiet`
        as read_from_local_log's (`respond` is called in the call that reads)."""
        if replica_id >= 0:
            for f in fetches:
                partition = self.partitions.get((f.topic, f.partition))
                if partition is None or not _follower_state_moves(partition, f):
                    continue
                if partition.update_follower_fetch(replica_id, f.fetch_offset):
                    self._high_watermark_moved(partition)
        isolation = FetchIsolation.of(replica_id, isolation_level)
        results = self.read_from_local_log(fetches, max_bytes, isolation, replica_id, quota, quiet)
        if max_wait_ms <= 0 or not fetches or _answer_now(results, min_bytes):
            respond(results)
            return
        op = DelayedFetch(self, fetches, max_bytes, min_bytes, max_wait_ms, isolation, respond, replica_id, quota,
                          quiet)
        self.fetch_purgatory.try_complete_else_watch(op, [(f.topic, f.partition) for f in fetches])

    async def stop_fetching(self) -> None:
        """Before a controlled shutdown: stop every replica fetcher and start none again.
        Leaders write ISRs to the store themselves (ZooKeeper mode before KIP-497), so the
        controller cannot refuse a shutting-down broker back into an ISR as Kafka's does
        through AlterPartition; a broker whose fetches have all been answered gives no
        leader a reason to."""
        self.fetching_stopped = True
        await asyncio.gather(*(fetcher.stop() for fetcher in self.fetchers.values()))
        self.fetchers.clear()

    def shutdown(self) -> None:
        for task in self.log_dir_moves.values():
            task.cancel()  # the future logs stay: the moves resume at the next start-up
        self.log_dir_moves.clear()
        for fetcher in self.fetchers.values():
            fetcher.close()
        self.fetchers.clear()
        if self.alter_partition is not None:
            self.alter_partition.close()
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
        """Partitions whose append the ISR has not acknowledged yet. The others get their
        answer set, as Kafka's Partition.checkEnoughReplicasReachOffset decides it: once the
        high watermark covers the append, the ISR must still hold min.insync.replicas
        members, or the ISR shrank after the append (NOT_ENOUGH_REPLICAS_AFTER_APPEND)."""
        pending = []
        for key in self.waiting:
            result = self.results[key]
            if result.error != ErrorCode.NONE:
                continue
            partition = self.manager.partitions.get(key)
            if key in self.manager.offline_partitions:
                result.error = ErrorCode.KAFKA_STORAGE_ERROR
            elif partition is None or not partition.is_leader:
                result.error = ErrorCode.NOT_LEADER_OR_FOLLOWER
            elif partition.high_watermark < result.required_offset:
                pending.append(key)
            elif len(partition.maximal_isr) < partition.log.config.min_insync_replicas:
                result.error = ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
                result.message = (f"The size of the current ISR {partition.maximal_isr} is insufficient to satisfy the "
                                  f"min.isr requirement of {partition.log.config.min_insync_replicas}")
        return pending

    def try_complete(self) -> bool:
        if not self._pending():
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        for key in self._pending():
            self.results[key].error = ErrorCode.REQUEST_TIMED_OUT
        self.respond(self.results)


def _follower_state_moves(partition: Partition, fetch: FetchPartition) -> bool:
    """Whether a follower's fetch may move its state here: not when its leader epoch is
    fenced or unknown, nor when its log left ours or cannot be placed (Kafka's fetchRecords
    throws before it updates the follower's state; the follower does not have what it
    asks after)."""
    try:
        partition.check_leader_epoch(fetch.current_leader_epoch)
        return not partition.is_leader or partition.diverging_epoch(fetch.last_fetched_epoch,
                                                                    fetch.fetch_offset) is None
    except KafkaError:
        return False


def _answer_now(results: list[FetchResult], min_bytes: int) -> bool:
    """Kafka's fetchMessages answers at once with min_bytes readable, an error, or a
    diverging epoch (the follower can take nothing before it truncates)."""
    return (sum(r.read.size for r in results if r.read is not None) >= min_bytes
            or any(r.error != ErrorCode.NONE or (r.read is not None and r.read.diverging_epoch is not None)
                   for r in results))


class DelayedFetch(DelayedOperation):
    """A fetch that waits until min_bytes are readable, a partition errors, or max_wait_ms.
    A follower's throttled partitions count no bytes while the leader's quota is exceeded."""

    def __init__(self, manager: ReplicaManager, fetches: list[FetchPartition], max_bytes: int, min_bytes: int,
                 max_wait_ms: int, isolation: FetchIsolation, respond: Callable[[list[FetchResult]], None],
                 replica_id: int = -1, quota: ReplicaQuota = UNBOUNDED_QUOTA, quiet: bool = False) -> None:
        super().__init__(max_wait_ms)
        self.manager = manager
        self.fetches = fetches
        self.max_bytes = max_bytes
        self.min_bytes = min_bytes
        self.isolation = isolation
        self.respond = respond
        self.replica_id = replica_id
        self.quota = quota
        self.quiet = quiet

    def try_complete(self) -> bool:
        # Only looked at, never answered: a consumer's empty partitions need no result built.
        if _answer_now(self.manager.read_from_local_log(self.fetches, self.max_bytes, self.isolation,
                                                        self.replica_id, self.quota, True), self.min_bytes):
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        self.respond(self.manager.read_from_local_log(self.fetches, self.max_bytes, self.isolation,
                                                      self.replica_id, self.quota, self.quiet))
