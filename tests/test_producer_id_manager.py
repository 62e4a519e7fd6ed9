"""Producer id blocks in /latest_producer_id_block (Kafka's ZkProducerIdManager keeps them so),
handed out as Kafka 3.9's RPCProducerIdManager hands them out: the next block requested in
the background at 90% of the current one, one request at a time, never waiting for it
(COORDINATOR_LOAD_IN_PROGRESS at once while none is at hand), a 50 ms backoff after a failed
request. Fake time; the reservations run against a real store when the test lets them."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest
from kazoo.exceptions import SessionExpiredError

from josefk.coordinator.producer_id_manager import BLOCK_SIZE, RETRY_BACKOFF_MS, Block, ProducerIdManager
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import PRODUCER_ID_BLOCK


class HeldRequests:
    """BlockRequests whose reservations run only when the test completes them: until then
    the request is in flight, as one waiting on an unreachable ZooKeeper is."""

    def __init__(self) -> None:
        self.pending: list[tuple[Callable[[], Block], Callable[[Future[Block]], None]]] = []
        self.submitted = 0

    def submit(self, reserve: Callable[[], Block], done: Callable[[Future[Block]], None]) -> None:
        self.pending.append((reserve, done))
        self.submitted += 1

    def complete(self) -> None:
        """Run the oldest reservation against the store and hand its outcome back."""
        reserve, done = self.pending.pop(0)
        outcome: Future[Block] = Future()
        try:
            outcome.set_result(reserve())
        except Exception as e:
            outcome.set_exception(e)
        done(outcome)


class ExpiringStore(EmbeddedStore):
    """The store as a broker sees it when its ZooKeeper session expired mid-call: reads fail
    with kazoo's SessionExpiredError until `expired` is cleared (a new session)."""

    expired = True

    def get(self, path: str) -> tuple[bytes, int] | None:
        if self.expired:
            raise SessionExpiredError()
        return super().get(path)


def started(store: EmbeddedStore, time: MockTime | None = None) -> tuple[ProducerIdManager, HeldRequests]:
    requests = HeldRequests()
    manager = ProducerIdManager(2, store, requests, time or MockTime())
    manager.startup()
    return manager, requests


def load_in_progress(manager: ProducerIdManager) -> bool:
    with pytest.raises(KafkaError) as failed:
        manager.generate_producer_id()
    return failed.value.code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS


def test_an_empty_block_znode_as_kafka_creates_it_starts_the_first_block(tmp_path: Path) -> None:
    """Kafka creates /latest_producer_id_block with no data among its top-level paths; a
    josefk broker in the same cluster must read that as "no block yet", not fail."""
    store = EmbeddedStore(tmp_path / "store.json")
    store.create(PRODUCER_ID_BLOCK, b"")
    manager, requests = started(store)
    requests.complete()
    assert [manager.generate_producer_id() for _ in range(2)] == [0, 1]
    assert store.get_json(PRODUCER_ID_BLOCK) == {"version": 1, "broker": 2, "block_start": "0",
                                                 "block_end": str(BLOCK_SIZE - 1)}


def test_the_next_block_follows_the_one_another_broker_reserved(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    store.create(PRODUCER_ID_BLOCK, json.dumps({"version": 1, "broker": 1, "block_start": "0",
                                                "block_end": "999"}).encode())
    manager, requests = started(store)
    requests.complete()
    assert manager.generate_producer_id() == 1000


def test_the_first_block_is_requested_at_startup_and_until_it_comes_ids_are_load_in_progress(
        tmp_path: Path) -> None:
    manager, requests = started(EmbeddedStore(tmp_path / "store.json"))
    assert requests.submitted == 1
    assert load_in_progress(manager) and load_in_progress(manager)
    assert requests.submitted == 1  # one request in flight, not one per InitProducerId
    requests.complete()
    assert manager.generate_producer_id() == 0


def test_the_next_block_is_requested_at_90_percent_and_taken_over_without_a_gap(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    manager, requests = started(store)
    requests.complete()
    assert [manager.generate_producer_id() for _ in range(900)] == list(range(900))
    assert requests.submitted == 1
    assert manager.generate_producer_id() == 900  # 90% of the block handed out: ask for the next
    assert requests.submitted == 2 and len(requests.pending) == 1
    assert [manager.generate_producer_id() for _ in range(99)] == list(range(901, 1000))
    assert requests.submitted == 2
    requests.complete()
    block = store.get_json(PRODUCER_ID_BLOCK)
    assert block is not None and block["block_start"] == "1000"
    assert [manager.generate_producer_id() for _ in range(2)] == [1000, 1001]
    assert [manager.generate_producer_id() for _ in range(899)][-1] == 1900
    assert requests.submitted == 3  # the third block at 90% of the second


def test_an_exhausted_block_is_load_in_progress_at_once_while_the_request_is_out(tmp_path: Path) -> None:
    """The store call is outstanding (ZooKeeper unreachable, the session not yet expired):
    ids run out and every further call fails at once, without another request, until the
    reservation comes back."""
    store = EmbeddedStore(tmp_path / "store.json")
    manager, requests = started(store)
    requests.complete()
    for _ in range(BLOCK_SIZE):
        manager.generate_producer_id()
    assert len(requests.pending) == 1  # the prefetch, held
    assert all(load_in_progress(manager) for _ in range(5))
    assert requests.submitted == 2
    requests.complete()
    assert manager.generate_producer_id() == BLOCK_SIZE


def test_a_failed_request_backs_off_before_the_next_and_recovers(tmp_path: Path) -> None:
    time = MockTime()
    store = ExpiringStore(tmp_path / "store.json")
    manager, requests = started(store, time)
    requests.complete()  # the session expired: the startup request fails
    assert load_in_progress(manager)
    assert requests.submitted == 1  # within the backoff: no new request
    time.sleep(RETRY_BACKOFF_MS - 1)
    assert load_in_progress(manager) and requests.submitted == 1
    time.sleep(1)
    assert load_in_progress(manager) and requests.submitted == 2  # backoff over: asked again
    requests.complete()  # fails again
    time.sleep(RETRY_BACKOFF_MS)
    store.expired = False
    assert load_in_progress(manager) and requests.submitted == 3
    requests.complete()
    assert [manager.generate_producer_id() for _ in range(2)] == [0, 1]


def test_a_failed_prefetch_is_retried_when_the_block_runs_out(tmp_path: Path) -> None:
    time = MockTime()
    store = ExpiringStore(tmp_path / "store.json")
    store.expired = False
    manager, requests = started(store, time)
    requests.complete()
    for _ in range(901):
        manager.generate_producer_id()
    store.expired = True
    requests.complete()  # the prefetch fails
    time.sleep(RETRY_BACKOFF_MS)
    store.expired = False
    assert [manager.generate_producer_id() for _ in range(99)][-1] == BLOCK_SIZE - 1
    assert requests.submitted == 2  # as Kafka: the prefetch point was passed once
    assert load_in_progress(manager) and requests.submitted == 3
    requests.complete()
    assert manager.generate_producer_id() == BLOCK_SIZE
