"""Client quotas: the rate a client gets against the rate configured, on one broker.

    .venv/bin/python bench/quotas.py [--seconds 60]

One josefk broker (a subprocess, loopback, Kafka's quota windows: quota.window.num=11 of
quota.window.size.seconds=1). For each setting, a quota is set with AlterClientQuotas on a
fresh client-id; confluent-kafka produces 1 KB records (batch.size 16 KB) as fast as it can,
or consumes a topic filled beforehand, for `--seconds`. Prints, per setting, the rate over
the whole run (which includes the first burst Kafka's rate lets through: up to
quota.window.num - 1 windows' worth), the rate after the first throttle (the steady state),
and the largest throttle_time_ms the client was told.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.josefk import BrokerProcess  # noqa: E402
from harness.wire import call, connect, create_topic  # noqa: E402
from josefk.cli.kafka_messages import request_class  # noqa: E402
from josefk.protocol.apis import ApiKey  # noqa: E402

RECORD = 1000
SETTINGS = [("producer_byte_rate", 100 * 1024), ("producer_byte_rate", 500 * 1024),
            ("producer_byte_rate", 2 * 1024 * 1024), ("consumer_byte_rate", 500 * 1024),
            ("consumer_byte_rate", 2 * 1024 * 1024)]


def set_quota(bootstrap: str, client_id: str, key: str, value: float) -> None:
    cls = request_class(ApiKey.AlterClientQuotas)
    with connect(bootstrap) as sock:
        _, response = call(sock, ApiKey.AlterClientQuotas, 1, validate_only=False, entries=[cls.EntryData(
            entity=[cls.EntryData.EntityData(entity_type="client-id", entity_name=client_id)],
            ops=[cls.EntryData.OpData(key=key, value=value, remove=False)])])
    assert response.entries[0].error_code == 0, response


def produce(bootstrap: str, topic: str, client_id: str, seconds: float) -> tuple[list, list]:
    from confluent_kafka import Producer

    deliveries: list[tuple[float, int]] = []
    throttles: list[tuple[float, float]] = []
    producer = Producer({"bootstrap.servers": bootstrap, "client.id": client_id, "linger.ms": 5,
                         "batch.size": 16384, "queue.buffering.max.messages": 2000,
                         "throttle_cb": lambda e: throttles.append((time.monotonic(), e.throttle_time))})
    value = b"x" * RECORD
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            producer.produce(topic, value, on_delivery=lambda err, msg: deliveries.append(
                (time.monotonic(), len(msg.value() or b""))) if err is None else None)
        except BufferError:
            producer.poll(0.02)
        producer.poll(0)
    producer.purge()  # what is still queued would be delivered after the measured span
    producer.flush(60)
    return deliveries, throttles


def fill(bootstrap: str, topic: str, total: int) -> None:
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "client.id": "filler", "linger.ms": 20,
                         "batch.size": 16384})
    for _ in range(total // RECORD):
        while True:
            try:
                producer.produce(topic, b"y" * RECORD)
                break
            except BufferError:
                producer.poll(0.05)
        producer.poll(0)
    producer.flush(60)


def consume(bootstrap: str, topic: str, client_id: str, seconds: float) -> tuple[list, list]:
    from confluent_kafka import Consumer

    deliveries: list[tuple[float, int]] = []
    throttles: list[tuple[float, float]] = []
    consumer = Consumer({"bootstrap.servers": bootstrap, "client.id": client_id, "group.id": client_id,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False,
                         "throttle_cb": lambda e: throttles.append((time.monotonic(), e.throttle_time))})
    consumer.subscribe([topic])
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            msg = consumer.poll(0.1)
            if msg is not None and msg.error() is None:
                deliveries.append((time.monotonic(), len(msg.value() or b"")))
    finally:
        consumer.close()
    return deliveries, throttles


def rates(deliveries: list, throttles: list, started: float, seconds: float) -> tuple[float, float, float]:
    end = started + seconds
    deliveries = [(t, n) for t, n in deliveries if t < end]
    whole = sum(n for _, n in deliveries) / seconds
    first = next((t for t, ms in throttles if ms > 0), None)
    steady = (sum(n for t, n in deliveries if t >= first) / (end - first)
              if first is not None and end - first > 1 else float("nan"))
    return whole, steady, max((ms for _, ms in throttles), default=0.0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="josefk-bench-quotas-") as work:
        broker = BrokerProcess(Path(work) / "logs")
        try:
            bootstrap = broker.bootstrap
            print(f"| quota | configured | whole run ({args.seconds:.0f} s) | after the first throttle "
                  "| ratio (steady/configured) | max throttle_time_ms |")
            print("|---|---|---|---|---|---|")
            for i, (key, value) in enumerate(SETTINGS):
                topic, client_id = f"bench-q{i}", f"bench-q{i}"
                with connect(bootstrap) as sock:
                    create_topic(sock, topic, 1)
                if key == "consumer_byte_rate":
                    fill(bootstrap, topic, int(value * (args.seconds + 12) * 1.2))
                set_quota(bootstrap, client_id, key, value)
                started = time.monotonic()
                run = produce if key == "producer_byte_rate" else consume
                deliveries, throttles = run(bootstrap, topic, client_id, args.seconds)
                whole, steady, max_throttle = rates(deliveries, throttles, started, args.seconds)
                print(f"| {key} | {value / 1024:.0f} KB/s | {whole / 1024:.0f} KB/s | {steady / 1024:.0f} KB/s "
                      f"| {steady / value:.2f} | {max_throttle:.0f} |", flush=True)
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
