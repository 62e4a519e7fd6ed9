"""Share groups with the Java KafkaShareConsumer (kafka-clients 4.4.0,
compat/java/ShareConsumerMember.java), the same program against josefk and against Apache
Kafka 4.4.0 (KRaft, share.version finalized): two members on one partition get disjoint
records; a released record comes back with a higher delivery count; the records of a
member killed mid-batch go to the other once their acquisition locks run out.

A share partition starts at the log end (share.auto.offset.reset=latest) when the group
first reads it, so each test first produces warm-up records until a member receives one:
from then on the partition's start is fixed and every record produced is delivered."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

import pytest

from harness.kafka import KRaftBroker
from tests.conftest import RunningBroker
from tests.member_process import MemberProcess
from tests.prerequisites import require_files, require_tools
from tests.test_group_clients import create_topic, produce

ROOT = Path(__file__).resolve().parent.parent
LOCK_MS = 15_000  # group.share.record.lock.duration.ms on josefk: Kafka's minimum, to keep the test short
_names = itertools.count()


@pytest.fixture(scope="module")
def classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    lib = ROOT / "compat" / ".envs" / "java-4" / "lib"
    require_files(lib, ["kafka-clients.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("java-share")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{lib}/*",
                    str(ROOT / "compat" / "java" / "ShareConsumerMember.java")], check=True)
    return f"{build}{os.pathsep}{lib}/*"


@pytest.fixture(params=["josefk", "kafka-4.4.0"])
def bootstrap(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "josefk":
        running = RunningBroker(tmp_path / "logs", {"group.share.record.lock.duration.ms": str(LOCK_MS)})
        yield running.bootstrap
        running.stop()
    else:
        kafka: KRaftBroker = request.getfixturevalue("kafka44")
        yield kafka.bootstrap


class Member(MemberProcess):
    """One ShareConsumerMember JVM."""

    def __init__(self, classpath: str, bootstrap: str, group: str, topic: str, mode: str) -> None:
        super().__init__(["java", "-cp", classpath, "ShareConsumerMember", bootstrap, group, topic, mode])

    def records(self) -> list[tuple[str, int]]:
        """(value, delivery count) of every record received, in order."""
        return [(parts[1], int(parts[2])) for line in list(self.lines)
                if line.startswith("RECORD ") and len(parts := line.split(" ")) == 3]

    def values(self, prefix: str) -> list[str]:
        return [v for v, _ in self.records() if v.startswith(prefix)]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        self.quit()


def wait(condition: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Receiver(Protocol):
    def values(self, prefix: str) -> list[str]: ...


def warm_up(bootstrap: str, topic: str, members: Sequence[Receiver]) -> None:
    """Produce warm-up records until one reaches a member: the share partition has started."""
    deadline = time.monotonic() + 120
    for i in itertools.count():
        produce(bootstrap, topic, [(0, None, b"warm-%d" % i)])
        end = time.monotonic() + 2
        while time.monotonic() < end:
            if any(m.values("warm-") for m in members):
                return
            time.sleep(0.05)
        assert time.monotonic() < deadline, "no warm-up record reached a member"


def names() -> tuple[str, str]:
    n = next(_names)
    return f"share-topic-{n}-{time.time_ns()}", f"share-group-{n}"


def test_two_members_on_one_partition_get_disjoint_records(bootstrap: str, classpath: str) -> None:
    topic, group = names()
    create_topic(bootstrap, topic, 1)
    members = [Member(classpath, bootstrap, group, topic, "accept") for _ in range(2)]
    try:
        warm_up(bootstrap, topic, members)
        for start in range(0, 60, 6):  # in several produce requests: several batches to share
            produce(bootstrap, topic, [(0, None, b"r%d" % i) for i in range(start, start + 6)])
        wait(lambda: len(set(members[0].values("r")) | set(members[1].values("r"))) == 60, "all 60 records")
        got = members[0].values("r") + members[1].values("r")
        assert sorted(got) == sorted(f"r{i}" for i in range(60))  # each once: disjoint, none lost
        assert all(count == 1 for m in members for v, count in m.records() if v.startswith("r"))
    finally:
        for m in members:
            m.close()


def test_a_released_record_comes_back_with_a_higher_delivery_count(bootstrap: str, classpath: str) -> None:
    topic, group = names()
    create_topic(bootstrap, topic, 1)
    member = Member(classpath, bootstrap, group, topic, "release-once")
    try:
        warm_up(bootstrap, topic, [member])
        produce(bootstrap, topic, [(0, None, b"r%d" % i) for i in range(5)])
        wait(lambda: len([v for v, c in member.records() if v.startswith("r") and c == 2]) == 5,
             "every record's second delivery")
        deliveries: dict[str, list[int]] = {}
        for value, count in member.records():
            if value.startswith("r"):
                deliveries.setdefault(value, []).append(count)
        assert deliveries == {f"r{i}": [1, 2] for i in range(5)}
    finally:
        member.close()


def test_a_killed_members_records_go_to_the_other(bootstrap: str, classpath: str) -> None:
    topic, group = names()
    create_topic(bootstrap, topic, 1)
    holder = Member(classpath, bootstrap, group, topic, "hold")
    other = None
    try:
        warm_up(bootstrap, topic, [holder])
        held = holder.values("warm-")
        other = Member(classpath, bootstrap, group, topic, "accept")
        produce(bootstrap, topic, [(0, None, b"r%d" % i) for i in range(5)])
        wait(lambda: len(other.values("r")) == 5, "the other member to read the new records")
        holder.kill()  # mid-batch: its records are acquired, never acknowledged
        wait(lambda: set(held) <= set(other.values("warm-")), "the killed member's records to be redelivered",
             timeout=120)
        redelivered = {v: c for v, c in other.records() if v in held}
        assert all(count >= 2 for count in redelivered.values()), redelivered
    finally:
        holder.close()
        if other is not None:
            other.close()


class CkMember:
    """A confluent-kafka 2.16 (librdkafka 2.16) ShareConsumer, explicit acknowledgement,
    polled by its own thread (the consumer is not thread-safe; only that thread touches it):
    `release_once` releases each record at its first delivery and accepts it at the next."""

    def __init__(self, bootstrap: str, group: str, topic: str, release_once: bool = False) -> None:
        import confluent_kafka

        self.ck = confluent_kafka
        self.consumer = confluent_kafka.ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                                                      "share.acknowledgement.mode": "explicit"})
        self.consumer.subscribe([topic])
        self.release_once = release_once
        self.got: list[tuple[str, int]] = []
        self.errors: list[object] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        accept, release = self.ck.AcknowledgeType.ACCEPT, self.ck.AcknowledgeType.RELEASE
        try:
            while not self.stopping.is_set():
                messages = self.consumer.poll(0.2)
                for m in messages:
                    if m.error():
                        self.errors.append(m.error())
                        continue
                    value, count = m.value(), m.delivery_count()
                    assert value is not None and count is not None
                    self.got.append((value.decode(), count))
                    self.consumer.acknowledge(m, release if self.release_once and m.delivery_count() == 1
                                              else accept)
                if messages:
                    self.consumer.commit_sync()
        finally:
            self.consumer.close()

    def values(self, prefix: str) -> list[str]:
        return [v for v, _ in list(self.got) if v.startswith(prefix)]

    def records(self) -> list[tuple[str, int]]:
        return list(self.got)

    def close(self) -> bool:
        """Stop polling and close the consumer; False if it had not closed within 60 s."""
        self.stopping.set()
        self.thread.join(timeout=60)
        return not self.thread.is_alive()


def test_confluent_kafka_share_consumers(bootstrap: str) -> None:
    """confluent-kafka 2.16.1's ShareConsumer (librdkafka's, "preview"): two members on one
    partition get disjoint records; a released record comes back with delivery count 2."""
    topic, group = names()
    create_topic(bootstrap, topic, 1)
    members = [CkMember(bootstrap, group, topic) for _ in range(2)]
    try:
        warm_up(bootstrap, topic, members)
        for start in range(0, 30, 6):
            produce(bootstrap, topic, [(0, None, b"r%d" % i) for i in range(start, start + 6)])
        wait(lambda: len(set(members[0].values("r")) | set(members[1].values("r"))) == 30, "all 30 records")
        assert sorted(members[0].values("r") + members[1].values("r")) == sorted(f"r{i}" for i in range(30))
        assert not members[0].errors and not members[1].errors
    finally:
        closed = [m.close() for m in members]
    assert all(closed), "a share consumer did not close within 60 s"
    topic, group = names()
    create_topic(bootstrap, topic, 1)
    releasing = CkMember(bootstrap, group, topic, release_once=True)
    try:
        warm_up(bootstrap, topic, [releasing])
        produce(bootstrap, topic, [(0, None, b"r%d" % i) for i in range(5)])
        wait(lambda: len([v for v, c in releasing.records() if v.startswith("r") and c == 2]) == 5,
             "every record's second delivery")
        deliveries: dict[str, list[int]] = {}
        for value, count in releasing.records():
            if value.startswith("r"):
                deliveries.setdefault(value, []).append(count)
        assert deliveries == {f"r{i}": [1, 2] for i in range(5)}
    finally:
        closed = [releasing.close()]
    assert all(closed), "the share consumer did not close within 60 s"
