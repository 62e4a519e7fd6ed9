"""GROUP config resources, request for request, on josefk and on Apache Kafka 4.4.0 (the
session's KRaft reference): DescribeConfigs of a group's configs (defaults, with synonyms and
documentation, and after changes), IncrementalAlterConfigs and AlterConfigs with valid and
invalid values, unknown keys and operations, the empty (default) group, a group that does not
exist, ListConfigResources, and a deleted group's configs. Each step's answer is compared
whole; where josefk differs on purpose, KNOWN says why."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.kafka import KRaftBroker
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from tests.conftest import RunningBroker
from tests.differential import SHARED_SETTINGS, Side
from tests.differential_cases import create_topic

pytestmark = [pytest.mark.cluster]

GROUP = 32
SET, DELETE, APPEND = 0, 1, 2
RUN = f"gcd{os.getpid()}"  # names unique to this run: the Kafka 4.4.0 reference is shared by the session
TOPIC = f"{RUN}-t"  # not the differential suite's shared topic, which it creates itself on the shared node
# josefk's broker default of group.share.partition.max.record.locks is Kafka 3.9.2's (200, its
# reference for broker configs); Kafka 4.4's is 2000. A group without the key shows the broker's.
BROKER_DEFAULT_DIFFERS = "share.partition.max.record.locks"


@pytest.fixture(scope="module")
def sides(kafka44: KRaftBroker) -> Iterator[tuple[Side, Side]]:
    work = Path(tempfile.mkdtemp(prefix="josefk-group-configs-differential-"))
    josefk = RunningBroker(work / "josefk", SHARED_SETTINGS)
    pair = (Side("josefk", josefk.bootstrap), Side("Kafka 4.4.0", kafka44.bootstrap))
    try:
        yield pair
    finally:
        for side in pair:
            side.close()
        josefk.stop()


def described(side: Side, group: str, keys: list[str] | None = None, documentation: bool = False,
              version: int = 4) -> dict[str, Any]:
    r = side.call(ApiKey.DescribeConfigs, version, include_synonyms=True, include_documentation=documentation,
                  resources=[{"resource_type": GROUP, "resource_name": group, "configuration_keys": keys}])
    [result] = r.results
    configs = {}
    for c in result.configs:
        row = {"value": c.value, "read_only": c.read_only, "source": c.config_source, "sensitive": c.is_sensitive,
               "type": c.config_type, "documentation": c.documentation,
               "synonyms": [(s.name, s.value, s.source) for s in c.synonyms]}
        if c.name == BROKER_DEFAULT_DIFFERS:  # see BROKER_DEFAULT_DIFFERS: the broker's own default
            row["synonyms"] = [(n, "<broker default>" if source == 5 else v, source)
                               for n, v, source in row["synonyms"]]
            row["value"] = "<broker default>" if c.config_source == 5 else c.value
        configs[c.name] = row
    return {"error_code": result.error_code, "error_message": result.error_message, "configs": configs}


def incremental(side: Side, group: str, *configs: tuple[str, int, str | None], validate_only: bool = False
                ) -> tuple[int, str | None]:
    r = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=validate_only, resources=[{
        "resource_type": GROUP, "resource_name": group,
        "configs": [{"name": n, "config_operation": op, "value": v} for n, op, v in configs]}])
    return r.responses[0].error_code, r.responses[0].error_message


def replace_all(side: Side, group: str, configs: dict[str, str | None]) -> tuple[int, str | None]:
    r = side.call(ApiKey.AlterConfigs, 2, validate_only=False, resources=[{
        "resource_type": GROUP, "resource_name": group,
        "configs": [{"name": n, "value": v} for n, v in configs.items()]}])
    return r.responses[0].error_code, r.responses[0].error_message


def listed(side: Side) -> list[str]:
    """This run's groups among the GROUP resources ListConfigResources lists."""
    r = side.call(ApiKey.ListConfigResources, 1, resource_types=[GROUP])
    return sorted(c.resource_name for c in r.config_resources if c.resource_name.startswith(RUN))


CASES: dict[str, Callable[[Side, str], dict[str, Any]]] = {}


def case(fn: Callable[[Side, str], dict[str, Any]]) -> Callable[[Side, str], dict[str, Any]]:
    CASES[fn.__name__] = fn
    return fn


