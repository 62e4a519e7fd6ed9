"""Rolling migration between Apache Kafka 3.9 and josefk, one broker at a time, each
broker replaced by the other implementation with the same broker.id on the same log dir
(issue 12; docs/migration.md's procedure is written from these tests), a migration
rolled back half way, and a migration by reassignment onto new broker ids with Kafka's
own kafka-reassign-partitions and kafka-leader-election.

Three brokers (ids 1-3) under one real ZooKeeper, a topic of three partitions with RF 3
and min.insync.replicas=2, `__consumer_offsets` with RF 3, an idempotent acks=all
producer and a committing consumer group running throughout. Each step is a controlled
shutdown (SIGTERM by the handle) of broker N, then the other implementation started as
broker N on N's log dir and port, and a wait until N is back in every ISR (read from the
partition state znodes) and the group has made progress. At the end nothing acknowledged
is lost, the group's committed offsets never went backwards and end at the log end, the
consumer re-read only from a committed offset, and the three replicas of each partition
are byte-identical.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest
from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.kafka import KafkaBroker, kafka_classpath
from harness.mixed import Producing, wait_for
from harness.zookeeper import ZooKeeperServer
from tests.test_mixed_cluster import batches_below

pytestmark = pytest.mark.cluster

TOPIC, PARTITIONS, GROUP = "migrating", 3, "migrating-group"
BROKER_IDS = (1, 2, 3)
# Both implementations alike: a 3-way replicated offsets topic (5 partitions keeps start-up
# short), and no automatic leader moves during the test. Brokers are stopped cleanly (their
# sessions close at once), so the session timeout is Kafka's default: at 6 s a Kafka JVM starting
# on a loaded machine (load 17, a CI run) stalled past it and exited with SessionExpired.
COMMON = {"offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": "5",
          "zookeeper.session.timeout.ms": "18000", "auto.leader.rebalance.enable": "false"}


Broker = KafkaBroker | BrokerProcess


def start_kafka(work: Path, zookeeper: ZooKeeperServer, broker_id: int, port: int | None = None) -> KafkaBroker:
    return KafkaBroker(work, zookeeper.connect, broker_id=broker_id, overrides=COMMON, port=port)


def start_josefk(work: Path, zookeeper: ZooKeeperServer, broker_id: int, port: int | None = None) -> BrokerProcess:
    """josefk on `work`/logs, the log dir a KafkaBroker on `work` uses."""
    work.mkdir(parents=True, exist_ok=True)
    return BrokerProcess(work / "logs", port=port, output=work / "josefk.out", log_level="INFO", start_timeout=60,
                         overrides={"broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect, **COMMON})


def stop(broker: Broker) -> None:
    """Controlled shutdown by the handle; a clean one is part of the procedure."""
    if isinstance(broker, KafkaBroker):
        assert broker.stop(), "Kafka's controlled shutdown did not complete"
    else:
        assert broker.stop(60) == 0, "josefk did not shut down cleanly"


@dataclass
class Read:
    partition: int
    offset: int
    value: bytes
    at: float  # time.monotonic() when the consumer got it


class Consuming:
    """One member of a group in a thread, auto-committing what it read every 500 ms; every
    record it was given, in order, duplicates included."""

    def __init__(self, bootstrap: str) -> None:
        self.reads: list[Read] = []
        self.stopping = threading.Event()
        self.consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP, "auto.offset.reset": "earliest",
                                  "enable.auto.commit": True, "auto.commit.interval.ms": 500,
                                  "session.timeout.ms": 10000, "heartbeat.interval.ms": 1000})
        self.consumer.subscribe([TOPIC])
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            msg = self.consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                self.reads.append(Read(msg.partition(), msg.offset(), msg.value(),  # type: ignore[arg-type]
                                       time.monotonic()))

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)
        # close() commits and leaves the group; it has no timeout of its own, so it gets one.
        closing = threading.Thread(target=self.consumer.close, daemon=True)
        closing.start()
        closing.join(30)


@dataclass
class Commits:
    """The group's committed offsets as the brokers answer OffsetFetch, polled from a
    thread: (time, partition -> offset) for each answer."""

    bootstrap: str
    seen: list[tuple[float, dict[int, int]]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.consumer = Consumer({"bootstrap.servers": self.bootstrap, "group.id": GROUP,
                                  "enable.auto.commit": False})
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def fetch(self) -> dict[int, int] | None:
        try:
            answer = self.consumer.committed([TopicPartition(TOPIC, p) for p in range(PARTITIONS)], timeout=5)
        except Exception:  # noqa: BLE001 - the coordinator moving answers on a later try
            return None
        if any(tp.error is not None for tp in answer):
            return None
        return {tp.partition: tp.offset for tp in answer if tp.offset >= 0}

    def _run(self) -> None:
        while not self.stopping.wait(0.3):
            taken = time.monotonic()
            offsets = self.fetch()
            if offsets is not None:
                self.seen.append((taken, offsets))

    def latest(self) -> dict[int, int]:
        return self.seen[-1][1] if self.seen else {}

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)
        closing = threading.Thread(target=self.consumer.close, daemon=True)
        closing.start()
        closing.join(30)


def partition_states(zk: KazooClient) -> dict[tuple[str, int], dict]:
    """Every partition state znode of the test topic and of __consumer_offsets."""
    states = {}
    for topic in (TOPIC, "__consumer_offsets"):
        path = f"/brokers/topics/{topic}/partitions"
        for partition in zk.get_children(path) if zk.exists(path) else []:
            states[(topic, int(partition))] = json.loads(zk.get(f"{path}/{partition}/state")[0])
    return states


def progressed(consuming: Consuming, commits: Commits, reads: int, committed: int) -> bool:
    """The group read 300 records more than `reads` and committed past the sum `committed`."""
    return len(consuming.reads) > reads + 300 and sum(commits.latest().values()) > committed


def in_every_isr(zk: KazooClient, broker_id: int) -> bool:
    states = partition_states(zk)
    return len(states) == PARTITIONS + 5 and all(broker_id in s["isr"] and s["leader"] in BROKER_IDS
                                                 for s in states.values())


def end_offsets(bootstrap: str) -> dict[int, int]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "end-offsets"})
    try:
        return {p: consumer.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=10)[1] for p in range(PARTITIONS)}
    finally:
        consumer.close()


def log_bytes(log_dir: Path, partition: int) -> bytes:
    """The partition's segments, in offset order, as one byte string."""
    return b"".join(p.read_bytes() for p in sorted((log_dir / f"{TOPIC}-{partition}").glob("*.log")))


