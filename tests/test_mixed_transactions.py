"""Transactions across Apache Kafka 3.9 and josefk brokers under one real ZooKeeper
(issue 12): the transaction coordinator on one implementation, the partition leaders on
both, in both directions, with a real transactional client (librdkafka).

Brokers 1 and 2 are Kafka, 3 and 4 josefk. `__transaction_state` is created by the test
with two partitions: partition 0 on [3, 1] (a josefk coordinator, a Kafka follower),
partition 1 on [1, 4] (a Kafka coordinator, a josefk follower); each transactional id is
picked so that Kafka's abs(hashCode) % 2 lands on the partition wanted. Every data topic
has partition 0 on [2, 4] (Kafka leads) and partition 1 on [4, 2] (josefk leads), so each
partition's log exists on both implementations and every marker is written by one and
replicated to the other. `__consumer_offsets` is laid out as the data topics, and each
direction's group is one the other implementation coordinates.

Each direction commits a transaction, aborts one, commits a third, each with records and
a transactional offset commit; read_committed sees
exactly the committed records and read_uncommitted all of them; each leader's last stable
offset holds at an open transaction and reaches the high watermark when it ends; Kafka's
DumpLogSegments finds the same batches, markers and aborted-transaction index on the
Kafka and the josefk replica of each partition. Then the coordinator is killed -9 with a
transaction open, and the other implementation, now leading the `__transaction_state`
partition, aborts it when it times out: read_committed readers are not held back.
Leaders of both kinds verify transactional produce against josefk's coordinator (KIP-890,
AddPartitionsToTxn verify_only): one test produces outside any transaction and is refused.
Last, the killed josefk broker comes back configured with other partition counts than
the coordinator topics have, and must still name the same coordinators as Kafka.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from harness.kafka import dump_log_segments
from harness.mixed import MixedCluster, wait_for
from harness.wire import call, connect
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class
from josefk.coordinator.offsets_store import partition_for
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch

pytestmark = pytest.mark.cluster

KAFKA_IDS, JOSEFK_IDS = {1, 2}, {3, 4}
TXN_STATE, OFFSETS = "__transaction_state", "__consumer_offsets"
# Partition p of __transaction_state: its replicas, leader first.
TXN_STATE_ASSIGNMENT = [[3, 1], [1, 4]]
DATA_ASSIGNMENT = [[2, 4], [4, 2]]
PER_PARTITION = 3  # records each transaction writes to each partition
TXN_TIMEOUT_MS = 30_000  # long enough never to expire while a loaded machine runs the test
ORPHAN_TIMEOUT_MS = 3000  # the transaction left open when its coordinator is killed
COMMON = {"zookeeper.session.timeout.ms": "6000", "auto.leader.rebalance.enable": "false",
          "offsets.topic.replication.factor": "2", "offsets.topic.num.partitions": "2",
          "transaction.state.log.num.partitions": str(len(TXN_STATE_ASSIGNMENT)),
          "transaction.state.log.replication.factor": "2", "transaction.state.log.min.isr": "1",
          "transaction.abort.timed.out.transaction.cleanup.interval.ms": "1000"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MixedCluster]:
    """One cluster for the module (starting it is most of the time): the tests run on it in
    order, each killing or restarting brokers the ones after it do not need."""
    zookeeper = ZooKeeperServer()
    work = tmp_path_factory.mktemp("txn-mixed")
    mixed = MixedCluster(zookeeper, work, KAFKA_IDS, COMMON)
    try:
        mixed.start_all(sorted(KAFKA_IDS | JOSEFK_IDS))
        wait_for(mixed.controller_known_everywhere, 60, "every broker to know the controller")
        compacted = {"cleanup.policy": "compact", "min.insync.replicas": "1"}
        create(mixed, TXN_STATE, TXN_STATE_ASSIGNMENT, compacted)
        create(mixed, OFFSETS, DATA_ASSIGNMENT, compacted)  # group coordinators: Kafka 2 and josefk 4
        yield mixed
    finally:
        mixed.close()
        zookeeper.stop()


def create(cluster: MixedCluster, topic: str, assignment: list[list[int]], config: dict[str, str]) -> None:
    """CreateTopics with explicit replicas; waits until every broker answers the leaders."""
    admin = AdminClient({"bootstrap.servers": cluster.bootstraps()})
    admin.create_topics([NewTopic(topic, num_partitions=len(assignment), replica_assignment=assignment,
                                                config=config)])[topic].result(timeout=60)
    wanted = {p: (replicas[0], sorted(replicas)) for p, replicas in enumerate(assignment)}
    wait_for(lambda: all(cluster.metadata(b, topic) == (cluster.controller()[0], wanted)  # type: ignore[index]
                         for b in running(cluster)), 60, f"every broker to know {topic}'s leaders")


def running(cluster: MixedCluster) -> list[int]:
    """The brokers not killed by an earlier step."""
    return [b for b, broker in sorted(cluster.brokers.items()) if broker.proc.poll() is None]


def coordinator_key(prefix: str, partition: int) -> str:
    """The first `prefix-N` whose __transaction_state or __consumer_offsets partition
    (Kafka's abs(hashCode) % 2) is the one wanted."""
    return next(f"{prefix}-{n}" for n in range(1000) if partition_for(f"{prefix}-{n}", 2) == partition)


def coordinator(cluster: MixedCluster, broker_id: int, txn_id: str) -> int:
    """FindCoordinator (v3, key type 1) as `broker_id` answers it; -1 on an error."""
    with connect(cluster.brokers[broker_id].bootstrap) as sock:
        _cid, answer = call(sock, ApiKey.FindCoordinator, 3, key=txn_id, key_type=1)
    return int(answer.node_id) if answer.error_code == 0 else -1


def offsets(cluster: MixedCluster, topic: str, partition: int) -> tuple[int, int]:
    """(last stable offset, high watermark) that the partition's leader answers ListOffsets
    (v5, latest) with, under read_committed and read_uncommitted."""
    leader = DATA_ASSIGNMENT[partition][0]
    cls = request_class(ApiKey.ListOffsets)
    ends = []
    with connect(cluster.brokers[leader].bootstrap) as sock:
        for isolation in (1, 0):
            wanted = cls.ListOffsetsTopic(name=topic, partitions=[
                cls.ListOffsetsTopic.ListOffsetsPartition(partition_index=partition, current_leader_epoch=-1,
                                                          timestamp=-1)])
            _cid, answer = call(sock, ApiKey.ListOffsets, 5, replica_id=-1, isolation_level=isolation,
                                topics=[wanted])
            found = answer.topics[0].partitions[0]
            assert found.error_code == 0, (cluster.kind(leader), found)
            ends.append(int(found.offset))
    return ends[0], ends[1]


def settled(cluster: MixedCluster, topic: str, end: int, what: str) -> None:
    """Wait until both leaders answer `end` as last stable offset and high watermark."""
    wait_for(lambda: all(offsets(cluster, topic, p) == (end, end) for p in range(2)), 60, f"{topic}: {what}")


def new_producer(cluster: MixedCluster, txn_id: str, timeout_ms: int = TXN_TIMEOUT_MS) -> Producer:
    producer = Producer({"bootstrap.servers": cluster.bootstraps(), "transactional.id": txn_id, "linger.ms": 5,
                         "transaction.timeout.ms": timeout_ms, "message.timeout.ms": timeout_ms})
    producer.init_transactions(60)
    return producer


def write(producer: Producer, topic: str, label: str) -> list[bytes]:
    """PER_PARTITION records to each partition, flushed (so written at the leaders)."""
    values = [f"{label}-p{p}-{i}".encode() for p in range(len(DATA_ASSIGNMENT)) for i in range(PER_PARTITION)]
    for value in values:
        producer.produce(topic, value, partition=int(value.split(b"-p")[1][:1]))
    assert producer.flush(30) == 0
    return values


def read(cluster: MixedCluster, topic: str, isolation: str) -> list[bytes]:
    """Everything an assigned consumer at `isolation` reads from the start up to the end
    each leader answers for it (last stable offset or high watermark)."""
    ends = {p: offsets(cluster, topic, p)[0 if isolation == "read_committed" else 1] for p in range(2)}
    consumer = Consumer({"bootstrap.servers": cluster.bootstraps(), "group.id": "unused",
                         "enable.auto.commit": False, "isolation.level": isolation})
    try:
        consumer.assign([TopicPartition(topic, p, 0) for p in ends])
        values: list[bytes] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                values.append(msg.value())  # type: ignore[arg-type]
            positions = consumer.position([TopicPartition(topic, p) for p in ends])
            if all(tp.offset >= ends[tp.partition] for tp in positions) and msg is None:
                return sorted(values)
        raise AssertionError(f"{isolation} reader did not reach {ends}: {positions}")
    finally:
        consumer.close()


@dataclass
class Replica:
    """One replica's log as DumpLogSegments prints it: its batches (without file
    positions), its end-transaction markers and its aborted-transaction index."""

    batches: list[str]
    markers: list[tuple[int, str, int]]  # (offset, COMMIT/ABORT, coordinator epoch)
    aborted: list[str]


def dump(cluster: MixedCluster, topic: str) -> dict[tuple[int, str], Replica]:
    """Each replica of each partition of `topic`, by (partition, implementation), read by
    one run of Kafka's tool."""
    files = {}
    for p, replicas in enumerate(DATA_ASSIGNMENT):
        for broker_id in replicas:
            for path in sorted((cluster.log_dir(broker_id) / f"{topic}-{p}").iterdir()):
                if path.suffix in (".log", ".txnindex"):
                    files[str(path)] = (p, cluster.kind(broker_id))
    sections = re.split(r"^Dumping (\S+)$", dump_log_segments([Path(f) for f in files]), flags=re.MULTILINE)
    found: dict[tuple[int, str], Replica] = {key: Replica([], [], []) for key in files.values()}
    for name, text in zip(sections[1::2], sections[2::2], strict=True):
        replica = found[files[name]]
        replica.batches += [re.sub(r" position: \d+", "", line) for line in text.splitlines()
                            if line.startswith("baseOffset:")]
        replica.markers += [(int(o), kind, int(e)) for o, kind, e in
                            re.findall(r"offset: (\d+) .*?endTxnMarker: (\w+) coordinatorEpoch: (\d+)", text)]
        replica.aborted += [line for line in text.splitlines()
                            if line.startswith("version:") and "firstOffset:" in line]
    return found


def committed_offset(cluster: MixedCluster, group: str, topic: str) -> int:
    """The offset `group` has committed for `topic`-0, stable ones only (OffsetFetch with
    require_stable, as a read_committed consumer asks)."""
    consumer = Consumer({"bootstrap.servers": cluster.bootstraps(), "group.id": group,
                         "isolation.level": "read_committed"})
    try:
        return int(consumer.committed([TopicPartition(topic, 0)], timeout=30)[0].offset)
    finally:
        consumer.close()


def commit_abort_commit(cluster: MixedCluster, topic: str, txn_id: str, coordinator_id: int, group: str) -> None:
    """Three transactions over both partitions through the coordinator `coordinator_id`,
    each also committing an offset for `group` (whose coordinator is the other
    implementation): what readers at each isolation level see, the leaders' offsets while
    one is open and after, the group's committed offset, and both implementations' copies
    of each log."""
    create(cluster, topic, DATA_ASSIGNMENT, {})
    assert {coordinator(cluster, b, txn_id) for b in running(cluster)} == {coordinator_id}
    group_coordinator = DATA_ASSIGNMENT[partition_for(group, 2)][0]
    assert cluster.kind(group_coordinator) != cluster.kind(coordinator_id)
    member = Consumer({"bootstrap.servers": cluster.bootstraps(), "group.id": group})
    producer = new_producer(cluster, txn_id)
    committed: list[bytes] = []
    everything: list[bytes] = []
    for n, outcome in enumerate(("commit", "abort", "commit")):
        producer.begin_transaction()
        values = write(producer, topic, f"{outcome}{n}")
        producer.send_offsets_to_transaction([TopicPartition(topic, 0, 100 + n)], member.consumer_group_metadata(), 30)
        start = n * (PER_PARTITION + 1)  # each transaction before: its records and a marker
        for p in range(2):  # both leaders hold read_committed at the open transaction
            assert offsets(cluster, topic, p) == (start, start + PER_PARTITION), (n, p)
        if outcome == "commit":
            producer.commit_transaction(30)
            committed += values
        else:
            producer.abort_transaction(30)
        everything += values
        # the markers are written: the last stable offsets are the high watermarks
        settled(cluster, topic, start + PER_PARTITION + 1, f"the markers of transaction {n}")
        assert committed_offset(cluster, group, topic) == (100 if n < 2 else 102), n  # the aborted 101 never shows
    assert read(cluster, topic, "read_committed") == sorted(committed)
    assert read(cluster, topic, "read_uncommitted") == sorted(everything)
    producer.flush(10)
    member.close()

    epoch = cluster.partition_state(TXN_STATE, partition_for(txn_id, 2))[0]["leader_epoch"]
    replicas = dump(cluster, topic)
    for p in range(2):
        kafka, josefk = replicas[p, "kafka"], replicas[p, "josefk"]
        assert kafka.batches and kafka.batches == josefk.batches, p
        assert kafka.markers == josefk.markers == [(3, "COMMIT", epoch), (7, "ABORT", epoch), (11, "COMMIT", epoch)]
        assert kafka.aborted == josefk.aborted and len(kafka.aborted) == 1, (kafka.aborted, josefk.aborted)
        assert "firstOffset: 4 lastOffset: 7" in kafka.aborted[0]


def killed_coordinator_aborts(cluster: MixedCluster, topic: str, txn_id: str, killed: int, successor: int) -> None:
    """A transaction left open on both partitions when its coordinator is killed -9 is
    aborted by the coordinator that takes over (the other implementation, from the
    `__transaction_state` records the first one wrote) once it times out, with a bumped
    epoch that fences its producer; a new producer for the id then commits through it."""
    producer = new_producer(cluster, txn_id, ORPHAN_TIMEOUT_MS)
    producer.begin_transaction()
    write(producer, topic, "orphan")
    start = 3 * (PER_PARTITION + 1)
    for p in range(2):
        assert offsets(cluster, topic, p) == (start, start + PER_PARTITION)
    cluster.kill(killed)
    wait_for(lambda: all(coordinator(cluster, b, txn_id) == successor for b in running(cluster)), 60,
             f"broker {successor} to become the coordinator")
    end = start + PER_PARTITION + 1
    settled(cluster, topic, end, "the new coordinator's abort markers")
    committed = read(cluster, topic, "read_committed")
    assert len(committed) == 2 * 2 * PER_PARTITION and not any(v.startswith(b"orphan") for v in committed)
    with pytest.raises(KafkaException):
        producer.commit_transaction(30)

    successor_producer = new_producer(cluster, txn_id)
    successor_producer.begin_transaction()
    after = write(successor_producer, topic, "after")
    successor_producer.commit_transaction(30)
    settled(cluster, topic, end + PER_PARTITION + 1, "the new coordinator's commit markers")
    assert read(cluster, topic, "read_committed") == sorted(committed + after)
    epoch = cluster.partition_state(TXN_STATE, partition_for(txn_id, 2))[0]["leader_epoch"]
    replicas = dump(cluster, topic)
    for p in range(2):
        kafka, josefk = replicas[p, "kafka"], replicas[p, "josefk"]
        assert kafka.batches == josefk.batches and kafka.aborted == josefk.aborted, p
        assert kafka.markers[-2:] == [(end - 1, "ABORT", epoch), (end + PER_PARTITION, "COMMIT", epoch)], kafka.markers
        assert len(kafka.aborted) == 2


def produce_transactional(cluster: MixedCluster, txn_id: str, topic: str, partition: int,
                          producer: tuple[int, int]) -> int:
    """The producer's first transactional record to `topic`-`partition` at its leader
    (Produce v9); the partition's error code."""
    batch = build_batch([Record(0, int(time.time() * 1000), None, b"raw")], producer_id=producer[0],
                        producer_epoch=producer[1], base_sequence=0, is_transactional=True)
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=partition, records=batch)])
    with connect(cluster.brokers[DATA_ASSIGNMENT[partition][0]].bootstrap) as sock:
        _cid, answer = call(sock, ApiKey.Produce, 9, transactional_id=txn_id, acks=-1, timeout_ms=10_000,
                            topic_data=[data])
    return int(answer.responses[0].partition_responses[0].error_code)


