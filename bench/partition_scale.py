"""What many partitions cost one josefk broker, for one build or two side by side (before/after
ratios measured in one run): open files by kind, topic creation time, Metadata time, RSS and
start-up time.

    .venv/bin/python bench/partition_scale.py --partitions 1000,10000
    .venv/bin/python bench/partition_scale.py --josefk /tmp/base/.venv/bin/josefk,.venv/bin/josefk

For each build and partition count: a fresh broker; one topic of that many partitions created
through the admin client (timed until every partition has a leader); the broker's file
descriptors grouped by what they point at (/proc/PID/fd: .log, .index, .timeindex, sockets...);
Metadata v1 for all topics (broker_bound.py's: median of 20 on a raw socket); VmRSS; then a
clean restart, timed until the broker accepts connections and until Metadata again shows a
leader for every partition (the stop is a clean one, however long it takes).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

import run
from broker_bound import metadata_ms


def fds_by_kind(pid: int) -> Counter[str]:
    """The process's open descriptors, keyed by file suffix (or socket, pipe, ...)."""
    kinds: Counter[str] = Counter()
    fd_dir = Path(f"/proc/{pid}/fd")
    for name in os.listdir(fd_dir):
        try:
            target = os.readlink(fd_dir / name)
        except FileNotFoundError:
            continue
        if ":" in target and not target.startswith("/"):
            kinds[target.split(":")[0]] += 1
        else:
            suffix = Path(target.removesuffix(" (deleted)")).suffix
            kinds[suffix if suffix in (".log", ".index", ".timeindex", ".txnindex", ".snapshot") else "other"] += 1
    return kinds


def leaders_ready(b: run.Broker, topic: str, partitions: int, timeout: float = 300) -> float:
    """Seconds until Metadata shows a leader for each of the topic's partitions."""
    from confluent_kafka.admin import AdminClient

    t0 = time.monotonic()
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    while time.monotonic() - t0 < timeout:
        meta = admin.list_topics(topic, timeout=30).topics.get(topic)
        if meta and meta.error is None and len(meta.partitions) == partitions \
                and all(p.leader >= 0 for p in meta.partitions.values()):
            return time.monotonic() - t0
        time.sleep(0.1)
    raise RuntimeError(f"{topic} has no leaders after {timeout} s")


def measure(partitions: int) -> dict[str, float | str]:
    b = run.Broker("josefk")
    try:
        b.start()
        t0 = time.monotonic()
        run.create_topic(b, "p", partitions)
        created = time.monotonic() - t0
        kinds = fds_by_kind(b.proc.pid)
        total = sum(kinds.values())
        row: dict[str, float | str] = {
            "created_s": round(created, 2), "fds": total, "fds_per_partition": round(total / partitions, 2),
            "by_kind": " ".join(f"{k}={v}" for k, v in kinds.most_common()),
            "metadata_ms": metadata_ms(b), "rss_mb": round(b.memory_mb("VmRSS"), 1)}
        assert b.server is not None
        t0 = time.monotonic()
        b.server.stop(600)  # a clean stop (Broker.stop kills after 30 s, making the restart a recovery)
        stopped = time.monotonic() - t0
        t0 = time.monotonic()
        b.start()
        accepting = time.monotonic() - t0
        ready = accepting + leaders_ready(b, "p", partitions)
        row |= {"stop_s": round(stopped, 2), "restart_accept_s": round(accepting, 2),
                "restart_ready_s": round(ready, 2),
                "fds_after_restart": sum(fds_by_kind(b.proc.pid).values()),
                "rss_after_restart_mb": round(b.memory_mb("VmRSS"), 1)}
        return row
    finally:
        b.cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", default="1000", help="comma-separated partition counts")
    parser.add_argument("--josefk", default=run.JOSEFK[0],
                        help="comma-separated josefk executables (the first is the baseline of the ratios)")
    args = parser.parse_args()
    try:
        counts = [int(p) for p in args.partitions.split(",")]
    except ValueError:
        parser.error(f"--partitions must be comma-separated integers, not {args.partitions!r}")
    builds = [str(Path(j).absolute()) for j in args.josefk.split(",")]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    results: dict[tuple[int, str], dict[str, float | str]] = {}
    for p in counts:
        for exe in builds:
            run.JOSEFK[0] = exe
            row = results[p, exe] = measure(p)
            print(f"{p} partitions, {exe}:", flush=True)
            for key, value in row.items():
                print(f"  {key:22s} {value}", flush=True)
        if len(builds) > 1:
            base = results[p, builds[0]]
            for exe in builds[1:]:
                new = results[p, exe]
                ratios = {k: f"{float(new[k]) / float(base[k]):.2f}x" for k in new
                          if k != "by_kind" and float(base[k])}
                print(f"{p} partitions, {exe} / {builds[0]}: "
                      + ", ".join(f"{k} {v}" for k, v in ratios.items()), flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
