"""Transactional produce throughput, josefk beside Apache Kafka 3.9.2 (make bench-transactions).

    .venv/bin/python bench/transactions.py [--seconds 10] [--size 100] [--per-txn 1,100,10000]

One confluent-kafka (librdkafka) transactional producer per step: begin a transaction,
produce N records of `--size` random bytes to a one-partition topic, commit; again until
`--seconds` have passed (at least two transactions). A commit is what makes a small
transaction slow: AddPartitionsToTxn, EndTxn, the coordinator's PrepareCommit append and
the markers it writes before the next transaction may begin. Reported per step: records/s,
transactions/s and the one-minute load average at its end; each step checks that its
partition ends where its transactions put it (records plus one commit marker each). Both brokers run on disk in a
temp dir with their default flush policy (no fsync per message): josefk as a subprocess of
this tree, Kafka in ZooKeeper mode through harness/kafka.py with Kafka's own JVM flags. The
brokers alternate which goes first per step, so neither always runs on the warmer machine.
Writes its section of docs/benchmarks.md (kept there when bench/run.py rewrites the rest)
unless --no-docs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import report  # noqa: E402
import workers  # noqa: E402

from harness.josefk import BrokerProcess  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.zookeeper import ZooKeeperServer  # noqa: E402


def load1() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def create_topic(bootstrap: str, topic: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(timeout=60)


def log_end_offset(bootstrap: str, topic: str) -> int:
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-check"})
    try:
        return int(consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=30)[1])
    finally:
        consumer.close()


def run_step(bootstrap: str, topic: str, per_txn: int, size: int, seconds: float) -> dict[str, Any]:
    """Transactions of `per_txn` records until `seconds` pass; one warm-up transaction first
    (it also finds the coordinator and creates __transaction_state on the first step)."""
    from confluent_kafka import Producer

    create_topic(bootstrap, topic)
    producer = Producer(workers.producer_config(bootstrap, **{
        "transactional.id": f"bench-{topic}", "acks": "all", "enable.idempotence": True}))
    producer.init_transactions(60)
    payload = os.urandom(size)

    def one() -> None:
        producer.begin_transaction()
        workers.produce_all(producer, topic, payload, per_txn)
        producer.commit_transaction(60)

    one()
    txns = 0
    start = time.perf_counter()
    while txns < 2 or time.perf_counter() - start < seconds:
        one()
        txns += 1
    elapsed = time.perf_counter() - start
    expected = (txns + 1) * (per_txn + 1)  # with the warm-up; one marker per transaction
    end = log_end_offset(bootstrap, topic)
    if end != expected:
        raise RuntimeError(f"{topic} ends at offset {end}, not {expected}: records were lost or duplicated")
    return {"per_txn": per_txn, "txns": txns, "seconds": elapsed, "msgs_s": txns * per_txn / elapsed,
            "txns_s": txns / elapsed, "load1": load1()}


DOC = """## Transactional produce (1 producer, 1 partition, {size} B, commit per transaction)

`.venv/bin/python bench/transactions.py{argv}` (`make bench-transactions`), {seconds:g} s per
step, {total:.0f} s in all on {cores} cores shared with whatever else ran (the load averages
say how busy the machine was; one run, and small transactions' rates swing by up to 2x
between runs on a busy machine). One confluent-kafka transactional producer (acks=all,
idempotence, linger.ms=5) begins a transaction, produces its records, commits, and again;
each step then checks the partition's end offset (every record and one marker per
transaction). Both brokers run their transaction coordinator with its defaults
(`__transaction_state` with 50 partitions).

{table}
"""


def render(results: dict[tuple[str, int], dict[str, Any]], sizes: list[int]) -> str:
    lines = ["| records per transaction | josefk msgs/s | Kafka msgs/s | josefk / Kafka | josefk txns/s | "
             "Kafka txns/s | load1 at the end (josefk, Kafka) |", "|---:|---:|---:|---:|---:|---:|---|"]
    for per_txn in sizes:
        j, k = results[("josefk", per_txn)], results[("kafka", per_txn)]
        ratio = j["msgs_s"] / k["msgs_s"]
        lines.append(f"| {per_txn:,} | {j['msgs_s']:,.0f} | {k['msgs_s']:,.0f} | **{ratio:.2f}x** | "
                     f"{j['txns_s']:,.1f} | {k['txns_s']:,.1f} | {j['load1']:.2f}, {k['load1']:.2f} |")
    return "\n".join(lines)



@dataclass(frozen=True)
class Running:
    bootstrap: str
    pid: int


@contextmanager
def josefk_beside_kafka(work: Path, baseline_python: str | None = None) -> Iterator[dict[str, Running]]:
    """josefk from this tree (and, with `baseline_python`, another build's josefk as `baseline`)
    beside Kafka 3.9.2 on ZooKeeper, all in `work`; each is stopped on exit, whatever happened."""
    started = time.monotonic()
    with ExitStack() as stack:
        brokers: dict[str, Running] = {}
        builds = {"josefk": None} | ({"baseline": baseline_python} if baseline_python else {})
        for name, python in builds.items():
            josefk = BrokerProcess(work / name, output=work / f"{name}.out", start_timeout=60,
                                   launcher=(python or sys.executable, "-m", "josefk"))
            stack.callback(josefk.stop)
            brokers[name] = Running(josefk.bootstrap, josefk.proc.pid)
        zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
        stack.callback(zookeeper.stop)
        kafka = KafkaBroker(work / "kafka", zookeeper.connect)
        stack.callback(kafka.stop)
        brokers["kafka"] = Running(kafka.bootstrap, kafka.proc.pid)
        print(f"brokers up in {time.monotonic() - started:.1f} s; load1 {load1():.2f}", flush=True)
        yield brokers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per step (default 10)")
    parser.add_argument("--size", type=int, default=100, help="record size in bytes (default 100)")
    parser.add_argument("--per-txn", default="1,100,10000", help="records per transaction, comma-separated")
    parser.add_argument("--no-docs", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    sizes = [int(n) for n in args.per_txn.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-transactions-"))
    started = time.monotonic()
    try:
        with josefk_beside_kafka(work) as brokers:
            results: dict[tuple[str, int], dict[str, Any]] = {}
            for i, per_txn in enumerate(sizes):
                order = list(brokers) if i % 2 == 0 else list(reversed(brokers))
                for name in order:
                    r = run_step(brokers[name].bootstrap, f"txn-{per_txn}", per_txn, args.size, args.seconds)
                    results[(name, per_txn)] = r
                    print(f"{name:7s} {per_txn:6d} records/txn: {r['msgs_s']:10,.0f} msgs/s "
                          f"{r['txns_s']:8,.1f} txns/s ({r['txns']} txns in {r['seconds']:.1f} s, "
                          f"load1 {r['load1']:.2f})", flush=True)
        table = render(results, sizes)
        print("\n" + table)
        if not args.no_docs:
            section = DOC.format(argv="".join(" " + a for a in sys.argv[1:]), size=args.size, seconds=args.seconds,
                                 cores=os.cpu_count(), total=time.monotonic() - started, table=table)
            doc = ROOT / "docs" / "benchmarks.md"
            doc.write_text(report.replace_section(doc.read_text(), "transactions", section))
            print(f"wrote {doc}")
        print(f"\ntotal {time.monotonic() - started:.0f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
