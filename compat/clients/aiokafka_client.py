"""Scenarios for aiokafka (defaults: acks=1, no idempotence, always v2 batches)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import aiokafka
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.coordinator.assignors.range import RangePartitionAssignor
from common import (
    CODECS,
    HEARTBEAT_MS,
    Ctx,
    Failed,
    MemberIO,
    Rec,
    by_time_queries,
    check_records,
    emit_version,
    parse_args,
    run,
    run_member,
)

ARGS = parse_args()


def sync(fn: Callable[[Ctx], Awaitable[str]]) -> Callable[[Ctx], str]:
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


async def wait_until(pred: Callable[[], Awaitable[object]], timeout: float, what: str) -> object:
    """Await pred() until truthy, or raise Failed."""
    deadline = time.monotonic() + timeout
    last = None
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

        async def ready() -> object:
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
    ts_list = [r.ts for r in ctx.expected()]
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
        for q, want in by_time_queries(ts_list):
            res = (await c.offsets_for_times({tp: q}))[tp]
            got = None if res is None else res.offset
            if got != want or (res is not None and res.timestamp != ts_list[want]):
                raise Failed(f"offsets_for_times({q}) -> {res!r}, expected offset {want}"
                             + ("" if want is None else f" timestamp {ts_list[want]}"))
            out.append(f"{q}->{got}")
        return ", ".join(out)
    finally:
        await c.stop()


async def cross_consume(ctx: Ctx) -> str:
    topic, exp, opts = ctx.cross()
    return f"{topic}: " + check_records(await fetch_all(ctx, topic, len(exp)), exp, **opts)


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


SCENARIOS = {
    "admin-create": sync(admin_create), "auto-create": sync(auto_create),
    **{f"produce-{c}": sync(lambda ctx, c=c: produce(ctx, c)) for c in CODECS},
    **{f"consume-{c}": sync(lambda ctx, c=c: consume(ctx, c)) for c in CODECS},
    "offsets-earliest": sync(lambda ctx: offsets(ctx, "earliest")),
    "offsets-latest": sync(lambda ctx: offsets(ctx, "latest")),
    "offsets-by-time": sync(lambda ctx: offsets(ctx, "by-time")),
    "cross-consume": sync(cross_consume), "admin-delete": sync(admin_delete),
}

if __name__ == "__main__":
    if ARGS.member:
        run_member(lambda args, io: asyncio.run(member(args, io)), ARGS)
    emit_version(f"aiokafka {aiokafka.__version__}")
    run(Ctx(ARGS), SCENARIOS)
