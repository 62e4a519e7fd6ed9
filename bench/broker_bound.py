"""Broker-bound curves: where the broker, not the client, sets the pace. josefk vs Apache Kafka 3.9.2
and Tansu, each broker started fresh through bench/run.py's broker classes (same settings as make bench).

    make bench-broker                                  # ~15 min on 2 cores
    .venv/bin/python bench/broker_bound.py --quick     # smoke run
    .venv/bin/python bench/broker_bound.py --only connections,latency   # some sections alone
    .venv/bin/python bench/broker_bound.py --report bench/results/broker-<ts>.csv[,...]   # re-render only

Sections (--only):
- requests: 1, 10, 50 and 200 producers (librdkafka instances, spread over at most two
  load-generator processes, one poll thread per instance), each sending 100 B records one per
  Produce request (linger.ms=0, batch.num.messages=1, acks=1) with five records outstanding
  (librdkafka's default max.in.flight): every delivery sends the next one. Requests/s, p50/p99 of
  produce() -> delivery latency, broker CPU seconds per 1,000 requests, over a fixed time per step.
- partitions: one topic of 10, 100, 1,000 and 10,000 partitions on a fresh broker (after an
  untimed warm-up on a 1-partition topic); one producer writes 1,000,000 records of 100 B spread
  over them (bench/run.py's producer: linger.ms=5), then one consumer reads them all; Metadata
  (v1, all topics) timed on a raw socket (median of 20, the request encoded once, the response
  read but not decoded); broker RSS after the step.
- connections: 100, 1,000 and 5,000 raw connections from two load processes, idle and then each
  sending Metadata once a second; broker RSS per connection, a probe producer's p50/p99.
- latency: produce and end-to-end (produce -> consume) p50/p99/p99.9 at fixed 1,000, 10,000 and
  50,000 records/s, with a background consumer re-reading another topic.
- cluster-requests, replication: on 3-broker josefk and Kafka clusters (Tansu has no
  replication), acks=all, RF 3, min.insync.replicas=2: the request-rate steps for 1, 10 and 50
  producers; throughput of one producer and one consumer, and end-to-end latency at a fixed rate.
- profile: py-spy on josefk during the request rate with 50 producers; the top frames go into the doc.

Writes bench/results/broker-<ts>.csv (+ .json) and docs/benchmarks-broker.md with charts under
docs/benchmarks-broker/.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import socket
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import run
import workers
from report import find, fmt, num
from run import ROOT, Row, make_row, run_step

from harness.wire import encode_request, read_frame  # noqa: E402  (run puts ROOT on sys.path)

PRODUCERS = (1, 10, 50, 200)
PARTITIONS = (10, 100, 1000, 10_000)
CONNECTIONS = (100, 1000, 5000)
CLUSTER_PRODUCERS = (1, 10, 50)
RATES = (1000, 10_000, 50_000)
PROBE_RATE = 1000  # the connections probe's records/s
LOAD_RATE = 50_000  # the background consumer's cap, records/s
REPL_RATES = (1000, 5000)  # the replication end-to-end steps' records/s
PROFILE_PRODUCERS = 50
MIN_ISR = {"min.insync.replicas": "2"}
SECTIONS = ("requests", "partitions", "connections", "latency", "cluster-requests", "replication", "profile")
BROKERS = ("josefk", "kafka", "tansu")
COLORS = {"josefk": "#1f77b4", "kafka": "#2ca02c", "tansu": "#d62728"}
FIELDS = ["broker", "role", "producers", "consumers", "processes", "partitions", "connections", "rate", "records",
          "seconds", "msgs_s", "mb_s", "cpu_s", "cpu_s_per_gb", "cpu_ms_per_1k", "p50_ms", "p99_ms", "p999_ms",
          "max_ms", "peak_rss_mb", "rss_mb", "metadata_ms", "errors", "load1", "client_cpu_s"]
DOC = ROOT / "docs" / "benchmarks-broker.md"
# Sections other benches wrote by hand (bench/messages.py) follow this line; a rewrite keeps them.
HAND_WRITTEN = "<!-- Hand-written sections below; bench/broker_bound.py keeps them. -->"
CHARTS = ROOT / "docs" / "benchmarks-broker"


@dataclass(frozen=True)
class Plan:
    rr_seconds: float  # each request-rate step
    records: int  # the partitions section's records
    conn_seconds: float  # each connections probe step
    tail_seconds: float  # each fixed-rate latency step
    repl_records: int  # the replication throughput step's records
    bg_records: int  # the topic the background consumer re-reads


PLANS = {"quick": Plan(2.0, 20_000, 2.0, 2.0, 20_000, 20_000),
         "default": Plan(5.0, 1_000_000, 4.0, 5.0, 300_000, 200_000)}


def request_rate(b: run.AnyBroker, producers: int, seconds: float, acks: int = 1,
                 role: str = "request-rate") -> Row:
    processes = min(producers, 2)  # two cores: at most two client processes, the instances split between them
    per = [producers // processes + (i < producers % processes) for i in range(processes)]
    topic = "rr" if acks == 1 else "rr3"
    res, cpu, rss = run_step(b, [(workers.request_rate, (b.bootstrap, topic, n, seconds, 100, 5, acks))
                                 for n in per])
    row = make_row(b, role, res, cpu, rss, 100, producers=producers, partitions=10)
    row |= {"processes": processes, "cpu_ms_per_1k": round(1e6 * cpu / max(row["records"], 1), 2)}
    return row


def metadata_ms(b: run.AnyBroker, times: int = 20) -> float:
    """Median wall time of a Metadata v1 request for all topics (topics=null) on one connection."""
    from josefk.cli.kafka_messages import request_class

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
    if isinstance(b, run.JosefkHost):
        pids = b.pids()
    else:
        pids = [b.proc.pid] if isinstance(b, run.Broker) else [x.proc.pid for x in b.brokers]
    return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)


# --------------------------------------------------------------------------- connections

def probe_step(b: run.AnyBroker, role: str, seconds: float, connections: int) -> Row:
    """The probe: one librdkafka producer sending PROBE_RATE records of 100 B a second (linger.ms=0,
    acks=1) to the 1-partition topic "probe"; its produce() -> delivery latencies."""
    res, cpu, rss = run_step(b, [(workers.latency, (b.bootstrap, "probe", PROBE_RATE, seconds, 100))])
    return make_row(b, role, res, cpu, rss, 100, producers=1) | {"connections": connections}


def connections(b: run.AnyBroker, seconds: float) -> list[Row]:
    """Open 100, then 1,000, then 5,000 connections (cumulative) from two load processes; at each
    count a probe step with the connections idle, then one with each sending Metadata once a second."""
    from josefk.cli.kafka_messages import request_class

    run.create_topic(b, "probe", 1)
    meta_cls = request_class(3)
    hello = encode_request(18, 0, request_class(18)(), client_id="bench-conn")
    request = encode_request(3, 1, meta_cls(topics=[meta_cls.MetadataRequestTopic(name="probe")]),
                             client_id="bench-conn")
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    pipes = [(run.CTX.Queue(), run.CTX.Queue()) for _ in range(2)]
    procs = [run.CTX.Process(target=workers.connection_load, args=(b.bootstrap, hello, request, cmd, reply),
                             daemon=True) for cmd, reply in pipes]
    for p in procs:
        p.start()

    def ask(msgs: list[tuple], timeout: float = 300) -> list[dict]:
        for (cmd, _), msg in zip(pipes, msgs, strict=True):
            cmd.put(msg)
        return [reply.get(timeout=timeout) for _, reply in pipes]

    rows: list[Row] = []
    try:
        probe_step(b, "conn-warmup", 1.0, 0)  # not recorded: Kafka's JIT, the probe topic's first produce
        rss0, fds0, have = b.memory_mb("VmRSS"), open_files(b), 0
        for n in CONNECTIONS:
            if n + fds0 + 100 > limit:
                print(f"  skipped {n} connections: the broker would need {n + fds0} open files, limit {limit}")
                break
            more = n - have
            got = ask([("connect", more // 2 + (i < more % 2)) for i in range(2)])
            have = sum(r["connected"] for r in got)
            connect_s = max(r["seconds"] for r in got)
            time.sleep(0.5)  # the broker's allocations for the last wave settle
            rss = b.memory_mb("VmRSS")
            kb = round((rss - rss0) * 1024 / have, 1)
            print(f"  {b.name:7s} {have} connections in {connect_s:.1f} s: rss {rss:.0f} MB "
                  f"(+{kb} KB per connection), {open_files(b)} open files", flush=True)
            idle = probe_step(b, "conn-idle", seconds, n) | {"rss_mb": round(rss, 1), "kb_per_conn": kb,
                                                                "connect_s": round(connect_s, 2)}
            for cmd, _ in pipes:
                cmd.put(("active",))  # answered once ("idle",) ends it
            time.sleep(1.0)  # every connection has sent its first request
            active = probe_step(b, "conn-active", seconds, n)
            load = ask([("idle",)] * 2, timeout=60)
            answered = sum(r["answered"] for r in load)
            load_s = max(r["seconds"] for r in load)
            rps = answered / load_s
            lat = sorted(x for r in load for x in r["latencies"])
            q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [float("nan")] * 99
            extra_cpu = num(active, "cpu_s") / num(active, "seconds") - num(idle, "cpu_s") / num(idle, "seconds")
            active |= {"rss_mb": round(b.memory_mb("VmRSS"), 1), "load_rps": round(rps),
                       "load_p50_ms": round(q[49] * 1e3, 2), "load_p99_ms": round(q[98] * 1e3, 2),
                       "late": sum(r["late"] for r in load), "closed": sum(r["closed"] for r in load),
                       # under 1,000 requests/s the difference is within the CPU noise of a shared machine
                       "cpu_ms_per_1k": round(1e6 * extra_cpu / rps, 2) if rps >= 900 and extra_cpu > 0 else ""}
            print(f"  {b.name:7s} {n} connections active: {rps:,.0f} Metadata/s answered, p99 "
                  f"{active['load_p99_ms']} ms, {active['late']} skipped (previous unanswered), "
                  f"{active['closed']} closed by the broker, {active['cpu_ms_per_1k']} CPU ms per 1,000", flush=True)
            rows += [idle, active]
        ask([("close",)] * 2)
        for cmd, _ in pipes:
            cmd.put(("exit",))
    finally:
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.kill()
    return rows


# --------------------------------------------------------------------------- tail and end-to-end latency

def e2e_step(b: run.AnyBroker, prefix: str, topic: str, partitions: int, rate: int, seconds: float, acks: int,
             load: bool) -> list[Row]:
    """One producer at a fixed rate, one consumer tailing the topic, and (with `load`) a background
    consumer re-reading the topic "bg" at up to LOAD_RATE records/s. Rows: the producer's
    produce -> delivery latencies (prefix-produce) and the consumer's produce -> consume ones (prefix-e2e)."""
    tag = random.getrandbits(63) + 1
    count = int(rate * seconds)
    specs: list[run.Spec] = [(workers.e2e_consume, (b.bootstrap, topic, list(range(partitions)), count, tag)),
                             (workers.e2e_produce, (b.bootstrap, topic, rate, seconds, 100, acks, tag))]
    if load:
        specs.append((workers.load_consume, (b.bootstrap, "bg", seconds, LOAD_RATE)))
    res, cpu, rss = run_step(b, specs)
    prod = [r for r in res if r["role"] == "e2e-produce"]
    cons = [r | {"start": prod[0]["start"]} for r in res if r["role"] == "e2e-consume"]
    bg = [r for r in res if r["role"] == "load-consume"]
    sent_rate = count / (prod[0]["sent_end"] - prod[0]["start"])
    delivered = count / (prod[0]["end"] - prod[0]["start"])
    held = delivered >= 0.95 * rate and cons[0]["records"] == count
    extra = {"rate": rate, "sent_rate": round(sent_rate), "delivered_rate": round(delivered), "held": int(held),
             "load_msgs_s": round(bg[0]["records"] / (bg[0]["end"] - bg[0]["start"])) if bg else 0}
    rows = [make_row(b, f"{prefix}-produce", prod, cpu, rss, 100, producers=1, partitions=partitions) | extra,
            make_row(b, f"{prefix}-e2e", cons, cpu, rss, 100, producers=1, consumers=1, partitions=partitions)
            | extra]
    if not held:
        print(f"  {b.name} did not hold {rate:,} msgs/s: sent at {sent_rate:,.0f}/s, delivered at "
              f"{delivered:,.0f}/s, {cons[0]['records']:,} of {count:,} consumed", flush=True)
    return rows


