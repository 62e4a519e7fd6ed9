"""Concurrent transactional producers, josefk beside Apache Kafka 3.9.2.

    .venv/bin/python bench/transaction_producers.py [--seconds 5] [--producers 1,8,32,128]
        [--rounds 1] [--baseline-python /work/main/.venv/bin/python]

Each step starts N confluent-kafka (librdkafka) transactional producers, each in its own
thread, each with its own transactional id: begin a transaction, produce one 100-byte record
to a one-partition topic, commit, and again until `--seconds` have passed (after one warm-up
transaction each). Every transactional produce is the first to its partition in its
transaction, so the partition's leader verifies it with the coordinator (KIP-890) each time.
Reported per step: transactions/s over all producers, the p50 and p99 of a transaction's
latency (begin to commit returned, which waits for the record's produce and the EndTxn), the
broker's CPU time per transaction (a measure the machine's load disturbs less than the rates)
and the one-minute load average at its end; each step checks that the partition ends where its
transactions put it (one record and one commit marker each). `--baseline-python` adds
another build's josefk (e.g. main's, to show a change's before and after in one run).
Both brokers run on disk in a temp dir with their defaults, as bench/transactions.py.
Writes its section of docs/benchmarks.md unless --no-docs.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import report  # noqa: E402
import workers  # noqa: E402
from transactions import create_topic, josefk_beside_kafka, load1, log_end_offset  # noqa: E402

PAYLOAD = os.urandom(100)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_s(pid: int) -> float:
    """The process's user and system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_step(bootstrap: str, broker_pid: int, topic: str, producers: int, seconds: float) -> dict[str, Any]:
    from confluent_kafka import Producer

    create_topic(bootstrap, topic)
    clients = [Producer(workers.producer_config(bootstrap, **{
        "transactional.id": f"bench-{topic}-{i}", "acks": "all", "enable.idempotence": True}))
        for i in range(producers)]

    def one(client: Any) -> float:
        started = time.perf_counter()
        client.begin_transaction()
        client.produce(topic, PAYLOAD)
        client.commit_transaction(60)
        return time.perf_counter() - started

    def warm(client: Any) -> None:
        client.init_transactions(60)
        one(client)

    latencies: list[list[float]] = [[] for _ in clients]
    with ThreadPoolExecutor(producers) as pool:
        list(pool.map(warm, clients))
        start = threading.Barrier(producers + 1)
        deadline = 0.0

        def loop(i: int) -> None:
            start.wait()
            while not latencies[i] or time.perf_counter() < deadline:
                latencies[i].append(one(clients[i]))

        futures = [pool.submit(loop, i) for i in range(producers)]
        deadline = time.perf_counter() + seconds
        began, cpu_before = time.perf_counter(), cpu_s(broker_pid)
        start.wait()
        for future in futures:
            future.result()
        elapsed, cpu = time.perf_counter() - began, cpu_s(broker_pid) - cpu_before
    all_latencies = [ms for per in latencies for ms in per]
    txns = len(all_latencies)
    expected = 2 * (txns + producers)  # with the warm-ups; one record and one marker each
    # A commit returns once the coordinator logged PrepareCommit; Kafka writes the markers after.
    marked_by = time.monotonic() + 30
    while (end := log_end_offset(bootstrap, topic)) < expected and time.monotonic() < marked_by:
        time.sleep(0.2)
    if end != expected:
        raise RuntimeError(f"{topic} ends at offset {end}, not {expected}: records were lost or duplicated")
    clients.clear()
    gc.collect()  # the librdkafka instances go now, not during the next step
    return {"producers": producers, "txns": txns, "seconds": elapsed, "txns_s": txns / elapsed,
            "p50_ms": 1000 * statistics.median(all_latencies), "p99_ms": 1000 * percentile(all_latencies, 0.99),
            "cpu_ms_per_txn": 1000 * cpu / txns, "load1": load1()}