def checkpointed_high_watermarks(log_dir: Path) -> dict[int, int]:
    """The test topic's high watermarks in the log dir's replication-offset-checkpoint
    (version line, count line, then `topic partition offset` lines)."""
    lines = (log_dir / "replication-offset-checkpoint").read_text().splitlines()[2:]
    return {int(partition): int(offset) for name, partition, offset in map(str.split, lines) if name == TOPIC}


def committed_segments(log_dir: Path) -> dict[int, tuple[int, bytes]]:
    """Each partition's first segment as a broker left it on a clean shutdown: its inode
    and its batches below the checkpointed high watermark."""
    segments = {}
    for partition, high_watermark in checkpointed_high_watermarks(log_dir).items():
        path = log_dir / f"{TOPIC}-{partition}" / f"{0:020d}.log"
        segments[partition] = (path.stat().st_ino, batches_below(path, high_watermark))
    return segments


def replicas_identical(log_dirs: list[Path]) -> bool:
    for partition in range(PARTITIONS):
        first = log_bytes(log_dirs[0], partition)
        if not first or any(log_bytes(d, partition) != first for d in log_dirs[1:]):
            return False
    return True


def drain_and_check(bootstrap: str, producing: Producing, consuming: Consuming, commits: Commits) -> dict[int, int]:
    """Stop the producer, let the group read every acknowledged record and commit the end,
    stop it, and check what both drivers promise: no delivery error, and committed offsets
    that never went backwards through the move. Returns the end offsets."""
    producing.stop()
    ends = end_offsets(bootstrap)
    wanted = {(partition, offset, value) for (partition, offset), value in producing.acked.items()}
    wait_for(lambda: wanted <= {(r.partition, r.offset, r.value) for r in consuming.reads}, 60,
             "the group to read every acknowledged record")
    wait_for(lambda: commits.latest() == ends, 30, f"the group's committed offsets to reach the end {ends}")
    consuming.stop()
    commits.stop()
    assert not producing.errors, producing.errors[:3]
    for (_, before), (_, after) in zip(commits.seen, commits.seen[1:], strict=False):
        for partition, offset in before.items():
            assert after.get(partition, -1) >= offset, f"partition {partition}'s committed offset went back"
    return ends


