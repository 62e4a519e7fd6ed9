"""KIP-1071 streams groups with a real Kafka Streams 4.4.0 app (group.protocol=streams,
compat/java/StreamsGroupMember.java): a word count whose internal topics the broker creates,
two instances sharing its tasks, a second instance joining triggering a rebalance, and the
counts right across it."""

from __future__ import annotations

import os
import struct
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness.kafka import KRaftBroker
from tests.conftest import RunningBroker
from tests.member_process import MemberProcess
from tests.prerequisites import require_files, require_module, require_tools
from tests.test_group_clients import create_topic, produce

kafka = require_module("kafka")

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent
PARTITIONS = 4
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon"]
ALL_TASKS = {f"{s}_{p}" for s in (0, 1) for p in range(PARTITIONS)}


def line(i: int) -> str:
    return " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(1 + i % 3))


def wait(condition: Callable[[], bool], what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    lib = ROOT / "compat" / ".envs" / "java-4" / "lib"
    require_files(lib, ["kafka-clients.jar", "kafka-streams.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("streams-member")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{lib}/*",
                    str(ROOT / "compat" / "java" / "StreamsGroupMember.java")], check=True)
    return f"{build}{os.pathsep}{lib}/*"


@pytest.fixture(params=[0], ids=["no-standbys"])
def josefk(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A broker whose streams groups heartbeat every 500 ms (Kafka: 5 s), so that each
    reconciliation step takes a fraction of a second; `request.param` standby replicas."""
    running = RunningBroker(tmp_path / "logs", {"group.streams.heartbeat.interval.ms": "500",
                                                "group.streams.min.heartbeat.interval.ms": "500",
                                                "group.streams.num.standby.replicas": str(request.param)})
    yield running.bootstrap
    running.stop()


class Instance(MemberProcess):
    """One Kafka Streams instance in its own JVM."""

    def __init__(self, classpath: str, bootstrap: str, prefix: str, state_dir: Path) -> None:
        super().__init__(["java", "-cp", classpath, "StreamsGroupMember", bootstrap, f"{prefix}-wordcount",
                          f"{prefix}-in", f"{prefix}-out", str(state_dir)])

    def tasks(self, kind: str = "TASKS") -> set[str]:
        last = [x for x in list(self.lines) if x.startswith(kind + " ") or x == kind]
        return {t for t in last[-1].split(" ", 1)[1].split(",") if t} if last and " " in last[-1] else set()

    def task_history(self) -> list[set[str]]:
        return [{t for t in x[6:].split(",") if t} for x in list(self.lines) if x.startswith("TASKS")]

    def stop(self) -> None:
        self.quit()


class Counts:
    """The output topic read as it grows: the last count of each word."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.consumer = kafka.KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                            enable_auto_commit=False, group_id=None)
        self.last: dict[str, int] = {}

    def poll(self) -> dict[str, int]:
        for records in self.consumer.poll(timeout_ms=200).values():
            for r in records:
                self.last[r.key.decode()] = struct.unpack(">q", r.value)[0]
        return self.last

    def close(self) -> None:
        self.consumer.close()


def expected(n: int) -> dict[str, int]:
    return dict(Counter(w for i in range(n) for w in line(i).split()))


def run_word_count(bootstrap: str, classpath: str, tmp_path: Path, prefix: str
                   ) -> tuple[Instance, Instance, tuple[set[str], set[str]]]:
    """The scenario, on any broker: returns the two instances, stopped, and the tasks each held
    while both ran (once one has left, the other takes its tasks over before it is told to stop)."""
    create_topic(bootstrap, f"{prefix}-in", PARTITIONS)
    produce(bootstrap, f"{prefix}-in", [(i % PARTITIONS, b"k%d" % i, line(i).encode()) for i in range(40)])
    counts = Counts(bootstrap, f"{prefix}-out")
    instances: list[Instance] = []
    try:
        first = Instance(classpath, bootstrap, prefix, tmp_path / "state-1")
        instances.append(first)
        wait(lambda: first.tasks() == ALL_TASKS, "the first instance to own all 8 tasks")
        wait(lambda: counts.poll() == expected(40), "the counts of the first 40 lines")
        second = Instance(classpath, bootstrap, prefix, tmp_path / "state-2")
        instances.append(second)
        wait(lambda: bool(first.tasks() and second.tasks()) and first.tasks() | second.tasks() == ALL_TASKS
             and not first.tasks() & second.tasks(), "the tasks to be shared")
        assert len(first.tasks()) == len(second.tasks()) == 4
        produce(bootstrap, f"{prefix}-in", [(i % PARTITIONS, b"k%d" % i, line(i).encode()) for i in range(40, 80)])
        wait(lambda: counts.poll() == expected(80), "the counts of all 80 lines")
        return first, second, (first.tasks(), second.tasks())
    finally:
        for instance in instances:
            instance.stop()
        counts.close()


def test_a_kafka_streams_app_on_josefk_shares_its_tasks_between_two_instances(
        josefk: str, classpath: str, tmp_path: Path) -> None:
    first, second, (firsts, seconds) = run_word_count(josefk, classpath, tmp_path, "sg")
    assert "CLOSED" in first.lines and "CLOSED" in second.lines
    assert "STATE RUNNING" in first.lines and not [x for x in first.lines + second.lines if x.startswith("ERROR")]
    # A task moved from the first to the second only after the first gave it up.
    assert ALL_TASKS - firsts == seconds


@pytest.mark.parametrize("josefk", [1], ids=["one-standby"], indirect=True)
def test_with_one_standby_replica_each_instance_keeps_a_copy_of_the_others_state(
        josefk: str, classpath: str, tmp_path: Path) -> None:
    """group.streams.num.standby.replicas=1: once both run, each instance's standby tasks are
    the other's stateful active tasks (subtopology 1's; subtopology 0 has no state to copy)."""
    prefix = "sb"
    create_topic(josefk, f"{prefix}-in", PARTITIONS)
    produce(josefk, f"{prefix}-in", [(i % PARTITIONS, b"k%d" % i, line(i).encode()) for i in range(40)])
    instances: list[Instance] = []
    try:
        first = Instance(classpath, josefk, prefix, tmp_path / "state-1")
        instances.append(first)
        wait(lambda: first.tasks() == ALL_TASKS, "the first instance to own all 8 tasks")
        second = Instance(classpath, josefk, prefix, tmp_path / "state-2")
        instances.append(second)

        def stateful(tasks: set[str]) -> set[str]:
            return {t for t in tasks if t.startswith("1_")}

        try:
            wait(lambda: len(first.tasks()) == len(second.tasks()) == 4
                 and first.tasks("STANDBY") == stateful(second.tasks())
                 and second.tasks("STANDBY") == stateful(first.tasks())
                 and len(first.tasks("STANDBY") | second.tasks("STANDBY")) == PARTITIONS,
                 "each instance to hold the other's state as standby")
        except AssertionError as e:
            raise AssertionError(f"{e}: {first.lines} / {second.lines}") from None
        assert not first.tasks() & first.tasks("STANDBY") and not second.tasks() & second.tasks("STANDBY")
    finally:
        for instance in instances:
            instance.stop()


def test_the_same_app_on_kafka_4_4_as_the_reference(kafka44: KRaftBroker, classpath: str, tmp_path: Path) -> None:
    """Kafka 4.4.0 (KRaft, streams.version=1 finalized, group.coordinator.rebalance.protocols
    including streams by default) runs the same scenario: what the test above asks of josefk."""
    first, second, (firsts, seconds) = run_word_count(kafka44.bootstrap, classpath, tmp_path, f"sg-{os.getpid()}")
    assert "CLOSED" in first.lines and "CLOSED" in second.lines
    assert ALL_TASKS - firsts == seconds
