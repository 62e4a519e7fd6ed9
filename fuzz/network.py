"""Network fuzzer: mutated client requests against a live broker process, while a real
client produces and consumes beside them.

`python -m fuzz.network --requests 100000 --connections 32` starts a broker
(tests/broker_process.BrokerProcess, its log captured to a file), then:

- many connections each send mutated requests one at a time: recorded client traffic
  (tests/data/recorded_requests.json) and a default request of every advertised API and
  version, with bytes, integers, versions, api keys, lengths and the frame size mutated,
  truncated or spliced together;
- each request must get its response (matching correlation id) or its connection closed,
  within a bound: the request's own wait (Fetch max_wait_ms, a timeout_ms, a group's
  session and rebalance timeouts, an admin request's timeout_ms, as decoded the way the
  broker decodes them; a Produce's timeout_ms only up to the cap, since a single broker need
  not wait for other replicas) plus slack.
  A Produce with acks=0 gets no response, so an ApiVersions request follows it; a frame
  announcing more bytes than are sent is finished by shutting down our side, and the broker
  must then close. Requests whose own wait exceeds the bound are not awaited (counted);
- a kafka-python producer and consumer move numbered records through a topic of their own
  and every record must arrive intact and in order;
- a janitor deletes the topics the fuzzed requests created every JANITOR_PERIOD_S, as an
  operator would: a run of 100,000 requests otherwise creates tens of thousands of
  partitions, and their open segment files exhaust the broker's file descriptors (the
  broker then takes its log dir offline and halts, as Kafka does);
- at the end the broker must still run, its log must hold no "Traceback" or "unhandled"
  line, and its peak RSS (sampled from /proc/PID/status) must stay under --max-rss-mb.
"""

from __future__ import annotations

import argparse
import inspect
import random
import re
import shutil
import signal
import socket
import struct
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaError
from kafka.producer.future import FutureRecordMetadata

from fuzz.seeds import advertised, recorded_requests
from harness.josefk import BrokerProcess
from josefk.protocol import apis
from josefk.protocol.apis import KAFKA_39_VERSIONS, ApiKey
from josefk.protocol.headers import parse_request_header, peek_api
from josefk.protocol.messages.api import decode_request, request_class

# A loaded 2-core machine: controller requests (ElectLeaders, ControlledShutdown) queue
# behind the fuzzed topic creations on the controller's event thread, 37 s seen.
SLACK_S = 60.0
WAIT_CAP_MS = 10_000  # requests asking the broker to wait longer than this are not awaited
# A partition holds three open files (.log, .index, .timeindex): one request for 2^15 of them
# exhausts this machine's 20,000 descriptors, and the broker takes its log dir offline and
# halts, as Kafka does. Such requests are not sent (counted); the znode-size check still
# sees the larger counts, which it refuses before any assignment.
PARTITIONS_CAP = 200
MAX_REQUEST_BYTES = 104857600  # socket.request.max.bytes in config/server.properties
CANARY_TOPIC = "fuzz-canary"
JANITOR_PERIOD_S = 5.0
BAD_LOG_LINE = re.compile(r"Traceback|unhandled", re.IGNORECASE)
WAIT_FIELDS = ("max_wait_ms", "session_timeout_ms", "rebalance_timeout_ms", "timeout_ms")
INTERESTING = (0, 1, -1, 0x7F, 0x80, 0xFF, 0x7FFF, -0x8000, 0xFFFF, 0x7FFFFFFF, -0x80000000, 1 << 20)