def migrate(zookeeper: ZooKeeperServer, tmp_path: Path,
            start_old: Callable[[Path, ZooKeeperServer, int, int | None], Broker],
            steps: list[tuple[int, Callable[[Path, ZooKeeperServer, int, int | None], Broker]]]) -> None:
    """Brokers 1-3 started with `start_old`; then each step replaces its broker by a new one."""
    brokers: dict[int, Broker] = {}
    producing = consuming = commits = None
    zk = KazooClient(zookeeper.connect)
    zk.start(timeout=30)
    try:
        # Three brokers started together: start-up is mostly the JVM's (or Python's) own.
        starters = {b: threading.Thread(target=lambda b=b: brokers.__setitem__(
            b, start_old(tmp_path / f"broker-{b}", zookeeper, b, None))) for b in BROKER_IDS}
        for thread in starters.values():
            thread.start()
        for thread in starters.values():
            thread.join(120)
        assert set(brokers) == set(BROKER_IDS), "a broker did not start"
        bootstrap = ",".join(brokers[b].bootstrap for b in BROKER_IDS)  # ports are kept across replacements
        admin = AdminClient({"bootstrap.servers": bootstrap})
        wait_for(lambda: set(BROKER_IDS) <= set(admin.list_topics(timeout=10).brokers), 60, "all three brokers listed")
        for future in admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS, replication_factor=3,
                                                    config={"min.insync.replicas": "2"})]).values():
            future.result(30)
        producing = Producing(bootstrap, TOPIC, PARTITIONS)
        consuming = Consuming(bootstrap)
        wait_for(lambda: len(consuming.reads) > 300, 90, "the group to read its first records")
        commits = Commits(bootstrap)
        wait_for(lambda: len(partition_states(zk)) == PARTITIONS + 5 and all(
            b in s["isr"] for s in partition_states(zk).values() for b in BROKER_IDS), 60, "every replica in sync")

        for broker_id, start_new in steps:
            old = brokers[broker_id]
            stop(old)
            log_dir = tmp_path / f"broker-{broker_id}" / "logs"
            kept = committed_segments(log_dir)
            # A follower's checkpointed high watermark may still sit inside the first batch (it
            # learns the leader's with its next fetch), so some partition, not each, has one below it.
            assert sorted(kept) == list(range(PARTITIONS)) and any(committed for _, committed in kept.values())
            brokers[broker_id] = start_new(tmp_path / f"broker-{broker_id}", zookeeper, broker_id, old.port)
            wait_for(partial(in_every_isr, zk, broker_id), 90, f"broker {broker_id} back in every ISR")
            # The new broker took the old one's log over in place: the same segment files,
            # everything committed in them kept (not fetched again from the leaders).
            for partition, (inode, committed) in kept.items():
                path = log_dir / f"{TOPIC}-{partition}" / f"{0:020d}.log"
                assert path.stat().st_ino == inode and path.read_bytes().startswith(committed), (
                    f"broker {broker_id} rewrote {TOPIC}-{partition}")
            # The group keeps consuming and committing after each replacement.
            wait_for(partial(progressed, consuming, commits, len(consuming.reads), sum(commits.latest().values())),
                     60, f"the group to make progress after broker {broker_id} was replaced")

        ends = drain_and_check(bootstrap, producing, consuming, commits)
        # At-least-once and no more: the consumer re-read a record only after resuming from
        # a committed offset, never from before one it had seen committed.
        last: dict[int, int] = {}
        for record in consuming.reads:
            previous = last.get(record.partition)
            if previous is not None and record.offset <= previous:
                committed_before = [o.get(record.partition, 0) for t, o in commits.seen if t < record.at]
                assert record.offset >= max(committed_before, default=0), (
                    f"partition {record.partition} rewound to {record.offset}, below its committed offset")
            last[record.partition] = record.offset
        # The offsets a reader saw are the log's: each offset once, with the acknowledged value.
        by_offset = {(r.partition, r.offset): r.value for r in consuming.reads}
        assert all(by_offset[key] == value for key, value in producing.acked.items())
        assert {p: max(o for q, o in by_offset if q == p) + 1 for p in range(PARTITIONS)} == ends
        log_dirs = [tmp_path / f"broker-{b}" / "logs" for b in BROKER_IDS]
        wait_for(lambda: replicas_identical(log_dirs), 30, "each partition's three replicas to be byte-identical")
        # josefk read every file the other left as Kafka would, and no task of its died.
        for out in tmp_path.glob("broker-*/josefk.out"):
            text = out.read_text(errors="replace")
            assert "Ignoring unreadable" not in text and "Traceback" not in text, out
        rereads = len(consuming.reads) - len(by_offset)
        print(f"acknowledged {len(producing.acked)}, read {len(consuming.reads)} ({rereads} again), "
              f"{len(commits.seen)} commit polls, ends {ends}")
    finally:
        if producing is not None:
            producing.stopping.set()
            producing.thread.join(30)
        for client in (consuming, commits):  # their closes are bounded
            if client is not None and client.thread.is_alive():
                client.stop()
        for broker in brokers.values():
            broker.kill()
        zk.stop()
        zk.close()


