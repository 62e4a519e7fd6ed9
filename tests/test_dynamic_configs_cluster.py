"""Dynamic configs in a cluster on a real ZooKeeper: a cluster-default broker config and a
topic config, each changed through one broker, reach the logs of both brokers through
Kafka's znodes (/config/brokers/<default>, /config/topics/<t>, /config/changes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from tests.conftest import RunningBroker
from tests.differential import Side

pytestmark = pytest.mark.cluster


def test_cluster_default_and_topic_changes_reach_every_broker(tmp_path: Path) -> None:
    zookeeper = ZooKeeperServer()
    brokers: list[RunningBroker] = []
    sides: list[Side] = []
    kazoo = KazooClient(hosts=zookeeper.connect)
    try:
        for broker_id in (1, 2):
            brokers.append(RunningBroker(tmp_path / f"b{broker_id}", {
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect,
                "offsets.topic.replication.factor": "1", "zookeeper.session.timeout.ms": "6000"}))
        sides = [Side(f"b{b.config.broker_id}", b.bootstrap) for b in brokers]
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
    finally:
        kazoo.stop()
        kazoo.close()
        for side in sides:
            side.close()
        for broker in reversed(brokers):
            broker.stop()
        zookeeper.stop()
