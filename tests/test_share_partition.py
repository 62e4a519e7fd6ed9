"""A share partition's delivery state machine under MockTime (Kafka's SharePartition):
acquisition, acquisition locks and their expiry, delivery counts up to
group.share.delivery.count.limit, accept / release / reject / renew, gaps, the start
offset's advance and the in-flight cap; and the `simple` share assignor's balance."""

from __future__ import annotations

import random
import uuid

from josefk.coordinator.consumer_assignors import AssignmentMember
from josefk.coordinator.share_assignor import assign_simple
from josefk.protocol.errors import ErrorCode
from josefk.replication.share_partition import (
    AbortedRange,
    AckBatch,
    AcknowledgeType,
    AcquiredRange,
    BatchInfo,
    RecordState,
    SharePartition,
    SharePartitionSettings,
)
from josefk.utils.mock_time import MockScheduler, MockTime

LOCK_MS = 30_000
ACCEPT, RELEASE, REJECT, RENEW, GAP = (AcknowledgeType.ACCEPT, AcknowledgeType.RELEASE, AcknowledgeType.REJECT,
                                       AcknowledgeType.RENEW, AcknowledgeType.GAP)


def partition(limit: int = 5, max_locks: int = 2000) -> tuple[SharePartition, MockTime, list[int]]:
    time = MockTime()
    woken: list[int] = []
    sp = SharePartition("g", "t", 0, SharePartitionSettings(LOCK_MS, limit, max_locks), MockScheduler(time),
                        lambda: woken.append(1))
    sp.initialize(0)
    return sp, time, woken


def log_batches(*ranges: tuple[int, int]) -> list[BatchInfo]:
    return [BatchInfo(first, last) for first, last in ranges]


def fetch(sp: SharePartition, member: str, end: int, max_records: int = 500) -> list[AcquiredRange]:
    """What a fetch acquires when the log holds one batch of 5 records per 5 offsets up to `end`."""
    start = sp.next_fetch_offset()
    base = start - start % 5
    return sp.acquire(member, log_batches(*((b, b + 4) for b in range(base, end, 5))), max_records)


def ack(sp: SharePartition, member: str, first: int, last: int, *types: int) -> tuple[ErrorCode, str | None]:
    return sp.acknowledge(member, [AckBatch(first, last, tuple(types))])


def test_acquire_lock_expiry_redelivers_with_a_higher_count() -> None:
    sp, time, woken = partition()
    assert fetch(sp, "a", 10) == [AcquiredRange(0, 9, 1)]
    assert fetch(sp, "b", 10) == []  # all acquired by a
    time.sleep(LOCK_MS - 1)
    assert fetch(sp, "b", 10) == []
    time.sleep(1)
    assert woken  # waiting fetches are told
    assert fetch(sp, "b", 10) == [AcquiredRange(0, 9, 2)]
    assert {r.member_id for r in sp.records.values()} == {"b"}
    # a's acknowledgement comes too late: a no longer holds them
    assert ack(sp, "a", 0, 9, ACCEPT)[0] == ErrorCode.INVALID_RECORD_STATE


def test_delivery_count_limit_archives() -> None:
    sp, time, _ = partition(limit=3)
    for delivery in (1, 2, 3):
        assert fetch(sp, "a", 5) == [AcquiredRange(0, 4, delivery)]
        time.sleep(LOCK_MS)
    # the third lock expiry reached the limit: archived, and the start offset moves past them
    assert fetch(sp, "a", 5) == []
    assert (sp.start_offset, sp.records) == (5, {})
    # a release at the limit archives too
    assert fetch(sp, "a", 10) == [AcquiredRange(5, 9, 1)]
    for delivery in (2, 3):
        assert ack(sp, "a", 5, 9, RELEASE) == (ErrorCode.NONE, None)
        assert fetch(sp, "a", 10) == [AcquiredRange(5, 9, delivery)]
    assert ack(sp, "a", 5, 9, RELEASE) == (ErrorCode.NONE, None)
    assert sp.start_offset == 10