def test_rolling_migration_from_kafka_to_josefk_by_broker_id_on_the_same_log_dir(zookeeper: ZooKeeperServer,
                                                                                  tmp_path: Path):
    migrate(zookeeper, tmp_path, start_kafka, [(b, start_josefk) for b in BROKER_IDS])


def test_rolling_migration_from_josefk_to_kafka_by_broker_id_on_the_same_log_dir(zookeeper: ZooKeeperServer,
                                                                                  tmp_path: Path):
    migrate(zookeeper, tmp_path, start_josefk, [(b, start_kafka) for b in BROKER_IDS])


def test_a_migration_to_josefk_rolled_back_half_way(zookeeper: ZooKeeperServer, tmp_path: Path):
    """Brokers 1 and 2 become josefk, then go back to Kafka in reverse order, each on the
    log dir josefk wrote: the rollback is the same step in the other direction."""
    migrate(zookeeper, tmp_path, start_kafka, [(1, start_josefk), (2, start_josefk), (2, start_kafka),
                                               (1, start_kafka)])


NEW_IDS = (4, 5, 6)
# What kafka-reassign-partitions.sh and kafka-leader-election.sh run in 3.9 (kafka-tools).
REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"
LEADER_ELECTION = "org.apache.kafka.tools.LeaderElectionCommand"
TOPICS = "org.apache.kafka.tools.TopicCommand"


def kafka_tool(main_class: str, *args: str) -> subprocess.CompletedProcess[str]:
    """One of Kafka's own admin tools: the class kafka-reassign-partitions.sh (or kafka-leader-election.sh,
    kafka-topics.sh) runs; in 3.9 they live in kafka-tools, no longer kafka.admin."""
    return subprocess.run(["java", "-Xmx256m", "-cp", kafka_classpath(), main_class, *args],
                          capture_output=True, text=True, timeout=120)


def described(output: str) -> tuple[dict[str, str], dict[int, dict[str, str]]]:
    """kafka-topics --describe's output for one topic: its header fields and, by partition,
    each partition line's fields (tab-separated `Name: value` pairs)."""
    header: dict[str, str] = {}
    partitions: dict[int, dict[str, str]] = {}
    for line in output.splitlines():
        fields = dict(f.split(": ", 1) for f in line.strip().split("\t") if ": " in f)
        if "Partition" in fields:
            partitions[int(fields["Partition"])] = fields
        elif "PartitionCount" in fields:
            header = fields
    return header, partitions


