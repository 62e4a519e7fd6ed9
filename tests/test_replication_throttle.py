"""Replication throttling between real josefk brokers under a real ZooKeeper (Kafka's
ReplicationQuotasTest): a replica added by `josefk reassign-partitions` to a partition of
5 MiB catches up no faster than the throttle allows when its topic lists it, leader side,
follower side or both; a partition that is not listed replicates unthrottled in the same
fetches; a throttle removed while a replica is behind lets it catch up; a broker restarted
applies the throttles stored before it started. With a Kafka
3.9 broker beside them, each side of the throttle holds back the other implementation:
josefk's leader a Kafka follower, Kafka's follower itself against a josefk leader, and the
other way round.

Only lower bounds on time are asserted (the machine may be loaded): bytes can outrun the
rate by at most one fetch (replica.fetch.max.bytes), which the first fetch takes before any
quota is exceeded. The achieved rates are printed (pytest -s) for the docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import AlterConfigOp, ConfigResource, ConfigResourceType, NewTopic
from kazoo.client import KazooClient

from harness.admin import wait_for_brokers
from harness.josefk import BrokerProcess
from harness.kafka import KafkaBroker
from harness.zookeeper import ZooKeeperServer
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.cluster

DATA = 5 * 1024 * 1024  # bytes of records per partition
RECORD = 100 * 1024
FETCH_MAX = 1024 * 1024  # replica.fetch.max.bytes, the most one fetch can take past the quota
RATE = 1_000_000  # bytes/s
KAFKA_LIB = Path(__file__).resolve().parents[1] / "compat" / ".envs" / "kafka" / "lib"


class Brokers:
    """Brokers 1 (the leaders) and 2 (the replicas being added), their logs at INFO in files."""

    def __init__(self, zk: ZooKeeperServer, root: Path, with_kafka: bool = False) -> None:
        """`with_kafka`: broker 3 is Kafka 3.9."""
        self.root = root
        self.zk = zk
        self.brokers: dict[int, BrokerProcess | KafkaBroker] = {b: self._josefk(b) for b in (1, 2)}
        if with_kafka:
            self.brokers[3] = KafkaBroker(root / "kafka-3", zk.connect, 3)
        self.bootstrap = ",".join(b.bootstrap for b in self.brokers.values())
        self.admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=30000)
        self.kazoo = KazooClient(hosts=zk.connect)
        self.kazoo.start(timeout=10)
        wait_for_brokers(self.admin, self.brokers)

    def _josefk(self, broker: int, port: int | None = None) -> BrokerProcess:
        overrides = {"broker.id": str(broker), "zookeeper.connect": self.zk.connect,
                     "offsets.topic.replication.factor": "1"}
        return BrokerProcess(self.root / f"broker-{broker}", port=port, output=self.root / f"broker-{broker}.out",
                             log_level="INFO", overrides=overrides, start_timeout=60)  # 30 s: too few at load 28

    def restart(self, broker: int) -> int:
        """Stop a josefk broker and start it again on its port; where its new run's output starts."""
        self.brokers[broker].stop()
        start = len(self.output(broker))
        self.brokers[broker] = self._josefk(broker, self.brokers[broker].port)
        return start

    def output(self, broker: int) -> str:
        kafka = self.root / "kafka-3" / "server.log"
        return (kafka if broker == 3 else self.root / f"broker-{broker}.out").read_text(errors="replace")

    def applied(self, broker: int, entity: str, josefk_line: str) -> bool:
        """Whether the broker applied a config change: josefk's line, or Kafka's DynamicConfigManager's."""
        if broker == 3:
            return f"Processing override for entityPath: {entity} with config" in self.output(3)
        return josefk_line in self.output(broker)

    def wait_for(self, condition, what: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.05)

    def isr(self, topic: str) -> list[int]:
        data, _ = self.kazoo.get(f"/brokers/topics/{topic}/partitions/0/state")
        return json.loads(data)["isr"]

    def replica_bytes(self, broker: int, topic: str) -> int:
        return sum(f.stat().st_size for f in (self.root / f"broker-{broker}" / f"{topic}-0").glob("*.log"))

    def create_with_data(self, *topics: str, leader: int = 1) -> None:
        self.admin.create_topics([NewTopic(t, replica_assignments={0: [leader]}) for t in topics])
        self.wait_for(lambda: all(self._has_state(t) for t in topics), "the topics' partition states")
        producer = KafkaProducer(bootstrap_servers=self.bootstrap, acks=1, max_request_size=2 * RECORD,
                                 linger_ms=5)
        for topic in topics:
            for _ in range(DATA // RECORD):
                producer.send(topic, os.urandom(RECORD))
        producer.flush(timeout=120)
        producer.close()

    def _has_state(self, topic: str) -> bool:
        return self.kazoo.exists(f"/brokers/topics/{topic}/partitions/0/state") is not None

    def alter(self, resources: list[ConfigResource]) -> None:
        """IncrementalAlterConfigs (each value SET, or DELETE as (AlterConfigOp.DELETE, None))."""
        results = self.admin.alter_configs(resources, raise_on_unknown=False, incremental=True)
        assert all(r == "OK" for kind in results.values() for r in kind.values()), results

    def set_rates(self, rate: int) -> None:
        """Both rates on both brokers (as kafka-reassign-partitions --throttle does), once each broker applied them."""
        configs = {"leader.replication.throttled.rate": str(rate), "follower.replication.throttled.rate": str(rate)}
        self.alter([ConfigResource(ConfigResourceType.BROKER, str(b), configs=configs) for b in self.brokers])
        for b in self.brokers:
            self.wait_for(lambda b=b: self.applied(b, f"brokers/{b}",
                                                   f"'follower.replication.throttled.rate': '{rate}'"),
                          f"broker {b} to apply the rates")

    def throttle(self, topic: str, leader: str, follower: str) -> None:
        """The topic's throttled replica lists (`partition:broker`, one each at most), once the
        broker named in each applied it."""
        configs = {k: v for k, v in (("leader.replication.throttled.replicas", leader),
                                     ("follower.replication.throttled.replicas", follower)) if v}
        self.alter([ConfigResource(ConfigResourceType.TOPIC, topic, configs=configs)])
        for kind, value in (("LeaderReplication", leader), ("FollowerReplication", follower)):
            if value:
                broker = int(value.split(":")[1])
                line = f"{kind}: throttled partitions of topic {topic} on broker {broker}: [0]"
                self.wait_for(lambda b=broker, line=line: self.applied(b, f"topics/{topic}", line),
                              f"broker {broker} to throttle {topic}")

    def reassign(self, moves: dict[str, list[int]], *flags: str) -> float:
        """Give each topic's partition these replicas with `josefk reassign-partitions --execute`;
        when it started."""
        plan = self.root / "plan.json"
        plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": t, "partition": 0, "replicas": r}
                                                                 for t, r in moves.items()]}))
        started = time.monotonic()
        self.output_of = self.tool("--execute", *flags)
        return started

    def tool(self, *flags: str, returncode: int = 0) -> str:
        """`josefk reassign-partitions` with the last plan; its output."""
        done = subprocess.run([sys.executable, "-m", "josefk", "reassign-partitions", "--bootstrap-server",
                               self.bootstrap, "--reassignment-json-file", str(self.root / "plan.json"), *flags],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == returncode, done.stdout + done.stderr
        return done.stdout

    def throttle_configs(self, entity: str) -> dict[str, str]:
        data, _ = self.kazoo.get(f"/config/{entity}")
        return {k: v for k, v in json.loads(data)["config"].items() if "throttled" in k}

    def catch_up_times(self, added: dict[str, int], started: float) -> dict[str, float]:
        """Seconds from `started` until each topic's added replica is in its partition's ISR."""
        took: dict[str, float] = {}

        def all_in_sync() -> bool:
            for topic, broker in added.items():
                if topic not in took and broker in self.isr(topic):
                    took[topic] = time.monotonic() - started
            return len(took) == len(added)

        self.wait_for(all_in_sync, f"the added replicas in the ISRs of {sorted(added)}", timeout=300)
        return took

    def close(self) -> None:
        self.admin.close()
        self.kazoo.stop()
        for broker in self.brokers.values():
            broker.stop()


@pytest.fixture
def brokers(zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[Brokers]:
    running = Brokers(zookeeper, tmp_path)
    yield running
    running.close()


def _lower_bound_s(size: int, rate: int) -> float:
    """The least time `size` bytes can take at `rate`: all but the first fetch's bytes go at the
    rate (10% off for the clocks)."""
    return 0.9 * (size - FETCH_MAX) / rate


def test_a_throttled_replica_catches_up_no_faster_than_the_throttle(brokers: Brokers) -> None:
    topics = ["both", "leader-only", "follower-only", "free"]
    brokers.create_with_data(*topics)
    brokers.set_rates(RATE)
    brokers.throttle("both", "0:1", "0:2")  # as kafka-reassign-partitions --throttle writes them
    brokers.throttle("leader-only", "0:1", "")  # only broker 1 holds its responses back
    brokers.throttle("follower-only", "", "0:2")  # only broker 2 leaves it out of its fetches
    took = brokers.catch_up_times(dict.fromkeys(topics, 2), brokers.reassign(dict.fromkeys(topics, [1, 2])))
    print("\ncatch-up of", DATA, "bytes at", RATE, "B/s:",
          {t: f"{s:.2f} s, {DATA / s / 1e6:.2f} MB/s" for t, s in took.items()})
    size = brokers.replica_bytes(1, "both")
    for topic in ("both", "leader-only", "follower-only"):
        assert took[topic] >= _lower_bound_s(size, RATE), (topic, took)
    assert took["free"] < min(took[t] for t in ("both", "leader-only", "follower-only")), took
    assert brokers.replica_bytes(2, "free") == brokers.replica_bytes(1, "free")


def test_reassign_partitions_throttle_holds_a_move_until_it_is_removed(brokers: Brokers) -> None:
    """`josefk reassign-partitions --throttle` writes Kafka's throttle configs, the brokers hold
    the move to it, deleting the topic's lists lets the replica catch up at once, and
    `--verify` clears every throttle once nothing moves."""
    slow = 400_000  # 5 MiB would take 13 s
    brokers.create_with_data("released")
    started = brokers.reassign({"released": [1, 2]}, "--throttle", str(slow))
    out = brokers.output_of
    assert "Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle " \
        "is removed.\nThe inter-broker throttle limit was set to 400000 B/s\n" in out, out
    assert brokers.throttle_configs("topics/released") == {"leader.replication.throttled.replicas": "0:1",
                                                           "follower.replication.throttled.replicas": "0:2"}
    rates = {"leader.replication.throttled.rate": str(slow), "follower.replication.throttled.rate": str(slow)}
    assert brokers.throttle_configs("brokers/1") == brokers.throttle_configs("brokers/2") == rates
    brokers.wait_for(lambda: brokers.replica_bytes(2, "released") > 3 * FETCH_MAX, "three fetches' worth replicated")
    elapsed = time.monotonic() - started
    copied = brokers.replica_bytes(2, "released")
    print(f"\nthrottled at {slow} B/s: {copied} bytes in {elapsed:.2f} s, {copied / elapsed / 1e6:.3f} MB/s")
    # One fetch goes before any quota is exceeded, and one more may before the brokers saw the configs.
    assert elapsed >= _lower_bound_s(copied - FETCH_MAX, slow)
    assert 2 not in brokers.isr("released")
    verified = brokers.tool("--verify")  # Kafka's status: 0, the states are in the output
    assert "Reassignment of partition released-0 is still in progress." in verified and "Clearing" not in verified
    brokers.alter([ConfigResource(ConfigResourceType.TOPIC, "released", configs={
        "leader.replication.throttled.replicas": (AlterConfigOp.DELETE, None),
        "follower.replication.throttled.replicas": (AlterConfigOp.DELETE, None)})])
    lifted = time.monotonic()
    took = brokers.catch_up_times({"released": 2}, lifted)["released"]
    print(f"after the throttle was removed: caught up in {took:.2f} s")
    assert brokers.replica_bytes(2, "released") == brokers.replica_bytes(1, "released")
    brokers.wait_for(lambda: brokers.kazoo.get("/brokers/topics/released")[0] and
                     json.loads(brokers.kazoo.get("/brokers/topics/released")[0])["partitions"]["0"] == [1, 2],
                     "the reassignment to complete")
    verified = brokers.tool("--verify")
    assert verified.endswith("Reassignment of partition released-0 is completed.\n"
                             "Clearing broker-level throttles on brokers 1,2\n"
                             "Clearing topic-level throttles on topic released\n"), verified
    assert brokers.throttle_configs("topics/released") == {}
    assert brokers.throttle_configs("brokers/1") == brokers.throttle_configs("brokers/2") == {}


def test_execute_while_a_move_is_in_progress_needs_additional(brokers: Brokers) -> None:
    """kafka-reassign-partitions.sh --execute refuses while any reassignment is in progress,
    in Kafka 3.9.2's words (its own tool prints the same against josefk); with --additional
    the new move starts, and its --throttle is written for the moves in progress too."""
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka-tools-3.9.2.jar", "kafka-clients-3.9.2.jar"], "make kafka-jars")
    brokers.create_with_data("held", "second")
    brokers.reassign({"held": [1, 2]}, "--throttle", "100000")  # 5 MiB at 100 kB/s: in progress for a minute
    (brokers.root / "plan.json").write_text(json.dumps({"version": 1, "partitions": [
        {"topic": "second", "partition": 0, "replicas": [1, 2]}]}))
    refused = brokers.tool("--execute", "--throttle", "200000", returncode=1)
    assert refused == ("Cannot execute because there is an existing partition assignment.  Use --additional to "
                       "override this and create a new partition assignment in addition to the existing one. The "
                       "--additional flag can also be used to change the throttle by resubmitting the current "
                       "reassignment.\n")
    command = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"
    kafka = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", command, "--bootstrap-server", brokers.bootstrap,
                            "--execute", "--reassignment-json-file", str(brokers.root / "plan.json")],
                           capture_output=True, text=True, timeout=120)
    assert (kafka.returncode, kafka.stdout) == (1, refused), kafka.stdout + kafka.stderr
    assert [tp.topic for tp in brokers.admin.list_partition_reassignments()] == ["held"]
    assert brokers.throttle_configs("topics/second") == {}
    assert brokers.throttle_configs("brokers/1")["follower.replication.throttled.rate"] == "100000"

    started = brokers.tool("--execute", "--additional", "--throttle", "200000")
    assert "The inter-broker throttle limit was set to 200000 B/s\n" in started, started
    assert started.endswith("Successfully started partition reassignment for second-0\n"), started
    assert sorted(tp.topic for tp in brokers.admin.list_partition_reassignments()) == ["held", "second"]
    lists = {"leader.replication.throttled.replicas": "0:1", "follower.replication.throttled.replicas": "0:2"}
    assert brokers.throttle_configs("topics/second") == brokers.throttle_configs("topics/held") == lists
    rates = {"leader.replication.throttled.rate": "200000", "follower.replication.throttled.rate": "200000"}
    assert brokers.throttle_configs("brokers/1") == brokers.throttle_configs("brokers/2") == rates


