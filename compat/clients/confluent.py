"""Scenarios for confluent-kafka (librdkafka; defaults: acks=all, no idempotence, read_committed)."""

from __future__ import annotations

import time

import confluent_kafka
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
    poll_until,
    run,
    run_member,
)
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic, OffsetSpec

ARGS = parse_args()


def base(ctx: Ctx) -> dict:
    """Connection settings shared by all handles."""
    return {"bootstrap.servers": ctx.bootstrap, "socket.timeout.ms": 15000}


def consumer(ctx: Ctx) -> Consumer:
    """A consumer used only with assign() (librdkafka still requires a group.id)."""
    return Consumer({**base(ctx), "group.id": f"compat-{ctx.args.prefix}", "enable.auto.commit": False,
                     "auto.offset.reset": "earliest"})


def topic_partitions(a: AdminClient | Producer, topic: str) -> list[int] | None:
    """Partition ids from a metadata request for all topics (no auto-create)."""
    t = a.list_topics(timeout=10).topics.get(topic)
    return None if t is None or t.error is not None else sorted(t.partitions)


def admin_create(ctx: Ctx) -> str:
    topic = ctx.topic("admin")
    a = AdminClient(base(ctx))
    a.create_topics([NewTopic(topic, num_partitions=3, replication_factor=1)],
                    operation_timeout=15, request_timeout=15)[topic].result(20)
    parts = poll_until(lambda: topic_partitions(a, topic), 15, what=f"metadata of {topic}")
    if parts != [0, 1, 2]:
        raise Failed(f"created {topic} with 3 partitions, metadata shows {parts}")
    return f"{topic}: partitions {parts}"


def admin_delete(ctx: Ctx) -> str:
    ctx.require("admin-create")
    topic = ctx.topic("admin")
    a = AdminClient(base(ctx))
    a.delete_topics([topic], operation_timeout=15, request_timeout=15)[topic].result(20)
    poll_until(lambda: topic not in a.list_topics(timeout=10).topics, 15, what=f"{topic} to disappear")
    return f"{topic} deleted"


def produce_records(ctx: Ctx, topic: str, recs: list[Rec], conf: dict) -> list[int]:
    """Produce and wait for every delivery report; return the acked offsets."""
    p = Producer({**base(ctx), "linger.ms": 20, **conf})
    reports: list[tuple] = []
    for r in recs:
        kw = {"timestamp": r.ts} if r.ts is not None else {}
        p.produce(topic, r.value, r.key, partition=0, headers=r.headers or None,
                  on_delivery=lambda err, msg: reports.append((err, msg.offset())), **kw)
    left = p.flush(20)
    errors = [e for e, _ in reports if e is not None]
    if left or errors or len(reports) != len(recs):
        raise Failed(f"{left} undelivered, delivery errors: {errors[:3]!r}")
    return [o for _, o in reports]


def auto_create(ctx: Ctx) -> str:
    topic = ctx.topic("auto")
    offsets = produce_records(ctx, topic, [Rec(b"auto-key", b"auto-value")], {})
    if offsets != [0]:
        raise Failed(f"first record in new topic got offset {offsets}")
    parts = topic_partitions(AdminClient(base(ctx)), topic) or []
    want = ctx.args.auto_partitions
    if want and len(parts) != want:
        raise Failed(f"auto-created {topic} has {len(parts)} partitions, expected num.partitions={want}")
    return f"{topic}: offset 0, {len(parts)} partition(s)"


def produce(ctx: Ctx, codec: str) -> str:
    topic = ctx.topic(f"produce-{codec}")
    offsets = produce_records(ctx, topic, ctx.expected(), {"compression.type": codec})
    if offsets != list(range(ctx.n)):
        raise Failed(f"acked offsets {offsets}, expected 0..{ctx.n - 1}")
    return f"{ctx.n} records to {topic}"


