"""Scenarios for kafka-python (3.0.x and 2.0.x; run in the matching env), optionally with a forced api_version."""

from __future__ import annotations

import time

import kafka
from common import (
    CODECS,
    HEARTBEAT_MS,
    Ctx,
    Failed,
    MemberIO,
    NotApplicable,
    Rec,
    by_time_queries,
    check_records,
    emit_version,
    parse_args,
    poll_until,
    run,
    run_member,
)
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.structs import OffsetAndMetadata

ARGS = parse_args(lambda ap: ap.add_argument("--api-version", default="", help="e.g. 0.10 or 0.8.2"))
API: tuple[int, ...] | None = tuple(int(x) for x in ARGS.api_version.split(".")) if ARGS.api_version else None
HEADERS = API is None or API >= (0, 11)   # message format v2
TIMESTAMPS = API is None or API >= (0, 10)  # message format v1+


def common_conf(ctx: Ctx) -> dict:
    """Connection settings shared by all clients built here."""
    conf: dict = {"bootstrap_servers": ctx.bootstrap, "request_timeout_ms": 15000}
    if API is not None:
        conf["api_version"] = API
    return conf


def consumer(ctx: Ctx) -> KafkaConsumer:
    """A group-less consumer for assign + seek."""
    return KafkaConsumer(group_id=None, enable_auto_commit=False, **common_conf(ctx))


def admin(ctx: Ctx) -> KafkaAdminClient:
    """Admin client (only for auto-detected API versions: old forced versions have no admin APIs)."""
    if API is not None:
        raise NotApplicable(f"api_version={API}: no CreateTopics/DeleteTopics (needs >= 0.10.1)")
    return KafkaAdminClient(**common_conf(ctx))


def check_admin_response(resp: object) -> None:
    """kafka-python 2.0 returns the raw response instead of raising on per-topic errors."""
    for err in getattr(resp, "topic_errors", None) or getattr(resp, "topic_error_codes", None) or []:
        if err[1] != 0:
            raise Failed(f"per-topic error in {type(resp).__name__}: {err!r}")


def partitions_of(ctx: Ctx, topic: str) -> set[int] | None:
    """Partition ids of a topic from fresh metadata."""
    c = consumer(ctx)
    try:
        return c.partitions_for_topic(topic)
    finally:
        c.close()


def admin_create(ctx: Ctx) -> str:
    topic = ctx.topic("admin")
    a = admin(ctx)
    try:
        check_admin_response(a.create_topics([NewTopic(topic, 3, 1)], timeout_ms=15000))
    finally:
        a.close()
    parts = poll_until(lambda: partitions_of(ctx, topic), 15, what=f"metadata of {topic}")
    if parts != {0, 1, 2}:
        raise Failed(f"created {topic} with 3 partitions, metadata shows {sorted(parts)}")
    return f"{topic}: partitions {sorted(parts)}"


def admin_delete(ctx: Ctx) -> str:
    topic = ctx.topic("admin")
    if API is not None:
        admin(ctx)  # raises NotApplicable
    ctx.require("admin-create")
    a = admin(ctx)
    try:
        check_admin_response(a.delete_topics([topic], timeout_ms=15000))
        poll_until(lambda: topic not in a.list_topics(), 15, what=f"{topic} to disappear from list_topics")
    finally:
        a.close()
    return f"{topic} deleted"


def auto_create(ctx: Ctx) -> str:
    topic = ctx.topic("auto")
    p = KafkaProducer(**common_conf(ctx))
    try:
        md = p.send(topic, b"auto-value", key=b"auto-key", partition=0).get(timeout=20)
    finally:
        p.close(5)
    if md.offset != 0:
        raise Failed(f"first record in new topic got offset {md.offset}")
    parts = partitions_of(ctx, topic) or set()
    want = ctx.args.auto_partitions
    if want and len(parts) != want:
        raise Failed(f"auto-created {topic} has {len(parts)} partitions, expected num.partitions={want}")
    return f"{topic}: offset 0, {len(parts)} partition(s)"


def produce(ctx: Ctx, codec: str) -> str:
    if codec == "zstd" and API is not None and API < (2, 1):
        raise NotApplicable(f"zstd needs api_version >= 2.1 (forced {API})")
    conf = common_conf(ctx)
    p = KafkaProducer(compression_type=None if codec == "none" else codec, linger_ms=20, **conf)
    topic = ctx.topic(f"produce-{codec}")
    try:
        futs = [p.send(topic, r.value, key=r.key, partition=0,
                       headers=r.headers if HEADERS else None,
                       timestamp_ms=r.ts if TIMESTAMPS else None) for r in ctx.expected()]
        p.flush(20)
        offsets = [f.get(timeout=20).offset for f in futs]
    finally:
        p.close(5)
    if offsets != list(range(ctx.n)):
        raise Failed(f"acked offsets {offsets}, expected 0..{ctx.n - 1}")
    fmt = "v2" if HEADERS else "v1" if TIMESTAMPS else "v0"
    return f"{ctx.n} records to {topic} (format {fmt}, api_version={'auto' if API is None else API})"


def fetch_all(ctx: Ctx, topic: str, n: int) -> list[Rec]:
    """assign + seek(0) + poll until n records or the deadline."""
    c = consumer(ctx)
    tp = TopicPartition(topic, 0)
    got: list[Rec] = []
    try:
        c.assign([tp])
        c.seek(tp, 0)
        deadline = time.monotonic() + 20
        while len(got) < n and time.monotonic() < deadline:
            for recs in c.poll(timeout_ms=500).values():
                got += [Rec(m.key, m.value, list(m.headers or []), m.timestamp, m.offset) for m in recs]
    finally:
        c.close()
    return got


