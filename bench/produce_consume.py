"""Produce and consume N records of S bytes through one josefk broker, with confluent-kafka
(librdkafka) and with kafka-python, and print msgs/s and MB/s for each.

    .venv/bin/python bench/produce_consume.py [--records 200000] [--size 100] [--clients confluent,kafka-python]

The broker runs as a subprocess (durable, on disk, in a temporary directory) on a free
loopback port. This is a benchmark, not a test: it asserts nothing beyond "all records
came back".
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import workers  # noqa: E402

from harness.josefk import BrokerProcess  # noqa: E402


def report(label: str, count: int, size: int, seconds: float) -> None:
    print(f"{label:32s} {count / seconds:12,.0f} msgs/s {count * size / seconds / 1e6:8.2f} MB/s "
          f"({count} records in {seconds:.2f} s)")


def bench_confluent(bootstrap: str, topic: str, count: int, size: int) -> None:
    from confluent_kafka import Consumer, Producer, TopicPartition

    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "acks": 1,
                         "queue.buffering.max.messages": 1_000_000, "batch.size": 1_000_000})
    payload = os.urandom(size)
    start = time.perf_counter()
    workers.produce_all(producer, topic, payload, count, backoff_s=0.01)
    producer.flush(60)
    report("confluent-kafka produce", count, size, time.perf_counter() - start)

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-{uuid.uuid4()}",
                         "enable.auto.commit": False, "fetch.max.bytes": 52428800,
                         "max.partition.fetch.bytes": 10485760,
                         "fetch.queue.backoff.ms": 10})  # see FETCH_QUEUE_BACKOFF_MS in bench/workers.py
    consumer.assign([TopicPartition(topic, 0, 0)])
    received = 0
    start = time.perf_counter()
    while received < count:
        for msg in consumer.consume(100_000, timeout=1.0):
            if msg.error() is None:
                received += 1
    report("confluent-kafka consume", count, size, time.perf_counter() - start)
    consumer.close()


def bench_kafka_python(bootstrap: str, topic: str, count: int, size: int) -> None:
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, acks=1, batch_size=1_000_000)
    payload = os.urandom(size)
    start = time.perf_counter()
    for _ in range(count):
        producer.send(topic, payload)
    producer.flush(60)
    report("kafka-python produce", count, size, time.perf_counter() - start)
    producer.close()

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                             fetch_max_bytes=52428800, max_partition_fetch_bytes=10485760)
    consumer.assign([TopicPartition(topic, 0)])
    consumer.seek(TopicPartition(topic, 0), 0)
    received = 0
    start = time.perf_counter()
    while received < count:
        for records in consumer.poll(timeout_ms=1000, max_records=100_000).values():
            received += len(records)
    report("kafka-python consume", count, size, time.perf_counter() - start)
    consumer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--clients", default="confluent,kafka-python")
    args = parser.parse_args()
    benches = {"confluent": bench_confluent, "kafka-python": bench_kafka_python}
    with tempfile.TemporaryDirectory(prefix="josefk-bench-") as data_dir:
        broker = BrokerProcess(Path(data_dir))
        try:
            for name in args.clients.split(","):
                benches[name](broker.bootstrap, f"bench-{name}", args.records, args.size)
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