@case
def describe_defaults(side: Side, g: str) -> dict[str, Any]:
    """A group that does not exist and has no configs: every key at the broker's value."""
    return {"all": described(side, g), "documentation": described(side, g, documentation=True),
            "some keys": described(side, g, ["consumer.session.timeout.ms", "share.isolation.level", "nope"]),
            "v1": described(side, g, ["streams.num.standby.replicas"], version=1),
            "empty name": described(side, "")}


@case
def alter_and_describe(side: Side, g: str) -> dict[str, Any]:
    steps: dict[str, Any] = {"set": incremental(side, g, ("consumer.heartbeat.interval.ms", SET, "6000"),
                                                ("share.auto.offset.reset", SET, "earliest"),
                                                ("streams.num.warmup.replicas", SET, "3"))}
    steps["after set"] = described(side, g)
    steps["listed"] = listed(side)
    steps["validate only"] = incremental(side, g, ("consumer.session.timeout.ms", SET, "50000"), validate_only=True)
    steps["after validate only"] = described(side, g, ["consumer.session.timeout.ms"])
    steps["replace all"] = replace_all(side, g, {"consumer.session.timeout.ms": "50000",
                                                 "streams.num.standby.replicas": "2"})
    steps["after replace"] = described(side, g)
    steps["delete"] = incremental(side, g, ("consumer.session.timeout.ms", DELETE, None),
                                  ("streams.num.standby.replicas", DELETE, None), ("not.set", DELETE, None))
    steps["after delete"] = described(side, g, ["consumer.session.timeout.ms", "streams.num.standby.replicas"])
    return steps


INVALID: list[tuple[tuple[str, int, str | None], ...]] = [
    (("consumer.session.timeout.ms", SET, "abc"),), (("consumer.session.timeout.ms", SET, "0"),),
    (("consumer.session.timeout.ms", SET, "1000"),), (("consumer.session.timeout.ms", SET, "99999999"),),
    (("consumer.session.timeout.ms", SET, ""),), (("consumer.session.timeout.ms", SET, " 50000 "),),
    (("consumer.heartbeat.interval.ms", SET, "60000"),), (("consumer.heartbeat.interval.ms", SET, "500"),),
    (("consumer.session.timeout.ms", SET, "45000"), ("consumer.heartbeat.interval.ms", SET, "45000")),
    (("consumer.session.timeout.ms", SET, "46000"), ("consumer.heartbeat.interval.ms", SET, "15000")),
    (("share.session.timeout.ms", SET, "30000"),), (("share.heartbeat.interval.ms", SET, "20000"),),
    (("share.record.lock.duration.ms", SET, "999"),), (("share.record.lock.duration.ms", SET, "14000"),),
    (("share.record.lock.duration.ms", SET, "3600001"),), (("share.delivery.count.limit", SET, "1"),),
    (("share.delivery.count.limit", SET, "11"),), (("share.partition.max.record.locks", SET, "99"),),
    (("share.partition.max.record.locks", SET, "100000"),), (("share.auto.offset.reset", SET, "none"),),
    (("share.auto.offset.reset", SET, "EARLIEST"),), (("share.auto.offset.reset", SET, "by_duration:PT1H"),),
    (("share.auto.offset.reset", SET, "by_duration:xx"),), (("share.isolation.level", SET, "READ_COMMITTED"),),
    (("share.isolation.level", SET, "read_committed"),), (("share.renew.acknowledge.enable", SET, "maybe"),),
    (("share.renew.acknowledge.enable", SET, "FALSE"),), (("streams.num.standby.replicas", SET, "3"),),
    (("streams.num.standby.replicas", SET, "-1"),), (("streams.initial.rebalance.delay.ms", SET, "-1"),),
    (("streams.session.timeout.ms", SET, "61000"),), (("streams.heartbeat.interval.ms", SET, "4999"),),
    (("streams.assignor.name", SET, "nope"),), (("streams.assignor.name", SET, "sticky"),),
    (("streams.rack.aware.assignment.tags", SET, "a,a"),), (("streams.rack.aware.assignment.tags", SET, "a, b"),),
    (("streams.num.warmup.replicas", SET, "21"),), (("streams.task.offset.interval.ms", SET, "1000"),),
    (("streams.acceptable.recovery.lag", SET, "x"),), (("consumer.assignment.interval.ms", SET, "16000"),),
    (("errors.deadletterqueue.topic.name", SET, "__x"),), (("errors.deadletterqueue.topic.name", SET, "dlq"),),
]


