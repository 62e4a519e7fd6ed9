"""Transaction verification (KIP-890 part 1) as Kafka 3.9 guards it, on fake time.

A leader starts a verification (a VerificationGuard) for a producer's first transactional
write to a partition, asks the coordinator, and appends under the guard; an end marker
written in between spends the guard, so the late append is refused INVALID_TXN_STATE.
The coordinator's answers are scripted here; tests/test_mixed_transactions.py and
tests/test_txn_offset_verification.py check them against a real Kafka broker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from josefk.coordinator.group_coordinator import GroupCoordinator
from josefk.coordinator.group_metadata import OffsetAndMetadata
from josefk.coordinator.offsets_store import OFFSETS_TOPIC
from josefk.log.config import LogConfig
from josefk.log.log import AppendOrigin, Log
from josefk.log.log_manager import LogManager
from josefk.log.producer_state import SENTINEL
from josefk.protocol.control_records import encode_end_txn_marker
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch
from josefk.protocol.records import read_header
from josefk.replication.coordinator_partitions import LocalCoordinatorPartitions
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import AppendResult, ReplicaManager, ReplicationSettings, TopicPartition
from josefk.replication.transaction_verification import TransactionVerifier
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState

pytestmark = pytest.mark.unit

TP = ("t", 0)


def txn_batch(pid: int = 7, epoch: int = 0, seq: int = 0, transactional: bool = True) -> bytes:
    return build_batch([Record(0, 1000, None, b"v")], producer_id=pid, producer_epoch=epoch, base_sequence=seq,
                       is_transactional=transactional)


def abort_marker(pid: int = 7, epoch: int = 0) -> bytes:
    return encode_end_txn_marker(pid, epoch, 0, False, 1000)


# -- the guard in the log ---------------------------------------------------------------------


@pytest.fixture
def log(tmp_path: Path) -> Iterator[Log]:
    log = Log(tmp_path / "t-0", LogConfig(), time=MockTime())
    yield log
    log.close()


def test_verified_append_opens_the_transaction(log: Log) -> None:
    guard = log.start_transaction_verification(7, 0, 0)
    assert guard is not SENTINEL
    assert log.start_transaction_verification(7, 0, 0) is guard  # a retry while verifying keeps it
    log.append_as_leader(txn_batch(), 0, verification_guard=guard)
    assert log.producer_state.has_ongoing_transaction(7)
    assert 7 not in log.producer_state.verification_states  # spent by the append
    # The transaction is open: later batches need no verification.
    assert log.start_transaction_verification(7, 1, 0) is SENTINEL
    log.append_as_leader(txn_batch(seq=1), 0, verification_guard=SENTINEL)
    assert log.log_end_offset == 2


def test_marker_between_verification_and_append_refuses_the_append(log: Log) -> None:
    guard = log.start_transaction_verification(7, 0, 0)
    log.append_as_leader(abort_marker(), 0, origin=AppendOrigin.COORDINATOR, verification_guard=SENTINEL)
    with pytest.raises(KafkaError) as refused:
        log.append_as_leader(txn_batch(), 0, verification_guard=guard)
    assert refused.value.code == ErrorCode.INVALID_TXN_STATE
    assert log.log_end_offset == 1 and not log.producer_state.has_ongoing_transaction(7)


def test_stale_guard_does_not_verify_a_newer_verification(log: Log) -> None:
    """Kafka's ABA case: verified, aborted, verified again; the first answer is stale."""
    stale = log.start_transaction_verification(7, 0, 0)
    log.append_as_leader(abort_marker(), 0, origin=AppendOrigin.COORDINATOR, verification_guard=SENTINEL)
    fresh = log.start_transaction_verification(7, 0, 0)
    assert fresh is not stale
    with pytest.raises(KafkaError) as refused:
        log.append_as_leader(txn_batch(), 0, verification_guard=stale)
    assert refused.value.code == ErrorCode.INVALID_TXN_STATE
    log.append_as_leader(txn_batch(), 0, verification_guard=fresh)
    assert log.producer_state.has_ongoing_transaction(7)


def test_unverified_transactional_batch_is_refused_only_with_verification_on(log: Log) -> None:
    with pytest.raises(KafkaError) as refused:
        log.append_as_leader(txn_batch(), 0, verification_guard=SENTINEL)
    assert refused.value.code == ErrorCode.INVALID_TXN_STATE
    log.append_as_leader(txn_batch(), 0, verification_guard=None)  # verification off: not checked
    assert log.producer_state.has_ongoing_transaction(7)


