"""Dynamic broker configs on a standalone broker (the embedded coordination store), end to
end over the wire: IncrementalAlterConfigs on BROKER resources stores the change with a
notification, the broker applies it to every log without a topic override, DescribeConfigs
shows Kafka's sources and synonyms, and a restart keeps it. Also APPEND/SUBTRACT on list
configs, topic and broker, as Kafka 3.9 answers them (checked against it by hand; the
differential suite repeats the main cases)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.zk.zk_data import CONFIG_CHANGES
from tests.conftest import RunningBroker
from tests.differential import Side
from tests.differential_cases import batch, produce

pytestmark = pytest.mark.integration

SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
TOPIC, BROKER = 2, 4
DYNAMIC_BROKER, DYNAMIC_DEFAULT, STATIC, DEFAULT = 2, 3, 4, 5
STATIC_PROPS = {"log.retention.hours": "100"}


def alter(side: Side, resource_type: int, name: str, ops: list[tuple[str, int, str | None]],
          validate_only: bool = False) -> Any:
    response = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=validate_only, resources=[{
        "resource_type": resource_type, "resource_name": name,
        "configs": [{"name": k, "config_operation": op, "value": v} for k, op, v in ops]}])
    return response.responses[0]


def describe(side: Side, resource_type: int, name: str, keys: list[str] | None = None) -> dict[str, Any]:
    response = side.call(ApiKey.DescribeConfigs, 4, include_synonyms=True, include_documentation=False,
                         resources=[{"resource_type": resource_type, "resource_name": name,
                                     "configuration_keys": keys}])
    result = response.results[0]
    assert result.error_code == 0, result
    return {c.name: c for c in result.configs}


def synonyms(entry: Any) -> list[tuple[str, str, int]]:
    return [(s.name, s.value, s.source) for s in entry.synonyms]


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[RunningBroker, Side]]:
    broker = RunningBroker(tmp_path / "logs", STATIC_PROPS)
    side = Side("josefk", broker.bootstrap)
    yield broker, side
    side.close()
    broker.stop()


def create_topic(side: Side, name: str, configs: dict[str, str] | None = None) -> None:
    r = side.call(ApiKey.CreateTopics, 4, timeout_ms=10000, validate_only=False, topics=[{
        "name": name, "num_partitions": 1, "replication_factor": 1, "assignments": [],
        "configs": [{"name": k, "value": v} for k, v in (configs or {}).items()]}])
    assert r.topics[0].error_code == 0, r


def test_broker_level_retention_reaches_logs_and_survives_a_restart(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", STATIC_PROPS)
    side = Side("josefk", broker.bootstrap)
    try:
        create_topic(side, "plain")
        create_topic(side, "pinned", {"retention.ms": "1000"})
        wait_until(lambda: ("plain", 0) in broker.server.log_manager.all_logs(), "plain's log exists")
        assert broker.server.log_manager.all_logs()[("plain", 0)].config.retention_ms == 100 * 3_600_000

        assert alter(side, BROKER, "0", [("log.retention.ms", SET, "7200000")]).error_code == 0
        assert alter(side, BROKER, "", [("log.retention.bytes", SET, "5000000")]).error_code == 0
        logs = broker.server.log_manager.all_logs()
        wait_until(lambda: logs[("plain", 0)].config.retention_ms == 7_200_000, "the broker's log.retention.ms applied")
        wait_until(lambda: logs[("plain", 0)].config.retention_bytes == 5_000_000, "default retention.bytes applied")
        assert logs[("pinned", 0)].config.retention_ms == 1000  # a topic override still wins
        assert logs[("pinned", 0)].config.retention_bytes == 5_000_000

        # Kafka's ZooKeeper layout: the entity znode and a v2 change notification.
        store = broker.server.store
        assert store is not None
        assert store.get_json("/config/brokers/0") == {"version": 1, "config": {"log.retention.ms": "7200000"}}
        assert store.get_json("/config/brokers/<default>") == {"version": 1,
                                                              "config": {"log.retention.bytes": "5000000"}}
        notes = [store.get_json(f"{CONFIG_CHANGES}/{n}") for n in store.children(CONFIG_CHANGES)]
        assert {"version": 2, "entity_path": "brokers/0"} in notes
        assert {"version": 2, "entity_path": "brokers/<default>"} in notes

        _check_described(side)
        side.close()
        broker.stop()
        broker = RunningBroker(tmp_path / "logs", STATIC_PROPS)
        side = Side("josefk", broker.bootstrap)
        _check_described(side)
        log_ = broker.server.log_manager.all_logs()[("plain", 0)]
        assert (log_.config.retention_ms, log_.config.retention_bytes) == (7_200_000, 5_000_000)
        wait_until(lambda: ("plain", 0) in broker.server.replica_manager.partitions, "plain is led again")

        # Deleting the per-broker value falls back to the static file's log.retention.hours.
        assert alter(side, BROKER, "0", [("log.retention.ms", DELETE, None)]).error_code == 0
        wait_until(lambda: broker.server.log_manager.all_logs()[("plain", 0)].config.retention_ms == 360_000_000,
                   "the static log.retention.hours applies again")
    finally:
        side.close()
        broker.stop()


def _check_described(side: Side) -> None:
    wait_until(lambda: describe(side, BROKER, "0", ["log.retention.ms"])["log.retention.ms"].config_source
               == DYNAMIC_BROKER, "the per-broker value is described")
    described = describe(side, BROKER, "0", ["log.retention.ms", "log.retention.bytes", "num.partitions"])
    ms = described["log.retention.ms"]
    assert (ms.value, ms.read_only) == ("7200000", False)
    assert synonyms(ms) == [("log.retention.ms", "7200000", DYNAMIC_BROKER),
                            ("log.retention.hours", "100", STATIC), ("log.retention.hours", "168", DEFAULT)]
    size = described["log.retention.bytes"]
    assert (size.value, size.config_source) == ("5000000", DYNAMIC_DEFAULT)
    assert synonyms(size) == [("log.retention.bytes", "5000000", DYNAMIC_DEFAULT),
                              ("log.retention.bytes", "-1", DEFAULT)]
    assert described["num.partitions"].read_only is True
    default = describe(side, BROKER, "")
    assert list(default) == ["log.retention.bytes"]
    assert synonyms(default["log.retention.bytes"]) == [("log.retention.bytes", "5000000", DYNAMIC_DEFAULT)]
    topic = describe(side, TOPIC, "plain", ["retention.ms"])["retention.ms"]
    assert (topic.value, topic.config_source) == ("7200000", DYNAMIC_BROKER)


def test_static_keys_invalid_values_other_brokers_and_validate_only(running: tuple[RunningBroker, Side]) -> None:
    broker, side = running
    r = alter(side, BROKER, "0", [("num.partitions", SET, "3")])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST,
                                               "Cannot update these configs dynamically: Set(num.partitions)")
    r = alter(side, BROKER, "", [("num.partitions", SET, "3"), ("log.retention.hours", SET, "5")])
    assert r.error_message == "Cannot update these configs dynamically: Set(log.retention.hours, num.partitions)"
    r = alter(side, BROKER, "0", [("log.retention.ms", SET, "soon")])
    assert (r.error_code, r.error_message) == (
        ErrorCode.INVALID_REQUEST, "Invalid value soon for configuration log.retention.ms: Not a number of type LONG")
    r = alter(side, BROKER, "7", [("log.retention.ms", SET, "1")])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST,
                                               "Unexpected broker id, expected 0, but received 7")
    r = alter(side, BROKER, "0", [("num.io.threads", SET, "4")])  # dynamic in Kafka, not applied by josefk
    assert r.error_code == ErrorCode.INVALID_REQUEST and "not applied at run time by josefk" in r.error_message
    assert alter(side, BROKER, "0", [("message.max.bytes", SET, "2000000")], validate_only=True).error_code == 0
    store = broker.server.store
    assert store is not None and store.get_json("/config/brokers/0") is None
    assert describe(side, BROKER, "0", ["message.max.bytes"])["message.max.bytes"].read_only is False

    # AlterConfigs replaces the entity's whole dynamic config, as Kafka's does; the new
    # message.max.bytes lets a batch through that the default refused.
    create_topic(side, "big")
    wait_until(lambda: ("big", 0) in broker.server.replica_manager.partitions, "big has a leader")
    large = batch(1, value_size=1_500_000)
    assert produce(side, "big", 0, large).responses[0].partition_responses[0].error_code == \
        ErrorCode.MESSAGE_TOO_LARGE
    assert alter(side, BROKER, "0", [("log.retention.ms", SET, "60000")]).error_code == 0
    r = side.call(ApiKey.AlterConfigs, 1, validate_only=False, resources=[{
        "resource_type": BROKER, "resource_name": "0", "configs": [{"name": "message.max.bytes", "value": "2000000"}]}])
    assert r.responses[0].error_code == 0
    assert store.get_json("/config/brokers/0") == {"version": 1, "config": {"message.max.bytes": "2000000"}}
    wait_until(lambda: broker.server.config["message.max.bytes"] == 2_000_000, "message.max.bytes applied")
    assert broker.server.log_manager.default_config.max_message_bytes == 2_000_000
    assert produce(side, "big", 0, large).responses[0].partition_responses[0].error_code == 0


def test_append_and_subtract_on_list_configs(running: tuple[RunningBroker, Side]) -> None:
    broker, side = running
    create_topic(side, "lists", {"cleanup.policy": "delete"})
    r = alter(side, TOPIC, "lists", [("cleanup.policy", SUBTRACT, "delete")])
    assert r.error_code == 0  # Kafka 3.9 accepts the empty list
    described = describe(side, TOPIC, "lists", ["cleanup.policy", "leader.replication.throttled.replicas"])
    assert described["cleanup.policy"].value == ""
    wait_until(lambda: ("lists", 0) in broker.server.log_manager.all_logs(), "the log exists")
    config = broker.server.log_manager.all_logs()[("lists", 0)].config
    assert (config.delete, config.compact) == (False, False)

    assert alter(side, TOPIC, "lists", [("leader.replication.throttled.replicas", APPEND, "0:0"),
                                        ("cleanup.policy", APPEND, "compact,delete")]).error_code == 0
    described = describe(side, TOPIC, "lists", ["cleanup.policy", "leader.replication.throttled.replicas"])
    assert described["cleanup.policy"].value == "compact,delete"
    assert described["leader.replication.throttled.replicas"].value == "0:0"
    assert alter(side, TOPIC, "lists", [("cleanup.policy", APPEND, "compact")]).error_code == 0
    assert describe(side, TOPIC, "lists", ["cleanup.policy"])["cleanup.policy"].value == "compact,delete"

    r = alter(side, TOPIC, "lists", [("retention.ms", APPEND, "1")])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_CONFIG,
                                               "Config value append is not allowed for config key: retention.ms")
    r = alter(side, TOPIC, "lists", [("cleanup.policy", APPEND, "sometimes")])
    assert r.error_code == ErrorCode.INVALID_CONFIG
    r = alter(side, TOPIC, "lists", [("cleanup.policy", APPEND, "delete"), ("cleanup.policy", APPEND, "compact")])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys")

    # A broker list key appends to its default (log.cleanup.policy=delete) when unset.
    assert alter(side, BROKER, "", [("log.cleanup.policy", APPEND, "compact")]).error_code == 0
    store = broker.server.store
    assert store is not None
    node = store.get("/config/brokers/<default>")
    assert node is not None and json.loads(node[0])["config"] == {"log.cleanup.policy": "delete,compact"}
    r = alter(side, BROKER, "0", [("log.retention.ms", SUBTRACT, "1")])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_CONFIG,
                                               "Config value subtract is not allowed for config key: log.retention.ms")
