"""The controller's BrokerModifications (Kafka's processBrokerModification): a live broker that
rewrites its registration with other endpoints, same broker epoch, is told to every broker in an
UpdateMetadata; its channel stays (only a new registration gets a new one)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.zk.zk_data import BROKERS_IDS, BrokerInfo, EndPoint
from tests.test_controller_election import DeferredWatchStore, register

pytestmark = pytest.mark.unit


class Plane:
    """A broker's control plane: the live brokers of each UpdateMetadata sent to it."""

    def __init__(self) -> None:
        self.updates: list[dict[int, tuple[str, int]]] = []

    def leader_and_isr(self, controller_id, controller_epoch, states, live_brokers) -> None:
        pass

    def update_metadata(self, controller_id, controller_epoch, live_brokers, states) -> None:
        self.updates.append({b.broker_id: (b.host, b.port) for b in live_brokers})

    def stop_replica(self, controller_epoch, partitions, delete) -> None:
        pass


def test_endpoint_change_of_a_live_broker_reaches_every_broker(tmp_path: Path) -> None:
    store = DeferredWatchStore(tmp_path / "store.json")
    for broker_id in (1, 2):
        register(store, broker_id)
    local, connected = Plane(), []

    def connect(info: BrokerInfo) -> Plane:
        connected.append(info.broker_id)
        return Plane()

    channels = ControllerChannelManager(1, local, connect)
    controller = KafkaController(1, store, channels)
    controller.startup()
    store.run_pending()
    epoch = controller.live_brokers[2].epoch
    remote = channels.get(2).plane  # type: ignore[union-attr]
    sent_before = len(local.updates), len(remote.updates)

    moved = BrokerInfo(2, "localhost", 9002, endpoints=(EndPoint("PLAINTEXT", "localhost", 9002, "PLAINTEXT"),))
    store.set(f"{BROKERS_IDS}/2", json.dumps(moved.to_json()).encode())  # the broker's updateBrokerInfo
    store.run_pending()

    assert controller.live_brokers[2] == replace(moved, epoch=epoch)
    assert local.updates[sent_before[0]:] == [{1: ("127.0.0.1", 9001), 2: ("localhost", 9002)}]
    assert remote.updates[sent_before[1]:] == [{1: ("127.0.0.1", 9001), 2: ("localhost", 9002)}]
    assert connected == [2] and channels.get(2).plane is remote  # type: ignore[union-attr]

    store.set(f"{BROKERS_IDS}/2", json.dumps(moved.to_json()).encode())  # the same endpoints: nothing to tell
    store.run_pending()
    assert len(local.updates) == sent_before[0] + 1
