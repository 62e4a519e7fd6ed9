"""Transactions end to end with real clients on a real broker: commit and abort,
consume-transform-produce with offsets sent to the transaction, zombie fencing, and a
transaction aborted by the coordinator when it exceeds its timeout. Read_committed
consumers must see every committed record once and no aborted one."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaConsumer, KafkaProducer
from kafka import TopicPartition as KTopicPartition
from kafka.errors import KafkaError as KPError
from kafka.structs import OffsetAndMetadata

from harness.kafka import DUMP_PROBLEMS, dump_log_segments, segment_files
from harness.wire import wait_until
from tests.conftest import RunningBroker
from tests.prerequisites import require_tools

pytestmark = pytest.mark.integration

TXN_OVERRIDES = {"transaction.state.log.num.partitions": "3",
                 "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500"}


@pytest.fixture
def tbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", TXN_OVERRIDES)
    yield running
    running.stop()


def create_topic(bootstrap: str, name: str, partitions: int = 2) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(timeout=30)


def txn_producer(bootstrap: str, tid: str, **extra: object) -> Producer:
    return Producer({"bootstrap.servers": bootstrap, "transactional.id": tid, "linger.ms": 5, **extra})


def committed_value(msg: Message) -> bytes:
    """The value of a record these tests wrote: every one has a value."""
    value = msg.value()
    assert value is not None, f"a null record at offset {msg.offset()}"
    return value


def consume_all(bootstrap: str, topic: str, isolation: str, expected: int, group: str | None = None) -> list[bytes]:
    """Read `topic` from the beginning until `expected` values or 30 s of trying, then a
    little longer to catch anything beyond."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group or f"reader-{uuid.uuid4()}",
                         "auto.offset.reset": "earliest", "isolation.level": isolation,
                         "enable.auto.commit": False})
    consumer.subscribe([topic])
    values: list[bytes] = []
    empty_polls = 0
    try:
        deadline_polls = 300
        while deadline_polls and (len(values) < expected or empty_polls < 5):
            deadline_polls -= 1
            msg = consumer.poll(0.1)
            if msg is None:
                empty_polls += 1
                continue
            if err := msg.error():
                if err.code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(err)
            empty_polls = 0
            values.append(committed_value(msg))
    finally:
        consumer.close()
    return values


def test_commit_and_abort_with_librdkafka(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "payments")
    producer = txn_producer(bootstrap, "payments-writer")
    producer.init_transactions(30)
    for batch, commit in (("a", True), ("b", False), ("c", True)):
        producer.begin_transaction()
        for i in range(10):
            producer.produce("payments", f"{batch}{i}".encode(), partition=i % 2)
        producer.flush(10)
        if commit:
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)
    committed = {f"{b}{i}".encode() for b in "ac" for i in range(10)}
    got = consume_all(bootstrap, "payments", "read_committed", 20)
    assert sorted(got) == sorted(committed)  # each committed record once, no aborted one
    everything = consume_all(bootstrap, "payments", "read_uncommitted", 30)
    assert sorted(everything) == sorted(committed | {f"b{i}".encode() for i in range(10)})

    # Kafka's own DumpLogSegments decodes josefk's __transaction_state records.
    require_tools("java")
    files = [f for f in segment_files(tbroker.config.log_dirs[0]) if f.parent.name.startswith("__transaction_state")
             and f.suffix == ".log"]
    dump = dump_log_segments(files, "--transaction-log-decoder")
    assert not [line for line in dump.splitlines() if DUMP_PROBLEMS.search(line)], dump[-3000:]
    states = re.findall(r"transactionalId=payments-writer.*?state=(\w+)", dump)
    assert states == ["Empty", "Ongoing", "PrepareCommit", "CompleteCommit", "Ongoing", "PrepareAbort",
                      "CompleteAbort", "Ongoing", "PrepareCommit", "CompleteCommit"], dump[-3000:]


def test_open_transaction_holds_read_committed_back(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "held", partitions=1)
    plain = Producer({"bootstrap.servers": bootstrap})
    producer = txn_producer(bootstrap, "held-writer")
    producer.init_transactions(30)
    producer.begin_transaction()
    producer.produce("held", b"in-txn")
    producer.flush(10)
    plain.produce("held", b"after")
    plain.flush(10)
    # The last stable offset is the open transaction's first offset: nothing past it.
    assert consume_all(bootstrap, "held", "read_committed", 0) == []
    assert sorted(consume_all(bootstrap, "held", "read_uncommitted", 2)) == [b"after", b"in-txn"]
    producer.commit_transaction(30)
    assert consume_all(bootstrap, "held", "read_committed", 2) == [b"in-txn", b"after"]


