"""Three brokers coordinated through a real ZooKeeper: replication, ISR, failover."""

from __future__ import annotations

import json
import time

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.consumer.fetcher import ConsumerRecord
from kazoo.client import KazooClient
from kazoo.exceptions import KazooException

from harness.josefk import BrokerProcess
from harness.wire import call, connect, encode_request, read_frame
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey

pytestmark = pytest.mark.cluster

BROKER_IDS = (1, 2, 3)


class Cluster:
    def __init__(self, zk: ZooKeeperServer, root, overrides: dict[str, str] | None = None) -> None:
        self.zk = zk
        self.root = root
        self.overrides = overrides or {}
        self.brokers: dict[int, BrokerProcess] = {}
        self.ports: dict[int, int] = {}
        for broker_id in BROKER_IDS:
            self.start(broker_id)
        self.kazoo = KazooClient(hosts=zk.connect)
        self.kazoo.start(timeout=10)

    def start(self, broker_id: int) -> None:
        self.brokers[broker_id] = BrokerProcess(
            self.root / f"broker-{broker_id}", port=self.ports.get(broker_id),
            overrides={"broker.id": str(broker_id), "zookeeper.connect": self.zk.connect,
                       "zookeeper.session.timeout.ms": "3000", "replica.lag.time.max.ms": "3000",
                       "default.replication.factor": "3", "offsets.topic.replication.factor": "3",
                       "leader.imbalance.check.interval.seconds": "2",
                       "controlled.shutdown.retry.backoff.ms": "200", **self.overrides})
        self.ports[broker_id] = self.brokers[broker_id].port

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.brokers.values() if b.proc.poll() is None)

    def state(self, topic: str, partition: int) -> dict:
        data, _ = self.kazoo.get(f"/brokers/topics/{topic}/partitions/{partition}/state")
        return json.loads(data)

    def wait_for(self, condition, what: str, timeout: float = 30) -> None:
        deadline = time.time() + timeout
        while not self._holds(condition):
            assert time.time() < deadline, f"timed out waiting for {what}"
            time.sleep(0.2)

    @staticmethod
    def _holds(condition) -> bool:
        try:
            return condition()
        except KazooException:  # our own session expired with a paused ZooKeeper: kazoo renews it
            return False

    def create_topic(self, topic: NewTopic, wait_in_sync: bool = True) -> None:
        """Create the topic; unless told not to, wait until every partition's ISR is full."""
        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=30000)
        try:
            admin.create_topics([topic])
        finally:
            admin.close()
        if wait_in_sync:
            rf, name = topic.replication_factor, topic.name
            self.wait_for(lambda: all(len(self.state(name, p)["isr"]) == rf for p in range(topic.num_partitions)),
                          f"ISRs of {rf}")

    def controller(self) -> int:
        data, _ = self.kazoo.get("/controller")
        return json.loads(data)["brokerid"]

    def stop(self) -> None:
        self.kazoo.stop()
        for broker in self.brokers.values():
            broker.stop()


@pytest.fixture
def cluster(zookeeper, tmp_path):
    running = Cluster(zookeeper, tmp_path)
    yield running
    running.stop()


def _consume_all(bootstrap: str, topic: str, count: int) -> list[bytes]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    tp = TopicPartition(topic, 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    values: list[bytes] = []
    deadline = time.time() + 30
    while len(values) < count and time.time() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            values.extend(r.value for r in records)
    consumer.close()
    return values


def test_replicated_topic_survives_leader_kill_and_follower_rejoins(cluster):
    cluster.create_topic(NewTopic("replicated", 1, 3, topic_configs={"min.insync.replicas": "2"}))

    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all", retries=10,
                             request_timeout_ms=10000)
    acked = [producer.send("replicated", value=b"a%d" % i).get(timeout=30).offset for i in range(100)]
    assert acked == list(range(100))

    leader = cluster.state("replicated", 0)["leader"]
    cluster.brokers[leader].kill()
    cluster.wait_for(lambda: cluster.state("replicated", 0)["leader"] not in (leader, -1), "a new leader")
    new_state = cluster.state("replicated", 0)
    assert leader not in new_state["isr"] and len(new_state["isr"]) == 2

    more = [producer.send("replicated", value=b"b%d" % i).get(timeout=30).offset for i in range(100)]
    assert more == list(range(100, 200))
    producer.close()
    expected = [b"a%d" % i for i in range(100)] + [b"b%d" % i for i in range(100)]
    assert _consume_all(cluster.bootstrap, "replicated", 200) == expected

    cluster.start(leader)
    cluster.wait_for(lambda: leader in cluster.state("replicated", 0)["isr"], "the restarted broker back in ISR")


