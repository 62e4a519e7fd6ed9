"""A config value sent as null (CreateTopics', AlterConfigs' and IncrementalAlterConfigs' values
are nullable strings) is refused as Kafka 3.9.2 refuses it, and nothing is changed:
CreateTopics with INVALID_CONFIG after the exists check, before the name's
(ZkAdminManager.createTopics); AlterConfigs and IncrementalAlterConfigs with INVALID_REQUEST
before anything else is looked at (ConfigAdminManager.preprocess; a DELETE may carry a null
value). Typing the request bodies through the handlers found these: the values went on as
None. The answers here are Kafka 3.9.2's to the same requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.differential import Side

pytestmark = pytest.mark.integration

SET, DELETE = 0, 1
TOPIC = 2


@pytest.fixture
def side(tmp_path: Path) -> Iterator[Side]:
    broker = RunningBroker(tmp_path / "logs")
    side = Side("josefk", broker.bootstrap)
    yield side
    side.close()
    broker.stop()


def create(side: Side, name: str, configs: list[tuple[str, str | None]]) -> Any:
    response = side.call(ApiKey.CreateTopics, 5, timeout_ms=10000, validate_only=False, topics=[{
        "name": name, "num_partitions": 1, "replication_factor": 1, "assignments": [],
        "configs": [{"name": k, "value": v} for k, v in configs]}])
    return response.topics[0]


def overrides(side: Side, topic: str) -> dict[str, str]:
    response = side.call(ApiKey.DescribeConfigs, 4, include_synonyms=False, include_documentation=False,
                         resources=[{"resource_type": TOPIC, "resource_name": topic, "configuration_keys": None}])
    return {c.name: c.value for c in response.results[0].configs if c.config_source == 1}  # DYNAMIC_TOPIC_CONFIG


def test_create_topics_refuses_a_null_config_value(side: Side) -> None:
    r = create(side, "nulls", [("retention.ms", None), ("segment.ms", "60000"), ("cleanup.policy", None)])
    assert (r.error_code, r.error_message) == (
        ErrorCode.INVALID_CONFIG, "Null value not supported for topic configs: retention.ms,cleanup.policy")
    metadata = side.call(ApiKey.Metadata, 4, topics=[{"name": "nulls"}], allow_auto_topic_creation=False)
    assert metadata.topics[0].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    r = create(side, "bad name!", [("retention.ms", None)])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_CONFIG,
                                               "Null value not supported for topic configs: retention.ms")
    assert create(side, "t", []).error_code == ErrorCode.NONE
    assert create(side, "t", [("retention.ms", None)]).error_code == ErrorCode.TOPIC_ALREADY_EXISTS


def test_alter_configs_refuses_a_null_value_and_changes_nothing(side: Side) -> None:
    assert create(side, "t", [("retention.ms", "123456")]).error_code == ErrorCode.NONE
    response = side.call(ApiKey.AlterConfigs, 1, validate_only=False, resources=[
        {"resource_type": TOPIC, "resource_name": "no-such-topic", "configs": [{"name": "segment.ms", "value": "1"}]},
        {"resource_type": TOPIC, "resource_name": "t",
         "configs": [{"name": "retention.ms", "value": None}, {"name": "segment.ms", "value": None}]},
        {"resource_type": TOPIC, "resource_name": "missing", "configs": [{"name": "segment.ms", "value": None}]}])
    assert [(r.resource_name, r.error_code, r.error_message) for r in response.responses] == [
        ("no-such-topic", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "Topic no-such-topic does not exist"),
        ("t", ErrorCode.INVALID_REQUEST, "Null value not supported for : retention.ms, segment.ms"),
        ("missing", ErrorCode.INVALID_REQUEST, "Null value not supported for : segment.ms")]
    assert overrides(side, "t") == {"retention.ms": "123456"}


def test_incremental_alter_configs_refuses_a_null_value_but_for_a_delete(side: Side) -> None:
    assert create(side, "t", [("retention.ms", "123456"), ("segment.ms", "60000")]).error_code == ErrorCode.NONE

    def alter(ops: list[tuple[str, int, str | None]], topic: str = "t") -> Any:
        response = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": TOPIC, "resource_name": topic,
            "configs": [{"name": k, "config_operation": op, "value": v} for k, op, v in ops]}])
        return response.responses[0]

    r = alter([("retention.ms", SET, None), ("segment.ms", DELETE, None), ("cleanup.policy", SET, None)])
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST,
                                               "Null value not supported for : retention.ms, cleanup.policy")
    assert overrides(side, "t") == {"retention.ms": "123456", "segment.ms": "60000"}
    r = alter([("retention.ms", SET, None)], "no-such-topic")
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST, "Null value not supported for : retention.ms")
    assert alter([("segment.ms", DELETE, None)]).error_code == ErrorCode.NONE
    assert overrides(side, "t") == {"retention.ms": "123456"}