def test_non_transactional_writes_are_unaffected(log: Log) -> None:
    log.append_as_leader(txn_batch(pid=9, transactional=False), 0, verification_guard=SENTINEL)
    log.append_as_leader(build_batch([Record(0, 1000, None, b"plain")]), 0, verification_guard=SENTINEL)
    log.append_as_leader(abort_marker(pid=5), 0, origin=AppendOrigin.COORDINATOR, verification_guard=SENTINEL)
    assert log.log_end_offset == 3


def test_guard_is_per_producer_and_partition(tmp_path: Path) -> None:
    time = MockTime()
    a, b = Log(tmp_path / "t-0", LogConfig(), time=time), Log(tmp_path / "t-1", LogConfig(), time=time)
    try:
        guard_a7 = a.start_transaction_verification(7, 0, 0)
        guard_b7 = b.start_transaction_verification(7, 0, 0)
        a.start_transaction_verification(8, 0, 0)
        assert guard_a7 is not guard_b7
        for log, guard, pid in ((a, guard_a7, 8), (b, guard_a7, 7)):  # another producer's, another partition's
            with pytest.raises(KafkaError) as refused:
                log.append_as_leader(txn_batch(pid=pid), 0, verification_guard=guard)
            assert refused.value.code == ErrorCode.INVALID_TXN_STATE
        # A marker of producer 8 leaves producer 7's verification alone.
        a.append_as_leader(abort_marker(pid=8), 0, origin=AppendOrigin.COORDINATOR, verification_guard=SENTINEL)
        a.append_as_leader(txn_batch(pid=7), 0, verification_guard=guard_a7)
        assert a.producer_state.has_ongoing_transaction(7) and not b.producer_state.has_ongoing_transaction(7)
    finally:
        a.close()
        b.close()


def test_verifying_producer_may_not_write_past_its_lowest_sequence(log: Log) -> None:
    """A retried lower batch must go first (Kafka's VerificationStateEntry.lowestSequence)."""
    log.start_transaction_verification(7, 5, 0)
    guard = log.start_transaction_verification(7, 3, 0)
    assert log.producer_state.verification_states[7].lowest_sequence == 3
    with pytest.raises(KafkaError) as refused:
        log.append_as_leader(txn_batch(seq=5), 0, verification_guard=guard)
    assert refused.value.code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    log.start_transaction_verification(7, 0, 1)  # a bumped epoch starts from its own sequence
    assert log.producer_state.verification_states[7].lowest_sequence == 0
    log.append_as_leader(txn_batch(epoch=1, seq=0), 0, verification_guard=guard)


def test_unanswered_verification_expires_with_producer_ids(tmp_path: Path) -> None:
    time = MockTime()
    log = Log(tmp_path / "t-0", LogConfig(), time=time)
    try:
        log.start_transaction_verification(7, 0, 0)
        time.sleep(999)
        log.producer_state.remove_expired(time.milliseconds(), 1000)
        assert 7 in log.producer_state.verification_states
        time.sleep(1)
        log.producer_state.remove_expired(time.milliseconds(), 1000)
        assert 7 not in log.producer_state.verification_states
    finally:
        log.close()


# -- the replica manager asking the coordinator ---------------------------------------------


class ScriptedCoordinator:
    """The transaction coordinator's answers to verify_only, scripted; `meanwhile` runs
    while the question is out (a marker written then)."""

    def __init__(self, answer: ErrorCode = ErrorCode.NONE) -> None:
        self.answer = answer
        self.asked: list[tuple[str, int, int, list[TopicPartition]]] = []
        self.meanwhile: Callable[[], None] = lambda: None
        self.closed = False

    def verify_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int,
                           partitions: list[TopicPartition],
                           callback: Callable[[dict[TopicPartition, ErrorCode]], None], add: bool = False) -> None:
        self.asked.append((transactional_id, producer_id, producer_epoch, partitions))

        def answer() -> None:
            self.meanwhile()
            callback(dict.fromkeys(partitions, self.answer))

        asyncio.get_running_loop().call_soon(answer)  # answered on a later loop turn, as over the network

    def close(self) -> None:
        self.closed = True