def test_follower_that_stops_is_removed_from_isr_and_acks_all_still_succeed(cluster):
    cluster.create_topic(NewTopic("shrink", 1, 3))
    state = cluster.state("shrink", 0)
    follower = next(b for b in state["isr"] if b != state["leader"])
    cluster.brokers[follower].proc.send_signal(19)  # SIGSTOP: alive to ZooKeeper for a while, not fetching
    try:
        producer = KafkaProducer(bootstrap_servers=",".join(
            cluster.brokers[b].bootstrap for b in BROKER_IDS if b != follower), acks="all", request_timeout_ms=30000)
        assert producer.send("shrink", value=b"x").get(timeout=40).offset == 0
        producer.close()
        cluster.wait_for(lambda: follower not in cluster.state("shrink", 0)["isr"], "the ISR to shrink")
    finally:
        cluster.brokers[follower].proc.send_signal(18)  # SIGCONT


def test_controlled_shutdown_moves_leadership_before_the_broker_leaves(cluster):
    """SIGTERM runs a controlled shutdown: by the time the process has exited, none of its
    partitions is led by it or lists it in the ISR, whether it was the controller (local
    call) or not (ControlledShutdown on the wire); producers go straight to the new leaders."""
    cluster.create_topic(NewTopic("rolling", 3, 3))
    controller = cluster.controller()
    for victim in (next(b for b in BROKER_IDS if b != controller), controller):
        led = [p for p in range(3) if cluster.state("rolling", p)["leader"] == victim]
        assert led, f"broker {victim} leads no partition of 'rolling'"
        assert cluster.brokers[victim].stop() == 0
        for p in range(3):
            state = cluster.state("rolling", p)
            assert state["leader"] not in (victim, -1) and victim not in state["isr"], (victim, p, state)
        survivors = ",".join(cluster.brokers[b].bootstrap for b in BROKER_IDS if b != victim)
        producer = KafkaProducer(bootstrap_servers=survivors, acks="all", retries=0, request_timeout_ms=10000)
        for p in led:
            producer.send("rolling", value=b"after", partition=p).get(timeout=15)
        producer.close()
        cluster.start(victim)
        cluster.wait_for(lambda v=victim: all(v in cluster.state("rolling", p)["isr"] for p in range(3)),
                         f"broker {victim} back in every ISR")


def test_committed_offsets_survive_coordinator_failover(cluster):
    cluster.create_topic(NewTopic("grouped", 3, 3), wait_in_sync=False)
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    for i in range(30):
        producer.send("grouped", value=b"%d" % i, partition=i % 3).get(timeout=30)
    producer.close()
    consumer = KafkaConsumer("grouped", bootstrap_servers=cluster.bootstrap, group_id="failover",
                             auto_offset_reset="earliest", enable_auto_commit=False)
    got: list[ConsumerRecord] = []
    deadline = time.time() + 40
    while len(got) < 30 and time.time() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            got.extend(records)
    assert len(got) == 30
    consumer.commit()
    coordinator = int(str(consumer._coordinator.coordinator_id).split("-")[-1])
    consumer.close()
    cluster.brokers[coordinator].kill()

    reader = KafkaConsumer(bootstrap_servers=cluster.bootstrap, group_id="failover", enable_auto_commit=False,
                           request_timeout_ms=30000)
    committed: dict = {}
    deadline = time.time() + 40
    while time.time() < deadline:
        try:
            committed = {p: reader.committed(TopicPartition("grouped", p), timeout_ms=10_000) for p in range(3)}
            break
        except Exception:  # noqa: BLE001 - the coordinator moves while we ask
            time.sleep(1)
    reader.close()
    assert committed == {0: 10, 1: 10, 2: 10}


