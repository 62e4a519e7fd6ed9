"""Consumer groups with real clients (kafka-python 3, confluent-kafka) against a real broker:
the seed documents' experiment, the membership walk, commit/restart/resume, expulsion."""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Callable

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.protocol.consumer.group import JoinGroupResponse  # what harness.wire.call decodes into
from kafka.structs import OffsetAndMetadata

from harness.wire import call, connect, encode_request, read_frame
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.prerequisites import require_module

FAST_GROUP = dict(session_timeout_ms=6000, heartbeat_interval_ms=300, auto_offset_reset="earliest",
                  max_poll_interval_ms=10_000)


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic(name, partitions, 1)])
    admin.close()


def produce(bootstrap: str, topic: str, messages: list[tuple[int, bytes | None, bytes]]) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    for partition, key, value in messages:
        producer.send(topic, key=key, value=value, partition=partition)
    producer.flush()
    producer.close()


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def group_consumer(topic: str, **config) -> KafkaConsumer:
    """A kafka-python group consumer whose poll() does not return in the middle of a
    JoinGroup + SyncGroup round: it waits for the round it started, however long poll's timeout.

    Works around a kafka-python 3.0.12 bug (BaseCoordinator.join_group_async). The round runs
    as a task on the client's IO thread; when poll()'s timeout expires first, the task is left
    running for the next poll() to await. If it finishes between two poll() calls, its result
    is never used: the assignment is not installed and heartbeats, disabled for the round, are
    not re-enabled (both happen only in the poll() that awaits the result). The next poll()
    then either
    - sees the task done, takes it for stale and sends another JoinGroup (the assignment is
      skipped; a leader's rejoin also makes the broker start another rebalance), or
    - no longer needs a rejoin, when the round was the leader's reassignment after a topic's
      metadata arrived (its first assignment was empty: the tests create the topic just
      before the consumers start), and never looks at the task again. The member then sends
      no heartbeat at all: the broker removes it after session.timeout.ms and the consumer,
      heartbeats disabled and nothing left to rejoin for, never notices. That was the
      "stall after the assignment".
    Many threads in one process (the broker's included) make the gap between two poll()
    calls long enough to hit, about 1 run in 10 under CPU load.
    """
    consumer = KafkaConsumer(topic, **{**FAST_GROUP, **config})
    coordinator = consumer._coordinator
    join_group_async = coordinator.join_group_async

    async def join_group_until_done(timeout_ms=None):
        return await join_group_async(timeout_ms=None)

    coordinator.join_group_async = join_group_until_done
    return consumer


class Member(threading.Thread):
    """A kafka-python group consumer polling on its own thread, recording what it owns and reads."""

    def __init__(self, bootstrap: str, group: str, topic: str, **config) -> None:
        super().__init__(daemon=True)
        self.consumer = group_consumer(topic, bootstrap_servers=bootstrap, group_id=group, **config)
        self.records: list = []
        self.assignment: set[int] = set()
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        while not self.stopping.is_set():
            batches = self.consumer.poll(timeout_ms=100)
            with self.lock:
                for records in batches.values():
                    self.records.extend(records)
                self.assignment = {tp.partition for tp in self.consumer.assignment()}
        self.consumer.close()  # sends LeaveGroup

    def owned(self) -> set[int]:
        with self.lock:
            return set(self.assignment)

    def keys(self) -> set[bytes]:
        with self.lock:
            return {r.key for r in self.records}

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=15)


def group_members(bootstrap: str, group: str) -> tuple[str, int]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        described = admin.describe_groups([group])[group]
        return described["group_state"], len(described["members"])
    finally:
        admin.close()


