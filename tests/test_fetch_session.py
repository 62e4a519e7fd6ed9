"""Fetch sessions (KIP-227): the cache, its eviction rules and the fetch contexts, on MockTime."""

from __future__ import annotations

import random

from josefk.protocol.errors import ErrorCode
from josefk.replication.fetch_session import (
    FINAL_EPOCH,
    INVALID_SESSION_ID,
    MAX_INT32,
    CachedPartition,
    FetchManager,
    FetchSessionCache,
    FullFetchContext,
    IncrementalFetchContext,
    PartitionRequest,
    PartitionResponse,
    SessionErrorContext,
    SessionlessFetchContext,
    next_epoch,
)
from josefk.utils.mock_time import MockTime

EVICTION_MS = 120_000


def req(offset: int = 0) -> PartitionRequest:
    return PartitionRequest(offset, 1024, -1)


def resp(hw: int, size: int = 0, start: int = 0, error: int = 0) -> PartitionResponse:
    return PartitionResponse(error, hw, start, size)


def manager(slots: int = 10, time: MockTime | None = None) -> tuple[FetchManager, MockTime]:
    time = time or MockTime()
    return FetchManager(FetchSessionCache(slots, EVICTION_MS, time, random.Random(1))), time


def open_session(m: FetchManager, parts: dict, follower: bool = False, version: int = 12) -> int:
    context = m.new_context(version, 0, 0, follower, {k: req() for k in parts}, [])
    assert isinstance(context, FullFetchContext)
    error, session_id, listed = context.respond({k: resp(hw) for k, hw in parts.items()})
    assert error == ErrorCode.NONE and listed == list(parts)
    return session_id


def test_next_epoch_wraps_to_one_and_final_stays_final() -> None:
    assert next_epoch(0) == 1
    assert next_epoch(MAX_INT32) == 1
    assert next_epoch(FINAL_EPOCH) == FINAL_EPOCH


def test_full_fetch_creates_a_session_and_incremental_lists_only_changes() -> None:
    m, _ = manager()
    a, b = ("t", 0), ("t", 1)
    session_id = open_session(m, {a: 5, b: 7})
    assert session_id != INVALID_SESSION_ID
    session = m.cache.get(session_id)
    assert session is not None and session.epoch == 1

    # nothing new: no partition listed, but every session partition is read at its cached offset
    context = m.new_context(12, session_id, 1, False, {}, [])
    assert isinstance(context, IncrementalFetchContext)
    assert [k for k, _ in context.partitions()] == [a, b]
    assert context.respond({a: resp(5), b: resp(7)}) == (ErrorCode.NONE, session_id, [])

    # a new record on b: b listed with its data and moves to the end of the session
    context = m.new_context(12, session_id, 2, False, {}, [])
    assert context.respond({a: resp(5), b: resp(8, size=70)}) == (ErrorCode.NONE, session_id, [b])
    # an updated offset for b, a log start offset change on a
    context = m.new_context(12, session_id, 3, False, {b: req(8)}, [])
    assert dict(context.partitions())[b].fetch_offset == 8
    assert context.respond({a: resp(5, start=2), b: resp(8)}) == (ErrorCode.NONE, session_id, [a])
    # an error is always listed, and once it goes away the partition is listed again
    context = m.new_context(12, session_id, 4, False, {}, [])
    assert context.respond({a: resp(-1, error=ErrorCode.NOT_LEADER_OR_FOLLOWER), b: resp(8)})[2] == [a]
    context = m.new_context(12, session_id, 5, False, {}, [])
    assert context.respond({a: resp(5, start=2), b: resp(8)})[2] == [a]


def test_records_move_a_partition_to_the_end() -> None:
    m, _ = manager()
    a, b, c = ("t", 0), ("t", 1), ("u", 0)
    session_id = open_session(m, {a: 0, b: 0, c: 0})
    context = m.new_context(12, session_id, 1, False, {}, [])
    context.respond({a: resp(1, size=10), b: resp(0), c: resp(0)})
    session = m.cache.get(session_id)
    assert session is not None and list(session.partitions) == [b, c, a]


def test_added_and_forgotten_partitions() -> None:
    m, _ = manager()
    a, b = ("t", 0), ("t", 1)
    session_id = open_session(m, {a: 3})
    context = m.new_context(12, session_id, 1, False, {b: req()}, [])
    # a newly added partition is always listed (its cached high watermark starts invalid)
    assert context.respond({a: resp(3), b: resp(3)})[2] == [b]
    context = m.new_context(12, session_id, 2, False, {}, [a])
    assert [k for k, _ in context.partitions()] == [b]
    # forgetting the last partition closes the session: answered sessionless
    context = m.new_context(12, session_id, 3, False, {}, [b])
    assert isinstance(context, SessionlessFetchContext)
    assert m.cache.get(session_id) is None


