"""Apache Kafka itself, the reference josefk is checked against: its jars, its
DumpLogSegments tool, a 3.9 broker in ZooKeeper mode and a 4.4 broker in KRaft combined mode
(broker and controller in one process), each on 127.0.0.1 and stopped by its handle.

The jars come from Maven Central through compat/kafka/pom.xml and compat/kafka4/pom.xml
(`make kafka-jars` and `make kafka4-jars` copy them to compat/.envs/kafka/lib and
compat/.envs/kafka4/lib, outside git). The JVM flags are the ones Kafka's own scripts use
(kafka-server-start.sh's heap, kafka-run-class.sh's performance options).
"""

from __future__ import annotations

import base64
import re
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from harness.net import free_port
from harness.wire import call, connect

ROOT = Path(__file__).resolve().parent.parent
KAFKA_LIB = ROOT / "compat" / ".envs" / "kafka" / "lib"
KAFKA_VERSION = "3.9.2"
HEAP_OPTS = ["-Xmx1G", "-Xms1G"]
JVM_PERFORMANCE_OPTS = ["-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
                        "-XX:+ExplicitGCInvokesConcurrent", "-XX:MaxInlineLevel=15", "-Djava.awt.headless=true"]
SEGMENT_FILES = (".log", ".index", ".timeindex", ".snapshot")
# What DumpLogSegments prints when a file is not what Kafka would have written.
DUMP_PROBLEMS = re.compile(r"mismatch|not found in the log|failed sanity check|out of order|exception|error|corrupt",
                           re.IGNORECASE)


@dataclass(frozen=True)
class KafkaRelease:
    """A Kafka release whose jars `make <make_target>` copies to `lib`."""

    version: str
    lib: Path
    make_target: str
    log4j2: bool = False  # Kafka 4 logs through log4j2; 2.x and 3.x through log4j 1 (reload4j)

    def classpath(self) -> str:
        jar = self.lib / f"kafka_2.13-{self.version}.jar"
        if not jar.exists():
            raise RuntimeError(f"Apache Kafka {self.version}'s jars are missing ({jar}): "
                               f"run `make {self.make_target}` (make test does)")
        return f"{self.lib}/*"

    def logging(self, work_dir: Path, log_file: Path) -> str:
        """Writes a logging configuration into `work_dir` that sends every INFO line to
        `log_file`; the JVM flag that points this release at it."""
        if self.log4j2:
            # shutdownHook=disable: log4j2's own hook would stop logging before Kafka's shutdown ends
            (work_dir / "log4j2.properties").write_text(
                "shutdownHook=disable\n"
                "rootLogger.level=INFO\n"
                "rootLogger.appenderRef.file.ref=file\n"
                "appender.file.type=File\n"
                "appender.file.name=file\n"
                f"appender.file.fileName={log_file}\n"
                "appender.file.layout.type=PatternLayout\n"
                "appender.file.layout.pattern=[%d] %p %m (%c)%n\n")
            return f"-Dlog4j2.configurationFile=file:{work_dir / 'log4j2.properties'}"
        (work_dir / "log4j.properties").write_text(
            "log4j.rootLogger=INFO, file\n"
            "log4j.appender.file=org.apache.log4j.FileAppender\n"
            f"log4j.appender.file.File={log_file}\n"
            "log4j.appender.file.layout=org.apache.log4j.PatternLayout\n"
            "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n\n")
        return f"-Dlog4j.configuration=file:{work_dir / 'log4j.properties'}"


KAFKA_3_9 = KafkaRelease(KAFKA_VERSION, KAFKA_LIB, "kafka-jars")
# The last 2.x release, for josefk joining a cluster of older brokers (tests/test_old_ibp.py).
KAFKA_2_8 = KafkaRelease("2.8.2", ROOT / "compat" / ".envs" / "kafka28" / "lib", "kafka28-jars")
# The Kafka 4 line: KRaft only, and the protocol versions KIP-896 removed are gone.
KAFKA_4_4 = KafkaRelease("4.4.0", ROOT / "compat" / ".envs" / "kafka4" / "lib", "kafka4-jars", log4j2=True)


def kafka_classpath() -> str:
    return KAFKA_3_9.classpath()


