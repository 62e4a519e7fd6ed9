"""Controller failover against a store whose watches fire later on the event loop (as
kazoo's do): a broker that registers while the new controller is reading the broker list
must not stay unseen."""

from __future__ import annotations

import json
from pathlib import Path

from josefk.replication.controller import ControllerChannelManager, KafkaController
from josefk.replication.coordination_store import EmbeddedStore
from josefk.replication.state import BROKERS_IDS, BrokerInfo


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
