"""Broker-bound curves: where the broker, not the client, sets the pace. josefk vs Apache Kafka 3.9.2
and Tansu, each broker started fresh through bench/run.py's broker classes (same settings as make bench).

    make bench-broker                                  # ~5-8 min on 2 cores
    .venv/bin/python bench/broker_bound.py --quick     # smoke run
    .venv/bin/python bench/broker_bound.py --report bench/results/broker-<ts>.csv   # re-render only

1. Request rate: 1, 10, 50 and 200 producers (librdkafka instances, spread over at most two
   load-generator processes, one poll thread per instance), each sending 100 B records one per
   Produce request (linger.ms=0, batch.num.messages=1, acks=1) with five records outstanding
   (librdkafka's default max.in.flight): every delivery sends the next one. Requests/s, p50/p99 of
   produce() -> delivery latency, broker CPU seconds per 1,000 requests, over a fixed time per step.
2. Partitions: one topic of 10, 100, 1,000 and 10,000 partitions on a fresh broker (after an
   untimed warm-up on a 1-partition topic); one producer writes 1,000,000 records of 100 B spread
   over them (bench/run.py's producer: linger.ms=5), then one consumer reads them all; Metadata
   (v1, all topics) timed on a raw socket (median of 20, the
   request encoded once, the response read but not decoded); broker RSS after the step.

Writes bench/results/broker-<ts>.csv (+ .json) and docs/benchmarks-broker.md with charts under
docs/benchmarks-broker/.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import run
import workers
from report import find, fmt, num
from run import ROOT, Row, make_row, run_step

from harness.wire import encode_request, read_frame  # noqa: E402  (run puts ROOT on sys.path)

PRODUCERS = (1, 10, 50, 200)
PARTITIONS = (10, 100, 1000, 10_000)
BROKERS = ("josefk", "kafka", "tansu")
COLORS = {"josefk": "#1f77b4", "kafka": "#2ca02c", "tansu": "#d62728"}
FIELDS = ["broker", "role", "producers", "processes", "partitions", "records", "seconds", "msgs_s", "mb_s",
          "cpu_s", "cpu_ms_per_1k", "p50_ms", "p99_ms", "peak_rss_mb", "rss_mb", "metadata_ms", "errors",
          "load1", "client_cpu_s"]
DOC = ROOT / "docs" / "benchmarks-broker.md"
CHARTS = ROOT / "docs" / "benchmarks-broker"


def request_rate(b: run.AnyBroker, producers: int, seconds: float) -> Row:
    processes = min(producers, 2)  # two cores: at most two client processes, the instances split between them
    per = [producers // processes + (i < producers % processes) for i in range(processes)]
    res, cpu, rss = run_step(b, [(workers.request_rate, (b.bootstrap, "rr", n, seconds, 100, 5)) for n in per])
    row = make_row(b, "request-rate", res, cpu, rss, 100, producers=producers, partitions=10)
    row |= {"processes": processes, "cpu_ms_per_1k": round(1e6 * cpu / max(row["records"], 1), 2)}
    return row


def metadata_ms(b: run.AnyBroker, times: int = 20) -> float:
    """Median wall time of a Metadata v1 request for all topics (topics=null) on one connection."""
    from josefk.protocol.apis import request_class

    frame = encode_request(3, 1, request_class(3)(topics=None))
    host, port = b.bootstrap.split(",")[0].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(frame)
        read_frame(sock)  # warm-up
        samples = []
        for _ in range(times):
            t0 = time.perf_counter()
            sock.sendall(frame)
            read_frame(sock)
            samples.append(time.perf_counter() - t0)
    return round(statistics.median(samples) * 1e3, 3)


def partitions_step(b: run.AnyBroker, partitions: int, records: int) -> list[Row]:
    print("  warm-up (not recorded): 1 partition", flush=True)
    run.create_topic(b, "warm", 1)
    run.produce_step(b, "warm", 1, records, 100, 1)
    run.consume_step(b, "warm", 1, 100, 1, records)
    t0 = time.monotonic()
    run.create_topic(b, "p", partitions)
    created = time.monotonic() - t0
    meta = metadata_ms(b)
    prod = run.produce_step(b, "p", 1, records, 100, partitions)
    cons = run.consume_step(b, "p", 1, 100, partitions, records)
    rss = round(b.memory_mb("VmRSS"), 1)
    fds = open_files(b)
    print(f"  {b.name:7s} {partitions} partitions: created in {created:.2f} s, metadata {meta} ms, rss {rss} MB, "
          f"{fds} open files",
          flush=True)
    return [r | {"metadata_ms": meta, "rss_mb": rss, "create_s": round(created, 2), "open_files": fds}
            for r in (prod, cons)]


def open_files(b: run.AnyBroker) -> int:
    """The broker's open file descriptors (the JVMs' for Kafka), from /proc."""
    pids = [b.proc.pid] if isinstance(b, run.Broker) else [x.proc.pid for x in b.brokers]
    return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)


# --------------------------------------------------------------------------- report

def ratio(a: float, b: float) -> str:
    return "-" if not (a == a and b == b and b) else f"{a / b:.2f}x"


def trio(rows: list[Row], key: str, digits: int = 0, **match: Any) -> str:
    return " / ".join(fmt(num(find(rows, b, **match), key), digits) for b in BROKERS)


def charts(rows: list[Row], records: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    CHARTS.mkdir(parents=True, exist_ok=True)

    def curves(field: str, xs: tuple[int, ...], panels: list[tuple[str, str, str]], title: str, name: str) -> None:
        """One panel per (row role, column, title), a line per broker over the values xs of `field`."""
        fig, axes = plt.subplots(1, len(panels), figsize=(3 * len(panels) + 5, 4))
        for ax, (role, key, label) in zip(axes, panels, strict=True):
            for b in BROKERS:
                ax.plot(xs, [num(find(rows, b, role=role, **{field: x}), key) for x in xs], "o-", color=COLORS[b],
                        label=b)
            ax.set_xscale("log")
            ax.set_xticks(xs, [str(x) for x in xs])
            ax.set_xlabel(field)
            ax.set_title(label, fontsize=10)
            ax.grid(alpha=0.3)
            ax.legend()
        fig.suptitle(title)
        fig.tight_layout()
        fig.savefig(CHARTS / name, dpi=100)
        plt.close(fig)

    curves("producers", PRODUCERS, [
        ("request-rate", "msgs_s", "Produce requests/s"),
        ("request-rate", "p99_ms", "p99 delivery latency (ms)"),
        ("request-rate", "cpu_ms_per_1k", "broker CPU ms per 1,000 requests")],
        "Request rate: one 100 B record per Produce request, 5 outstanding per producer", "request-rate.png")
    curves("partitions", PARTITIONS, [
        ("produce", "msgs_s", "produce records/s"),
        ("consume", "msgs_s", "consume records/s"),
        ("produce", "metadata_ms", "Metadata (all topics) ms"),
        ("consume", "rss_mb", "broker RSS MB")],
        f"Partitions: {records:,} records of 100 B over one topic, one producer then one consumer", "partitions.png")


def write(rows: list[Row], meta: dict[str, Any]) -> None:
    charts(rows, meta['records'])
    who = "josefk / Kafka / Tansu"
    out = [
        "# Broker-bound benchmarks",
        "",
        f"Generated by `{meta['command']}` (bench/broker_bound.py) on {meta['date']}, load average before the "
        f"run {meta['load_before']}, after {meta['load_after']}; {meta['seconds']} s in all. {meta['nproc']} x "
        f"{meta['cpu']}, Python {meta['python']}, librdkafka {meta['librdkafka']}, Kafka {meta['kafka']} "
        f"({meta['java']}), {meta['tansu']}. Results: `{meta['csv']}`."
        + (f" Failed steps (rows missing): {', '.join(meta['failed'])}." if meta.get("failed") else ""),
        "",
        "Brokers as in [benchmarks.md](benchmarks.md): josefk on disk, Kafka 3.9.2 in ZooKeeper mode on disk with "
        "its default JVM flags, Tansu 0.6.0 in memory, each started fresh for each section (and for each "
        "partition count), on 127.0.0.1. The load generators share the machine's two cores with the broker; "
        "the client CPU column says how much of them they took.",
        "",
        "## Request rate",
        "",
        f"Each producer is a librdkafka instance sending 100 B records one per Produce request (`linger.ms=0`, "
        f"`batch.num.messages=1`, `acks=1`, no compression, no idempotence) to a topic of 10 partitions and keeping "
        f"5 records outstanding (librdkafka's default `max.in.flight.requests.per.connection`): each delivery "
        f"report sends the next record. The instances run in min(producers, 2) load-generator processes, one "
        f"poll thread per instance. Each step lasts {meta['rr_seconds']} s after all producers are connected, "
        "after an untimed warm-up step of 10 producers (Kafka's JIT); "
        "requests/s is records delivered in that time / time (one record per request); latency is librdkafka's "
        "produce() -> delivery report time of each record; CPU is the broker's (user + system, from /proc) "
        "during the step.",
        "",
        "| producers | requests/s (" + who + ") | josefk / Kafka | josefk / Tansu | p50 ms (" + who + ") "
        "| p99 ms (" + who + ") | broker CPU ms per 1,000 requests (" + who + ") | josefk / Kafka CPU "
        "| client CPU % of wall (" + who + ") |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n in PRODUCERS:
        j, k, t = (find(rows, b, role="request-rate", producers=n) for b in BROKERS)
        client = " / ".join(fmt(100 * num(r, "client_cpu_s") / num(r, "seconds")) for r in (j, k, t))
        out.append(f"| {n} | {trio(rows, 'msgs_s', role='request-rate', producers=n)} "
                   f"| {ratio(num(j, 'msgs_s'), num(k, 'msgs_s'))} | {ratio(num(j, 'msgs_s'), num(t, 'msgs_s'))} "
                   f"| {trio(rows, 'p50_ms', 2, role='request-rate', producers=n)} "
                   f"| {trio(rows, 'p99_ms', 2, role='request-rate', producers=n)} "
                   f"| {trio(rows, 'cpu_ms_per_1k', 1, role='request-rate', producers=n)} "
                   f"| {ratio(num(j, 'cpu_ms_per_1k'), num(k, 'cpu_ms_per_1k'))} | {client} |")
    out += ["", "![request rate](benchmarks-broker/request-rate.png)", "",
            "## Partitions", "",
            f"One topic of 10, 100, 1,000 and 10,000 partitions on a fresh broker, after an untimed warm-up "
            "(the same produce and consume on a topic of 1 partition: Kafka's JIT). One producer (bench/run.py's: "
            f"`linger.ms=5`, `batch.size=1000000`, acks=1) writes {meta['records']:,} records of 100 B spread over "
            "the partitions, then one consumer (bench/run.py's) reads them all from the start. Metadata is a v1 "
            "request for all topics (topics=null) on a raw socket after the topic is created: the median of 20, "
            "each timed from sending the encoded request to having read the whole response. RSS is the broker's "
            "VmRSS after the consume step; CPU is per GB written or read.",
            "",
            "| partitions | produce records/s (" + who + ") | josefk / Kafka | consume records/s (" + who + ") "
            "| josefk / Kafka | Metadata ms (" + who + ") | josefk / Kafka | RSS MB (" + who + ") "
            "| produce CPU s per GB (" + who + ") | consume CPU s per GB (" + who + ") | topic created in s ("
            + who + ") | open files (" + who + ") |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in PARTITIONS:
        jp, kp = (find(rows, b, role="produce", partitions=p) for b in ("josefk", "kafka"))
        jc, kc = (find(rows, b, role="consume", partitions=p) for b in ("josefk", "kafka"))
        out.append(f"| {p:,} | {trio(rows, 'msgs_s', role='produce', partitions=p)} "
                   f"| {ratio(num(jp, 'msgs_s'), num(kp, 'msgs_s'))} "
                   f"| {trio(rows, 'msgs_s', role='consume', partitions=p)} "
                   f"| {ratio(num(jc, 'msgs_s'), num(kc, 'msgs_s'))} "
                   f"| {trio(rows, 'metadata_ms', 2, role='produce', partitions=p)} "
                   f"| {ratio(num(jp, 'metadata_ms'), num(kp, 'metadata_ms'))} "
                   f"| {trio(rows, 'rss_mb', 0, role='consume', partitions=p)} "
                   f"| {trio(rows, 'cpu_s_per_gb', 1, role='produce', partitions=p)} "
                   f"| {trio(rows, 'cpu_s_per_gb', 1, role='consume', partitions=p)} "
                   f"| {trio(rows, 'create_s', 2, role='produce', partitions=p)} "
                   f"| {trio(rows, 'open_files', 0, role='produce', partitions=p)} |")
    out += ["", "Open files are the broker process's file descriptors after the consume step (Tansu keeps "
            f"its data in memory). The machine's open-file limit (soft and hard) is {meta.get('nofile', '?')}; "
            "a broker that needs more than that for a point fails it (see the failed steps above).",
            "", "![partitions](benchmarks-broker/partitions.png)", ""]
    DOC.write_text("\n".join(out))
    print(f"wrote {DOC.relative_to(ROOT)}")


# --------------------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 s steps, 20,000 records")
    parser.add_argument("--brokers", default=",".join(BROKERS), help="comma-separated subset of josefk,kafka,tansu")
    parser.add_argument("--sections", default="requests,partitions", help="requests and/or partitions")
    parser.add_argument("--report", metavar="CSV", help="only re-render docs/benchmarks-broker.md from a results CSV")
    args = parser.parse_args()
    if args.report:
        path = Path(args.report)
        with open(path) as f:
            write(list(csv.DictReader(f)), json.loads(path.with_suffix(".json").read_text()))
        return 0
    seconds, records = (2.0, 20_000) if args.quick else (5.0, 1_000_000)
    brokers = args.brokers.split(",")
    import confluent_kafka

    from harness import kafka as kafka_reference

    facts = run.machine_facts("broker-bound", sys.argv[1:])
    meta: dict[str, Any] = {k: facts[k] for k in ("date", "nproc", "cpu", "python", "java", "tansu", "kafka")}
    meta |= {"librdkafka": confluent_kafka.libversion()[0], "kafka": kafka_reference.KAFKA_VERSION,
             "command": " ".join([".venv/bin/python bench/broker_bound.py", *sys.argv[1:]]) if len(sys.argv) > 1
             else "make bench-broker", "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
             "rr_seconds": seconds, "records": records,
             "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[1]}
    t_start = time.monotonic()
    rows: list[Row] = []
    failed: list[str] = []
    sections = args.sections.split(",")
    for name in brokers if "requests" in sections else []:
        print(f"[request rate: {name}]", flush=True)
        try:
            with run.running(name) as b:
                run.create_topic(b, "rr", 10)
                print("  warm-up (not recorded): 10 producers", flush=True)
                request_rate(b, 10, seconds)  # Kafka's JIT, josefk's and Tansu's first connections
                for n in PRODUCERS:
                    rows.append(request_rate(b, n, seconds))
        except Exception as e:  # noqa: BLE001  (a failed point must not lose the run)
            print(f"  FAILED: request rate on {name}: {e!r}", flush=True)
            failed.append(f"request rate ({name})")
    for p in PARTITIONS if "partitions" in sections else []:
        for name in brokers if p != 100 else brokers[::-1]:
            print(f"[{p} partitions: {name}]", flush=True)
            try:
                with run.running(name) as b:
                    rows.extend(partitions_step(b, p, records))
            except Exception as e:  # noqa: BLE001  (a failed point must not lose the run)
                print(f"  FAILED: {p} partitions on {name}: {e!r}", flush=True)
                failed.append(f"{p} partitions ({name})")
    meta |= {"seconds": round(time.monotonic() - t_start), "failed": failed,
             "load_after": " ".join(f"{x:.2f}" for x in os.getloadavg())}
    run.RESULTS.mkdir(parents=True, exist_ok=True)
    csv_path = run.RESULTS / f"broker-{time.strftime('%Y%m%d-%H%M%S')}.csv"
    meta["csv"] = str(csv_path.relative_to(ROOT))
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS + ["create_s", "open_files"], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    csv_path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    print(f"wrote {csv_path} ({meta['seconds']} s)")
    write([{k: str(v) for k, v in r.items()} for r in rows], meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