def test_seed_experiment_one_group_gets_all_other_splits_by_partition(gbroker):
    """topic1 with 3 partitions; group1's only consumer gets keys 1, 2, 3; group2's three
    consumers get one key each (the seed documents' experiment)."""
    create_topic(gbroker.bootstrap, "topic1", 3)
    group1 = [Member(gbroker.bootstrap, "group1", "topic1")]
    group2 = [Member(gbroker.bootstrap, "group2", "topic1") for _ in range(3)]
    for m in group1 + group2:
        m.start()
    wait_for(lambda: all(len(m.owned()) == 1 for m in group2), 30, "group2 to spread over 3 partitions")
    wait_for(lambda: group1[0].owned() == {0, 1, 2}, 30, "group1 to own every partition")
    produce(gbroker.bootstrap, "topic1", [(0, b"1", b"v1"), (1, b"2", b"v2"), (2, b"3", b"v3")])
    wait_for(lambda: group1[0].keys() == {b"1", b"2", b"3"}, 20, "group1 to read all keys")
    wait_for(lambda: sum(len(m.keys()) for m in group2) == 3, 20, "group2 to read 3 keys")
    assert sorted(len(m.keys()) for m in group2) == [1, 1, 1]
    assert set().union(*(m.keys() for m in group2)) == {b"1", b"2", b"3"}
    for m in group1 + group2:
        m.stop()


def test_membership_walk_every_partition_owned_by_exactly_one_member(gbroker):
    """Consumers join one at a time up to four (the fourth idles with 3 partitions), then
    leave one at a time; after each step the group settles with every partition owned once."""
    create_topic(gbroker.bootstrap, "walk", 3)
    live: list[Member] = []

    shapes = {1: [3], 2: [1, 2], 3: [1, 1, 1], 4: [0, 1, 1, 1]}

    def settled_now() -> bool:
        owned = [m.owned() for m in live]
        flat = sorted(p for s in owned for p in s)
        if flat != [0, 1, 2] or sorted(len(o) for o in owned) != shapes[len(live)]:
            return False
        return group_members(gbroker.bootstrap, "walkers") == ("Stable", len(live))

    def settled() -> bool:
        """Settled, and still so a moment later (members update their view after the broker)."""
        if not settled_now():
            return False
        time.sleep(0.3)
        return settled_now()

    for _ in range(4):
        member = Member(gbroker.bootstrap, "walkers", "walk")
        member.start()
        live.append(member)
        wait_for(settled, 30, f"the group to settle with {len(live)} members")
    while len(live) > 1:
        live.pop(0).stop()
        wait_for(settled, 30, f"the group to settle with {len(live)} members")
    live[0].stop()
    wait_for(lambda: group_members(gbroker.bootstrap, "walkers") == ("Empty", 0), 10, "an empty group")


def test_commit_restart_resume_at_committed_offset(tmp_path):
    overrides = {"offsets.topic.num.partitions": "5"}
    running = RunningBroker(tmp_path / "logs", overrides)
    try:
        create_topic(running.bootstrap, "resume", 1)
        produce(running.bootstrap, "resume", [(0, b"k", b"%d" % i) for i in range(10)])
        consumer = group_consumer("resume", bootstrap_servers=running.bootstrap, group_id="resumers",
                                  enable_auto_commit=False)
        seen: list = []
        deadline = time.time() + 20
        while len(seen) < 10 and time.time() < deadline:
            for records in consumer.poll(timeout_ms=200).values():
                seen.extend(records)
        assert [r.offset for r in seen] == list(range(10))
        tp = TopicPartition("resume", 0)
        consumer.commit({tp: OffsetAndMetadata(7, "checkpoint", -1)})
        assert consumer.committed(tp) == 7
        consumer.close()
    finally:
        running.stop()
    running = RunningBroker(tmp_path / "logs", overrides)
    try:
        consumer = group_consumer("resume", bootstrap_servers=running.bootstrap, group_id="resumers",
                                  enable_auto_commit=False)
        seen = []
        deadline = time.time() + 20
        while len(seen) < 3 and time.time() < deadline:
            for records in consumer.poll(timeout_ms=200).values():
                seen.extend(records)
        assert [r.offset for r in seen] == [7, 8, 9]
        consumer.close()
    finally:
        running.stop()