def test_leaders_verify_with_the_coordinator(cluster: MixedCluster) -> None:
    """Kafka's leader and josefk's ask josefk's coordinator (AddPartitionsToTxn
    verify_only, KIP-890) before they append a producer's first transactional batch:
    refused while the partition is not in the producer's transaction, taken once the
    producer has added it."""
    topic, txn_id = "txn-verify", coordinator_key("verify", 0)
    create(cluster, topic, DATA_ASSIGNMENT, {})
    assert coordinator(cluster, 2, txn_id) == 3
    with connect(cluster.brokers[3].bootstrap) as sock:
        def init() -> tuple[int, int] | None:
            _cid, answer = call(sock, ApiKey.InitProducerId, 3, transactional_id=txn_id,
                                transaction_timeout_ms=TXN_TIMEOUT_MS, producer_id=-1, producer_epoch=-1)
            return (answer.producer_id, answer.producer_epoch) if answer.error_code == 0 else None
        producer = wait_for(init, 30, "InitProducerId from josefk's coordinator")
        add_topic = request_class(ApiKey.AddPartitionsToTxn).AddPartitionsToTxnTopic
        for p in range(2):
            assert produce_transactional(cluster, txn_id, topic, p, producer) == ErrorCode.INVALID_TXN_STATE, p
        _cid, answer = call(sock, ApiKey.AddPartitionsToTxn, 3, v3_and_below_transactional_id=txn_id,
                            v3_and_below_producer_id=producer[0], v3_and_below_producer_epoch=producer[1],
                            v3_and_below_topics=[add_topic(name=topic, partitions=[0, 1])])
        assert {r.partition_error_code for r in answer.results_by_topic_v3_and_below[0].results_by_partition} == {0}
    for p in range(2):
        assert produce_transactional(cluster, txn_id, topic, p, producer) == 0, p
        assert offsets(cluster, topic, p) == (0, 1)  # the open transaction holds the last stable offset


