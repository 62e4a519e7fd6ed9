"""A deposed controller cannot write. Found by the 100-fault chaos run: a controller
partitioned from ZooKeeper lost its session, kazoo reconnected with a new one, and the
leader elections it had queued before the Expire event ran and were written under the
new session: partition states at the old controller epoch that no broker ever applied
(they refused its LeaderAndIsr as stale), so their leaders' ISR writes failed for good.
Kafka fences every controller write with the controller epoch node's version and clears
the event queue on Expire; so does josefk now."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import uuid
from pathlib import Path

import pytest

from harness.zookeeper import ZooKeeperServer
from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.controller.controller_events import ControllerEventKind, ControllerEventManager, ControllerMovedError
from josefk.zk.coordination_store import BadVersionError, EmbeddedStore, Fence, FencedError
from josefk.zk.zk_data import CONTROLLER_EPOCH, TopicAssignment, partition_state_path, topic_path
from josefk.zk.zk_store import ZooKeeperStore
from tests.test_controller_election import RecordingBroker, register

pytestmark = pytest.mark.cluster


def test_a_controller_whose_epoch_was_superseded_writes_nothing_and_resigns(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    for broker_id in (1, 2):
        register(store, broker_id)
    controller = KafkaController(1, store, ControllerChannelManager(1, RecordingBroker()))
    controller.startup()
    store.create(topic_path("t"), json.dumps(TopicAssignment("t", uuid.uuid4(), {0: [2, 1]}).to_json()).encode())
    assert controller.states[("t", 0)].leader == 2
    before = store.get(partition_state_path("t", 0))

    store.set(CONTROLLER_EPOCH, str(controller.epoch + 1).encode())  # another broker became controller
    with pytest.raises(ControllerMovedError):
        controller.controlled_shutdown(2)  # would move leadership to broker 1

    assert store.get(partition_state_path("t", 0)) == before
    assert not controller.active


def test_expire_drops_the_events_queued_before_it_and_their_callers_hear_so() -> None:
    events = ControllerEventManager()
    gate = threading.Event()
    ran: list[str] = []
    try:
        events.put(ControllerEventKind.BROKER_CHANGE, gate.wait)  # the thread is busy, as on a stalled store
        queued = events.put(ControllerEventKind.AUTO_PREFERRED_REPLICA_LEADER_ELECTION, lambda: ran.append("election"))
        expire = events.clear_and_put(ControllerEventKind.EXPIRE, lambda: ran.append("expire"))
        after = events.put(ControllerEventKind.STARTUP, lambda: ran.append("startup"))
        gate.set()
        expire.result(10)
        after.result(10)
        with pytest.raises(ControllerMovedError):
            queued.result(0)
        assert ran == ["expire", "startup"]
    finally:
        gate.set()
        events.close()


def test_zookeeper_fenced_writes_apply_only_while_the_fence_holds() -> None:
    zookeeper = ZooKeeperServer()
    loop = asyncio.new_event_loop()
    store = ZooKeeperStore(zookeeper.connect, 6000, 6000, loop)
    try:
        store.create("/controller_epoch", b"1")
        store.create("/brokers/topics/t/partitions/0/state", b"a")
        fence = Fence("/controller_epoch", 0)
        assert store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"b", 0) == 1
        store.fenced_create(fence, "/brokers/topics/t/partitions/1/state", b"s")  # parents made too
        with pytest.raises(BadVersionError) as stale:
            store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"c", 0)
        assert not isinstance(stale.value, FencedError)

        store.set("/controller_epoch", b"2")  # a newer controller
        with pytest.raises(FencedError):
            store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"d", 1)
        with pytest.raises(FencedError):
            store.fenced_create(fence, "/brokers/topics/t/partitions/2/state", b"")
        assert store.get("/brokers/topics/t/partitions/0/state") == (b"b", 1)
        assert store.get("/brokers/topics/t/partitions/1/state") == (b"s", 0)
        assert store.get("/brokers/topics/t/partitions/2/state") is None
    finally:
        store.close()
        loop.close()
        zookeeper.stop()


def test_an_event_whose_caller_gave_up_still_runs_and_the_thread_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    """A shutdown cancels the task awaiting an event (Startup, say): the event runs, its
    result goes nowhere, and neither a traceback nor a dead event thread follows."""
    events = ControllerEventManager()
    try:
        gate = threading.Event()
        ran: list[str] = []
        blocker = events.put(ControllerEventKind.STARTUP, gate.wait)
        given_up = events.put(ControllerEventKind.BROKER_CHANGE, lambda: ran.append("broker change"))
        assert given_up.cancel()
        gate.set()
        blocker.result(timeout=10)
        after = events.put(ControllerEventKind.TOPIC_CHANGE, lambda: "next")
        assert after.result(timeout=10) == "next"
        assert ran == ["broker change"]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        events.close()