def test_preferred_leader_election_tool_moves_leadership_back(cluster):
    import subprocess
    import sys

    cluster.create_topic(NewTopic("preferred", 1, 3))
    data, _ = cluster.kazoo.get("/brokers/topics/preferred")
    preferred = json.loads(data)["partitions"]["0"][0]
    assert cluster.state("preferred", 0)["leader"] == preferred
    cluster.brokers[preferred].kill()
    cluster.wait_for(lambda: cluster.state("preferred", 0)["leader"] not in (preferred, -1), "failover")
    cluster.start(preferred)
    cluster.wait_for(lambda: preferred in cluster.state("preferred", 0)["isr"], "the preferred replica in ISR")

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "josefk", "leader-election", "--bootstrap-server",
                               cluster.bootstrap, "--election-type", "preferred", "--topic", "preferred",
                               "--partition", "0"], capture_output=True, text=True, timeout=60)

    first = run()
    assert first.returncode == 0, first.stderr
    # The automatic rebalance (every 2 s here) may win the race; either way it is elected.
    assert ("Successfully completed leader election (PREFERRED) for partitions preferred-0" in first.stdout
            or "Valid replica already elected for partitions preferred-0" in first.stdout)
    cluster.wait_for(lambda: cluster.state("preferred", 0)["leader"] == preferred, "the preferred leader")
    second = run()
    assert "Valid replica already elected for partitions preferred-0" in second.stdout


def test_auto_leader_rebalance_returns_leadership_to_the_preferred_replica(cluster):
    cluster.create_topic(NewTopic("balanced", 1, 3))
    data, _ = cluster.kazoo.get("/brokers/topics/balanced")
    preferred = json.loads(data)["partitions"]["0"][0]
    cluster.brokers[preferred].kill()
    cluster.wait_for(lambda: cluster.state("balanced", 0)["leader"] not in (preferred, -1), "failover")
    cluster.start(preferred)
    cluster.wait_for(lambda: cluster.state("balanced", 0)["leader"] == preferred, "automatic preferred election",
                     timeout=45)


def test_reassign_partitions_moves_replicas_and_keeps_data(cluster, tmp_path):
    import subprocess
    import sys

    cluster.create_topic(NewTopic("moving", replica_assignments={0: [1, 2]}), wait_in_sync=False)
    cluster.wait_for(lambda: sorted(cluster.state("moving", 0)["isr"]) == [1, 2], "ISR [1, 2]")
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    for i in range(50):
        producer.send("moving", value=b"%d" % i).get(timeout=30)
    producer.close()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": "moving", "partition": 0, "replicas": [3, 2]}]}))

    def tool(*flags: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "josefk", "reassign-partitions", "--bootstrap-server",
                               cluster.bootstrap, "--reassignment-json-file", str(plan), *flags],
                              capture_output=True, text=True, timeout=60)

    started = tool("--execute")
    assert started.returncode == 0, started.stderr
    assert '"replicas":[1,2]' in started.stdout and "Successfully started partition reassignment for moving-0" \
        in started.stdout

    def replicas() -> list[int]:
        data, _ = cluster.kazoo.get("/brokers/topics/moving")
        return json.loads(data)["partitions"]["0"]

    cluster.wait_for(lambda: replicas() == [3, 2], "the reassignment to complete")
    state = cluster.state("moving", 0)
    assert state["leader"] in (2, 3) and sorted(state["isr"]) == [2, 3]
    verified = tool("--verify")
    assert "Reassignment of partition moving-0 is completed." in verified.stdout and verified.returncode == 0
    cluster.wait_for(lambda: not (cluster.root / "broker-1" / "moving-0").exists(), "broker 1's replica deleted")
    assert _consume_all(cluster.bootstrap, "moving", 50) == [b"%d" % i for i in range(50)]


def _log_values(log_dir) -> list[bytes | None]:
    from josefk.protocol.record_codec import decode_all

    values: list[bytes | None] = []
    for segment in sorted(log_dir.glob("*.log")):
        values.extend(r.value for r in decode_all(segment.read_bytes()))
    return values


def _produce_raw(bootstrap: str, topic: str, values: list[bytes]) -> None:
    """Produce straight to one broker (a client would also ask the stopped brokers for metadata)."""
    from harness.wire import call, connect
    from josefk.cli.kafka_messages import request_class
    from josefk.protocol.apis import ApiKey
    from josefk.protocol.record_codec import Record, build_batch

    now = int(time.time() * 1000)
    batch = build_batch([Record(i, now, None, v) for i, v in enumerate(values)])
    cls = request_class(ApiKey.Produce)
    sock = connect(bootstrap)
    _cid, response = call(sock, ApiKey.Produce, 8, transactional_id=None, acks=1, timeout_ms=5000, topic_data=[
        cls.TopicProduceData(name=topic, partition_data=[cls.TopicProduceData.PartitionProduceData(
            index=0, records=batch)])])
    sock.close()
    assert response.responses[0].partition_responses[0].error_code == 0


