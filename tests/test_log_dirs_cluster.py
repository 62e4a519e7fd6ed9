"""A reassignment whose JSON names the log dir of the new replica (kafka-reassign-partitions.sh's
log_dirs): the replica does not exist on its broker yet, so the tool retries AlterReplicaLogDirs
(REPLICA_NOT_AVAILABLE) and the broker creates the replica in the dir it was asked for."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from harness.admin import wait_for_brokers
from harness.josefk import BrokerProcess
from harness.wire import call, connect
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey

pytestmark = pytest.mark.cluster


def wait_until(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def knows_topic(bootstrap: str, topic: str) -> bool:
    """Whether this broker's metadata cache has the topic: until then it answers
    AlterReplicaLogDirs with UNKNOWN_TOPIC_OR_PARTITION, which the tool does not retry."""
    sock = connect(bootstrap)
    try:
        cls = request_class(ApiKey.Metadata)
        _cid, response = call(sock, ApiKey.Metadata, 1, topics=[cls.MetadataRequestTopic(name=topic)])
    finally:
        sock.close()
    return response.topics[0].error_code == 0


def test_new_replica_created_in_the_log_dir_asked_for(zookeeper, tmp_path: Path) -> None:
    b2_dirs = [(tmp_path / "b2" / "d1").absolute(), (tmp_path / "b2" / "d2").absolute()]
    common = {"zookeeper.connect": zookeeper.connect, "offsets.topic.replication.factor": "1"}
    brokers = [BrokerProcess(tmp_path / "b1", overrides={"broker.id": "1", **common}),
               BrokerProcess(",".join(map(str, b2_dirs)), overrides={"broker.id": "2", **common})]
    try:
        bootstrap = ",".join(b.bootstrap for b in brokers)
        admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30000)
        wait_for_brokers(admin, (1, 2))  # describe_log_dirs asks each broker in the client's metadata
        admin.create_topics([NewTopic("jbod", replica_assignments={0: [1]})])
        producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
        for i in range(100):
            producer.send("jbod", b"%d" % i, partition=0)
        producer.flush(timeout=30)
        producer.close()
        wait_until(lambda: knows_topic(brokers[1].bootstrap, "jbod"), "broker 2's metadata of the topic")
        # d1 is where broker 2 would put it (both dirs empty, the first wins): ask for d2
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps({"version": 1, "partitions": [
            {"topic": "jbod", "partition": 0, "replicas": [1, 2], "log_dirs": ["any", str(b2_dirs[1])]}]}))

        def tool(*flags: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "josefk", "reassign-partitions", "--bootstrap-server",
                                   bootstrap, "--reassignment-json-file", str(plan), *flags],
                                  capture_output=True, text=True, timeout=120)

        started = tool("--execute", "--timeout", "60000")
        assert started.returncode == 0, started.stdout + started.stderr
        assert (f"Successfully started moving log directory to {b2_dirs[1]} for replica jbod-0 with broker 2 "
                in started.stdout.splitlines())
        def done() -> bool:  # --verify exits 0 whatever the states, as Kafka's: read them
            out = tool("--verify").stdout
            return ("Reassignment of partition jbod-0 is completed." in out
                    and "Reassignment of replica jbod-0-2 completed successfully." in out)

        wait_until(done, "the reassignment and the move")
        verified = tool("--verify").stdout.splitlines()
        assert "Reassignment of replica jbod-0-2 completed successfully." in verified
        assert (b2_dirs[1] / "jbod-0").is_dir() and not (b2_dirs[0] / "jbod-0").exists()
        described = {d["broker"]: d for d in admin.describe_log_dirs({"jbod": [0]})}
        placed = [(x["log_dir"], p["is_future_key"]) for x in described[2]["log_dirs"] for t in x["topics"]
                  for p in t["partitions"]]
        assert placed == [(str(b2_dirs[1]), False)]
        admin.close()
        brokers[0].stop()  # broker 2 alone serves the partition, from d2
        consumer = KafkaConsumer(bootstrap_servers=brokers[1].bootstrap, auto_offset_reset="earliest",
                                 enable_auto_commit=False, consumer_timeout_ms=30000)
        consumer.assign([TopicPartition("jbod", 0)])
        values = []
        for message in consumer:
            values.append(message.value)
            if len(values) == 100:
                break
        consumer.close()
        assert values == [b"%d" % i for i in range(100)]
    finally:
        for broker in brokers:
            broker.stop()
