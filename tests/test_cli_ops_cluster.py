"""The operator tools on a three-broker josefk cluster: log-dirs on leaders and followers, and the
topics --describe reports as a follower leaves the ISR."""

from __future__ import annotations

import json
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