def test_accept_release_reject_renew_and_the_start_offset() -> None:
    sp, time, _ = partition()
    assert fetch(sp, "a", 10) == [AcquiredRange(0, 9, 1)]
    assert ack(sp, "a", 0, 4, *([ACCEPT] * 2 + [REJECT] + [RELEASE] * 2)) == (ErrorCode.NONE, None)
    assert sp.start_offset == 3  # 0-2 done; 3 released
    assert [sp.records[o].state for o in (3, 4, 5)] == [RecordState.AVAILABLE, RecordState.AVAILABLE,
                                                         RecordState.ACQUIRED]
    assert fetch(sp, "b", 10) == [AcquiredRange(3, 4, 2)]  # only the released ones: 5-9 are a's
    time.sleep(LOCK_MS - 10)
    assert ack(sp, "a", 5, 9, RENEW) == (ErrorCode.NONE, None)
    time.sleep(20)  # past the first lock, within the renewed one
    assert sp.records[5].state == RecordState.ACQUIRED and sp.records[5].member_id == "a"
    assert sp.records[3].state == RecordState.AVAILABLE  # b's lock ran out
    time.sleep(LOCK_MS)
    assert sp.records[5].state == RecordState.AVAILABLE
    # an acknowledgement is all or none
    assert fetch(sp, "a", 10) == [AcquiredRange(3, 4, 3), AcquiredRange(5, 9, 2)]
    assert ack(sp, "a", 3, 12, ACCEPT)[0] == ErrorCode.INVALID_RECORD_STATE
    assert ack(sp, "a", 3, 9, ACCEPT, ACCEPT)[0] == ErrorCode.INVALID_REQUEST  # neither one nor one per offset
    assert all(sp.records[o].state == RecordState.ACQUIRED for o in range(3, 10))
    assert ack(sp, "a", 3, 9, ACCEPT) == (ErrorCode.NONE, None)
    assert (sp.start_offset, sp.end_offset, sp.records) == (10, 10, {})


def test_gaps_control_records_and_aborted_transactions() -> None:
    sp, _, _ = partition()
    batches = [BatchInfo(0, 1), BatchInfo(2, 2, is_control=True), BatchInfo(4, 5),
               BatchInfo(6, 7, is_transactional=True, producer_id=9), BatchInfo(8, 8, is_control=True)]
    got = sp.acquire("a", batches, 500, [AbortedRange(9, 6, 8)])
    # 2 (a marker), 3 (compacted away) and the aborted 6-8 are archived, never delivered
    assert got == [AcquiredRange(0, 1, 1), AcquiredRange(4, 5, 1)]
    assert ack(sp, "a", 0, 5, ACCEPT, ACCEPT, GAP, GAP, ACCEPT, ACCEPT) == (ErrorCode.NONE, None)
    assert (sp.start_offset, sp.records) == (9, {})


def test_batches_max_records_and_the_in_flight_cap() -> None:
    sp, _, _ = partition(max_locks=10)
    # whole batches while fewer than max_records are taken
    assert fetch(sp, "a", 30, max_records=7) == [AcquiredRange(0, 9, 1)]
    assert fetch(sp, "b", 30) == []  # 10 in flight past the start offset: the cap
    assert ack(sp, "a", 0, 4, ACCEPT) == (ErrorCode.NONE, None)
    assert fetch(sp, "b", 30) == [AcquiredRange(10, 14, 1)]


def test_release_member_and_late_start() -> None:
    sp, _, _ = partition()
    fetch(sp, "a", 10)
    assert sp.release_member("a") == 10
    assert fetch(sp, "b", 10) == [AcquiredRange(0, 9, 2)]
    sp.move_to_log_start(7)  # retention took 0-6
    assert (sp.start_offset, sorted(sp.records)) == (7, [7, 8, 9])
    late = SharePartition("g", "t", 1, SharePartitionSettings(), MockScheduler(MockTime()))
    late.initialize(100)  # share.auto.offset.reset=latest: the log end when first read
    assert late.acquire("a", log_batches((95, 104)), 500) == [AcquiredRange(100, 104, 1)]


def test_simple_assignor_balances_and_shares() -> None:
    topic = uuid.UUID(int=1)
    for trial in range(500):
        rnd = random.Random(trial)
        partitions = rnd.randint(1, 8)
        current = assign_simple({f"m{i}": AssignmentMember(frozenset({topic}), {})
                                 for i in range(rnd.randint(1, 10))}, {topic: partitions})
        for step in range(3):
            ids = list(current)
            if rnd.random() < 0.5 and len(ids) > 1:
                ids.remove(rnd.choice(ids))
            else:
                ids.append(f"n{step}")
            before = current
            current = assign_simple({m: AssignmentMember(frozenset({topic}), before.get(m, {})) for m in ids},
                                    {topic: partitions})
            sharing = -(-len(ids) // partitions)
            sharers = [sum(p in a.get(topic, ()) for a in current.values()) for p in range(partitions)]
            sizes = [len(a.get(topic, ())) for a in current.values()]
            assert 1 <= min(sharers) and max(sharers) <= sharing, (trial, sharers)
            assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1, (trial, sizes)
    # sticky: a member that stays keeps what it held while that stays balanced
    two = assign_simple({"a": AssignmentMember(frozenset({topic}), {}),
                         "b": AssignmentMember(frozenset({topic}), {})}, {topic: 4})
    three = assign_simple({m: AssignmentMember(frozenset({topic}), two.get(m, {})) for m in ("a", "b", "c")},
                          {topic: 4})
    assert three["a"][topic] <= two["a"][topic] and three["b"][topic] <= two["b"][topic]
    assert assign_simple({"a": AssignmentMember(frozenset(), {})}, {topic: 4}) == {"a": {}}
