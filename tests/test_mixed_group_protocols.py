"""KIP-848 consumer groups in a mixed cluster: a Kafka 3.9 broker and a josefk broker under one
ZooKeeper, each leading some partitions of __consumer_offsets.

A group's coordinator is the leader of its __consumer_offsets partition. Where that is josefk,
a member with group.protocol=consumer joins and consumes. Where it is Kafka 3.9, the broker has
no ConsumerGroupHeartbeat (ZooKeeper-mode Kafka never had it), and what the member sees depends
on the client: the Java 4.4 consumer fails at once with UnsupportedVersionException ("The cluster
does not support the new CONSUMER group protocol. Set group.protocol=classic ..."); librdkafka
marks the coordinator dead ("ConsumerGroupHeartbeatRequest not supported by broker") and keeps
asking, with no assignment and no error to the application. The same group with
group.protocol=classic works on either coordinator.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer
from confluent_kafka.admin import AdminClient, NewTopic

from harness.mixed import MixedCluster, wait_for
from harness.zookeeper import ZooKeeperServer
from josefk.coordinator.offsets_store import partition_for
from tests.test_consumer_group_clients import JavaMember, java_member_classpath  # noqa: F401 - a fixture
from tests.test_mixed_cluster import produce

pytestmark = pytest.mark.cluster

KAFKA_ID, JOSEFK_ID = 1, 2
OFFSETS_PARTITIONS = 4
# One replica per __consumer_offsets partition, so that each broker leads some groups alone.
GROUPS = {"offsets.topic.num.partitions": str(OFFSETS_PARTITIONS), "offsets.topic.replication.factor": "1",
          "group.initial.rebalance.delay.ms": "0"}
TOPIC = "orders"


@pytest.fixture
def cluster(zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[MixedCluster]:
    mixed = MixedCluster(zookeeper, tmp_path, {KAFKA_ID}, GROUPS)
    try:
        mixed.start_all([KAFKA_ID, JOSEFK_ID])
        yield mixed
    finally:
        mixed.close()


def offsets_leaders(admin: AdminClient) -> dict[int, int]:
    """{__consumer_offsets partition: leader}, once the topic exists with every partition led."""
    found: dict[int, int] = {}

    def led() -> bool:
        topic = admin.list_topics(timeout=10).topics.get("__consumer_offsets")
        found.clear()
        found.update({p: m.leader for p, m in topic.partitions.items()} if topic and topic.partitions else {})
        return len(found) == OFFSETS_PARTITIONS and all(leader >= 0 for leader in found.values())

    wait_for(led, 120, "__consumer_offsets with a leader for each partition")
    return found


def group_coordinated_by(broker_id: int, leaders: dict[int, int], prefix: str) -> str:
    return next(g for g in (f"{prefix}-{i}" for i in range(1000))
                if leaders[partition_for(g, OFFSETS_PARTITIONS)] == broker_id)


class LibrdkafkaMember:
    """A confluent-kafka consumer whose group-protocol log lines (debug=cgrp) are kept."""

    def __init__(self, bootstrap: str, group: str, protocol: str) -> None:
        self.lines: list[str] = []
        log = logging.getLogger(f"librdkafka.{group}.{protocol}")
        log.propagate = False
        log.setLevel(logging.DEBUG)
        log.addHandler(Collect(self.lines))
        self.consumer: Any = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol,
                                       "auto.offset.reset": "earliest", "debug": "cgrp", "logger": log})
        self.consumer.subscribe([TOPIC])
        self.values: list[bytes] = []

    def poll_until(self, condition: Any, what: str) -> None:
        deadline = time.monotonic() + 120
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            message = self.consumer.poll(0.2)
            if message is not None and message.error() is None:
                self.values.append(message.value())

    def logged(self, text: str) -> bool:
        return any(text in line for line in list(self.lines))


class Collect(logging.Handler):
    """Keeps each message (Handler.handle holds the handler's lock around emit)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_a_consumer_protocol_member_joins_on_josefk_and_is_refused_by_kafka_3_9(
        cluster: MixedCluster, tmp_path: Path, java_member_classpath: str) -> None:  # noqa: F811 - the fixture
    bootstrap = cluster.bootstraps()
    admin = AdminClient({"bootstrap.servers": bootstrap})
    wait_for(lambda: len(admin.list_topics(timeout=10).brokers) == 2, 120, "both brokers in the metadata")
    admin.create_topics([NewTopic(TOPIC, 2, 2)])[TOPIC].result(60)
    values = [f"v{i}".encode() for i in range(20)]
    produce(bootstrap, TOPIC, values)
    warm = LibrdkafkaMember(bootstrap, "warm-up", "classic")  # its FindCoordinator creates __consumer_offsets
    try:
        leaders = offsets_leaders(admin)
    finally:
        warm.consumer.close()
    assert set(leaders.values()) == {KAFKA_ID, JOSEFK_ID}, leaders
    on_josefk = group_coordinated_by(JOSEFK_ID, leaders, "g")
    on_kafka = group_coordinated_by(KAFKA_ID, leaders, "g")

    # josefk coordinates: librdkafka and the Java 4.4 consumer join with the consumer protocol
    member = LibrdkafkaMember(bootstrap, on_josefk, "consumer")
    try:
        member.poll_until(lambda: sorted(member.values) == sorted(values), "every record through a josefk group")
        assert {tp.partition for tp in member.consumer.assignment()} == {0, 1}
    finally:
        member.consumer.close()
    java = JavaMember(java_member_classpath, bootstrap, group_coordinated_by(JOSEFK_ID, leaders, "java"),
                      TOPIC)
    try:
        wait_for(lambda: java.assignment() == {0, 1}, 120, "the Java member's assignment from josefk")
    finally:
        java.leave()
    assert java.process.returncode == 0

    # Kafka 3.9 coordinates: the Java consumer fails at once with Kafka's own message
    # (its stdin stays open: the member quits when stdin ends)
    err = tmp_path / "java.err"
    with err.open("w") as stderr:
        refused = subprocess.Popen(["java", "-cp", java_member_classpath, "ConsumerGroupMember", bootstrap,
                                    on_kafka, TOPIC], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            assert refused.wait(timeout=180) == 1
        finally:
            if refused.poll() is None:
                refused.kill()
                refused.wait()
            assert refused.stdin is not None
            refused.stdin.close()
    assert ("UnsupportedVersionException: The cluster does not support the new CONSUMER group protocol. "
            "Set group.protocol=classic") in err.read_text(), err.read_text()[-2000:]

    # ... librdkafka finds the coordinator lacks ConsumerGroupHeartbeat and holds no partition
    member = LibrdkafkaMember(bootstrap, on_kafka, "consumer")
    try:
        member.poll_until(lambda: member.logged("ConsumerGroupHeartbeatRequest not supported by broker"),
                          "librdkafka to find Kafka 3.9 has no ConsumerGroupHeartbeat")
        assert member.consumer.assignment() == [] and member.values == []
    finally:
        member.consumer.close()

    # ... and the same group with the classic protocol is served by Kafka 3.9
    classic = LibrdkafkaMember(bootstrap, on_kafka, "classic")
    try:
        classic.poll_until(lambda: sorted(classic.values) == sorted(values), "every record through Kafka's group")
    finally:
        classic.consumer.close()