def _subscription(topics: list[str]) -> bytes:
    """ConsumerProtocolSubscription v0: version, topics, user data (null)."""
    out = struct.pack(">hi", 0, len(topics))
    for t in topics:
        out += struct.pack(">h", len(t)) + t.encode()
    return out + struct.pack(">i", -1)


def _assigned_partitions(assignment: bytes) -> list[int]:
    """ConsumerProtocolAssignment: version, [topic, [partition]], user data."""
    pos = 2
    (n_topics,) = struct.unpack_from(">i", assignment, pos)
    pos += 4
    partitions: list[int] = []
    for _ in range(n_topics):
        (length,) = struct.unpack_from(">h", assignment, pos)
        pos += 2 + length
        (n,) = struct.unpack_from(">i", assignment, pos)
        pos += 4
        partitions.extend(struct.unpack_from(f">{n}i", assignment, pos))
        pos += 4 * n
    return partitions


def test_silent_member_is_expelled_and_its_partitions_move(gbroker):
    """A raw member joins a kafka-python consumer's group, takes partitions, then stops
    heartbeating: after session.timeout.ms it is removed and the consumer owns everything."""
    create_topic(gbroker.bootstrap, "expel", 3)
    member = Member(gbroker.bootstrap, "expelled", "expel")
    member.start()
    wait_for(lambda: member.owned() == {0, 1, 2}, 30, "the consumer to own all partitions")
    sock = connect(gbroker.bootstrap)
    cls = request_class(ApiKey.JoinGroup)

    def join(member_id: str) -> JoinGroupResponse:
        _cid, response = call(sock, ApiKey.JoinGroup, 5, member_id=member_id, group_id="expelled",
                              session_timeout_ms=1500, rebalance_timeout_ms=10_000, group_instance_id=None,
                              protocol_type="consumer", reason=None,
                              protocols=[cls.JoinGroupRequestProtocol(name=n, metadata=_subscription(["expel"]))
                                         for n in ("range", "roundrobin")])
        assert isinstance(response, JoinGroupResponse)
        return response
    first = join("")
    assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED
    sock.settimeout(20)
    joined = join(first.member_id)
    assert joined.error_code == 0 and joined.leader != joined.member_id
    _cid, synced = call(sock, ApiKey.SyncGroup, 3, group_id="expelled", generation_id=joined.generation_id,
                        member_id=joined.member_id, group_instance_id=None, assignments=[])
    assert synced.error_code == 0
    mine = _assigned_partitions(synced.assignment)
    assert mine, "the raw member got no partitions"
    wait_for(lambda: member.owned() == {0, 1, 2} - set(mine), 20, "the consumer to give partitions up")
    silent_since = time.time()
    wait_for(lambda: member.owned() == {0, 1, 2}, 20, "the partitions to move back after expulsion")
    assert time.time() - silent_since >= 1.0
    sock.sendall(encode_request(ApiKey.Heartbeat, 1, request_class(ApiKey.Heartbeat)(
        group_id="expelled", generation_id=joined.generation_id, member_id=joined.member_id)))
    frame = read_frame(sock)
    assert struct.unpack_from(">h", frame, 8)[0] == ErrorCode.UNKNOWN_MEMBER_ID
    sock.close()
    member.stop()


