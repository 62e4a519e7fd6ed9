"""The broker's cost of a Fetch over many mostly empty partitions, for one build or two side by
side (before/after ratios measured in one run, the builds alternated):

    .venv/bin/python bench/fetch_many.py --partitions 10000 --data /tmp/fm \
        --josefk /tmp/base/.venv/bin/josefk,.venv/bin/josefk

For each build, `--rounds` times: the broker started anew on one data directory (`--data` keeps
it between runs: the topic of that many partitions, with 20,000 records in a few of them, is
created on the first start only; a start times accepting connections and every partition led).
Every fetch offset is at the log end (nothing new anywhere). Then, on a raw socket (max_wait_ms
0, so each answer is the broker's work alone):
- sessionless: a full Fetch v12 (librdkafka's shape: every partition, session epoch -1);
- full: a Fetch v16 with epoch 0 (opens a session);
- incremental: fetches of that session naming no partition (the Java consumer's shape when
  nothing changed), each with the next epoch;
- metadata: Metadata v1 for all topics, repeated (cached), and after a change (a new topic).
Each figure is the median wall ms and the mean broker CPU ms (utime+stime from /proc) of
`--fetches` requests after 3 untimed. FETCH_MANY_PROFILE=name has py-spy sample the broker
during the sessionless and incremental fetches (bench/results/profile-fetch-name-*.txt).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import run
from partition_scale import leaders_ready

from harness.josefk import BrokerProcess  # noqa: E402  (run puts ROOT on sys.path)
from harness.wire import encode_request, read_frame  # noqa: E402
from josefk.protocol.messages.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from josefk.protocol.messages.generated.fetch_response import FetchResponse
from josefk.protocol.messages.generated.metadata_request import MetadataRequest, MetadataRequestTopic

FETCH, METADATA = 1, 3
PY_SPY = str(run.ROOT / ".venv/bin/py-spy")
PROFILE = os.environ.get("FETCH_MANY_PROFILE", "")


def fetch_frame(version: int, topics: list[FetchTopic], session_id: int, epoch: int, cid: int) -> bytes:
    body = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=52_428_800, isolation_level=0,
                        session_id=session_id, session_epoch=epoch, topics=topics)
    return encode_request(FETCH, version, body, correlation_id=cid)


def call(sock: socket.socket, frame: bytes) -> bytes:
    sock.sendall(frame)
    return read_frame(sock)


def fetch_response(version: int, frame: bytes) -> FetchResponse:
    header = 4 + (1 if version >= 12 else 0)  # correlation id, then the flexible header's tagged fields
    return FetchResponse.decode(memoryview(frame)[header:], version)


def timed(b: run.Broker, n: int, send: Callable[[int], Any], profile: str = "") -> tuple[float, float]:
    """Median wall ms and mean broker CPU ms per call of send(i), after 3 untimed calls; with
    `profile`, py-spy samples the broker meanwhile into bench/results/profile-fetch-<profile>.txt."""
    for i in range(3):
        send(i)
    spy = None
    if profile:
        run.RESULTS.mkdir(parents=True, exist_ok=True)
        out = run.RESULTS / f"profile-fetch-{profile}.txt"
        spy = subprocess.Popen([PY_SPY, "record", "--pid", str(b.proc.pid), "--rate", "200", "--format", "raw",
                                "--function", "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # let py-spy attach
    walls = []
    c0 = b.cpu_seconds()
    for i in range(3, 3 + n):
        t0 = time.perf_counter()
        send(i)
        walls.append(time.perf_counter() - t0)
    cpu = b.cpu_seconds() - c0
    if spy is not None:
        spy.send_signal(signal.SIGINT)
        spy.wait(60)
    return round(statistics.median(walls) * 1e3, 2), round(cpu / n * 1e3, 1)


def measure(b: run.Broker, partitions: int, fetches: int, tag: str) -> dict[str, float]:
    host, port = b.bootstrap.rsplit(":", 1)
    out: dict[str, float] = {}
    with socket.create_connection((host, int(port)), timeout=120) as sock:
        meta = MetadataRequest(topics=[MetadataRequestTopic(name="p")])
        call(sock, encode_request(METADATA, 12, meta))
        # every partition's log end, from one full fetch at offset 0 (high watermarks)
        names = [FetchTopic(topic="p", partitions=[FetchPartition(partition=p, fetch_offset=0,
                                                                  partition_max_bytes=1)
                                                   for p in range(partitions)])]
        first = fetch_response(12, call(sock, fetch_frame(12, names, 0, -1, 9)))
        ends = {p.partition_index: p.high_watermark for t in first.responses for p in t.partitions}
        topic_id = run_topic_id(sock)

        def topics(by_id: bool) -> list[FetchTopic]:
            parts = [FetchPartition(partition=p, fetch_offset=ends[p], partition_max_bytes=1_048_576,
                                    current_leader_epoch=-1) for p in range(partitions)]
            return [FetchTopic(topic_id=topic_id, partitions=parts) if by_id else FetchTopic(topic="p",
                                                                                            partitions=parts)]

        sessionless = fetch_frame(12, topics(False), 0, -1, 10)
        out["sessionless_ms"], out["sessionless_cpu_ms"] = timed(b, fetches, lambda i: call(sock, sessionless),
                                                                     PROFILE and f"{PROFILE}-{tag}-sessionless")
        full = fetch_frame(16, topics(True), 0, 0, 11)
        session = fetch_response(16, call(sock, full)).session_id
        assert session, "no fetch session created"
        out["full_ms"], out["full_cpu_ms"] = timed(b, 3, lambda i: call(sock, full))  # each opens a new session
        session = fetch_response(16, call(sock, full)).session_id

        def incremental(i: int) -> None:
            resp = fetch_response(16, call(sock, fetch_frame(16, [], session, i + 1, 12)))
            assert resp.error_code == 0 and not resp.responses, (resp.error_code, len(resp.responses))
        out["incremental_ms"], out["incremental_cpu_ms"] = timed(b, fetches, incremental,
                                                                     PROFILE and f"{PROFILE}-{tag}-incremental")
        all_topics = encode_request(METADATA, 1, MetadataRequest(topics=None))
        out["metadata_ms"], out["metadata_cpu_ms"] = timed(b, fetches, lambda i: call(sock, all_topics))

        def changed(i: int) -> None:  # a new topic invalidates whatever the broker cached
            run.create_topic(b, f"x{tag}-{i}-{time.time_ns()}", 1)
            c0, t0 = b.cpu_seconds(), time.perf_counter()
            call(sock, all_topics)
            changed_samples.append((time.perf_counter() - t0, b.cpu_seconds() - c0))
        changed_samples: list[tuple[float, float]] = []
        for i in range(min(fetches, 5)):
            changed(i)
        out["metadata_changed_ms"] = round(statistics.median(s[0] for s in changed_samples) * 1e3, 2)
        out["metadata_changed_cpu_ms"] = round(statistics.median(s[1] for s in changed_samples) * 1e3, 1)
    return out


def create_topic(b: run.Broker, topic: str, partitions: int) -> None:
    """run.create_topic's, with room for 10,000 partitions on a loaded machine."""
    from confluent_kafka.admin import AdminClient, NewTopic
    admin = AdminClient({"bootstrap.servers": b.bootstrap, "socket.timeout.ms": 300_000})
    admin.create_topics([NewTopic(topic, partitions, 1)], request_timeout=600)[topic].result(600)
    leaders_ready(b, topic, partitions, 600)