def test_coordinator_on_josefk_leaders_on_both(cluster: MixedCluster) -> None:
    txn_id = coordinator_key("to-josefk", 0)
    commit_abort_commit(cluster, "txn-josefk-coordinator", txn_id, coordinator_id=3,
                        group=coordinator_key("kafka-group", 0))
    killed_coordinator_aborts(cluster, "txn-josefk-coordinator", txn_id, killed=3, successor=1)


def test_coordinator_on_kafka_leaders_on_both(cluster: MixedCluster) -> None:
    txn_id = coordinator_key("to-kafka", 1)
    commit_abort_commit(cluster, "txn-kafka-coordinator", txn_id, coordinator_id=1,
                        group=coordinator_key("josefk-group", 1))
    killed_coordinator_aborts(cluster, "txn-kafka-coordinator", txn_id, killed=1, successor=4)


def test_restarted_josefk_finds_coordinators_by_the_topics_partition_counts(cluster: MixedCluster) -> None:
    """The josefk coordinator killed above comes back configured with Kafka's default 50
    partitions for both coordinator topics, which exist with 2: as Kafka's coordinators do,
    it maps ids and groups by the topics' partition counts, so its FindCoordinator answers
    agree with the Kafka brokers' (by its config it would name partitions that do not exist)."""
    cluster.kill(3)  # already, when the tests before ran
    cluster.common = {**COMMON, "transaction.state.log.num.partitions": "50", "offsets.topic.num.partitions": "50"}
    cluster.restart(3)
    # A transactional id of __transaction_state's partition 1: partition 0 may be offline
    # (after the kills above, replica 3 is out of its ISR and replica 1 is gone).
    keys, groups = [coordinator_key("to-kafka", 1)], [coordinator_key("kafka-group", 0),
                                                      coordinator_key("josefk-group", 1)]
    assert all(partition_for(k, 50) >= 2 for k in keys + groups)
    leaders = [cluster.partition_state(TXN_STATE, 1)[0]["leader"]] + [
        cluster.partition_state(OFFSETS, p)[0]["leader"] for p in (0, 1)]

    def answers(broker_id: int) -> list[int]:
        found = [coordinator(cluster, broker_id, k) for k in keys]
        with connect(cluster.brokers[broker_id].bootstrap) as sock:
            for group in groups:
                _cid, answer = call(sock, ApiKey.FindCoordinator, 3, key=group, key_type=0)
                found.append(int(answer.node_id) if answer.error_code == 0 else -1)
        return found

    assert answers(2) == leaders
    wait_for(lambda: answers(3) == leaders, 60, "josefk's FindCoordinator answers to agree with Kafka's")