def test_confluent_kafka_and_kafka_python_share_a_group(gbroker):
    confluent_kafka = require_module("confluent_kafka")
    create_topic(gbroker.bootstrap, "mixed", 4)
    python_member = Member(gbroker.bootstrap, "mixed-group", "mixed")
    python_member.start()
    wait_for(lambda: python_member.owned() == {0, 1, 2, 3}, 30, "kafka-python to own all partitions")
    consumer = confluent_kafka.Consumer({
        "bootstrap.servers": gbroker.bootstrap, "group.id": "mixed-group", "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000, "heartbeat.interval.ms": 300, "partition.assignment.strategy": "range",
        "enable.auto.commit": False})
    consumer.subscribe(["mixed"])
    got: list = []

    def split() -> bool:
        msg = consumer.poll(0.1)
        if msg is not None and msg.error() is None:
            got.append(msg)
        mine = {tp.partition for tp in consumer.assignment()}
        theirs = python_member.owned()
        return len(mine) == 2 and mine | theirs == {0, 1, 2, 3} and not mine & theirs

    wait_for(split, 30, "the range assignor to split 4 partitions 2 + 2")
    mine = {tp.partition for tp in consumer.assignment()}
    produce(gbroker.bootstrap, "mixed", [(p, b"k%d" % p, b"v") for p in range(4)])
    deadline = time.time() + 20
    while len(got) < 2 and time.time() < deadline:
        msg = consumer.poll(0.2)
        if msg is not None and msg.error() is None:
            got.append(msg)
    assert sorted(m.partition() for m in got) == sorted(mine)
    wait_for(lambda: python_member.keys() == {b"k%d" % p for p in {0, 1, 2, 3} - mine}, 20,
             "kafka-python to read its partitions")
    consumer.commit(asynchronous=False)
    committed = consumer.committed([confluent_kafka.TopicPartition("mixed", p) for p in sorted(mine)], timeout=10)
    assert [c.offset for c in committed] == [1, 1]
    consumer.close()
    python_member.stop()
    # assign() without subscribe: librdkafka commits with generation -1 and an empty member id.
    simple = confluent_kafka.Consumer({"bootstrap.servers": gbroker.bootstrap, "group.id": "simple-group",
                                       "enable.auto.commit": False})
    tp = confluent_kafka.TopicPartition("mixed", 0, 1)
    simple.assign([tp])
    simple.commit(offsets=[tp], asynchronous=False)
    assert simple.committed([confluent_kafka.TopicPartition("mixed", 0)], timeout=10)[0].offset == 1
    simple.close()


def test_kafka_python_admin_describe_list_delete(gbroker):
    create_topic(gbroker.bootstrap, "adm", 1)
    member = Member(gbroker.bootstrap, "admin-group", "adm")
    member.start()
    admin = KafkaAdminClient(bootstrap_servers=gbroker.bootstrap)
    try:
        wait_for(lambda: member.owned() == {0}, 30, "the member to own the partition")
        described = admin.describe_groups(["admin-group"], include_authorized_operations=True)["admin-group"]
        assert described["group_state"] == "Stable" and described["protocol_data"] == "range"
        [described_member] = described["members"]
        assert described_member["client_host"] == "/127.0.0.1"
        assert described_member["member_metadata"]["topics"] == ["adm"]
        assert described_member["member_assignment"]["assigned_partitions"] == [{"topic": "adm", "partitions": [0]}]
        # kafka-python 3 sends DescribeGroups v6, which only Kafka 4 serves: Kafka 4's group
        # operations, with the group config ones.
        assert sorted(described["authorized_operations"]) == [
            "ALTER_CONFIGS", "DELETE", "DESCRIBE", "DESCRIBE_CONFIGS", "READ"]
        assert admin.list_groups() == [{"group_id": "admin-group", "protocol_type": "consumer",
                                        "group_state": "Stable", "group_type": "classic"}]
        member.stop()  # auto-commits position 0, then leaves
        wait_for(lambda: group_members(gbroker.bootstrap, "admin-group") == ("Empty", 0), 10, "an empty group")
        assert admin.list_group_offsets("admin-group")["admin-group"][TopicPartition("adm", 0)].offset == 0
        assert admin.delete_groups(["admin-group"]) == {"admin-group": "OK"}
        assert admin.list_groups() == []
    finally:
        member.stop()
        admin.close()
