"""The share coordinator's RPCs, which share partition leaders send the broker that leads
their state's partition of __share_group_state: InitializeShareGroupState (83),
ReadShareGroupState (84), WriteShareGroupState (85), DeleteShareGroupState (86) and
ReadShareGroupStateSummary (87), as Kafka 4.4's KafkaApis and ShareCoordinatorService answer
them (CLUSTER_ACTION; an empty group id answers no results; each partition on its own), and
FindCoordinator's SHARE key type ("group:topicId:partition"), which the other key types'
handler is wrapped for."""

from __future__ import annotations

import base64
import binascii
import functools
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from josefk.coordinator.share_state_store import SHARE_STATE_TOPIC, ShareStateStore
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, AUTH_MESSAGES, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated import delete_share_group_state_response as delete_response
from josefk.protocol.messages.generated import initialize_share_group_state_response as initialize_response
from josefk.protocol.messages.generated import read_share_group_state_response as read_response
from josefk.protocol.messages.generated import read_share_group_state_summary_response as summary_response
from josefk.protocol.messages.generated import write_share_group_state_response as write_response
from josefk.protocol.messages.generated.delete_share_group_state_request import DeleteShareGroupStateRequest
from josefk.protocol.messages.generated.find_coordinator_request import FindCoordinatorRequest
from josefk.protocol.messages.generated.find_coordinator_response import Coordinator, FindCoordinatorResponse
from josefk.protocol.messages.generated.initialize_share_group_state_request import (
    InitializeShareGroupStateRequest,
)
from josefk.protocol.messages.generated.read_share_group_state_request import ReadShareGroupStateRequest
from josefk.protocol.messages.generated.read_share_group_state_summary_request import (
    ReadShareGroupStateSummaryRequest,
)
from josefk.protocol.messages.generated.write_share_group_state_request import WriteShareGroupStateRequest
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_partition import RecordState, StateBatch
from josefk.replication.share_state_service import ReadResult, StateKey, StateResult, SummaryResult, WriteState
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, api

COORDINATOR_SHARE = 2  # FindCoordinator's key type (KIP-932)
SHARE_KEY_MIN_VERSION = 6
INVALID_REQUEST_MESSAGE = ("This most likely occurs because of a request being malformed by the client library or "
                           "the message was sent to an incompatible broker. See the broker logs for more details.")
_RETRIABLE_MESSAGES = {  # Kafka's Errors.message() of the coordinator errors a leader retries
    ErrorCode.NOT_COORDINATOR: "This is not the correct coordinator.",
    ErrorCode.COORDINATOR_NOT_AVAILABLE: "The coordinator is not available.",
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS: "The coordinator is loading and hence can't process requests.",
}
_VERBS = {83: "initialize share group state", 84: "read share group state", 85: "write share group state",
          86: "delete share group state", 87: "read share group state summary"}


def parse_share_key(key: str) -> StateKey | None:
    """Kafka's SharePartitionKey.getInstance(String): "group:topicId:partition", topic id in
    Kafka's base64 form; None if malformed."""
    parts = key.split(":")
    if len(parts) != 3 or not parts[0]:
        return None
    try:
        raw = base64.urlsafe_b64decode(parts[1] + "==")
        partition = int(parts[2])
    except (binascii.Error, ValueError):
        return None
    if len(raw) != 16:
        return None
    return parts[0], uuid.UUID(bytes=raw), partition


# A partition's answer from the store, and its entry in the response.
R = TypeVar("R", StateResult, ReadResult, SummaryResult)
P = TypeVar("P")
Where = tuple[uuid.UUID, int]


class _RequestPartition(Protocol):
    @property
    def partition(self) -> int: ...


class _RequestTopic(Protocol):
    @property
    def topic_id(self) -> uuid.UUID: ...

    @property
    def partitions(self) -> Sequence[_RequestPartition]: ...


class _StateRequest(Protocol):
    """What the five requests share: a group and its topics' partitions."""

    @property
    def group_id(self) -> str: ...

    @property
    def topics(self) -> Sequence[_RequestTopic]: ...


class _Gather(Generic[R]):
    """The answers of one request's partitions, sent when the last arrives (in request order)."""

    def __init__(self, keys: list[Where], send: Callable[[dict[Where, R]], None]) -> None:
        self.waiting = len(keys)
        self.answers: dict[Where, R] = {}
        self.send: Callable[[dict[Where, R]], None] = send
        if not keys:
            send({})

    def answer(self, where: Where, result: R) -> None:
        self.answers[where] = result
        self.waiting -= 1
        if self.waiting == 0:
            self.send(self.answers)