DOC = """## Concurrent transactional producers (1 record per transaction)

`.venv/bin/python bench/transaction_producers.py{argv}`, {seconds:g} s per step, {rounds} run(s)
of each step per broker in alternating order (each figure the median of its runs), {total:.0f} s
in all on {cores} cores shared with whatever else ran (the load averages say how busy the
machine was). N confluent-kafka transactional producers (acks=all, idempotence, linger.ms=5),
one thread and one transactional id each, loop begin, produce one 100-byte record to a
one-partition topic, commit; every produce is verified with the coordinator (KIP-890: Kafka
sends AddPartitionsToTxn verify_only to its own listener, josefk asks its own coordinator
in-process, as it writes its own partitions' markers). Latency is one transaction's, begin to
commit returned; CPU is the broker process's (user and system) over the step, per transaction.
{baseline}
{table}
"""


def render(results: dict[tuple[str, int], dict[str, Any]], names: list[str], counts: list[int]) -> str:
    head = "| producers |"
    rule = "|---:|"
    for name in names:
        head += f" {name} txns/s | {name} p50 / p99 ms | {name} CPU ms/txn |"
        rule += "---:|---:|---:|"
    head += " josefk / Kafka txns/s |"
    rule += "---:|"
    if "baseline" in names:
        head += " josefk / baseline txns/s | josefk / baseline CPU |"
        rule += "---:|---:|"
    head += " load1 at the end |"
    rule += "---|"
    lines = [head, rule]
    for n in counts:
        row = f"| {n} |"
        for name in names:
            r = results[(name, n)]
            row += f" {r['txns_s']:,.0f} | {r['p50_ms']:,.0f} / {r['p99_ms']:,.0f} | {r['cpu_ms_per_txn']:.2f} |"
        ours = results[("josefk", n)]
        row += f" **{ours['txns_s'] / results[('kafka', n)]['txns_s']:.2f}x** |"
        if "baseline" in names:
            base = results[("baseline", n)]
            row += f" {ours['txns_s'] / base['txns_s']:.2f}x | {ours['cpu_ms_per_txn'] / base['cpu_ms_per_txn']:.2f}x |"
        loads = ", ".join(f"{results[(name, n)]['load1']:.2f}" for name in names)
        lines.append(row + f" {loads} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per step (default 5)")
    parser.add_argument("--producers", default="1,8,32,128", help="producer counts, comma-separated")
    parser.add_argument("--rounds", type=int, default=1, help="runs per step and broker, medians reported")
    parser.add_argument("--baseline-python", help="another build's python, run as 'josefk (baseline)'")
    parser.add_argument("--no-docs", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    counts = [int(n) for n in args.producers.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-txn-producers-"))
    started = time.monotonic()
    try:
        with josefk_beside_kafka(work, args.baseline_python) as brokers:
            runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for i, n in enumerate(counts):
                for round_ in range(args.rounds):
                    order = list(brokers) if (i + round_) % 2 == 0 else list(reversed(brokers))
                    for name in order:
                        broker = brokers[name]
                        r = run_step(broker.bootstrap, broker.pid, f"txn-producers-{n}-{round_}", n, args.seconds)
                        runs.setdefault((name, n), []).append(r)
                        print(f"{name:8s} {n:4d} producers: {r['txns_s']:8,.1f} txns/s p50 {r['p50_ms']:7,.1f} ms "
                              f"p99 {r['p99_ms']:7,.1f} ms, CPU {r['cpu_ms_per_txn']:.2f} ms/txn "
                              f"({r['txns']} txns in {r['seconds']:.1f} s, load1 {r['load1']:.2f})", flush=True)
        results = {key: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for key, rs in runs.items()}
        table = render(results, list(brokers), counts)
        print("\n" + table)
        if not args.no_docs:
            baseline = ("\n`baseline` is another build's josefk (" + args.baseline_python + ") run beside "
                        "this tree's.\n") if args.baseline_python else ""
            section = DOC.format(argv="".join(" " + a for a in sys.argv[1:]), seconds=args.seconds, rounds=args.rounds,
                                 cores=os.cpu_count(), total=time.monotonic() - started, table=table,
                                 baseline=baseline)
            doc = ROOT / "docs" / "benchmarks.md"
            doc.write_text(report.replace_section(doc.read_text(), "transaction-producers", section))
            print(f"wrote {doc}")
        print(f"\ntotal {time.monotonic() - started:.0f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