def dump_log_segments(files: list[Path], *flags: str) -> str:
    """Kafka's kafka-dump-log.sh with --deep-iteration (and `flags`, e.g. a decoder) over
    `files`; its output. Index files are checked entry by entry against their log segments."""
    result = subprocess.run(["java", "-Xmx512m", "-cp", kafka_classpath(), "kafka.tools.DumpLogSegments",
                             "--deep-iteration", *flags, "--files", ",".join(map(str, files))],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout + result.stderr


def segment_files(log_dir: Path) -> list[Path]:
    return sorted(p for p in log_dir.rglob("*") if p.suffix in SEGMENT_FILES)


class _KafkaProcess:
    """A Kafka JVM (kafka.Kafka) on a generated server.properties: started, ready once Metadata
    lists its node, stopped by its handle. What the ZooKeeper and KRaft brokers share."""

    release: KafkaRelease
    port: int
    log_dir: Path

    def _launch(self, work_dir: Path, props: dict[str, str], node_id: int, timeout: float = 90) -> None:
        (work_dir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        self.server_log = work_dir / "server.log"
        logging = self.release.logging(work_dir, self.server_log)
        self._log_start = self.server_log.stat().st_size if self.server_log.exists() else 0  # a restart appends
        self.proc = subprocess.Popen(
            ["java", *HEAP_OPTS, *JVM_PERFORMANCE_OPTS, logging,
             "-cp", self.release.classpath(), "kafka.Kafka", str(work_dir / "server.properties")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_ready(node_id, timeout)
        except BaseException:  # a test's timeout or SIGTERM during start-up: no JVM outlives it
            self.kill()
            raise

    def _wait_ready(self, broker_id: int, timeout: float) -> None:
        """Ready once Metadata lists this broker (it has registered and has its metadata)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with connect(self.bootstrap) as sock:
                    _cid, response = call(sock, 3, 1, topics=[])
                if any(b.node_id == broker_id for b in response.brokers):
                    return
            except (OSError, ConnectionError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                tail = self._this_run_log()[-3000:]
                raise RuntimeError(f"Kafka {self.release.version} did not start:\n{tail}")
            time.sleep(0.2)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def stop(self) -> bool:
        """SIGTERM: Kafka's controlled shutdown. True if it completed (the JVM itself exits
        143 after its shutdown hook, so the log says whether the shutdown was clean)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.kill()
        return "shut down completed" in self._this_run_log()

    def _this_run_log(self) -> str:
        if not self.server_log.exists():
            return ""
        with open(self.server_log, errors="replace") as f:
            f.seek(self._log_start)
            return f.read()


class KafkaBroker(_KafkaProcess):
    """A Kafka broker (3.9 unless another `release`) in ZooKeeper mode, with a generated
    server.properties."""

    def __init__(self, work_dir: Path, zookeeper_connect: str, broker_id: int = 1,
                 overrides: dict[str, str] | None = None, port: int | None = None,
                 release: KafkaRelease = KAFKA_3_9) -> None:
        """`port`: listen there instead of on a free port (a restart on an existing work_dir
        keeps its clients' bootstrap address)."""
        self.release = release
        self.port = port or free_port()
        self.log_dir = work_dir / "logs"
        work_dir.mkdir(parents=True, exist_ok=True)
        props = {"broker.id": str(broker_id), "listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
                 "log.dirs": str(self.log_dir), "zookeeper.connect": zookeeper_connect,
                 "offsets.topic.replication.factor": "1", "transaction.state.log.replication.factor": "1",
                 "transaction.state.log.min.isr": "1", "group.initial.rebalance.delay.ms": "0",
                 **(overrides or {})}
        self._launch(work_dir, props, broker_id)


# A bound on a KRaft node's start, not a wait: it starts a controller and a broker, and the
# compat matrix's group-commit-resume starts several at once; at load 30-40 on two cores some
# took over 90 s.
KRAFT_START_TIMEOUT = 180.0


def random_cluster_id() -> str:
    """A cluster id as Kafka's Uuid.randomUuid() makes one: 16 random bytes, URL-safe base64
    without padding, never starting with '-' (a command line would read it as an option)."""
    while True:
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not cluster_id.startswith("-"):
            return cluster_id


class KRaftBroker(_KafkaProcess):
    """A Kafka 4.4 node in KRaft combined mode (process.roles=broker,controller): its own
    single-voter quorum on a CONTROLLER listener, its log dir formatted by Kafka's StorageTool
    with a random cluster id on the first start. The feature levels 4.4 supports for the new
    group protocols are finalized at format time: group.version (KIP-848 consumer groups),
    share.version (KIP-932 share groups), streams.version (KIP-1071 streams groups), and the
    group coordinator accepts the classic, consumer and streams protocols (4.4's default)."""

    FEATURES = {"group.version": "1", "share.version": "2", "streams.version": "1"}

    def __init__(self, work_dir: Path, node_id: int = 1, overrides: dict[str, str] | None = None,
                 port: int | None = None, release: KafkaRelease = KAFKA_4_4) -> None:
        """`port`: listen there instead of on a free port; a restart on an existing work_dir
        (already formatted) keeps its cluster id and data."""
        self.release = release
        self.port = port or free_port()
        self.controller_port = free_port()
        self.log_dir = work_dir / "logs"
        work_dir.mkdir(parents=True, exist_ok=True)
        props = {"process.roles": "broker,controller", "node.id": str(node_id),
                 "controller.quorum.voters": f"{node_id}@127.0.0.1:{self.controller_port}",
                 "listeners": f"PLAINTEXT://127.0.0.1:{self.port}", "listener.security.protocol.map":
                 "PLAINTEXT:PLAINTEXT", "controller.listener.names": "CONTROLLER",
                 "inter.broker.listener.name": "PLAINTEXT",
                 "log.dirs": str(self.log_dir), "offsets.topic.replication.factor": "1",
                 "transaction.state.log.replication.factor": "1", "transaction.state.log.min.isr": "1",
                 "share.coordinator.state.topic.replication.factor": "1",
                 "share.coordinator.state.topic.min.isr": "1", "group.initial.rebalance.delay.ms": "0",
                 **(overrides or {})}
        # The controller's own listener, whatever listeners the caller gave (Kafka advertises
        # every listener but the controller's to clients).
        props["listeners"] += f",CONTROLLER://127.0.0.1:{self.controller_port}"
        props["listener.security.protocol.map"] += ",CONTROLLER:PLAINTEXT"
        (work_dir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        if not (self.log_dir / "meta.properties").exists():
            self._format(work_dir)
        self._launch(work_dir, props, node_id, KRAFT_START_TIMEOUT)

    def _format(self, work_dir: Path) -> None:
        """kafka-storage.sh format, through the class it runs."""
        features = [arg for name, level in self.FEATURES.items() for arg in ("--feature", f"{name}={level}")]
        result = subprocess.run(
            ["java", "-Xmx256m", self.release.logging(work_dir, work_dir / "format.log"), "-cp",
             self.release.classpath(), "kafka.tools.StorageTool", "format", "--config",
             str(work_dir / "server.properties"), "--cluster-id", random_cluster_id(), *features],
            capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"kafka-storage format failed ({result.returncode}):\n"
                               f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