def test_divergent_tail_is_truncated_by_leader_epoch_after_unclean_election(zookeeper, tmp_path):
    import subprocess
    import sys

    cluster = Cluster(zookeeper, tmp_path, {"zookeeper.session.timeout.ms": "8000", "replica.lag.time.max.ms": "1000",
                                            "auto.leader.rebalance.enable": "false"})
    try:
        cluster.create_topic(NewTopic("diverge", 1, 3))
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
        for i in range(20):
            producer.send("diverge", value=b"c%d" % i).get(timeout=30)
        producer.close()
        old_leader = cluster.state("diverge", 0)["leader"]
        followers = [b for b in BROKER_IDS if b != old_leader]
        for b in followers:
            cluster.brokers[b].proc.send_signal(19)  # SIGSTOP
        cluster.wait_for(lambda: cluster.state("diverge", 0)["isr"] == [old_leader], "the ISR to shrink to the leader")
        _produce_raw(cluster.brokers[old_leader].bootstrap, "diverge", [b"d%d" % i for i in range(10)])
        checkpoint = tmp_path / f"broker-{old_leader}" / "replication-offset-checkpoint"
        cluster.wait_for(lambda: "diverge 0 30" in checkpoint.read_text(),
                         "the old leader to checkpoint a high watermark covering the divergent records")
        cluster.brokers[old_leader].kill()
        for b in followers:
            cluster.brokers[b].proc.send_signal(18)  # SIGCONT
        cluster.wait_for(lambda: cluster.state("diverge", 0)["leader"] == -1, "the partition to go offline")
        elected = subprocess.run([sys.executable, "-m", "josefk", "leader-election", "--bootstrap-server",
                                  cluster.bootstrap, "--election-type", "unclean", "--topic", "diverge",
                                  "--partition", "0"], capture_output=True, text=True, timeout=60)
        assert "Successfully completed leader election (UNCLEAN)" in elected.stdout, elected.stderr
        new_leader = cluster.state("diverge", 0)["leader"]
        assert new_leader in followers
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks=1)
        for i in range(10):
            producer.send("diverge", value=b"n%d" % i).get(timeout=30)
        producer.close()
        cluster.start(old_leader)
        cluster.wait_for(lambda: old_leader in cluster.state("diverge", 0)["isr"], "the old leader back in ISR")
        expected = [b"c%d" % i for i in range(20)] + [b"n%d" % i for i in range(10)]
        cluster.wait_for(lambda: _log_values(tmp_path / f"broker-{old_leader}" / "diverge-0") == expected,
                         "the old leader's log to match the new leader's")
        assert _log_values(tmp_path / f"broker-{new_leader}" / "diverge-0") == expected
    finally:
        cluster.stop()


def _fetch_high_watermark(sock, topic: str) -> int:
    """A consumer's Fetch of partition 0 from offset 0: its high watermark, once records came."""
    cls = request_class(ApiKey.Fetch)
    _cid, response = call(sock, ApiKey.Fetch, 4, replica_id=-1, max_wait_ms=100, min_bytes=1, max_bytes=1 << 20,
                          isolation_level=0, topics=[cls.FetchTopic(topic=topic, partitions=[
                              cls.FetchTopic.FetchPartition(partition=0, fetch_offset=0,
                                                            partition_max_bytes=1 << 20)])])
    data = response.responses[0].partitions[0]
    assert data.error_code == 0 and data.records, data
    return data.high_watermark