def wait_led(b: run.Broker, topic: str, partitions: int, timeout: float = 900) -> None:
    """Until every partition has a leader; a broker loading 10,000 logs on a loaded machine
    may not answer the first Metadata requests in the admin client's time."""
    from confluent_kafka import KafkaException
    deadline = time.monotonic() + timeout
    while True:
        try:
            leaders_ready(b, topic, partitions, max(1.0, deadline - time.monotonic()))
            return
        except KafkaException:
            if time.monotonic() > deadline:
                raise


def run_topic_id(sock: socket.socket) -> Any:
    from josefk.protocol.messages.generated.metadata_response import MetadataResponse
    frame = call(sock, encode_request(METADATA, 12, MetadataRequest(topics=[MetadataRequestTopic(name="p")])))
    resp = MetadataResponse.decode(memoryview(frame)[5:], 12)
    return resp.topics[0].topic_id


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--partitions", type=int, default=10_000)
    parser.add_argument("--josefk", default=run.JOSEFK[0], help="comma-separated josefk launchers (builds)")
    parser.add_argument("--rounds", type=int, default=2, help="starts per build, alternated")
    parser.add_argument("--fetches", type=int, default=10, help="timed requests per figure")
    parser.add_argument("--data", help="a data directory kept between runs (the topic is created once)")
    args = parser.parse_args()
    builds = [str(Path(j).absolute()) for j in args.josefk.split(",")]
    data = Path(args.data) if args.data else Path(tempfile.mkdtemp(prefix="fetch-many-"))
    data.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    try:
        for rnd in range(args.rounds):
            for build in builds:
                run.JOSEFK[0] = build
                b = run.Broker("josefk", data_dir=data)
                t0 = time.monotonic()
                b.server = BrokerProcess(data / "logs", b.port, b.overrides, output=data / "josefk.out",
                                         launcher=(build,), start_timeout=600, cwd=data)  # loads every log first
                row = {"accepting_s": round(time.monotonic() - t0, 2)}
                try:
                    if not (data / "created").exists():
                        create_topic(b, "p", args.partitions)
                        run.produce_step(b, "p", 1, 20_000, 100, args.partitions)
                        (data / "created").touch()
                    else:
                        wait_led(b, "p", args.partitions)
                        row["led_s"] = round(time.monotonic() - t0, 2)
                    row |= measure(b, args.partitions, args.fetches, f"{rnd}-{Path(build).parts[-4]}")
                finally:
                    assert b.server is not None
                    b.server.stop(600)  # a clean stop: the next start is no recovery
                print(f"round {rnd} {build} {args.partitions} partitions (load {os.getloadavg()[0]:.2f}): "
                      + " ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    finally:
        if not args.data:
            shutil.rmtree(data, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
