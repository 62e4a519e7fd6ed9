"""The share partitions' persister (Kafka's DefaultStatePersister and PersisterStateManager):
a leader's share partition reads, initializes and writes its state at the share coordinator
of its key, the broker leading the key's partition of __share_group_state. That is this
broker's own store, called in-process, or another broker's, asked over
clients/network_client.py with the share coordinator RPCs. A coordinator that is not there
yet or moved (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS, a
broken connection) is looked up again in the metadata and asked again after a backoff.

Writes of one share partition go one at a time, in order; a state changed while one is out
is sent next, only its newest version. A state the coordinator has not initialized is
initialized (InitializeShareGroupState at its state epoch and start offset) before its
first write. A write fenced by a newer state epoch (or leader epoch), or answered that the
state is gone, tells the fenced listeners: the share partition is read again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

from josefk.clients.network_client import PLAINTEXT, AuthenticationFailed, BrokerConnections, ClientSecurity
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated import delete_share_group_state_request as delete_request
from josefk.protocol.messages.generated import initialize_share_group_state_request as initialize_request
from josefk.protocol.messages.generated import read_share_group_state_request as read_request
from josefk.protocol.messages.generated import read_share_group_state_summary_request as summary_request
from josefk.protocol.messages.generated import write_share_group_state_request as write_request
from josefk.protocol.messages.generated.delete_share_group_state_response import DeleteShareGroupStateResponse
from josefk.protocol.messages.generated.initialize_share_group_state_response import (
    InitializeShareGroupStateResponse,
)
from josefk.protocol.messages.generated.read_share_group_state_response import ReadShareGroupStateResponse
from josefk.protocol.messages.generated.read_share_group_state_summary_response import (
    ReadShareGroupStateSummaryResponse,
)
from josefk.protocol.messages.generated.write_share_group_state_response import WriteShareGroupStateResponse
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_partition import PersistedState, RecordState, StateBatch
from josefk.replication.share_state_service import (
    ReadResult,
    ShareStateService,
    StateKey,
    StateResult,
    SummaryResult,
    WriteState,
)

log = logging.getLogger(__name__)
R = TypeVar("R")

SHARE_STATE_TOPIC = "__share_group_state"
RETRIABLE = frozenset({ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE,
                       ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.NETWORK_EXCEPTION,
                       ErrorCode.REQUEST_TIMED_OUT})
UNINITIALIZED = "uninitialized share partition"
FENCED = frozenset({ErrorCode.FENCED_STATE_EPOCH, ErrorCode.FENCED_LEADER_EPOCH})
WRITE_VERSION = 1
RETRY_BACKOFF_S = 0.1
REQUEST_TIMEOUT_S = 30.0


class LocalShareCoordinator(ShareStateService, Protocol):
    def state_partition(self, key: StateKey) -> int | None:
        """The key's partition of __share_group_state (None while the topic is missing)."""
        ...


