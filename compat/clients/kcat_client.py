"""Scenarios for kcat (Debian's kcat 1.7.1, librdkafka 2.0.2), driven as subprocesses.

kcat cannot set record timestamps, so its records carry CreateTime from the moment kcat sent
them; each produce invocation sends one record (headers are per invocation).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from functools import partial

from common import (
    CODECS,
    SECURITY_MODES,
    TXN_SCENARIOS,
    Ctx,
    Failed,
    NotApplicable,
    Rec,
    Scenario,
    by_time_queries,
    check_records,
    emit_version,
    parse_args,
    run,
    secure_check,
    secure_settings,
    timestamps,
)

ARGS = parse_args()
WINDOWS: dict[str, tuple[int, int]] = {}  # topic -> wall-clock window (ms) its records were produced in


def kcat(ctx: Ctx, *args: str, stdin: str | None = None, timeout: float = 20, bootstrap: str = "") -> str:
    """Run kcat against the broker; raise Failed with its stderr on a non-zero exit or an error line."""
    cmd = ["kcat", "-b", bootstrap or ctx.bootstrap, "-m", "10", *args]
    try:
        res = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise Failed(f"kcat timed out after {timeout}s: {' '.join(cmd)}\nstderr: {e.stderr!r}") from None
    bad = [ln for ln in res.stderr.splitlines() if "ERROR" in ln or "Delivery failed" in ln]
    if res.returncode != 0 or bad:
        raise Failed(f"kcat exit {res.returncode}: {' '.join(cmd)}\n{res.stderr.strip()[-2000:]}")
    return res.stdout


def now_ms() -> int:
    return int(time.time() * 1000)


def produce_one(ctx: Ctx, topic: str, r: Rec, codec: str) -> None:
    """One record (key, value, headers) through `kcat -P`."""
    args = ["-P", "-t", topic, "-p", "0", "-K", "\\t"]
    for k, v in r.headers:
        args += ["-H", f"{k}={v.decode()}"]
    if codec != "none":
        args += ["-X", f"compression.codec={codec}"]
    kcat(ctx, *args, stdin=f"{(r.key or b'').decode()}\t{(r.value or b'').decode()}\n")


def fetch_all(ctx: Ctx, topic: str, n: int, start: str = "0") -> list[Rec]:
    """`kcat -C -o <start> -c n -e -J` and parse the JSON envelopes."""
    return parse_json(kcat(ctx, "-C", "-t", topic, "-p", "0", "-o", start, "-c", str(n), "-e", "-J"))


def parse_json(out: str) -> list[Rec]:
    """The records of `kcat -J` output (one JSON envelope a line)."""
    got = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        m = json.loads(line)
        h = m.get("headers") or []
        pairs = list(zip(h[::2], h[1::2], strict=False)) if isinstance(h, list) else list(h.items())
        def enc(s):
            return (None if s is None else s.encode())
        got.append(Rec(enc(m.get("key")), enc(m.get("payload")), [(k, enc(v)) for k, v in pairs],
                       m.get("ts"), m.get("offset")))
    return got


def query(ctx: Ctx, topic: str, ts: int) -> int:
    """`kcat -Q -t topic:0:ts`: ListOffsets by timestamp (-1 latest, -2 earliest)."""
    out = kcat(ctx, "-Q", "-t", f"{topic}:0:{ts}")
    m = re.search(r"\[0\]\s+offset\s+(-?\d+)", out)
    if not m:
        raise Failed(f"unparsable kcat -Q output: {out!r}")
    return int(m.group(1))


def no_admin(ctx: Ctx) -> str:
    raise NotApplicable("kcat has no admin (CreateTopics/DeleteTopics) mode")


def auto_create(ctx: Ctx) -> str:
    topic = ctx.topic("auto")
    produce_one(ctx, topic, Rec(b"auto-key", b"auto-value"), "none")
    got = fetch_all(ctx, topic, 1)
    if [(g.offset, g.key, g.value) for g in got] != [(0, b"auto-key", b"auto-value")]:
        raise Failed(f"read back {got!r}")
    md = json.loads(kcat(ctx, "-L", "-J", "-t", topic))
    parts = next(t["partitions"] for t in md["topics"] if t["topic"] == topic)
    want = ctx.args.auto_partitions
    if want and len(parts) != want:
        raise Failed(f"auto-created {topic} has {len(parts)} partitions, expected num.partitions={want}")
    return f"{topic}: offset 0, {len(parts)} partition(s)"


def produce(ctx: Ctx, codec: str) -> str:
    topic = ctx.topic(f"produce-{codec}")
    t0 = now_ms()
    for r in ctx.expected():
        produce_one(ctx, topic, r, codec)
    WINDOWS[topic] = (t0, now_ms())
    return f"{ctx.n} records to {topic} (one kcat -P per record)"


def check_own(ctx: Ctx, topic: str, got: list[Rec]) -> str:
    """Records kcat produced: exact key/value/headers/order, CreateTime within the produce window."""
    msg = check_records(got, ctx.expected(), headers=True, ts="range", ts_range=WINDOWS[topic])
    ts = timestamps(got)
    if ts != sorted(ts):
        raise Failed(f"timestamps not in send order: {ts}")
    return msg


def consume(ctx: Ctx, codec: str) -> str:
    ctx.require(f"produce-{codec}")
    topic = ctx.topic(f"produce-{codec}")
    return check_own(ctx, topic, fetch_all(ctx, topic, ctx.n))


def offsets(ctx: Ctx, which: str) -> str:
    ctx.require("produce-none")
    topic = ctx.topic("produce-none")
    if which in ("earliest", "latest"):
        got = query(ctx, topic, -2 if which == "earliest" else -1)
        want = 0 if which == "earliest" else ctx.n
        if got != want:
            raise Failed(f"kcat -Q {which}: offset {got}, expected {want}")
        return f"{which}={got}"
    ts_list = timestamps(fetch_all(ctx, topic, ctx.n))
    out = []
    for q, expected in by_time_queries(ts_list):
        got = query(ctx, topic, q)
        if (expected is None and got >= 0) or (expected is not None and got != expected):
            raise Failed(f"kcat -Q {topic}:0:{q} -> {got}, "
                         f"expected {expected if expected is not None else 'end (-1)'}")
        out.append(f"{q}->{got}")
    q, want = ts_list[3], 3
    first = fetch_all(ctx, topic, 1, start=f"s@{q}")
    if not first or first[0].offset != want:
        raise Failed(f"kcat -C -o s@{q}: first record {first[:1]!r}, expected offset {want}")
    return ", ".join(out) + f"; -o s@{q} starts at {want}"


def cross_consume(ctx: Ctx) -> str:
    topic, exp, opts = ctx.cross()
    return f"{topic}: " + check_records(fetch_all(ctx, topic, len(exp)), exp, **opts)


def no_txn(ctx: Ctx) -> str:
    raise NotApplicable("kcat has no way to abort a transaction, add consumer offsets to one, or see a fenced "
                        "producer's error: it is a one-shot command line tool")


def secure(ctx: Ctx, mode: str) -> str:
    """sec-<mode>: produce (one kcat -P), read back (-C), then two balanced-consumer (-G) runs: the
    second, after 2 more records, must read just those (the first committed its offset on exit)."""
    s = secure_settings(ctx, mode)
    conf = {"security.protocol": s.protocol, "ssl.ca.location": s.ca, "ssl.certificate.location": s.cert,
            "ssl.key.location": s.key, "sasl.mechanism": s.mechanism, "sasl.username": s.user,
            "sasl.password": s.password}
    flags = [f"-X{k}={v}" for k, v in conf.items() if v]

    def sec(*args: str, stdin: str | None = None) -> list[Rec]:
        return parse_json(kcat(ctx, *flags, *args, stdin=stdin, bootstrap=s.bootstrap))

    def produce(records: list[tuple[bytes, bytes]]) -> None:
        sec("-P", "-t", s.topic, "-p", "0", "-K", "\\t", stdin="".join(f"{k.decode()}\t{v.decode()}\n"
                                                                     for k, v in records))

    def pairs(got: list[Rec]) -> list:
        return [(g.key, g.value) for g in got]

    produce(s.records)
    secure_check(s, "kcat -C -o 0", pairs(sec("-C", "-t", s.topic, "-p", "0", "-o", "0", "-c", "5", "-e", "-J")))
    group = ["-G", s.topic, "-X", "auto.offset.reset=earliest", "-J"]
    secure_check(s, f"kcat -G {s.topic}", pairs(sec(*group, "-c", str(len(s.records)), s.topic)))
    more = [(f"{s.topic}-k{i}".encode(), f"v{i}".encode()) for i in range(len(s.records), len(s.records) + 2)]
    produce(more)
    again = sec(*group, "-c", "2", s.topic)
    if pairs(again) != more:
        raise Failed(f"the second kcat -G run read {pairs(again)}, expected only the 2 records produced after the "
                     f"first run committed: {more}")
    how = s.protocol + (f" {s.mechanism}" if s.mechanism else "") + (" with a client certificate" if s.cert else "")
    return (f"{how}: produced {len(s.records)} records to {s.topic}, read them back (-C), group {s.topic} (-G) read "
            f"them and committed; a second -G run read only the 2 records produced after it (offsets "
            f"{[g.offset for g in again]})")


SCENARIOS: dict[str, Scenario] = {
    "admin-create": no_admin, "auto-create": auto_create,
    **{f"produce-{c}": partial(produce, codec=c) for c in CODECS},
    **{f"consume-{c}": partial(consume, codec=c) for c in CODECS},
    "offsets-earliest": partial(offsets, which="earliest"),
    "offsets-latest": partial(offsets, which="latest"),
    "offsets-by-time": partial(offsets, which="by-time"),
    "cross-consume": cross_consume, "admin-delete": no_admin,
    **dict.fromkeys(TXN_SCENARIOS, no_txn),
    **{f"sec-{m}": partial(secure, mode=m) for m in SECURITY_MODES},
}

if __name__ == "__main__":
    ver = subprocess.run(["kcat", "-V"], capture_output=True, text=True).stdout
    m = re.search(r"Version (\S+) .*?librdkafka (\S+)", ver)
    emit_version(f"kcat {m.group(1)} (librdkafka {m.group(2)})" if m else "kcat (unknown version)")
    run(Ctx(ARGS), SCENARIOS)