@dataclass
class Report:
    requests: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    stalls: list[str] = field(default_factory=list)
    bad_log_lines: list[str] = field(default_factory=list)
    canary_sent: int = 0
    canary_received: int = 0
    canary_errors: list[str] = field(default_factory=list)
    topics_deleted: int = 0
    broker_alive: bool = True
    slowest_s: dict[str, float] = field(default_factory=dict)  # longest answer per API
    rss_start_mb: float = 0.0
    rss_peak_mb: float = 0.0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return (self.broker_alive and not self.stalls and not self.bad_log_lines and not self.canary_errors
                and self.canary_received == self.canary_sent)

    def summary(self) -> str:
        return (f"{self.requests} mutated requests in {self.seconds:.0f} s: {dict(sorted(self.outcomes.items()))}; "
                f"stalls {len(self.stalls)}; canary {self.canary_received}/{self.canary_sent} records intact, "
                f"errors {len(self.canary_errors)}; fuzzed topics deleted {self.topics_deleted}; "
                f"broker alive {self.broker_alive}; "
                f"RSS {self.rss_start_mb:.0f} MB at start, peak {self.rss_peak_mb:.0f} MB; "
                f"slowest answers {_slowest(self.slowest_s)}; "
                f"bad log lines {len(self.bad_log_lines)}")


def _slowest(latencies: dict[str, float]) -> str:
    top = sorted(latencies.items(), key=lambda item: -item[1])[:3]
    return ", ".join(f"{name} {seconds:.1f} s" for name, seconds in top) or "none"


# --- mutation ----------------------------------------------------------------------


