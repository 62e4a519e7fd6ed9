"""The broker's bounds of the dynamic group configs, configured away from Kafka's defaults on
josefk and on an Apache Kafka 4.4.0 (KRaft) broker of this module's own, request for request:
a group config inside Kafka's default bounds but outside the configured ones is refused, one
outside the defaults but inside the configured ones is taken, and a consumer member is given
the value taken."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.kafka import KRaftBroker
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from tests.conftest import RunningBroker
from tests.differential import SHARED_SETTINGS, Side, ask
from tests.differential_cases import create_topic
from tests.test_group_configs_differential import SET, described, incremental

pytestmark = [pytest.mark.cluster]

TOPIC = "bounded-t"
BOUNDED = {"group.consumer.max.session.timeout.ms": "50000", "group.consumer.min.heartbeat.interval.ms": "1000",
           "group.consumer.heartbeat.interval.ms": "1000", "group.share.max.delivery.count.limit": "8",
           "group.streams.max.standby.replicas": "1"}
NOT_READY = (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR)


@pytest.fixture(scope="module")
def sides() -> Iterator[tuple[Side, Side]]:
    work = Path(tempfile.mkdtemp(prefix="josefk-group-bounds-differential-"))
    josefk = RunningBroker(work / "josefk", {**SHARED_SETTINGS, **BOUNDED})
    try:
        kafka = KRaftBroker(work / "kafka", node_id=0, overrides={
            **{k: v for k, v in SHARED_SETTINGS.items() if k != "broker.id"}, **BOUNDED})
    except BaseException:
        josefk.stop()
        shutil.rmtree(work, ignore_errors=True)
        raise
    pair = (Side("josefk", josefk.bootstrap), Side("Kafka 4.4.0", kafka.bootstrap))
    try:
        yield pair
    finally:
        for side in pair:
            side.close()
        josefk.stop()
        kafka.stop()
        shutil.rmtree(work, ignore_errors=True)


def joined(side: Side, group: str) -> tuple[int, int]:
    """A consumer member's first heartbeat in `group`, once its coordinator is up: the error
    code and the heartbeat interval it is given."""
    answers: list[Any] = []

    def answered() -> bool:
        side.call(ApiKey.FindCoordinator, 1, key=group, key_type=0)
        answers.append(ask(side, 0, ConsumerGroupHeartbeatRequest(
            group_id=group, member_id="bounded-member-0123456789", member_epoch=0, rebalance_timeout_ms=30000,
            subscribed_topic_names=[TOPIC], server_assignor="uniform", topic_partitions=[])))
        return answers[-1].error_code not in NOT_READY

    wait_until(answered, f"a heartbeat in {group} answered on {side.name}", timeout=120)
    return answers[-1].error_code, answers[-1].heartbeat_interval_ms


def steps(side: Side, g: str) -> dict[str, Any]:
    return {
        "session inside the defaults, above the broker's max": incremental(
            side, g, ("consumer.session.timeout.ms", SET, "55000"), validate_only=True),
        "delivery count inside the defaults, above the broker's max": incremental(
            side, g, ("share.delivery.count.limit", SET, "9"), validate_only=True),
        "standbys inside the defaults, above the broker's max": incremental(
            side, g, ("streams.num.standby.replicas", SET, "2"), validate_only=True),
        "described before": described(side, g, ["consumer.heartbeat.interval.ms"]),
        "heartbeat below the defaults, inside the broker's bounds": incremental(
            side, g, ("consumer.heartbeat.interval.ms", SET, "2000")),
        "described after": described(side, g, ["consumer.heartbeat.interval.ms"]),
        "a member's heartbeat interval": joined(side, g),
    }


def test_josefk_bounds_group_configs_by_its_broker_configs_like_kafka_4_4(sides: tuple[Side, Side]) -> None:
    josefk, kafka = sides
    for side in sides:
        create_topic(side, TOPIC, 1)
    mine, theirs = steps(josefk, "bounded"), steps(kafka, "bounded")
    assert mine["session inside the defaults, above the broker's max"] == (
        ErrorCode.INVALID_CONFIG, "consumer.session.timeout.ms must be in the range 45000 to 50000 inclusive.")
    assert mine["a member's heartbeat interval"] == (ErrorCode.NONE, 2000)
    problems = [f"{step}: josefk {mine[step]} / Kafka 4.4.0 {theirs[step]}" for step in mine
                if mine[step] != theirs[step]]
    assert not problems, "\n".join(problems)
