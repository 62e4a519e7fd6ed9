"""Shared plumbing for the Python client harnesses (stdlib only: it runs in every client env).

A harness defines one function per scenario and hands them to `run()`, which runs each in a
daemon thread with a timeout and prints one JSON line per scenario on stdout.

With `--member GROUP --topic T` a harness instead runs one group consumer (`run_member()`), driven
by compat/groups.py over stdin/stdout (see `MemberIO`): the group scenarios need several members
that can be killed or stopped independently, so each member is its own process.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
TXN_SCENARIOS = ["txn-commit-abort", "txn-offsets", "txn-fencing"]
# streams-protocol-wordcount: streams-wordcount's app with group.protocol=streams (KIP-1071).
STREAMS_PROTOCOL_SCENARIOS = ["streams-protocol-wordcount"]
STREAMS_SCENARIOS = ["streams-wordcount", "streams-eos", *STREAMS_PROTOCOL_SCENARIOS]
HARNESS_SCENARIOS = [
    "admin-create", "auto-create",
    *(f"produce-{c}" for c in CODECS), *(f"consume-{c}" for c in CODECS),
    "offsets-earliest", "offsets-latest", "offsets-by-time",
    "cross-consume", "admin-delete",
    *TXN_SCENARIOS,
    *STREAMS_SCENARIOS,  # Java only: Kafka Streams (run.py records n/a for the other clients)
]
# Driven by compat/groups.py (run.py) through member processes of each client.
# consumer-protocol-*: the same with group.protocol=consumer (KIP-848), for the clients that have it.
CONSUMER_PROTOCOL_SCENARIOS = ["consumer-protocol-walk", "consumer-protocol-resume"]
# share-*: KIP-932 share groups, for the clients with a share consumer.
SHARE_SCENARIOS = ["share-split", "share-redeliver"]
GROUP_SCENARIOS = ["group-split", "group-walk", "group-commit-resume", "group-expel", "group-mixed",
                   *CONSUMER_PROTOCOL_SCENARIOS, *SHARE_SCENARIOS]
SCENARIOS = HARNESS_SCENARIOS + GROUP_SCENARIOS
# The security table's columns (compat/security.py): each is the scenario `sec-<mode>` of every harness.
SECURITY_MODES = ["SSL", "mTLS", "SASL_PLAINTEXT-PLAIN", "SASL_PLAINTEXT-SCRAM-SHA-256", "SASL_PLAINTEXT-SCRAM-SHA-512",
                  "SASL_SSL-PLAIN", "SASL_SSL-SCRAM-SHA-256", "SASL_SSL-SCRAM-SHA-512"]
SECURE_RECORDS = 5


class NotApplicable(Exception):
    """Raised by a scenario that this client (or its configured API version) cannot run."""


class Failed(Exception):
    """A scenario check failed; the message says exactly what differed."""


@dataclass
class Rec:
    """One record as produced or as consumed."""

    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    ts: int | None = None
    offset: int | None = None


def expected_records(tag: str, n: int, ts_base: int) -> list[Rec]:
    """The deterministic records every producer writes for `tag` (each client computes the same)."""
    return [
        Rec(key=f"{tag}-key-{i}".encode(),
            value=(f"{tag}-value-{i}-" + "abcdefghij" * (i % 4 + 1)).encode(),
            headers=[("idx", str(i).encode()), ("tag", tag.encode())],
            ts=ts_base + i * 1000)
        for i in range(n)
    ]


def timestamps(recs: list[Rec]) -> list[int]:
    """Each record's timestamp: the expected records all carry one, and so do consumed ones with CreateTime."""
    ts = [r.ts for r in recs if r.ts is not None]
    if len(ts) != len(recs):
        raise Failed(f"{len(recs) - len(ts)} of {len(recs)} records carry no timestamp")
    return ts


