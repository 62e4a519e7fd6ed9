"""franz-go (Go, github.com/twmb/franz-go v1.22.3) on KIP-848 consumer groups: compat/go's
member program (`make go-envs`) with the consumer protocol (ConsumerGroupHeartbeat v1, the
broker's uniform assignor), the same scenario on josefk and on Apache Kafka 4.4.0 (KRaft):
members join one group, get a disjoint complete assignment that moves as members join and
leave, commit, and a new member resumes at the committed offsets; a static member
(group.instance.id) that restarts within the session timeout gets its partitions back with no
rebalance of the others (the group epoch stays put) and resumes at its commits; members churn
while a producer writes and every record is read once. The range assignor and the classic
protocol run through the same program."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaProducer

from harness.kafka import KRaftBroker
from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.member_process import MemberProcess
from tests.prerequisites import require_files
from tests.test_group_clients import create_topic, produce

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parent.parent
GO_ENV = ROOT / "compat" / ".envs" / "go"
PARTITIONS = 4
# Kafka 4.4 heartbeats consumer members every 5 s (group.consumer.heartbeat.interval.ms), and a
# reconciliation (revoke, then assign) takes a few heartbeats: generous waits on a loaded machine.
WAIT = 180
_names = itertools.count()


@pytest.fixture(scope="module")
def go_member() -> Path:
    require_files(GO_ENV, ["go-member"], "make go-envs")
    return GO_ENV / "go-member"


@pytest.fixture(params=["josefk", "kafka-4.4.0"])
def bootstrap(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A josefk broker whose consumer groups heartbeat every 500 ms (as in
    test_consumer_group_clients.py), or the session's Kafka 4.4.0 at its defaults."""
    if request.param == "josefk":
        running = RunningBroker(tmp_path / "logs", {"offsets.topic.num.partitions": "5",
                                                    "group.consumer.heartbeat.interval.ms": "500",
                                                    "group.consumer.min.heartbeat.interval.ms": "500"})
        yield running.bootstrap
        running.stop()
    else:
        kafka: KRaftBroker = request.getfixturevalue("kafka44")
        yield kafka.bootstrap


class GoMember(MemberProcess):
    """One go-member process (compat/go/main.go), printing a JSON line per event; its log goes
    to a file of the test's temp dir."""

    def __init__(self, binary: Path, bootstrap: str, group: str, topic: str, log: Path,
                 instance_id: str | None = None, protocol: str = "consumer", assignor: str = "uniform") -> None:
        args = [str(binary), "-bootstrap", bootstrap, "-group", group, "-topic", topic, "-protocol", protocol,
                "-assignor", assignor]
        if instance_id is not None:
            args += ["-instance-id", instance_id]
        with log.open("a") as stderr:
            super().__init__(args, stderr)

    @property
    def events(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in list(self.lines)]

    def of(self, *kinds: str) -> list[dict[str, Any]]:
        return [e for e in list(self.events) if e["event"] in kinds]

    def values(self) -> list[str]:
        return [e["value"] for e in self.of("record")]

    def assignment(self) -> set[int]:
        changes = self.of("assigned", "revoked", "lost")
        return {p for ps in changes[-1]["assignment"].values() for p in ps} if changes else set()

    def committed(self) -> dict[int, int]:
        """Partition -> the last offset the broker accepted a commit of."""
        offsets: dict[int, int] = {}
        for e in self.of("committed"):
            for ps in e["offsets"].values():
                offsets.update({int(p): o for p, o in ps.items()})
        return offsets

    def leave(self) -> None:
        """Ask it to quit: it commits, leaves the group (member epoch -1; -2 when static) and exits."""
        self.quit()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=10)


def wait(condition: Callable[[], bool], what: str, members: list[GoMember], timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: "
                                 + "; ".join(f"pid {m.process.pid}: {m.events[-3:]}" for m in members))
        time.sleep(0.05)


def group_type(bootstrap: str, group: str) -> list[str]:
    sock = connect(bootstrap)
    try:
        listed = call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=[])[1].groups
    finally:
        sock.close()
    return [g.group_type for g in listed if g.group_id == group]


def describe(bootstrap: str, group: str) -> Any:
    """The group as ConsumerGroupDescribe shows it; ListGroups must call it a consumer group."""
    sock = connect(bootstrap)
    try:
        [described] = call(sock, ApiKey.ConsumerGroupDescribe, 0, group_ids=[group],
                           include_authorized_operations=False)[1].groups
    finally:
        sock.close()
    assert described.error_code == ErrorCode.NONE, described
    assert group_type(bootstrap, group) == ["consumer"]
    return described


def split(members: list[GoMember]) -> list[set[int]]:
    return [m.assignment() for m in members]


def shared_out(members: list[GoMember], sizes: list[int]) -> Callable[[], bool]:
    """The members' assignments are disjoint, cover every partition and have these sizes."""
    def settled() -> bool:
        owned = split(members)
        return (sorted(len(o) for o in owned) == sizes and set().union(*owned) == set(range(PARTITIONS))
                and sum(map(len, owned)) == PARTITIONS)
    return settled


