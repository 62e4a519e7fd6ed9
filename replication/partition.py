"""Partition: one topic-partition's replica on this broker, leader or follower.

It owns the leader epoch, the ISR and the high watermark. The high watermark is the
offset below which every in-sync replica has the data; consumers never read above it,
and read_committed consumers not above the last stable offset (the log derives it from
the high watermark, which is why the log holds the high watermark for the partition).
The leader tracks each follower's log end offset from its fetches, shrinks the ISR when a
follower falls behind for replica.lag.time.max.ms and expands it when one catches up.
"""

from __future__ import annotations

import enum
import logging
import uuid
from dataclasses import dataclass, field
from typing import Protocol

from josefk.log.log import (
    EARLIEST_LOCAL_TIMESTAMP,
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
    AppendOrigin,
    Log,
)
from josefk.log.partition_metadata import kafka_uuid
from josefk.log.producer_state import VerificationGuard
from josefk.log.transaction_index import AbortedTxn
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.zk_data import PartitionState

log = logging.getLogger(__name__)
# Kafka's state.change.logger: leadership changes, in state-change.log.
state_change_log = logging.getLogger("state.change.logger")

LATEST_TIERED_TIMESTAMP = -5  # ListOffsets v9: josefk has no tiered storage, so never an offset
EARLIEST_PENDING_UPLOAD_TIMESTAMP = -6  # ListOffsets v11 (KIP-1023): likewise never an offset


class FetchIsolation(enum.Enum):
    """How far a read may go (Kafka's FetchIsolation): followers to the log end, consumers
    to the high watermark, read_committed consumers to the last stable offset."""

    LOG_END = "log_end"
    HIGH_WATERMARK = "high_watermark"
    TXN_COMMITTED = "txn_committed"

    @staticmethod
    def of(replica_id: int, isolation_level: int) -> FetchIsolation:
        if replica_id >= 0:
            return FetchIsolation.LOG_END
        return FetchIsolation.TXN_COMMITTED if isolation_level == 1 else FetchIsolation.HIGH_WATERMARK


# AlterPartition errors that say the leader's view of the partition is stale: Kafka's leader
# (Partition.handleAlterPartitionError) then keeps its change pending until a LeaderAndIsr
# brings the latest state. Sent again before that, the change could only be refused again,
# once per follower fetch.
AWAIT_METADATA = frozenset({ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.INVALID_UPDATE_VERSION,
                            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID,
                            ErrorCode.INVALID_REQUEST, ErrorCode.NEW_LEADER_ELECTED})

@dataclass
class ReadResult:
    regions: list  # josefk.log FileRegion objects
    high_watermark: int
    log_start_offset: int
    log_end_offset: int
    last_stable_offset: int = -1
    aborted_transactions: list[AbortedTxn] | None = field(default=None)  # read_committed only
    # (epoch, end offset) where a follower's log diverged from ours (Fetch v12+, KIP-320)
    diverging_epoch: tuple[int, int] | None = None

    @property
    def size(self) -> int:
        return sum(r.size for r in self.regions)


@dataclass(frozen=True)
class TimestampAndOffset:
    """One ListOffsets answer (Kafka's FileRecords.TimestampAndOffset); timestamp is -1
    for the special timestamps, which name an offset rather than find a record."""

    timestamp: int
    offset: int
    leader_epoch: int


@dataclass
class FollowerState:
    log_end_offset: int = -1
    last_caught_up_ms: int = 0


class IsrChangeSender(Protocol):
    """Sends a leader's ISR change to where ISRs are decided (the partition state in
    ZooKeeper, as Kafka before 2.7 wrote it; the controller's AlterPartition since, see
    replication/alter_partition.py). It must not block: the outcome comes back later
    through Partition.complete_isr_change."""

    def submit(self, partition: Partition, new_isr: list[int]) -> None: ...