def _seed_payloads() -> list[bytes]:
    """Recorded traffic, and a request of every advertised API and version with short waits,
    recorded traffic weighing as much as the defaults."""
    recorded = recorded_requests()
    defaults = []
    for api_key, version in advertised():
        cls = request_class(api_key)
        params = inspect.signature(cls).parameters
        body = cls(**{name: 100 for name in WAIT_FIELDS if name in params})
        header = struct.pack(">hhih", api_key, version, 0, 4) + b"fuzz"
        if cls.is_flexible(version):
            header += b"\x00"
        defaults.append(header + bytes(body.encode(version=version)))
    return recorded * max(1, len(defaults) // len(recorded)) + defaults


def mutate(payload: bytes, others: list[bytes], rng: random.Random) -> tuple[bytes, int | None]:
    """A mutated payload, and a frame size to announce instead of its length (or None)."""
    data = bytearray(payload)
    frame_size = None
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        kind = rng.choices(range(9), weights=(3, 3, 1, 1, 1, 1, 1, 1, 1))[0]
        if kind == 0 and data:  # flip bits
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif kind == 1 and len(data) >= 4:  # an interesting int16/int32 anywhere: lengths, counts
            width = rng.choice((2, 4))
            at = rng.randrange(len(data) - width + 1)
            value = rng.choice(INTERESTING) & ((1 << 8 * width) - 1)
            data[at : at + width] = value.to_bytes(width, "big")
        elif kind == 2 and len(data) >= 4:  # version: out of range or another advertised one
            data[2:4] = struct.pack(">h", rng.randint(-1, 20))
        elif kind == 3 and len(data) >= 2:  # api key
            data[0:2] = struct.pack(">h", rng.choice([-1, 99, 0x7FFF, *map(int, KAFKA_39_VERSIONS)]))
        elif kind == 4 and data:  # truncate
            del data[rng.randrange(len(data)) :]
        elif kind == 5:  # splice with another request
            other = rng.choice(others)
            data = data[: rng.randint(0, len(data))] + other[rng.randint(0, len(other)) :]
        elif kind == 6:  # insert or duplicate bytes
            at = rng.randint(0, len(data))
            chunk = rng.randbytes(rng.randint(1, 8)) if rng.random() < 0.5 or not data else data[at : at + 16]
            data[at:at] = chunk
        elif kind == 7 and data:  # random bytes over a run
            at = rng.randrange(len(data))
            data[at : at + 8] = rng.randbytes(min(8, len(data) - at))
        elif kind == 8:  # frame size: short (trailing bytes become the next frame), long, negative, huge
            frame_size = rng.choice((max(0, len(data) - rng.randint(1, 8)), len(data) + rng.randint(1, 64),
                                     -1, -0x80000000, MAX_REQUEST_BYTES + 1, 0x7FFFFFFF, 0))
    return bytes(data), frame_size


# --- what the broker owes a request -----------------------------------------------------


ANSWER, NO_ANSWER, CLOSE = "answer", "no answer", "close"


@dataclass(frozen=True)
class Expectation:
    owed: str  # ANSWER; NO_ANSWER (a Produce with acks=0); CLOSE (undecodable or unsupported)
    wait_ms: int = 0  # the longest the request itself lets the broker wait
    correlation_id: int | None = None
    partitions: int = 0  # how many partitions the request may create


def expectation(payload: bytes) -> Expectation:
    """Decode like Processor.process_frame and KafkaApis.handle: what the broker owes this request."""
    try:
        api_key, version, correlation_id = peek_api(payload)
        low, high = apis.advertised(ApiKey(api_key))
        if not low <= version <= high:  # KIP-511: an unsupported ApiVersions is answered in v0
            return Expectation(ANSWER if api_key == ApiKey.ApiVersions else CLOSE, 0, correlation_id)
        header = parse_request_header(payload)
        body: Any = decode_request(api_key, version, memoryview(payload)[header.size :])
    except Exception:  # noqa: BLE001 - undecodable: the broker must close the connection
        return Expectation(CLOSE)
    # Long polls (a Fetch's max wait, a group's timeouts, topic admin waiting for the new
    # metadata) may hold the answer that long. A Produce's timeout_ms bounds waiting for other
    # replicas, and this cluster has one broker: it answers at once, so that wait is capped.
    waits = [getattr(body, name, 0) or 0 for name in WAIT_FIELDS]
    if api_key == ApiKey.Produce:
        waits = [min(body.timeout_ms, WAIT_CAP_MS)]
    acks_zero = api_key == ApiKey.Produce and getattr(body, "acks", None) == 0
    return Expectation(NO_ANSWER if acks_zero else ANSWER, max(0, *waits), correlation_id, _partitions(api_key, body))


def _partitions(api_key: int, body: Any) -> int:
    """Partitions a CreateTopics or CreatePartitions may create (a missing count means one)."""
    if api_key == ApiKey.CreateTopics:
        return sum(max(1, t.num_partitions, len(t.assignments or ())) for t in body.topics or ())
    if api_key == ApiKey.CreatePartitions:
        return sum(max(0, t.count) for t in body.topics or ())
    return 0


# --- one connection ----------------------------------------------------------------------


def _api_name(payload: bytes) -> str:
    api_key = peek_api(payload)[0]
    return ApiKey(api_key).name if api_key in KAFKA_39_VERSIONS.keys() else str(api_key)


class Stall(Exception):
    """The broker neither answered nor closed within the bound."""


def _recv_exact(sock: socket.socket, n: int, deadline: float) -> bytes | None:
    """n bytes, or None if the broker closed the connection; Stall past the deadline."""
    data = bytearray()
    while len(data) < n:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Stall
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(n - len(data))
        except TimeoutError:
            raise Stall from None
        except ConnectionResetError:
            return None
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _read_response(sock: socket.socket, deadline: float) -> tuple[int, bytes] | None:
    size = _recv_exact(sock, 4, deadline)
    if size is None:
        return None
    frame = _recv_exact(sock, struct.unpack(">i", size)[0], deadline)
    if frame is None:
        return None
    return struct.unpack_from(">i", frame)[0], frame


def _closed(sock: socket.socket, deadline: float) -> bool:
    """Whether the broker closes the connection by the deadline (responses before are read)."""
    while True:
        if _read_response(sock, deadline) is None:
            return True


PROBE_CORRELATION_ID = 0x7EADBEEF
API_VERSIONS_PROBE = struct.pack(">hhih", ApiKey.ApiVersions, 0, PROBE_CORRELATION_ID, 5) + b"probe"


class Worker(threading.Thread):
    """One connection at a time, reconnecting after every close."""

    def __init__(self, bootstrap: tuple[str, int], jobs: list[tuple[bytes, int | None]], report: Report,
                 lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.address, self.jobs, self.report, self.lock = bootstrap, jobs, report, lock
        self.sock: socket.socket | None = None

    def _count(self, outcome: str) -> None:
        with self.lock:
            self.report.outcomes[outcome] += 1
            self.report.requests += 1

    def run(self) -> None:
        for payload, frame_size in self.jobs:
            try:
                self._count(self._one(payload, frame_size))
            except Stall:
                with self.lock:
                    self.report.requests += 1
                    self.report.stalls.append(f"frame size {frame_size}, payload {payload.hex()}")
                self._drop()
            except OSError as e:  # broken pipe/reset while sending: the broker closed first
                self._count(f"closed while sending ({type(e).__name__})")
                self._drop()
        self._drop()

    def _drop(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def _one(self, payload: bytes, frame_size: int | None) -> str:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=30)
        sock = self.sock
        announced = len(payload) if frame_size is None else frame_size
        if 0 < announced <= len(payload) and expectation(payload[:announced]).partitions > PARTITIONS_CAP:
            return "too many partitions not sent"
        sock.sendall(struct.pack(">i", announced) + payload)
        if announced < 0 or announced > MAX_REQUEST_BYTES:
            return self._expect_close(sock, "bad frame size closed")
        if announced > len(payload):  # the broker waits for the rest, as Kafka does: end the stream
            sock.shutdown(socket.SHUT_WR)
            return self._expect_close(sock, "short frame closed after our EOF")
        if announced < len(payload):  # the tail is read as the next frame: answers may come, then our EOF
            sock.shutdown(socket.SHUT_WR)
            return self._expect_close(sock, "short frame closed after our EOF")
        expect = expectation(payload)
        if expect.wait_ms > WAIT_CAP_MS:
            self._drop()
            return "long wait not awaited"
        deadline = time.monotonic() + expect.wait_ms / 1000 + SLACK_S
        if expect.owed == CLOSE:
            return self._expect_close(sock, "undecodable closed")
        if expect.owed == NO_ANSWER:  # acks=0: the answer to the next request proves the connection is served
            sock.sendall(struct.pack(">i", len(API_VERSIONS_PROBE)) + API_VERSIONS_PROBE)
            expect = Expectation(ANSWER, expect.wait_ms, PROBE_CORRELATION_ID)
        sent = time.monotonic()
        answer = _read_response(sock, deadline)
        if answer is None:
            self._drop()
            return "closed"
        if answer[0] != expect.correlation_id:
            raise Stall  # an answer to something else: the connection is confused
        name = _api_name(payload)
        with self.lock:
            self.report.slowest_s[name] = max(self.report.slowest_s.get(name, 0.0), time.monotonic() - sent)
        return "answered"

    def _expect_close(self, sock: socket.socket, outcome: str) -> str:
        if not _closed(sock, time.monotonic() + SLACK_S):
            raise Stall
        self._drop()
        return outcome



# --- the real client beside the fuzzing -------------------------------------------------


class Canary:
    """kafka-python producing numbered records and consuming them back, checking each one."""

    def __init__(self, bootstrap: str, report: Report) -> None:
        self.bootstrap, self.report = bootstrap, report
        self.stop = threading.Event()
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5, retries=5,
                                      request_timeout_ms=30000)
        self.thread = threading.Thread(target=self._produce, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _produce(self) -> None:
        futures: list[FutureRecordMetadata] = []
        while not self.stop.is_set():
            n = len(futures)
            futures.append(self.producer.send(CANARY_TOPIC, key=b"%d" % n, value=_canary_value(n)))
            self.stop.wait(0.01)
        self.producer.flush(60)
        for n, future in enumerate(futures):
            try:
                future.get(timeout=30)
            except Exception as e:  # noqa: BLE001 - reported as a failure of the run
                self.report.canary_errors.append(f"record {n} not acknowledged: {e!r}")
        self.report.canary_sent = len(futures)
        self.producer.close(10)

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(120)
        consumer = KafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None, enable_auto_commit=False,
                                 consumer_timeout_ms=10_000)
        try:
            partition = TopicPartition(CANARY_TOPIC, 0)
            consumer.assign([partition])
            consumer.seek_to_beginning(partition)
            expected = 0
            deadline = time.monotonic() + 120
            while expected < self.report.canary_sent and time.monotonic() < deadline:
                for message in consumer.poll(timeout_ms=1000, max_records=1000).get(partition, []):
                    if message.offset != expected or message.value != _canary_value(expected):
                        self.report.canary_errors.append(f"offset {message.offset}: {message.value[:40]!r}")
                    expected += 1
            self.report.canary_received = expected
        finally:
            consumer.close()


class Janitor:
    """Deletes every topic but the canary's and the internal ones, periodically."""

    def __init__(self, bootstrap: str, report: Report) -> None:
        self.bootstrap, self.report = bootstrap, report
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=30_000)
        try:
            while not self.stop.wait(JANITOR_PERIOD_S):
                try:
                    fuzzed = [t for t in admin.list_topics() if t != CANARY_TOPIC and not t.startswith("__")]
                    if fuzzed:
                        admin.delete_topics(fuzzed, timeout_ms=30_000)
                        self.report.topics_deleted += len(fuzzed)
                except KafkaError:
                    pass  # a topic the fuzzer deleted first, or a busy controller: the next round retries
        finally:
            admin.close()

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(60)