def tail_latency(b: run.AnyBroker, plan: Plan) -> list[Row]:
    run.create_topic(b, "tail", 1)
    run.create_topic(b, "bg", 1)
    run.produce_step(b, "bg", 1, plan.bg_records, 100, 1)  # what the background consumer re-reads
    print("  warm-up (not recorded): 10,000 msgs/s for 1 s", flush=True)
    e2e_step(b, "warm", "tail", 1, 10_000, 1.0, 1, True)
    rows = []
    for rate in RATES:
        rows += e2e_step(b, "tail", "tail", 1, rate, plan.tail_seconds, 1, True)
    return rows


# --------------------------------------------------------------------------- 3-broker clusters

def cluster_section(c: run.AnyBroker, plan: Plan, sections: list[str]) -> list[Row]:
    """acks=all request rate and replication on a 3-broker cluster, topics with RF 3 and
    min.insync.replicas=2."""
    rows: list[Row] = []
    if "cluster-requests" in sections:
        run.create_topic(c, "rr3", 10, 3, MIN_ISR)
        print("  warm-up (not recorded): 10 producers, acks=all", flush=True)
        request_rate(c, 10, plan.rr_seconds, -1)
        for n in CLUSTER_PRODUCERS:
            rows.append(request_rate(c, n, plan.rr_seconds, -1, "cluster-request-rate"))
    if "replication" in sections:
        run.create_topic(c, "repl", 6, 3, MIN_ISR)
        rows.append(run.produce_step(c, "repl", 1, plan.repl_records, 100, 6, -1) | {"role": "repl-produce"})
        rows.append(run.consume_step(c, "repl", 1, 100, 6, plan.repl_records) | {"role": "repl-consume"})
        run.create_topic(c, "repl-e2e", 6, 3, MIN_ISR)
        e2e_step(c, "warm", "repl-e2e", 6, REPL_RATES[0], 1.0, -1, False)
        for rate in REPL_RATES:
            rows += e2e_step(c, "repl-lat", "repl-e2e", 6, rate, plan.tail_seconds, -1, False)
    return rows