def check_records(got: list[Rec], exp: list[Rec], *, headers: bool | str, ts: str,
                  ts_range: tuple[int, int] | None = None, base_offset: int = 0) -> str:
    """Compare consumed records with expected ones; raise Failed on the first difference.

    headers: True (must equal), False (must be empty) or "either" (an old-format consumer: the
    broker may down-convert and drop them, or pass v2 batches through).
    ts: "exact" (must equal), "range" (within ts_range), "none" (v0: no timestamp) or
    "exact-or-none" (old-format consumer, as for headers).
    """
    if len(got) != len(exp):
        raise Failed(f"expected {len(exp)} records, got {len(got)}: first got={got[:2]!r}")
    for i, (g, e) in enumerate(zip(got, exp, strict=False)):
        where = f"record {i}"
        if g.offset is not None and g.offset != base_offset + i:
            raise Failed(f"{where}: offset {g.offset} != {base_offset + i} (order/offsets wrong)")
        if g.key != e.key:
            raise Failed(f"{where}: key {g.key!r} != {e.key!r}")
        if g.value != e.value:
            raise Failed(f"{where}: value {g.value!r} != {e.value!r}")
        ok_h = [e.headers] if headers is True else [[]] if headers is False else [e.headers, []]
        if list(g.headers or []) not in ok_h:
            raise Failed(f"{where}: headers {g.headers!r} != {' or '.join(map(repr, ok_h))}")
        if ts == "exact" and g.ts != e.ts:
            raise Failed(f"{where}: timestamp {g.ts!r} != {e.ts!r}")
        if ts == "exact-or-none" and g.ts not in (e.ts, None, -1):
            raise Failed(f"{where}: timestamp {g.ts!r}, expected {e.ts!r} or none (-1)")
        if ts == "range" and ts_range and not (ts_range[0] <= (g.ts or 0) <= ts_range[1]):
            raise Failed(f"{where}: timestamp {g.ts!r} not within {ts_range}")
        if ts == "none" and g.ts not in (None, -1):
            raise Failed(f"{where}: timestamp {g.ts!r}, expected none (-1) for message format v0")
    hs = "checked" if headers is True else "none expected" if headers is False else (
        "dropped (down-converted)" if got and not got[0].headers else "passed through")
    tss = ts if ts != "exact-or-none" else (
        "dropped (down-converted to v0)" if got and got[0].ts in (None, -1) else "kept")
    return f"{len(got)} records match (headers {hs}, timestamps {tss})"


# txn-commit-abort: three transactions over 2 partitions (Harness.java builds the same keys).
TXN_OUTCOMES = ["commit", "abort", "commit"]
TXN_RECORDS = 6  # per transaction, alternating partitions 0 and 1


def txn_plan(prefix: str) -> list[tuple[str, list[tuple[int, bytes]]]]:
    """(outcome, [(partition, key)]) per transaction of txn-commit-abort; values equal keys."""
    return [(outcome, [(i % 2, f"{prefix}-t{t}-{outcome}-{i}".encode()) for i in range(TXN_RECORDS)])
            for t, outcome in enumerate(TXN_OUTCOMES)]


def txn_expected(prefix: str, committed_only: bool) -> dict[int, list[bytes]]:
    """Keys per partition, in order, that a read_committed (or read_uncommitted) consumer must see."""
    out: dict[int, list[bytes]] = {0: [], 1: []}
    for outcome, recs in txn_plan(prefix):
        if outcome == "commit" or not committed_only:
            for part, key in recs:
                out[part].append(key)
    return out


def txn_done(got: dict[int, list[bytes]], exp: dict[int, list[bytes]]) -> bool:
    """True once every partition has reached its last expected key (so everything before it was seen)."""
    return all(exp[p][-1] in got.get(p, []) for p in exp)


def txn_check(got: dict[int, list[bytes]], exp: dict[int, list[bytes]], what: str) -> str:
    """Raise Failed unless got equals exp per partition (order, no duplicates, nothing extra)."""
    for p in exp:
        if got.get(p, []) != exp[p]:
            raise Failed(f"{what}: partition {p} has keys {[k.decode() for k in got.get(p, [])]}, "
                         f"expected {[k.decode() for k in exp[p]]}")
    return f"{what}: {sum(map(len, exp.values()))} records"


