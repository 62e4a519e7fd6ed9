"""Real clients on KIP-848 consumer groups: confluent-kafka 2.16.1 (librdkafka) with
group.protocol=consumer joins a josefk group, consumes, shares the partitions with a
second member and takes them back when it leaves, commits, and a new consumer resumes at
the committed offsets; the Java 4.4.0 consumer does the same. Classic and
consumer-protocol members in one group (mixed groups): tests/test_mixed_group_clients.py."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.member_process import MemberProcess
from tests.prerequisites import require_files, require_module, require_tools
from tests.test_group_clients import create_topic, produce

ck = require_module("confluent_kafka")
kafka = require_module("kafka")

pytestmark = pytest.mark.integration
PARTITIONS = 4
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    """A broker whose consumer groups heartbeat every 500 ms (Kafka: 5 s), so that each
    reconciliation step (revoke, then assign) takes a fraction of a second."""
    running = RunningBroker(tmp_path / "logs", {"offsets.topic.num.partitions": "5",
                                                "group.consumer.heartbeat.interval.ms": "500",
                                                "group.consumer.min.heartbeat.interval.ms": "500"})
    yield running
    running.stop()


def consumer(bootstrap: str, group: str = "g") -> Any:
    return ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                        "auto.offset.reset": "earliest", "enable.auto.commit": False})


def pump(consumers: list[Any], seen: dict[int, list[bytes]], until: Callable[[], bool], what: str,
         timeout: float = 60) -> None:
    """Poll every consumer in turn (each must poll to take part in the group) until `until`."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        for i, c in enumerate(consumers):
            message = c.poll(0.1)
            if message is not None and message.error() is None:
                seen.setdefault(i, []).append(message.value())


def owned(c: Any) -> set[int]:
    return {tp.partition for tp in c.assignment()}


def test_confluent_kafka_consumer_protocol_rebalances_commits_and_resumes(cbroker: RunningBroker) -> None:
    bootstrap = cbroker.bootstrap
    create_topic(bootstrap, "t", PARTITIONS)
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"a%d" % i) for i in range(40)])
    open_consumers: list[Any] = []

    def leave(c: Any) -> None:
        open_consumers.remove(c)
        c.close()

    try:
        first = consumer(bootstrap)
        open_consumers.append(first)
        first.subscribe(["t"])
        seen: dict[int, list[bytes]] = {}
        pump([first], seen, lambda: len(seen.get(0, [])) == 40, "the first member to read all 40")
        assert owned(first) == set(range(PARTITIONS))
        first.commit(asynchronous=False)

        second = consumer(bootstrap)
        open_consumers.append(second)
        second.subscribe(["t"])
        pump([first, second], seen, lambda: len(owned(first)) == 2 and len(owned(second)) == 2,
             "the partitions to be shared")
        assert owned(first) | owned(second) == set(range(PARTITIONS))
        sock = connect(bootstrap)
        try:
            [group] = call(sock, ApiKey.ConsumerGroupDescribe, 0, group_ids=["g"],
                           include_authorized_operations=False)[1].groups
            listed = call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=[])[1].groups
        finally:
            sock.close()
        assert (group.error_code, len(group.members)) == (ErrorCode.NONE, 2)
        assert [(g.group_id, g.group_type) for g in listed if g.group_id == "g"] == [("g", "consumer")]

        leave(second)  # member epoch -1
        pump([first], seen, lambda: owned(first) == set(range(PARTITIONS)), "the partitions to come back")
        leave(first)
    finally:
        for c in open_consumers:
            c.close()
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])
    resumed = consumer(bootstrap)
    try:
        resumed.subscribe(["t"])
        later: dict[int, list[bytes]] = {}
        pump([resumed], later, lambda: len(later.get(0, [])) >= 8, "the new records")
        assert sorted(later[0]) == sorted(b"b%d" % i for i in range(8))  # none of the committed 40 again
    finally:
        resumed.close()


class JavaMember(MemberProcess):
    """compat/java/ConsumerGroupMember.java (kafka-clients 4.4.0, group.protocol=consumer
    or classic) in its own JVM."""

    def __init__(self, classpath: str, bootstrap: str, group: str, topic: str, protocol: str = "consumer") -> None:
        super().__init__(["java", "-cp", classpath, "ConsumerGroupMember", bootstrap, group, topic, protocol])

    def records(self) -> list[str]:
        return [line.split(" ", 1)[1] for line in list(self.lines) if line.startswith("RECORD ")]

    def assignment(self) -> set[int]:
        last = [line for line in list(self.lines) if line.startswith("ASSIGNMENT")]
        return {int(p) for p in last[-1].split(" ", 1)[1].split(",") if p} if last and " " in last[-1] else set()

    def leave(self) -> None:
        """Close the consumer (it leaves the group) and wait for the JVM to exit."""
        self.quit()


def wait(condition: Callable[[], bool], what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def java_member_classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    lib = ROOT / "compat" / ".envs" / "java-4" / "lib"
    require_files(lib, ["kafka-clients.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("java-member")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{lib}/*",
                    str(ROOT / "compat" / "java" / "ConsumerGroupMember.java")], check=True)
    return f"{build}{os.pathsep}{lib}/*"


def test_java_4_consumer_protocol_rebalances_commits_and_resumes(cbroker: RunningBroker,
                                                                   java_member_classpath: str) -> None:
    bootstrap = cbroker.bootstrap
    create_topic(bootstrap, "t", PARTITIONS)
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"a%d" % i) for i in range(20)])
    members: list[JavaMember] = []
    try:
        first = JavaMember(java_member_classpath, bootstrap, "jg", "t")
        members.append(first)
        wait(lambda: len(first.records()) == 20 and first.assignment() == set(range(PARTITIONS)),
             "the first member to read all 20")
        second = JavaMember(java_member_classpath, bootstrap, "jg", "t")
        members.append(second)
        wait(lambda: len(first.assignment()) == 2 and len(second.assignment()) == 2, "the partitions to be shared")
        assert first.assignment() | second.assignment() == set(range(PARTITIONS))
        second.leave()
        assert second.lines[-1] == "CLOSED"
        wait(lambda: first.assignment() == set(range(PARTITIONS)), "the partitions to come back")
        first.leave()
        produce(bootstrap, "t", [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])
        resumed = JavaMember(java_member_classpath, bootstrap, "jg", "t")
        members.append(resumed)
        wait(lambda: len(resumed.records()) >= 8, "the new records")
        assert sorted(resumed.records()) == sorted(f"b{i}" for i in range(8))
        assert sorted(first.records() + second.records()) == sorted(f"a{i}" for i in range(20))
    finally:
        for member in members:
            member.leave()
