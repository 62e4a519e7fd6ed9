"""KIP-848 mixed groups with real clients: kafka-python (classic protocol) and the Java
4.4.0 consumer with group.protocol=classic hold a classic group; a Java 4.4.0 consumer
with group.protocol=consumer joins (online upgrade: all three end up with a disjoint,
complete assignment and keep consuming), leaves (online downgrade back to a classic
group), and both again; the commits survive it all. The same scenario runs against
Kafka 4.4.0 (KRaft, group.consumer.migration.policy=bidirectional by default), and josefk
must show the same group types, states and member types at every step (ListGroups,
DescribeGroups, ConsumerGroupDescribe)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.kafka import KRaftBroker
from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated.offset_fetch_request import OffsetFetchRequestGroup
from tests.conftest import RunningBroker
from tests.prerequisites import require_module
from tests.test_consumer_group_clients import JavaMember, java_member_classpath, wait
from tests.test_group_clients import create_topic

kafka = require_module("kafka")

pytestmark = pytest.mark.integration
PARTITIONS = 4
TOPIC = "mixed"
GROUP = "mixed-group"
__all__ = ["java_member_classpath"]  # the fixture, shared with the consumer group client tests


def produce(bootstrap: str, topic: str, messages: list[tuple[int, bytes | None, bytes]]) -> None:
    """Without idempotence: the session's Kafka 4.4 node hands out no producer id here, which
    the differential suite's cases on the same node would see."""
    producer = kafka.KafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=False)
    for partition, key, value in messages:
        producer.send(topic, key=key, value=value, partition=partition)
    producer.flush()
    producer.close()


class PythonMember:
    """A kafka-python KafkaConsumer (classic protocol) polled by its own thread, which
    commits after every poll that returned records and only then counts them as read."""

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap
        self.read: list[str] = []
        self.partitions: set[int] = set()
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            consumer = kafka.KafkaConsumer(
                TOPIC, bootstrap_servers=self.bootstrap, group_id=GROUP, enable_auto_commit=False,
                session_timeout_ms=10_000, heartbeat_interval_ms=300, auto_offset_reset="earliest",
                max_poll_interval_ms=60_000)
        except BaseException as e:  # the test reports it
            self.error = e
            self.ready.set()
            return
        self.ready.set()
        try:
            while not self.stop.is_set():
                batches = consumer.poll(timeout_ms=200)
                values = [r.value.decode() for rs in batches.values() for r in rs]
                if values:
                    consumer.commit()
                self.read.extend(values)
                self.partitions = {tp.partition for tp in consumer.assignment()}
        except BaseException as e:
            self.error = e
        finally:
            consumer.close()

    def assignment(self) -> set[int]:
        return set(self.partitions)

    def records(self) -> list[str]:
        return list(self.read)

    def leave(self) -> None:
        self.stop.set()
        self.thread.join(timeout=60)


Member = PythonMember | JavaMember


def settled(members: list[Member]) -> Callable[[], bool]:
    """Every member holds partitions, none twice, all of them between them."""
    def check() -> bool:
        held = [m.assignment() for m in members]
        return (all(held) and sum(len(h) for h in held) == PARTITIONS
                and set().union(*held) == set(range(PARTITIONS)))
    return check


def group_view(bootstrap: str) -> tuple[Any, ...]:
    """What ListGroups, DescribeGroups and ConsumerGroupDescribe say of the group."""
    sock = connect(bootstrap)
    try:
        listed = [(g.group_type, g.group_state, g.protocol_type) for g in call(
            sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=[])[1].groups if g.group_id == GROUP]
        described = call(sock, ApiKey.DescribeGroups, 5, groups=[GROUP],
                         include_authorized_operations=False)[1].groups[0]
        consumer = call(sock, ApiKey.ConsumerGroupDescribe, 1, group_ids=[GROUP],
                        include_authorized_operations=False)[1].groups[0]
    finally:
        sock.close()
    return (listed, (described.error_code, described.group_state, described.protocol_type,
                     described.protocol_data, len(described.members)),
            (consumer.error_code, consumer.error_message, consumer.group_state,
             sorted(m.member_type for m in consumer.members)))


def stable_view(bootstrap: str, members: list[Member], group_type: str) -> tuple[Any, ...]:
    """The group's view once its members share the partitions and it is Stable as `group_type`."""
    views: list[tuple[Any, ...]] = []

    def stable() -> bool:
        if not settled(members)():
            return False
        views.append(group_view(bootstrap))
        return views[-1][0] == [(group_type, "Stable", "consumer")]

    try:
        wait(stable, f"the group to settle as a Stable {group_type} group", timeout=180)
    except AssertionError as e:  # what the group and its members last showed, for the next diagnosis
        raise AssertionError(f"{e}; last view {views[-1] if views else None}; members' partitions "
                             f"{[sorted(m.assignment()) for m in members]}") from None
    return views[-1]


