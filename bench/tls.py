"""Produce and consume throughput over TLS against PLAINTEXT, on one broker.

    .venv/bin/python bench/tls.py [--records 200000] [--size 1000] [--rounds 3]

One broker (a subprocess, on disk, loopback) with a PLAINTEXT and an SSL listener (a
certificate made for the run). Each round, confluent-kafka (librdkafka) produces
`--records` records of `--size` bytes to a new one-partition topic through one listener
and then consumes them all back through the same listener, alternating the listeners.
Prints the median produce and consume rates (MB/s) per listener and the SSL/PLAINTEXT
ratios. TLS costs the broker its encryption and, on fetch, zero copy: a TLS transport
cannot take sendfile, so log regions are read and written through it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import workers  # noqa: E402

from harness.josefk import BrokerProcess  # noqa: E402
from harness.net import free_port  # noqa: E402
from tests.security_certs import PASSWORD, make_certs  # noqa: E402


def produce(conf: dict, topic: str, count: int, size: int) -> float:
    from confluent_kafka import Producer

    producer = Producer({**conf, "acks": 1, "linger.ms": 5, "batch.size": 1_000_000,
                         "queue.buffering.max.messages": 1_000_000})
    payload = os.urandom(size)
    start = time.perf_counter()
    workers.produce_all(producer, topic, payload, count, backoff_s=0.01)
    assert producer.flush(120) == 0, "records left unsent"
    return count * size / (time.perf_counter() - start) / 1e6


def consume(conf: dict, topic: str, count: int, size: int) -> float:
    from confluent_kafka import Consumer

    consumer = Consumer({**conf, "group.id": f"bench-{topic}", "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, "fetch.max.bytes": 52_428_800})
    consumer.subscribe([topic])
    got = 0
    start = None
    deadline = time.monotonic() + 300
    while got < count and time.monotonic() < deadline:
        for msg in consumer.consume(10_000, 1.0):
            if msg.error() is None:
                start = start or time.perf_counter()
                got += 1
    elapsed = time.perf_counter() - (start or time.perf_counter())
    consumer.close()
    assert got == count, f"consumed {got} of {count}"
    return count * size / elapsed / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        certs = make_certs(Path(tmp) / "certs")
        port, ssl_port = free_port(), free_port()
        broker = BrokerProcess(Path(tmp) / "logs", port=port, overrides={
            "listeners": f"PLAINTEXT://127.0.0.1:{port},SSL://127.0.0.1:{ssl_port}",
            "ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
            "ssl.keystore.password": PASSWORD, "ssl.key.password": PASSWORD}, output=Path(tmp) / "broker.log")
        confs = {"PLAINTEXT": {"bootstrap.servers": f"127.0.0.1:{port}"},
                 "SSL": {"bootstrap.servers": f"127.0.0.1:{ssl_port}", "security.protocol": "SSL",
                         "ssl.ca.location": str(certs.ca)}}
        rates: dict[str, dict[str, list[float]]] = {name: {"produce": [], "consume": []} for name in confs}
        try:
            for round_ in range(args.rounds):
                order = list(confs) if round_ % 2 == 0 else list(reversed(confs))
                for name in order:
                    topic = f"tls-{uuid.uuid4().hex[:8]}"
                    rates[name]["produce"].append(produce(confs[name], topic, args.records, args.size))
                    rates[name]["consume"].append(consume(confs[name], topic, args.records, args.size))
                    print(f"round {round_ + 1} {name:9s} produce {rates[name]['produce'][-1]:7.1f} MB/s  "
                          f"consume {rates[name]['consume'][-1]:7.1f} MB/s", flush=True)
        finally:
            broker.stop()
    median = {name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()}
    print(f"\n{args.records} records of {args.size} bytes, median of {args.rounds} rounds")
    for name, m in median.items():
        print(f"{name:9s} produce {m['produce']:7.1f} MB/s  consume {m['consume']:7.1f} MB/s")
    print(f"SSL/PLAINTEXT produce {median['SSL']['produce'] / median['PLAINTEXT']['produce']:.2f}  "
          f"consume {median['SSL']['consume'] / median['PLAINTEXT']['consume']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
