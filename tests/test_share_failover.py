"""Share-partition state across a kill -9 in a three-broker josefk cluster (ZooKeeper): the
share partition's leader and the share coordinator holding its state (the leader of the
state's partition of __share_group_state) are different brokers, so every state change goes
over the share coordinator RPCs. A Java KafkaShareConsumer 4.4 (compat/java/
ShareFailoverMember.java) accepts every record and holds a few acquired, unacknowledged,
when one broker is killed: the share partition's leader, or the share coordinator. After the
failover every record is delivered, none whose acceptance the broker confirmed is delivered
again, and none more than group.share.delivery.count.limit times."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.admin import NewTopic

from harness.wire import call, connect
from josefk.coordinator.offsets_store import partition_for
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import read_share_group_state_request as read_request
from josefk.zk.zk_data import decode_topic_id
from tests.member_process import MemberProcess
from tests.prerequisites import require_files, require_tools
from tests.test_cluster import Cluster

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parent.parent
STATE_TOPIC = "__share_group_state"
STATE_PARTITIONS = 3
DELIVERY_LIMIT = 5  # group.share.delivery.count.limit, Kafka's default
SETTINGS = {"share.coordinator.state.topic.num.partitions": str(STATE_PARTITIONS),
            "group.share.record.lock.duration.ms": "15000", "offsets.topic.num.partitions": "3"}


@pytest.fixture(scope="module")
def classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    lib = ROOT / "compat" / ".envs" / "java-4" / "lib"
    require_files(lib, ["kafka-clients.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("java-share-failover")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{lib}/*",
                    str(ROOT / "compat" / "java" / "ShareFailoverMember.java")], check=True)
    return f"{build}{os.pathsep}{lib}/*"


@pytest.fixture
def cluster(zookeeper, tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(zookeeper, tmp_path, SETTINGS)
    yield running
    running.stop()


class Member(MemberProcess):
    def __init__(self, classpath: str, bootstrap: str, group: str, topic: str) -> None:
        super().__init__(["java", "-cp", classpath, "ShareFailoverMember", bootstrap, group, topic])

    def records(self) -> list[tuple[str, int]]:
        return [(parts[1], int(parts[2])) for line in list(self.lines)
                if line.startswith("RECORD ") and len(parts := line.split(" ")) == 3]

    def values(self) -> set[str]:
        return {v for v, _ in self.records()}

    def confirmed(self) -> set[str]:
        """The records whose acceptance the broker confirmed (ACKED ok lines)."""
        return {v for line in list(self.lines) if line.startswith("ACKED ok ") for v in line.split(" ")[2:]}

    def resume(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("resume\n")
        self.process.stdin.flush()


def wait(condition, what: str, member: Member, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}; the member's last lines: " \
            f"{member.lines[-15:]}"
        time.sleep(0.1)


def share_coordinator_found(cluster: Cluster) -> bool:
    """FindCoordinator (key type SHARE) creates __share_group_state; true once it is led."""
    with connect(next(b for b in cluster.brokers.values() if b.proc.poll() is None).bootstrap) as sock:
        _cid, found = call(sock, ApiKey.FindCoordinator, 6, key_type=2,
                           coordinator_keys=["probe:AAAAAAAAAAAAAAAAAAAAAA:0"])
    return found.coordinators[0].error_code == 0


def produce(cluster: Cluster, topic: str, values: list[str]) -> None:
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all", retries=20,
                             request_timeout_ms=10000, retry_backoff_ms=300)
    try:
        for v in values:
            producer.send(topic, value=v.encode(), partition=0).get(timeout=60)
    finally:
        producer.close()


def placed(cluster: Cluster, topic: str) -> tuple[str, int, int]:
    """A group id whose state partition another broker leads than the topic's partition 0:
    (group, share partition leader, share coordinator)."""
    data, _ = cluster.kazoo.get(f"/brokers/topics/{topic}")
    topic_id = json.loads(data)["topic_id"]
    leader = cluster.state(topic, 0)["leader"]
    for n in itertools.count():
        group = f"failover-{n}"
        coordinator = cluster.state(STATE_TOPIC, partition_for(f"{group}:{topic_id}:0", STATE_PARTITIONS))["leader"]
        if coordinator not in (leader, -1):
            return group, leader, coordinator
    raise AssertionError("unreachable")


def assert_not_the_coordinator(cluster: Cluster, broker: int, group: str, topic: str) -> None:
    """A broker asked for a state another broker keeps answers as Kafka's: NOT_COORDINATOR."""
    data, _ = cluster.kazoo.get(f"/brokers/topics/{topic}")
    topic_id = decode_topic_id(json.loads(data)["topic_id"])
    with connect(cluster.brokers[broker].bootstrap) as sock:
        _cid, read = call(sock, ApiKey.ReadShareGroupState, 0, group_id=group, topics=[
            read_request.ReadStateData(topic_id=topic_id, partitions=[read_request.PartitionData(partition=0)])])
    [result] = read.results[0].partitions
    assert (result.error_code, result.error_message) == (
        ErrorCode.NOT_COORDINATOR, "Unable to read share group state: This is not the correct coordinator.")


