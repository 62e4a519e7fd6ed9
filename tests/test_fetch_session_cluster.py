"""Fetch sessions in use (KIP-227): a follower and a consumer each hold one on the leader."""

from __future__ import annotations

from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.wire import wait_until
from tests.test_metrics import _get, _samples

PARTITIONS = 3


@pytest.mark.cluster
def test_follower_and_consumer_fetch_in_sessions(zookeeper, tmp_path: Path) -> None:
    """RF 2, min.insync.replicas 2, every leader on broker 1: acks=all writes complete only if
    the follower's incremental fetches carry its new offsets; the leader's scrape shows the
    follower's session holding every partition, then the consumer's too."""
    port = free_port()
    common = {"zookeeper.connect": zookeeper.connect, "min.insync.replicas": "2",
              "offsets.topic.replication.factor": "1"}
    leader = BrokerProcess(tmp_path / "b1", overrides={**common, "broker.id": "1",
                                                       "metrics.http.listener": f"127.0.0.1:{port}"})
    follower = BrokerProcess(tmp_path / "b2", overrides={**common, "broker.id": "2"})
    try:
        admin = KafkaAdminClient(bootstrap_servers=leader.bootstrap)
        admin.create_topics([NewTopic("sessions", replica_assignments={p: [1, 2] for p in range(PARTITIONS)})])
        admin.close()

        def gauge(name: str) -> float:
            return _samples(_get(port, "/metrics")[1]).get((f"kafka_server_fetchsessioncache_{name}", frozenset()), -1)

        wait_until(lambda: gauge("numincrementalfetchsessions") == 1
                   and gauge("numincrementalfetchpartitionscached") == PARTITIONS, "the follower's session")
        producer = KafkaProducer(bootstrap_servers=leader.bootstrap, acks="all", linger_ms=0)
        for round_ in range(20):  # one at a time: each needs the follower's next incremental fetch
            producer.send("sessions", b"%d" % round_, partition=round_ % PARTITIONS).get(timeout=30)
        producer.close()
        assert gauge("numincrementalfetchsessions") == 1

        consumer = KafkaConsumer(bootstrap_servers=leader.bootstrap, enable_auto_commit=False,
                                 consumer_timeout_ms=10_000)
        consumer.assign([TopicPartition("sessions", p) for p in range(PARTITIONS)])
        consumer.seek_to_beginning()
        got = sorted(int(r.value) for r in consumer)
        assert got == list(range(20))
        wait_until(lambda: gauge("numincrementalfetchsessions") == 2
                   and gauge("numincrementalfetchpartitionscached") == 2 * PARTITIONS, "the consumer's session")
        consumer.close()
    finally:
        follower.stop()
        leader.stop()
