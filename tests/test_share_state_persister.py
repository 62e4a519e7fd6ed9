"""The share partitions' persister against a share coordinator that answers when told
(replication/share_state_persister.py, its in-process path): a new state is initialized
before its first write, writes of one share partition go one at a time with only the newest
state sent next, a coordinator not there yet is asked again, and an acknowledgement's wait
(flushed) ends when the writes asked before it are stored. An admin's reset (a new state
epoch and start offset) and delete replace what a leader here still had to write."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable

from josefk.protocol.errors import ErrorCode
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_partition import PersistedState, RecordState, StateBatch
from josefk.replication.share_state_persister import ShareStatePersister
from josefk.replication.share_state_service import ReadResult, StateKey, StateResult, SummaryResult, WriteState

KEY: StateKey = ("group", uuid.UUID(int=7), 0)


class Coordinator:
    """A share coordinator whose answers the test gives: each call waits in `calls`."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object, Callable[[object], None]]] = []
        self.summaries: list[SummaryResult] = []  # answered in turn (at once: the store's is a lookup)

    def state_partition(self, key: StateKey) -> int | None:
        return None  # as a broker without __share_group_state yet: its own store is asked

    def initialize(self, key: StateKey, state_epoch: int, start_offset: int,
                   done: Callable[[StateResult], None]) -> None:
        self.calls.append(("initialize", (state_epoch, start_offset), done))  # type: ignore[arg-type]

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None:
        self.calls.append(("read", leader_epoch, done))  # type: ignore[arg-type]

    def write(self, key: StateKey, write: WriteState, done: Callable[[StateResult], None]) -> None:
        self.calls.append(("write", write, done))  # type: ignore[arg-type]

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None:
        self.calls.append(("delete", None, done))  # type: ignore[arg-type]

    def summary(self, key: StateKey) -> SummaryResult:
        return self.summaries.pop(0)

    def answer(self, result: object) -> tuple[str, object]:
        name, argument, done = self.calls.pop(0)
        done(result)
        return name, argument


def state(start: int, *batches: tuple[int, int, RecordState, int]) -> PersistedState:
    return PersistedState(start, tuple(StateBatch(*b) for b in batches))


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.001)


def test_a_new_state_is_initialized_then_only_the_newest_written_and_flushed_after_it() -> None:
    async def run() -> None:
        coordinator = Coordinator()
        persister = ShareStatePersister(1, coordinator, MetadataCache(1), retry_backoff_s=0.001)
        flushed: list[ErrorCode] = []
        persister.write(KEY, 3, state(10))
        persister.write(KEY, 3, state(10, (10, 11, RecordState.ACKNOWLEDGED, 1)))
        persister.write(KEY, 3, state(12, (13, 13, RecordState.ARCHIVED, 2)))
        persister.flushed(KEY, flushed.append)
        assert coordinator.answer(StateResult()) == ("initialize", (0, 10))
        assert flushed == []
        name, write = coordinator.answer(StateResult())
        assert (name, write) == ("write", WriteState(0, 3, 12, (StateBatch(13, 13, RecordState.ARCHIVED, 2),)))
        assert coordinator.calls == [] and flushed == [ErrorCode.NONE]
        persister.flushed(KEY, flushed.append)  # nothing left to write: at once
        assert flushed == [ErrorCode.NONE, ErrorCode.NONE]
        persister.close()

    asyncio.run(run())


def test_a_coordinator_not_there_yet_is_asked_again() -> None:
    async def run() -> None:
        coordinator = Coordinator()
        persister = ShareStatePersister(1, coordinator, MetadataCache(1), retry_backoff_s=0.001)
        read: list[ReadResult] = []
        persister.read(KEY, 4, read.append)
        for error in (ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR):
            await until(lambda: bool(coordinator.calls))
            assert coordinator.answer(ReadResult(error)) == ("read", 4)
        await until(lambda: bool(coordinator.calls))
        stored = state(5, (5, 6, RecordState.AVAILABLE, 2))
        coordinator.answer(ReadResult(state=stored))
        assert read == [ReadResult(state=stored)]
        persister.write(KEY, 4, state(7))  # read back: initialized already, written at once
        assert coordinator.answer(StateResult(ErrorCode.NOT_COORDINATOR)) == ("write", WriteState(0, 4, 7))
        await until(lambda: bool(coordinator.calls))
        assert coordinator.answer(StateResult()) == ("write", WriteState(0, 4, 7))
        persister.close()

    asyncio.run(run())