class Partition:
    def __init__(self, topic: str, partition: int, broker_id: int, log_: Log, isr_sender: IsrChangeSender,
                 time: Time = SYSTEM_TIME) -> None:
        """`time` times followers' lag (its monotonic clock: a wall-clock step must not
        shrink the ISR)."""
        self.topic = topic
        self.partition = partition
        self.broker_id = broker_id
        self.log = log_
        self.isr_sender = isr_sender
        self.time = time
        self.leader_id = -1
        self.leader_epoch = -1
        # The leader epoch at which this broker last became leader: Kafka's coordinator epoch,
        # which its coordinators get from onElection only when makeLeader finds a new leader.
        # A later epoch for the same leader (the controller shrinking the ISR) leaves it.
        self.elected_epoch = -1
        # The log end offset when this broker's current leader epoch began (Kafka's
        # leaderEpochStartOffsetOpt); None while it does not lead.
        self.leader_epoch_start_offset: int | None = None
        self.controller_epoch = 0
        self.zk_version = 0
        self.isr: list[int] = []  # the committed ISR, as the store holds it
        self.pending_isr: list[int] | None = None  # an ISR change sent but not yet committed
        self.replicas: list[int] = []
        self.followers: dict[int, FollowerState] = {}
        self.topic_id: uuid.UUID | None = log_.topic_id

    @property
    def high_watermark(self) -> int:
        return self.log.high_watermark

    @high_watermark.setter
    def high_watermark(self, value: int) -> None:
        self.log.update_high_watermark(value)

    @property
    def last_stable_offset(self) -> int:
        return self.log.last_stable_offset

    @property
    def key(self) -> tuple[str, int]:
        return (self.topic, self.partition)

    @property
    def is_leader(self) -> bool:
        return self.leader_id == self.broker_id

    @property
    def maximal_isr(self) -> list[int]:
        """The committed ISR plus any replica a pending change adds (Kafka's maximalIsr):
        the high watermark waits for all of them, so neither a pending shrink nor a pending
        expansion can let it pass data some possible ISR lacks."""
        return sorted({*self.isr, *(self.pending_isr or ())})

    def _apply(self, state: PartitionState) -> None:
        self.pending_isr = None
        self.leader_id = state.leader
        self.leader_epoch = state.leader_epoch
        self.controller_epoch = state.controller_epoch
        self.zk_version = state.zk_version
        self.isr = list(state.isr)
        self.replicas = list(state.replicas)
        if state.topic_id is not None:
            self.log.assign_topic_id(state.topic_id)
            self.topic_id = state.topic_id

    def make_leader(self, state: PartitionState) -> None:
        was_leader = self.is_leader
        previous_leader, previous_epoch = self.leader_id, self.leader_epoch
        if not was_leader or state.leader_epoch > self.leader_epoch:
            self.leader_epoch_start_offset = self.log.log_end_offset
        self._apply(state)
        if not was_leader:
            self.elected_epoch = state.leader_epoch
        now = self.time.hi_res_clock_ms()
        known = self.followers if was_leader else {}
        self.followers = {r: known.get(r) or FollowerState(-1, now) for r in self.replicas if r != self.broker_id}
        cache = self.log.leader_epoch_cache
        latest = cache.latest_epoch
        if latest is None or state.leader_epoch > latest:
            cache.assign(state.leader_epoch, self.log.log_end_offset)  # the new epoch starts here
        self.high_watermark = min(self.high_watermark, self.log.log_end_offset)
        self.maybe_increment_high_watermark()
        state_change_log.info(
            "[Broker id=%d] Leader %s-%d with topic id %s starts at leader epoch %d from offset %d with partition "
            "epoch %d, high watermark %d, ISR [%s], adding replicas [] and removing replicas [] . Previous leader %s "
            "and previous leader epoch was %d.", self.broker_id, self.topic, self.partition,
            _option(self.topic_id and kafka_uuid(self.topic_id)), self.leader_epoch, self.log.log_end_offset,
            self.zk_version, self.high_watermark, ",".join(map(str, self.isr)),
            _option(previous_leader if previous_leader >= 0 else None), previous_epoch)

    def make_follower(self, state: PartitionState) -> bool:
        """Become a follower. The replica fetcher then truncates a divergent tail, asking
        the leader where our latest epoch ends (KIP-101/279)."""
        changed = state.leader != self.leader_id or state.leader_epoch != self.leader_epoch
        previous_leader, previous_epoch = self.leader_id, self.leader_epoch
        self._apply(state)
        self.followers = {}
        self.leader_epoch_start_offset = None
        if changed:
            state_change_log.info(
                "[Broker id=%d] Follower %s-%d starts at leader epoch %d from offset %d with partition epoch %d and "
                "high watermark %d. Current leader is %d. Previous leader %s and previous leader epoch was %d.",
                self.broker_id, self.topic, self.partition, self.leader_epoch, self.log.log_end_offset,
                self.zk_version, self.high_watermark, self.leader_id,
                _option(previous_leader if previous_leader >= 0 else None), previous_epoch)
        return changed

    def stop_serving(self) -> None:
        """StopReplica without delete (controlled shutdown): neither leader nor follower any
        more, until a LeaderAndIsr with a newer epoch says otherwise; log and high
        watermark stay."""
        self.leader_id = -1
        self.followers = {}

    def truncate_to_leader(self, leader_epoch: int, leader_end_offset: int) -> bool:
        """The leader says epoch `leader_epoch` ends at `leader_end_offset` in its log (an
        OffsetForLeaderEpoch answer, or a Fetch answer's diverging epoch): drop our tail
        beyond it, as Kafka's AbstractFetcherThread.getOffsetTruncationState decides. When
        we never had that epoch, truncate to where our largest epoch below it ends and
        return False: the leader must be asked again with our (now older) latest epoch.
        True when the truncation is complete."""
        end = self.log.log_end_offset
        complete = True
        if leader_end_offset < 0:  # the leader knows no such epoch: what the ISR had is safe
            target = self.high_watermark
        elif leader_epoch < 0:  # a leader without epochs (message format before 0.11)
            target = leader_end_offset
        else:
            own_epoch, own_end = self.log.leader_epoch_cache.end_offset_for(leader_epoch, end)
            if own_end < 0:  # we tracked no epoch that old: the leader's offset is safe
                target = leader_end_offset
            elif own_epoch != leader_epoch:
                target, complete = own_end, False
            else:
                target = min(own_end, leader_end_offset)
        target = min(target, end)
        if target < end:
            log.info("%s-%d: truncating from %d to %d (epoch %d ends at %d on the leader)", self.topic,
                     self.partition, end, target, leader_epoch, leader_end_offset)
        self.log.truncate_to(target)  # even at the log end: it drops an epoch we led without writing
        self.high_watermark = min(self.high_watermark, self.log.log_end_offset)
        return complete

    def truncate_to_high_watermark(self) -> None:
        """Without epoch information (Kafka before KIP-101): what the ISR had is safe."""
        if self.log.log_end_offset > self.high_watermark:
            log.info("%s-%d: truncating to high watermark %d", self.topic, self.partition, self.high_watermark)
            self.log.truncate_to(self.high_watermark)

    def check_leader_epoch(self, current_leader_epoch: int) -> None:
        """Kafka's checkCurrentLeaderEpoch (KIP-320), before any leader check: a client or
        follower that names the leader epoch it knows (-1: none) is told FENCED_LEADER_EPOCH
        when ours is newer (refresh metadata) and UNKNOWN_LEADER_EPOCH when it is older
        (this broker has not heard of it yet: retry)."""
        if current_leader_epoch == -1:
            return
        if current_leader_epoch < self.leader_epoch:
            raise KafkaError(ErrorCode.FENCED_LEADER_EPOCH)
        if current_leader_epoch > self.leader_epoch:
            raise KafkaError(ErrorCode.UNKNOWN_LEADER_EPOCH)

    def last_offset_for_leader_epoch(self, leader_epoch: int) -> tuple[int, int]:
        """OffsetForLeaderEpoch on the leader: (epoch, end offset) per Kafka's rules."""
        return self.log.leader_epoch_cache.end_offset_for(leader_epoch, self.log.log_end_offset)

    def maybe_increment_high_watermark(self) -> bool:
        """The high watermark is the smallest log end offset among the (maximal) ISR."""
        end_offsets = [self.log.log_end_offset]
        for replica in self.maximal_isr:
            if replica != self.broker_id:
                end_offsets.append(self.followers.get(replica, FollowerState()).log_end_offset)
        new_hw = min(end_offsets)
        if new_hw > self.high_watermark:
            self.high_watermark = new_hw
            return True
        return False

    def update_follower_fetch(self, replica: int, fetch_offset: int) -> bool:
        """A follower fetched from fetch_offset, so it has everything below it. Returns
        True when the high watermark moved."""
        follower = self.followers.get(replica)
        if follower is None or not self.is_leader:
            return False
        follower.log_end_offset = fetch_offset
        if fetch_offset >= self.log.log_end_offset:
            follower.last_caught_up_ms = self.time.hi_res_clock_ms()
        if replica not in self.isr and fetch_offset >= self.high_watermark:
            self._send_isr_change(sorted({*self.isr, replica}))
        return self.maybe_increment_high_watermark()

    def maybe_shrink_isr(self, max_lag_ms: int) -> None:
        """Drop followers that have not caught up for max_lag_ms from the ISR (sent, not
        applied: the ISR shrinks when the store has it)."""
        if not self.is_leader:
            return
        now = self.time.hi_res_clock_ms()
        lagging = [r for r in self.isr if r != self.broker_id and
                   now - self.followers.get(r, FollowerState()).last_caught_up_ms > max_lag_ms]
        if lagging:
            log.info("%s-%d: replicas %s lag more than %d ms", self.topic, self.partition, lagging, max_lag_ms)
            self._send_isr_change([r for r in self.isr if r not in lagging])

    def _send_isr_change(self, new_isr: list[int]) -> None:
        """One change in flight at a time, as Kafka's AlterPartition path allows."""
        if self.pending_isr is None and new_isr != self.isr:
            self.pending_isr = new_isr
            self.isr_sender.submit(self, new_isr)

    def complete_isr_change(self, leader_epoch: int, new_isr: list[int], zk_version: int | None,
                            error: ErrorCode = ErrorCode.NONE) -> bool:
        """The store's answer to a change sent at leader_epoch: zk_version is the new
        version if the write won, None if it failed (lost to the controller, or the store
        was unreachable; a later check sends it again). A controller's answer that this
        leader's state is stale (AWAIT_METADATA) keeps the change pending, so nothing is sent
        again before the next LeaderAndIsr. Returns True when the high watermark moved."""
        if leader_epoch != self.leader_epoch or self.pending_isr != new_isr:
            return False  # a LeaderAndIsr replaced the state meanwhile
        if error in AWAIT_METADATA:
            log.info("%s-%d: the controller refused ISR %s with %s; awaiting the latest metadata", self.topic,
                     self.partition, new_isr, error.name)
            return False
        self.pending_isr = None
        if zk_version is None:
            return False
        log.info("%s-%d: ISR changed from %s to %s", self.topic, self.partition, self.isr, new_isr)
        self.isr, self.zk_version = new_isr, zk_version
        return self.maybe_increment_high_watermark()

    def append_as_leader(self, records: bytes | memoryview, required_acks: int, now_ms: int,
                         origin: AppendOrigin = AppendOrigin.CLIENT,
                         verification_guard: VerificationGuard | None = None, marker_transaction_version: int = 0):
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        min_isr = self.log.config.min_insync_replicas
        if required_acks == -1 and len(self.isr) < min_isr:
            raise KafkaError(ErrorCode.NOT_ENOUGH_REPLICAS,
                             f"The size of the current ISR {self.isr} is insufficient to satisfy the "
                             f"min.isr requirement of {min_isr}")
        info = self.log.append_as_leader(records, self.leader_epoch, now_ms, origin, verification_guard,
                                         marker_transaction_version)
        self.maybe_increment_high_watermark()
        return info

    def start_transaction_verification(self, producer_id: int, sequence: int, epoch: int) -> VerificationGuard:
        """Kafka's Partition.maybeStartTransactionVerification: only a leader verifies."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        return self.log.start_transaction_verification(producer_id, sequence, epoch)

    def append_as_follower(self, records: bytes | memoryview, leader_high_watermark: int) -> None:
        if records:
            self.log.append_as_follower(records)
        self.high_watermark = max(self.high_watermark, min(leader_high_watermark, self.log.log_end_offset))

    def delete_records_before(self, offset: int) -> int:
        """DeleteRecords: advance the log start offset (-1 means the high watermark)."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        offset = self.high_watermark if offset == -1 else offset
        if offset < 0 or offset > self.high_watermark:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Cannot delete records before {offset}: the high watermark is {self.high_watermark}")
        self.log.maybe_increment_log_start_offset(offset)
        self.log.delete_old_segments()
        return self.log.log_start_offset

    def _last_fetchable_offset(self, isolation: FetchIsolation) -> int:
        if isolation is FetchIsolation.TXN_COMMITTED:
            return self.log.last_stable_offset
        if isolation is FetchIsolation.HIGH_WATERMARK:
            return self.high_watermark
        return self.log.log_end_offset

    def fetch_offset_for_timestamp(self, timestamp: int, isolation: FetchIsolation) -> TimestampAndOffset | None:
        """ListOffsets on the leader (Kafka's Partition.fetchOffsetForTimestamp): a client
        sees the high watermark (read_committed: the last stable offset) as the latest
        offset and no record at or above it; a follower's latest is the log end offset.
        None when no offset qualifies. A new leader whose high watermark has not reached
        the start of its epoch yet answers a client OFFSET_NOT_AVAILABLE (KIP-207) for the
        latest offset and for a timestamp found at or past it: its high watermark may be
        below offsets the previous leader acknowledged."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        last_fetchable = self._last_fetchable_offset(isolation)
        lagging = (isolation is not FetchIsolation.LOG_END and self.leader_epoch_start_offset is not None
                   and self.leader_epoch_start_offset > self.high_watermark)
        if timestamp == LATEST_TIMESTAMP:
            if lagging:
                raise self._offset_not_available()
            return TimestampAndOffset(-1, last_fetchable, self.leader_epoch)
        if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
            return TimestampAndOffset(-1, self.log.log_start_offset, self.leader_epoch)
        if timestamp in (LATEST_TIERED_TIMESTAMP, EARLIEST_PENDING_UPLOAD_TIMESTAMP):
            return None
        if timestamp == MAX_TIMESTAMP:
            found = self.log.latest_timestamp_offset()
        else:
            found = self.log.fetch_offset_by_timestamp(timestamp)
        if found is None or (isolation is not FetchIsolation.LOG_END and found[0] >= last_fetchable):
            if lagging:
                raise self._offset_not_available()
            return None
        return TimestampAndOffset(found[1], found[0], self.leader_epoch)

    def _offset_not_available(self) -> KafkaError:
        return KafkaError(ErrorCode.OFFSET_NOT_AVAILABLE, f"{self.topic}-{self.partition}: high watermark "
                          f"{self.high_watermark} behind the epoch start {self.leader_epoch_start_offset}")

    def diverging_epoch(self, last_fetched_epoch: int, fetch_offset: int) -> tuple[int, int] | None:
        """A follower (Fetch v12+) says its last batch is of `last_fetched_epoch`; if that
        epoch ends here before `fetch_offset`, or we never had it, its log diverged from
        ours: (epoch, end offset) to truncate to, as Kafka's Partition.fetchRecords answers.
        A Kafka 3.9 follower truncates only on this answer, never with OffsetForLeaderEpoch.
        OFFSET_OUT_OF_RANGE, as Kafka's readRecords, when we cannot say where that epoch
        ends (it is newer than ours) or the fetch offset is below our log start: a Kafka
        follower takes no diverging epoch of -1 for a divergence, and would fetch on stuck."""
        if last_fetched_epoch < 0:
            return None
        epoch, end = self.log.leader_epoch_cache.end_offset_for(last_fetched_epoch, self.log.log_end_offset)
        if epoch < 0 or end < 0:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE, "Could not determine the end offset of the last "
                             f"fetched epoch {last_fetched_epoch} from the request")
        if fetch_offset < self.log.log_start_offset:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE, f"Received request for offset {fetch_offset} for "
                             f"partition {self.topic}-{self.partition}, but we only have log segments in the "
                             f"range {self.log.log_start_offset} to {self.log.log_end_offset}.")
        if epoch < last_fetched_epoch or end < fetch_offset:
            return epoch, end
        return None

    def unchanged_for(self, offset: int, current_leader_epoch: int, isolation: FetchIsolation, high_watermark: int,
                      log_start_offset: int) -> bool:
        """Whether a consumer's read at `offset` would tell its fetch session nothing new: no
        records, no error, and the high watermark and log start offset it was last told
        (-1 after an error: never the log's). Builds nothing, for the mostly idle
        partitions of an incremental fetch over many (Kafka's session skips them in the
        response, and its read of each is cheap)."""
        log = self.log
        return (log.high_watermark == high_watermark and log.log_start_offset == log_start_offset
                and self.quiet_at(offset, current_leader_epoch, isolation))

    def quiet_at(self, offset: int, current_leader_epoch: int, isolation: FetchIsolation,
                 last_fetched_epoch: int = -1) -> bool:
        """Whether a consumer's read at `offset` would answer no records, no error and no
        diverging epoch, only the log's offsets: decided without building anything, for the
        mostly empty partitions of a fetch over many. Anything else (not the leader, another
        leader epoch, an offset out of range, an offline log) is for read() to answer."""
        if self.leader_id != self.broker_id or (current_leader_epoch != -1
                                                and current_leader_epoch != self.leader_epoch):
            return False
        log = self.log
        upper = log.high_watermark if isolation is FetchIsolation.HIGH_WATERMARK else log.last_stable_offset
        if not log.nothing_after(offset, upper):
            return False
        if last_fetched_epoch < 0:
            return True
        try:
            return self.diverging_epoch(last_fetched_epoch, offset) is None
        except KafkaError:
            return False

    def read(self, offset: int, max_bytes: int, isolation: FetchIsolation, min_one_message: bool,
             last_fetched_epoch: int = -1) -> ReadResult:
        """A leader read; read_committed also gets the aborted transactions overlapping
        what it read (Kafka's addAbortedTransactions, upper bound the offset after it). A
        follower whose log diverged gets no records, only where it diverged."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        diverging = self.diverging_epoch(last_fetched_epoch, offset)
        if diverging is not None:
            return ReadResult([], self.high_watermark, self.log.log_start_offset, self.log.log_end_offset,
                              self.log.last_stable_offset, diverging_epoch=diverging)
        upper = None if isolation is FetchIsolation.LOG_END else self._last_fetchable_offset(isolation)
        log = self.log
        if log.nothing_after(offset, upper):  # most partitions of a fetch over many: nothing to read
            return ReadResult([], log.high_watermark, log.log_start_offset, log.log_end_offset,
                              log.last_stable_offset, [] if isolation is FetchIsolation.TXN_COMMITTED else None)
        info = log.read(offset, max_bytes, max_offset=upper, min_one_message=min_one_message)
        aborted = None
        if isolation is FetchIsolation.TXN_COMMITTED:
            aborted = self.log.collect_aborted_transactions(offset, info.next_offset) if info.regions else []
        return ReadResult(list(info.regions), self.high_watermark, self.log.log_start_offset,
                          self.log.log_end_offset, self.log.last_stable_offset, aborted)


def _option(value: object) -> str:
    """Scala's Option as Kafka's lines print it: Some(x) or None."""
    return "None" if value is None else f"Some({value})"