def test_go_consumer_protocol_rebalances_commits_and_resumes(bootstrap: str, go_member: Path,
                                                             tmp_path: Path) -> None:
    n = next(_names)
    topic, group = f"go-t{n}", f"go-g{n}"
    create_topic(bootstrap, topic, PARTITIONS)
    produce(bootstrap, topic, [(i % PARTITIONS, None, b"a%d" % i) for i in range(20)])
    everyone: list[GoMember] = []

    def member() -> GoMember:
        m = GoMember(go_member, bootstrap, group, topic, tmp_path / "go.log")
        everyone.append(m)
        return m

    try:
        first = member()
        wait(lambda: len(first.values()) == 20 and first.committed() == {p: 5 for p in range(PARTITIONS)},
             "the first member to read and commit all 20", everyone)
        assert first.assignment() == set(range(PARTITIONS))
        assert len(describe(bootstrap, group).members) == 1

        second = member()
        wait(shared_out([first, second], [2, 2]), "the partitions to be shared by two", everyone)
        third = member()
        wait(shared_out([first, second, third], [1, 1, 2]), "the partitions to be shared by three", everyone)
        described = describe(bootstrap, group)
        assert (described.group_state, described.assignor_name, len(described.members)) == ("Stable", "uniform", 3)
        assert {frozenset(p for t in m.assignment.topic_partitions for p in t.partitions)
                for m in described.members} == {frozenset(o) for o in split([first, second, third])}

        produce(bootstrap, topic, [(i % PARTITIONS, None, b"b%d" % i) for i in range(12)])
        reading = [first, second, third]
        wait(lambda: sum(len([v for v in m.values() if v.startswith("b")]) for m in reading) >= 12,
             "the three to read the 12 new records", everyone)
        for m in reading:  # each read exactly the records of its own partitions
            assert sorted(int(v[1:]) % PARTITIONS for v in m.values() if v.startswith("b")) == sorted(
                p for p in m.assignment() for _ in range(3))

        third.leave()
        assert third.events[-1]["event"] == "closed"
        wait(shared_out([first, second], [2, 2]), "the third member's partitions to move", everyone)
        second.leave()
        wait(lambda: first.assignment() == set(range(PARTITIONS)), "the partitions to come back", everyone)
        first.leave()
        assert sorted(v for m in everyone for v in m.values()) == sorted(
            [f"a{i}" for i in range(20)] + [f"b{i}" for i in range(12)])  # each once
        assert [e for m in everyone for e in m.of("commit_failed", "error")] == []

        produce(bootstrap, topic, [(i % PARTITIONS, None, b"c%d" % i) for i in range(8)])
        resumed = member()
        wait(lambda: resumed.committed() == {p: 10 for p in range(PARTITIONS)},
             "the new member to read and commit the new records", everyone)
        assert sorted(resumed.values()) == sorted(f"c{i}" for i in range(8))  # nothing committed again
    finally:
        for m in everyone:
            m.stop()


def test_go_static_member_restarts_into_its_partitions_without_a_rebalance(bootstrap: str, go_member: Path,
                                                                           tmp_path: Path) -> None:
    n = next(_names)
    topic, group = f"go-static-t{n}", f"go-static-g{n}"
    create_topic(bootstrap, topic, PARTITIONS)
    produce(bootstrap, topic, [(i % PARTITIONS, None, b"a%d" % i) for i in range(8)])
    everyone: list[GoMember] = []

    def member(instance: str) -> GoMember:
        m = GoMember(go_member, bootstrap, group, topic, tmp_path / "go.log", instance_id=instance)
        everyone.append(m)
        return m

    try:
        a, b = member("a"), member("b")
        wait(lambda: shared_out([a, b], [2, 2])() and len(a.values()) + len(b.values()) == 8
             and {**a.committed(), **b.committed()} == {p: 2 for p in range(PARTITIONS)},
             "two static members to share the partitions, read and commit", everyone)
        before = describe(bootstrap, group)
        b_partitions, a_changes = b.assignment(), len(a.of("assigned", "revoked", "lost"))
        [a_before] = [m for m in before.members if m.instance_id == "a"]

        b.leave()  # member epoch -2: gone for now, its partitions kept for it
        # franz-go's own static leave has no instance id, which the broker refuses as Kafka 4.4
        # does; go-member then sends the leave itself (compat/go/main.go leaveStatic).
        [left] = b.of("left")
        assert left["error"].startswith("INVALID_REQUEST") and "InstanceId can't be null." in left["error"]
        assert [e.get("error") for e in b.of("left_static")] == [None]
        away = describe(bootstrap, group)
        assert [m.member_epoch for m in away.members if m.instance_id == "b"] in ([-2], [])
        produce(bootstrap, topic, [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])

        b2 = member("b")
        wait(lambda: b2.assignment() == b_partitions and len(b2.values()) == 4,
             "the restarted static member to get its partitions back and read on", everyone)
        after = describe(bootstrap, group)
        assert after.group_epoch == before.group_epoch  # no rebalance
        assert len(a.of("assigned", "revoked", "lost")) == a_changes  # the other member kept its partitions
        [a_after] = [m for m in after.members if m.instance_id == "a"]
        assert a_after.member_epoch == a_before.member_epoch
        assert {m.instance_id for m in after.members} == {"a", "b"} and len(after.members) == 2
        assert sorted(b2.values()) == sorted(f"b{i}" for i in range(8) if i % PARTITIONS in b_partitions)
        a_partitions = set(range(PARTITIONS)) - b_partitions
        wait(lambda: sorted(v for v in a.values() if v.startswith("b")) == sorted(
            f"b{i}" for i in range(8) if i % PARTITIONS in a_partitions), "the other member to read on", everyone)
        assert [e for m in everyone for e in m.of("commit_failed", "error")] == []
    finally:
        for m in everyone:
            m.stop()