def test_an_uninitialized_state_reads_as_none_and_a_failed_write_is_the_flush_error() -> None:
    async def run() -> None:
        coordinator = Coordinator()
        persister = ShareStatePersister(1, coordinator, MetadataCache(1), retry_backoff_s=0.001)
        read: list[ReadResult] = []
        persister.read(KEY, 0, read.append)
        coordinator.answer(ReadResult(ErrorCode.INVALID_REQUEST,
                                      "Read operation on uninitialized share partition not allowed."))
        assert read == [ReadResult()]
        flushed: list[ErrorCode] = []
        persister.write(KEY, 0, state(3))
        persister.flushed(KEY, flushed.append)
        coordinator.answer(StateResult(ErrorCode.FENCED_STATE_EPOCH, "fenced"))
        assert flushed == [ErrorCode.FENCED_STATE_EPOCH]
        persister.close()

    asyncio.run(run())


def test_an_admin_reset_or_delete_replaces_what_was_left_to_write_and_is_retried() -> None:
    async def run() -> None:
        coordinator = Coordinator()
        persister = ShareStatePersister(1, coordinator, MetadataCache(1), retry_backoff_s=0.001)
        persister.read(KEY, 2, lambda _r: None)
        coordinator.answer(ReadResult(state=state(5)))
        persister.write(KEY, 2, state(6))  # out at the coordinator
        persister.write(KEY, 2, state(8))  # waiting for it
        reset: list[StateResult] = []
        persister.reset(KEY, 3, 1, reset.append)
        assert coordinator.answer(StateResult()) == ("write", WriteState(0, 2, 6))
        assert [name for name, _a, _d in coordinator.calls] == ["initialize"]  # state(8) is not written
        assert coordinator.answer(StateResult(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)) == ("initialize", (3, 1))
        await until(lambda: bool(coordinator.calls))
        assert coordinator.answer(StateResult()) == ("initialize", (3, 1)) and reset == [StateResult()]
        persister.write(KEY, 2, PersistedState(2, (), 3))  # out, at the reset epoch, when the delete comes
        deleted: list[StateResult] = []
        persister.delete(KEY, deleted.append)
        assert coordinator.answer(StateResult(ErrorCode.INVALID_REQUEST, "Write operation on uninitialized share "
                                                                         "partition not allowed.")) == (
            "write", WriteState(3, 2, 2))
        assert [name for name, _a, _d in coordinator.calls] == ["delete"]  # not made again from the write
        assert coordinator.answer(StateResult(ErrorCode.NOT_COORDINATOR)) == ("delete", None)
        await until(lambda: bool(coordinator.calls))
        assert coordinator.answer(StateResult()) == ("delete", None) and deleted == [StateResult()]
        persister.write(KEY, 2, state(9))  # deleted: a leader's next write initializes again
        assert coordinator.answer(StateResult()) == ("initialize", (0, 9))
        summaries: list[SummaryResult] = []
        coordinator.summaries = [SummaryResult(ErrorCode.COORDINATOR_NOT_AVAILABLE), SummaryResult(start_offset=9)]
        persister.summarize(KEY, summaries.append)
        await until(lambda: bool(summaries))
        assert summaries == [SummaryResult(start_offset=9)]
        persister.close()

    asyncio.run(run())


def test_a_write_fenced_by_a_newer_state_or_a_deleted_one_tells_the_listeners() -> None:
    """Kafka's state epoch fencing: an admin changed the state through another broker, whose
    persister this one's does not hear of; the share partition here is read again, and what
    it had left to write is dropped, not made into a state again."""
    async def run() -> None:
        coordinator = Coordinator()
        persister = ShareStatePersister(1, coordinator, MetadataCache(1), retry_backoff_s=0.001)
        fenced: list[StateKey] = []
        persister.fenced_listeners.append(fenced.append)
        persister.read(KEY, 2, lambda _r: None)
        coordinator.answer(ReadResult(state=state(5)))
        persister.write(KEY, 2, state(6))
        persister.write(KEY, 2, state(8))  # waiting behind the first
        flushed: list[ErrorCode] = []
        persister.flushed(KEY, flushed.append)
        assert coordinator.answer(StateResult(ErrorCode.FENCED_STATE_EPOCH, "fenced")) == ("write", WriteState(0, 2, 6))
        assert fenced == [KEY] and coordinator.calls == [] and flushed == [ErrorCode.FENCED_STATE_EPOCH]
        persister.read(KEY, 2, lambda _r: None)  # read again: the newer state
        coordinator.answer(ReadResult(state=PersistedState(3, (), 4)))
        persister.write(KEY, 2, PersistedState(4, (), 4))
        assert coordinator.answer(StateResult(ErrorCode.INVALID_REQUEST, "Write operation on uninitialized share "
                                                                         "partition not allowed.")) == (
            "write", WriteState(4, 2, 4))
        assert fenced == [KEY, KEY] and coordinator.calls == []  # deleted elsewhere: not initialized from it
        persister.close()

    asyncio.run(run())
