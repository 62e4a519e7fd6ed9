"""A config value sent as null (CreateTopics' values are nullable strings) is refused as
Kafka 3.9 refuses it, and nothing is changed: CreateTopics with INVALID_CONFIG
(ZkAdminManager.createTopics). Typing the request bodies through the handlers found it:
the values went on as None."""

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


def test_create_topics_refuses_a_null_config_value(side: Side) -> None:
    r = create(side, "nulls", [("retention.ms", None), ("segment.ms", "60000"), ("cleanup.policy", None)])
    assert (r.error_code, r.error_message) == (
        ErrorCode.INVALID_CONFIG, "Null value not supported for topic configs: retention.ms,cleanup.policy")
    metadata = side.call(ApiKey.Metadata, 4, topics=[{"name": "nulls"}], allow_auto_topic_creation=False)
    assert metadata.topics[0].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION

