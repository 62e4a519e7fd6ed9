"""A KIP-848 consumer group survives the kill -9 of its coordinator: three josefk brokers on
a real ZooKeeper, a confluent-kafka consumer (and the Java 4.4 consumer) with
group.protocol=consumer. The new
coordinator loads the group's records from its replica of __consumer_offsets, and the
member carries on heartbeating at its epoch: no revocation, no new assignment, no rejoin."""

from __future__ import annotations

import time
from typing import Any

import pytest
from kafka.admin import NewTopic

from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.prerequisites import require_module
from tests.test_cluster import Cluster
from tests.test_consumer_group_clients import (
    JavaMember,
    consumer,
    java_member_classpath,  # noqa: F401 - a fixture
    owned,
    pump,
    wait,
)
from tests.test_group_clients import produce

ck = require_module("confluent_kafka")

pytestmark = pytest.mark.cluster
PARTITIONS = 4
GROUP = "survivor"


def describe(bootstrap: str) -> Any:
    """The group as a broker describes it (None when that broker cannot: not its coordinator,
    or still loading)."""
    sock = connect(bootstrap)
    try:
        [group] = call(sock, ApiKey.ConsumerGroupDescribe, 0, group_ids=[GROUP],
                       include_authorized_operations=False)[1].groups
    finally:
        sock.close()
    return group if group.error_code == ErrorCode.NONE else None


def kill_coordinator(cluster: Cluster) -> str:
    """kill -9 the broker leading the one __consumer_offsets partition; the new leader's address."""
    coordinator = cluster.state("__consumer_offsets", 0)["leader"]
    cluster.brokers[coordinator].kill()
    cluster.wait_for(lambda: cluster.state("__consumer_offsets", 0)["leader"] not in (coordinator, -1),
                     "a new coordinator")
    return cluster.brokers[cluster.state("__consumer_offsets", 0)["leader"]].bootstrap


def coordinator_bootstrap(cluster: Cluster) -> str:
    return cluster.brokers[cluster.state("__consumer_offsets", 0)["leader"]].bootstrap


def test_a_consumer_keeps_its_partitions_and_epoch_when_its_coordinator_is_killed(zookeeper: Any,
                                                                                  tmp_path: Any) -> None:
    cluster = Cluster(zookeeper, tmp_path, {"offsets.topic.num.partitions": "1",
                                            "group.consumer.heartbeat.interval.ms": "500",
                                            "group.consumer.min.heartbeat.interval.ms": "500"})
    member = None
    try:
        cluster.create_topic(NewTopic("t", PARTITIONS, 3))
        produce(cluster.bootstrap, "t", [(i % PARTITIONS, None, b"a%d" % i) for i in range(20)])
        events: list[str] = []
        member = consumer(cluster.bootstrap, GROUP)
        member.subscribe(["t"], on_assign=lambda c, ps: events.append(f"assign {len(ps)}"),
                         on_revoke=lambda c, ps: events.append(f"revoke {len(ps)}"),
                         on_lost=lambda c, ps: events.append(f"lost {len(ps)}"))
        seen: dict[int, list[bytes]] = {}
        pump([member], seen, lambda: len(seen.get(0, [])) == 20, "the member to read the first 20")
        assert owned(member) == set(range(PARTITIONS)) and events == [f"assign {PARTITIONS}"]

        before = describe(coordinator_bootstrap(cluster))
        assert before is not None and len(before.members) == 1
        [old] = before.members
        successor = kill_coordinator(cluster)

        produce(successor, "t", [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])
        heartbeats_after = time.monotonic() + 3  # several heartbeat intervals with the new coordinator
        pump([member], seen, lambda: len(seen[0]) >= 28 and time.monotonic() > heartbeats_after,
             "the member to read on through the failover")
        after = describe(successor)
        assert after is not None and [(m.member_id, m.member_epoch) for m in after.members] == [
            (old.member_id, old.member_epoch)]
        assert after.group_epoch == before.group_epoch and after.assignment_epoch == before.assignment_epoch
        assert owned(member) == set(range(PARTITIONS)) and events == [f"assign {PARTITIONS}"]  # never revoked
        assert sorted(seen[0][20:]) == sorted(b"b%d" % i for i in range(8))  # nothing read twice
    finally:
        if member is not None:
            member.close()
        cluster.stop()


def test_a_java_4_consumer_keeps_its_partitions_and_epoch_when_its_coordinator_is_killed(
        zookeeper: Any, tmp_path: Any, java_member_classpath: str) -> None:  # noqa: F811 - the fixture
    cluster = Cluster(zookeeper, tmp_path, {"offsets.topic.num.partitions": "1",
                                            "group.consumer.heartbeat.interval.ms": "500",
                                            "group.consumer.min.heartbeat.interval.ms": "500"})
    member = None
    try:
        cluster.create_topic(NewTopic("t", PARTITIONS, 3))
        produce(cluster.bootstrap, "t", [(i % PARTITIONS, None, b"a%d" % i) for i in range(20)])
        member = JavaMember(java_member_classpath, cluster.bootstrap, GROUP, "t")
        wait(lambda: len(member.records()) == 20 and member.assignment() == set(range(PARTITIONS)),
             "the member to read the first 20")
        assignments = [line for line in member.lines if line.startswith("ASSIGNMENT")]
        before = describe(coordinator_bootstrap(cluster))
        assert before is not None and len(before.members) == 1
        [old] = before.members
        successor = kill_coordinator(cluster)
        produce(successor, "t", [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])
        heartbeats_after = time.monotonic() + 3
        wait(lambda: len(member.records()) >= 28 and time.monotonic() > heartbeats_after,
             "the member to read on through the failover")
        after = describe(successor)
        assert after is not None and [(m.member_id, m.member_epoch) for m in after.members] == [
            (old.member_id, old.member_epoch)]
        assert [line for line in member.lines if line.startswith("ASSIGNMENT")] == assignments  # unchanged
        assert sorted(member.records()[20:]) == sorted(f"b{i}" for i in range(8))
    finally:
        if member is not None:
            member.leave()
        cluster.stop()
