"""Scaling out on one host: a josefk broker is one process on one event loop, so it uses one
core; a host with more cores runs more brokers. This measures what a second broker on the
same host buys, against one, both under one ZooKeeper:

- request rate: 10 and 50 librdkafka producers, one 100 B record per Produce request
  (bench/workers.request_rate, as make bench-broker), on a topic of 10 partitions (RF 1)
  spread over the brokers;
- bulk produce: 2 producers writing 1,000,000 records of 100 B (linger.ms=5) to that topic.

Each row gives the aggregate rate, each broker's CPU as a share of one core (near 100 %: that
broker is bound by its core), and the ratio to the 1-broker row. The machine's cores are
shared with the load generators, which the doc says.

    make bench-scaling                        # ~2 min
    .venv/bin/python bench/scaling.py --quick

Writes bench/results/scaling-<ts>.json and the table between the markers in docs/scaling.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time

import run
import workers
from report import fmt
from run import ROOT, JosefkCluster, Row, make_row, run_step

DOC = ROOT / "docs" / "scaling.md"
BEGIN, END = "<!-- scaling:begin -->", "<!-- scaling:end -->"
PARTITIONS = 10


def measured(cluster: JosefkCluster, label: str, specs: list[run.Spec], producers: int) -> Row:
    before = [b.cpu_seconds() for b in cluster.brokers]
    results, cpu, rss = run_step(cluster, specs)
    per_broker = [b.cpu_seconds() - c for b, c in zip(cluster.brokers, before, strict=True)]
    row = make_row(cluster, label, results, cpu, rss, 100, producers=producers, partitions=PARTITIONS)
    row |= {"brokers": len(cluster.brokers),
            "core_pct": [round(100 * c / row["seconds"]) for c in per_broker]}
    return row


def run_all(seconds: float, records: int) -> list[Row]:
    rows: list[Row] = []
    for size in (1, 2):
        cluster = JosefkCluster(size)
        try:
            cluster.start()
            run.create_topic(cluster, "scale", PARTITIONS)
            for producers in (10, 50):
                specs: list[run.Spec] = [(workers.request_rate, (cluster.bootstrap, "scale", n, seconds, 100, 5))
                                         for n in (producers // 2, producers - producers // 2)]
                rows.append(measured(cluster, "request-rate", specs, producers))
            specs = [(workers.produce, (cluster.bootstrap, "scale", records // 2, 100, 1)) for _ in range(2)]
            rows.append(measured(cluster, "produce", specs, 2))
        finally:
            cluster.cleanup()
    return rows


def table(rows: list[Row]) -> str:
    one = {(r["role"], r["producers"]): r["msgs_s"] for r in rows if r["brokers"] == 1}
    lines = ["| workload | producers | brokers | records/s | vs 1 broker | each broker's CPU, % of one core |"
             " p99 ms |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ratio = r["msgs_s"] / one[(r["role"], r["producers"])]
        lines.append(f"| {r['role']} | {r['producers']} | {r['brokers']} | {fmt(r['msgs_s'])} | {ratio:.2f}x | "
                     f"{' / '.join(str(c) for c in r['core_pct'])} | {r.get('p99_ms', '-')} |")
    return "\n".join(lines)


def write_doc(rows: list[Row], load_before: tuple[float, ...], started: str) -> None:
    block = (f"{BEGIN}\nMeasured by `make bench-scaling` on {started} UTC, {os.cpu_count()} cores, load average "
             f"before the run {' '.join(f'{x:.2f}' for x in load_before)}, after "
             f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.\n\n{table(rows)}\n{END}")
    text = DOC.read_text()
    DOC.write_text(re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short steps, no doc")
    args = parser.parse_args()
    started, load = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), os.getloadavg()
    rows = run_all(2.0 if args.quick else 5.0, 100_000 if args.quick else 1_000_000)
    print(table(rows))
    if not args.quick:
        out = ROOT / "bench" / "results" / f"scaling-{time.strftime('%Y%m%d-%H%M%S')}.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps(rows, indent=1))
        write_doc(rows, load, started)
        print(f"wrote {out.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
