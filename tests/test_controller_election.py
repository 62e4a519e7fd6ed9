"""Controller failover against a store whose watches fire later on the event loop (as
kazoo's do): a broker that registers while the new controller is reading the broker list
must not stay unseen."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BROKERS_IDS, BrokerInfo, TopicAssignment, topic_path

pytestmark = pytest.mark.cluster


class DeferredWatchStore(EmbeddedStore):
    """Watch callbacks are queued, not run inside the write, like ZooKeeper's. The first
    read of /brokers/ids lets broker 2 register right after it, inside the failover."""

    def __init__(self, file: Path) -> None:
        super().__init__(file)
        self.pending: list[tuple] = []
        self.race_armed = False

    def _fire(self, path: str) -> None:
        watchers = [*self.data_watchers.get(path, ())]
        parent = path.rsplit("/", 1)[0] or "/"
        self.pending += [(w, path) for w in watchers] + [(w, parent) for w in self.child_watchers.get(parent, ())]

    def children(self, path: str) -> list[str]:
        found = super().children(path)
        if path == BROKERS_IDS and self.race_armed:
            self.race_armed = False
            register(self, 2)
        return found

    def run_pending(self) -> None:
        while self.pending:
            watcher, path = self.pending.pop(0)
            watcher(path)


class RecordingBroker:
    """The local broker's control plane: records what the controller tells it."""

    def __init__(self) -> None:
        self.live: list[int] = []

    def leader_and_isr(self, controller_id, controller_epoch, states, live_brokers) -> None:
        pass

    def update_metadata(self, controller_id, controller_epoch, live_brokers, states) -> None:
        self.live = sorted(b.broker_id for b in live_brokers)

    def stop_replica(self, controller_epoch, partitions, delete) -> None:
        pass


def register(store: EmbeddedStore, broker_id: int) -> None:
    info = BrokerInfo(broker_id, "127.0.0.1", 9000 + broker_id)
    store.create(f"{BROKERS_IDS}/{broker_id}", json.dumps(info.to_json()).encode(), ephemeral=True)


def test_broker_registering_during_failover_is_seen(tmp_path: Path) -> None:
    store = DeferredWatchStore(tmp_path / "store.json")
    register(store, 1)
    broker = RecordingBroker()
    controller = KafkaController(1, store, ControllerChannelManager(1, broker))
    store.race_armed = True
    controller.startup()
    store.run_pending()  # the event loop runs the queued watch callbacks
    assert sorted(controller.live_brokers) == [1, 2]
    assert broker.live == [1, 2]


class RecordingPlane:
    """A remote broker's control plane: the LeaderAndIsr states sent to it."""

    def __init__(self) -> None:
        self.leader_and_isr_states: list = []

    def leader_and_isr(self, controller_id, controller_epoch, states, live_brokers) -> None:
        self.leader_and_isr_states += states

    def update_metadata(self, controller_id, controller_epoch, live_brokers, states) -> None:
        pass

    def stop_replica(self, controller_epoch, partitions, delete) -> None:
        pass


def test_broker_that_bounces_within_one_watch_event_is_handled_by_its_new_epoch(tmp_path: Path) -> None:
    """KIP-380: watches coalesce, so a broker that restarts within the ZooKeeper session
    timeout can look as if it never left. Its new registration (a new broker epoch) must
    still cost it its leaderships and bring it a LeaderAndIsr for all its partitions."""
    store = DeferredWatchStore(tmp_path / "store.json")
    for broker_id in (1, 2, 3):
        register(store, broker_id)
    planes: dict[int, RecordingPlane] = {}

    def connect(info: BrokerInfo) -> RecordingPlane:
        planes[info.broker_id] = RecordingPlane()
        return planes[info.broker_id]

    controller = KafkaController(1, store, ControllerChannelManager(1, RecordingBroker(), connect))
    controller.startup()
    assignment = TopicAssignment("t", uuid.uuid4(), {0: [2, 3, 1], 1: [3, 1, 2]})
    store.create(topic_path("t"), json.dumps(assignment.to_json()).encode())
    store.run_pending()
    assert controller.states[("t", 0)].leader == 2
    old_epoch = controller.live_brokers[2].epoch

    store.delete(f"{BROKERS_IDS}/2")  # broker 2 is killed and registers again before
    register(store, 2)  # the controller handles the first watch event
    store.run_pending()

    assert controller.live_brokers[2].epoch > old_epoch
    led_before = controller.states[("t", 0)]
    assert led_before.leader == 3 and 2 not in led_before.isr  # led by an ISR member that kept its state
    assert 2 not in controller.states[("t", 1)].isr  # it rejoins the ISR once it has caught up
    sent = {(s.topic, s.partition) for s in planes[2].leader_and_isr_states if s.leader != 2}
    assert sent == {("t", 0), ("t", 1)}  # the new incarnation learns both partitions as follower


def test_unclean_election_is_counted(tmp_path: Path) -> None:
    """ControllerStats' UncleanLeaderElectionsPerSec: a leader elected from outside the ISR
    counts; a clean election and one not needed do not."""
    store = DeferredWatchStore(tmp_path / "store.json")
    for broker_id in (1, 2):
        register(store, broker_id)
    controller = KafkaController(1, store, ControllerChannelManager(1, RecordingBroker(), lambda _: RecordingPlane()))
    controller.startup()
    store.create(topic_path("t"), json.dumps(TopicAssignment("t", uuid.uuid4(), {0: [2, 1]}).to_json()).encode())
    store.run_pending()
    store.delete(f"{BROKERS_IDS}/1")  # 1 leaves the ISR ...
    store.run_pending()
    register(store, 1)  # ... and comes back behind
    store.delete(f"{BROKERS_IDS}/2")  # the last ISR member dies: offline
    store.run_pending()
    assert controller.states[("t", 0)].leader == -1 and controller.states[("t", 0)].isr == [2]
    assert controller.elect_leaders([("t", 0)], unclean=False)[("t", 0)][0] != 0
    assert controller.unclean_elections == 0
    assert controller.elect_leaders([("t", 0)], unclean=True) == {("t", 0): (0, "")}
    assert controller.states[("t", 0)].leader == 1
    assert controller.unclean_elections == 1
    controller.elect_leaders([("t", 0)], unclean=True)  # not needed any more
    assert controller.unclean_elections == 1