def consume(ctx: Ctx, codec: str) -> str:
    ctx.require(f"produce-{codec}")
    topic = ctx.topic(f"produce-{codec}")
    got = fetch_all(ctx, topic, ctx.n)
    return check_records(got, ctx.expected(), headers=HEADERS, ts="exact" if TIMESTAMPS else "none")


def list_offsets(ctx: Ctx, which: str) -> str:
    ctx.require("produce-none")
    tp = TopicPartition(ctx.topic("produce-none"), 0)
    c = consumer(ctx)
    try:
        if API is None:  # ListOffsets v1+ via the dedicated APIs
            got = (c.beginning_offsets if which == "earliest" else c.end_offsets)([tp], )[tp]
        else:  # old request versions: seek + position
            c.assign([tp])
            (c.seek_to_beginning if which == "earliest" else c.seek_to_end)(tp)
            got = c.position(tp)
    finally:
        c.close()
    want = 0 if which == "earliest" else ctx.n
    if got != want:
        raise Failed(f"{which} offset {got}, expected {want}")
    return f"{which}={got}"


def offsets_by_time(ctx: Ctx) -> str:
    if API is not None and API < (0, 10, 1):
        raise NotApplicable(f"offsets_for_times needs api_version >= 0.10.1 (forced {API})")
    ctx.require("produce-none")
    tp = TopicPartition(ctx.topic("produce-none"), 0)
    ts_list = [r.ts for r in ctx.expected()]
    c = consumer(ctx)
    out = []
    try:
        for q, want in by_time_queries(ts_list):
            res = c.offsets_for_times({tp: q})[tp]
            got = None if res is None else res.offset
            if got != want:
                raise Failed(f"offsets_for_times({q}) -> {res!r}, expected offset {want}")
            if res is not None and res.timestamp != ts_list[want]:
                raise Failed(f"offsets_for_times({q}) -> {res!r}, expected timestamp {ts_list[want]}")
            out.append(f"{q}->{got}")
    finally:
        c.close()
    return ", ".join(out)


def cross_consume(ctx: Ctx) -> str:
    topic, exp, opts = ctx.cross()
    if not HEADERS and opts["headers"]:
        opts["headers"] = "either"
    if not TIMESTAMPS and opts["ts"] == "exact":
        opts["ts"] = "exact-or-none"
    return f"{topic}: " + check_records(fetch_all(ctx, topic, len(exp)), exp, **opts)


def wait_for_whole_join_rounds(consumer: KafkaConsumer) -> None:
    """Work around a kafka-python 3.0.12 bug (2.x has no join_group_async and is untouched).

    A JoinGroup + SyncGroup round runs as a task on the client's IO thread; when poll()'s
    timeout expires first, the next poll() is meant to pick up its result. If the round
    finishes between two polls, the result is never applied: no assignment, and heartbeats
    (off during the round) stay off, so the broker expels the member after
    session.timeout.ms. Making the poll that starts a round wait for it avoids the gap.
    """
    coordinator = consumer._coordinator
    join_group_async = getattr(coordinator, "join_group_async", None)
    if join_group_async is None:
        return

    async def join_group_until_done(timeout_ms=None):
        return await join_group_async(timeout_ms=None)

    coordinator.join_group_async = join_group_until_done


def member(args, io: MemberIO) -> None:
    """One group member (see common.MemberIO); --assign-all: assign() + committed offsets only."""
    conf: dict = {"bootstrap_servers": args.bootstrap, "request_timeout_ms": 15000, "group_id": args.member,
                  "enable_auto_commit": False, "auto_offset_reset": "earliest",
                  "session_timeout_ms": args.session_ms, "heartbeat_interval_ms": HEARTBEAT_MS}
    if API is not None:
        conf["api_version"] = API
    if args.assignor == "range":
        conf["partition_assignment_strategy"] = [RangePartitionAssignor]
    c = KafkaConsumer(**conf)
    wait_for_whole_join_rounds(c)
    if args.assign_all:
        parts = poll_until(lambda: c.partitions_for_topic(args.topic), 15, what=f"metadata of {args.topic}")
        c.assign([TopicPartition(args.topic, p) for p in sorted(parts)])
    else:
        c.subscribe([args.topic])
    while True:
        for recs in c.poll(timeout_ms=100).values():
            for m in recs:
                io.rec(m.partition, m.offset, m.key)
        io.assigned(tp.partition for tp in c.assignment())
        for cmd in io.commands():
            if "commit" in cmd:
                extra = ("",) if len(OffsetAndMetadata._fields) == 2 else ("", -1)  # 3.x adds leader_epoch
                c.commit({TopicPartition(args.topic, int(p)): OffsetAndMetadata(o, *extra)
                          for p, o in cmd["commit"].items()})
                io.say(committed=cmd["commit"])
            if "close" in cmd:
                c.close()
                return


SCENARIOS = {
    "admin-create": admin_create, "auto-create": auto_create,
    **{f"produce-{c}": (lambda ctx, c=c: produce(ctx, c)) for c in CODECS},
    **{f"consume-{c}": (lambda ctx, c=c: consume(ctx, c)) for c in CODECS},
    "offsets-earliest": lambda ctx: list_offsets(ctx, "earliest"),
    "offsets-latest": lambda ctx: list_offsets(ctx, "latest"),
    "offsets-by-time": offsets_by_time,
    "cross-consume": cross_consume, "admin-delete": admin_delete,
}

if __name__ == "__main__":
    if ARGS.member:
        run_member(member, ARGS)
    emit_version(f"kafka-python {kafka.__version__}")
    run(Ctx(ARGS), SCENARIOS)
