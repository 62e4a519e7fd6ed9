"""Dynamic configs in a cluster on a real ZooKeeper: a cluster-default broker config and a
topic config, each changed through one broker, reach the logs of both brokers through
Kafka's znodes (/config/brokers/<default>, /config/topics/<t>, /config/changes)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from tests.conftest import RunningBroker
from tests.differential import Side

pytestmark = pytest.mark.cluster


@dataclass
class ZooKeeperBrokers:
    """Brokers on a real ZooKeeper, a Side to each (index i is brokers[i]'s; a test that
    restarts a broker replaces both entries) and a kazoo client, not yet started."""

    zookeeper: ZooKeeperServer
    kazoo: KazooClient
    brokers: list[RunningBroker] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)

    def props(self, broker_id: int, **overrides: str) -> dict[str, str]:
        return {"broker.id": str(broker_id), "zookeeper.connect": self.zookeeper.connect,
                "offsets.topic.replication.factor": "1", "zookeeper.session.timeout.ms": "6000", **overrides}


@contextmanager
def zookeeper_brokers(tmp_path: Path, brokers: dict[int, dict[str, str]]) -> Iterator[ZooKeeperBrokers]:
    """The brokers (id: overrides) started in order, each in tmp_path/b<id>; everything is
    stopped at the end, whatever failed, brokers in reverse order and ZooKeeper last."""
    zookeeper = ZooKeeperServer()
    cluster = ZooKeeperBrokers(zookeeper, KazooClient(hosts=zookeeper.connect))
    try:
        for broker_id, overrides in brokers.items():
            cluster.brokers.append(RunningBroker(tmp_path / f"b{broker_id}", cluster.props(broker_id, **overrides)))
            cluster.sides.append(Side(f"b{broker_id}", cluster.brokers[-1].bootstrap))
        yield cluster
    finally:
        cluster.kazoo.stop()
        cluster.kazoo.close()
        for side in cluster.sides:
            side.close()
        for broker in reversed(cluster.brokers):
            broker.stop()
        zookeeper.stop()


def test_cluster_default_and_topic_changes_reach_every_broker(tmp_path: Path) -> None:
    with zookeeper_brokers(tmp_path, {1: {}, 2: {}}) as cluster:
        brokers, sides, kazoo = cluster.brokers, cluster.sides, cluster.kazoo
        first = sides[0]
        wait_until(lambda: len(first.call(ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                                          include_topic_authorized_operations=False).brokers) == 2,
                   "both brokers registered")
        r = first.call(ApiKey.CreateTopics, 4, timeout_ms=10000, validate_only=False, topics=[{
            "name": "spread", "num_partitions": 2, "replication_factor": 2, "assignments": [], "configs": []}])
        assert r.topics[0].error_code == 0, r

        def logs_of(broker: RunningBroker) -> list:
            return [log_ for (t, _p), log_ in broker.server.log_manager.all_logs().items() if t == "spread"]

        wait_until(lambda: all(len(logs_of(b)) == 2 for b in brokers), "both brokers host both partitions")

        r = first.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 4, "resource_name": "", "configs": [
                {"name": "log.retention.ms", "config_operation": 0, "value": "4200000"}]}])
        assert r.responses[0].error_code == 0, r
        wait_until(lambda: all(log_.config.retention_ms == 4_200_000 for b in brokers for log_ in logs_of(b)),
                   "the cluster default reached every log on both brokers", timeout=10)
        described = sides[1].call(ApiKey.DescribeConfigs, 4, include_synonyms=True, include_documentation=False,
                                  resources=[{"resource_type": 4, "resource_name": "2",
                                              "configuration_keys": ["log.retention.ms"]}]).results[0].configs[0]
        assert (described.value, described.config_source) == ("4200000", 3)

        kazoo.start(timeout=10)
        data, _ = kazoo.get("/config/brokers/<default>")
        assert json.loads(data) == {"version": 1, "config": {"log.retention.ms": "4200000"}}
        notes = [json.loads(kazoo.get(f"/config/changes/{n}")[0]) for n in kazoo.get_children("/config/changes")]
        assert {"version": 2, "entity_path": "brokers/<default>"} in notes

        # A topic override, altered through broker 1, reaches broker 2's replicas too.
        r = first.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 2, "resource_name": "spread", "configs": [
                {"name": "retention.bytes", "config_operation": 0, "value": "9000000"}]}])
        assert r.responses[0].error_code == 0, r
        wait_until(lambda: all(log_.config.retention_bytes == 9_000_000 for log_ in logs_of(brokers[1])),
                   "the topic override reached broker 2", timeout=10)
        assert all(log_.config.retention_ms == 4_200_000 for log_ in logs_of(brokers[1]))