def check_kafka_topics(zk: KazooClient, josefk_bootstrap: str) -> None:
    """Kafka's kafka-topics against the mixed cluster through a josefk broker: --create
    with replicas on both implementations, --describe of it and of the test topic
    agreeing with the partition state znodes, and --list naming every topic."""
    created = kafka_tool(TOPICS, "--bootstrap-server", josefk_bootstrap, "--create", "--topic", "made-by-kafka-topics",
                         "--replica-assignment", "1:4,5:2", "--config", "min.insync.replicas=2")
    assert created.returncode == 0 and "Created topic made-by-kafka-topics." in created.stdout, (
        created.stdout + created.stderr)
    for topic, replicas in ((TOPIC, None), ("made-by-kafka-topics", {0: [1, 4], 1: [5, 2]})):
        def agrees(topic: str = topic, replicas: dict[int, list[int]] | None = replicas) -> bool:
            result = kafka_tool(TOPICS, "--bootstrap-server", josefk_bootstrap, "--describe", "--topic", topic)
            assert result.returncode == 0, result.stdout + result.stderr
            header, partitions = described(result.stdout)
            count = len(replicas) if replicas else PARTITIONS
            assert header["Topic"] == topic and header["PartitionCount"] == str(count), result.stdout
            assert "min.insync.replicas=2" in header["Configs"], result.stdout
            for partition, fields in partitions.items():
                state = json.loads(zk.get(f"/brokers/topics/{topic}/partitions/{partition}/state")[0])
                assignment = json.loads(zk.get(f"/brokers/topics/{topic}")[0])["partitions"][str(partition)]
                assert replicas is None or assignment == replicas[partition], assignment
                if (fields["Leader"], fields["Replicas"], fields["Isr"]) != (
                        str(state["leader"]), ",".join(map(str, assignment)), ",".join(map(str, state["isr"]))):
                    return False  # a leader or ISR change under way: ask again
            return sorted(partitions) == list(range(count))

        wait_for(agrees, 60, f"kafka-topics --describe {topic} to agree with ZooKeeper")
    listed = kafka_tool(TOPICS, "--bootstrap-server", josefk_bootstrap, "--list")
    assert listed.returncode == 0 and set(listed.stdout.split()) == {
        TOPIC, "made-by-kafka-topics", "__consumer_offsets"}, listed.stdout + listed.stderr


