"""A KIP-1071 streams group survives the restart of its broker: a Kafka Streams 4.4.0 word
count (two instances, compat/java/StreamsGroupMember.java, group.protocol=streams) on one
josefk broker process that is stopped cleanly, or killed with SIGKILL, and started again on
the same port and log dir. The broker loads the group's records from __consumer_offsets and
the instances carry on heartbeating at their epochs: their tasks do not change, the group
describes the same members at the same epochs, and every line is counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.josefk import BrokerProcess
from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.test_group_clients import create_topic, produce
from tests.test_streams_group_clients import (
    ALL_TASKS,
    PARTITIONS,
    Counts,
    Instance,
    classpath,
    expected,
    line,
    wait,
)

__all__ = ["classpath"]  # the fixture, used by name

pytestmark = pytest.mark.integration
SETTINGS = {"group.streams.heartbeat.interval.ms": "500",
            "group.streams.min.heartbeat.interval.ms": "500", "offsets.topic.num.partitions": "1",
            "group.initial.rebalance.delay.ms": "0", "group.streams.initial.rebalance.delay.ms": "0"}


class Broker:
    """One josefk broker process, restartable on its port and log dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process = BrokerProcess(root / "logs", output=root / "broker.log", overrides=SETTINGS)
        self.port = self.process.port

    @property
    def bootstrap(self) -> str:
        return self.process.bootstrap

    def restart(self, kill: bool) -> None:
        if kill:
            self.process.kill()
        else:
            assert self.process.stop() == 0
        self.process = BrokerProcess(self.root / "logs", port=self.port, output=self.root / "broker.log",
                                     overrides=SETTINGS)

    def stop(self) -> None:
        self.process.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    running = Broker(tmp_path)
    yield running
    running.stop()


def describe(bootstrap: str, group_id: str) -> Any:
    """The group as the broker describes it; None while it cannot (loading, not yet back)."""
    try:
        sock = connect(bootstrap)
    except OSError:
        return None
    try:
        [group] = call(sock, ApiKey.StreamsGroupDescribe, 0, group_ids=[group_id],
                       include_authorized_operations=False)[1].groups
    except OSError:
        return None
    finally:
        sock.close()
    return group if group.error_code == ErrorCode.NONE else None


def epochs(group: Any) -> tuple[int, int, dict[str, int]]:
    return group.group_epoch, group.assignment_epoch, {m.member_id: m.member_epoch for m in group.members}


@pytest.mark.parametrize("kill", [False, True], ids=["clean-restart", "kill-9"])
def test_a_kafka_streams_app_keeps_its_tasks_across_a_restart_of_its_broker(
        broker: Broker, classpath: str, tmp_path: Path, kill: bool) -> None:
    prefix = "rs"
    app = f"{prefix}-wordcount"
    create_topic(broker.bootstrap, f"{prefix}-in", PARTITIONS)
    produce(broker.bootstrap, f"{prefix}-in", [(i % PARTITIONS, b"k%d" % i, line(i).encode()) for i in range(40)])
    instances: list[Instance] = []
    counts = Counts(broker.bootstrap, f"{prefix}-out")
    try:
        first = Instance(classpath, broker.bootstrap, prefix, tmp_path / "state-1")
        instances.append(first)
        wait(lambda: first.tasks() == ALL_TASKS, "the first instance to own all 8 tasks")
        second = Instance(classpath, broker.bootstrap, prefix, tmp_path / "state-2")
        instances.append(second)
        wait(lambda: len(first.tasks()) == len(second.tasks()) == 4 and first.tasks() | second.tasks() == ALL_TASKS,
             "the tasks to be shared")
        wait(lambda: counts.poll() == expected(40), "the counts of the first 40 lines")
        before = describe(broker.bootstrap, app)
        assert before is not None and before.group_state == "Stable" and len(before.members) == 2
        histories = (first.task_history(), second.task_history())

        broker.restart(kill)
        # Back from the log: the same members at the same epochs, before any of them could rejoin.
        wait(lambda: describe(broker.bootstrap, app) is not None, "the broker to load the group")
        after = describe(broker.bootstrap, app)
        assert epochs(after) == epochs(before) and after.group_state == "Stable"
        produce(broker.bootstrap, f"{prefix}-in", [(i % PARTITIONS, b"k%d" % i, line(i).encode())
                                                   for i in range(40, 80)])
        wait(lambda: counts.poll() == expected(80), "the counts of all 80 lines")
        # No task was lost or moved: neither instance printed a new assignment.
        assert (first.task_history(), second.task_history()) == histories
        still = describe(broker.bootstrap, app)
        assert still is not None and epochs(still) == epochs(before)
        assert not [x for x in first.lines + second.lines if x.startswith("ERROR")]
    finally:
        for instance in instances:
            instance.stop()
        counts.close()