class Broker:
    """A ReplicaManager leading t-0 and __consumer_offsets-0 on fake time, with a group
    coordinator over it, verifying with a ScriptedCoordinator."""

    def __init__(self, tmp_path: Path) -> None:
        self.time = MockTime()
        self.scheduler = MockScheduler(self.time)
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig(), time=self.time)
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.txn_coordinator = ScriptedCoordinator()
        self.verifying = True  # transaction.partition.verification.enable
        self.replicas = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _topic: LogConfig(),
                                       EmbeddedStore(tmp_path / "store.json"), ReplicationSettings(), self.executor,
                                       self.time, self.scheduler, verifier=self.txn_coordinator,
                                       verification_enabled=lambda: self.verifying)
        states = [PartitionState("t", 0, 1, 1, [1], [1], 1), PartitionState(OFFSETS_TOPIC, 0, 1, 1, [1], [1], 1)]
        assert self.replicas.leader_and_isr(0, 1, states, [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE
        self.groups = GroupCoordinator(1, LocalCoordinatorPartitions(self.replicas), num_partitions=1,
                                       min_session_timeout_ms=1, max_session_timeout_ms=300_000,
                                       initial_rebalance_delay_ms=0, offsets_retention_ms=86_400_000,
                                       time=self.time, scheduler=self.scheduler)
        self.groups.startup()
        self.groups.on_leadership_change()

    def close(self) -> None:
        self.groups.shutdown()
        self.replicas.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()

    async def produce(self, tp: TopicPartition, batch: bytes, pid: int = 7) -> ErrorCode:
        """Verify, then append under the guards, as the produce path does."""
        done: asyncio.Future[ErrorCode] = asyncio.get_running_loop().create_future()

        def verified(errors: dict, guards: dict) -> None:
            if tp in errors:
                done.set_result(errors[tp])
                return
            self.replicas.append_records({tp: batch}, 1, 1000, 1000,
                                         lambda results: done.set_result(results[tp].error),
                                         verification_guards=guards)

        self.replicas.start_transaction_verification({tp: read_header(batch).base_sequence}, "tid", pid, 0, verified)
        return await done

    def write_abort(self, tp: TopicPartition, pid: int = 7) -> None:
        answers: list[dict[TopicPartition, AppendResult]] = []
        self.replicas.append_records({tp: abort_marker(pid)}, 1, 1000, 1000, answers.append,
                                     origin=AppendOrigin.COORDINATOR)
        assert answers[0][tp].error == ErrorCode.NONE

    async def commit_offsets(self, pid: int = 7) -> ErrorCode:
        done: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        offsets = {("t", 0): OffsetAndMetadata(5, -1, "", self.time.milliseconds(), None)}
        self.groups.commit_txn_offsets("g", "tid", pid, 0, "", None, -1, offsets, done.set_result)
        return (await done)[("t", 0)]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = Broker(tmp_path)
    yield broker
    broker.close()


def test_only_a_batch_opening_a_transaction_is_verified(broker: Broker) -> None:
    async def run() -> None:
        assert await broker.produce(TP, txn_batch()) == ErrorCode.NONE
        assert broker.txn_coordinator.asked == [("tid", 7, 0, [TP])]
        assert await broker.produce(TP, txn_batch(seq=1)) == ErrorCode.NONE  # open here: not asked again
        assert len(broker.txn_coordinator.asked) == 1
        broker.write_abort(TP)
        assert await broker.produce(TP, txn_batch(seq=2)) == ErrorCode.NONE  # the next transaction: asked
        assert len(broker.txn_coordinator.asked) == 2

    asyncio.run(run())


def test_abort_while_verifying_refuses_the_late_append(broker: Broker) -> None:
    async def run() -> None:
        broker.txn_coordinator.meanwhile = lambda: broker.write_abort(TP)
        assert await broker.produce(TP, txn_batch()) == ErrorCode.INVALID_TXN_STATE
        partition = broker.replicas.partitions[TP]
        assert not partition.log.producer_state.has_ongoing_transaction(7)
        assert partition.log.log_end_offset == 1  # the marker alone

    asyncio.run(run())


def test_coordinator_refusal_is_the_partition_error(broker: Broker) -> None:
    async def run() -> None:
        broker.txn_coordinator.answer = ErrorCode.INVALID_TXN_STATE
        assert await broker.produce(TP, txn_batch()) == ErrorCode.INVALID_TXN_STATE
        assert broker.replicas.partitions[TP].log.log_end_offset == 0
        # Not led here: refused before the coordinator is asked.
        errors: list[dict] = []
        broker.replicas.start_transaction_verification({("t", 1): 0}, "tid", 7, 0, lambda e, _g: errors.append(e))
        assert errors == [{("t", 1): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}]
        assert len(broker.txn_coordinator.asked) == 1

    asyncio.run(run())


def test_verification_follows_the_dynamic_switch(broker: Broker) -> None:
    async def run() -> None:
        broker.verifying = False
        broker.txn_coordinator.answer = ErrorCode.INVALID_TXN_STATE
        assert await broker.produce(TP, txn_batch()) == ErrorCode.NONE  # neither asked nor guarded
        assert await broker.commit_offsets() == ErrorCode.NONE
        assert broker.txn_coordinator.asked == []
        broker.write_abort(TP)
        broker.verifying = True
        assert await broker.produce(TP, txn_batch(seq=1)) == ErrorCode.INVALID_TXN_STATE
        assert len(broker.txn_coordinator.asked) == 1

    asyncio.run(run())


def test_txn_offset_commit_is_verified_on_the_group_partition(broker: Broker) -> None:
    async def run() -> None:
        broker.txn_coordinator.answer = ErrorCode.INVALID_TXN_STATE  # AddOffsetsToTxn never sent
        assert await broker.commit_offsets() == ErrorCode.INVALID_TXN_STATE
        assert broker.txn_coordinator.asked == [("tid", 7, 0, [(OFFSETS_TOPIC, 0)])]
        assert broker.groups.unstable_partitions("g", None) == set()
        broker.txn_coordinator.answer = ErrorCode.NETWORK_EXCEPTION  # Kafka: retried, no coordinator lookup
        assert await broker.commit_offsets() == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        broker.txn_coordinator.answer = ErrorCode.NONE
        assert await broker.commit_offsets() == ErrorCode.NONE
        assert broker.groups.unstable_partitions("g", None) == {("t", 0)}
        assert await broker.commit_offsets() == ErrorCode.NONE  # open there now: not asked again
        assert len(broker.txn_coordinator.asked) == 3

    asyncio.run(run())


def test_txn_offset_commit_refused_when_the_transaction_ends_while_verifying(broker: Broker) -> None:
    async def run() -> None:
        broker.txn_coordinator.meanwhile = lambda: broker.write_abort((OFFSETS_TOPIC, 0))
        assert await broker.commit_offsets() == ErrorCode.INVALID_TXN_STATE
        assert broker.groups.unstable_partitions("g", None) == set()

    asyncio.run(run())


def test_unknown_coordinator_is_coordinator_not_available() -> None:
    """No __transaction_state leader known: the produce path makes it NOT_ENOUGH_REPLICAS
    and TxnOffsetCommit passes it on, as Kafka's callers of AddPartitionsToTxnManager."""
    verifier = TransactionVerifier(1, MetadataCache(1), lambda tid: ("__transaction_state", 12))
    answers: list[dict[TopicPartition, ErrorCode]] = []
    verifier.verify_transaction("tid", 7, 0, [("t", 0), ("t", 1)], answers.append)
    assert answers == [{("t", 0): ErrorCode.COORDINATOR_NOT_AVAILABLE, ("t", 1): ErrorCode.COORDINATOR_NOT_AVAILABLE}]


def test_stop_verifying_closes_the_verifier_and_answers_nothing(broker: Broker) -> None:
    """Broker shutdown: the verifier is closed and a verification still waiting for its
    coordinator leaves its produce unanswered, even if an answer comes after (Kafka's
    AddPartitionsToTxnManager shuts down with the ReplicaManager)."""
    held: list[Callable[[dict[TopicPartition, ErrorCode]], None]] = []
    def hold(transactional_id: str, producer_id: int, producer_epoch: int, partitions: list[TopicPartition],
             callback: Callable[[dict[TopicPartition, ErrorCode]], None], add: bool = False) -> None:
        held.append(callback)

    broker.txn_coordinator.verify_transaction = hold  # type: ignore[method-assign]
    answers: list[dict] = []
    broker.replicas.start_transaction_verification({TP: 0}, "tid", 7, 0, lambda e, _g: answers.append(e))
    assert len(held) == 1
    broker.replicas.stop_verifying()
    assert broker.txn_coordinator.closed
    held[0]({TP: ErrorCode.NONE})
    assert answers == []
