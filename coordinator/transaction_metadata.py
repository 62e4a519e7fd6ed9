"""TransactionMetadata: one transactional id's state and its transition table (Kafka's
TransactionMetadata and TransactionState).

A change is made in two steps, as in Kafka: a `prepare_*` method checks the transition,
marks it pending and returns the target (a `TxnTransit`), which is written to
__transaction_state; only once that write is acknowledged does `complete_transition`
apply it. While a transition is pending every other request for the id gets
CONCURRENT_TRANSACTIONS, so the log and memory never disagree about a committed state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

TopicPartition = tuple[str, int]

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
MAX_PRODUCER_EPOCH = 32767  # Short.MAX_VALUE


class TransactionState(enum.IntEnum):
    """The states, with the ids written in TransactionLogValue.TransactionStatus."""

    EMPTY = 0
    ONGOING = 1
    PREPARE_COMMIT = 2
    PREPARE_ABORT = 3
    COMPLETE_COMMIT = 4
    COMPLETE_ABORT = 5
    DEAD = 6
    PREPARE_EPOCH_FENCE = 7

    @property
    def display_name(self) -> str:
        """The name DescribeTransactions and ListTransactions answer with."""
        return _DISPLAY_NAMES[self]

    @classmethod
    def from_display_name(cls, name: str) -> TransactionState | None:
        return _BY_DISPLAY_NAME.get(name)


_DISPLAY_NAMES = {
    TransactionState.EMPTY: "Empty", TransactionState.ONGOING: "Ongoing",
    TransactionState.PREPARE_COMMIT: "PrepareCommit", TransactionState.PREPARE_ABORT: "PrepareAbort",
    TransactionState.COMPLETE_COMMIT: "CompleteCommit", TransactionState.COMPLETE_ABORT: "CompleteAbort",
    TransactionState.DEAD: "Dead", TransactionState.PREPARE_EPOCH_FENCE: "PrepareEpochFence",
}
_BY_DISPLAY_NAME = {name: state for state, name in _DISPLAY_NAMES.items()}

S = TransactionState
# Target state -> the states it may be entered from (Kafka's TransactionState.validPreviousStates).
VALID_PREVIOUS_STATES: dict[TransactionState, frozenset[TransactionState]] = {
    S.EMPTY: frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.ONGOING: frozenset({S.ONGOING, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.PREPARE_COMMIT: frozenset({S.ONGOING}),
    # Transactions v2 may abort with no transaction open: from Empty or a completed one.
    S.PREPARE_ABORT: frozenset({S.ONGOING, S.PREPARE_EPOCH_FENCE, S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.COMPLETE_COMMIT: frozenset({S.PREPARE_COMMIT}),
    S.COMPLETE_ABORT: frozenset({S.PREPARE_ABORT}),
    S.DEAD: frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT}),
    S.PREPARE_EPOCH_FENCE: frozenset({S.ONGOING}),
}
# States in which the coordinator still owes the partitions their markers.
PREPARED_STATES = frozenset({S.PREPARE_COMMIT, S.PREPARE_ABORT})
COMPLETED_STATES = frozenset({S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT})
# transaction.version levels (Kafka's TransactionVersion): 2 bumps the epoch at every end (KIP-890 part 2).
TV_0, TV_2 = 0, 2


class IllegalTransitionError(Exception):
    """A transition the table forbids: a coordinator bug, never a client's mistake."""


@dataclass(frozen=True)
class TxnTransit:
    """The metadata a prepared transition leads to (Kafka's TxnTransitMetadata): what is
    written to __transaction_state, and applied once written."""

    producer_id: int
    last_producer_id: int
    producer_epoch: int
    last_producer_epoch: int
    txn_timeout_ms: int
    state: TransactionState
    partitions: frozenset[TopicPartition]
    txn_start_timestamp: int
    txn_last_update_timestamp: int
    next_producer_id: int = NO_PRODUCER_ID  # transactions v2: the id a prepared end rotates to
    client_transaction_version: int = TV_0  # the transaction version of the client's last request


