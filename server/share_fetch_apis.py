"""ShareFetch (78) and ShareAcknowledge (79), as Kafka's KafkaApis serves them through its
SharePartitionManager: share sessions, acknowledgements first, then acquisition, and a
fetch that acquired nothing waits up to MaxWaitMs for acquirable records."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import share_acknowledge_response as ack_response
from josefk.protocol.messages.generated import share_fetch_response as fetch_response
from josefk.protocol.messages.generated.share_acknowledge_request import AcknowledgeTopic, ShareAcknowledgeRequest
from josefk.protocol.messages.generated.share_fetch_request import FetchTopic, ShareFetchRequest
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_partition import AckBatch
from josefk.replication.share_partition_manager import DelayedShareFetch, PartitionFetch, SharePartitionManager
from josefk.replication.share_session import FINAL_EPOCH, INITIAL_EPOCH, ShareSession
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, api

TopicPartition = tuple[str, int]
IdPartition = tuple[uuid.UUID, int]


@dataclass
class _Answer:
    """One partition's part of a response."""

    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    ack_error: ErrorCode = ErrorCode.NONE
    ack_message: str | None = None
    fetched: PartitionFetch = field(default_factory=PartitionFetch)


@dataclass(frozen=True, slots=True)
class _Member:
    """The share group member a request is from, once _admit let it in (both ids non-empty)."""

    group_id: str
    member_id: str


