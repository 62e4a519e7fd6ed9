"""`josefk e2e-latency`: Kafka's kafka-e2e-latency.sh (EndToEndLatency).

One message at a time: send it, wait for its acknowledgement, poll until a consumer reading the
end of the topic gets it back; the time from send to receipt is the message's end-to-end latency.
The arguments are Kafka's positional ones and the output is Kafka's: a progress line every 1000
messages, the average and the 50th, 99th and 99.9th percentiles in whole milliseconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    error_text,
    kafka_client,
    load_properties,
    parser,
    quiet_client_logs,
)

POLL_TIMEOUT_MS = 60_000
DEFAULT_NUM_PARTITIONS = 1
DEFAULT_REPLICATION_FACTOR = 1


def build_parser() -> argparse.ArgumentParser:
    p = parser("e2e-latency", "Measure the end-to-end latency of single messages through Kafka "
                              "(kafka-e2e-latency.sh), e.g. `josefk e2e-latency localhost:9092 test 10000 1 20`.")
    p.add_argument("broker_list", help="location of the bootstrap broker for both the producer and the consumer")
    p.add_argument("topic", help="topic name used by both the producer and the consumer to send/receive messages")
    p.add_argument("num_messages", type=int, help="# messages to send")
    p.add_argument("producer_acks", help="the producer's acks: 1 or all")
    p.add_argument("message_size_bytes", type=int, help="size of each message in bytes")
    p.add_argument("properties_file", nargs="?", help="[optional] client properties for the producer, the "
                                                      "consumer and the admin client")
    return p


def percentiles(latencies_ms: list[int]) -> tuple[int, int, int]:
    """Kafka's: the sorted latency at index floor(n * q) for q = 0.5, 0.99, 0.999."""
    ordered = sorted(latencies_ms)
    return ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.99)], ordered[int(len(ordered) * 0.999)]


def _ensure_topic(consumer: Any, bootstrap: str, topic: str, props: dict[str, str]) -> None:
    if topic in consumer.topics():
        return
    print(f'Topic "{topic}" does not exist. Will create topic with {DEFAULT_NUM_PARTITIONS} partition(s) and '
          f"replication factor = {DEFAULT_REPLICATION_FACTOR}")
    admin = admin_client(bootstrap, props)
    try:
        admin.create_topics([NewTopic(topic, DEFAULT_NUM_PARTITIONS, DEFAULT_REPLICATION_FACTOR)])
    except Exception:
        print(f"Creation of topic {topic} failed")
        raise
    finally:
        admin.close()


def _read_end(consumer: Any, topic: str) -> None:
    """Assign every partition of the topic and position the consumer at its end."""
    deadline = time.monotonic() + POLL_TIMEOUT_MS / 1000
    while not (partitions := consumer.partitions_for_topic(topic)):
        if time.monotonic() > deadline:
            raise ToolError(f"Topic {topic} has no partitions")
        consumer.topics()  # a metadata refresh
    assigned = [TopicPartition(topic, p) for p in sorted(partitions)]
    consumer.assign(assigned)
    consumer.seek_to_end(*assigned)
    for tp in assigned:
        consumer.position(tp)


def _validate(consumer: Any, sent: bytes, batch: dict[Any, list[Any]]) -> None:
    records = [r for part in batch.values() for r in part]
    if not records:
        consumer.commit()
        raise ToolError(f"poll() timed out before finding a result (timeout:[{POLL_TIMEOUT_MS}])")
    read = records[0].value
    if read != sent:
        consumer.commit()
        raise ToolError(f"The message read [{read.decode('utf-8', 'replace')}] did not match the message sent "
                        f"[{sent.decode('utf-8', 'replace')}]")
    if len(records) != 1:
        consumer.commit()
        raise ToolError(f"Only one result was expected during this test. We found [{len(records)}]")


def run(args: argparse.Namespace) -> None:
    props = load_properties(args.properties_file) if args.properties_file and args.properties_file.strip() else {}
    consumer = producer = None
    try:
        consumer = kafka_client(KafkaConsumer, args.broker_list, props,
                                group_id=f"test-group-{int(time.time() * 1000)}", enable_auto_commit=False,
                                auto_offset_reset="latest", fetch_max_wait_ms=0)
        producer = kafka_client(KafkaProducer, args.broker_list, props, linger_ms=0,
                                acks="all" if args.producer_acks == "all" else 1)
        _ensure_topic(consumer, args.broker_list, args.topic, props)
        _read_end(consumer, args.topic)
        rng = random.Random(0)
        total_ns = 0
        latencies: list[int] = []
        for i in range(args.num_messages):
            message = bytes([rng.randrange(26) + 65]) * args.message_size_bytes
            begin = time.perf_counter_ns()
            producer.send(args.topic, value=message).get(timeout=POLL_TIMEOUT_MS / 1000)
            batch = consumer.poll(timeout_ms=POLL_TIMEOUT_MS)
            elapsed = time.perf_counter_ns() - begin
            _validate(consumer, message, batch)
            if i % 1000 == 0:
                print(f"{i}\t{elapsed / 1000.0 / 1000.0}", flush=True)
            total_ns += elapsed
            latencies.append(elapsed // 1_000_000)
        print(f"Avg latency: {total_ns / args.num_messages / 1000.0 / 1000.0:.4f} ms")
        p50, p99, p999 = percentiles(latencies)
        print(f"Percentiles: 50th = {p50}, 99th = {p99}, 99.9th = {p999}")
    finally:
        if producer is not None:
            producer.close()
        if consumer is not None:
            consumer.close()


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.producer_acks not in ("1", "all"):
        p.error("Latency testing requires synchronous acknowledgement. Please use 1 or all")
    if args.num_messages < 1:
        p.error("num_messages must be at least 1")
    if args.message_size_bytes < 0:
        p.error("message_size_bytes must not be negative")
    quiet_client_logs()
    try:
        run(args)
        return 0
    except BrokenPipeError:
        raise  # `josefk` exits 141, as every tool does when its reader goes away
    except Exception as e:  # noqa: BLE001 - every failure becomes one line, as Kafka's tool prints it
        print(error_text(e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