@pytest.mark.parametrize("victim", ["share partition leader", "share coordinator"])
def test_share_state_survives_kill_9(cluster: Cluster, classpath: str, victim: str) -> None:
    topic = "failover"  # first: once its ISR is full, every broker knows the other two
    cluster.create_topic(NewTopic(topic, 1, 3, topic_configs={"min.insync.replicas": "2"}))
    cluster.wait_for(lambda: share_coordinator_found(cluster), "__share_group_state and its leaders", timeout=60)
    cluster.wait_for(lambda: all(len(cluster.state(STATE_TOPIC, p)["isr"]) == 3 for p in range(STATE_PARTITIONS)),
                     "__share_group_state's ISRs", timeout=60)
    group, leader, coordinator = placed(cluster, topic)
    assert_not_the_coordinator(cluster, leader, group, topic)
    member = Member(classpath, cluster.bootstrap, group, topic)
    try:
        # the share partition starts at the log end when the group first reads it: warm up
        warm = itertools.count()

        def warmed_up() -> bool:
            produce(cluster, topic, [f"warm-{next(warm)}"])
            return any(v.startswith("warm-") for v in member.values())

        wait(warmed_up, "a first record to reach the member", member)
        first = [f"a{i}" for i in range(100)] + [f"h{i}" for i in range(5)]
        produce(cluster, topic, first)
        wait(lambda: {v for v in first if v.startswith("a")} <= member.values() and "HOLDING" in member.lines,
             "the a records and a held h record", member)
        killed = leader if victim == "share partition leader" else coordinator
        cluster.brokers[killed].kill()  # kill -9: the h records are acquired, unacknowledged
        cluster.wait_for(lambda: cluster.state(topic, 0)["leader"] not in (killed, -1), "a new topic leader",
                         timeout=60)
        member.resume()
        second = [f"b{i}" for i in range(100)]
        produce(cluster, topic, second)
        # Until each acceptance is confirmed, not just delivered: a record is printed before its
        # commit, and quitting cuts that commit short (a loaded CI run quit between them).
        wait(lambda: set(first + second) <= member.confirmed(), "every record accepted and confirmed after the "
             "failover", member)
    finally:
        member.quit()
    confirmed: set[str] = set()
    deliveries: dict[str, list[int]] = {}
    for line in member.lines:
        kind, _, rest = line.partition(" ")
        if kind == "RECORD":
            value, count = rest.split(" ")
            assert value not in confirmed, f"{value} delivered again after its acceptance was confirmed"
            deliveries.setdefault(value, []).append(int(count))
        elif kind == "ACKED" and rest.startswith("ok "):
            confirmed.update(rest.split(" ")[1:])
    assert all(c <= DELIVERY_LIMIT for counts in deliveries.values() for c in counts), deliveries
