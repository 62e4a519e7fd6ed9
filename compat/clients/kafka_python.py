"""Scenarios for kafka-python (3.0.x and 2.0.x; run in the matching env), optionally with a forced api_version."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import kafka
import kafka.errors
from common import (
    CODECS,
    HEARTBEAT_MS,
    SECURITY_MODES,
    Ctx,
    Failed,
    MemberIO,
    NotApplicable,
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
    timestamps,
    txn_check,
    txn_done,
    txn_expected,
    txn_plan,
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
    ts_list = timestamps(ctx.expected())
    c = consumer(ctx)
    out = []
    try:
        for q, want in by_time_queries(ts_list):
            res = c.offsets_for_times({tp: q})[tp]
            got = None if res is None else res.offset
            if got != want:
                raise Failed(f"offsets_for_times({q}) -> {res!r}, expected offset {want}")
            if res is not None and want is not None and res.timestamp != ts_list[want]:
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


def txn_producer(ctx: Ctx, txn_id: str) -> KafkaProducer:
    """A transactional producer, initialised; n/a for kafka-python 2 (no transactions) and forced old APIs."""
    if not hasattr(KafkaProducer, "init_transactions"):
        raise NotApplicable(f"kafka-python {kafka.__version__} has no transactional producer (transactional_id)")
    if API is not None:
        raise NotApplicable(f"api_version={API}: transactions need >= 0.11")
    p = KafkaProducer(transactional_id=txn_id, linger_ms=5, **common_conf(ctx))
    p.init_transactions()
    return p


def read_keys(ctx: Ctx, topic: str, partitions: int, isolation: str,
              done: Callable[[dict[int, list[bytes]]], bool]) -> dict[int, list[bytes]]:
    """assign from offset 0 and collect keys per partition until done(keys) or 20 s."""
    c = KafkaConsumer(group_id=None, enable_auto_commit=False, isolation_level=isolation, **common_conf(ctx))
    got: dict[int, list[bytes]] = {}
    try:
        tps = [TopicPartition(topic, i) for i in range(partitions)]
        c.assign(tps)
        c.seek_to_beginning(*tps)
        deadline = time.monotonic() + 20
        while not done(got) and time.monotonic() < deadline:
            for tp, recs in c.poll(timeout_ms=200).items():
                got.setdefault(tp.partition, []).extend(m.key for m in recs)
    finally:
        c.close()
    return got


def txn_commit_abort(ctx: Ctx) -> str:
    topic = f"{ctx.args.prefix}-txn"
    p = txn_producer(ctx, f"{ctx.args.prefix}-txn-commit-abort")
    try:
        a = admin(ctx)
        try:
            check_admin_response(a.create_topics([NewTopic(topic, 2, 1)], timeout_ms=15000))
        finally:
            a.close()
        poll_until(lambda: partitions_of(ctx, topic), 15, what=f"metadata of {topic}")
        for outcome, recs in txn_plan(ctx.args.prefix):
            p.begin_transaction()
            for part, key in recs:
                p.send(topic, key, key=key, partition=part)
            if outcome == "commit":
                p.commit_transaction()
            else:
                p.flush(20)  # the aborted records are in the log before the abort marker
                p.abort_transaction()
    finally:
        p.close(5)
    out = []
    for isolation, committed_only in (("read_committed", True), ("read_uncommitted", False)):
        exp = txn_expected(ctx.args.prefix, committed_only)
        got = read_keys(ctx, topic, 2, isolation, partial(txn_done, exp=exp))
        out.append(txn_check(got, exp, isolation))
    return "commit, abort, commit over 2 partitions; " + ", ".join(out)


def txn_offsets(ctx: Ctx) -> str:
    pre = ctx.args.prefix
    tin, tout, group = f"{pre}-txn-in", f"{pre}-txn-out", f"{pre}-txn-group"
    p = txn_producer(ctx, f"{pre}-txn-offsets")
    plain = KafkaProducer(**common_conf(ctx))
    c = KafkaConsumer(tin, group_id=group, enable_auto_commit=False, auto_offset_reset="earliest",
                      isolation_level="read_committed", **common_conf(ctx))
    try:
        for i in range(6):
            plain.send(tin, f"in-{i}".encode(), key=f"{pre}-in-{i}".encode(), partition=0)
        plain.flush(20)
        recs: list = []
        deadline = time.monotonic() + 20
        while len(recs) < 6 and time.monotonic() < deadline:
            for batch in c.poll(timeout_ms=200).values():
                recs += batch
        if len(recs) != 6:
            raise Failed(f"the group consumer got {len(recs)} of 6 input records")
        for half, commit in ((recs[:3], True), (recs[3:], False)):
            p.begin_transaction()
            for m in half:
                p.send(tout, m.value.upper(), key=m.key.replace(b"-in-", b"-out-"), partition=0)
            p.send_offsets_to_transaction({TopicPartition(tin, 0): OffsetAndMetadata(half[-1].offset + 1, "", -1)},
                                          c.group_metadata())
            if commit:
                p.commit_transaction()
            else:
                p.flush(20)
                p.abort_transaction()
        # A plain record after the aborted transaction: once a read_committed consumer sees it, the abort is final.
        sentinel = f"{pre}-sentinel".encode()
        plain.send(tout, b"", key=sentinel, partition=0).get(timeout=20)
    finally:
        c.close()
        p.close(5)
        plain.close(5)
    keys = read_keys(ctx, tout, 1, "read_committed", lambda g: sentinel in g.get(0, [])).get(0, [])
    want = [f"{pre}-out-{i}".encode() for i in range(3)] + [sentinel]
    if keys != want:
        raise Failed(f"output keys {keys}, expected the first transaction's {want[:3]} then the sentinel")
    check = KafkaConsumer(group_id=group, enable_auto_commit=False, **common_conf(ctx))
    try:
        got = check.committed(TopicPartition(tin, 0))
    finally:
        check.close()
    if got != 3:
        raise Failed(f"group {group} committed offset {got} for {tin}-0, expected 3 (the first transaction's)")
    return f"group {group} committed offset 3; output has the first transaction's 3 records only"


def txn_fencing(ctx: Ctx) -> str:
    topic, tid = f"{ctx.args.prefix}-txn-fence", f"{ctx.args.prefix}-txn-fencing"
    first = txn_producer(ctx, tid)
    try:
        first.begin_transaction()
        first.send(topic, b"first", key=b"first", partition=0).get(timeout=20)
        second = txn_producer(ctx, tid)  # bumps the epoch: the first is fenced, its transaction aborted
        try:
            try:
                first.commit_transaction()
            except kafka.errors.ProducerFencedError as e:
                fenced = type(e).__name__
            else:
                raise Failed("the first producer committed after a second one with its transactional.id initialised")
            second.begin_transaction()
            second.send(topic, b"second", key=b"second", partition=0)
            second.commit_transaction()
        finally:
            second.close(5)
    finally:
        first.close(5)
    keys = read_keys(ctx, topic, 1, "read_committed", lambda g: b"second" in g.get(0, [])).get(0)
    if keys != [b"second"]:
        raise Failed(f"read_committed keys {keys}, expected only the second producer's [b'second']")
    return f"first producer's commit: {fenced}; read_committed sees only the second producer's record"


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


def secure(ctx: Ctx, mode: str) -> str:
    """sec-<mode>: produce, read back with assign, then a group round and its committed offset."""
    s = secure_settings(ctx, mode)
    conf: dict = {"bootstrap_servers": s.bootstrap, "security_protocol": s.protocol, "request_timeout_ms": 15000}
    if "api_version_auto_timeout_ms" in KafkaProducer.DEFAULT_CONFIG:
        # 2.0's version probe gives up after 2 s: short for TLS + SCRAM while every mode runs at once.
        conf["api_version_auto_timeout_ms"] = 15000
    if s.ca:
        conf["ssl_cafile"] = s.ca
    if s.cert:
        conf.update(ssl_certfile=s.cert, ssl_keyfile=s.key)
    if s.mechanism:
        conf.update(sasl_mechanism=s.mechanism, sasl_plain_username=s.user, sasl_plain_password=s.password)
    p = KafkaProducer(**conf)
    try:
        futs = [p.send(s.topic, v, key=k, partition=0) for k, v in s.records]
        p.flush(20)
        offsets = [f.get(timeout=20).offset for f in futs]
    finally:
        p.close(5)
    if offsets != list(range(len(s.records))):
        raise Failed(f"acked offsets {offsets}, expected 0..{len(s.records) - 1}")
    tp = TopicPartition(s.topic, 0)
    c = KafkaConsumer(group_id=None, enable_auto_commit=False, **conf)
    try:
        c.assign([tp])
        c.seek(tp, 0)
        got: list = []
        deadline = time.monotonic() + 20
        while len(got) < len(s.records) and time.monotonic() < deadline:
            got += [(m.key, m.value) for recs in c.poll(timeout_ms=200).values() for m in recs]
    finally:
        c.close()
    secure_check(s, "assign + seek(0)", got)
    g = KafkaConsumer(group_id=s.topic, enable_auto_commit=False, auto_offset_reset="earliest", **conf)
    wait_for_whole_join_rounds(g)
    try:
        g.subscribe([s.topic])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < len(s.records) and time.monotonic() < deadline:
            got += [(m.key, m.value) for recs in g.poll(timeout_ms=200).values() for m in recs]
        secure_check(s, f"group {s.topic}", got)
        g.commit()
    finally:
        g.close()
    check = KafkaConsumer(group_id=s.topic, enable_auto_commit=False, **conf)
    try:
        committed = check.committed(tp)
    finally:
        check.close()
    return secure_detail(s, committed)


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
        run_member(member, ARGS)
    emit_version(f"kafka-python {kafka.__version__}")
    run(Ctx(ARGS), SCENARIOS)
