"""A librdkafka group while __consumer_offsets is below min.insync.replicas: every
OffsetCommit fails with COORDINATOR_NOT_AVAILABLE (Kafka's answer to NOT_ENOUGH_REPLICAS),
none of them is acknowledged, and the last acknowledged commit reads back unchanged once the
other replicas return.

Whether the member also keeps its session meanwhile is not asserted: librdkafka marks the
coordinator dead on each failed commit and rediscovers it behind its parked fetch, and whether
a heartbeat gets through depends on timing, on Kafka as on josefk (a fresh-clone CI run under
two concurrent suites lost it). tests/test_socket_server.py pins what josefk does about it:
one request in process per connection, as Kafka's muted channels."""

from __future__ import annotations

import threading
import time

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from kafka import KafkaProducer
from kafka.admin import NewTopic

from tests.test_cluster import Cluster

pytestmark = pytest.mark.cluster

SESSION_MS = 10_000
COMMIT_EVERY_S = 2.5  # as an auto-committing consumer's commits, and the retries librdkafka adds


@pytest.fixture
def cluster(zookeeper, tmp_path):  # noqa: F811
    running = Cluster(zookeeper, tmp_path, {"min.insync.replicas": "2", "offsets.topic.num.partitions": "1",
                                            "group.initial.rebalance.delay.ms": "0"})
    yield running
    running.stop()


class Member:
    """A confluent-kafka consumer polled by its own thread; records what the group did to it."""

    def __init__(self, bootstrap: str) -> None:
        self.events: list[str] = []
        self.commit_errors: list[int] = []
        self.commits_acknowledged = 0
        self.once: list[TopicPartition] | None = None  # committed by the polling thread, once
        self.consumed = 0
        self.explicit: list[TopicPartition] | None = None  # committed every COMMIT_EVERY_S when set
        self.stop = threading.Event()
        self.consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "g-settled",
                                  "auto.offset.reset": "earliest", "enable.auto.commit": False,
                                  "session.timeout.ms": SESSION_MS, "on_commit": self._committed})
        self.consumer.subscribe(["data"], on_assign=lambda _c, ps: self.events.append(f"assign {len(ps)}"),
                                on_revoke=lambda _c, ps: self.events.append(f"revoke {len(ps)}"),
                                on_lost=lambda _c, ps: self.events.append(f"lost {len(ps)}"))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _committed(self, err: KafkaError | None, _partitions: list[TopicPartition]) -> None:
        if err is not None:
            self.commit_errors.append(err.code())
        else:
            self.commits_acknowledged += 1

    def _run(self) -> None:
        last_commit = 0.0
        while not self.stop.is_set():
            message = self.consumer.poll(0.2)
            if message is not None and not message.error():
                self.consumed += 1
            if self.once is not None:
                once, self.once = self.once, None
                self.consumer.commit(offsets=once, asynchronous=True)
            if self.explicit is not None and time.monotonic() - last_commit >= COMMIT_EVERY_S:
                last_commit = time.monotonic()
                self.consumer.commit(offsets=self.explicit, asynchronous=True)

    def halt(self) -> None:
        self.stop.set()
        self.thread.join(30)


def read_committed(consumer: Consumer) -> list[int]:
    """The group's committed offsets, asked again while the coordinator moves back to the
    preferred leader (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS are retriable)."""
    deadline = time.time() + 60
    while True:
        try:
            return [tp.offset for tp in consumer.committed([TopicPartition("data", p) for p in range(3)], timeout=10)]
        except KafkaException as e:
            moving = e.args[0].code() in (KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
                                          KafkaError.COORDINATOR_NOT_AVAILABLE)
            if not (moving or e.args[0].retriable()) or time.time() > deadline:
                raise


def test_no_commit_is_acknowledged_below_min_isr_and_the_last_one_survives(cluster: Cluster) -> None:
    cluster.create_topic(NewTopic("data", num_partitions=-1, replication_factor=-1,
                                  replica_assignments={p: [1, 2, 3] for p in range(3)}))
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    for i in range(300):
        producer.send("data", str(i).encode(), partition=i % 3)
    producer.flush(30)
    producer.close()
    member = Member(cluster.bootstrap)
    try:
        cluster.wait_for(lambda: member.consumed == 300, "the member consumed everything", timeout=60)
        committed = [TopicPartition("data", p, 100) for p in range(3)]
        member.once = committed
        cluster.wait_for(lambda: member.commits_acknowledged == 1, "an acknowledged commit")
        assert member.events == ["assign 3"]

        for broker_id in (2, 3):
            cluster.brokers[broker_id].kill()
        cluster.wait_for(lambda: cluster.state("__consumer_offsets", 0)["isr"] == [1], "offsets ISR of [1]")
        failed_before = len(member.commit_errors)
        member.explicit = [TopicPartition("data", p, 7) for p in range(3)]
        cluster.wait_for(lambda: KafkaError.COORDINATOR_NOT_AVAILABLE in member.commit_errors[failed_before:],
                         "a commit refused COORDINATOR_NOT_AVAILABLE", timeout=60)
        member.explicit = None
        assert member.commits_acknowledged == 1  # none of the commits below min.isr was
    finally:
        member.halt()
        member.consumer.close()  # drops the commits librdkafka still retries: never acknowledged

    for broker_id in (2, 3):
        cluster.start(broker_id)
    cluster.wait_for(lambda: len(cluster.state("__consumer_offsets", 0)["isr"]) == 3, "offsets ISR of 3", timeout=60)
    reader = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": "g-settled", "enable.auto.commit": False})
    try:
        assert read_committed(reader) == [100, 100, 100]  # the last acknowledged commit
    finally:
        reader.close()
