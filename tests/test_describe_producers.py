"""DescribeProducers on a three-broker cluster: the leader and a follower of a partition both
answer with its producers (Kafka's Partition.activeProducerState reads the local log, which
a follower builds from the replicated batches), a broker without a replica answers
NOT_LEADER_OR_FOLLOWER, and `josefk transactions describe-producers --broker-id` asks one
replica."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kafka.admin import NewTopic

from harness.wire import call, connect
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.record_codec import Record, build_batch
from tests.test_cluster import Cluster

pytestmark = pytest.mark.cluster

JOSEFK = str(Path(sys.executable).with_name("josefk"))
TS = 1_764_000_000_000


@pytest.fixture
def cluster(zookeeper, tmp_path):  # noqa: F811
    running = Cluster(zookeeper, tmp_path)
    yield running
    running.stop()


def describe(bootstrap: str, topics: dict[str, list[int]]) -> Any:
    cls = request_class(ApiKey.DescribeProducers)
    sock = connect(bootstrap)
    try:
        _, r = call(sock, ApiKey.DescribeProducers, 0, topics=[
            cls.TopicRequest(name=name, partition_indexes=indexes) for name, indexes in topics.items()])
        return r
    finally:
        sock.close()


def test_leader_and_follower_answer_and_a_broker_without_a_replica_does_not(cluster: Cluster) -> None:
    cluster.create_topic(NewTopic("owned", num_partitions=-1, replication_factor=-1,
                                  replica_assignments={0: [1, 2]}), wait_in_sync=False)
    cluster.wait_for(lambda: cluster.state("owned", 0)["isr"] == [1, 2], "both replicas in sync")
    leader = cluster.brokers[1].bootstrap
    records = build_batch([Record(i, TS + i, None, b"v") for i in range(4)], producer_id=77, producer_epoch=3,
                          base_sequence=0)
    cls = request_class(ApiKey.Produce)
    sock = connect(leader)
    try:
        _, r = call(sock, ApiKey.Produce, 9, transactional_id=None, acks=-1, timeout_ms=10000, topic_data=[
            cls.TopicProduceData(name="owned", partition_data=[
                cls.TopicProduceData.PartitionProduceData(index=0, records=records)])])
    finally:
        sock.close()
    assert r.responses[0].partition_responses[0].error_code == 0, r  # acks=all: the follower has it too

    expected = [(77, 3, 3, TS + 3, -1, -1)]

    def producers(bootstrap: str) -> tuple[int, list]:
        p = describe(bootstrap, {"owned": [0]}).topics[0].partitions[0]
        return p.error_code, [(s.producer_id, s.producer_epoch, s.last_sequence, s.last_timestamp,
                               s.coordinator_epoch, s.current_txn_start_offset) for s in p.active_producers]

    assert producers(leader) == (0, expected)
    assert producers(cluster.brokers[2].bootstrap) == (0, expected)
    assert producers(cluster.brokers[3].bootstrap) == (6, [])  # NOT_LEADER_OR_FOLLOWER

    unknown = describe(leader, {"never-created": [0], "owned": [5], "bad name": [0]})
    errors = [(t.name, p.error_code, p.error_message is not None) for t in unknown.topics for p in t.partitions]
    # Kafka: a topic not in the metadata cache and an invalid name carry a message, a missing
    # partition of a known topic does not (it is not hosted and not in the metadata cache).
    assert errors == [("never-created", 3, True), ("owned", 3, False), ("bad name", 17, True)]

    out = subprocess.run([JOSEFK, "transactions", "--bootstrap-server", leader, "describe-producers", "--topic",
                          "owned", "--partition", "0", "--broker-id", "2"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert [c.strip() for c in out.stdout.splitlines()[1].split("\t")[:-1]] == \
        ["77", "3", "-1", "3", str(TS + 3), "None"]
    elsewhere = subprocess.run([JOSEFK, "transactions", "--bootstrap-server", leader, "describe-producers",
                                "--topic", "owned", "--partition", "0", "--broker-id", "3"], capture_output=True,
                               text=True, timeout=60)
    assert elsewhere.returncode == 1
    assert elsewhere.stderr.startswith("Failed to describe producers for partition owned-0 on broker 3: ")