def test_zookeeper_paused_stalls_neither_produce_nor_fetch_and_the_cluster_heals(cluster):
    """ZooKeeper SIGSTOPped for longer than a request timeout, and a follower with it, so
    the leader wants to shrink the ISR while the store cannot answer. Its event loop must
    not wait on ZooKeeper: acks=1 produce and fetch go on (the high watermark waits, as in
    Kafka, for the ISR change to be committed). Once both resume (the brokers' sessions
    have expired by then: they register again with new epochs), every replica is back in
    the ISR and acks=all works."""
    cluster.create_topic(NewTopic("zkpause", 1, 3, topic_configs={"min.insync.replicas": "2"}))
    state = cluster.state("zkpause", 0)
    leader = state["leader"]
    follower = next(b for b in state["isr"] if b != leader)
    strict = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all", retries=10, request_timeout_ms=10000)
    before = [strict.send("zkpause", value=b"p%d" % i).get(timeout=30).offset for i in range(50)]
    producer = KafkaProducer(bootstrap_servers=cluster.brokers[leader].bootstrap, acks=1, request_timeout_ms=5000)
    # Its metadata and connection come before the pause: a client that asks the paused
    # follower for metadata waits a request timeout, whatever the brokers do.
    before.append(producer.send("zkpause", value=b"p50").get(timeout=30).offset)
    fetcher = connect(cluster.brokers[leader].bootstrap)
    acked = list(before)
    fetched: list[int] = []  # high watermarks answered by Fetch during the pause
    slowest = 0.0
    cluster.zk.proc.send_signal(19)  # SIGSTOP
    cluster.brokers[follower].proc.send_signal(19)
    try:
        paused_until = time.monotonic() + 8  # > request.timeout.ms and > replica.lag.time.max.ms
        while time.monotonic() < paused_until:
            started = time.monotonic()
            acked.append(producer.send("zkpause", value=b"p%d" % len(acked)).get(timeout=10).offset)
            fetched.append(_fetch_high_watermark(fetcher, "zkpause"))
            slowest = max(slowest, time.monotonic() - started)
    finally:
        cluster.brokers[follower].proc.send_signal(18)  # SIGCONT
        cluster.zk.proc.send_signal(18)
    fetcher.close()
    assert slowest < 2.0, f"an acks=1 produce and a fetch took {slowest:.1f} s while ZooKeeper was paused"
    assert acked == list(range(len(acked))) and len(acked) > 70
    assert min(fetched) >= 50  # fetch kept serving what was committed before the pause
    cluster.wait_for(lambda: sorted(cluster.state("zkpause", 0)["isr"]) == list(BROKER_IDS),
                     "every replica back in the ISR", timeout=60)
    assert strict.send("zkpause", value=b"after").get(timeout=30).offset == len(acked)
    strict.close()
    producer.close()
    assert _consume_all(cluster.bootstrap, "zkpause", len(acked) + 1) == (
        [b"p%d" % i for i in range(len(acked))] + [b"after"])


def test_controlled_shutdown_broker_is_not_readmitted_to_an_isr_by_its_last_fetches(zookeeper, tmp_path):
    """Followers fetch back to back (replica.fetch.wait.max.ms=0): were the broker shutting
    down still fetching when the controller takes it out of the ISRs, its next fetch would
    have a leader count it in sync again (the flake of issue 18: it left in an ISR)."""
    cluster = Cluster(zookeeper, tmp_path, {"replica.fetch.wait.max.ms": "0"})
    try:
        cluster.create_topic(NewTopic("busy", 24, 3))
        victim = next(b for b in BROKER_IDS if b != cluster.controller())
        assert cluster.brokers[victim].stop() == 0
        in_isr = [p for p in range(24) if victim in cluster.state("busy", p)["isr"]]
        assert not in_isr, f"broker {victim} left while still in the ISR of partitions {in_isr}"
    finally:
        cluster.stop()


def test_a_broker_answers_metadata_once_the_controller_has_told_it_the_cluster(zookeeper, tmp_path):
    """A broker that registers while /controller still names a broker whose session has not
    expired yet (as after a kill -9 of the controller) hears nothing from a controller for a
    while. It holds Metadata requests meanwhile instead of answering that the cluster has no
    broker and no topic, which makes librdkafka 2.13+ drop every broker it knew for good."""
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    broker = None
    try:
        kazoo.create("/controller", json.dumps({"version": 1, "brokerid": 99, "timestamp": "0"}).encode(),
                     ephemeral=True, makepath=True)
        broker = BrokerProcess(tmp_path / "logs", overrides={"broker.id": "1", "zookeeper.connect": zookeeper.connect})
        sock = connect(broker.bootstrap)
        sock.sendall(encode_request(ApiKey.Metadata, 12, request_class(ApiKey.Metadata)(
            topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False)))
        sock.settimeout(1.0)
        with pytest.raises(TimeoutError):
            read_frame(sock)
        kazoo.delete("/controller")  # broker 1 becomes controller and sends itself UpdateMetadata
        sock.settimeout(15)
        frame = read_frame(sock)
        response = response_class(ApiKey.Metadata).decode(frame[5:], version=12)
        assert [b.node_id for b in response.brokers] == [1] and response.controller_id == 1
        sock.close()
    finally:
        if broker is not None:
            broker.kill()
        kazoo.stop()
        kazoo.close()