def fetch_all(ctx: Ctx, topic: str, n: int) -> list[Rec]:
    """assign at offset 0 + poll until n records or the deadline."""
    c = consumer(ctx)
    got: list[Rec] = []
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        deadline = time.monotonic() + 20
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            if m.error():
                if m.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise Failed(f"consumer error: {m.error()!r}")
            got.append(Rec(m.key(), m.value(), list(m.headers() or []), m.timestamp()[1], m.offset()))
    finally:
        c.close()
    return got


def consume(ctx: Ctx, codec: str) -> str:
    ctx.require(f"produce-{codec}")
    got = fetch_all(ctx, ctx.topic(f"produce-{codec}"), ctx.n)
    return check_records(got, ctx.expected(), headers=True, ts="exact")


def list_offsets(ctx: Ctx, which: str) -> str:
    """Both the consumer's watermarks and the Admin ListOffsets API (what Spark uses)."""
    ctx.require("produce-none")
    topic = ctx.topic("produce-none")
    c = consumer(ctx)
    try:
        low, high = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10, cached=False)
    finally:
        c.close()
    got = low if which == "earliest" else high
    want = 0 if which == "earliest" else ctx.n
    if got != want:
        raise Failed(f"get_watermark_offsets: {which}={got}, expected {want}")
    spec = OffsetSpec.earliest() if which == "earliest" else OffsetSpec.latest()
    tp = TopicPartition(topic, 0)
    a = AdminClient(base(ctx))  # keep a reference: the handle must outlive its futures
    res = a.list_offsets({tp: spec}, request_timeout=15)[tp].result(20)
    if res.offset != want:
        raise Failed(f"AdminClient.list_offsets: {which}={res.offset}, expected {want}")
    return f"{which}={got} (consumer watermarks and AdminClient.list_offsets)"


def offsets_by_time(ctx: Ctx) -> str:
    ctx.require("produce-none")
    topic = ctx.topic("produce-none")
    ts_list = [r.ts for r in ctx.expected()]
    c = consumer(ctx)
    out = []
    try:
        for q, want in by_time_queries(ts_list):
            (tp,) = c.offsets_for_times([TopicPartition(topic, 0, q)], timeout=10)
            got = None if tp.offset < 0 else tp.offset
            if tp.error or got != want:
                raise Failed(f"offsets_for_times({q}) -> offset {tp.offset} error {tp.error}, expected {want}")
            out.append(f"{q}->{got}")
    finally:
        c.close()
    return ", ".join(out)


def cross_consume(ctx: Ctx) -> str:
    topic, exp, opts = ctx.cross()
    return f"{topic}: " + check_records(fetch_all(ctx, topic, len(exp)), exp, **opts)


def member(args, io: MemberIO) -> None:
    """One group member (see common.MemberIO)."""
    conf = {"bootstrap.servers": args.bootstrap, "group.id": args.member, "enable.auto.commit": False,
            "auto.offset.reset": "earliest", "session.timeout.ms": args.session_ms,
            "heartbeat.interval.ms": HEARTBEAT_MS}
    if args.assignor == "range":
        conf["partition.assignment.strategy"] = "range"
    c = Consumer(conf)
    c.subscribe([args.topic])
    while True:
        m = c.poll(0.1)
        if m is not None:
            if m.error():
                if m.error().code() != KafkaError._PARTITION_EOF:
                    raise RuntimeError(f"consumer error: {m.error()!r}")
            else:
                io.rec(m.partition(), m.offset(), m.key())
        io.assigned(tp.partition for tp in c.assignment())
        for cmd in io.commands():
            if "commit" in cmd:
                res = c.commit(offsets=[TopicPartition(args.topic, int(p), o) for p, o in cmd["commit"].items()],
                               asynchronous=False)
                errs = [tp for tp in res or [] if tp.error]
                if errs:
                    raise RuntimeError(f"commit failed: {errs!r}")
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
    emit_version(f"confluent-kafka {confluent_kafka.__version__} (librdkafka {confluent_kafka.libversion()[0]})")
    run(Ctx(ARGS), SCENARIOS)
