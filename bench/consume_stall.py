"""Reproduce the 10,000-partition consume stall of broker_bound.py's partitions section and say
which partitions librdkafka never fetched.

    .venv/bin/python bench/consume_stall.py --partitions 10000 --runs 3
    .venv/bin/python bench/consume_stall.py --broker kafka --start beginning

Each run: a fresh broker (josefk, or Kafka 3.9.2 through run.KafkaCluster), one topic of that
many partitions, the bench producer's records of 100 B (its sticky partitioner puts them in a
few dozen partitions), then one consumer with the bench's settings reading every partition
from the start, until all are read or nothing came for --stall seconds. With --start both,
the runs alternate OFFSET_BEGINNING (one ListOffsets per partition first) and offset 0 (no
ListOffsets). Printed per run: records read, the rate, the partitions left unread and how many
partitions librdkafka's statistics still show in fetch state offset-wait at the end (asked
their offset and never fetched).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import run
import workers


def make_topic(b: run.AnyBroker, partitions: int) -> None:
    """run.create_topic with room for Kafka's slow creation of 10,000 partitions."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": b.bootstrap, "socket.timeout.ms": 300_000})
    admin.create_topics([NewTopic("p", partitions, 1)], request_timeout=300)["p"].result(300)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        meta = admin.list_topics("p", timeout=30).topics.get("p")
        if meta and meta.error is None and len(meta.partitions) == partitions \
                and all(p.leader >= 0 for p in meta.partitions.values()):
            return
        time.sleep(0.5)
    raise RuntimeError(f"topic p has no leaders on {b.name}")


def produce(b: run.AnyBroker, records: int, partitions: int) -> list[int]:
    """The records, and the log end offset they left in each partition."""
    from confluent_kafka import Producer

    ends = [0] * partitions

    def delivered(err: Any, msg: Any) -> None:
        if err is None:
            ends[msg.partition()] = max(ends[msg.partition()], msg.offset() + 1)

    producer = Producer(workers.producer_config(b.bootstrap, on_delivery=delivered))
    producer.list_topics("p", timeout=30)
    workers.produce_all(producer, "p", os.urandom(100), records)
    if producer.flush(120):
        raise RuntimeError("records not delivered")
    return ends


def consume(b: run.AnyBroker, ends: list[int], start: str, stall: float) -> dict[str, Any]:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    stats: dict[str, str] = {}
    consumer = Consumer({"bootstrap.servers": b.bootstrap, "group.id": "stall", "enable.auto.commit": False,
                         "fetch.max.bytes": 52_428_800, "max.partition.fetch.bytes": 10_485_760,
                         "fetch.wait.max.ms": 100, "fetch.queue.backoff.ms": workers.FETCH_QUEUE_BACKOFF_MS,
                         "auto.offset.reset": "earliest", "statistics.interval.ms": 3000,
                         "stats_cb": lambda js: stats.update(last=js)})
    consumer.list_topics("p", timeout=30)
    offset = OFFSET_BEGINNING if start == "beginning" else 0
    expected = sum(ends)
    read = [0] * len(ends)
    got = 0
    begun = last = time.monotonic()
    consumer.assign([TopicPartition("p", p, offset) for p in range(len(ends))])
    while got < expected and time.monotonic() - last < stall:
        for msg in consumer.consume(100_000, timeout=0.01):
            partition = msg.partition()
            if msg.error() is None and partition is not None:
                read[partition] += 1
                got += 1
                last = time.monotonic()
    stats.clear()
    deadline = time.monotonic() + 8
    while "last" not in stats and time.monotonic() < deadline:
        consumer.poll(0.5)
    states: dict[str, int] = {}
    if "last" in stats:
        for pid, part in json.loads(stats["last"])["topics"]["p"]["partitions"].items():
            if int(pid) >= 0:
                states[part["fetch_state"]] = states.get(part["fetch_state"], 0) + 1
    consumer.close()
    unread = [p for p, n in enumerate(ends) if read[p] < n]
    return {"start": start, "records": got, "expected": expected, "seconds": round(last - begun, 2),
            "records_s": round(got / max(last - begun, 1e-9)), "unread_partitions": unread,
            "unread_records": expected - got, "offset_wait": states.get("offset-wait", 0),
            "partitions_with_data": sum(1 for n in ends if n), "load1": round(os.getloadavg()[0], 1)}


def one_run(broker: str, partitions: int, records: int, start: str, stall: float) -> dict[str, Any]:
    b: run.AnyBroker = run.KafkaCluster() if broker == "kafka" else run.Broker("josefk")
    try:
        b.start()
        make_topic(b, partitions)
        return consume(b, produce(b, records, partitions), start, stall)
    finally:
        b.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broker", choices=("josefk", "kafka"), default="josefk")
    parser.add_argument("--partitions", type=int, default=10_000)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--start", choices=("beginning", "zero", "both"), default="both")
    parser.add_argument("--runs", type=int, default=1, help="runs of each start")
    parser.add_argument("--stall", type=float, default=workers.STALL_SECONDS,
                        help="seconds without a record after which the consumer gives up")
    args = parser.parse_args()
    if args.partitions < 1 or args.records < 1 or args.runs < 1:
        parser.error("--partitions, --records and --runs must be positive")
    starts = ("beginning", "zero") if args.start == "both" else (args.start,)
    for _ in range(args.runs):
        for start in starts:
            print(json.dumps(one_run(args.broker, args.partitions, args.records, start, args.stall)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