def test_throttles_stored_before_a_broker_starts_apply_from_its_start(brokers: Brokers) -> None:
    """A broker reads its rates and every topic's throttled replicas at start-up (Kafka's
    DynamicConfigManager does): only broker 2's follower side is throttled here, set while it
    was up, and it still holds the move back after a restart."""
    brokers.create_with_data("restarted")
    brokers.set_rates(RATE)
    brokers.throttle("restarted", "", "0:2")
    start = brokers.restart(2)
    line = "FollowerReplication: throttled partitions of topic restarted on broker 2: [0]"
    brokers.wait_for(lambda: line in brokers.output(2)[start:], "broker 2 to throttle the topic from its start")
    assert "'follower.replication.throttled.rate': '1000000'" in brokers.output(2)[start:]
    took = brokers.catch_up_times({"restarted": 2}, brokers.reassign({"restarted": [1, 2]}))["restarted"]
    print(f"\ncatch-up after a restart, follower side only: {took:.2f} s, {DATA / took / 1e6:.2f} MB/s")
    assert took >= _lower_bound_s(brokers.replica_bytes(1, "restarted"), RATE)


@pytest.fixture
def with_kafka(zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[Brokers]:
    running = Brokers(zookeeper, tmp_path, with_kafka=True)
    yield running
    running.close()


def test_josefk_and_kafka_each_throttle_the_other(with_kafka: Brokers) -> None:
    """Four moves, each throttled on one side only, each side a different quota: josefk's
    leader (1) holds back Kafka's follower (3); Kafka's follower holds itself back against
    josefk's leader; josefk's follower (2) holds itself back against Kafka's leader (3); and
    Kafka's leader holds back josefk's follower (1)."""
    brokers = with_kafka
    brokers.create_with_data("jk-leader", "jk-follower")
    brokers.create_with_data("kj-follower", "kj-leader", leader=3)
    brokers.set_rates(RATE)
    brokers.throttle("jk-leader", "0:1", "")
    brokers.throttle("jk-follower", "", "0:3")
    brokers.throttle("kj-follower", "", "0:2")
    brokers.throttle("kj-leader", "0:3", "")
    moves = {"jk-leader": [1, 3], "jk-follower": [1, 3], "kj-follower": [3, 2], "kj-leader": [3, 1]}
    added = {"jk-leader": 3, "jk-follower": 3, "kj-follower": 2, "kj-leader": 1}
    took = brokers.catch_up_times(added, brokers.reassign(moves))
    print(f"\ncatch-up of {DATA} bytes at {RATE} B/s, josefk 1-2, Kafka 3:",
          {t: f"{s:.2f} s, {DATA / s / 1e6:.2f} MB/s" for t, s in took.items()})
    for topic, seconds in took.items():
        assert seconds >= _lower_bound_s(DATA, RATE), (topic, took)
