"""advertised.listeners changed per broker at run time, as Kafka 3.9 does it in ZooKeeper mode:
the broker rewrites its own /brokers/ids/<id> (same ephemeral node, same broker epoch), the
controller hears the data change (BrokerModifications) and sends every broker UpdateMetadata,
so Metadata from any broker shows the new address; the stored config applies again at a restart.
Each case goes through a real Kafka admin client (confluent-kafka, which sends a broker's
config to that broker) and waits on conditions."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from harness.net import free_port
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.server.broker import KafkaServer
from josefk.server.config import KafkaConfig
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.host_store import HostStoreServer
from tests.conftest import RunningBroker
from tests.differential import Side
from tests.test_dynamic_configs_cluster import zookeeper_brokers

pytestmark = pytest.mark.cluster

SOURCE_DYNAMIC_BROKER_CONFIG = 2


def set_advertised(admin: AdminClient, broker_id: int, value: str) -> None:
    """IncrementalAlterConfigs SET advertised.listeners on broker `broker_id` (raises KafkaException)."""
    resource = ConfigResource(ResourceType.BROKER, str(broker_id), incremental_configs=[
        ConfigEntry("advertised.listeners", value, incremental_operation=AlterConfigOpType.SET)])
    for future in admin.incremental_alter_configs([resource]).values():
        future.result(timeout=30)


def brokers_seen(side: Side) -> dict[int, tuple[str, int]]:
    """The live brokers in `side`'s Metadata answer, by id: (host, port)."""
    r = side.call(ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                  include_topic_authorized_operations=False)
    return {b.node_id: (b.host, b.port) for b in r.brokers}


def described(side: Side, broker_id: int) -> tuple[str, int]:
    r = side.call(ApiKey.DescribeConfigs, 4, include_synonyms=True, include_documentation=False, resources=[{
        "resource_type": 4, "resource_name": str(broker_id), "configuration_keys": ["advertised.listeners"]}])
    entry = r.results[0].configs[0]
    return entry.value, entry.config_source


def test_advertised_listeners_change_reaches_every_broker_and_survives_a_restart(tmp_path: Path) -> None:
    port = free_port()
    listeners = f"PLAINTEXT://127.0.0.1:{port}"
    with zookeeper_brokers(tmp_path, {0: {}, 1: {"listeners": listeners}}) as cluster:
        brokers, sides, kazoo = cluster.brokers, cluster.sides, cluster.kazoo
        wait_until(lambda: brokers_seen(sides[0]) == {0: ("127.0.0.1", brokers[0].server.port),
                                                      1: ("127.0.0.1", port)}, "both brokers registered")
        # Made now: librdkafka sends a broker's config to that broker once its metadata lists it.
        admin = AdminClient({"bootstrap.servers": brokers[0].bootstrap})
        kazoo.start(timeout=10)
        data, stat = kazoo.get("/brokers/ids/1")
        assert json.loads(data)["endpoints"] == [f"PLAINTEXT://127.0.0.1:{port}"]

        # Refused as Kafka 3.9.2 refuses it (INVALID_REQUEST, its message); nothing changes.
        with pytest.raises(KafkaException) as refused:
            set_advertised(admin, 1, f"FOO://localhost:{port}")
        error = refused.value.args[0]
        del refused  # its traceback holds the admin client
        assert (error.name(), error.str()) == (
            "INVALID_REQUEST", f"Error creating broker listeners from 'FOO://localhost:{port}': "
                               "No security protocol defined for listener FOO")
        assert not kazoo.exists("/config/brokers/1")
        assert kazoo.get("/brokers/ids/1")[1].version == stat.version

        set_advertised(admin, 1, f"PLAINTEXT://localhost:{port}")
        wait_until(lambda: brokers_seen(sides[0]).get(1) == ("localhost", port),
                   "broker 0's Metadata lists broker 1 at localhost")
        wait_until(lambda: brokers_seen(sides[1]).get(1) == ("localhost", port),
                   "broker 1's Metadata lists itself at localhost")
        assert brokers_seen(sides[0])[0] == ("127.0.0.1", brokers[0].server.port)
        data, after = kazoo.get("/brokers/ids/1")
        assert json.loads(data)["endpoints"] == [f"PLAINTEXT://localhost:{port}"]
        assert (after.czxid, after.ephemeralOwner) == (stat.czxid, stat.ephemeralOwner)  # the broker epoch stays
        assert brokers[1].server.broker_epoch.epoch == stat.czxid
        assert described(sides[1], 1) == (f"PLAINTEXT://localhost:{port}", SOURCE_DYNAMIC_BROKER_CONFIG)

        # Restarted, broker 1 registers the stored advertised.listeners again.
        sides[1].close()
        brokers[1].stop()
        brokers[1] = RunningBroker(tmp_path / "b1", cluster.props(1, listeners=listeners))
        sides[1] = Side("b1", brokers[1].bootstrap)
        assert brokers[1].server.broker_info.endpoints[0].host == "localhost"
        wait_until(lambda: kazoo.get("/brokers/ids/1")[1].czxid != stat.czxid, "broker 1 registered again")
        assert json.loads(kazoo.get("/brokers/ids/1")[0])["endpoints"] == [f"PLAINTEXT://localhost:{port}"]
        wait_until(lambda: brokers_seen(sides[0]).get(1) == ("localhost", port),
                   "broker 0's Metadata lists the restarted broker 1 at localhost")
        assert described(sides[1], 1) == (f"PLAINTEXT://localhost:{port}", SOURCE_DYNAMIC_BROKER_CONFIG)