def by_time_queries(ts_list: list[int]) -> list[tuple[int, int | None]]:
    """(query timestamp, expected offset) pairs for a partition whose records carry ts_list."""
    def first_at_or_after(q: int) -> int | None:
        return next((i for i, t in enumerate(ts_list) if t >= q), None)
    qs = [ts_list[0] - 10_000, ts_list[3], ts_list[3] - 1, ts_list[-1], ts_list[-1] + 10_000]
    return [(q, first_at_or_after(q)) for q in qs]


def parse_args(extra: Callable[[argparse.ArgumentParser], object] | None = None) -> argparse.Namespace:
    """Arguments every harness takes (the runner passes them)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--client", required=True, help="label used in the report")
    ap.add_argument("--prefix", required=True, help="topic name prefix, unique per client")
    ap.add_argument("--scenarios", default=",".join(HARNESS_SCENARIOS))
    ap.add_argument("--ts-base", type=int, required=True)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=30.0, help="per-scenario timeout, seconds")
    ap.add_argument("--auto-partitions", type=int, default=0,
                    help="expected partitions of an auto-created topic (0: any)")
    ap.add_argument("--cross-prefix", default="", help="prefix of the client whose produce-none topic to read")
    ap.add_argument("--cross-headers", type=int, default=1)
    ap.add_argument("--cross-ts", default="exact", help="exact | none | range:LO:HI")
    ap.add_argument("--parallel", type=int, default=0, help="1: run the scenarios at once (independent ones only)")
    ap.add_argument("--security", default="", help="properties file of the sec-<mode> scenarios' settings")
    ap.add_argument("--member", default="", help="run one group member of this group id (see MemberIO)")
    ap.add_argument("--topic", default="", help="member: topic to subscribe to")
    ap.add_argument("--assignor", default="default", help="member: default | range")
    ap.add_argument("--session-ms", type=int, default=6000, help="member: session.timeout.ms")
    ap.add_argument("--group-protocol", default="classic",
                    help="member: classic | consumer (KIP-848: the broker assigns; no session or assignor settings) "
                         "| share (KIP-932: a share consumer, see MemberIO.share)")
    ap.add_argument("--share-ack", default="implicit", choices=SHARE_ACKS,
                    help="share member: implicit (the default acknowledgement mode) | release-reject-hold")
    ap.add_argument("--assign-all", action="store_true",
                    help="member: assign() every partition instead of subscribe() (offsets only, no group protocol)")
    if extra:
        extra(ap)
    level = logging.DEBUG if os.environ.get("COMPAT_DEBUG") else logging.WARNING
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return ap.parse_args()


class Ctx:
    """What a scenario needs: args, topic names and shared state between scenarios."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.bootstrap: str = args.bootstrap
        self.n: int = args.n
        self.ts_base: int = args.ts_base
        self.results: dict[str, str] = {}

    def topic(self, scenario: str) -> str:
        """Topic used by a scenario; produce-X and consume-X share one."""
        return f"{self.args.prefix}-{scenario.replace('consume-', 'produce-')}"

    def expected(self) -> list[Rec]:
        """Records this client produces in every produce-* scenario."""
        return expected_records(self.args.prefix, self.n, self.ts_base)

    def require(self, scenario: str) -> None:
        """Fail early when a prerequisite scenario did not pass."""
        st = self.results.get(scenario)
        if st == "n/a":
            raise NotApplicable(f"{scenario} is n/a")
        if st != "pass":
            raise Failed(f"not run: prerequisite {scenario} is {st or 'not run'}")

    def cross(self) -> tuple[str, list[Rec], dict]:
        """Topic, expected records and check options for cross-consume."""
        a = self.args
        if not a.cross_prefix:
            raise NotApplicable("no cross-client producer assigned")
        opts: dict = {"headers": bool(a.cross_headers)}
        if a.cross_ts.startswith("range:"):
            _, lo, hi = a.cross_ts.split(":")
            opts.update(ts="range", ts_range=(int(lo), int(hi)))
        else:
            opts["ts"] = a.cross_ts
        return f"{a.cross_prefix}-produce-none", expected_records(a.cross_prefix, self.n, self.ts_base), opts