def test_consume_transform_produce_commits_offsets_with_the_transaction(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "in", partitions=1)
    create_topic(bootstrap, "out", partitions=1)
    source = Producer({"bootstrap.servers": bootstrap})
    for i in range(20):
        source.produce("in", str(i).encode())
    source.flush(10)

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "doubler", "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, "isolation.level": "read_committed"})
    consumer.subscribe(["in"])
    producer = txn_producer(bootstrap, "doubler-txn")
    producer.init_transactions(30)

    def run_transaction(count: int, commit: bool) -> None:
        producer.begin_transaction()
        taken = 0
        last = None
        while taken < count:
            msg = consumer.poll(1.0)
            if msg is None or msg.error():
                continue
            value = msg.value()
            assert value is not None, "the test produced every input record with a value"
            producer.produce("out", str(int(value) * 2).encode())
            taken += 1
            last = msg
        offset = last.offset() if last is not None else None
        assert offset is not None
        producer.send_offsets_to_transaction([TopicPartition("in", 0, offset + 1)],
                                             consumer.consumer_group_metadata(), 30)
        if commit:
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)

    try:
        run_transaction(10, commit=True)
        committed = consumer.committed([TopicPartition("in", 0)], timeout=10)
        assert committed[0].offset == 10
        run_transaction(5, commit=False)
        committed = consumer.committed([TopicPartition("in", 0)], timeout=10)
        assert committed[0].offset == 10  # the aborted transaction's offsets never count
    finally:
        consumer.close()
    assert sorted(int(v) for v in consume_all(bootstrap, "out", "read_committed", 10)) == \
        [i * 2 for i in range(10)]


def test_second_producer_with_the_same_id_fences_the_first(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "fenced", partitions=1)
    zombie = txn_producer(bootstrap, "shared-id")
    zombie.init_transactions(30)
    zombie.begin_transaction()
    zombie.produce("fenced", b"zombie")
    zombie.flush(10)
    successor = txn_producer(bootstrap, "shared-id")
    successor.init_transactions(30)  # aborts the zombie's open transaction
    successor.begin_transaction()
    successor.produce("fenced", b"successor")
    successor.commit_transaction(30)
    with pytest.raises(KafkaException) as failed:
        zombie.commit_transaction(30)
    assert failed.value.args[0].fatal()
    assert consume_all(bootstrap, "fenced", "read_committed", 1) == [b"successor"]


def test_coordinator_aborts_a_transaction_past_its_timeout(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "slow", partitions=1)
    producer = txn_producer(bootstrap, "slow-writer", **{"transaction.timeout.ms": 1500})
    producer.init_transactions(30)
    producer.begin_transaction()
    producer.produce("slow", b"late")
    producer.flush(10)
    after = Producer({"bootstrap.servers": bootstrap})
    after.produce("slow", b"after")
    after.flush(10)
    # The coordinator aborts it; read_committed consumers then move past it.
    wait_until(lambda: consume_all(bootstrap, "slow", "read_committed", 1) == [b"after"],
               "the timed-out transaction aborted", timeout=30)
    with pytest.raises(KafkaException):
        producer.commit_transaction(10)


def test_kafka_python_transactions(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "kp", partitions=1)
    producer = KafkaProducer(bootstrap_servers=bootstrap, transactional_id="kp-writer")
    try:
        producer.init_transactions()
        producer.begin_transaction()
        for i in range(5):
            producer.send("kp", f"ok{i}".encode())
        producer.commit_transaction()
        producer.begin_transaction()
        producer.send("kp", b"dropped")
        producer.abort_transaction()
        producer.begin_transaction()
        producer.send("kp", b"with-offsets")
        producer.send_offsets_to_transaction({KTopicPartition("kp", 0): OffsetAndMetadata(3, "", -1)}, "kp-group")
        producer.commit_transaction()
    finally:
        producer.close()
    consumer = KafkaConsumer("kp", bootstrap_servers=bootstrap, group_id="kp-group",
                             isolation_level="read_committed", auto_offset_reset="earliest",
                             enable_auto_commit=False, consumer_timeout_ms=3000)
    try:
        # The group's committed offset came with the transaction: reading resumes at 3.
        assert consumer.committed(KTopicPartition("kp", 0)) == 3
        values = [m.value for m in consumer]
    except KPError:
        raise
    finally:
        consumer.close()
    assert values == [b"ok3", b"ok4", b"with-offsets"]
    assert sorted(consume_all(bootstrap, "kp", "read_committed", 6)) == sorted(
        [f"ok{i}".encode() for i in range(5)] + [b"with-offsets"])
