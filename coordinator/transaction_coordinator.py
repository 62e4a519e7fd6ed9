"""TransactionCoordinator: the transactional producer's side of exactly-once (Kafka's
TransactionCoordinator).

InitProducerId gives a transactional id its producer id and a new epoch, fencing any older
instance; AddPartitionsToTxn / AddOffsetsToTxn record the partitions a transaction writes
to; EndTxn writes PrepareCommit or PrepareAbort, answers, then has the markers written to
every partition (TxnMarkerSender) and finally writes CompleteCommit or CompleteAbort. Every
state change is first written to __transaction_state (TransactionStateManager) and only
then applied. Transactions older than their timeout are aborted with a bumped epoch, which
fences their producer. Everything runs on the event loop; time and timers are injected.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from josefk.coordinator.transaction_marker_channel import TxnMarkerSender
from josefk.coordinator.transaction_metadata import (
    MAX_PRODUCER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    PREPARED_STATES,
    TV_0,
    TransactionMetadata,
    TransactionState,
    TxnTransit,
)
from josefk.coordinator.transaction_state_manager import TransactionStateManager
from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import ScheduledTask, Scheduler
from josefk.utils.time import Time

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
S = TransactionState


@dataclass(frozen=True)
class TransactionConfig:
    """The transaction.* broker configs the coordinator reads."""

    max_timeout_ms: int = 900_000  # transaction.max.timeout.ms
    abort_interval_ms: int = 10_000  # transaction.abort.timed.out.transaction.cleanup.interval.ms
    id_expiration_ms: int = 604_800_000  # transactional.id.expiration.ms
    remove_expired_interval_ms: int = 3_600_000  # transaction.remove.expired.transaction.cleanup.interval.ms


InitCallback = Callable[[ErrorCode, int, int], None]  # error, producer id, epoch
ErrorCallback = Callable[[ErrorCode], None]
EndTxnCallback = Callable[[ErrorCode, int, int], None]  # transactions v2: error, producer id, epoch


@dataclass(frozen=True)
class TransactionDescription:
    """One id as DescribeTransactions and ListTransactions report it."""

    transactional_id: str
    state: TransactionState
    timeout_ms: int
    start_timestamp: int
    producer_id: int
    producer_epoch: int
    partitions: frozenset[TopicPartition]


class TransactionCoordinator:
    def __init__(self, broker_id: int, state_manager: TransactionStateManager, markers: TxnMarkerSender,
                 config: TransactionConfig, time: Time, scheduler: Scheduler) -> None:
        self.broker_id = broker_id
        self.state = state_manager
        self.markers = markers
        self.config = config
        self.time = time
        self.scheduler = scheduler
        self.active = False
        self._timers: list[ScheduledTask] = []
        state_manager.on_loaded = self._on_partition_loaded

    # -- lifecycle ---------------------------------------------------------------------------

    def startup(self) -> None:
        self.active = True
        self._timers = [self.scheduler.schedule(self.config.abort_interval_ms, self._abort_timer),
                        self.scheduler.schedule(self.config.remove_expired_interval_ms, self._expire_timer)]
        log.info("[TransactionCoordinator id=%d] Startup complete.", self.broker_id)

    def shutdown(self) -> None:
        self.active = False
        for timer in self._timers:
            timer.cancel()
        for p in list(self.state.owned) + list(self.state.loading):
            self.state.unload_partition(p)
        log.info("[TransactionCoordinator id=%d] Shutdown complete.", self.broker_id)

    def on_leadership_change(self) -> None:
        self.state.on_leadership_change()

    def _on_partition_loaded(self, partition: int, coordinator_epoch: int, txns: list[TransactionMetadata]) -> None:
        """A newly led partition may hold transactions whose markers its previous coordinator
        did not finish: finish them (Kafka's loadTransactionsForTxnTopicPartition)."""
        for metadata in txns:
            if metadata.state in PREPARED_STATES and metadata.pending_state is None:
                log.info("Completing the %s of %s left by the previous coordinator", metadata.state.name,
                         metadata.transactional_id)
                self._send_markers(coordinator_epoch, metadata)

    # -- InitProducerId ------------------------------------------------------------------------

    def wants_producer_id(self, transactional_id: str) -> bool:
        """Whether InitProducerId for this id will need a fresh producer id (a new id, or an
        exhausted epoch): the caller draws one from the ProducerIdManager first."""
        error, found = self.state.get(transactional_id)
        return error == ErrorCode.NONE and (found is None or found.metadata.is_producer_epoch_exhausted)

    def init_producer_id(self, transactional_id: str, timeout_ms: int, expected: tuple[int, int] | None,
                         new_producer_id: int, respond: InitCallback,
                         allocation_error: ErrorCode = ErrorCode.NONE) -> None:
        """`expected` is the (producer id, epoch) the producer had (KIP-360), None for a new one;
        `new_producer_id` is used if the id needs one (see wants_producer_id). If it is
        NO_PRODUCER_ID, `allocation_error` says why, and is the answer when an id is needed
        (Kafka answers the allocation's own error: COORDINATOR_LOAD_IN_PROGRESS while no
        block can be had, which clients retry)."""
        no_producer_id = allocation_error if allocation_error != ErrorCode.NONE \
            else ErrorCode.COORDINATOR_LOAD_IN_PROGRESS  # none drawn, yet one is needed: retriable
        if not transactional_id:
            respond(ErrorCode.INVALID_REQUEST, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        if timeout_ms <= 0 or timeout_ms > self.config.max_timeout_ms:
            respond(ErrorCode.INVALID_TRANSACTION_TIMEOUT, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        error, found = self.state.get(transactional_id)
        if error != ErrorCode.NONE:
            respond(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        if found is None:
            if new_producer_id < 0:
                respond(no_producer_id, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
                return
            now = self.time.milliseconds()
            found = self.state.put_if_absent(TransactionMetadata(
                transactional_id, new_producer_id, NO_PRODUCER_ID, NO_PRODUCER_EPOCH, NO_PRODUCER_EPOCH, timeout_ms,
                S.EMPTY, set(), -1, now))
        metadata, coordinator_epoch = found.metadata, found.coordinator_epoch
        now = self.time.milliseconds()
        if expected is not None and not metadata.is_valid_producer(*expected):
            respond(ErrorCode.PRODUCER_FENCED, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        if metadata.pending_transition_in_progress or metadata.state in PREPARED_STATES:
            respond(ErrorCode.CONCURRENT_TRANSACTIONS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        if metadata.state == S.ONGOING:
            # A new instance took over the id: fence the old one and abort its transaction;
            # the caller retries until the abort is complete.
            self._fence_and_abort(metadata, coordinator_epoch)
            respond(ErrorCode.CONCURRENT_TRANSACTIONS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        transit: TxnTransit | None
        if metadata.is_producer_epoch_exhausted and (expected is None or expected[1] == metadata.producer_epoch):
            if new_producer_id < 0:
                respond(no_producer_id, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
                return
            transit = metadata.prepare_producer_id_rotation(new_producer_id, timeout_ms, now, expected is not None)
        else:
            transit = metadata.prepare_increment_producer_epoch(timeout_ms, None if expected is None else expected[1],
                                                                now)
            if transit is None:
                respond(ErrorCode.PRODUCER_FENCED, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
                return
        written = transit

        def done(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                respond(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            else:
                log.info("Initialized transactionalId %s with producerId %d and producer epoch %d",
                         transactional_id, written.producer_id, written.producer_epoch)
                respond(ErrorCode.NONE, written.producer_id, written.producer_epoch)

        self.state.append(transactional_id, coordinator_epoch, transit, done)

    # -- AddPartitionsToTxn / AddOffsetsToTxn ----------------------------------------------------

    def _check_producer(self, transactional_id: str, producer_id: int, producer_epoch: int
                        ) -> tuple[ErrorCode, TransactionMetadata | None, int]:
        error, found = self.state.get(transactional_id)
        if error != ErrorCode.NONE:
            return error, None, -1
        if found is None:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING, None, -1
        metadata = found.metadata
        if metadata.producer_id != producer_id:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING, None, -1
        if metadata.producer_epoch != producer_epoch:
            return ErrorCode.PRODUCER_FENCED, None, -1
        return ErrorCode.NONE, metadata, found.coordinator_epoch

    def add_partitions(self, transactional_id: str, producer_id: int, producer_epoch: int,
                       partitions: set[TopicPartition], respond: ErrorCallback,
                       client_transaction_version: int = TV_0) -> None:
        """`client_transaction_version`: 2 when a partition leader adds the partitions for a
        producer on transactions v2 (Produce v12+), as Kafka reads it from the request."""
        error, metadata, coordinator_epoch = self._check_producer(transactional_id, producer_id, producer_epoch)
        if metadata is None:
            respond(error)
            return
        if metadata.pending_transition_in_progress or metadata.state in PREPARED_STATES:
            respond(ErrorCode.CONCURRENT_TRANSACTIONS)
            return
        if metadata.state == S.ONGOING and partitions <= metadata.partitions:
            respond(ErrorCode.NONE)
            return
        transit = metadata.prepare_add_partitions(partitions, self.time.milliseconds(), client_transaction_version)
        self.state.append(transactional_id, coordinator_epoch, transit, respond)

    def verify_partitions(self, transactional_id: str, producer_id: int, producer_epoch: int,
                          partitions: set[TopicPartition]) -> tuple[ErrorCode, dict[TopicPartition, ErrorCode]]:
        """AddPartitionsToTxn v4+ verify_only (KIP-890): which partitions the transaction
        already has; the others get INVALID_TXN_STATE. As Kafka's, a pending transition is
        not looked at: partitions join when their addition is written and leave when the
        transaction completes, and a marker racing the answer is caught by the leader's
        verification guard. A transaction being ended is CONCURRENT_TRANSACTIONS."""
        error, metadata, _ = self._check_producer(transactional_id, producer_id, producer_epoch)
        if metadata is None:
            return error, {}
        if metadata.state in PREPARED_STATES:
            return ErrorCode.CONCURRENT_TRANSACTIONS, {}
        return ErrorCode.NONE, {tp: ErrorCode.NONE if tp in metadata.partitions else ErrorCode.INVALID_TXN_STATE
                                for tp in partitions}

    # -- EndTxn --------------------------------------------------------------------------------

    def end_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int, commit: bool,
                        respond: ErrorCallback) -> None:
        if not transactional_id:
            respond(ErrorCode.INVALID_REQUEST)
            return
        error, found = self.state.get(transactional_id)
        if error != ErrorCode.NONE:
            respond(error)
            return
        if found is None:
            respond(ErrorCode.INVALID_PRODUCER_ID_MAPPING)
            return
        self._end_transaction(found.metadata, found.coordinator_epoch, producer_id, producer_epoch, commit,
                              from_client=True, respond=respond)

    def _end_transaction(self, metadata: TransactionMetadata, coordinator_epoch: int, producer_id: int,
                         producer_epoch: int, commit: bool, from_client: bool, respond: ErrorCallback) -> None:
        if metadata.producer_id != producer_id:
            respond(ErrorCode.INVALID_PRODUCER_ID_MAPPING)
            return
        if (from_client and producer_epoch != metadata.producer_epoch) or producer_epoch < metadata.producer_epoch:
            respond(ErrorCode.PRODUCER_FENCED)
            return
        fencing = metadata.pending_state == S.PREPARE_EPOCH_FENCE
        if metadata.pending_transition_in_progress and not fencing:
            respond(ErrorCode.CONCURRENT_TRANSACTIONS)
            return
        state = metadata.state
        if state == S.ONGOING:
            transit = metadata.prepare_abort_or_commit(commit, self.time.milliseconds(),
                                                       fence_epoch=producer_epoch if fencing and not commit else None)
        else:
            respond(self._end_error(state, commit))
            return

        def prepared(error: ErrorCode) -> None:
            respond(error)
            if error == ErrorCode.NONE:
                self._send_markers(coordinator_epoch, metadata)

        self.state.append(metadata.transactional_id, coordinator_epoch, transit, prepared)

    def _fence_and_abort(self, metadata: TransactionMetadata, coordinator_epoch: int) -> None:
        """Fence the running producer with a bumped epoch and abort its transaction (a new
        instance took over the id, or the transaction timed out), the v2 way for a v2 one."""
        fence_epoch = metadata.prepare_fence_producer_epoch()
        if metadata.supports_epoch_bump:
            self._end_transaction_v2(metadata, coordinator_epoch, metadata.producer_id, fence_epoch, False,
                                     from_client=False, new_producer_id=NO_PRODUCER_ID,
                                     allocation_error=ErrorCode.NONE, respond=lambda e, p, ep: None)
        else:
            self._end_transaction(metadata, coordinator_epoch, metadata.producer_id, fence_epoch, False,
                                  from_client=False, respond=lambda e: None)

    # -- EndTxn on transactions v2 (KIP-890 part 2) ---------------------------------------------

    def end_wants_producer_id(self, transactional_id: str) -> bool:
        """Whether EndTxn v5 for this id may need a fresh producer id: its epoch bump would
        exhaust the epoch. The caller draws one from the ProducerIdManager first."""
        error, found = self.state.get(transactional_id)
        return error == ErrorCode.NONE and found is not None and found.metadata.is_producer_epoch_exhausted

    def end_transaction_v2(self, transactional_id: str, producer_id: int, producer_epoch: int, commit: bool,
                           new_producer_id: int, respond: EndTxnCallback,
                           allocation_error: ErrorCode = ErrorCode.NONE) -> None:
        """EndTxn v5 (Kafka's endTransaction with TV_2): the end bumps the epoch and answers
        the producer id and epoch the producer goes on with; `new_producer_id` (see
        end_wants_producer_id) replaces an exhausted id, or `allocation_error` says why none
        was drawn. A retry of an end already done is recognised by the epoch it names, one
        below the current (or the last of the previous id after a rotation), and answered
        with the current id and epoch; any other epoch is fenced."""
        if not transactional_id:
            respond(ErrorCode.INVALID_REQUEST, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        error, found = self.state.get(transactional_id)
        if error != ErrorCode.NONE:
            respond(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        if found is None:
            respond(ErrorCode.INVALID_PRODUCER_ID_MAPPING, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
            return
        self._end_transaction_v2(found.metadata, found.coordinator_epoch, producer_id, producer_epoch, commit,
                                 from_client=True, new_producer_id=new_producer_id,
                                 allocation_error=allocation_error, respond=respond)

    def _end_transaction_v2(self, metadata: TransactionMetadata, coordinator_epoch: int, producer_id: int,
                            producer_epoch: int, commit: bool, from_client: bool, new_producer_id: int,
                            allocation_error: ErrorCode, respond: EndTxnCallback) -> None:
        m = metadata
        fencing = m.pending_state == S.PREPARE_EPOCH_FENCE
        retry_on_overflow = (not fencing and m.last_producer_id == producer_id
                             and producer_epoch == MAX_PRODUCER_EPOCH - 1 and m.producer_epoch == 0)
        retry_on_bump = not fencing and m.producer_epoch == producer_epoch + 1
        if fencing:
            valid_epoch = (not from_client or producer_epoch == m.producer_epoch) and producer_epoch >= m.producer_epoch
        elif m.state in PREPARED_STATES:
            valid_epoch = retry_on_bump
        elif m.state in (S.COMPLETE_COMMIT, S.COMPLETE_ABORT):
            valid_epoch = retry_on_bump or retry_on_overflow or producer_epoch == m.producer_epoch
        else:
            valid_epoch = producer_epoch == m.producer_epoch
        retry = retry_on_bump or retry_on_overflow

        def refuse(error: ErrorCode) -> None:
            respond(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)

        if m.producer_id != producer_id and not retry_on_overflow:
            refuse(ErrorCode.INVALID_PRODUCER_ID_MAPPING)
        elif not valid_epoch:
            refuse(ErrorCode.PRODUCER_FENCED)
        elif m.pending_transition_in_progress and not fencing:
            refuse(ErrorCode.CONCURRENT_TRANSACTIONS)
        elif m.state == S.ONGOING:
            self._prepare_end_v2(m, coordinator_epoch, commit, False, fencing, producer_epoch, new_producer_id,
                                 allocation_error, respond)
        elif m.state in (S.COMPLETE_COMMIT, S.COMPLETE_ABORT, S.EMPTY):
            done = S.COMPLETE_COMMIT if commit else S.COMPLETE_ABORT
            if retry and m.state == done:
                respond(ErrorCode.NONE, m.producer_id, m.producer_epoch)
            elif commit or retry:
                refuse(ErrorCode.INVALID_TXN_STATE)
            else:  # an abort with no transaction open: bumps the epoch all the same
                self._prepare_end_v2(m, coordinator_epoch, False, True, fencing, producer_epoch, new_producer_id,
                                     allocation_error, respond)
        else:
            refuse(self._end_error(m.state, commit))

    def _prepare_end_v2(self, m: TransactionMetadata, coordinator_epoch: int, commit: bool, no_partition_added: bool,
                        fencing: bool, producer_epoch: int, new_producer_id: int, allocation_error: ErrorCode,
                        respond: EndTxnCallback) -> None:
        next_producer_id = NO_PRODUCER_ID
        if not fencing and m.is_producer_epoch_exhausted:
            if new_producer_id < 0:
                respond(allocation_error if allocation_error != ErrorCode.NONE
                        else ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
                return
            next_producer_id = new_producer_id
        transit = m.prepare_end_v2(commit, self.time.milliseconds(), next_producer_id, no_partition_added,
                                   fence_epoch=producer_epoch if fencing else None)

        def prepared(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                respond(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
                return
            # What the Complete record will hold: the id and epoch the producer goes on with.
            if m.next_producer_id != NO_PRODUCER_ID:
                respond(ErrorCode.NONE, m.next_producer_id, 0)
            else:
                respond(ErrorCode.NONE, m.producer_id, m.producer_epoch)
            self._send_markers(coordinator_epoch, m)

        self.state.append(m.transactional_id, coordinator_epoch, transit, prepared)

    @staticmethod
    def _end_error(state: TransactionState, commit: bool) -> ErrorCode:
        """EndTxn outside Ongoing: a retry of an end already done succeeds; one in progress
        is CONCURRENT_TRANSACTIONS; the opposite result, or no transaction, is INVALID_TXN_STATE."""
        if state == (S.COMPLETE_COMMIT if commit else S.COMPLETE_ABORT):
            return ErrorCode.NONE
        if state == (S.PREPARE_COMMIT if commit else S.PREPARE_ABORT):
            return ErrorCode.CONCURRENT_TRANSACTIONS
        return ErrorCode.INVALID_TXN_STATE

    def _send_markers(self, coordinator_epoch: int, metadata: TransactionMetadata) -> None:
        """Send the markers with CompleteCommit / CompleteAbort already pending, as Kafka does:
        until they are all written, every request for the id gets CONCURRENT_TRANSACTIONS."""
        commit = metadata.state == S.PREPARE_COMMIT
        tid = metadata.transactional_id
        partitions = frozenset(metadata.partitions)
        transit = metadata.prepare_complete(self.time.milliseconds())

        def markers_written(ok: bool) -> None:
            if self.state.owned.get(self.state.partition_for(tid)) != coordinator_epoch:
                return  # unloaded meanwhile: the partition's next coordinator finishes it
            if not ok:
                metadata.abandon_transition()  # fenced: left prepared for whoever owns it now
                return
            self.state.append(tid, coordinator_epoch, transit, lambda error: self._completed(
                metadata, coordinator_epoch, error))

        self.markers.send_markers(tid, coordinator_epoch, metadata.producer_id, metadata.producer_epoch, commit,
                                  partitions, markers_written)

    def _completed(self, metadata: TransactionMetadata, coordinator_epoch: int, error: ErrorCode) -> None:
        """The Complete record is written, or its write failed: then it is retried while this
        broker coordinates the id, since the transaction must not stay prepared."""
        if error in (ErrorCode.NONE, ErrorCode.NOT_COORDINATOR):
            return
        self.scheduler.schedule(100, self._retry_complete, metadata, coordinator_epoch)

    def _retry_complete(self, metadata: TransactionMetadata, coordinator_epoch: int) -> None:
        if (self.state.owned.get(self.state.partition_for(metadata.transactional_id)) != coordinator_epoch
                or metadata.pending_state is not None or metadata.state not in PREPARED_STATES):
            return
        transit = metadata.prepare_complete(self.time.milliseconds())
        self.state.append(metadata.transactional_id, coordinator_epoch, transit,
                          lambda error: self._completed(metadata, coordinator_epoch, error))

    # -- timeouts and expiry ---------------------------------------------------------------------

    def _abort_timer(self) -> None:
        self.abort_timed_out_transactions()
        self._timers[0] = self.scheduler.schedule(self.config.abort_interval_ms, self._abort_timer)

    def abort_timed_out_transactions(self) -> list[str]:
        """Abort every Ongoing transaction older than its timeout, fencing its producer with a
        bumped epoch (Kafka's abortTimedOutTransactions). Returns the ids aborted."""
        now = self.time.milliseconds()
        aborted = []
        for coordinator_epoch, metadata in self.state.all_transactions():
            if (metadata.state != S.ONGOING or metadata.pending_transition_in_progress
                    or metadata.txn_start_timestamp + metadata.txn_timeout_ms >= now):
                continue
            log.info("Aborting transaction %s (producer id %d, epoch %d): it exceeded its timeout of %d ms",
                     metadata.transactional_id, metadata.producer_id, metadata.producer_epoch,
                     metadata.txn_timeout_ms)
            self._fence_and_abort(metadata, coordinator_epoch)
            aborted.append(metadata.transactional_id)
        return aborted

    def _expire_timer(self) -> None:
        self.expire_transactional_ids()
        self._timers[1] = self.scheduler.schedule(self.config.remove_expired_interval_ms, self._expire_timer)

    def expire_transactional_ids(self) -> list[str]:
        """Forget ids idle in a completed state for transactional.id.expiration.ms (a tombstone)."""
        now = self.time.milliseconds()
        expired = []
        for coordinator_epoch, metadata in self.state.all_transactions():
            if (metadata.state in (S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT)
                    and not metadata.pending_transition_in_progress
                    and metadata.txn_last_update_timestamp + self.config.id_expiration_ms <= now):
                transit = metadata.prepare_dead(now)
                self.state.append(metadata.transactional_id, coordinator_epoch, transit, lambda e: None)
                expired.append(metadata.transactional_id)
        return expired

    # -- DescribeTransactions / ListTransactions ----------------------------------------------

    def describe(self, transactional_id: str) -> tuple[ErrorCode, TransactionDescription | None]:
        error, found = self.state.get(transactional_id)
        if error != ErrorCode.NONE:
            return error, None
        if found is None:
            return ErrorCode.TRANSACTIONAL_ID_NOT_FOUND, None
        return ErrorCode.NONE, self._description(found.metadata)

    @staticmethod
    def _description(m: TransactionMetadata) -> TransactionDescription:
        return TransactionDescription(m.transactional_id, m.state, m.txn_timeout_ms, m.txn_start_timestamp,
                                      m.producer_id, m.producer_epoch, frozenset(m.partitions))

    def list_transactions(self, states: set[TransactionState] | None, producer_ids: set[int] | None,
                          min_duration_ms: int = -1) -> tuple[ErrorCode, list[TransactionDescription]]:
        """The ids this broker coordinates, filtered as ListTransactions asks (empty filters match all)."""
        if self.state.loading:
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, []
        now = self.time.milliseconds()
        found = []
        for _, m in self.state.all_transactions():
            if m.state == S.DEAD or (states and m.state not in states):
                continue
            if producer_ids and m.producer_id not in producer_ids:
                continue
            if min_duration_ms >= 0 and now - m.txn_start_timestamp <= min_duration_ms:
                continue
            found.append(self._description(m))
        return ErrorCode.NONE, sorted(found, key=lambda d: d.transactional_id)
