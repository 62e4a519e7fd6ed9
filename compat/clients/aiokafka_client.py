"""Scenarios for aiokafka (defaults: acks=1, no idempotence, always v2 batches)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TypeVar

import aiokafka
import aiokafka.errors
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.coordinator.assignors.range import RangePartitionAssignor
from aiokafka.helpers import create_ssl_context
from common import (
    CODECS,
    HEARTBEAT_MS,
    SECURITY_MODES,
    Ctx,
    Failed,
    MemberIO,
    Rec,
    Scenario,
    by_time_queries,
    check_records,
    emit_version,
    parse_args,
    run,
    run_member,
    secure_check,
    secure_detail,
    secure_settings,
    timestamps,
    txn_check,
    txn_done,
    txn_expected,
    txn_plan,
)

T = TypeVar("T")
ARGS = parse_args()


def sync(fn: Callable[[Ctx], Coroutine[object, object, str]]) -> Callable[[Ctx], str]:
    """Run an async scenario on its own event loop (each scenario runs in its own thread)."""
    return lambda ctx: asyncio.run(fn(ctx))


async def check_errors(resp: object) -> None:
    """Admin calls return the raw response: surface per-topic error codes."""
    for err in getattr(resp, "topic_errors", None) or getattr(resp, "topic_error_codes", None) or []:
        if err[1] != 0:
            raise Failed(f"per-topic error in {type(resp).__name__}: {err!r}")


async def describe(admin: AIOKafkaAdminClient, topic: str) -> dict:
    """Metadata of one topic (error code and partitions)."""
    (t,) = await admin.describe_topics([topic])
    return t


async def wait_until(pred: Callable[[], Awaitable[T | None]], timeout: float, what: str) -> T:
    """Await pred() until truthy, or raise Failed."""
    deadline = time.monotonic() + timeout
    last: T | None = None
    while time.monotonic() < deadline:
        last = await pred()
        if last:
            return last
        await asyncio.sleep(0.2)
    raise Failed(f"timed out after {timeout:.0f}s waiting for {what} (last: {last!r})")


async def admin_create(ctx: Ctx) -> str:
    topic = ctx.topic("admin")
    a = AIOKafkaAdminClient(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000)
    await a.start()
    try:
        await check_errors(await a.create_topics([NewTopic(topic, 3, 1)], timeout_ms=15000))

        async def ready() -> dict | None:
            t = await describe(a, topic)
            return t if t["error_code"] == 0 and t["partitions"] else None
        t = await wait_until(ready, 15, f"metadata of {topic}")
    finally:
        await a.close()
    parts = sorted(p["partition"] for p in t["partitions"])
    if parts != [0, 1, 2]:
        raise Failed(f"created {topic} with 3 partitions, metadata shows {parts}")
    return f"{topic}: partitions {parts}"


async def admin_delete(ctx: Ctx) -> str:
    ctx.require("admin-create")
    topic = ctx.topic("admin")
    a = AIOKafkaAdminClient(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000)
    await a.start()
    try:
        await check_errors(await a.delete_topics([topic], timeout_ms=15000))

        async def gone() -> bool:
            return topic not in await a.list_topics()
        await wait_until(gone, 15, f"{topic} to disappear from list_topics")
    finally:
        await a.close()
    return f"{topic} deleted"


async def auto_create(ctx: Ctx) -> str:
    topic = ctx.topic("auto")
    p = AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000)
    await p.start()
    try:
        md = await p.send_and_wait(topic, b"auto-value", key=b"auto-key", partition=0)
        parts = p.client.cluster.partitions_for_topic(topic) or set()
    finally:
        await p.stop()
    if md.offset != 0:
        raise Failed(f"first record in new topic got offset {md.offset}")
    want = ctx.args.auto_partitions
    if want and len(parts) != want:
        raise Failed(f"auto-created {topic} has {len(parts)} partitions, expected num.partitions={want}")
    return f"{topic}: offset 0, {len(parts)} partition(s)"


async def produce(ctx: Ctx, codec: str) -> str:
    topic = ctx.topic(f"produce-{codec}")
    p = AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000, linger_ms=20,
                         compression_type=None if codec == "none" else codec)
    await p.start()
    try:
        futs = [await p.send(topic, r.value, key=r.key, partition=0, timestamp_ms=r.ts, headers=r.headers)
                for r in ctx.expected()]
        offsets = [(await f).offset for f in futs]
    finally:
        await p.stop()
    if offsets != list(range(ctx.n)):
        raise Failed(f"acked offsets {offsets}, expected 0..{ctx.n - 1}")
    return f"{ctx.n} records to {topic}"


async def fetch_all(ctx: Ctx, topic: str, n: int) -> list[Rec]:
    """assign + seek(0) + getmany until n records or the deadline."""
    c = AIOKafkaConsumer(bootstrap_servers=ctx.bootstrap, enable_auto_commit=False, group_id=None,
                         request_timeout_ms=15000)
    await c.start()
    tp = TopicPartition(topic, 0)
    got: list[Rec] = []
    try:
        c.assign([tp])
        c.seek(tp, 0)
        deadline = time.monotonic() + 20
        while len(got) < n and time.monotonic() < deadline:
            for msgs in (await c.getmany(tp, timeout_ms=500)).values():
                got += [Rec(m.key, m.value, [(k, bytes(v)) for k, v in m.headers or []], m.timestamp, m.offset)
                        for m in msgs]
    finally:
        await c.stop()
    return got


async def consume(ctx: Ctx, codec: str) -> str:
    ctx.require(f"produce-{codec}")
    got = await fetch_all(ctx, ctx.topic(f"produce-{codec}"), ctx.n)
    return check_records(got, ctx.expected(), headers=True, ts="exact")


async def offsets(ctx: Ctx, which: str) -> str:
    ctx.require("produce-none")
    tp = TopicPartition(ctx.topic("produce-none"), 0)
    ts_list = timestamps(ctx.expected())
    c = AIOKafkaConsumer(bootstrap_servers=ctx.bootstrap, enable_auto_commit=False, group_id=None,
                         request_timeout_ms=15000)
    await c.start()
    try:
        if which in ("earliest", "latest"):
            got = (await (c.beginning_offsets if which == "earliest" else c.end_offsets)([tp]))[tp]
            want = 0 if which == "earliest" else ctx.n
            if got != want:
                raise Failed(f"{which} offset {got}, expected {want}")
            return f"{which}={got}"
        out = []
        for q, expected in by_time_queries(ts_list):
            res = (await c.offsets_for_times({tp: q}))[tp]
            got = None if res is None else res.offset
            if got != expected or (res is not None and expected is not None and res.timestamp != ts_list[expected]):
                raise Failed(f"offsets_for_times({q}) -> {res!r}, expected offset {expected}"
                             + ("" if expected is None else f" timestamp {ts_list[expected]}"))
            out.append(f"{q}->{got}")
        return ", ".join(out)
    finally:
        await c.stop()


async def cross_consume(ctx: Ctx) -> str:
    topic, exp, opts = ctx.cross()
    return f"{topic}: " + check_records(await fetch_all(ctx, topic, len(exp)), exp, **opts)


async def txn_producer(ctx: Ctx, txn_id: str) -> AIOKafkaProducer:
    """A started transactional producer (start() runs InitProducerId through the transaction coordinator)."""
    p = AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000, transactional_id=txn_id,
                         linger_ms=5)
    await p.start()
    return p


async def read_keys(ctx: Ctx, topic: str, partitions: int, isolation: str,
                    done: Callable[[dict[int, list[bytes]]], bool]) -> dict[int, list[bytes]]:
    """assign from offset 0 and collect keys per partition until done(keys) or 20 s."""
    c = AIOKafkaConsumer(bootstrap_servers=ctx.bootstrap, enable_auto_commit=False, isolation_level=isolation,
                         request_timeout_ms=15000)
    await c.start()
    got: dict[int, list[bytes]] = {}
    try:
        tps = [TopicPartition(topic, i) for i in range(partitions)]
        c.assign(tps)
        await c.seek_to_beginning(*tps)
        deadline = time.monotonic() + 20
        while not done(got) and time.monotonic() < deadline:
            for tp, msgs in (await c.getmany(timeout_ms=200)).items():
                got.setdefault(tp.partition, []).extend(m.key for m in msgs)
    finally:
        await c.stop()
    return got


async def txn_commit_abort(ctx: Ctx) -> str:
    topic = f"{ctx.args.prefix}-txn"
    a = AIOKafkaAdminClient(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000)
    await a.start()
    try:
        await check_errors(await a.create_topics([NewTopic(topic, 2, 1)], timeout_ms=15000))
    finally:
        await a.close()
    p = await txn_producer(ctx, f"{ctx.args.prefix}-txn-commit-abort")
    try:
        for outcome, recs in txn_plan(ctx.args.prefix):
            await p.begin_transaction()
            futs = [await p.send(topic, key, key=key, partition=part) for part, key in recs]
            if outcome == "commit":
                await p.commit_transaction()
            else:
                await asyncio.gather(*futs)  # the aborted records are in the log before the abort marker
                await p.abort_transaction()
    finally:
        await p.stop()
    out = []
    for isolation, committed_only in (("read_committed", True), ("read_uncommitted", False)):
        exp = txn_expected(ctx.args.prefix, committed_only)
        got = await read_keys(ctx, topic, 2, isolation, partial(txn_done, exp=exp))
        out.append(txn_check(got, exp, isolation))
    return "commit, abort, commit over 2 partitions; " + ", ".join(out)


async def txn_offsets(ctx: Ctx) -> str:
    pre = ctx.args.prefix
    tin, tout, group = f"{pre}-txn-in", f"{pre}-txn-out", f"{pre}-txn-group"
    sentinel = f"{pre}-sentinel".encode()
    plain = AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, request_timeout_ms=15000)
    await plain.start()
    p = await txn_producer(ctx, f"{pre}-txn-offsets")
    c = AIOKafkaConsumer(tin, bootstrap_servers=ctx.bootstrap, group_id=group, enable_auto_commit=False,
                         auto_offset_reset="earliest", isolation_level="read_committed", request_timeout_ms=15000)
    try:
        for i in range(6):
            await plain.send(tin, f"in-{i}".encode(), key=f"{pre}-in-{i}".encode(), partition=0)
        await plain.flush()
        await c.start()
        recs: list = []
        deadline = time.monotonic() + 20
        while len(recs) < 6 and time.monotonic() < deadline:
            for msgs in (await c.getmany(timeout_ms=200)).values():
                recs += msgs
        if len(recs) != 6:
            raise Failed(f"the group consumer got {len(recs)} of 6 input records")
        for half, commit in ((recs[:3], True), (recs[3:], False)):
            await p.begin_transaction()
            futs = [await p.send(tout, m.value.upper(), key=m.key.replace(b"-in-", b"-out-"), partition=0)
                    for m in half]
            # aiokafka sends the group id only (TxnOffsetCommit without generation or member id).
            await p.send_offsets_to_transaction({TopicPartition(tin, 0): half[-1].offset + 1}, group)
            if commit:
                await p.commit_transaction()
            else:
                await asyncio.gather(*futs)
                await p.abort_transaction()
        # A plain record after the aborted transaction: once a read_committed consumer sees it, the abort is final.
        await plain.send_and_wait(tout, b"", key=sentinel, partition=0)
    finally:
        await c.stop()
        await p.stop()
        await plain.stop()
    keys = (await read_keys(ctx, tout, 1, "read_committed", lambda g: sentinel in g.get(0, []))).get(0, [])
    want = [f"{pre}-out-{i}".encode() for i in range(3)] + [sentinel]
    if keys != want:
        raise Failed(f"output keys {keys}, expected the first transaction's {want[:3]} then the sentinel")
    check = AIOKafkaConsumer(bootstrap_servers=ctx.bootstrap, group_id=group, enable_auto_commit=False,
                             request_timeout_ms=15000)
    await check.start()
    try:
        got = await check.committed(TopicPartition(tin, 0))
    finally:
        await check.stop()
    if got != 3:
        raise Failed(f"group {group} committed offset {got} for {tin}-0, expected 3 (the first transaction's)")
    return f"group {group} committed offset 3; output has the first transaction's 3 records only"


async def txn_fencing(ctx: Ctx) -> str:
    topic, tid = f"{ctx.args.prefix}-txn-fence", f"{ctx.args.prefix}-txn-fencing"
    first = await txn_producer(ctx, tid)
    try:
        await first.begin_transaction()
        await first.send_and_wait(topic, b"first", key=b"first", partition=0)
        second = await txn_producer(ctx, tid)  # bumps the epoch: the first is fenced, its transaction aborted
        try:
            try:
                await first.commit_transaction()
            except aiokafka.errors.ProducerFenced as e:
                fenced = type(e).__name__
            else:
                raise Failed("the first producer committed after a second one with its transactional.id initialised")
            await second.begin_transaction()
            await second.send(topic, b"second", key=b"second", partition=0)
            await second.commit_transaction()
        finally:
            await second.stop()
    finally:
        await first.stop()
    keys = (await read_keys(ctx, topic, 1, "read_committed", lambda g: b"second" in g.get(0, []))).get(0)
    if keys != [b"second"]:
        raise Failed(f"read_committed keys {keys}, expected only the second producer's [b'second']")
    return f"first producer's commit: {fenced}; read_committed sees only the second producer's record"


async def member(args, io: MemberIO) -> None:
    """One group member (see common.MemberIO)."""
    kw: dict = {"partition_assignment_strategy": (RangePartitionAssignor,)} if args.assignor == "range" else {}
    c = AIOKafkaConsumer(args.topic, bootstrap_servers=args.bootstrap, group_id=args.member,
                         enable_auto_commit=False, auto_offset_reset="earliest", request_timeout_ms=15000,
                         session_timeout_ms=args.session_ms, heartbeat_interval_ms=HEARTBEAT_MS, **kw)
    await c.start()
    while True:
        for msgs in (await c.getmany(timeout_ms=100)).values():
            for m in msgs:
                io.rec(m.partition, m.offset, m.key)
        io.assigned(tp.partition for tp in c.assignment())
        for cmd in io.commands():
            if "commit" in cmd:
                await c.commit({TopicPartition(args.topic, int(p)): o for p, o in cmd["commit"].items()})
                io.say(committed=cmd["commit"])
            if "close" in cmd:
                await c.stop()
                return


async def secure(ctx: Ctx, mode: str) -> str:
    """sec-<mode>: produce, read back with assign, then a group round and its committed offset."""
    s = secure_settings(ctx, mode)
    conf: dict = {"bootstrap_servers": s.bootstrap, "security_protocol": s.protocol, "request_timeout_ms": 15000}
    if s.ca:
        conf["ssl_context"] = create_ssl_context(cafile=s.ca, certfile=s.cert or None, keyfile=s.key or None)
    if s.mechanism:
        conf.update(sasl_mechanism=s.mechanism, sasl_plain_username=s.user, sasl_plain_password=s.password)
    p = AIOKafkaProducer(**conf)
    await p.start()
    try:
        futs = [await p.send(s.topic, v, key=k, partition=0) for k, v in s.records]
        offsets = [(await f).offset for f in futs]
    finally:
        await p.stop()
    if offsets != list(range(len(s.records))):
        raise Failed(f"acked offsets {offsets}, expected 0..{len(s.records) - 1}")
    tp = TopicPartition(s.topic, 0)

    async def read(c: AIOKafkaConsumer) -> list:
        got: list = []
        deadline = time.monotonic() + 20
        while len(got) < len(s.records) and time.monotonic() < deadline:
            got += [(m.key, m.value) for msgs in (await c.getmany(timeout_ms=200)).values() for m in msgs]
        return got

    c = AIOKafkaConsumer(enable_auto_commit=False, group_id=None, **conf)
    await c.start()
    try:
        c.assign([tp])
        c.seek(tp, 0)
        secure_check(s, "assign + seek(0)", await read(c))
    finally:
        await c.stop()
    g = AIOKafkaConsumer(s.topic, group_id=s.topic, enable_auto_commit=False, auto_offset_reset="earliest", **conf)
    await g.start()
    try:
        secure_check(s, f"group {s.topic}", await read(g))
        await g.commit()
    finally:
        await g.stop()
    check = AIOKafkaConsumer(group_id=s.topic, enable_auto_commit=False, **conf)
    await check.start()
    try:
        committed = await check.committed(tp)
    finally:
        await check.stop()
    return secure_detail(s, committed)


SCENARIOS: dict[str, Scenario] = {
    "admin-create": sync(admin_create), "auto-create": sync(auto_create),
    **{f"produce-{c}": sync(partial(produce, codec=c)) for c in CODECS},
    **{f"consume-{c}": sync(partial(consume, codec=c)) for c in CODECS},
    "offsets-earliest": sync(partial(offsets, which="earliest")),
    "offsets-latest": sync(partial(offsets, which="latest")),
    "offsets-by-time": sync(partial(offsets, which="by-time")),
    "cross-consume": sync(cross_consume), "admin-delete": sync(admin_delete),
    "txn-commit-abort": sync(txn_commit_abort), "txn-offsets": sync(txn_offsets), "txn-fencing": sync(txn_fencing),
    **{f"sec-{m}": sync(partial(secure, mode=m)) for m in SECURITY_MODES},
}

if __name__ == "__main__":
    if ARGS.member:
        run_member(lambda args, io: asyncio.run(member(args, io)), ARGS)
    emit_version(f"aiokafka {aiokafka.__version__}")
    run(Ctx(ARGS), SCENARIOS)