def _canary_value(n: int) -> bytes:
    return b"canary-%08d-" % n + bytes((n * 31 + i) & 0xFF for i in range(64))


# --- the run -----------------------------------------------------------------------------


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def run(work: Path, requests: int, connections: int, seed: int) -> Report:
    """Fuzz a fresh broker whose data and log live under `work`; the broker is stopped at the end."""
    rng = random.Random(seed)
    seeds = _seed_payloads()
    jobs = [mutate(rng.choice(seeds), seeds, rng) for _ in range(requests)]
    report = Report()
    log_file = work / "broker.log"
    shutil.rmtree(work / "logs", ignore_errors=True)  # a fresh broker: the canary counts from offset 0
    log_file.unlink(missing_ok=True)
    broker = BrokerProcess(work / "logs", output=log_file, overrides={"num.partitions": "1"})
    try:
        pid = broker.proc.pid
        started = time.monotonic()
        canary = Canary(broker.bootstrap, report)
        canary.start()
        janitor = Janitor(broker.bootstrap, report)
        janitor.start()
        report.rss_start_mb = report.rss_peak_mb = _rss_mb(pid)
        lock = threading.Lock()
        workers = [Worker(("127.0.0.1", broker.port), jobs[i::connections], report, lock) for i in range(connections)]
        for worker in workers:
            worker.start()
        while any(worker.is_alive() for worker in workers):
            report.rss_peak_mb = max(report.rss_peak_mb, _rss_mb(pid))
            time.sleep(0.2)  # the RSS sampling period, not a synchronisation
        janitor.finish()
        canary.finish()
        report.rss_peak_mb = max(report.rss_peak_mb, _rss_mb(pid))
        report.seconds = time.monotonic() - started
        report.broker_alive = broker.proc.poll() is None
    finally:
        broker.stop()
    report.bad_log_lines = [line for line in log_file.read_text(errors="replace").splitlines()
                            if BAD_LOG_LINE.search(line)]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m fuzz.network", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path(__file__).resolve().parent / "work" / "network")
    parser.add_argument("--max-rss-mb", type=float, default=1024)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind, so the broker process is stopped
    report = run(args.work, args.requests, args.connections, args.seed)
    print(report.summary())
    for line in report.stalls[:20] + report.bad_log_lines[:50] + report.canary_errors[:20]:
        print(line)
    if not report.ok or report.rss_peak_mb > args.max_rss_mb:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
