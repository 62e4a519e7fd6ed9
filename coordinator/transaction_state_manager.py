"""TransactionStateManager: the transactional ids of the __transaction_state partitions this
broker leads, loaded from and written to those partitions (Kafka's TransactionStateManager).

A partition is owned at the leader epoch at which this broker became its leader; that epoch is the coordinator
epoch written in every marker, so a partition leader can fence a deposed coordinator.
While a partition loads, its ids answer COORDINATOR_LOAD_IN_PROGRESS.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from josefk.coordinator.offsets_store import CoordinatorPartitions, partition_for, read_batches
from josefk.coordinator.record_io import RecordFormatError
from josefk.coordinator.transaction_log import (
    TRANSACTION_STATE_TOPIC,
    read_key,
    read_value,
    transaction_key,
    transaction_value,
    value_version,
)
from josefk.coordinator.transaction_metadata import TransactionMetadata, TransactionState, TxnTransit
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.utils.scheduler import Scheduler
from josefk.utils.time import Time

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CoordinatorEpochAndMetadata:
    coordinator_epoch: int
    metadata: TransactionMetadata


def _append_error(code: ErrorCode) -> ErrorCode:
    """How a failed write of transaction metadata reaches the client (appendTransactionToLog)."""
    if code in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_ENOUGH_REPLICAS,
                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, ErrorCode.REQUEST_TIMED_OUT):
        return ErrorCode.COORDINATOR_NOT_AVAILABLE
    if code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.KAFKA_STORAGE_ERROR):
        return ErrorCode.NOT_COORDINATOR
    if code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE):
        return ErrorCode.UNKNOWN_SERVER_ERROR
    return code


class TransactionStateManager:
    def __init__(self, broker_id: int, partitions: CoordinatorPartitions, num_partitions: int, time: Time,
                 scheduler: Scheduler, request_timeout_ms: int = 30_000,
                 transaction_version: Callable[[], int] = lambda: 0) -> None:
        """`transaction_version()`: the finalized transaction.version, which decides the
        value version written (Kafka's TransactionStateManager reads it the same way)."""
        self.broker_id = broker_id
        self.transaction_version = transaction_version
        self.partitions = partitions
        self.num_partitions = num_partitions  # transaction.state.log.num.partitions
        self.time = time
        self.scheduler = scheduler
        self.request_timeout_ms = request_timeout_ms
        self.owned: dict[int, int] = {}  # partition -> coordinator epoch
        self.loading: set[int] = set()
        self.transactions: dict[int, dict[str, TransactionMetadata]] = {}
        # Called with (partition, coordinator epoch, its transactions) once a load finishes.
        self.on_loaded: Callable[[int, int, list[TransactionMetadata]], None] = lambda p, e, t: None

    def partition_for(self, transactional_id: str) -> int:
        return partition_for(transactional_id, self.num_partitions)

    # -- ownership -------------------------------------------------------------------------

    def on_leadership_change(self) -> None:
        led = self.partitions.led_partitions(TRANSACTION_STATE_TOPIC)
        for p, epoch in led.items():
            if p not in self.owned and p not in self.loading:
                self.load_partition(p)
            elif p in self.owned and self.owned[p] != epoch:
                self.unload_partition(p)  # led again at a later epoch: reload what others wrote
                self.load_partition(p)
        for p in list(self.owned) + list(self.loading):
            if p not in led:
                self.unload_partition(p)

    def load_partition(self, partition: int) -> None:
        tp = (TRANSACTION_STATE_TOPIC, partition)
        epoch = self.partitions.leader_epoch(tp)
        if epoch is None:
            return
        log.info("[Transaction State Manager %d]: Loading transaction metadata from %s-%d at epoch %d",
                 self.broker_id, *tp, epoch)
        self.loading.add(partition)
        loaded: dict[str, TransactionMetadata] = {}
        chunks: Iterator[list[tuple]] = read_batches(self.partitions, tp)

        def step() -> None:
            if partition not in self.loading or self.partitions.leader_epoch(tp) != epoch:
                self.loading.discard(partition)
                return
            try:
                batches = next(chunks)
            except StopIteration:
                self._finish_load(partition, epoch, loaded)
                return
            except Exception:
                log.exception("Loading %s-%d failed", *tp)
                self.loading.discard(partition)
                return
            for header, records in batches:
                if header.is_control:
                    continue
                for record in records:
                    self._replay(loaded, record, partition)
            self.scheduler.call_soon(step)

        step()

    @staticmethod
    def _replay(loaded: dict[str, TransactionMetadata], record: Record, partition: int) -> None:
        if record.key is None:
            return
        try:
            tid = read_key(record.key)
            if record.value is None:
                loaded.pop(tid, None)
            else:
                loaded[tid] = read_value(record.value).to_metadata(tid)
        except (RecordFormatError, UnicodeDecodeError) as e:
            log.warning("Skipping unreadable record at offset %d of %s-%d: %s", record.offset,
                        TRANSACTION_STATE_TOPIC, partition, e)

    def _finish_load(self, partition: int, epoch: int, loaded: dict[str, TransactionMetadata]) -> None:
        self.loading.discard(partition)
        self.owned[partition] = epoch
        self.transactions[partition] = loaded
        log.info("[Transaction State Manager %d]: Finished loading %d transaction metadata from %s-%d",
                 self.broker_id, len(loaded), TRANSACTION_STATE_TOPIC, partition)
        self.on_loaded(partition, epoch, list(loaded.values()))

    def unload_partition(self, partition: int) -> None:
        self.loading.discard(partition)
        self.owned.pop(partition, None)
        self.transactions.pop(partition, None)
        log.info("[Transaction State Manager %d]: Unloaded transaction metadata of %s-%d", self.broker_id,
                 TRANSACTION_STATE_TOPIC, partition)

    # -- lookups -----------------------------------------------------------------------------

    def status(self, transactional_id: str) -> ErrorCode:
        p = self.partition_for(transactional_id)
        if p in self.loading:
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        if p not in self.owned:
            return ErrorCode.NOT_COORDINATOR
        return ErrorCode.NONE

    def get(self, transactional_id: str) -> tuple[ErrorCode, CoordinatorEpochAndMetadata | None]:
        """The id's metadata with the coordinator epoch, None if unknown; or why this broker
        cannot answer for it."""
        error = self.status(transactional_id)
        if error != ErrorCode.NONE:
            return error, None
        p = self.partition_for(transactional_id)
        metadata = self.transactions[p].get(transactional_id)
        return ErrorCode.NONE, None if metadata is None else CoordinatorEpochAndMetadata(self.owned[p], metadata)

    def put_if_absent(self, metadata: TransactionMetadata) -> CoordinatorEpochAndMetadata:
        p = self.partition_for(metadata.transactional_id)
        existing = self.transactions[p].setdefault(metadata.transactional_id, metadata)
        return CoordinatorEpochAndMetadata(self.owned[p], existing)

    def all_transactions(self) -> Iterator[tuple[int, TransactionMetadata]]:
        """(coordinator epoch, metadata) of every loaded id."""
        for p, txns in list(self.transactions.items()):
            epoch = self.owned.get(p)
            if epoch is not None:
                for metadata in list(txns.values()):
                    yield epoch, metadata

    def remove(self, transactional_id: str) -> None:
        self.transactions.get(self.partition_for(transactional_id), {}).pop(transactional_id, None)

    # -- writes ------------------------------------------------------------------------------

    def append(self, transactional_id: str, coordinator_epoch: int, transit: TxnTransit,
               done: Callable[[ErrorCode], None]) -> None:
        """Write `transit` (acks=all) and apply it to the metadata once written; `done` gets
        the error as the client should see it. If the partition changed hands meanwhile,
        nothing is applied and the answer is NOT_COORDINATOR."""
        p = self.partition_for(transactional_id)
        tp = (TRANSACTION_STATE_TOPIC, p)
        now = self.time.milliseconds()
        value = None if transit.state == TransactionState.DEAD \
            else transaction_value(transit, value_version(self.transaction_version()))
        batch = build_batch([Record(0, now, transaction_key(transactional_id), value)])

        def written(error: ErrorCode, message: str | None) -> None:
            current = self.transactions.get(p, {}).get(transactional_id)
            if self.owned.get(p) != coordinator_epoch or current is None:
                done(ErrorCode.NOT_COORDINATOR)
                return
            if error != ErrorCode.NONE:
                log.warning("Writing %s for transactional id %s to %s-%d failed: %s %s", transit.state.name,
                            transactional_id, *tp, error.name, message or "")
                current.abandon_transition()
                done(_append_error(error))
                return
            current.complete_transition(transit)
            if transit.state == TransactionState.DEAD:
                self.remove(transactional_id)
            done(ErrorCode.NONE)

        try:
            self.partitions.append(tp, batch, -1, now, self.request_timeout_ms, written)
        except Exception:  # a log failure must not leave the id pending forever
            log.exception("Writing transaction metadata of %s failed", transactional_id)
            written(ErrorCode.UNKNOWN_SERVER_ERROR, None)