class ShareStateApis:
    def __init__(self, store: ShareStateStore, metadata_cache: MetadataCache,
                 find_coordinator: Callable[[Request[FindCoordinatorRequest]], None],
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        """`find_coordinator` answers FindCoordinator's other key types."""
        self.store = store
        self.metadata_cache = metadata_cache
        self.inner_find_coordinator = find_coordinator
        self.authorizer = authorizer

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(InitializeShareGroupStateRequest, self.handle_initialize),
            api(ReadShareGroupStateRequest, self.handle_read),
            api(WriteShareGroupStateRequest, self.handle_write),
            api(DeleteShareGroupStateRequest, self.handle_delete),
            api(ReadShareGroupStateSummaryRequest, self.handle_summary),
            api(FindCoordinatorRequest, self.handle_find_coordinator),
        ])

    def _allowed(self, request: Request[ApiMessage]) -> bool:
        return self.authorizer.authorize(request, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME)

    def _each(self, request: Request[ApiMessage], req: _StateRequest,
              run: Callable[[StateKey, Callable[[R], None]], None], refused: Callable[[ErrorCode, str], R],
              respond: Callable[[list[tuple[uuid.UUID, list[P]]]], None],
              result_partition: Callable[[int, R], P]) -> None:
        """Each partition of the request (`req`, its body) through `run` (an empty group id:
        none), answered in the request's order; without CLUSTER_ACTION each is `refused`."""
        topics = req.topics if req.group_id else []
        keys = [(t.topic_id, p.partition) for t in topics for p in t.partitions]

        def send(answers: dict[Where, R]) -> None:
            respond([(t.topic_id, [result_partition(p.partition, answers[(t.topic_id, p.partition)])
                                   for p in t.partitions]) for t in topics])

        gather = _Gather(keys, send)
        allowed = self._allowed(request)
        verb = _VERBS[request.header.api_key]
        for topic_id, partition in keys:
            where = (topic_id, partition)
            if not allowed:
                gather.answer(where, refused(ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                                             AUTH_MESSAGES[ErrorCode.CLUSTER_AUTHORIZATION_FAILED]))
                continue
            run((req.group_id, topic_id, partition), functools.partial(_answer, gather, where, verb))

    def handle_initialize(self, request: Request[InitializeShareGroupStateRequest]) -> None:
        starts = {(t.topic_id, p.partition): p for t in request.body.topics for p in t.partitions}

        def run(key: StateKey, done: Callable[[StateResult], None]) -> None:
            p = starts[(key[1], key[2])]
            self.store.initialize(key, p.state_epoch, p.start_offset, done)

        self._each(request, request.body, run, StateResult, lambda results: request.send_response(
            initialize_response.InitializeShareGroupStateResponse(results=[
                initialize_response.InitializeStateResult(topic_id=t, partitions=ps) for t, ps in results])),
            lambda partition, r: initialize_response.PartitionResult(
                partition=partition, error_code=r.error, error_message=r.message))

    def handle_read(self, request: Request[ReadShareGroupStateRequest]) -> None:
        epochs = {(t.topic_id, p.partition): p.leader_epoch for t in request.body.topics for p in t.partitions}

        def result(partition: int, r: ReadResult) -> read_response.PartitionResult:
            if r.error != ErrorCode.NONE or r.state is None:
                return read_response.PartitionResult(partition=partition, error_code=r.error,
                                                     error_message=r.message, state_epoch=0, start_offset=0)
            return read_response.PartitionResult(
                partition=partition, error_code=0, error_message=None, state_epoch=r.state.state_epoch,
                start_offset=r.state.start_offset, state_batches=[
                    read_response.StateBatch(first_offset=b.first_offset, last_offset=b.last_offset,
                                             delivery_state=int(b.state), delivery_count=b.delivery_count)
                    for b in r.state.batches])

        self._each(request, request.body, lambda key, done: self.store.read(key, epochs[(key[1], key[2])], done),
                   lambda e, m: ReadResult(e, m), lambda results: request.send_response(
                       read_response.ReadShareGroupStateResponse(results=[
                           read_response.ReadStateResult(topic_id=t, partitions=ps) for t, ps in results])),
                   result)

    def handle_write(self, request: Request[WriteShareGroupStateRequest]) -> None:
        writes = {(t.topic_id, p.partition): WriteState(
            p.state_epoch, p.leader_epoch, p.start_offset,
            tuple(StateBatch(b.first_offset, b.last_offset, RecordState(b.delivery_state), b.delivery_count)
                  for b in p.state_batches), p.delivery_complete_count)
            for t in request.body.topics for p in t.partitions}
        self._each(request, request.body, lambda key, done: self.store.write(key, writes[(key[1], key[2])], done),
                   StateResult,
                   lambda results: request.send_response(write_response.WriteShareGroupStateResponse(results=[
                       write_response.WriteStateResult(topic_id=t, partitions=ps) for t, ps in results])),
                   lambda partition, r: write_response.PartitionResult(
                       partition=partition, error_code=r.error, error_message=r.message))

    def handle_delete(self, request: Request[DeleteShareGroupStateRequest]) -> None:
        self._each(request, request.body, self.store.delete, StateResult,
                   lambda results: request.send_response(delete_response.DeleteShareGroupStateResponse(results=[
                       delete_response.DeleteStateResult(topic_id=t, partitions=ps) for t, ps in results])),
                   lambda partition, r: delete_response.PartitionResult(
                       partition=partition, error_code=r.error, error_message=r.message))

    def handle_summary(self, request: Request[ReadShareGroupStateSummaryRequest]) -> None:
        def result(partition: int, r: SummaryResult) -> summary_response.PartitionResult:
            if r.error != ErrorCode.NONE:
                return summary_response.PartitionResult(partition=partition, error_code=r.error,
                                                        error_message=r.message, state_epoch=0, leader_epoch=0,
                                                        start_offset=0)
            return summary_response.PartitionResult(
                partition=partition, error_code=0, error_message=None, state_epoch=r.state_epoch,
                leader_epoch=r.leader_epoch, start_offset=r.start_offset,
                delivery_complete_count=r.delivery_complete_count)

        self._each(request, request.body, lambda key, done: done(self.store.summary(key)),
                   lambda e, m: SummaryResult(e, m),
                   lambda results: request.send_response(summary_response.ReadShareGroupStateSummaryResponse(
                       results=[summary_response.ReadStateSummaryResult(topic_id=t, partitions=ps)
                                for t, ps in results])), result)

    # -- FindCoordinator, key type SHARE ----------------------------------------------------------

    def handle_find_coordinator(self, request: Request[FindCoordinatorRequest]) -> None:
        req, version = request.body, request.api_version
        if version < 1 or req.key_type != COORDINATOR_SHARE:
            self.inner_find_coordinator(request)
            return
        if version < 4:  # Kafka refuses the SHARE key type below v6; before v4 with its exception's message
            request.send_response(FindCoordinatorResponse(
                throttle_time_ms=0, error_code=ErrorCode.INVALID_REQUEST, error_message=INVALID_REQUEST_MESSAGE,
                node_id=-1, host="", port=-1))
            return
        coordinators = []
        for key in req.coordinator_keys:
            error, node, host, port = self._find(request, key, version)
            coordinators.append(Coordinator(key=key, node_id=node, host=host, port=port, error_code=error,
                                            error_message=""))
        request.send_response(FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators))

    def _find(self, request: Request[FindCoordinatorRequest], key: str, version: int
              ) -> tuple[ErrorCode, int, str, int]:
        parsed = parse_share_key(key)
        if version < SHARE_KEY_MIN_VERSION or parsed is None:
            return ErrorCode.INVALID_REQUEST, -1, "", -1
        if not self._allowed(request):
            return ErrorCode.CLUSTER_AUTHORIZATION_FAILED, -1, "", -1
        p = self.store.state_partition(parsed)
        if p is None:
            self.store.ensure_topic()
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        state = self.metadata_cache.partition(SHARE_STATE_TOPIC, p)
        broker = self.metadata_cache.brokers.get(state.leader) if state is not None else None
        endpoint = broker.endpoint(request.listener_name) if broker is not None else None
        if broker is None or endpoint is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        return ErrorCode.NONE, broker.broker_id, endpoint.host, endpoint.port


def _answer(gather: _Gather[R], where: Where, verb: str, result: R) -> None:
    gather.answer(where, _prefixed(result, verb))


def _prefixed(result: R, verb: str) -> R:
    """Kafka's answer to a coordinator that is not (yet) there: "Unable to <verb>: <message>"."""
    if result.error in _RETRIABLE_MESSAGES:
        return replace(result, message=f"Unable to {verb}: {result.message or _RETRIABLE_MESSAGES[result.error]}")
    return result