def test_unknown_session_and_wrong_epoch() -> None:
    m, _ = manager()
    session_id = open_session(m, {("t", 0): 0})
    context = m.new_context(12, session_id + 1, 1, False, {}, [])
    assert isinstance(context, SessionErrorContext) and context.error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND
    assert context.respond({}) == (ErrorCode.FETCH_SESSION_ID_NOT_FOUND, INVALID_SESSION_ID, [])
    for epoch in (2, 7):
        context = m.new_context(12, session_id, epoch, False, {}, [])
        assert context.error == ErrorCode.INVALID_FETCH_SESSION_EPOCH
    # the errors leave the session as it was
    assert m.new_context(12, session_id, 1, False, {}, []).error == ErrorCode.NONE


def test_topic_id_mismatch() -> None:
    m, _ = manager()
    session_id = open_session(m, {("t", 0): 0}, version=12)
    assert m.new_context(13, session_id, 1, False, {}, []).error == ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR


def test_epoch_moved_while_waiting() -> None:
    m, _ = manager()
    a = ("t", 0)
    session_id = open_session(m, {a: 0})
    waiting = m.new_context(12, session_id, 1, False, {}, [])
    m.new_context(12, session_id, 2, False, {}, []).respond({a: resp(0)})
    assert waiting.respond({a: resp(0)}) == (ErrorCode.INVALID_FETCH_SESSION_EPOCH, session_id, [])


def test_full_fetch_closes_the_named_session_and_final_epoch_is_sessionless() -> None:
    m, _ = manager()
    a = ("t", 0)
    first = open_session(m, {a: 0})
    context = m.new_context(12, first, FINAL_EPOCH, False, {a: req()}, [])
    assert isinstance(context, SessionlessFetchContext)
    assert m.cache.get(first) is None
    assert context.respond({a: resp(0)}) == (ErrorCode.NONE, INVALID_SESSION_ID, [a])
    second = open_session(m, {a: 0})
    context = m.new_context(12, second, 0, False, {a: req()}, [])  # a new full fetch: a new session
    assert m.cache.get(second) is None
    assert isinstance(context, FullFetchContext)


def test_before_v7_is_sessionless() -> None:
    m, _ = manager()
    context = m.new_context(6, 0, 0, False, {("t", 0): req()}, [])
    assert isinstance(context, SessionlessFetchContext)
    assert context.respond({("t", 0): resp(0)})[1] == INVALID_SESSION_ID
    assert len(m.cache) == 0


def test_full_cache_answers_sessionless_until_a_session_ages() -> None:
    m, time = manager(slots=2)
    first = open_session(m, {("t", 0): 0})
    time.sleep(10)
    second = open_session(m, {("t", 1): 0})
    assert INVALID_SESSION_ID not in (first, second)
    # full, and neither is older than the minimum eviction age: the cache miss is sessionless
    assert open_session(m, {("t", 2): 0}) == INVALID_SESSION_ID
    assert len(m.cache) == 2
    # first unused for longer than the eviction age: it goes (least recently used)
    time.sleep(EVICTION_MS - 5)
    m.new_context(12, second, 1, False, {}, [])  # second is used
    time.sleep(10)
    third = open_session(m, {("t", 2): 0})
    assert third != INVALID_SESSION_ID
    assert m.cache.get(first) is None and m.cache.get(second) is not None
    assert m.cache.evictions == 1


def test_follower_evicts_a_consumer_session_but_not_the_reverse() -> None:
    m, time = manager(slots=1)
    consumer = open_session(m, {("t", 0): 0})
    follower = open_session(m, {("t", 0): 0}, follower=True)
    assert follower != INVALID_SESSION_ID and m.cache.get(consumer) is None
    # a consumer cannot evict a follower's young session
    assert open_session(m, {("t", 0): 0, ("t", 1): 0}) == INVALID_SESSION_ID
    assert m.cache.get(follower) is not None


def test_old_sessions_evictable_by_bigger_ones() -> None:
    m, time = manager(slots=2)
    small = open_session(m, {("t", 0): 0})
    big = open_session(m, {("t", 0): 0, ("t", 1): 0, ("t", 2): 0})
    time.sleep(EVICTION_MS + 1)
    # both used recently, but older than the eviction age: evictable by all once touched
    m.new_context(12, small, 1, False, {}, [])
    m.new_context(12, big, 1, False, {}, [])
    # a session of one partition is not worth more than the smallest: (False, 1, 0) < (False, 1, small)
    assert open_session(m, {("u", 0): 0}) == INVALID_SESSION_ID
    # one of two partitions is worth more than the small session: it goes
    medium = open_session(m, {("u", 0): 0, ("u", 1): 0})
    assert medium != INVALID_SESSION_ID
    assert m.cache.get(small) is None and m.cache.get(big) is not None
    assert m.cache.num_partitions == 5


def test_cached_partition_keeps_the_last_answer() -> None:
    cached = CachedPartition(0, 1024, -1)
    assert cached.maybe_update_response(resp(5), update=False)
    assert cached.high_watermark == -1
    assert cached.maybe_update_response(resp(5), update=True)
    assert not cached.maybe_update_response(resp(5), update=True)