# --------------------------------------------------------------------------- where the CPU goes

def profile_section(plan: Plan, stamp: str) -> tuple[list[Row], str]:
    """py-spy on josefk during its busiest workload: the request rate with PROFILE_PRODUCERS producers."""
    import profile_broker

    with run.running("josefk") as b:
        assert isinstance(b, run.Broker)
        run.create_topic(b, "rr", 10)
        request_rate(b, 10, plan.rr_seconds)  # warm-up
        row, top = profile_broker.profile(
            b, "request-rate", lambda: request_rate(b, PROFILE_PRODUCERS, plan.rr_seconds, role="profiled"),
            f"josefk broker, request rate, {PROFILE_PRODUCERS} producers, one 100 B record per Produce request",
            stamp, native=True)
    return [row], top


# --------------------------------------------------------------------------- report

def ratio(a: float, b: float) -> str:
    return "-" if not (a == a and b == b and b) else f"{a / b:.2f}x"


def trio(rows: list[Row], key: str, digits: int = 0, **match: Any) -> str:
    return " / ".join(fmt(num(find(rows, b, **match), key), digits) for b in BROKERS)


def not_held(rows: list[Row], role: str, rates: tuple[int, ...]) -> str:
    """The fixed rates a broker did not hold (see e2e_step)."""
    held = []
    for b in BROKERS:
        for rate in rates:
            r = find(rows, b, role=role, rate=rate)
            if r and r.get("held") == "0":
                held.append(f"{b} at {rate:,} msgs/s (delivered {num(r, 'delivered_rate'):,.0f}/s, producer "
                            f"sent {num(r, 'sent_rate'):,.0f}/s)")
    return "Rates not held: " + ("; ".join(held) if held else "none") + "."


def has(rows: list[Row], role: str) -> bool:
    return any(r.get("role") == role for r in rows)


@dataclass
class Ratios:
    """Every josefk / Kafka ratio shown, as how many times worse josefk is (above 1: worse)."""
    seen: list[tuple[float, str]]

    def add(self, label: str, j: float, k: float, higher_is_better: bool) -> None:
        if j == j and k == k and j > 0 and k > 0:
            self.seen.append((k / j if higher_is_better else j / k, label))


def long_table(rows: list[Row], ratios: Ratios, points: list[tuple[str, dict[str, Any]]],
               metrics: list[tuple[str, str, int, bool]], brokers: tuple[str, ...] = BROKERS) -> list[str]:
    """One line per (point, metric): each broker's figure, then josefk / Kafka and josefk / Tansu.
    A metric is (label, column, digits, higher is better); its role (if any) comes after a '@'."""
    names = {"josefk": "josefk", "kafka": "Kafka", "tansu": "Tansu"}
    head = "| point | metric | " + " | ".join(names[b] for b in brokers) + " | josefk / Kafka |" \
        + (" josefk / Tansu |" if "tansu" in brokers else "")
    out = [head, "|---|---|" + "---:|" * (len(brokers) + 1 + ("tansu" in brokers))]
    for point, match in points:
        for label, key, digits, higher in metrics:
            column, _, role = key.partition("@")
            m = match | ({"role": role} if role else {})
            vals = {b: num(find(rows, b, **m), column) for b in brokers}
            if all(v != v for v in vals.values()):
                continue
            ratios.add(f"{label}, {point}", vals["josefk"], vals["kafka"], higher)
            line = f"| {point} | {label} | " + " | ".join(fmt(vals[b], digits) for b in brokers) \
                + f" | {ratio(vals['josefk'], vals['kafka'])} |"
            if "tansu" in brokers:
                line += f" {ratio(vals['josefk'], vals['tansu'])} |"
            out.append(line)
    return out