# A scenario returns its detail line, or raises Failed or NotApplicable.
Scenario = Callable[[Ctx], str | None]


@dataclass(frozen=True)
class Secure:
    """How to reach the broker in one security mode (written by compat/security.py)."""

    bootstrap: str
    protocol: str   # SSL, SASL_PLAINTEXT or SASL_SSL
    mechanism: str  # SASL mechanism, or ""
    user: str
    password: str
    ca: str         # PEM CA certificate (TLS modes)
    cert: str       # mTLS: client certificate (PEM), its key (PEM, unencrypted), and both as PKCS12
    key: str
    keystore: str
    keystore_password: str
    topic: str      # this client's topic in this mode; the group has the same name
    records: list[tuple[bytes, bytes]] = field(default_factory=list)  # (key, value) produced in order


def secure_settings(ctx: Ctx, mode: str) -> Secure:
    """The settings of one mode from the --security file."""
    if not ctx.args.security:
        raise Failed("no --security settings file given")
    props: dict[str, str] = {}
    with open(ctx.args.security) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key.startswith(f"{mode}."):
                props[key[len(mode) + 1:]] = value
    topic = props["prefix"] + ctx.args.prefix
    return Secure(props["bootstrap"], props["protocol"], props["mechanism"], props["user"], props["password"],
                  props["ca"], props["cert"], props["key"], props["keystore"], props["keystore.password"], topic,
                  [(f"{topic}-k{i}".encode(), f"v{i}".encode()) for i in range(SECURE_RECORDS)])


def secure_check(s: Secure, how: str, got: Sequence[tuple[bytes | None, bytes | None]]) -> None:
    """Raise Failed unless `got` (key, value pairs read `how`) are exactly the records produced, in order."""
    if got != s.records:
        raise Failed(f"{how}: read {got}, expected {s.records}")


def secure_detail(s: Secure, committed: int | None) -> str:
    """The cell's detail once produce, consume and the group round passed."""
    if committed != len(s.records):
        raise Failed(f"group {s.topic}: the committed offset read back is {committed}, expected {len(s.records)}")
    how = s.protocol + (f" {s.mechanism}" if s.mechanism else "") + (" with a client certificate" if s.cert else "")
    return (f"{how}: produced {len(s.records)} records to {s.topic}, read them back (assign), group {s.topic} "
            f"read them and committed offset {committed}")


def emit_version(version: str) -> None:
    """Tell the runner which client library version ran."""
    print(json.dumps({"version": version}), flush=True)


def emit(client: str, scenario: str, status: str, detail: str, seconds: float) -> None:
    """One result line for the runner."""
    print(json.dumps({"client": client, "scenario": scenario, "status": status,
                      "detail": detail, "seconds": round(seconds, 2)}), flush=True)


def run(ctx: Ctx, scenarios: Mapping[str, Scenario]) -> None:
    """Run the selected scenarios in order (with --parallel all at once: they must not depend on
    each other), each with a timeout; then exit hard (hung threads die)."""
    wanted = ctx.args.scenarios.split(",")
    started = [_start(ctx, name, scenarios.get(name)) for name in wanted] if ctx.args.parallel else []
    for i, name in enumerate(wanted):
        th, box, t0 = started[i] if started else _start(ctx, name, scenarios.get(name))
        if th is not None:
            th.join(max(0.0, t0 + ctx.args.timeout - time.monotonic()))
            if th.is_alive():
                frame = sys._current_frames().get(th.ident or 0)
                stack = "".join(traceback.format_stack(frame)[-8:]) if frame else ""
                box = {"status": "fail",
                       "detail": f"timeout: no result after {ctx.args.timeout:.0f}s (hang); stuck at:\n{stack}"}
        ctx.results[name] = box["status"]
        emit(ctx.args.client, name, box["status"], box["detail"], box.get("seconds", time.monotonic() - t0))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _start(ctx: Ctx, name: str, fn: Scenario | None) -> tuple[threading.Thread | None, dict, float]:
    """Start one scenario in a daemon thread; its result lands in the returned box."""
    t0 = time.monotonic()
    if fn is None:
        return None, {"status": "n/a", "detail": "not implemented by this harness"}, t0
    box: dict = {}

    def target() -> None:
        try:
            box["detail"] = fn(ctx) or ""
            box["status"] = "pass"
        except NotApplicable as e:
            box.update(status="n/a", detail=str(e))
        except Failed as e:
            box.update(status="fail", detail=str(e))
        except BaseException as e:  # noqa: BLE001 - any client error is a scenario failure
            tb = traceback.format_exc(limit=6)
            box.update(status="fail", detail=f"{type(e).__name__}: {e}\n{tb}")
        box["seconds"] = time.monotonic() - t0

    th = threading.Thread(target=target, name=name, daemon=True)
    th.start()
    return th, box, t0


