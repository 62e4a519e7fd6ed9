"""Scenarios for confluent-kafka (librdkafka; defaults: acks=all, no idempotence, read_committed)."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import confluent_kafka
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
    poll_until,
    run,
    run_member,
    secure_check,
    secure_detail,
    secure_settings,
    share_action,
    timestamps,
    txn_check,
    txn_done,
    txn_expected,
    txn_plan,
)
from confluent_kafka import Consumer, KafkaError, Message, Producer, TopicPartition
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


def at_eof(m: Message) -> bool:
    """The poll returned librdkafka's end-of-partition event, not a record or an error."""
    err = m.error()
    return err is not None and err.code() == KafkaError._PARTITION_EOF


def consumed_headers(m: Message) -> list[tuple[str, bytes]]:
    """A consumed record's headers: librdkafka hands them over as (key, bytes) pairs (the suite
    writes no null header values)."""
    headers = m.headers() or []
    assert isinstance(headers, list), "a consumed record's headers are pairs, not a dict"
    return [(k, v) for k, v in headers if isinstance(v, bytes)]


def produce_records(ctx: Ctx, topic: str, recs: list[Rec], conf: dict) -> list[int]:
    """Produce and wait for every delivery report; return the acked offsets."""
    p = Producer({**base(ctx), "linger.ms": 20, **conf})
    reports: list[tuple] = []
    for r in recs:
        headers: list[tuple[str, str | bytes | None]] = list(r.headers)
        p.produce(topic, r.value, r.key, partition=0, headers=headers or None,
                  on_delivery=lambda err, msg: reports.append((err, msg.offset())),
                  timestamp=0 if r.ts is None else r.ts)  # 0: librdkafka stamps the send time
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
                if at_eof(m):
                    continue
                raise Failed(f"consumer error: {m.error()!r}")
            got.append(Rec(m.key(), m.value(), consumed_headers(m), m.timestamp()[1], m.offset()))
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
    ts_list = timestamps(ctx.expected())
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


def create_topic(ctx: Ctx, topic: str, partitions: int) -> None:
    """CreateTopics through the AdminClient, then wait for the metadata."""
    a = AdminClient(base(ctx))
    a.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1)],
                    operation_timeout=15, request_timeout=15)[topic].result(20)
    poll_until(lambda: topic_partitions(a, topic), 15, what=f"metadata of {topic}")


def txn_producer(ctx: Ctx, txn_id: str) -> Producer:
    """A transactional producer, initialised (InitProducerId through the transaction coordinator)."""
    p = Producer({**base(ctx), "transactional.id": txn_id, "linger.ms": 5})
    p.init_transactions(20)
    return p


def read_keys(ctx: Ctx, topics: list[tuple[str, int]], isolation: str,
              done: Callable[[dict[int, list[bytes]]], bool]) -> dict[int, list[bytes]]:
    """assign from offset 0 and collect keys per partition until done(keys) or 20 s."""
    c = Consumer({**base(ctx), "group.id": f"compat-{ctx.args.prefix}-read", "enable.auto.commit": False,
                  "auto.offset.reset": "earliest", "isolation.level": isolation})
    got: dict[int, list[bytes]] = {}
    try:
        c.assign([TopicPartition(t, p, 0) for t, p in topics])
        deadline = time.monotonic() + 20
        while not done(got) and time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is None or at_eof(m):
                continue
            if m.error():
                raise Failed(f"consumer error: {m.error()!r}")
            partition, key = m.partition(), m.key()
            assert partition is not None and key is not None, "a transactional record, keyed by txn_plan"
            got.setdefault(partition, []).append(key)
    finally:
        c.close()
    return got


def txn_commit_abort(ctx: Ctx) -> str:
    topic = f"{ctx.args.prefix}-txn"
    create_topic(ctx, topic, 2)
    p = txn_producer(ctx, f"{ctx.args.prefix}-txn-commit-abort")
    for outcome, recs in txn_plan(ctx.args.prefix):
        p.begin_transaction()
        for part, key in recs:
            p.produce(topic, key, key, partition=part)
        if outcome == "commit":
            p.commit_transaction(20)
        else:
            p.flush(20)  # the aborted records are in the log before the abort marker
            p.abort_transaction(20)
    out = []
    for isolation, committed_only in (("read_committed", True), ("read_uncommitted", False)):
        exp = txn_expected(ctx.args.prefix, committed_only)
        got = read_keys(ctx, [(topic, 0), (topic, 1)], isolation, partial(txn_done, exp=exp))
        out.append(txn_check(got, exp, isolation))
    return "commit, abort, commit over 2 partitions; " + ", ".join(out)