class ShareStatePersister:
    """replication.share_partition_manager.SharePersister over the share coordinators."""

    def __init__(self, broker_id: int, local: LocalShareCoordinator, metadata_cache: MetadataCache,
                 security: ClientSecurity = PLAINTEXT, retry_backoff_s: float = RETRY_BACKOFF_S) -> None:
        self.broker_id = broker_id
        self.local = local
        self.metadata_cache = metadata_cache
        self.retry_backoff_s = retry_backoff_s
        self._connections = BrokerConnections(f"broker-{broker_id}-share-persister", security)
        self._tasks: set[asyncio.Task[object]] = set()
        self._initialized: set[StateKey] = set()
        self._newest: dict[StateKey, tuple[int, PersistedState]] = {}  # to write next: (leader epoch, state)
        self._writing: set[StateKey] = set()
        self._flushed: dict[StateKey, list[Callable[[ErrorCode], None]]] = {}  # waiting for the writes asked
        self._replacements: dict[StateKey, int] = {}  # how often an admin replaced or deleted the state
        self.fenced_listeners: list[Callable[[StateKey], None]] = []  # told a key whose state changed under it
        self._closed = False

    def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        self._connections.close()

    # -- reads ---------------------------------------------------------------------------------

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None:
        """The stored state (None: not initialized yet); retried until the coordinator answers."""
        def answered(result: ReadResult) -> None:
            if result.error in RETRIABLE:
                log.debug("Reading share partition %s again: %s", key, result.error.name)
                self._later(lambda: self.read(key, leader_epoch, done))
            elif result.error == ErrorCode.INVALID_REQUEST and UNINITIALIZED in (result.message or ""):
                self._initialized.discard(key)
                done(ReadResult())
            else:
                if result.error == ErrorCode.NONE:
                    self._initialized.add(key)
                done(result)

        coordinator = self._coordinator(key)
        if coordinator is None:
            self.local.read(key, leader_epoch, answered)
        else:
            self._send(coordinator, ApiKey.ReadShareGroupState, 0, read_request.ReadShareGroupStateRequest(
                group_id=key[0], topics=[read_request.ReadStateData(topic_id=key[1], partitions=[
                    read_request.PartitionData(partition=key[2], leader_epoch=leader_epoch)])]),
                _read_result, lambda error: ReadResult(error), answered)

    # -- writes --------------------------------------------------------------------------------

    def write(self, key: StateKey, leader_epoch: int, state: PersistedState) -> None:
        """Write `state` at the coordinator, after the writes asked before it."""
        self._newest[key] = (leader_epoch, state)
        if key not in self._writing:
            self._write_next(key)

    def flushed(self, key: StateKey, done: Callable[[ErrorCode], None]) -> None:
        """`done` once every write of `key` asked so far is in __share_group_state (NONE), or
        the last of them failed for good (its error): an acknowledgement is answered then."""
        if key in self._writing:
            self._flushed.setdefault(key, []).append(done)
        else:
            done(ErrorCode.NONE)

    def _write_next(self, key: StateKey, last: ErrorCode = ErrorCode.NONE) -> None:
        item = self._newest.pop(key, None)
        if item is None or self._closed:
            self._writing.discard(key)
            for done in self._flushed.pop(key, []):
                done(last)
            return
        self._writing.add(key)
        leader_epoch, state = item
        replacements = self._replacements.get(key, 0)

        def answered(result: StateResult) -> None:
            replaced = self._replacements.get(key, 0) != replacements  # by an admin since: not asked again
            if result.error in RETRIABLE and not replaced:
                self._newest.setdefault(key, item)
                self._later(lambda: self._write_next(key))
                return
            uninitialized = result.error == ErrorCode.INVALID_REQUEST and UNINITIALIZED in (result.message or "")
            if uninitialized:
                self._initialized.discard(key)
            if (uninitialized or result.error in FENCED) and not replaced:
                self._fenced(key, result)
            elif result.error != ErrorCode.NONE and not uninitialized:
                log.warning("Writing the state of share partition %s at leader epoch %d failed: %s %s", key,
                            leader_epoch, result.error.name, result.message or "")
            self._write_next(key, result.error)

        if key not in self._initialized:
            self._initialize(key, leader_epoch, state, answered)
            return
        self._write_one(key, WriteState(state.state_epoch, leader_epoch, state.start_offset, state.batches),
                        answered)

    def _fenced(self, key: StateKey, result: StateResult) -> None:
        """The state changed under this broker's share partition (Kafka's state epoch fencing):
        an admin's AlterShareGroupOffsets or DeleteShareGroupOffsets at another broker, a group
        coordinator's initialization, or a newer leader. What the share partition holds is
        stale: nothing more of it is written, and the listeners drop it to be read again."""
        log.info("The state of share partition %s changed under this broker (%s): reading it again", key,
                 result.error.name)
        self._newest.pop(key, None)
        for listener in self.fenced_listeners:
            listener(key)

    def _initialize(self, key: StateKey, leader_epoch: int, state: PersistedState,
                    then: Callable[[StateResult], None]) -> None:
        """InitializeShareGroupState at the state's epoch and start offset, then its batches
        (the next write of the key)."""
        def answered(result: StateResult) -> None:
            if result.error == ErrorCode.NONE:
                self._initialized.add(key)
                if state.batches:
                    self._newest.setdefault(key, (leader_epoch, state))
            then(result)

        coordinator = self._coordinator(key)
        if coordinator is None:
            self.local.initialize(key, state.state_epoch, state.start_offset, answered)
            return
        self._send(coordinator, ApiKey.InitializeShareGroupState, 0,
                   initialize_request.InitializeShareGroupStateRequest(group_id=key[0], topics=[
                       initialize_request.InitializeStateData(topic_id=key[1], partitions=[
                           initialize_request.PartitionData(partition=key[2], state_epoch=state.state_epoch,
                                                            start_offset=state.start_offset)])]),
                   _state_result, StateResult, answered)

    def _write_one(self, key: StateKey, write: WriteState, answered: Callable[[StateResult], None]) -> None:
        coordinator = self._coordinator(key)
        if coordinator is None:
            self.local.write(key, write, answered)
            return
        self._send(coordinator, ApiKey.WriteShareGroupState, WRITE_VERSION,
                   write_request.WriteShareGroupStateRequest(group_id=key[0], topics=[
                       write_request.WriteStateData(topic_id=key[1], partitions=[write_request.PartitionData(
                           partition=key[2], state_epoch=write.state_epoch, leader_epoch=write.leader_epoch,
                           start_offset=write.start_offset, state_batches=[
                               write_request.StateBatch(first_offset=b.first_offset, last_offset=b.last_offset,
                                                        delivery_state=int(b.state), delivery_count=b.delivery_count)
                               for b in write.batches])])]),
                   _state_result, StateResult, answered)

    # -- an admin's changes (AlterShareGroupOffsets, DeleteShareGroupOffsets) --------------------

    def reset(self, key: StateKey, state_epoch: int, start_offset: int, done: Callable[[StateResult], None]) -> None:
        """A fresh state at `start_offset` and `state_epoch` (newer than the leader's, which
        fences its writes); retried until the coordinator answers."""
        self._forget(key)

        def answered(result: StateResult) -> None:
            if result.error in RETRIABLE:
                self._later(lambda: self.reset(key, state_epoch, start_offset, done))
            else:
                done(result)

        self._initialize(key, 0, PersistedState(start_offset, (), state_epoch), answered)

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None:
        """The state's tombstone: the next leader starts at share.auto.offset.reset."""
        self._forget(key)

        def answered(result: StateResult) -> None:
            if result.error in RETRIABLE:
                self._later(lambda: self.delete(key, done))
            else:
                done(result)

        coordinator = self._coordinator(key)
        if coordinator is None:
            self.local.delete(key, answered)
            return
        self._send(coordinator, ApiKey.DeleteShareGroupState, 0, delete_request.DeleteShareGroupStateRequest(
            group_id=key[0], topics=[delete_request.DeleteStateData(topic_id=key[1], partitions=[
                delete_request.PartitionData(partition=key[2])])]), _state_result, StateResult, answered)

    def summarize(self, key: StateKey, done: Callable[[SummaryResult], None]) -> None:
        """The state's summary (start offset -1: none), which fences no leader; retried until the
        coordinator answers."""
        def answered(result: SummaryResult) -> None:
            if result.error in RETRIABLE:
                self._later(lambda: self.summarize(key, done))
            else:
                done(result)

        coordinator = self._coordinator(key)
        if coordinator is None:
            answered(self.local.summary(key))
            return
        self._send(coordinator, ApiKey.ReadShareGroupStateSummary, 0,
                   summary_request.ReadShareGroupStateSummaryRequest(group_id=key[0], topics=[
                       summary_request.ReadStateSummaryData(topic_id=key[1], partitions=[
                           summary_request.PartitionData(partition=key[2])])]),
                   _summary_result, SummaryResult, answered)

    def _forget(self, key: StateKey) -> None:
        """Drop what a share partition of this broker left to write: the state is replaced."""
        self._initialized.discard(key)
        self._newest.pop(key, None)
        self._replacements[key] = self._replacements.get(key, 0) + 1

    # -- the coordinator and its requests ------------------------------------------------------

    def _coordinator(self, key: StateKey) -> int | None:
        """The broker to ask about `key`; None for this broker's own store (which answers
        NOT_COORDINATOR, and creates __share_group_state, where it cannot tell)."""
        p = self.local.state_partition(key)
        state = self.metadata_cache.partition(SHARE_STATE_TOPIC, p) if p is not None else None
        if state is None or state.leader == self.broker_id or state.leader not in self.metadata_cache.brokers:
            return None
        return state.leader

    def _later(self, retry: Callable[[], None]) -> None:
        if not self._closed:
            asyncio.get_running_loop().call_later(self.retry_backoff_s, retry)

    def _send(self, node: int, api_key: ApiKey, version: int, body: ApiMessage,
                 result: Callable[[ApiMessage], R], failed: Callable[[ErrorCode], R],
                 done: Callable[[R], None]) -> None:
        async def send() -> R:
            broker = self.metadata_cache.brokers.get(node)
            if broker is None:
                return failed(ErrorCode.NOT_COORDINATOR)
            try:
                response = await self._connections.get(node, broker.host, broker.port).request(
                    api_key, version, body, timeout=REQUEST_TIMEOUT_S)
            except AuthenticationFailed as e:
                log.error("%s to broker %d failed authentication: %s", api_key.name, node, e)
                return failed(ErrorCode.NETWORK_EXCEPTION)
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError) as e:
                log.debug("%s to broker %d failed: %r", api_key.name, node, e)
                return failed(ErrorCode.NETWORK_EXCEPTION)
            return result(response)

        task = asyncio.get_running_loop().create_task(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda t: None if t.cancelled() else done(t.result()))