def test_advertised_listeners_change_standalone(tmp_path: Path) -> None:
    """No zookeeper.connect: the embedded store has the same watches, so the broker's own
    controller hears its registration change and the broker's Metadata shows it."""
    port = free_port()
    broker = RunningBroker(tmp_path / "b", {"listeners": f"PLAINTEXT://127.0.0.1:{port}"})
    side = Side("b", broker.bootstrap)
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    try:
        epoch = broker.server.broker_epoch.epoch
        # The cluster default (resource name "", which confluent-kafka does not send): per broker only.
        r = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 4, "resource_name": "", "configs": [{
                "name": "advertised.listeners", "config_operation": 0, "value": f"PLAINTEXT://localhost:{port}"}]}])
        assert (r.responses[0].error_code, r.responses[0].error_message) == (42, (  # INVALID_REQUEST
            "Cannot update these configs at default cluster level, broker id must be specified: "
            "Set(advertised.listeners)"))
        set_advertised(admin, 0, f"PLAINTEXT://localhost:{port}")
        wait_until(lambda: brokers_seen(side) == {0: ("localhost", port)}, "Metadata lists the broker at localhost")
        found = broker.server.store.get_with_creation_id("/brokers/ids/0")  # type: ignore[union-attr]
        assert found is not None and found[1] == epoch
        assert json.loads(found[0])["endpoints"] == [f"PLAINTEXT://localhost:{port}"]
    finally:
        side.close()
        broker.stop()


class HostedBroker(RunningBroker):
    """A broker on `josefk host`'s store (zookeeper.connect empty, the host's Unix socket)."""

    def __init__(self, log_dir: Path, host_socket: Path, overrides: dict[str, str]) -> None:
        self.config = KafkaConfig({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(log_dir),
                                   "offsets.topic.replication.factor": "1", **overrides})
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = KafkaServer(self.config, host_store=host_socket)
        self.call(self.server.startup())


def test_advertised_listeners_change_under_josefk_host_store(tmp_path: Path) -> None:
    """The host's store serves set and data watches across its brokers as ZooKeeper does:
    broker 1's new address reaches the controller and broker 0's Metadata."""
    store = EmbeddedStore(tmp_path / "store.json")
    socket_path = tmp_path / "host.sock"
    host = HostStoreServer(store, socket_path)
    port = free_port()
    brokers = [HostedBroker(tmp_path / "b0", socket_path, {"broker.id": "0"}),
               HostedBroker(tmp_path / "b1", socket_path, {"broker.id": "1",
                                                            "listeners": f"PLAINTEXT://127.0.0.1:{port}"})]
    sides = [Side(f"b{i}", b.bootstrap) for i, b in enumerate(brokers)]
    try:
        wait_until(lambda: brokers_seen(sides[0]).get(1) == ("127.0.0.1", port), "broker 0 sees broker 1")
        r = sides[1].call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 4, "resource_name": "1", "configs": [{
                "name": "advertised.listeners", "config_operation": 0, "value": f"PLAINTEXT://localhost:{port}"}]}])
        assert r.responses[0].error_code == 0, r
        wait_until(lambda: brokers_seen(sides[0]).get(1) == ("localhost", port),
                   "broker 0's Metadata lists broker 1 at localhost")
    finally:
        for side in sides:
            side.close()
        for broker in reversed(brokers):
            broker.stop()
        host.close()
        store.close()