@case
def invalid_values(side: Side, g: str) -> dict[str, Any]:
    """Each change alone, validate-only: accepted, or refused with Kafka's error and message."""
    return {" ".join(f"{n}={v}" for n, _op, v in configs): incremental(side, g, *configs, validate_only=True)
            for configs in INVALID}


@case
def unknown_keys_and_operations(side: Side, g: str) -> dict[str, Any]:
    return {
        "unknown key": incremental(side, g, ("nope.key", SET, "1")),
        "a broker key": incremental(side, g, ("group.consumer.session.timeout.ms", SET, "50000")),
        "append to an int": incremental(side, g, ("consumer.session.timeout.ms", APPEND, "1")),
        "append to a list": incremental(side, g, ("streams.rack.aware.assignment.tags", APPEND, "a")),
        "subtract": incremental(side, g, ("streams.rack.aware.assignment.tags", 3, "a")),
        "duplicate key": incremental(side, g, ("consumer.session.timeout.ms", SET, "50000"),
                                     ("consumer.session.timeout.ms", SET, "51000")),
        "null value": incremental(side, g, ("consumer.session.timeout.ms", SET, None)),
        "default group": incremental(side, "", ("consumer.session.timeout.ms", SET, "50000")),
        "replace, unknown key": replace_all(side, g, {"nope": "1"}),
        "replace, default group": replace_all(side, "", {"consumer.session.timeout.ms": "50000"}),
        "nothing stored": described(side, g, ["consumer.session.timeout.ms"]),
    }


def commit(side: Side, group: str) -> int:
    """An offset commit outside any generation (the group then exists), retried while the
    offsets topic comes up; its error code."""
    codes: list[int] = []

    def committed() -> bool:
        side.call(ApiKey.FindCoordinator, 1, key=group, key_type=0)
        r = side.call(ApiKey.OffsetCommit, 2, group_id=group, generation_id_or_member_epoch=-1, member_id="",
                      retention_time_ms=-1, topics=[{"name": TOPIC, "partitions": [
                          {"partition_index": 0, "committed_offset": 1, "committed_metadata": ""}]}])
        codes.append(r.topics[0].partitions[0].error_code)
        return codes[-1] not in (14, 15, 16)  # the coordinator is not ready yet

    wait_until(committed, f"an offset commit for {group} answered", timeout=120)
    return codes[-1]


@case
def existing_and_deleted_group(side: Side, g: str) -> dict[str, Any]:
    """A group's configs do not depend on the group: they outlive its deletion (Kafka 4.4.0)."""
    steps: dict[str, Any] = {"commit": commit(side, g)}
    steps["set"] = incremental(side, g, ("consumer.session.timeout.ms", SET, "55000"))
    steps["delete group"] = [(r.group_id, r.error_code) for r in side.call(
        ApiKey.DeleteGroups, 2, groups_names=[g]).results]
    steps["after delete"] = described(side, g, ["consumer.session.timeout.ms"])
    steps["listed"] = listed(side)
    return steps


# Where josefk answers otherwise on purpose: (case, step) -> why.
KNOWN: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module", autouse=True)
def topic(sides: tuple[Side, Side]) -> None:
    for side in sides:
        create_topic(side, TOPIC, 1)


@pytest.mark.parametrize("name", sorted(CASES))
def test_josefk_answers_group_config_requests_like_kafka_4_4(sides: tuple[Side, Side], name: str) -> None:
    josefk, kafka = sides
    group = f"{RUN}-{name}"
    mine, theirs = CASES[name](josefk, group), CASES[name](kafka, group)
    assert mine.keys() == theirs.keys()
    problems = [f"{step}: josefk {mine[step]} / Kafka 4.4.0 {theirs[step]}" for step in mine
                if mine[step] != theirs[step] and (name, step) not in KNOWN]
    assert not problems, "\n".join(problems)