def charts(rows: list[Row], records: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    CHARTS.mkdir(parents=True, exist_ok=True)

    def curves(field: str, xs: tuple[int, ...], panels: list[tuple[str, str, str]], title: str, name: str,
               brokers: tuple[str, ...] = BROKERS, log_y: bool = False) -> None:
        """One panel per (row role, column, title), a line per broker over the values xs of `field`."""
        if not has(rows, panels[0][0]):
            return
        fig, axes = plt.subplots(1, len(panels), figsize=(3 * len(panels) + 5, 4))
        for ax, (role, key, label) in zip(axes, panels, strict=True):
            for b in brokers:
                ax.plot(xs, [num(find(rows, b, role=role, **{field: x}), key) for x in xs], "o-", color=COLORS[b],
                        label=b)
            ax.set_xscale("log")
            if log_y:
                ax.set_yscale("log")
            ax.set_xticks(xs, [f"{x:,}" for x in xs])
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
    curves("producers", CLUSTER_PRODUCERS, [
        ("cluster-request-rate", "msgs_s", "Produce requests/s"),
        ("cluster-request-rate", "p99_ms", "p99 delivery latency (ms)"),
        ("cluster-request-rate", "cpu_ms_per_1k", "CPU ms per 1,000 requests (3 brokers)")],
        "Request rate on 3 brokers, acks=all, RF 3, min.insync.replicas=2", "cluster-request-rate.png",
        ("josefk", "kafka"))
    curves("partitions", PARTITIONS, [
        ("produce", "msgs_s", "produce records/s"),
        ("consume", "msgs_s", "consume records/s"),
        ("produce", "metadata_ms", "Metadata (all topics) ms"),
        ("consume", "rss_mb", "broker RSS MB")],
        f"Partitions: {records:,} records of 100 B over one topic, one producer then one consumer", "partitions.png")
    curves("connections", CONNECTIONS, [
        ("conn-idle", "kb_per_conn", "broker RSS KB per connection"),
        ("conn-idle", "p99_ms", "probe p99 ms, connections idle"),
        ("conn-active", "p99_ms", "probe p99 ms, 1 Metadata/s each"),
        ("conn-active", "load_p99_ms", "Metadata p99 ms, 1 Metadata/s each")],
        "Open connections: memory and a probe producer's latency", "connections.png", log_y=False)
    curves("rate", RATES, [
        ("tail-produce", "p99_ms", "produce p99 ms"),
        ("tail-produce", "p999_ms", "produce p99.9 ms"),
        ("tail-e2e", "p99_ms", "end-to-end p99 ms"),
        ("tail-e2e", "p999_ms", "end-to-end p99.9 ms")],
        "Tail latency at fixed rates, 100 B, 1 partition, with a background consumer", "tail-latency.png",
        log_y=True)


def write(rows: list[Row], meta: dict[str, Any]) -> None:
    charts(rows, meta['records'])
    who = "josefk / Kafka / Tansu"
    ratios = Ratios([])
    body: list[str] = []
    if has(rows, "request-rate"):
        body += [
            "## Request rate",
            "",
            "Each producer is a librdkafka instance sending 100 B records one per Produce request (`linger.ms=0`, "
            "`batch.num.messages=1`, `acks=1`, no compression, no idempotence) to a topic of 10 partitions and "
            "keeping 5 records outstanding (librdkafka's default `max.in.flight.requests.per.connection`): each "
            "delivery report sends the next record. The instances run in min(producers, 2) load-generator "
            f"processes, one poll thread per instance. Each step lasts {meta['rr_seconds']} s after all producers "
            "are connected, after an untimed warm-up step of 10 producers (Kafka's JIT); requests/s is records "
            "delivered in that time / time (one record per request); latency is librdkafka's produce() -> delivery "
            "report time of each record; CPU is the broker's (user + system, from /proc) during the step.",
            "",
            "| producers | requests/s (" + who + ") | josefk / Kafka | josefk / Tansu | p50 ms (" + who + ") "
            "| p99 ms (" + who + ") | josefk / Kafka p99 | broker CPU ms per 1,000 requests (" + who + ") "
            "| josefk / Kafka CPU | client CPU % of wall (" + who + ") |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for n in PRODUCERS:
            j, k, t = (find(rows, b, role="request-rate", producers=n) for b in BROKERS)
            ratios.add(f"requests/s, {n} producers (acks=1)", num(j, "msgs_s"), num(k, "msgs_s"), True)
            ratios.add(f"CPU per request, {n} producers", num(j, "cpu_ms_per_1k"), num(k, "cpu_ms_per_1k"), False)
            client = " / ".join(fmt(100 * num(r, "client_cpu_s") / num(r, "seconds")) for r in (j, k, t))
            body.append(f"| {n} | {trio(rows, 'msgs_s', role='request-rate', producers=n)} "
                        f"| {ratio(num(j, 'msgs_s'), num(k, 'msgs_s'))} | {ratio(num(j, 'msgs_s'), num(t, 'msgs_s'))} "
                        f"| {trio(rows, 'p50_ms', 2, role='request-rate', producers=n)} "
                        f"| {trio(rows, 'p99_ms', 2, role='request-rate', producers=n)} "
                        f"| {ratio(num(j, 'p99_ms'), num(k, 'p99_ms'))} "
                        f"| {trio(rows, 'cpu_ms_per_1k', 1, role='request-rate', producers=n)} "
                        f"| {ratio(num(j, 'cpu_ms_per_1k'), num(k, 'cpu_ms_per_1k'))} | {client} |")
        body += ["", "![request rate](benchmarks-broker/request-rate.png)", ""]
    if has(rows, "cluster-request-rate"):
        body += [
            "## Request rate on a 3-broker cluster (acks=all)", "",
            "The same producers (one 100 B record per Produce request, 5 outstanding each) with `acks=all` to a "
            "topic of 10 partitions, replication factor 3 and `min.insync.replicas=2`, on three josefk brokers and "
            "on three Kafka brokers, each cluster with its own ZooKeeper, all on the same two cores. CPU is the "
            "three brokers' sum (ZooKeeper not counted). Tansu: n/a (it has no replication). Three JVMs and a "
            "ZooKeeper on two shared cores is the heaviest setup here: in these runs Kafka's three JVMs used most "
            "of a core even at a few hundred requests a second, which its CPU per request shows.", ""]
        body += long_table(rows, ratios, [(f"{n} producers", {"role": "cluster-request-rate", "producers": n})
                                          for n in CLUSTER_PRODUCERS],
                           [("requests/s", "msgs_s", 0, True), ("p50 ms", "p50_ms", 2, False),
                            ("p99 ms", "p99_ms", 2, False), ("CPU ms per 1,000 requests", "cpu_ms_per_1k", 1, False)],
                           ("josefk", "kafka"))
        body += ["", "![cluster request rate](benchmarks-broker/cluster-request-rate.png)", ""]
    if has(rows, "repl-produce") or has(rows, "repl-lat-e2e"):
        body += [
            "## Replication (3 brokers, acks=all, RF 3, min.insync.replicas=2)", "",
            f"Throughput: one producer (bench/run.py's: `linger.ms=5`, `acks=all`) writes {meta['repl_records']:,} "
            "records of 100 B to a topic of 6 partitions, then one consumer reads them all from the leaders. "
            f"End-to-end: a producer at a fixed {' and then '.join(f'{r:,}' for r in REPL_RATES)} records/s "
            f"(`linger.ms=0`, `acks=all`) on another 6-partition topic for {meta['tail_seconds']} s each, a "
            "consumer tailing it (`fetch.wait.max.ms=500`, `fetch.min.bytes=1`); each record carries its send "
            "time, and end-to-end latency is the consumer's receive time minus it: the record was written by the "
            "leader, replicated to the followers, committed (high watermark) and fetched. Tansu: n/a (no "
            "replication).", ""]
        body += long_table(rows, ratios, [("throughput", {})],
                           [("produce records/s", "msgs_s@repl-produce", 0, True),
                            ("consume records/s", "msgs_s@repl-consume", 0, True),
                            ("produce CPU s per GB (3 brokers)", "cpu_s_per_gb@repl-produce", 1, False)],
                           ("josefk", "kafka"))
        body += long_table(rows, ratios, [(f"{rate:,} msgs/s", {"rate": rate}) for rate in REPL_RATES],
                           [("produce p50 ms", "p50_ms@repl-lat-produce", 2, False),
                            ("produce p99 ms", "p99_ms@repl-lat-produce", 2, False),
                            ("produce p99.9 ms", "p999_ms@repl-lat-produce", 2, False),
                            ("end-to-end p50 ms", "p50_ms@repl-lat-e2e", 2, False),
                            ("end-to-end p99 ms", "p99_ms@repl-lat-e2e", 2, False),
                            ("end-to-end p99.9 ms", "p999_ms@repl-lat-e2e", 2, False)],
                           ("josefk", "kafka"))[2:]
        body += ["", not_held(rows, "repl-lat-produce", REPL_RATES)]
        body.append("")
    if has(rows, "produce"):
        body += ["## Partitions", "",
                 "One topic of 10, 100, 1,000 and 10,000 partitions on a fresh broker, after an untimed "
                 "warm-up (the same produce and consume on a topic of 1 partition: Kafka's JIT). One producer "
                 f"(bench/run.py's: `linger.ms=5`, `batch.size=1000000`, acks=1) writes {meta['records']:,} records "
                 "of 100 B spread over the partitions, then one consumer (bench/run.py's) reads them all from the "
                 "start. Metadata is a v1 request for all topics (topics=null) on a raw socket after the topic is "
                 "created: the median of 20, each timed from sending the encoded request to having read the whole "
                 "response. RSS is the broker's "
                 "VmRSS after the consume step; CPU is per GB written or read.",
                 "",
                 "| partitions | produce records/s (" + who + ") | josefk / Kafka | consume records/s (" + who + ") "
                 "| josefk / Kafka | Metadata ms (" + who + ") | josefk / Kafka | RSS MB (" + who + ") "
                 "| josefk / Kafka | produce CPU s per GB (" + who + ") | consume CPU s per GB (" + who + ") "
                 "| topic created in s (" + who + ") | open files (" + who + ") |",
                 "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for p in PARTITIONS:
            jp, kp = (find(rows, b, role="produce", partitions=p) for b in ("josefk", "kafka"))
            jc, kc = (find(rows, b, role="consume", partitions=p) for b in ("josefk", "kafka"))
            ratios.add(f"produce records/s, {p:,} partitions", num(jp, "msgs_s"), num(kp, "msgs_s"), True)
            ratios.add(f"consume records/s, {p:,} partitions", num(jc, "msgs_s"), num(kc, "msgs_s"), True)
            ratios.add(f"Metadata ms, {p:,} partitions", num(jp, "metadata_ms"), num(kp, "metadata_ms"), False)
            ratios.add(f"RSS, {p:,} partitions", num(jc, "rss_mb"), num(kc, "rss_mb"), False)
            body.append(f"| {p:,} | {trio(rows, 'msgs_s', role='produce', partitions=p)} "
                        f"| {ratio(num(jp, 'msgs_s'), num(kp, 'msgs_s'))} "
                        f"| {trio(rows, 'msgs_s', role='consume', partitions=p)} "
                        f"| {ratio(num(jc, 'msgs_s'), num(kc, 'msgs_s'))} "
                        f"| {trio(rows, 'metadata_ms', 2, role='produce', partitions=p)} "
                        f"| {ratio(num(jp, 'metadata_ms'), num(kp, 'metadata_ms'))} "
                        f"| {trio(rows, 'rss_mb', 0, role='consume', partitions=p)} "
                        f"| {ratio(num(jc, 'rss_mb'), num(kc, 'rss_mb'))} "
                        f"| {trio(rows, 'cpu_s_per_gb', 1, role='produce', partitions=p)} "
                        f"| {trio(rows, 'cpu_s_per_gb', 1, role='consume', partitions=p)} "
                        f"| {trio(rows, 'create_s', 2, role='produce', partitions=p)} "
                        f"| {trio(rows, 'open_files', 0, role='produce', partitions=p)} |")
        body += ["", "Open files are the broker process's file descriptors after the consume step (Tansu keeps "
                 f"its data in memory). The machine's open-file limit (soft and hard) is {meta.get('nofile', '?')}; "
                 "a broker that needs more than that for a point fails it (see the failed steps above).",
                 "", "![partitions](benchmarks-broker/partitions.png)", ""]
    if has(rows, "conn-idle"):
        body += [
            "## Connections", "",
            "100, then 1,000, then 5,000 open connections (cumulative) on one broker, from two load-generator "
            "processes (raw sockets, one selector each). Each connection is opened in a wave of 50 and sends "
            "ApiVersions v0 first (as every client does), so the broker has accepted and served it. RSS per "
            "connection is (broker VmRSS with the connections open - VmRSS before the first) / connections. At "
            "each count, a probe producer (librdkafka, `linger.ms=0`, `acks=1`) sends "
            f"{PROBE_RATE:,} records of 100 B a second to a 1-partition topic for {meta['conn_seconds']} s, twice: "
            "with the connections idle, then with each of them sending a Metadata v1 request for that topic once a "
            "second (spread evenly over the second, one outstanding per connection: a connection whose previous "
            "request is unanswered skips its turn). The probe's p50/p99 is its produce() -> delivery latency; "
            "CPU per 1,000 Metadata requests is the broker's CPU per second with the connections active minus "
            "with them idle, over the Metadata requests answered per second (- when the difference was lost in "
            "the noise). Kafka's JVM reserves its 1 GB heap up front (`-Xms1G`) and its per-connection objects land "
            "in heap pages that are mostly resident already, so its RSS hardly moves with connections; josefk's "
            "and Tansu's RSS is their own allocations.", ""]
        body += long_table(rows, ratios, [(f"{n:,} connections", {"connections": n}) for n in CONNECTIONS],
                           [("RSS MB", "rss_mb@conn-idle", 0, False),
                            ("RSS KB per connection", "kb_per_conn@conn-idle", 1, False),
                            ("probe p50 ms, idle", "p50_ms@conn-idle", 2, False),
                            ("probe p99 ms, idle", "p99_ms@conn-idle", 2, False),
                            ("Metadata answered/s", "load_rps@conn-active", 0, True),
                            ("Metadata p99 ms", "load_p99_ms@conn-active", 2, False),
                            ("probe p50 ms, active", "p50_ms@conn-active", 2, False),
                            ("probe p99 ms, active", "p99_ms@conn-active", 2, False),
                            ("CPU ms per 1,000 Metadata", "cpu_ms_per_1k@conn-active", 2, False)])
        body += ["", "![connections](benchmarks-broker/connections.png)", ""]
    if has(rows, "tail-produce"):
        body += [
            "## Tail latency at fixed rates", "",
            f"One producer (`linger.ms=0`, `acks=1`) at a fixed 1,000, 10,000 and 50,000 records/s of 100 B for "
            f"{meta['tail_seconds']} s each to a topic of 1 partition; one consumer tailing it (librdkafka defaults: "
            "`fetch.wait.max.ms=500`, `fetch.min.bytes=1`), and one background consumer re-reading another topic "
            f"of {meta['bg_records']:,} records from the start, over and over, at up to {LOAD_RATE:,} records/s "
            "(the concurrent consumer load). Produce latency is librdkafka's produce() -> delivery report; "
            "end-to-end is the tailing consumer's receive time minus the send time carried in the record. A broker "
            "holds a rate when the producer's records were all delivered within 5 % of the rate's time and the "
            "consumer got them all. The producer itself is a Python loop on the same two cores: at 50,000/s it "
            "competes with the broker for CPU.", "", not_held(rows, "tail-produce", RATES), ""]
        body += long_table(rows, ratios, [(f"{rate:,} msgs/s", {"rate": rate}) for rate in RATES],
                           [("produce p50 ms", "p50_ms@tail-produce", 2, False),
                            ("produce p99 ms", "p99_ms@tail-produce", 2, False),
                            ("produce p99.9 ms", "p999_ms@tail-produce", 2, False),
                            ("end-to-end p50 ms", "p50_ms@tail-e2e", 2, False),
                            ("end-to-end p99 ms", "p99_ms@tail-e2e", 2, False),
                            ("end-to-end p99.9 ms", "p999_ms@tail-e2e", 2, False),
                            ("delivered records/s", "delivered_rate@tail-produce", 0, True),
                            ("background consumer records/s", "load_msgs_s@tail-produce", 0, True),
                            ("broker CPU s in the step", "cpu_s@tail-produce", 2, False)])
        body += ["", "![tail latency](benchmarks-broker/tail-latency.png)", ""]
    body += cpu_section(rows, meta)
    worst = sorted(ratios.seen, reverse=True)
    summary = ["## Summary", "", "Ratios are josefk's figure over the other broker's: above 1 is better for a rate, "
               "worse for a latency, memory or CPU figure. The josefk / Kafka comparisons where josefk is furthest "
               "behind in this run (times worse):", ""]
    summary += [f"{i}. {label}: {x:.2f}x worse" for i, (x, label) in enumerate(worst[:5], 1)] or ["(no data)"]
    for paragraph in analysis(rows, meta, worst):
        summary += ["", paragraph]
    summary.append("")
    out = [
        "# Broker-bound benchmarks",
        "",
        f"Generated by `{meta['command']}` (bench/broker_bound.py) on {meta['date']}, load average before the "
        f"run {meta['load_before']}, after {meta['load_after']}; {meta['seconds']} s in all. {meta['nproc']} x "
        f"{meta['cpu']}, Python {meta['python']}, librdkafka {meta['librdkafka']}, Kafka {meta['kafka']} "
        f"({meta['java']}), {meta['tansu']}. Results: `{meta['csv']}`."
        + (f" Failed steps (rows missing): {', '.join(meta['failed'])}." if meta.get("failed") else ""),
        "",
        "**Noisy figures:** the machine's two cores were shared with other work during the run (the load "
        "averages above; a load average over 2 means processes waited for a core), and brokers, ZooKeeper and "
        "load generators all run on the same two cores. Treat differences under ~20 % as noise; each point is "
        "one short run (a few seconds).",
        "",
        "Brokers as in [benchmarks.md](benchmarks.md): josefk on disk, Kafka 3.9.2 in ZooKeeper mode on disk with "
        "its default JVM flags, Tansu 0.6.0 in memory, each started fresh for each section (and for each "
        "partition count), on 127.0.0.1. The load generators share the machine's two cores with the broker; "
        "the client CPU column says how much of them they took.",
        "",
        *summary,
        *body,
    ]
    kept = DOC.read_text().partition(HAND_WRITTEN)[2] if DOC.exists() else ""
    DOC.write_text("\n".join(out) + (f"\n{HAND_WRITTEN}{kept}" if kept else ""))
    print(f"wrote {DOC.relative_to(ROOT)}")


def analysis(rows: list[Row], meta: dict[str, Any], worst: list[tuple[float, str]]) -> list[str]:
    """What bounds the worst ratios, from this run's figures and the profile."""
    out: list[str] = []
    if worst:
        x, label = worst[0]
        out.append(f"**Worst josefk / Kafka ratio in this run: {label}, {x:.2f}x worse.** What bounds it, and the "
                   "other weak points, from this run's figures and the profile:")

    def three(key: str, **match: Any) -> tuple[float, float, float]:
        return tuple(num(find(rows, b, **match), key) for b in BROKERS)  # type: ignore[return-value]

    top = max(CONNECTIONS)
    active = find(rows, "josefk", role="conn-active", connections=top)
    connections_text = ""
    if active:
        meta_p99 = three("load_p99_ms", role="conn-active", connections=top)
        probe = three("p99_ms", role="conn-active", connections=top)
        cpu = three("cpu_ms_per_1k", role="conn-active", connections=top)
        rps = num(active, "load_rps")
        connections_text = (
            f"**Many active connections.** With {top:,} connections each sending Metadata once a second, josefk "
            f"answered {fmt(rps)} a second with a p99 of {fmt(meta_p99[0], 1)} ms (Kafka {fmt(meta_p99[1], 1)}, "
            f"Tansu {fmt(meta_p99[2], 1)}), and the probe producer's p99 was {fmt(probe[0], 1)} ms (Kafka "
            f"{fmt(probe[1], 1)}). At {fmt(cpu[0], 1)} CPU ms per 1,000 Metadata requests (Kafka {fmt(cpu[1], 1)}) "
            f"the {fmt(rps)} requests a second take {cpu[0] * rps / 1e4:.0f} % of a core, all of it from josefk's "
            "one event-loop thread. ")
        if meta_p99[0] > 2 * meta_p99[1] or probe[0] > 2 * probe[1]:
            connections_text += (
                f"The machine's load average was {fmt(num(active, 'load1'), 1)} during that step: the kernel "
                "shares the two cores out thread by thread among everything runnable, so josefk's one thread "
                "competes as one while Kafka's work is spread over dozens of threads. Whenever the one thread's "
                "share falls below what the request stream needs, requests queue in the event loop one behind the "
                "other, and the p99 is that queue; on a quieter machine the same step's p99 falls to a few ms "
                "(`--only connections` runs it alone). The bound is one thread doing all the work.")
        else:
            connections_text += ("That is well within one core, so the latencies stay with Kafka's; the cost "
                                 "shows as CPU and as memory.")
    memory_text = ""
    kb = three("kb_per_conn", role="conn-idle", connections=top)
    rss = three("rss_mb", role="conn-idle", connections=top)
    if kb[0] == kb[0]:
        memory_text = (
            f"**Memory per connection.** josefk's RSS grows by {kb[0]:.0f} KB per open connection "
            f"(Kafka {fmt(kb[1], 1)} KB, Tansu {fmt(kb[2], 1)} KB): its receive buffer starts at 4 KiB and "
            "doubles only while reads fill it (protocol/framing.py's FrameDecoder), and the rest is the "
            "connection's Python objects and the kernel's socket. Kafka sizes a request's buffer when its length "
            "prefix arrives and drops it after, and its per-connection objects live in a heap that is resident "
            f"already (`-Xms1G`), so its RSS hardly moves. At {top:,} connections josefk's total RSS is "
            f"{fmt(rss[0])} MB against Kafka's {fmt(rss[1])} MB.")
    request_text = ""
    rr = {n: three("msgs_s", role="request-rate", producers=n) for n in PRODUCERS}
    cpu_rr = {n: three("cpu_ms_per_1k", role="request-rate", producers=n) for n in PRODUCERS}
    low = min(PRODUCERS, key=lambda n: rr[n][0] / rr[n][1] if rr[n][1] == rr[n][1] and rr[n][1] else 1e9)
    if rr[low][0] == rr[low][0] and rr[low][1] == rr[low][1]:
        hot = [" ".join(line.split()) for line in meta.get("profile", "").splitlines()[3:6]]
        own = hot[0] if hot else ""
        busy = next((r for r in rows if r.get("role") == "profiled"), None)
        request_text = (
            f"**Request rate.** The lowest throughput ratio is the request rate at {low} producers: josefk "
            f"{fmt(rr[low][0])} requests/s, Kafka {fmt(rr[low][1])} ({rr[low][0] / rr[low][1]:.2f}x), at "
            f"{fmt(cpu_rr[low][0], 1)} against {fmt(cpu_rr[low][1], 1)} broker CPU ms per 1,000 requests. josefk "
            "runs every role on one asyncio event loop in one thread (docs/architecture.md): each Produce request "
            "is read, decoded, appended, answered and written by that thread, so one core is its ceiling whatever "
            "the number of producers (and on a loaded machine, one thread's share of the cores), while Kafka "
            "spreads the same work over 3 network and 8 I/O threads on both cores. "
            + (f"With one producer the request pipeline, not the CPU, sets the pace and josefk keeps up "
               f"({rr[1][0] / rr[1][1]:.2f}x). " if rr[1][0] >= 0.9 * rr[1][1] else "")
            + (f"The profile of that workload ({PROFILE_PRODUCERS} producers, Python and C frames) puts the biggest "
               f"own share in `{own}`: the writev() system call uvloop makes from Connection.flush, one per "
               "connection per event-loop turn for the small responses the turn completed, while holding the "
               "GIL (on loopback the kernel also hands the segment to the receiving socket inside that call). "
               "Nothing else comes close (next: "
               + ", ".join(f"`{h}`" for h in hot[1:]) + "); request decoding, the append path, response "
               "encoding and the metrics are a few percent each. "
               if own else "")
            + (f"In the profiled step the broker used {num(busy, 'cpu_s') / num(busy, 'seconds'):.0%} of one core "
               f"at a load average of {fmt(num(busy, 'load1'), 1)} (its thread waited for a core part of the "
               "time). " if busy else "")
            + "What would lift it: fewer per-request Python objects, and more than one broker process per "
            "host.")
    partitions_text = ""
    files = num(find(rows, "josefk", role="produce", partitions=1000), "open_files")
    if find(rows, "kafka", role="produce", partitions=max(PARTITIONS)) \
            and not find(rows, "josefk", role="produce", partitions=max(PARTITIONS)) and files == files:
        partitions_text = (
            f"**{max(PARTITIONS):,} partitions.** josefk failed this point (see the failed steps) while Kafka "
            f"served it. josefk held {fmt(files)} open files at 1,000 partitions (Kafka "
            f"{fmt(num(find(rows, 'kafka', role='produce', partitions=1000), 'open_files'))}): about "
            f"{files / 1000:.0f} per partition: a segment holds its log file open and, for each of its two "
            "indexes, the file and the duplicate descriptor Python's mmap keeps (log/index.py), so "
            f"{max(PARTITIONS):,} partitions need more than the open-file limit of {meta.get('nofile', '?')}. "
            "(Run alone, the broker logs `[Errno 24] Too many open files` near 4,000 partitions and, its only log "
            "directory failed, shuts down as Kafka would.) Kafka holds about one per partition: it closes an "
            "index file once it is memory-mapped.")
    order = {"RSS KB": memory_text, "Metadata": connections_text, "probe": connections_text}
    first = next((text for key, text in order.items() if worst and worst[0][1].startswith(key)), request_text)
    for text in (first, request_text, connections_text, memory_text, partitions_text):
        if text and text not in out:
            out.append(text)
    return out


def cpu_section(rows: list[Row], meta: dict[str, Any]) -> list[str]:
    """CPU s per GB and CPU ms per 1,000 requests for every broker, and the profile's top frames."""
    items: list[tuple[str, dict[str, Any], str, str]] = [  # label, match, per GB, per 1,000 requests
        *[(f"request rate, {n} producers (acks=1)", {"role": "request-rate", "producers": n}, "cpu_s_per_gb",
           "cpu_ms_per_1k") for n in PRODUCERS],
        *[(f"request rate, 3 brokers acks=all, {n} producers", {"role": "cluster-request-rate", "producers": n},
           "cpu_s_per_gb", "cpu_ms_per_1k") for n in CLUSTER_PRODUCERS],
        ("produce, 10 partitions, batched", {"role": "produce", "partitions": 10}, "cpu_s_per_gb", ""),
        ("consume, 10 partitions", {"role": "consume", "partitions": 10}, "cpu_s_per_gb", ""),
        ("replication produce, 3 brokers acks=all", {"role": "repl-produce"}, "cpu_s_per_gb", ""),
        ("5,000 connections, 1 Metadata/s each", {"role": "conn-active", "connections": 5000}, "", "cpu_ms_per_1k"),
    ]
    out = ["## Where the CPU goes", "",
           "Broker CPU (user + system from /proc, the three brokers' sum on a cluster) per GB of record payload "
           "(100 B records) and per 1,000 requests where the requests are counted (one record per Produce "
           "request; Metadata requests on the connections).", "",
           "| workload | CPU s per GB (" + " / ".join(("josefk", "Kafka", "Tansu")) + ") | josefk / Kafka "
           "| josefk / Tansu | CPU ms per 1,000 requests (josefk / Kafka / Tansu) | josefk / Kafka | josefk / Tansu |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for label, match, gb, per_k in items:
        if not any(find(rows, b, **match) for b in BROKERS):
            continue
        cells = []
        for key, digits in ((gb, 1), (per_k, 1)):
            vals = [num(find(rows, b, **match), key) if key else float("nan") for b in BROKERS]
            cells += [" / ".join(fmt(v, digits) for v in vals), ratio(vals[0], vals[1]), ratio(vals[0], vals[2])]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    if meta.get("profile"):
        out += ["", f"### Profile: josefk, request rate with {PROFILE_PRODUCERS} producers", "",
                "py-spy (`--gil --native`: samples of the thread holding the GIL, which in josefk is the one event "
                "loop thread that does all the work, with C frames such as system calls) at 200 Hz from 1 s before "
                "the step to its end; own = the function itself, total = with what it calls. Flamegraph: `"
                + meta.get("profile_svg", "") + "`.", "", "```",
                *meta["profile"].splitlines(), "```"]
    return out + [""]


# --------------------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 s steps, 20,000 records")
    parser.add_argument("--brokers", default=",".join(BROKERS), help="comma-separated subset of josefk,kafka,tansu")
    parser.add_argument("--only", metavar="SECTION[,SECTION]", default=",".join(SECTIONS),
                        help="run only these sections: " + ", ".join(SECTIONS))
    parser.add_argument("--report", metavar="CSV[,CSV]",
                        help="only re-render docs/benchmarks-broker.md from results CSVs (the first one's facts)")
    args = parser.parse_args()
    if args.report:
        paths = [Path(p) for p in args.report.split(",")]
        rows: list[Row] = []
        for path in paths:
            with open(path) as f:
                rows += list(csv.DictReader(f))
        write(rows, json.loads(paths[0].with_suffix(".json").read_text()))
        return 0
    sections = args.only.split(",")
    brokers = args.brokers.split(",")
    unknown = [s for s in sections if s not in SECTIONS] + [b for b in brokers if b not in BROKERS]
    if unknown:
        parser.error(f"unknown section or broker: {', '.join(unknown)} (sections: {', '.join(SECTIONS)}; "
                     f"brokers: {', '.join(BROKERS)})")
    plan = PLANS["quick" if args.quick else "default"]
    import confluent_kafka

    from harness import kafka as kafka_reference

    facts = run.machine_facts("broker-bound", sys.argv[1:])
    meta: dict[str, Any] = {k: facts[k] for k in ("date", "nproc", "cpu", "python", "java", "tansu", "kafka")}
    meta |= {"librdkafka": confluent_kafka.libversion()[0], "kafka": kafka_reference.KAFKA_VERSION,
             "command": " ".join([".venv/bin/python bench/broker_bound.py", *sys.argv[1:]]) if len(sys.argv) > 1
             else "make bench-broker", "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
             "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[1], "sections": sections}
    meta |= {k: getattr(plan, k) for k in Plan.__dataclass_fields__}
    stamp = time.strftime("%Y%m%d-%H%M%S")
    t_start = time.monotonic()
    rows = []
    failed: list[str] = []

    def attempt(what: str, fn: Any) -> None:
        try:
            rows.extend(fn())
        except Exception as e:  # noqa: BLE001  (a failed point must not lose the run)
            print(f"  FAILED: {what}: {e!r}", flush=True)
            failed.append(what)

    def fresh(name: str, fn: Any) -> Any:
        def go() -> list[Row]:
            with run.running(name) as b:
                return fn(b)
        return go

    def requests(b: run.AnyBroker) -> list[Row]:
        run.create_topic(b, "rr", 10)
        print("  warm-up (not recorded): 10 producers", flush=True)
        request_rate(b, 10, plan.rr_seconds)  # Kafka's JIT, josefk's and Tansu's first connections
        return [request_rate(b, n, plan.rr_seconds) for n in PRODUCERS]

    for name in brokers if "requests" in sections else []:
        print(f"[request rate: {name}]", flush=True)
        attempt(f"request rate ({name})", fresh(name, requests))
    for p in PARTITIONS if "partitions" in sections else []:
        for name in brokers if p != 100 else brokers[::-1]:
            print(f"[{p} partitions: {name}]", flush=True)
            attempt(f"{p} partitions ({name})", fresh(name, lambda b, p=p: partitions_step(b, p, plan.records)))
    for name in brokers if "connections" in sections else []:
        print(f"[connections: {name}]", flush=True)
        attempt(f"connections ({name})", fresh(name, lambda b: connections(b, plan.conn_seconds)))
    for name in brokers[::-1] if "latency" in sections else []:
        print(f"[tail latency: {name}]", flush=True)
        attempt(f"tail latency ({name})", fresh(name, lambda b: tail_latency(b, plan)))
    on_cluster = [s for s in ("cluster-requests", "replication") if s in sections]
    for kind in [b for b in brokers if b != "tansu"] if on_cluster else []:
        print(f"[3-broker cluster: {kind}: {', '.join(on_cluster)}]", flush=True)
        if not Path(run.ZOOKEEPER_JAR).exists():
            print(f"  skipped: needs ZooKeeper ({run.ZOOKEEPER_JAR})")
            break

        def cluster(kind: str = kind) -> list[Row]:
            with run.running_cluster(kind) as c:
                return cluster_section(c, plan, on_cluster)
        attempt(f"3-broker cluster ({kind})", cluster)
    if "profile" in sections and "josefk" in brokers:
        print("[profile: josefk, request rate]", flush=True)

        def profiled() -> list[Row]:
            prof_rows, meta["profile"] = profile_section(plan, stamp)
            meta["profile_svg"] = f"bench/results/profile-{stamp}-request-rate.svg"
            return prof_rows
        attempt("profile (josefk)", profiled)
    meta |= {"seconds": round(time.monotonic() - t_start), "failed": failed,
             "load_after": " ".join(f"{x:.2f}" for x in os.getloadavg())}
    run.RESULTS.mkdir(parents=True, exist_ok=True)
    csv_path = run.RESULTS / f"broker-{stamp}.csv"
    meta["csv"] = str(csv_path.relative_to(ROOT))
    fields = FIELDS + [k for k in dict.fromkeys(k for r in rows for k in r) if k not in FIELDS]
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    csv_path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    print(f"wrote {csv_path} ({meta['seconds']} s)")
    write([{k: str(v) for k, v in r.items()} for r in rows], meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
