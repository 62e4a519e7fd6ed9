"""What the metrics cost produce throughput: one run, brokers side by side, rounds alternated.

    .venv/bin/python bench/metrics_cost.py [--records 200000] [--rounds 3] [--baseline-python PATH]

Brokers (subprocesses, on disk, loopback): "on" is this tree with metrics.http.listener set
and /metrics scraped every second during the run (Prometheus scrapes every 15-60 s);
"off" is this tree with the listener off (the counters still count: only scrapes differ);
"baseline", when --baseline-python names another build's interpreter (e.g. the main
branch's .venv/bin/python), is a build without metrics at all. Each round produces
`--records` records of `--size` bytes with confluent-kafka to a new topic on each broker in
turn, for two producer settings: large batches (linger.ms=5, batch.size=1 MB, as
bench/produce_consume.py) and small requests (linger.ms=0, batch.size=16 KB, so the
per-request path, where the request metrics are, weighs most). Prints, for each broker,
the median msgs/s and the median broker CPU time (user + system, from /proc) per million
records, and their ratios to the first broker's. On a busy machine the CPU time is the
steadier measure: wall-clock rates swing with whatever else runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import workers  # noqa: E402

from harness.josefk import BrokerProcess  # noqa: E402
from harness.net import free_port  # noqa: E402

SETTINGS = {
    "large batches": {"linger.ms": 5, "batch.size": 1_000_000},
    "small requests": {"linger.ms": 0, "batch.size": 16_384},
}


def produce(bootstrap: str, topic: str, count: int, size: int, settings: dict) -> float:
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": bootstrap, "acks": 1, "queue.buffering.max.messages": 1_000_000,
                         **settings})
    payload = os.urandom(size)
    start = time.perf_counter()
    workers.produce_all(producer, topic, payload, count, backoff_s=0.01)
    assert producer.flush(120) == 0, "records left unsent"
    return count / (time.perf_counter() - start)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def scrape_every_second(port: int, stop: threading.Event, scrapes: list[int]) -> None:
    while not stop.wait(1.0):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            response.read()
        scrapes[0] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline-python", help="another build's python (a josefk without metrics)")
    args = parser.parse_args()
    metrics_port = free_port()
    with tempfile.TemporaryDirectory(prefix="josefk-metrics-cost-") as data_dir:
        brokers: dict[str, BrokerProcess] = {}
        try:
            if args.baseline_python:
                brokers["baseline"] = BrokerProcess(Path(data_dir) / "baseline",
                                                    launcher=(args.baseline_python, "-m", "josefk"))
            brokers["off"] = BrokerProcess(Path(data_dir) / "off")
            brokers["on"] = BrokerProcess(Path(data_dir) / "on",
                                          overrides={"metrics.http.listener": f"127.0.0.1:{metrics_port}"})
            rates: dict[tuple[str, str], list[float]] = {}
            cpu: dict[tuple[str, str], list[float]] = {}
            stop = threading.Event()
            scrapes = [0]
            scraper = threading.Thread(target=scrape_every_second, args=(metrics_port, stop, scrapes), daemon=True)
            scraper.start()
            for round_ in range(args.rounds):
                for setting, config in SETTINGS.items():
                    order = list(brokers) if round_ % 2 == 0 else list(reversed(brokers))
                    for name in order:
                        pid = brokers[name].proc.pid
                        before = cpu_seconds(pid)
                        rate = produce(brokers[name].bootstrap, f"cost-{round_}-{setting.split()[0]}", args.records,
                                       args.size, config)
                        used = (cpu_seconds(pid) - before) * 1e6 / args.records
                        rates.setdefault((setting, name), []).append(rate)
                        cpu.setdefault((setting, name), []).append(used)
                        print(f"round {round_} {setting:15s} {name:8s} {rate:10,.0f} msgs/s "
                              f"{used:6.2f} CPU s per M records", flush=True)
            stop.set()
            scraper.join()
            print(f"\n/metrics scraped {scrapes[0]} times during the run")
            first = next(iter(brokers))
            for setting in SETTINGS:
                reference = statistics.median(rates[(setting, first)])
                cpu_reference = statistics.median(cpu[(setting, first)])
                for name in brokers:
                    median = statistics.median(rates[(setting, name)])
                    cpu_median = statistics.median(cpu[(setting, name)])
                    print(f"{setting:15s} {name:8s} median {median:10,.0f} msgs/s (x{median / reference:.3f}), "
                          f"{cpu_median:6.2f} CPU s per M records (x{cpu_median / cpu_reference:.3f}) vs {first}")
        finally:
            for broker in brokers.values():
                broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
