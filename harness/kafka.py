"""Apache Kafka 3.9 itself, the reference josefk is checked against: its jars, its
DumpLogSegments tool and a broker in ZooKeeper mode on 127.0.0.1, stopped by its handle.

The jars come from Maven Central through compat/kafka/pom.xml (`make kafka-jars` copies
them to compat/.envs/kafka/lib, outside git). The JVM flags are the ones Kafka's own
scripts use (kafka-server-start.sh's heap, kafka-run-class.sh's performance options).
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
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

    def classpath(self) -> str:
        jar = self.lib / f"kafka_2.13-{self.version}.jar"
        if not jar.exists():
            raise RuntimeError(f"Apache Kafka {self.version}'s jars are missing ({jar}): "
                               f"run `make {self.make_target}` (make test does)")
        return f"{self.lib}/*"


KAFKA_3_9 = KafkaRelease(KAFKA_VERSION, KAFKA_LIB, "kafka-jars")
# The last 2.x release, for josefk joining a cluster of older brokers (tests/test_old_ibp.py).
KAFKA_2_8 = KafkaRelease("2.8.2", ROOT / "compat" / ".envs" / "kafka28" / "lib", "kafka28-jars")


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


class KafkaBroker:
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
        (work_dir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        (work_dir / "log4j.properties").write_text(
            "log4j.rootLogger=INFO, file\n"
            "log4j.appender.file=org.apache.log4j.FileAppender\n"
            f"log4j.appender.file.File={work_dir / 'server.log'}\n"
            "log4j.appender.file.layout=org.apache.log4j.PatternLayout\n"
            "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n\n")
        self.server_log = work_dir / "server.log"
        self._log_start = self.server_log.stat().st_size if self.server_log.exists() else 0  # a restart appends
        self.proc = subprocess.Popen(
            ["java", *HEAP_OPTS, *JVM_PERFORMANCE_OPTS, f"-Dlog4j.configuration=file:{work_dir / 'log4j.properties'}",
             "-cp", release.classpath(), "kafka.Kafka", str(work_dir / "server.properties")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_ready(broker_id, timeout=90)

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