class ShareFetchApis:
    def __init__(self, manager: SharePartitionManager, metadata_cache: MetadataCache,
                 lock_duration_ms: Callable[[str], int], authorizer: Authorizer = ALLOW_ALL) -> None:
        self.manager = manager
        self.metadata_cache = metadata_cache
        self.lock_duration_ms = lock_duration_ms  # the group's record lock duration, told to the consumer
        self.authorizer = authorizer

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(ShareFetchRequest, self.handle_share_fetch),
            api(ShareAcknowledgeRequest, self.handle_share_acknowledge),
        ])

    # -- shared steps --------------------------------------------------------------------------

    def _admit(self, request: Request[ShareFetchRequest | ShareAcknowledgeRequest]
               ) -> _Member | tuple[ErrorCode, str | None]:
        """The member, or why the request is refused."""
        req = request.body
        if not req.group_id:
            return ErrorCode.INVALID_GROUP_ID, None
        if not req.member_id:  # Kafka 4.4.0 answers this one without a message
            return ErrorCode.INVALID_REQUEST, None
        if not self.authorizer.authorize(request, AclOperation.READ, ResourceType.GROUP, req.group_id):
            return ErrorCode.GROUP_AUTHORIZATION_FAILED, None
        return _Member(req.group_id, req.member_id)

    def _name(self, topic_id: uuid.UUID) -> str | None:
        return self.metadata_cache.topic_by_id(topic_id)

    def _leader(self, topic: str | None, partition: int) -> fetch_response.LeaderIdAndEpoch:
        state = self.metadata_cache.partition(topic, partition) if topic is not None else None
        if state is None:  # Kafka leaves an unknown partition's CurrentLeader as the schema's default: 0, 0
            return fetch_response.LeaderIdAndEpoch()
        return fetch_response.LeaderIdAndEpoch(leader_id=state.leader, leader_epoch=state.leader_epoch)

    def _acknowledge(self, request: Request[ShareFetchRequest | ShareAcknowledgeRequest], member: _Member,
                     topics: list[FetchTopic] | list[AcknowledgeTopic], answers: dict[IdPartition, _Answer],
                     then: Callable[[], None]) -> None:
        """Apply the acknowledgement batches of `topics` (request topics), noting each result;
        `then` once the share partitions' state is written (a failed write is the ack's error)."""
        acks: dict[TopicPartition, list[AckBatch]] = {}
        where: dict[TopicPartition, IdPartition] = {}
        for topic in topics:
            name = self._name(topic.topic_id)
            for p in topic.partitions:
                if not p.acknowledgement_batches:
                    continue
                answer = answers.setdefault((topic.topic_id, p.partition_index), _Answer())
                if name is None:
                    answer.ack_error = ErrorCode.UNKNOWN_TOPIC_ID
                elif not self.authorizer.authorize(request, AclOperation.READ, ResourceType.TOPIC, name):
                    answer.ack_error = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                else:
                    acks[(name, p.partition_index)] = [
                        AckBatch(b.first_offset, b.last_offset, tuple(b.acknowledge_types))
                        for b in p.acknowledgement_batches]
                    where[(name, p.partition_index)] = (topic.topic_id, p.partition_index)
        for tp, (error, message) in self.manager.acknowledge(member.group_id, member.member_id, acks).items():
            answer = answers[where[tp]]
            answer.ack_error, answer.ack_message = error, message

        def persisted(errors: dict[TopicPartition, ErrorCode]) -> None:
            for tp, error in errors.items():
                answer = answers[where[tp]]
                if error != ErrorCode.NONE and answer.ack_error == ErrorCode.NONE:
                    answer.ack_error, answer.ack_message = error, None
            then()

        self.manager.when_persisted(member.group_id, acks, persisted)

    # -- ShareFetch ----------------------------------------------------------------------------

    def handle_share_fetch(self, request: Request[ShareFetchRequest]) -> None:
        req = request.body
        lock_ms = self.lock_duration_ms(req.group_id or "")

        def fail(error: ErrorCode, message: str | None = None) -> None:
            # as Kafka 4.4.0's error answers: AcquisitionLockTimeoutMs left at 0
            request.send_response(fetch_response.ShareFetchResponse(error_code=error, error_message=message))

        member = self._admit(request)
        if not isinstance(member, _Member):
            fail(*member)
            return
        has_acks = any(p.acknowledgement_batches for t in req.topics for p in t.partitions)
        if req.share_session_epoch == INITIAL_EPOCH and has_acks:
            fail(ErrorCode.INVALID_REQUEST, "Acknowledge data present on initial fetch.")
            return
        error, session, _is_new = self.manager.sessions.begin(member.group_id, member.member_id,
                                                              req.share_session_epoch, request.connection_id)
        if session is None:
            fail(error)
            return
        requested: dict[IdPartition, None] = {}
        for topic in req.topics:
            for p in topic.partitions:
                requested[(topic.topic_id, p.partition_index)] = None
        if req.share_session_epoch != FINAL_EPOCH:
            for forgotten in req.forgotten_topics_data:
                for index in forgotten.partitions:
                    session.partitions.pop((forgotten.topic_id, index), None)
            session.partitions.update(requested)
        answers: dict[IdPartition, _Answer] = {}
        self._acknowledge(request, member, req.topics, answers, lambda: self._fetch_after_acks(
            request, member, session, requested, answers, lock_ms))

    def _fetch_after_acks(self, request: Request[ShareFetchRequest], member: _Member, session: ShareSession,
                          requested: dict[IdPartition, None], answers: dict[IdPartition, _Answer],
                          lock_ms: int) -> None:
        req = request.body
        if req.share_session_epoch == FINAL_EPOCH:
            self._release(session)
            self._send_fetch(request, answers, {}, lock_ms)
            return
        fetchable: dict[IdPartition, TopicPartition] = {}
        for tip in session.partitions:
            name = self._name(tip[0])
            if name is None:
                answers.setdefault(tip, _Answer()).error = ErrorCode.UNKNOWN_TOPIC_ID
            elif not self.authorizer.authorize(request, AclOperation.READ, ResourceType.TOPIC, name):
                answers.setdefault(tip, _Answer()).error = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            else:
                fetchable[tip] = (name, tip[1])
        max_records = req.max_records if request.api_version >= 1 and req.max_records > 0 else 500

        def fetch_now() -> bool:
            fetched = self.manager.fetch(member.group_id, member.member_id, fetchable.values(), max_records,
                                         req.max_bytes)
            for tip, tp in fetchable.items():
                got = fetched[tp]
                if got.error != ErrorCode.NONE or got.acquired:
                    answer = answers.setdefault(tip, _Answer())
                    answer.error, answer.message, answer.fetched = got.error, got.message, got
            return any(a.fetched.acquired or a.error != ErrorCode.NONE for a in answers.values())

        if fetch_now() or req.max_wait_ms <= 0 or not fetchable or answers:
            self._send_fetch(request, answers, requested, lock_ms)
            return

        def complete() -> None:
            fetch_now()
            self._send_fetch(request, answers, requested, lock_ms)

        purgatory = self.manager.replica_manager.fetch_purgatory
        purgatory.try_complete_else_watch(
            DelayedShareFetch(self.manager, member.group_id, list(fetchable.values()), req.max_wait_ms, complete),
            list(fetchable.values()))

    def _release(self, session: ShareSession) -> None:
        names = [(name, p) for t, p in session.partitions if (name := self._name(t)) is not None]
        self.manager.release(session.group_id, session.member_id, names)

    def _send_fetch(self, request: Request[ShareFetchRequest], answers: dict[IdPartition, _Answer],
                    requested: dict[IdPartition, None], lock_ms: int) -> None:
        by_topic: dict[uuid.UUID, list[fetch_response.PartitionData]] = {}
        for tip in list(requested) + [t for t in answers if t not in requested]:
            answer = answers.get(tip, _Answer())
            topic = self._name(tip[0])
            by_topic.setdefault(tip[0], []).append(fetch_response.PartitionData(
                partition_index=tip[1], error_code=answer.error, error_message=answer.message,
                acknowledge_error_code=answer.ack_error, acknowledge_error_message=answer.ack_message,
                current_leader=self._leader(topic, tip[1]), records=answer.fetched.records,
                acquired_records=[fetch_response.AcquiredRecords(first_offset=r.first_offset,
                                                                 last_offset=r.last_offset,
                                                                 delivery_count=r.delivery_count)
                                  for r in answer.fetched.acquired]))
        request.send_response(fetch_response.ShareFetchResponse(
            throttle_time_ms=0, error_code=ErrorCode.NONE, acquisition_lock_timeout_ms=lock_ms,
            responses=[fetch_response.ShareFetchableTopicResponse(topic_id=t, partitions=ps)
                       for t, ps in by_topic.items()]))

    # -- ShareAcknowledge ----------------------------------------------------------------------

    def handle_share_acknowledge(self, request: Request[ShareAcknowledgeRequest]) -> None:
        req = request.body
        lock_ms = self.lock_duration_ms(req.group_id or "")

        def fail(error: ErrorCode, message: str | None = None) -> None:
            # as Kafka 4.4.0's error answers: AcquisitionLockTimeoutMs left at 0
            request.send_response(ack_response.ShareAcknowledgeResponse(error_code=error, error_message=message))

        member = self._admit(request)
        if not isinstance(member, _Member):
            fail(*member)
            return
        if req.share_session_epoch == INITIAL_EPOCH:
            fail(ErrorCode.INVALID_SHARE_SESSION_EPOCH)
            return
        error, session, _is_new = self.manager.sessions.begin(member.group_id, member.member_id,
                                                              req.share_session_epoch)
        if session is None:
            fail(error)
            return
        answers: dict[IdPartition, _Answer] = {}
        self._acknowledge(request, member, req.topics, answers, lambda: self._send_acknowledge(
            request, session, answers, lock_ms))

    def _send_acknowledge(self, request: Request[ShareAcknowledgeRequest], session: ShareSession,
                          answers: dict[IdPartition, _Answer], lock_ms: int) -> None:
        if request.body.share_session_epoch == FINAL_EPOCH:
            self._release(session)
        by_topic: dict[uuid.UUID, list[ack_response.PartitionData]] = {}
        for (topic_id, index), answer in answers.items():
            leader = self._leader(self._name(topic_id), index)
            by_topic.setdefault(topic_id, []).append(ack_response.PartitionData(
                partition_index=index, error_code=answer.ack_error, error_message=answer.ack_message,
                current_leader=ack_response.LeaderIdAndEpoch(leader_id=leader.leader_id,
                                                             leader_epoch=leader.leader_epoch)))
        request.send_response(ack_response.ShareAcknowledgeResponse(
            throttle_time_ms=0, error_code=ErrorCode.NONE, acquisition_lock_timeout_ms=lock_ms,
            responses=[ack_response.ShareAcknowledgeTopicResponse(topic_id=t, partitions=ps)
                       for t, ps in by_topic.items()]))
