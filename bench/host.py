"""`josefk host --brokers 2` against one josefk broker and one Apache Kafka 3.9.2 broker, on
the request-rate curve of bench/broker_bound.py (1, 10, 50 and 200 librdkafka producers,
one 100 B record per Produce request, acks=1, a topic of 10 partitions: on the host, spread
over its two brokers). The three run side by side for the whole run and the steps alternate
between them (the order rotates at each point), so on a loaded machine each ratio compares
figures taken under the same load; the load average is recorded with every row.

    .venv/bin/python bench/host.py            # 5 s steps, ~6 min
    .venv/bin/python bench/host.py --quick    # 2 s steps, no doc

Writes bench/results/host-<ts>.json and the table between the markers in docs/benchmarks-broker.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack

import run
from broker_bound import PRODUCERS, request_rate
from report import fmt
from run import ROOT, Row

DOC = ROOT / "docs" / "benchmarks-broker.md"
BEGIN, END = "<!-- host:begin -->", "<!-- host:end -->"
KINDS = ("josefk", "josefk-host", "kafka")


def started(kind: str) -> run.AnyBroker:
    makers: dict[str, Callable[[], run.AnyBroker]] = {
        "josefk": lambda: run.Broker("josefk"), "josefk-host": run.JosefkHost, "kafka": run.KafkaCluster}
    broker = makers[kind]()
    broker.start()
    return broker


def run_all(seconds: float, rounds: int) -> list[Row]:
    rows: list[Row] = []
    with ExitStack() as stack:
        brokers: dict[str, run.AnyBroker] = {}
        for kind in KINDS:
            print(f"[start {kind}]", flush=True)
            brokers[kind] = broker = started(kind)
            stack.callback(broker.cleanup)
            run.create_topic(broker, "rr", 10)
            print("  warm-up (not recorded): 10 producers", flush=True)
            request_rate(broker, 10, seconds)
        turn = 0
        for round_ in range(rounds):
            for producers in PRODUCERS:
                order = KINDS[turn % 3:] + KINDS[:turn % 3]
                turn += 1
                for kind in order:
                    row = request_rate(brokers[kind], producers, seconds)
                    rows.append(row | {"broker": kind, "round": round_})
    return rows


def table(rows: list[Row]) -> str:
    lines = ["| producers | round | josefk req/s | josefk host (2) req/s | Kafka req/s | host / josefk | "
             "host / Kafka | josefk / Kafka | CPU ms per 1k req: josefk / host / Kafka | p99 ms: josefk / host / Kafka "
             "| load1 |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for round_ in sorted({r["round"] for r in rows}):
        for producers in PRODUCERS:
            by = {r["broker"]: r for r in rows if r["round"] == round_ and r["producers"] == producers}
            if len(by) < 3:
                continue
            j, h, k = by["josefk"], by["josefk-host"], by["kafka"]
            loads = [r["load1"] for r in (j, h, k)]
            lines.append(
                f"| {producers} | {round_ + 1} | {fmt(j['msgs_s'])} | {fmt(h['msgs_s'])} | {fmt(k['msgs_s'])} | "
                f"{h['msgs_s'] / j['msgs_s']:.2f}x | {h['msgs_s'] / k['msgs_s']:.2f}x | "
                f"{j['msgs_s'] / k['msgs_s']:.2f}x | "
                f"{j['cpu_ms_per_1k']} / {h['cpu_ms_per_1k']} / {k['cpu_ms_per_1k']} | "
                f"{j.get('p99_ms', '-')} / {h.get('p99_ms', '-')} / {k.get('p99_ms', '-')} | "
                f"{min(loads):.1f}-{max(loads):.1f} |")
    return "\n".join(lines)


def write_doc(rows: list[Row], load_before: tuple[float, ...], stamp: str, command: str) -> None:
    block = (f"{BEGIN}\nMeasured by `{command}` on {stamp} UTC, {os.cpu_count()} cores, load average before "
             f"the run {' '.join(f'{x:.2f}' for x in load_before)}, after "
             f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}.\n\n{table(rows)}\n{END}")
    text = DOC.read_text()
    DOC.write_text(re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 s steps, one round, no doc")
    parser.add_argument("--rounds", type=int, default=2, help="how many times the curve is measured (default 2)")
    args = parser.parse_args()
    stamp, load = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), os.getloadavg()
    rows = run_all(2.0 if args.quick else 5.0, 1 if args.quick else args.rounds)
    print(table(rows))
    if not args.quick:
        out = ROOT / "bench" / "results" / f"host-{time.strftime('%Y%m%d-%H%M%S')}.json"
        out.parent.mkdir(exist_ok=True)
        out.write_text(json.dumps(rows, indent=1))
        command = " ".join([".venv/bin/python bench/host.py", *sys.argv[1:]])
        write_doc(rows, load, stamp, command)
        print(f"wrote {out.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
