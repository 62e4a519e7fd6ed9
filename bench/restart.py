"""Broker restart time with many partitions and a lot of data (issue 3's benchmark).

    .venv/bin/python bench/restart.py [--partitions 1000] [--total-mb 1024] [--segment-mb 1] [--dir DIR]

Steps: a broker creates the topics (10 partitions each) and stops cleanly; the data is then
written straight into the partition logs with josefk's Log (v2 batches of ~16 KB, the
bytes a producer would have sent), which is much faster than producing 1 GB through a
client and yields the same files. Then three restarts are timed, each from process start
until (a) the port accepts connections and (b) a Metadata request lists every topic with
a leader for every partition:

1. after a clean shutdown (SIGTERM): the .kafka_cleanshutdown marker skips recovery;
2. after kill -9 of a running broker: segments after each log's recovery point are
   recovered (here the recovery points are current, so little is re-read);
3. after kill -9 with recovery-point-offset-checkpoint removed: the worst case, every
   segment of every partition is re-read and CRC-checked.

Every segment holds three open files (log and two indexes), so 1 GB in 0.25 MiB segments
over 1,000 partitions needs ~15,000 descriptors: mind `ulimit -n` (Kafka has the same need).

Not a test: it prints the figures and the command.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.net import free_port  # noqa: E402
from harness.wire import call  # noqa: E402
from josefk.log.config import LogConfig  # noqa: E402
from josefk.log.log import Log  # noqa: E402
from josefk.protocol.apis import ApiKey  # noqa: E402
from josefk.protocol.record_codec import Record, build_batch  # noqa: E402

PARTITIONS_PER_TOPIC = 10


def start_broker(log_dir: Path, port: int, segment_bytes: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "josefk", "broker", str(ROOT / "config/server.properties"),
           "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}", "--override", f"log.dirs={log_dir}",
           "--override", f"log.segment.bytes={segment_bytes}", "--override", "num.partitions=10",
           "--log-level", "WARNING"]
    return subprocess.Popen(cmd)


def wait_ready(proc: subprocess.Popen, port: int, topics: int, partitions: int,
               timeout: float = 600) -> tuple[float, float]:
    """(seconds until the port accepts, seconds until Metadata shows every partition led)."""
    started = time.monotonic()
    deadline = started + timeout
    port_open = None
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"broker exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise TimeoutError("broker not ready")
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            time.sleep(0.01)
            continue
        if port_open is None:
            port_open = time.monotonic() - started
        try:
            with sock:
                _, response = call(sock, ApiKey.Metadata, 1, topics=None)
            led = sum(1 for t in response.topics if t.error_code == 0
                      for p in t.partitions if p.error_code == 0 and p.leader_id >= 0)
            if len(response.topics) >= topics and led >= partitions:
                return port_open, time.monotonic() - started
        except (OSError, ConnectionError):
            pass
        time.sleep(0.05)


def create_topics(log_dir: Path, port: int, topics: list[str], segment_bytes: int) -> None:
    proc = start_broker(log_dir, port, segment_bytes)
    try:
        wait_ready(proc, port, 0, 0)
        from kafka import KafkaAdminClient
        from kafka.admin import NewTopic

        admin = KafkaAdminClient(bootstrap_servers=f"127.0.0.1:{port}", request_timeout_ms=120_000)
        for i in range(0, len(topics), 20):
            admin.create_topics([NewTopic(t, PARTITIONS_PER_TOPIC, 1) for t in topics[i:i + 20]])
        admin.close()
        wait_ready(proc, port, len(topics), len(topics) * PARTITIONS_PER_TOPIC)
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(300)


def fill(log_dir: Path, topics: list[str], total_bytes: int, segment_bytes: int) -> int:
    """Append ~total_bytes of 16 KB batches across every partition; returns bytes written."""
    partitions = [(t, p) for t in topics for p in range(PARTITIONS_PER_TOPIC)]
    per_partition = total_bytes // len(partitions)
    now = int(time.time() * 1000)
    records = [Record(i, now, b"key-%d" % i, os.urandom(150)) for i in range(100)]
    template = build_batch(records)
    cfg = LogConfig(segment_bytes=segment_bytes)
    written = 0
    for topic, p in partitions:
        log = Log(log_dir / f"{topic}-{p}", cfg)
        while log.size_in_bytes < per_partition:
            log.append_as_leader(bytearray(template), leader_epoch=0, now_ms=now)
        written += log.size_in_bytes
        log.flush()
        log.close()
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--partitions", type=int, default=1000)
    ap.add_argument("--total-mb", type=float, default=1024)
    ap.add_argument("--segment-mb", type=float, default=1.0)
    ap.add_argument("--dir", type=Path, default=None, help="log dir (default: a temporary one, removed after)")
    args = ap.parse_args()
    log_dir = args.dir or Path(tempfile.mkdtemp(prefix="josefk-restart-"))
    segment_bytes = int(args.segment_mb * 1024 * 1024)
    topics = [f"bench-{i:04d}" for i in range((args.partitions + PARTITIONS_PER_TOPIC - 1) // PARTITIONS_PER_TOPIC)]
    n_partitions = len(topics) * PARTITIONS_PER_TOPIC
    port = free_port()
    try:
        t = time.monotonic()
        create_topics(log_dir, port, topics, segment_bytes)
        print(f"created {len(topics)} topics, {n_partitions} partitions in {time.monotonic() - t:.1f} s", flush=True)
        t = time.monotonic()
        written = fill(log_dir, topics, int(args.total_mb * 1024 * 1024), segment_bytes)
        segments = sum(1 for _ in log_dir.glob("*/*.log"))
        print(f"wrote {written / 2**20:.0f} MiB in {segments} segments in {time.monotonic() - t:.1f} s", flush=True)
        subprocess.run(["sync"], check=False)

        results = []
        proc = start_broker(log_dir, port, segment_bytes)  # first start after the offline fill
        wait_ready(proc, port, len(topics), n_partitions)
        stop(proc)
        for label, kill, drop_checkpoint in [("clean shutdown", False, False), ("kill -9", True, False),
                                            ("kill -9, no recovery checkpoint", True, True)]:
            if kill:
                proc = start_broker(log_dir, port, segment_bytes)
                wait_ready(proc, port, len(topics), n_partitions)
                time.sleep(1.5)  # let the flusher write its checkpoints, as a running broker would
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                if drop_checkpoint:
                    (log_dir / "recovery-point-offset-checkpoint").unlink(missing_ok=True)
            proc = start_broker(log_dir, port, segment_bytes)
            port_s, ready_s = wait_ready(proc, port, len(topics), n_partitions)
            stop(proc)
            results.append((label, port_s, ready_s))
            print(f"restart after {label}: port open {port_s:.2f} s, metadata with all {n_partitions} "
                  f"partitions {ready_s:.2f} s", flush=True)
        print()
        print(f"command: .venv/bin/python bench/restart.py --partitions {args.partitions} "
              f"--total-mb {args.total_mb:g} --segment-mb {args.segment_mb:g}")
        print(f"{'scenario':36} {'port open':>10} {'metadata ready':>15}")
        for label, port_s, ready_s in results:
            print(f"{label:36} {port_s:>9.2f}s {ready_s:>14.2f}s")
    finally:
        if args.dir is None:
            shutil.rmtree(log_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
