"""A partition leader that is also the producer's transaction coordinator verifies the
transaction (KIP-890) in-process instead of with AddPartitionsToTxn to its own listener: the
answers must be the coordinator's, mapped as a request's answer is, and a coordinator on
another broker must still be asked over the network. The coordinator is the real one over a
real ReplicaManager on fake time (tests.test_transaction_coordinator.Harness)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from harness.wire import wait_until
from josefk.coordinator.transaction_log import TRANSACTION_STATE_TOPIC
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.transaction_verification import TransactionVerifier
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.conftest import RunningBroker
from tests.test_transaction_coordinator import TID, TP, TP2, Harness

UNUSED_PORT = 9  # nothing listens: a unit test that connects anywhere fails (tests/conftest.py)


def verifier(h: Harness, coordinator: int) -> TransactionVerifier:
    """Broker 1's verifier, with __transaction_state-0 (every id's) led by `coordinator`."""
    cache = MetadataCache(1)
    cache.update(1, [BrokerInfo(1, "127.0.0.1", UNUSED_PORT), BrokerInfo(2, "127.0.0.1", UNUSED_PORT)],
                 [PartitionState(TRANSACTION_STATE_TOPIC, 0, coordinator, 0, [coordinator], [coordinator], 1)])
    made = TransactionVerifier(1, cache, lambda _tid: (TRANSACTION_STATE_TOPIC, 0), time=h.time, scheduler=h.scheduler)
    made.local = h.coordinator
    return made


def verify(v: TransactionVerifier, pid: int, epoch: int, *tps: tuple[str, int],
           tid: str = TID) -> dict[tuple[str, int], ErrorCode] | None:
    got: list[dict[tuple[str, int], ErrorCode]] = []
    v.verify_transaction(tid, pid, epoch, list(tps), got.append)
    return got[0] if got else None


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path)
    yield harness
    harness.close()


def test_own_coordinator_answers_at_once_as_its_request_would(h: Harness) -> None:
    v = verifier(h, coordinator=1)
    try:
        _, pid, epoch = h.init()
        assert h.add(pid, epoch, TP) == ErrorCode.NONE
        assert verify(v, pid, epoch, TP, TP2) == {TP: ErrorCode.NONE, TP2: ErrorCode.INVALID_TXN_STATE}
        # A fenced producer hears INVALID_PRODUCER_EPOCH from the leader, as from a request's answer.
        assert verify(v, pid, epoch - 1 if epoch else epoch + 1, TP) == {TP: ErrorCode.INVALID_PRODUCER_EPOCH}
        assert verify(v, pid + 1, epoch, TP) == {TP: ErrorCode.INVALID_PRODUCER_ID_MAPPING}
        assert verify(v, pid, epoch, TP, tid="never-initialised") == {TP: ErrorCode.INVALID_PRODUCER_ID_MAPPING}
        assert h.end(pid, epoch, commit=True) == ErrorCode.NONE  # prepared: a late write must not open it again
        assert verify(v, pid, epoch, TP) == {TP: ErrorCode.CONCURRENT_TRANSACTIONS}
        assert not v.manager._waiting and not v.manager._in_flight
    finally:
        v.close()


def test_a_coordinator_that_no_longer_owns_the_id_says_so(h: Harness) -> None:
    """The metadata still names this broker while its coordinator has let the partition go:
    NOT_COORDINATOR, which the producer retries after finding the coordinator again."""
    v = verifier(h, coordinator=1)
    try:
        _, pid, epoch = h.init()
        h.state.unload_partition(0)
        assert verify(v, pid, epoch, TP) == {TP: ErrorCode.NOT_COORDINATOR}
    finally:
        v.close()


def test_another_brokers_coordinator_is_still_asked_over_the_network(h: Harness) -> None:
    v = verifier(h, coordinator=2)
    try:
        _, pid, epoch = h.init()
        assert h.add(pid, epoch, TP) == ErrorCode.NONE
        assert verify(v, pid, epoch, TP) is None  # waits for broker 2's answer
        assert list(v.manager._waiting) == [2]
    finally:
        v.close()


@pytest.fixture
def tbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", {"transaction.state.log.num.partitions": "3"})
    yield running
    running.stop()


@pytest.mark.integration
def test_a_broker_verifies_its_own_producers_without_a_request(tbroker: RunningBroker) -> None:
    """Transactional produces with librdkafka on one broker: each opens its transaction on
    the partition (verified), and no verify-only AddPartitionsToTxn reaches the broker."""
    verify_requests = []
    apis = tbroker.server.apis
    handle = apis.handlers[ApiKey.AddPartitionsToTxn]

    def spy(request) -> None:
        if request.api_version >= 4 and any(t.verify_only for t in request.body.transactions):
            verify_requests.append(request)
        handle(request)

    apis.handlers[ApiKey.AddPartitionsToTxn] = spy
    bootstrap, topic = tbroker.bootstrap, f"verify-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, 1, 1)]).values():
        future.result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"tid-{topic}"})
    producer.init_transactions(30)
    for commit in (True, False, True):
        producer.begin_transaction()
        producer.produce(topic, b"x")
        producer.flush(30)
        if commit:
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)
    assert verify_requests == []
    log = tbroker.server.replica_manager.partitions[(topic, 0)].log
    # A commit returns once PrepareCommit is logged; the last marker follows.
    wait_until(lambda: log.log_end_offset == 6, "3 records and 3 markers are in the partition")