@dataclass
class TransactionMetadata:
    transactional_id: str
    producer_id: int
    last_producer_id: int
    producer_epoch: int
    last_producer_epoch: int
    txn_timeout_ms: int
    state: TransactionState
    partitions: set[TopicPartition] = field(default_factory=set)
    txn_start_timestamp: int = -1
    txn_last_update_timestamp: int = -1
    pending_state: TransactionState | None = None
    next_producer_id: int = NO_PRODUCER_ID
    client_transaction_version: int = TV_0

    @property
    def supports_epoch_bump(self) -> bool:
        """Whether the transaction runs on transactions v2 (Kafka's supportsEpochBump)."""
        return self.client_transaction_version >= TV_2

    @property
    def pending_transition_in_progress(self) -> bool:
        return self.pending_state is not None

    @property
    def is_producer_epoch_exhausted(self) -> bool:
        return self.producer_epoch >= MAX_PRODUCER_EPOCH - 1

    def is_valid_producer(self, producer_id: int, producer_epoch: int) -> bool:
        """KIP-360: an InitProducerId naming its current id and epoch may bump only if they are
        the current ones, or the ones just replaced (a retry)."""
        if producer_id == self.producer_id:
            return producer_epoch in (self.producer_epoch, self.last_producer_epoch)
        return producer_id == self.last_producer_id and producer_epoch == self.producer_epoch

    def _transit(self, state: TransactionState, now_ms: int, **changes: object) -> TxnTransit:
        if self.pending_state is not None:
            raise IllegalTransitionError(
                f"{self.transactional_id}: {state.name} while {self.pending_state.name} is pending")
        if self.state not in VALID_PREVIOUS_STATES[state]:
            raise IllegalTransitionError(f"{self.transactional_id}: {self.state.name} -> {state.name}")
        base = TxnTransit(self.producer_id, self.last_producer_id, self.producer_epoch, self.last_producer_epoch,
                          self.txn_timeout_ms, state, frozenset(self.partitions), self.txn_start_timestamp, now_ms,
                          self.next_producer_id, self.client_transaction_version)
        transit = replace(base, **changes)  # type: ignore[arg-type]
        self.pending_state = state
        return transit

    # -- prepare ---------------------------------------------------------------------------

    def prepare_increment_producer_epoch(self, timeout_ms: int, expected_epoch: int | None,
                                         now_ms: int) -> TxnTransit | None:
        """A new epoch for InitProducerId; None when `expected_epoch` shows the caller is fenced.
        A retry naming the epoch just replaced gets the current epoch again."""
        if expected_epoch is None or expected_epoch == self.producer_epoch or self.producer_epoch == NO_PRODUCER_EPOCH:
            epoch, last_epoch = self.producer_epoch + 1, self.producer_epoch
        elif expected_epoch == self.last_producer_epoch and self.last_producer_epoch != NO_PRODUCER_EPOCH:
            epoch, last_epoch = self.producer_epoch, self.last_producer_epoch
        else:
            return None
        return self._transit(S.EMPTY, now_ms, producer_epoch=epoch, last_producer_epoch=last_epoch,
                             txn_timeout_ms=timeout_ms, partitions=frozenset(), txn_start_timestamp=-1)

    def prepare_producer_id_rotation(self, new_producer_id: int, timeout_ms: int, now_ms: int,
                                     record_last_epoch: bool) -> TxnTransit:
        """The epoch is exhausted: a fresh producer id at epoch 0."""
        return self._transit(S.EMPTY, now_ms, producer_id=new_producer_id, last_producer_id=self.producer_id,
                             producer_epoch=0,
                             last_producer_epoch=self.producer_epoch if record_last_epoch else NO_PRODUCER_EPOCH,
                             txn_timeout_ms=timeout_ms, partitions=frozenset(), txn_start_timestamp=-1)

    def prepare_fence_producer_epoch(self) -> int:
        """Bump the epoch in memory so the running producer is fenced, before aborting its
        transaction (an InitProducerId from a new instance, or the transaction timed out).
        Returns the epoch the abort is written with."""
        if self.pending_state is not None or self.state not in VALID_PREVIOUS_STATES[S.PREPARE_EPOCH_FENCE]:
            raise IllegalTransitionError(f"{self.transactional_id}: fence from {self.state.name}")
        self.pending_state = S.PREPARE_EPOCH_FENCE
        # An exhausted epoch is not bumped; the abort's InitProducerId then rotates the id.
        return self.producer_epoch if self.producer_epoch >= MAX_PRODUCER_EPOCH else self.producer_epoch + 1

    def prepare_add_partitions(self, partitions: set[TopicPartition], now_ms: int,
                               client_transaction_version: int = TV_0) -> TxnTransit:
        """The client's transaction version is recorded: a v2 producer's partitions are added
        by their leaders (Produce v12+), and the transaction then ends the v2 way."""
        if self.state in (S.EMPTY, S.COMPLETE_COMMIT, S.COMPLETE_ABORT):
            return self._transit(S.ONGOING, now_ms, partitions=frozenset(partitions), txn_start_timestamp=now_ms,
                                 client_transaction_version=client_transaction_version)
        return self._transit(S.ONGOING, now_ms, partitions=frozenset(self.partitions | partitions),
                             client_transaction_version=client_transaction_version)

    def prepare_abort_or_commit(self, commit: bool, now_ms: int, fence_epoch: int | None = None) -> TxnTransit:
        """PrepareCommit or PrepareAbort. `fence_epoch` (an abort after prepare_fence_producer_epoch)
        replaces the pending fence and writes the bumped epoch."""
        if fence_epoch is not None:
            self.pending_state = None
            self.producer_epoch = fence_epoch
            self.last_producer_epoch = NO_PRODUCER_EPOCH
        return self._transit(S.PREPARE_COMMIT if commit else S.PREPARE_ABORT, now_ms)

    def prepare_end_v2(self, commit: bool, now_ms: int, next_producer_id: int, no_partition_added: bool,
                       fence_epoch: int | None = None) -> TxnTransit:
        """PrepareCommit or PrepareAbort on transactions v2 (Kafka's prepareAbortOrCommit with
        TV_2): the epoch is bumped, fencing the producer's late writes, and the epoch before
        it kept as the last; `next_producer_id` (not NO_PRODUCER_ID when the bump exhausts the
        epoch) becomes the producer id when the transaction completes. An abort with no
        transaction open starts at `now_ms`. `fence_epoch` as in prepare_abort_or_commit."""
        if fence_epoch is not None:
            self.pending_state = None
            self.producer_epoch = fence_epoch
            self.last_producer_epoch = NO_PRODUCER_EPOCH
        epoch = self.producer_epoch
        if not (epoch == MAX_PRODUCER_EPOCH and not commit):  # a broken epoch still aborts, without overflow
            epoch += 1
        return self._transit(S.PREPARE_COMMIT if commit else S.PREPARE_ABORT, now_ms, producer_epoch=epoch,
                             last_producer_epoch=self.producer_epoch, next_producer_id=next_producer_id,
                             client_transaction_version=TV_2,
                             txn_start_timestamp=now_ms if no_partition_added else self.txn_start_timestamp)

    def prepare_complete(self, now_ms: int) -> TxnTransit:
        """CompleteCommit or CompleteAbort. On transactions v2 a prepared producer id rotation
        happens here: the new id at epoch 0, the old one kept as the last."""
        state = S.COMPLETE_COMMIT if self.state == S.PREPARE_COMMIT else S.COMPLETE_ABORT
        if self.supports_epoch_bump and self.next_producer_id != NO_PRODUCER_ID:
            return self._transit(state, now_ms, partitions=frozenset(), producer_id=self.next_producer_id,
                                 last_producer_id=self.producer_id, producer_epoch=0,
                                 next_producer_id=NO_PRODUCER_ID)
        return self._transit(state, now_ms, partitions=frozenset(), next_producer_id=NO_PRODUCER_ID)

    def prepare_dead(self, now_ms: int) -> TxnTransit:
        """transactional.id.expiration.ms passed: the id is forgotten (a tombstone)."""
        return self._transit(S.DEAD, now_ms, partitions=frozenset())

    # -- apply -------------------------------------------------------------------------------

    def complete_transition(self, transit: TxnTransit) -> None:
        """The transit's record is in the log: make it the state."""
        if self.pending_state != transit.state:
            raise IllegalTransitionError(
                f"{self.transactional_id}: completing {transit.state.name}, pending {self.pending_state}")
        self.producer_id = transit.producer_id
        self.last_producer_id = transit.last_producer_id
        self.producer_epoch = transit.producer_epoch
        self.last_producer_epoch = transit.last_producer_epoch
        self.txn_timeout_ms = transit.txn_timeout_ms
        self.state = transit.state
        self.partitions = set(transit.partitions)
        self.txn_start_timestamp = transit.txn_start_timestamp
        self.txn_last_update_timestamp = transit.txn_last_update_timestamp
        self.next_producer_id = transit.next_producer_id
        self.client_transaction_version = transit.client_transaction_version
        self.pending_state = None

    def abandon_transition(self) -> None:
        """The write failed: nothing changed, the id is free for the next request."""
        self.pending_state = None