def txn_offsets(ctx: Ctx) -> str:
    pre = ctx.args.prefix
    tin, tout, group = f"{pre}-txn-in", f"{pre}-txn-out", f"{pre}-txn-group"
    produce_records(ctx, tin, [Rec(f"{pre}-in-{i}".encode(), f"in-{i}".encode()) for i in range(6)], {})
    c = Consumer({**base(ctx), "group.id": group, "enable.auto.commit": False, "auto.offset.reset": "earliest",
                  "isolation.level": "read_committed"})
    p = txn_producer(ctx, f"{pre}-txn-offsets")
    try:
        c.subscribe([tin])
        recs: list = []
        deadline = time.monotonic() + 20
        while len(recs) < 6 and time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is not None and not m.error():
                recs.append(m)
        if len(recs) != 6:
            raise Failed(f"the group consumer got {len(recs)} of 6 input records")
        for half, commit in ((recs[:3], True), (recs[3:], False)):
            p.begin_transaction()
            for m in half:
                p.produce(tout, m.value().upper(), m.key().replace(b"-in-", b"-out-"), partition=0)
            p.send_offsets_to_transaction([TopicPartition(tin, 0, half[-1].offset() + 1)],
                                          c.consumer_group_metadata(), 20)
            if commit:
                p.commit_transaction(20)
            else:
                p.flush(20)
                p.abort_transaction(20)
    finally:
        c.close()
    # A plain record after the aborted transaction: once a read_committed consumer sees it, the abort is final.
    sentinel = f"{pre}-sentinel".encode()
    produce_records(ctx, tout, [Rec(sentinel, b"")], {})
    got = read_keys(ctx, [(tout, 0)], "read_committed", lambda g: sentinel in g.get(0, []))
    keys = got.get(0, [])
    want = [f"{pre}-out-{i}".encode() for i in range(3)] + [sentinel]
    if keys != want:
        raise Failed(f"output keys {keys}, expected the first transaction's {want[:3]} then the sentinel")
    check = Consumer({**base(ctx), "group.id": group, "enable.auto.commit": False})
    try:
        (tp,) = check.committed([TopicPartition(tin, 0)], timeout=20)
    finally:
        check.close()
    if tp.offset != 3:
        raise Failed(f"group {group} committed offset {tp.offset} for {tin}-0, expected 3 (the first transaction's)")
    return f"group {group} committed offset 3; output has the first transaction's 3 records only"


def txn_fencing(ctx: Ctx) -> str:
    topic, tid = f"{ctx.args.prefix}-txn-fence", f"{ctx.args.prefix}-txn-fencing"
    first = txn_producer(ctx, tid)
    first.begin_transaction()
    first.produce(topic, b"first", b"first", partition=0)
    if first.flush(20):
        raise Failed("the first producer's record was not delivered")
    second = txn_producer(ctx, tid)  # bumps the epoch: the first is fenced, its transaction aborted
    try:
        first.commit_transaction(20)
    except confluent_kafka.KafkaException as e:
        err = e.args[0]
        if err.code() not in (KafkaError._FENCED, KafkaError.PRODUCER_FENCED) or not err.fatal():
            raise Failed(f"the fenced producer's commit failed with {err!r}, expected a fatal _FENCED") from None
        fenced = err.name()
    else:
        raise Failed("the first producer committed after a second one with its transactional.id initialised")
    second.begin_transaction()
    second.produce(topic, b"second", b"second", partition=0)
    second.commit_transaction(20)
    got = read_keys(ctx, [(topic, 0)], "read_committed", lambda g: b"second" in g.get(0, []))
    if got.get(0) != [b"second"]:
        raise Failed(f"read_committed keys {got.get(0)}, expected only the second producer's [b'second']")
    return f"first producer's commit: fatal {fenced}; read_committed sees only the second producer's record"


def member(args, io: MemberIO) -> None:
    """One group member (see common.MemberIO)."""
    conf = {"bootstrap.servers": args.bootstrap, "group.id": args.member, "enable.auto.commit": False,
            "auto.offset.reset": "earliest"}
    if args.group_protocol == "consumer":  # the coordinator owns session, heartbeat and assignor settings
        conf["group.protocol"] = "consumer"
    else:
        conf.update({"session.timeout.ms": args.session_ms, "heartbeat.interval.ms": HEARTBEAT_MS})
        if args.assignor == "range":
            conf["partition.assignment.strategy"] = "range"
    c = Consumer(conf)
    c.subscribe([args.topic])
    while True:
        m = c.poll(0.1)
        if m is not None:
            if m.error():
                if not at_eof(m):
                    raise RuntimeError(f"consumer error: {m.error()!r}")
            else:
                partition, offset = m.partition(), m.offset()
                assert partition is not None and offset is not None, "a consumed record has both"
                io.rec(partition, offset, m.key())
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


