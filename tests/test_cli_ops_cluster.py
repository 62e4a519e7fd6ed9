"""The operator tools on a three-broker josefk cluster: log-dirs on leaders and followers, the
topics --describe reports as a follower leaves the ISR, and reassign-partitions --verify with a broker down."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.admin import NewTopic

from harness.zookeeper import ZooKeeperServer
from tests.test_cluster import Cluster

pytestmark = pytest.mark.cluster

JOSEFK = str(Path(sys.executable).with_name("josefk"))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    zookeeper = ZooKeeperServer()
    running = Cluster(zookeeper, tmp_path, {"min.insync.replicas": "2"})
    try:
        yield running
    finally:
        running.stop()
        zookeeper.stop()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=120)


def test_log_dirs_and_isr_reports_on_a_cluster(cluster: Cluster) -> None:
    cluster.create_topic(NewTopic("ops", 1, 3))
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    for i in range(20):
        producer.send("ops", b"v%d" % i)
    producer.flush(timeout=30)
    producer.close()

    def sizes() -> dict[int, tuple[int, int]]:
        r = run("log-dirs", "--bootstrap-server", cluster.bootstrap, "--describe", "--topic-list", "ops")
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines()[1] == "Received log directory information from brokers 1,2,3"
        out = {}
        for broker in json.loads(r.stdout.splitlines()[2])["brokers"]:
            (log_dir,) = broker["logDirs"]
            (partition,) = log_dir["partitions"]
            assert partition["partition"] == "ops-0"
            out[broker["broker"]] = (partition["size"], partition["offsetLag"])
        return out

    # every replica holds the same bytes once the followers caught up; the lag is 0 on each, as in Kafka
    cluster.wait_for(lambda: len({size for size, _ in sizes().values()}) == 1, "replicas of equal size")
    assert all(size > 0 and lag == 0 for size, lag in sizes().values())

    def report(flag: str) -> list[str]:
        r = run("topics", "--bootstrap-server", cluster.bootstrap, "--describe", "--topic", "ops", flag)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()

    assert report("--under-replicated-partitions") == report("--at-min-isr-partitions") == []
    leader = cluster.state("ops", 0)["leader"]
    follower = next(b for b in (1, 2, 3) if b != leader)
    cluster.brokers[follower].kill()
    cluster.wait_for(lambda: follower not in cluster.state("ops", 0)["isr"], "the follower out of the ISR")
    cluster.wait_for(lambda: report("--under-replicated-partitions") != [], "the metadata to show it")
    (line,) = report("--under-replicated-partitions")
    assert line.startswith(f"\tTopic: ops\tPartition: 0\tLeader: {leader}\tReplicas: ")
    assert report("--at-min-isr-partitions") == [line]  # ISR 2 = min.insync.replicas
    assert report("--under-min-isr-partitions") == report("--unavailable-partitions") == []


def test_reassign_verify_with_a_broker_offline(cluster: Cluster, tmp_path: Path) -> None:
    """`reassign-partitions --verify` while a broker is down reports the partitions' states and
    exits 0 as Kafka's tool; the throttles stay while the move is in progress, and once it is
    done every reachable broker's and the topic's are cleared, the offline broker named."""
    cluster.create_topic(NewTopic("mv", num_partitions=-1, replication_factor=-1, replica_assignments={0: [1]}))
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks=1, max_request_size=200_000)
    try:
        for _ in range(30):  # 3 MB: three fetches' worth, held back by the throttle below
            producer.send("mv", b"x" * 100_000)
        producer.flush(timeout=60)
    finally:
        producer.close()
    plan = tmp_path / "plan.json"
    added = next(b for b in (2, 3) if b != cluster.controller())  # the broker to stop: not the controller
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": "mv", "partition": 0, "replicas": [1, added]}]}))

    def verify() -> subprocess.CompletedProcess[str]:
        return run("reassign-partitions", "--bootstrap-server", cluster.bootstrap, "--reassignment-json-file",
                   str(plan), "--verify")

    def rates(broker: int) -> dict[str, str]:
        data, _ = cluster.kazoo.get(f"/config/brokers/{broker}")
        return {k: v for k, v in json.loads(data)["config"].items() if k.endswith("throttled.rate")}

    throttled = {"leader.replication.throttled.rate": "100000", "follower.replication.throttled.rate": "100000"}
    r = run("reassign-partitions", "--bootstrap-server", cluster.bootstrap, "--reassignment-json-file", str(plan),
            "--execute", "--throttle", "100000")
    assert r.returncode == 0, r.stdout + r.stderr
    cluster.brokers[added].kill()
    r = verify()
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    assert r.stdout == "Status of partition reassignment:\nReassignment of partition mv-0 is still in progress.\n"
    assert rates(1) == rates(added) == throttled

    cluster.start(added)  # the move completes once the topic's throttled replica lists are gone
    r = run("configs", "--bootstrap-server", cluster.bootstrap, "--entity-type", "topics", "--entity-name", "mv",
            "--alter", "--delete-config",
            "leader.replication.throttled.replicas,follower.replication.throttled.replicas")
    assert r.returncode == 0, r.stderr
    cluster.wait_for(lambda: sorted(cluster.state("mv", 0)["isr"]) == [1, added], "the new replica in the ISR",
                     timeout=120)

    def moved() -> bool:  # read in ZooKeeper: a --verify here would clear the throttles
        data = json.loads(cluster.kazoo.get("/brokers/topics/mv")[0])
        return data["partitions"]["0"] == [1, added] and not data.get("adding_replicas")

    cluster.wait_for(moved, "the reassignment to complete")
    cluster.brokers[added].kill()
    r = verify()
    assert "Traceback" not in r.stderr and r.returncode == 1, r.stdout + r.stderr
    assert r.stdout == ("Status of partition reassignment:\nReassignment of partition mv-0 is completed.\n"
                        "Clearing broker-level throttles on brokers 1,2,3\n"
                        "Clearing topic-level throttles on topic mv\n")
    # the client's error: UnknownBrokerIdError, or, while its metadata still lists the broker, KafkaConnectionError
    # (refused) or NodeNotReadyError (the connection attempt still pending when the request is sent)
    assert re.fullmatch(rf"Error: Could not clear the broker-level throttles on broker {added} \((UnknownBrokerId|"
                        r"KafkaConnection|NodeNotReady)Error\); run --verify again once it is back\n", r.stderr), \
        r.stderr
    assert rates(1) == {} and rates(added) == throttled

    cluster.start(added)
    cluster.wait_for(lambda: verify().returncode == 0, "a --verify that reaches the broker again", timeout=60)
    assert rates(1) == rates(added) == {}