def committed(bootstrap: str) -> dict[int, int]:
    """The group's committed offsets, as an admin fetches them (OffsetFetch v8, no member)."""
    sock = connect(bootstrap)
    try:
        [group] = call(sock, ApiKey.OffsetFetch, 8, groups=[OffsetFetchRequestGroup(
            group_id=GROUP, member_id=None, member_epoch=-1, topics=None)], require_stable=False)[1].groups
    finally:
        sock.close()
    return {p.partition_index: p.committed_offset for t in group.topics if t.name == TOPIC for p in t.partitions}


def scenario(bootstrap: str, classpath: str) -> list[tuple[Any, ...]]:
    """Run the upgrade/downgrade scenario; the group's view at each settled step."""
    create_topic(bootstrap, TOPIC, PARTITIONS)
    produced = [f"a{i}" for i in range(40)]
    produce(bootstrap, TOPIC, [(i % PARTITIONS, None, v.encode()) for i, v in enumerate(produced)])
    members: list[Member] = []
    everyone: list[Member] = []
    views = []

    def start(member: Member) -> Member:
        members.append(member)
        everyone.append(member)
        return member

    def stop(member: Member) -> None:
        members.remove(member)
        member.leave()

    def read_everything() -> None:
        wait(lambda: set().union(*(m.records() for m in everyone)) >= set(produced), "every record to be read",
             timeout=180)

    try:
        python = PythonMember(bootstrap)
        start(python)
        assert python.ready.wait(60) and python.error is None, python.error
        start(JavaMember(classpath, bootstrap, GROUP, TOPIC, "classic"))
        views.append(stable_view(bootstrap, members, "classic"))
        read_everything()
        for round_ in ("b", "c"):
            modern = start(JavaMember(classpath, bootstrap, GROUP, TOPIC, "consumer"))
            views.append(stable_view(bootstrap, members, "consumer"))  # the upgrade
            more = [f"{round_}{i}" for i in range(20)]
            produce(bootstrap, TOPIC, [(i % PARTITIONS, None, v.encode()) for i, v in enumerate(more)])
            produced += more
            read_everything()
            assert modern.records(), "the consumer-protocol member consumed nothing"
            stop(modern)
            views.append(stable_view(bootstrap, members, "classic"))  # the downgrade
        wait(lambda: sum(committed(bootstrap).values()) == len(produced), "the commits of every record")
        for member in list(members):
            stop(member)
        # A new classic member resumes at the committed offsets: only the new records.
        produce(bootstrap, TOPIC, [(i % PARTITIONS, None, f"z{i}".encode()) for i in range(8)])
        resumed = start(PythonMember(bootstrap))
        wait(lambda: len(resumed.records()) >= 8, "the new records")
        assert sorted(resumed.records()) == sorted(f"z{i}" for i in range(8))
        for member in everyone:
            if isinstance(member, PythonMember):
                assert member.error is None, member.error
    finally:
        for member in list(members):
            stop(member)
    return views


# The Stable views at each step: classic (2 members), upgraded (consumer group: 2 classic
# members, type 0, and 1 consumer-protocol member, type 1), downgraded, upgraded, downgraded.
CLASSIC: tuple[Any, ...] = ([("classic", "Stable", "consumer")], (0, "Stable", "consumer", "range", 2),
                            (69, f"Group {GROUP} is not a consumer group.", "", []))
CONSUMER: tuple[Any, ...] = ([("consumer", "Stable", "consumer")], (0, "Dead", "", "", 0),
                             (0, None, "Stable", [0, 0, 1]))


@pytest.fixture
def mbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    """A broker whose consumer groups heartbeat every 500 ms, so each reconciliation step
    is quick (Kafka's 5 s otherwise)."""
    running = RunningBroker(tmp_path / "logs", {"offsets.topic.num.partitions": "5",
                                                "group.consumer.heartbeat.interval.ms": "500",
                                                "group.consumer.min.heartbeat.interval.ms": "500"})
    yield running
    running.stop()


def test_classic_members_upgrade_to_a_consumer_group_and_back_on_josefk(mbroker: RunningBroker,
                                                                       java_member_classpath: str) -> None:
    views = scenario(mbroker.bootstrap, java_member_classpath)
    assert views == [CLASSIC, CONSUMER, CLASSIC, CONSUMER, CLASSIC]


def test_kafka_4_4_shows_the_same_steps(kafka44: KRaftBroker, java_member_classpath: str) -> None:
    """The reference: Kafka 4.4.0 through the same scenario gives the same views."""
    views = scenario(f"127.0.0.1:{kafka44.port}", java_member_classpath)
    assert views == [CLASSIC, CONSUMER, CLASSIC, CONSUMER, CLASSIC]
