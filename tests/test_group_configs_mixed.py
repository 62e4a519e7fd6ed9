"""Group configs in a mixed cluster: a Kafka 3.9 broker and a josefk broker under one ZooKeeper.
josefk stores a group's configs in /config/groups/<group> with a groups/<group> change
notification; Kafka 3.9.2's ZkConfigManager knows no "groups" entity, so it logs the
notification as an error and goes on: later config changes still reach it. Kafka 3.9 itself
answers GROUP config resources as it always did (it has none), so a client asks josefk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.kafka import KafkaBroker
from harness.mixed import MixedCluster, wait_for
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from tests.differential import Side

pytestmark = pytest.mark.cluster

KAFKA_ID, JOSEFK_ID = 1, 2


@pytest.fixture
def cluster(zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[MixedCluster]:
    mixed = MixedCluster(zookeeper, tmp_path, {KAFKA_ID}, {"offsets.topic.replication.factor": "1"})
    try:
        mixed.start_all([KAFKA_ID, JOSEFK_ID])
        yield mixed
    finally:
        mixed.close()


def alter(side: Side, resource_type: int, name: str, key: str, value: str) -> tuple[int, str | None]:
    r = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
        "resource_type": resource_type, "resource_name": name,
        "configs": [{"name": key, "config_operation": 0, "value": value}]}])
    return r.responses[0].error_code, r.responses[0].error_message


def test_a_kafka_39_broker_skips_a_group_config_change_and_applies_the_next_changes(cluster: MixedCluster) -> None:
    josefk = Side("josefk", cluster.brokers[JOSEFK_ID].bootstrap)
    kafka = Side("kafka", cluster.brokers[KAFKA_ID].bootstrap)
    try:
        assert alter(josefk, 32, "mixed-g", "consumer.heartbeat.interval.ms", "6000") == (0, None)
        kafka_broker = cluster.brokers[KAFKA_ID]
        assert isinstance(kafka_broker, KafkaBroker)
        refused = 'ERROR error processing change notification {"version":2,"entity_path":"groups/mixed-g"}'
        wait_for(lambda: refused in kafka_broker._this_run_log(), 60,  # noqa: SLF001 - the broker's own log
                 "Kafka 3.9 to log the group config notification it does not know")
        # Its change listener goes on: a cluster default changed after reaches it.
        assert alter(josefk, 4, "", "log.retention.ms", "4200000") == (0, None)

        def applied() -> bool:
            r = kafka.call(ApiKey.DescribeConfigs, 1, include_synonyms=False, resources=[{
                "resource_type": 4, "resource_name": str(KAFKA_ID), "configuration_keys": ["log.retention.ms"]}])
            return [(c.value, c.config_source) for c in r.results[0].configs] == [("4200000", 3)]

        wait_for(applied, 60, "Kafka 3.9 to apply the cluster default set after the group config")
        described = josefk.call(ApiKey.DescribeConfigs, 4, include_synonyms=False, include_documentation=False,
                                resources=[{"resource_type": 32, "resource_name": "mixed-g",
                                            "configuration_keys": ["consumer.heartbeat.interval.ms"]}])
        assert [(c.value, c.config_source) for c in described.results[0].configs] == [("6000", 8)]
        theirs = kafka.call(ApiKey.DescribeConfigs, 4, include_synonyms=False, include_documentation=False,
                            resources=[{"resource_type": 32, "resource_name": "mixed-g", "configuration_keys": None}])
        assert theirs.results[0].error_code == 42  # INVALID_REQUEST: a resource type ZooKeeper-mode Kafka lacks
    finally:
        josefk.close()
        kafka.close()