def share_member(args, io: MemberIO) -> None:
    """One share group member (KIP-932, confluent-kafka's ShareConsumer; see common.MemberIO)."""
    holding = args.share_ack == "release-reject-hold"
    conf = {"bootstrap.servers": args.bootstrap, "group.id": args.member}
    if holding:
        conf["share.acknowledgement.mode"] = "explicit"
    c = confluent_kafka.ShareConsumer(conf)
    c.subscribe([args.topic])
    ack = {"release": confluent_kafka.AcknowledgeType.RELEASE, "reject": confluent_kafka.AcknowledgeType.REJECT}
    held = False  # release-reject-hold: its first records are acknowledged (or held) and it polls no more
    while True:
        if held:
            time.sleep(0.1)
        else:
            messages = c.poll(0.2)
            for m in messages:
                if m.error():
                    raise RuntimeError(f"share consumer error: {m.error()!r}")
                partition, offset, delivery = m.partition(), m.offset(), m.delivery_count()
                assert partition is not None and offset is not None and delivery is not None, "a share record has all"
                action = share_action(offset) if holding else "accept"
                if action in ack:
                    c.acknowledge(m, ack[action])
                io.share(partition, offset, m.key(), delivery, action)
            if holding and messages:
                c.commit_sync(20)
                io.say(committed={})
                held = True
        for cmd in io.commands():
            if "close" in cmd:
                c.close()
                return


def secure_conf(ctx: Ctx, mode: str):
    """librdkafka's settings for one security mode (kcat_client.py passes the same with -X)."""
    s = secure_settings(ctx, mode)
    conf = {"bootstrap.servers": s.bootstrap, "security.protocol": s.protocol}
    if s.ca:
        conf["ssl.ca.location"] = s.ca
    if s.cert:
        conf.update({"ssl.certificate.location": s.cert, "ssl.key.location": s.key})
    if s.mechanism:
        conf.update({"sasl.mechanism": s.mechanism, "sasl.username": s.user, "sasl.password": s.password})
    return s, conf


def secure(ctx: Ctx, mode: str) -> str:
    """sec-<mode>: produce, read back with assign, then a group round and its committed offset."""
    s, conf = secure_conf(ctx, mode)
    p = Producer({**conf, "linger.ms": 5})
    reports: list[tuple] = []
    for k, v in s.records:
        p.produce(s.topic, v, k, partition=0, on_delivery=lambda err, msg: reports.append((err, msg.offset())))
    left = p.flush(20)
    if left or [r for r in reports if r[0] is not None] or [o for _, o in reports] != list(range(len(s.records))):
        raise Failed(f"{left} undelivered; delivery reports (error, offset): {reports}")

    def read(c: Consumer) -> list:
        got: list = []
        deadline = time.monotonic() + 20
        while len(got) < len(s.records) and time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is None or at_eof(m):
                continue
            if m.error():
                raise Failed(f"consumer error: {m.error()!r}")
            got.append((m.key(), m.value()))
        return got

    c = Consumer({**conf, "group.id": f"{s.topic}-assign", "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(s.topic, 0, 0)])
        secure_check(s, "assign at offset 0", read(c))
    finally:
        c.close()
    g = Consumer({**conf, "group.id": s.topic, "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    try:
        g.subscribe([s.topic])
        secure_check(s, f"group {s.topic}", read(g))
        g.commit(asynchronous=False)
    finally:
        g.close()
    check = Consumer({**conf, "group.id": s.topic, "enable.auto.commit": False})
    try:
        (tp,) = check.committed([TopicPartition(s.topic, 0)], timeout=20)
    finally:
        check.close()
    return secure_detail(s, tp.offset)


SCENARIOS: dict[str, Scenario] = {
    "admin-create": admin_create, "auto-create": auto_create,
    **{f"produce-{c}": partial(produce, codec=c) for c in CODECS},
    **{f"consume-{c}": partial(consume, codec=c) for c in CODECS},
    "offsets-earliest": partial(list_offsets, which="earliest"),
    "offsets-latest": partial(list_offsets, which="latest"),
    "offsets-by-time": offsets_by_time,
    "cross-consume": cross_consume, "admin-delete": admin_delete,
    "txn-commit-abort": txn_commit_abort, "txn-offsets": txn_offsets, "txn-fencing": txn_fencing,
    **{f"sec-{m}": partial(secure, mode=m) for m in SECURITY_MODES},
}

if __name__ == "__main__":
    if ARGS.member:
        run_member(share_member if ARGS.group_protocol == "share" else member, ARGS)
    emit_version(f"confluent-kafka {confluent_kafka.__version__} (librdkafka {confluent_kafka.libversion()[0]})")
    run(Ctx(ARGS), SCENARIOS)