def test_go_consumer_protocol_with_the_range_assignor(bootstrap: str, go_member: Path, tmp_path: Path) -> None:
    """kgo's range balancer with ServerSideBalancer asks for the broker's range assignor:
    two members get two contiguous partitions each."""
    n = next(_names)
    topic, group = f"go-range-t{n}", f"go-range-g{n}"
    create_topic(bootstrap, topic, PARTITIONS)
    members = [GoMember(go_member, bootstrap, group, topic, tmp_path / "go.log", assignor="range") for _ in range(2)]
    try:
        wait(shared_out(members, [2, 2]), "two range members to share the partitions", members)
        assert sorted(sorted(m.assignment()) for m in members) == [[0, 1], [2, 3]]
        described = describe(bootstrap, group)
        assert (described.assignor_name, len(described.members)) == ("range", 2)
    finally:
        for m in members:
            m.stop()


def test_go_classic_protocol_members_share_and_hand_back(bootstrap: str, go_member: Path, tmp_path: Path) -> None:
    """The same program on the classic protocol (JoinGroup/SyncGroup, kgo's cooperative-sticky
    balancer): a classic group, shared by two members, all of it to the one left."""
    n = next(_names)
    topic, group = f"go-classic-t{n}", f"go-classic-g{n}"
    create_topic(bootstrap, topic, PARTITIONS)
    members = [GoMember(go_member, bootstrap, group, topic, tmp_path / "go.log", protocol="classic",
                        assignor="cooperative-sticky") for _ in range(2)]
    try:
        wait(shared_out(members, [2, 2]), "two classic members to share the partitions", members)
        assert group_type(bootstrap, group) == ["classic"]
        members[1].leave()
        wait(lambda: members[0].assignment() == set(range(PARTITIONS)), "the partitions to come back", members)
    finally:
        for m in members:
            m.stop()


class Producing:
    """Records "p0", "p1", ... sent to the topic's partitions in turn from a thread, until stopped."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
        self.topic, self.sent = topic, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            for _ in range(20):
                self.producer.send(self.topic, value=b"p%d" % self.sent, partition=self.sent % 6)
                self.sent += 1
            self.producer.flush()
            self.done.wait(0.05)  # a steady trickle, not a flood

    def stop(self) -> int:
        self.done.set()
        self.thread.join(timeout=60)
        self.producer.close()
        return self.sent


def test_go_members_churn_while_records_flow_and_each_record_is_read_once(bootstrap: str, go_member: Path,
                                                                        tmp_path: Path) -> None:
    """Members join and leave one after another while a producer writes: each time the
    partitions settle on the live members, disjoint and complete, and in the end every record
    was read exactly once (each member commits what it read before it gives a partition up)."""
    n = next(_names)
    topic, group = f"go-churn-t{n}", f"go-churn-g{n}"
    create_topic(bootstrap, topic, 6)
    everyone: list[GoMember] = []
    live: list[GoMember] = []

    def settled() -> bool:
        owned = [m.assignment() for m in live]
        return set().union(*owned) == set(range(6)) and sum(map(len, owned)) == 6 and all(owned)

    producing = Producing(bootstrap, topic)
    try:
        for step in range(8):
            if step < 2 or step % 2 == 0:
                live.append(GoMember(go_member, bootstrap, group, topic, tmp_path / "go.log"))
                everyone.append(live[-1])
            else:
                live.pop(0).leave()
            wait(settled, f"the partitions to settle on {len(live)} members (step {step})", everyone)
        sent = producing.stop()
        expected = sorted(f"p{i}" for i in range(sent))
        wait(lambda: len({v for m in everyone for v in m.values()}) == sent, f"all {sent} records to be read",
             everyone)
        assert sorted(v for m in everyone for v in m.values()) == expected  # none twice
        assert [e for m in everyone for e in m.of("commit_failed", "error")] == []
    finally:
        producing.stop()
        for m in everyone:
            m.stop()
