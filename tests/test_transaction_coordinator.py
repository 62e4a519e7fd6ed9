"""TransactionCoordinator on fake time: InitProducerId and fencing, AddPartitionsToTxn,
EndTxn and its markers, timeouts, reloading __transaction_state, Describe/List.

The coordinator writes to a real __transaction_state log through a real ReplicaManager;
only the marker sender is a recorder, since its real peers are other brokers' sockets
(tests/test_transactions.py covers those end to end).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from josefk.coordinator.producer_id_manager import RETRY_BACKOFF_MS, ProducerIdManager
from josefk.coordinator.transaction_apis import TransactionApis, TransactionTopicConfig
from josefk.coordinator.transaction_coordinator import TransactionConfig, TransactionCoordinator
from josefk.coordinator.transaction_log import (
    TRANSACTION_STATE_TOPIC,
    read_key,
    read_value,
    transaction_key,
    transaction_value,
)
from josefk.coordinator.transaction_metadata import (
    MAX_PRODUCER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    IllegalTransitionError,
    TransactionMetadata,
    TransactionState,
    TxnTransit,
)
from josefk.coordinator.transaction_state_manager import TransactionStateManager
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.init_producer_id_request import InitProducerIdRequest
from josefk.protocol.record_codec import decode_all
from josefk.replication.coordinator_partitions import LocalCoordinatorPartitions
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import ReplicaManager, ReplicationSettings
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.zk.admin_zk_client import TopicAdmin
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.test_producer_id_manager import ExpiringStore, HeldRequests

pytestmark = pytest.mark.unit

S = TransactionState
TID = "txn-1"
TP = ("orders", 0)
TP2 = ("orders", 1)
TIMEOUT_MS = 60_000
ABORT_INTERVAL_MS = 10_000


@dataclass
class MarkerCall:
    transactional_id: str
    coordinator_epoch: int
    producer_id: int
    producer_epoch: int
    commit: bool
    partitions: frozenset[tuple[str, int]]
    done: Callable[[bool], None]


class RecordingMarkers:
    """The TxnMarkerSender: records what would be sent; the test decides when it lands."""

    def __init__(self) -> None:
        self.calls: list[MarkerCall] = []

    def send_markers(self, transactional_id: str, coordinator_epoch: int, producer_id: int, producer_epoch: int,
                     commit: bool, partitions: frozenset[tuple[str, int]], done: Callable[[bool], None]) -> None:
        self.calls.append(MarkerCall(transactional_id, coordinator_epoch, producer_id, producer_epoch, commit,
                                     partitions, done))


class Harness:
    def __init__(self, tmp_path: Path) -> None:
        self.time = MockTime()
        self.scheduler = MockScheduler(self.time)
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig(), time=self.time)
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.replicas = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _topic: LogConfig(),
                                       EmbeddedStore(tmp_path / "store.json"), ReplicationSettings(), self.executor,
                                       self.time, self.scheduler)
        self.lead(leader_epoch=1)
        self.markers = RecordingMarkers()
        self.state = TransactionStateManager(1, LocalCoordinatorPartitions(self.replicas), 1, self.time,
                                             self.scheduler)
        self.coordinator = TransactionCoordinator(
            1, self.state, self.markers, TransactionConfig(max_timeout_ms=900_000,
                                                           abort_interval_ms=ABORT_INTERVAL_MS),
            self.time, self.scheduler)
        self.coordinator.startup()
        self.coordinator.on_leadership_change()
        self.time.sleep(0)

    def lead(self, leader_epoch: int) -> None:
        state = PartitionState(TRANSACTION_STATE_TOPIC, 0, 1, leader_epoch, [1], [1], 1)
        assert self.replicas.leader_and_isr(0, 1, [state], [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE

    def close(self) -> None:
        self.coordinator.shutdown()
        self.replicas.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()

    def init(self, new_pid: int = 1000, expected: tuple[int, int] | None = None,
             timeout_ms: int = TIMEOUT_MS) -> tuple[ErrorCode, int, int]:
        got: list[tuple[ErrorCode, int, int]] = []
        self.coordinator.init_producer_id(TID, timeout_ms, expected, new_pid, lambda e, p, ep: got.append((e, p, ep)))
        self.time.sleep(0)
        assert len(got) == 1
        return got[0]

    def add(self, pid: int, epoch: int, *tps: tuple[str, int]) -> ErrorCode:
        got: list[ErrorCode] = []
        self.coordinator.add_partitions(TID, pid, epoch, set(tps), got.append)
        self.time.sleep(0)
        return got[0]

    def end(self, pid: int, epoch: int, commit: bool) -> ErrorCode:
        got: list[ErrorCode] = []
        self.coordinator.end_transaction(TID, pid, epoch, commit, got.append)
        self.time.sleep(0)
        return got[0]

    @property
    def metadata(self) -> TransactionMetadata:
        error, found = self.state.get(TID)
        assert error == ErrorCode.NONE and found is not None
        return found.metadata

    def stored(self) -> list[tuple[str, TransactionState | None]]:
        """(transactional id, state) of every record in __transaction_state-0, in order."""
        log = self.replicas.partitions[(TRANSACTION_STATE_TOPIC, 0)].log
        records = decode_all(log.read(0, 1 << 20, max_offset=None, min_one_message=True).read_bytes())
        return [(read_key(r.key), None if r.value is None else read_value(r.value).state)  # type: ignore[arg-type]
                for r in records]


@pytest.fixture
def h(tmp_path: Path):
    harness = Harness(tmp_path)
    yield harness
    harness.close()


def test_init_producer_id_new_id_then_epoch_bumps(h: Harness) -> None:
    assert h.init(new_pid=1000) == (ErrorCode.NONE, 1000, 0)
    assert h.init(new_pid=2000) == (ErrorCode.NONE, 1000, 1)  # the id keeps its producer id
    assert h.stored() == [(TID, S.EMPTY), (TID, S.EMPTY)]


def test_init_producer_id_validates_id_and_timeout(h: Harness) -> None:
    got: list[tuple[ErrorCode, int, int]] = []
    h.coordinator.init_producer_id("", TIMEOUT_MS, None, 1, lambda *a: got.append(a))
    h.coordinator.init_producer_id(TID, 900_001, None, 1, lambda *a: got.append(a))
    h.coordinator.init_producer_id(TID, 0, None, 1, lambda *a: got.append(a))
    assert [g[0] for g in got] == [ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_TRANSACTION_TIMEOUT,
                                   ErrorCode.INVALID_TRANSACTION_TIMEOUT]


def test_kip360_expected_epoch(h: Harness) -> None:
    h.init(new_pid=7)
    assert h.init(expected=(7, 0)) == (ErrorCode.NONE, 7, 1)
    assert h.init(expected=(7, 0)) == (ErrorCode.NONE, 7, 1)  # a retry of the same bump
    assert h.init(expected=(7, 5))[0] == ErrorCode.PRODUCER_FENCED
    assert h.init(expected=(8, 1))[0] == ErrorCode.PRODUCER_FENCED


def test_commit_writes_prepare_then_markers_then_complete(h: Harness) -> None:
    _, pid, epoch = h.init()
    assert h.add(pid, epoch, TP) == ErrorCode.NONE
    assert h.add(pid, epoch, TP, TP2) == ErrorCode.NONE
    assert h.metadata.state == S.ONGOING and h.metadata.partitions == {TP, TP2}
    started = h.metadata.txn_start_timestamp
    assert h.end(pid, epoch, commit=True) == ErrorCode.NONE
    assert h.metadata.state == S.PREPARE_COMMIT
    assert h.metadata.txn_start_timestamp == started
    [call] = h.markers.calls
    assert (call.producer_id, call.producer_epoch, call.commit, call.partitions, call.coordinator_epoch) == \
        (pid, epoch, True, frozenset({TP, TP2}), 1)
    # While markers are out (CompleteCommit pending, as in Kafka), every request waits.
    assert h.add(pid, epoch, TP) == ErrorCode.CONCURRENT_TRANSACTIONS
    assert h.end(pid, epoch, commit=True) == ErrorCode.CONCURRENT_TRANSACTIONS
    assert h.end(pid, epoch, commit=False) == ErrorCode.CONCURRENT_TRANSACTIONS
    assert h.init()[0] == ErrorCode.CONCURRENT_TRANSACTIONS
    call.done(True)
    h.time.sleep(0)
    assert h.metadata.state == S.COMPLETE_COMMIT and h.metadata.partitions == set()
    assert h.end(pid, epoch, commit=True) == ErrorCode.NONE  # a retried EndTxn
    assert h.end(pid, epoch, commit=False) == ErrorCode.INVALID_TXN_STATE
    assert [s for _, s in h.stored()] == [S.EMPTY, S.ONGOING, S.ONGOING, S.PREPARE_COMMIT, S.COMPLETE_COMMIT]
    # The next transaction starts afresh.
    assert h.add(pid, epoch, TP2) == ErrorCode.NONE
    assert h.metadata.partitions == {TP2}


def test_end_txn_errors(h: Harness) -> None:
    got: list[ErrorCode] = []
    h.coordinator.end_transaction(TID, 1, 0, True, got.append)
    assert got == [ErrorCode.INVALID_PRODUCER_ID_MAPPING]
    _, pid, epoch = h.init()
    assert h.end(pid, epoch, commit=True) == ErrorCode.INVALID_TXN_STATE  # nothing to commit
    assert h.end(pid + 1, epoch, commit=True) == ErrorCode.INVALID_PRODUCER_ID_MAPPING
    assert h.end(pid, epoch + 1, commit=True) == ErrorCode.PRODUCER_FENCED
    assert h.add(pid + 1, epoch, TP) == ErrorCode.INVALID_PRODUCER_ID_MAPPING


def test_new_instance_fences_the_old_and_aborts_its_transaction(h: Harness) -> None:
    _, pid, epoch = h.init()
    h.add(pid, epoch, TP)
    # A second producer with the same transactional id.
    assert h.init()[0] == ErrorCode.CONCURRENT_TRANSACTIONS
    [abort] = h.markers.calls
    assert (abort.commit, abort.producer_epoch, abort.partitions) == (False, epoch + 1, frozenset({TP}))
    assert h.metadata.state == S.PREPARE_ABORT
    assert h.init()[0] == ErrorCode.CONCURRENT_TRANSACTIONS  # retried until the abort completes
    abort.done(True)
    h.time.sleep(0)
    assert h.metadata.state == S.COMPLETE_ABORT
    assert h.init() == (ErrorCode.NONE, pid, epoch + 2)
    # The zombie is fenced everywhere.
    assert h.add(pid, epoch, TP) == ErrorCode.PRODUCER_FENCED
    assert h.end(pid, epoch, commit=True) == ErrorCode.PRODUCER_FENCED


def test_timed_out_transaction_is_aborted_with_a_bumped_epoch(h: Harness) -> None:
    _, pid, epoch = h.init(timeout_ms=15_000)
    h.add(pid, epoch, TP)
    h.time.sleep(ABORT_INTERVAL_MS)  # 10 s: not yet
    assert h.markers.calls == []
    h.time.sleep(ABORT_INTERVAL_MS)  # 20 s > 15 s
    [abort] = h.markers.calls
    assert (abort.commit, abort.producer_epoch) == (False, epoch + 1)
    abort.done(True)
    h.time.sleep(0)
    assert h.metadata.state == S.COMPLETE_ABORT and h.metadata.producer_epoch == epoch + 1
    assert h.end(pid, epoch, commit=True) == ErrorCode.PRODUCER_FENCED


def test_fenced_markers_leave_the_transaction_prepared(h: Harness) -> None:
    _, pid, epoch = h.init()
    h.add(pid, epoch, TP)
    h.end(pid, epoch, commit=False)
    h.markers.calls[0].done(False)  # a newer coordinator owns it
    h.time.sleep(0)
    assert h.metadata.state == S.PREPARE_ABORT


def test_reload_restores_state_and_resends_markers_of_a_prepared_transaction(h: Harness) -> None:
    _, pid, epoch = h.init()
    h.add(pid, epoch, TP, TP2)
    h.end(pid, epoch, commit=True)
    assert h.metadata.state == S.PREPARE_COMMIT
    # Leadership of __transaction_state-0 moves away and comes back at a later epoch.
    assert h.replicas.stop_replica(1, [(TRANSACTION_STATE_TOPIC, 0)], delete=False) == ErrorCode.NONE
    h.coordinator.on_leadership_change()
    assert h.state.get(TID)[0] == ErrorCode.NOT_COORDINATOR
    h.markers.calls[0].done(True)  # the old coordinator's markers land late: ignored
    h.time.sleep(0)
    h.lead(leader_epoch=2)
    h.coordinator.on_leadership_change()
    h.time.sleep(0)
    loaded = h.metadata
    assert (loaded.state, loaded.producer_id, loaded.producer_epoch, loaded.partitions) == \
        (S.PREPARE_COMMIT, pid, epoch, {TP, TP2})
    resent = h.markers.calls[1]
    assert (resent.commit, resent.coordinator_epoch, resent.partitions) == (True, 2, frozenset({TP, TP2}))
    resent.done(True)
    h.time.sleep(0)
    assert h.metadata.state == S.COMPLETE_COMMIT
    assert h.stored()[-1] == (TID, S.COMPLETE_COMMIT)


def test_a_leader_epoch_bump_without_a_new_leader_keeps_the_loaded_state(h: Harness) -> None:
    """The controller bumps the leader epoch when it shrinks the ISR (a follower died) but the
    leader stays: Kafka's makeLeader then finds no new leader and its coordinator neither
    reloads nor changes its coordinator epoch; a pending transaction goes on undisturbed."""
    _, pid, epoch = h.init()
    h.add(pid, epoch, TP)
    h.end(pid, epoch, commit=True)
    [call] = h.markers.calls
    h.lead(leader_epoch=2)
    h.coordinator.on_leadership_change()
    h.time.sleep(0)
    assert h.state.get(TID)[0] == ErrorCode.NONE
    assert h.markers.calls == [call]  # not sent again as if left by a previous coordinator
    call.done(True)
    h.time.sleep(0)
    assert h.metadata.state == S.COMPLETE_COMMIT
    assert h.end(pid, epoch, commit=True) == ErrorCode.NONE
    _, pid, epoch = h.init(new_pid=2000)
    h.add(pid, epoch, TP)
    h.end(pid, epoch, commit=False)
    assert h.markers.calls[-1].coordinator_epoch == 1  # still the epoch this broker was elected at


def test_describe_and_list(h: Harness) -> None:
    assert h.coordinator.describe("nope")[0] == ErrorCode.TRANSACTIONAL_ID_NOT_FOUND
    _, pid, epoch = h.init()
    h.add(pid, epoch, TP)
    error, d = h.coordinator.describe(TID)
    assert error == ErrorCode.NONE and d is not None
    assert (d.state, d.producer_id, d.producer_epoch, d.partitions, d.timeout_ms) == \
        (S.ONGOING, pid, epoch, frozenset({TP}), TIMEOUT_MS)
    assert [x.transactional_id for x in h.coordinator.list_transactions(None, None)[1]] == [TID]
    assert h.coordinator.list_transactions({S.EMPTY}, None)[1] == []
    assert h.coordinator.list_transactions(None, {pid + 1})[1] == []
    h.time.sleep(5_000)
    assert len(h.coordinator.list_transactions(None, None, 4_000)[1]) == 1
    assert h.coordinator.list_transactions(None, None, 6_000)[1] == []


def test_expired_transactional_ids_are_tombstoned(h: Harness) -> None:
    h.coordinator.config = TransactionConfig(id_expiration_ms=1_000)
    h.init()
    h.time.sleep(1_000)
    assert h.coordinator.expire_transactional_ids() == [TID]
    h.time.sleep(0)
    assert h.state.get(TID) == (ErrorCode.NONE, None)
    assert h.stored()[-1] == (TID, None)


def test_value_layout_matches_kafka_v0() -> None:
    transit = TxnTransit(producer_id=5, last_producer_id=-1, producer_epoch=3, last_producer_epoch=-1,
                         txn_timeout_ms=60_000, state=S.ONGOING, partitions=frozenset({("a", 1), ("a", 0), ("b", 2)}),
                         txn_start_timestamp=100, txn_last_update_timestamp=200)
    value = transaction_value(transit)
    # version, pid, epoch, timeout, status, 2 topics (a: [0, 1], b: [2]), last update, start
    expected = (b"\x00\x00" + (5).to_bytes(8, "big") + (3).to_bytes(2, "big") + (60_000).to_bytes(4, "big") + b"\x01"
                + (2).to_bytes(4, "big") + b"\x00\x01a" + (2).to_bytes(4, "big") + (0).to_bytes(4, "big")
                + (1).to_bytes(4, "big") + b"\x00\x01b" + (1).to_bytes(4, "big") + (2).to_bytes(4, "big")
                + (200).to_bytes(8, "big") + (100).to_bytes(8, "big"))
    assert value == expected
    assert transaction_key("t") == b"\x00\x00\x00\x01t"
    back = read_value(value)
    assert (back.producer_id, back.state, back.partitions) == (5, S.ONGOING, transit.partitions)
    empty = TxnTransit(5, -1, 3, -1, 60_000, S.EMPTY, frozenset(), -1, 200)
    assert transaction_value(empty)[17:21] == b"\xff\xff\xff\xff"  # null partitions in Empty


def test_transition_table_refuses_illegal_moves() -> None:
    m = TransactionMetadata(TID, 1, -1, 0, -1, 1000, S.EMPTY)
    with pytest.raises(IllegalTransitionError):
        m.prepare_abort_or_commit(True, 0)  # Empty -> PrepareCommit
    transit = m.prepare_add_partitions({TP}, 0)
    with pytest.raises(IllegalTransitionError):
        m.prepare_add_partitions({TP2}, 0)  # one pending transition at a time
    m.complete_transition(transit)
    assert m.state == S.ONGOING


def test_verify_only_answers_as_kafka(h: Harness) -> None:
    """AddPartitionsToTxn verify_only (Kafka 3.9's handleVerifyPartitionsInTransaction):
    partitions the transaction has, and CONCURRENT_TRANSACTIONS while it is being ended."""
    _, pid, epoch = h.init()
    assert h.coordinator.verify_partitions(TID, pid, epoch, {TP}) == (ErrorCode.NONE,
                                                                     {TP: ErrorCode.INVALID_TXN_STATE})
    assert h.add(pid, epoch, TP) == ErrorCode.NONE
    assert h.coordinator.verify_partitions(TID, pid, epoch, {TP, TP2}) == (
        ErrorCode.NONE, {TP: ErrorCode.NONE, TP2: ErrorCode.INVALID_TXN_STATE})
    assert h.coordinator.verify_partitions(TID, pid, epoch + 1, {TP})[0] == ErrorCode.PRODUCER_FENCED
    assert h.coordinator.verify_partitions(TID, pid + 1, epoch, {TP})[0] == ErrorCode.INVALID_PRODUCER_ID_MAPPING
    assert h.end(pid, epoch, commit=False) == ErrorCode.NONE
    assert h.coordinator.verify_partitions(TID, pid, epoch, {TP}) == (ErrorCode.CONCURRENT_TRANSACTIONS, {})
    h.markers.calls[0].done(True)
    h.time.sleep(0)
    assert h.coordinator.verify_partitions(TID, pid, epoch, {TP}) == (ErrorCode.NONE,
                                                                     {TP: ErrorCode.INVALID_TXN_STATE})


def test_init_producer_id_without_a_producer_id_answers_the_allocation_error(h: Harness) -> None:
    """A new transactional id, and one whose epoch is exhausted, need a fresh producer id;
    when none could be drawn the answer is the allocation's error, as Kafka's
    Errors.forException(failure), never COORDINATOR_NOT_AVAILABLE."""
    got: list[tuple[ErrorCode, int, int]] = []
    h.coordinator.init_producer_id(TID, TIMEOUT_MS, None, NO_PRODUCER_ID, lambda *a: got.append(a),
                                   ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)
    assert got == [(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)]
    assert h.init(new_pid=7) == (ErrorCode.NONE, 7, 0)
    h.metadata.producer_epoch = MAX_PRODUCER_EPOCH - 1
    got.clear()
    h.coordinator.init_producer_id(TID, TIMEOUT_MS, None, NO_PRODUCER_ID, lambda *a: got.append(a),
                                   ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)
    assert got == [(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)]
    assert h.init(new_pid=8) == (ErrorCode.NONE, 8, 0)  # once one is drawn: the id rotates


@dataclass
class InitRequest:
    """An InitProducerId as TransactionApis sees it (the GroupRequest protocol)."""

    body: Any
    answered: asyncio.Future
    api_version: int = 4
    header: Any = None
    client_host: str = "127.0.0.1"
    principal: object = None
    listener_name: str = "PLAINTEXT"

    def send_response(self, body: Any) -> None:
        self.answered.set_result(body)


def test_init_producer_id_while_no_block_can_be_reserved_is_coordinator_load_in_progress(
        h: Harness, tmp_path: Path) -> None:
    """TransactionApis with the real ProducerIdManager over a store whose ZooKeeper session
    expired: idempotent and transactional producers hear COORDINATOR_LOAD_IN_PROGRESS (Kafka
    3.9), which every client retries; COORDINATOR_NOT_AVAILABLE sent kafka-python looking up
    a coordinator for a null transactional id, forever. Once the store is back, ids flow."""
    store = ExpiringStore(tmp_path / "pid-store.json")
    requests = HeldRequests()
    producer_ids = ProducerIdManager(1, store, requests, h.time)
    producer_ids.startup()
    requests.complete()  # fails: the session expired
    apis = TransactionApis(h.coordinator, producer_ids, MetadataCache(1), TopicAdmin(store, {}),
                           h.executor, TransactionTopicConfig(), lambda _group: 0)

    def init_producer_id(transactional_id: str | None) -> tuple[ErrorCode, int, int]:
        async def ask() -> Any:
            request = InitRequest(InitProducerIdRequest(
                transactional_id=transactional_id, transaction_timeout_ms=TIMEOUT_MS, producer_id=-1,
                producer_epoch=-1), asyncio.get_running_loop().create_future())
            apis.handle_init_producer_id(request)
            return await asyncio.wait_for(request.answered, 30)
        answer = asyncio.run(ask())
        return answer.error_code, answer.producer_id, answer.producer_epoch

    expect = (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
    assert init_producer_id(None) == expect
    assert init_producer_id(TID) == expect
    store.expired = False
    h.time.sleep(RETRY_BACKOFF_MS)
    assert init_producer_id(None) == expect  # the backoff is over: the block is asked for again
    requests.complete()
    assert init_producer_id(None) == (ErrorCode.NONE, 0, 0)
