"""The follower's side of fetch sessions, against the leader's side (both sans-IO)."""

from __future__ import annotations

import random

import pytest

from josefk.protocol.errors import ErrorCode
from josefk.replication.fetch_session import (
    FetchManager,
    FetchSessionCache,
    PartitionRequest,
    PartitionResponse,
)
from josefk.replication.fetch_session_handler import FetchPartitionData, FetchSessionHandler
from josefk.utils.mock_time import MockTime

pytestmark = pytest.mark.unit


def ask(offset: int, epoch: int = 0) -> FetchPartitionData:
    return FetchPartitionData(fetch_offset=offset, log_start_offset=0, max_bytes=1024, current_leader_epoch=epoch)


def test_first_fetch_is_full_then_only_changes_are_sent() -> None:
    handler: FetchSessionHandler[tuple[str, int]] = FetchSessionHandler()
    first = handler.build({("t", 0): ask(0), ("t", 1): ask(0)})
    assert first.full and first.session_id == 0 and first.epoch == 0
    assert set(first.to_send) == {("t", 0), ("t", 1)} and first.to_forget == []
    handler.handle_response(ErrorCode.NONE, 77)

    second = handler.build({("t", 0): ask(5), ("t", 1): ask(0)})
    assert not second.full and (second.session_id, second.epoch) == (77, 1)
    assert second.to_send == {("t", 0): ask(5)} and second.to_forget == []
    handler.handle_response(ErrorCode.NONE, 77)

    third = handler.build({("t", 1): ask(0, epoch=3), ("t", 2): ask(0)})
    assert (third.session_id, third.epoch) == (77, 2)
    assert third.to_send == {("t", 1): ask(0, epoch=3), ("t", 2): ask(0)}
    assert third.to_forget == [("t", 0)]


@pytest.mark.parametrize("error, session_id", [(ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 0),
                                               (ErrorCode.INVALID_FETCH_SESSION_EPOCH, 77)])
def test_a_session_error_makes_the_next_fetch_full(error: ErrorCode, session_id: int) -> None:
    """Kafka's handler: an unknown session starts afresh; any other error closes the session
    it named (same id, epoch 0) and sends everything again."""
    handler: FetchSessionHandler[tuple[str, int]] = FetchSessionHandler()
    handler.build({("t", 0): ask(0)})
    handler.handle_response(ErrorCode.NONE, 77)
    handler.build({("t", 0): ask(1)})
    handler.handle_response(error, 0)
    again = handler.build({("t", 0): ask(1), ("t", 1): ask(0)})
    assert again.full and (again.session_id, again.epoch) == (session_id, 0)
    assert set(again.to_send) == {("t", 0), ("t", 1)}


def test_a_failed_request_or_a_closed_session_makes_the_next_fetch_full() -> None:
    handler: FetchSessionHandler[tuple[str, int]] = FetchSessionHandler()
    handler.build({("t", 0): ask(0)})
    handler.handle_response(ErrorCode.NONE, 77)
    handler.build({("t", 0): ask(1)})
    handler.handle_error()
    assert handler.build({("t", 0): ask(1)}).full
    handler.handle_response(ErrorCode.NONE, 0)  # the leader made no session (its cache is full)
    retry = handler.build({("t", 0): ask(1)})
    assert retry.full and retry.session_id == 0


def test_follower_and_leader_sessions_agree_over_many_fetches() -> None:
    """Drive the handler against the leader's FetchManager with random appends, truncation
    removals and a leader restart: the leader always reads every partition the follower
    wants, at the follower's current offset."""
    rng = random.Random(5)
    time = MockTime()

    def leader() -> FetchManager:
        return FetchManager(FetchSessionCache(10, 120_000, time, random.Random(1)))

    manager = leader()
    handler: FetchSessionHandler[tuple[str, int]] = FetchSessionHandler()
    offsets = {("t", p): 0 for p in range(6)}
    for round_ in range(300):
        wanted = {k: ask(o) for k, o in offsets.items() if rng.random() > 0.1}  # some truncating
        if round_ == 150:
            manager = leader()  # the leader restarted: its sessions are gone
        data = handler.build(wanted)
        context = manager.new_context(
            12, data.session_id, data.epoch, True,
            {k: PartitionRequest(a.fetch_offset, a.max_bytes, a.log_start_offset) for k, a in data.to_send.items()},
            list(data.to_forget))
        if context.error != ErrorCode.NONE:
            handler.handle_response(context.error, 0)
            continue
        read = dict(context.partitions())
        assert {k: r.fetch_offset for k, r in read.items()} == {k: a.fetch_offset for k, a in wanted.items()}
        error, session_id, listed = context.respond(
            {k: PartitionResponse(ErrorCode.NONE, 0, 0, rng.choice((0, 100))) for k in read})
        handler.handle_response(error, session_id)
        for key in listed:
            assert isinstance(key, tuple)  # the handler names partitions (topic, partition)
            offsets[key] += 1
        time.sleep(10)