def poll_until(fn: Callable[[], T | None], timeout: float, interval: float = 0.2, what: str = "condition") -> T:
    """Call fn until it returns something truthy; raise Failed on timeout."""
    deadline = time.monotonic() + timeout
    last: T | None = None
    while time.monotonic() < deadline:
        last = fn()
        if last:
            return last
        time.sleep(interval)
    raise Failed(f"timed out after {timeout:.0f}s waiting for {what} (last: {last!r})")


HEARTBEAT_MS = 500  # members heartbeat often, so rebalances are noticed quickly
# A share member's acknowledgements: implicit accepts each poll's records at the next poll; with
# release-reject-hold (explicit mode) it acknowledges its first records by offset, RELEASE when
# offset % 3 == 0, REJECT when 1, and none when 2, commits, and stops polling: it holds those.
SHARE_ACKS = ("implicit", "release-reject-hold")


def share_action(offset: int) -> str:
    """What a release-reject-hold member does with the record at `offset` (Harness.java's ShareMember too)."""
    return ("release", "reject", "hold")[offset % 3]


class MemberIO:
    """The member process protocol (one JSON object per line).

    stdout: {"assigned": [partitions]} whenever the assignment changes, {"rec": [partition, offset, key]}
    per record, {"committed": {...}} after a commit, {"closed": true}, {"error": traceback}. A share
    member prints {"share": [partition, offset, key, delivery count, action]} per record instead of
    "rec" (action: accept, release, reject or hold) and {"committed": {}} once a release-reject-hold
    member's acknowledgements are committed.
    stdin: {"commit": {"<partition>": offset}} commits those offsets synchronously; {"close": true}
    or EOF closes the consumer gracefully (LeaveGroup) and exits.
    """

    def __init__(self) -> None:
        self.cmds: queue.Queue[dict] = queue.Queue()
        self.last: list[int] | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in sys.stdin:
            if line.strip():
                self.cmds.put(json.loads(line))
        self.cmds.put({"close": True})

    @staticmethod
    def say(**obj: object) -> None:
        print(json.dumps(obj), flush=True)

    def assigned(self, partitions: object) -> None:
        cur = sorted(partitions)  # type: ignore[call-overload]
        if cur != self.last:
            self.last = cur
            self.say(assigned=cur)

    def rec(self, partition: int, offset: int, key: bytes | None) -> None:
        self.say(rec=[partition, offset, key.decode() if key is not None else None])

    def share(self, partition: int, offset: int, key: bytes | None, delivery: int, action: str) -> None:
        self.say(share=[partition, offset, key.decode() if key is not None else None, delivery, action])

    def commands(self) -> list[dict]:
        out = []
        while not self.cmds.empty():
            out.append(self.cmds.get())
        return out


def run_member(fn: Callable[[argparse.Namespace, MemberIO], None], args: argparse.Namespace) -> None:
    """Run a member loop; report any exception as {"error": ...}; exit hard."""
    io = MemberIO()
    try:
        fn(args, io)
        io.say(closed=True)
    except BaseException:  # noqa: BLE001 - reported to the driver
        io.say(error=traceback.format_exc(limit=8))
    sys.stdout.flush()
    os._exit(0)