def _read_result(response: ApiMessage) -> ReadResult:
    assert isinstance(response, ReadShareGroupStateResponse)
    p = response.results[0].partitions[0]
    if p.error_code != ErrorCode.NONE:
        return ReadResult(ErrorCode(p.error_code), p.error_message)
    return ReadResult(state=PersistedState(p.start_offset, tuple(
        StateBatch(b.first_offset, b.last_offset, RecordState(b.delivery_state), b.delivery_count)
        for b in p.state_batches), p.state_epoch))


def _state_result(response: ApiMessage) -> StateResult:
    """The one partition's error of an Initialize, Write or Delete answer (each carries no more)."""
    assert isinstance(response, InitializeShareGroupStateResponse | WriteShareGroupStateResponse
                      | DeleteShareGroupStateResponse)
    p = response.results[0].partitions[0]
    return StateResult(ErrorCode(p.error_code), p.error_message)


def _summary_result(response: ApiMessage) -> SummaryResult:
    assert isinstance(response, ReadShareGroupStateSummaryResponse)
    p = response.results[0].partitions[0]
    if p.error_code != ErrorCode.NONE:
        return SummaryResult(ErrorCode(p.error_code), p.error_message)
    return SummaryResult(state_epoch=p.state_epoch, leader_epoch=p.leader_epoch, start_offset=p.start_offset,
                         delivery_complete_count=p.delivery_complete_count)
