"""Topic ids follow inter.broker.protocol.version as in Kafka's ZooKeeper mode: from 2.8 a
topic has one, written once into /brokers/topics/<t> (a topic created at an older IBP
gets it from the first controller that loads it, as Kafka's setTopicIds); below 2.8
topics have none and no broker is told one (LeaderAndIsr v4 and UpdateMetadata v6 carry
none, so the controller's own broker must not see one either: the mixed IBP 2.6 test
found josefk answering a topic id only there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.zk.admin_zk_client import TopicAdmin
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import PartitionState, topic_path
from tests.test_controller_election import RecordingBroker, register

pytestmark = pytest.mark.unit

# What Kafka 3.9 writes for a topic at inter.broker.protocol.version 2.6: no "topic_id".
OLD_TOPIC = {"version": 3, "partitions": {"0": [1, 2]}, "adding_replicas": {}, "removing_replicas": {}}


class StatesBroker(RecordingBroker):
    def __init__(self) -> None:
        super().__init__()
        self.states: list[PartitionState] = []

    def leader_and_isr(self, controller_id, controller_epoch, states, live_brokers) -> None:
        self.states += states


def start(store: EmbeddedStore, broker_id: int, topic_ids: bool) -> tuple[KafkaController, StatesBroker]:
    broker = StatesBroker()
    controller = KafkaController(broker_id, store, ControllerChannelManager(broker_id, broker),
                                 protocol=InterBrokerProtocol.parse("2.8" if topic_ids else "2.6"))
    controller.startup()
    return controller, broker


def test_a_topic_without_an_id_gets_one_written_once_from_ibp_2_8(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    for broker_id in (1, 2):
        register(store, broker_id)
    store.create(topic_path("t"), json.dumps(OLD_TOPIC).encode())
    first, broker = start(store, 1, topic_ids=True)
    written = store.get_json(topic_path("t"))
    assert written is not None and written["topic_id"] and written["partitions"] == {"0": [1, 2]}
    topic_id = first.assignments["t"].topic_id
    assert {s.topic_id for s in broker.states} == {topic_id}
    first.shutdown()
    store.close()
    store = EmbeddedStore(tmp_path / "store.json")  # the first controller's session is gone
    register(store, 2)
    second, broker = start(store, 2, topic_ids=True)  # a failover keeps the id
    assert second.active and second.assignments["t"].topic_id == topic_id
    assert store.get_json(topic_path("t")) == written


def test_below_ibp_2_8_topics_have_no_id_and_brokers_are_told_none(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    register(store, 1)
    store.create(topic_path("t"), json.dumps(OLD_TOPIC).encode())
    _controller, broker = start(store, 1, topic_ids=False)
    TopicAdmin(store, {}, topic_ids=False).create_topic("u", 1, 1, None, {})
    assert store.get_json(topic_path("t")) == OLD_TOPIC
    assert "topic_id" not in (store.get_json(topic_path("u")) or {})
    assert broker.states and all(s.topic_id is None for s in broker.states)
    assert {s.topic for s in broker.states} == {"t", "u"}