def reassign(zookeeper: ZooKeeperServer, tmp_path: Path,
             start_old: Callable[[Path, ZooKeeperServer, int], Broker],
             start_new: Callable[[Path, ZooKeeperServer, int], Broker]) -> None:
    """Brokers 1-3 started with `start_old` hand every partition, `__consumer_offsets`
    included, to brokers 4-6 started with `start_new`, through Kafka's
    kafka-reassign-partitions and kafka-leader-election, then stop. The old brokers'
    controller (1-3 start first) carries the reassignment and the election out; one of
    4-6 takes over when the last old broker stops."""
    brokers: dict[int, Broker] = {}
    producing = consuming = commits = None
    zk = KazooClient(zookeeper.connect)
    zk.start(timeout=30)
    try:
        starters = [threading.Thread(target=lambda b=b: brokers.__setitem__(
            b, start_old(tmp_path / f"broker-{b}", zookeeper, b))) for b in BROKER_IDS]
        for thread in starters:
            thread.start()
        for thread in starters:
            thread.join(120)
        assert set(brokers) == set(BROKER_IDS), "an old broker did not start"
        old_bootstrap = ",".join(brokers[b].bootstrap for b in BROKER_IDS)
        admin = AdminClient({"bootstrap.servers": old_bootstrap})
        wait_for(lambda: set(BROKER_IDS) <= set(admin.list_topics(timeout=10).brokers), 60, "all old brokers listed")
        for future in admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS, replication_factor=3,
                                                    config={"min.insync.replicas": "2"})]).values():
            future.result(30)
        producing = Producing(old_bootstrap, TOPIC, PARTITIONS)
        consuming = Consuming(old_bootstrap)
        wait_for(lambda: len(consuming.reads) > 300, 90, "the group to read its first records")
        commits = Commits(old_bootstrap)
        wait_for(lambda: len(partition_states(zk)) == PARTITIONS + 5, 60, "__consumer_offsets created")
        controller = json.loads(zk.get("/controller")[0])["brokerid"]
        assert controller in BROKER_IDS, "the old brokers' controller is expected to carry the reassignment out"

        starters = [threading.Thread(target=lambda b=b: brokers.__setitem__(
            b, start_new(tmp_path / f"broker-{b}", zookeeper, b))) for b in NEW_IDS]
        for thread in starters:
            thread.start()
        for thread in starters:
            thread.join(120)
        assert set(brokers) == set(BROKER_IDS) | set(NEW_IDS), "a new broker did not start"
        bootstrap = ",".join(brokers[b].bootstrap for b in BROKER_IDS + NEW_IDS)
        wait_for(lambda: set(NEW_IDS) <= set(admin.list_topics(timeout=10).brokers), 60, "new brokers listed")

        check_kafka_topics(zk, next(b.bootstrap for b in brokers.values() if isinstance(b, BrokerProcess)))

        # Every partition onto 4-6, the preferred leaders rotated so leadership ends balanced.
        moves = [(topic, partition, [NEW_IDS[(partition + i) % 3] for i in range(3)])
                 for topic, partition in sorted(partition_states(zk))]
        plan = {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for t, p, r in moves]}
        plan_file = tmp_path / "reassignment.json"
        plan_file.write_text(json.dumps(plan))
        reassign = ["--bootstrap-server", bootstrap, "--reassignment-json-file", str(plan_file)]
        started = kafka_tool(REASSIGN, *reassign, "--execute")
        assert started.returncode == 0 and "Successfully started partition reassignment" in started.stdout, (
            started.stdout + started.stderr)

        def verified() -> bool:
            result = kafka_tool(REASSIGN, *reassign, "--verify")
            done = result.stdout.count("is completed.")
            return result.returncode == 0 and done == len(moves)

        wait_for(verified, 90, "kafka-reassign-partitions --verify to report every reassignment completed")
        states = partition_states(zk)
        assert all(set(s["isr"]) == set(NEW_IDS) and s["leader"] in NEW_IDS for s in states.values()), states

        elected = kafka_tool(LEADER_ELECTION, "--bootstrap-server", bootstrap, "--election-type", "preferred",
                             "--all-topic-partitions")
        assert elected.returncode == 0 and "Error" not in elected.stdout + elected.stderr, (
            elected.stdout + elected.stderr)
        print(elected.stdout)
        wanted_leaders = {(t, p): r[0] for t, p, r in moves}
        wait_for(lambda: {k: s["leader"] for k, s in partition_states(zk).items()} == wanted_leaders, 30,
                 "every partition led by its preferred replica")

        for broker_id in BROKER_IDS:
            stop(brokers[broker_id])
        controller = json.loads(wait_for(lambda: zk.exists("/controller") and zk.get("/controller")[0], 30,
                                         "a controller after the old brokers stopped"))["brokerid"]
        assert controller in NEW_IDS

        count, total = len(consuming.reads), sum(commits.latest().values())
        wait_for(lambda: len(consuming.reads) > count + 300 and sum(commits.latest().values()) > total, 60,
                 "the group to make progress on the new brokers alone")
        ends = drain_and_check(",".join(brokers[b].bootstrap for b in NEW_IDS), producing, consuming, commits)
        by_offset = {(r.partition, r.offset): r.value for r in consuming.reads}
        assert all(by_offset[key] == value for key, value in producing.acked.items())
        log_dirs = [tmp_path / f"broker-{b}" / "logs" for b in NEW_IDS]
        wait_for(lambda: replicas_identical(log_dirs), 30, "each partition's replicas on 4-6 to be byte-identical")
        for out in tmp_path.glob("broker-*/josefk.out"):
            text = out.read_text(errors="replace")
            assert "Ignoring unreadable" not in text and "Traceback" not in text, out
        print(f"acknowledged {len(producing.acked)}, read {len(consuming.reads)}, ends {ends}")
    finally:
        if producing is not None:
            producing.stopping.set()
            producing.thread.join(30)
        for client in (consuming, commits):
            if client is not None and client.thread.is_alive():
                client.stop()
        for broker in brokers.values():
            broker.kill()
        zk.stop()
        zk.close()


def test_migration_by_reassignment_from_kafka_onto_josefk_broker_ids(zookeeper: ZooKeeperServer, tmp_path: Path):
    """Kafka's controller moves the partitions onto josefk."""
    reassign(zookeeper, tmp_path, start_kafka, start_josefk)


def test_migration_by_reassignment_from_josefk_onto_kafka_broker_ids(zookeeper: ZooKeeperServer, tmp_path: Path):
    """josefk's controller moves the partitions onto Kafka (the way back, or Kafka's tools
    driving a josefk cluster)."""
    reassign(zookeeper, tmp_path, start_josefk, start_kafka)
