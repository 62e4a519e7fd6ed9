"""Wires the group coordinator into a broker: the group APIs' request and response shapes.

Every version difference of FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
OffsetCommit, OffsetFetch, DescribeGroups, ListGroups, DeleteGroups and OffsetDelete is
handled here, so GroupCoordinator only sees plain values. Handlers never block: JoinGroup
and SyncGroup hand the coordinator a callback that sends the response when the rebalance
gets there. The broker creates the coordinator and hands GroupApis.handlers() to KafkaApis.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from josefk.coordinator.group_coordinator import GroupCoordinator
from josefk.coordinator.group_metadata import JoinResult, OffsetAndMetadata, SyncResult
from josefk.coordinator.group_request import GroupHandler, GroupRequest, client_host, group_api
from josefk.coordinator.offset_topics import (
    TOPIC_IDS_VERSION,
    UNKNOWN_ID,
    NamedTopic,
    RequestedPartitions,
    TopicRef,
    by_topic,
    is_unknown_id,
)
from josefk.coordinator.offsets_store import OFFSETS_TOPIC
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, AUTH_MESSAGES, Authorizer, kafka4_group_operations, operations_bits
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages import codec
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse
from josefk.protocol.messages.generated.describe_groups_request import DescribeGroupsRequest
from josefk.protocol.messages.generated.describe_groups_response import (
    DescribedGroup,
    DescribedGroupMember,
    DescribeGroupsResponse,
)
from josefk.protocol.messages.generated.find_coordinator_request import FindCoordinatorRequest
from josefk.protocol.messages.generated.find_coordinator_response import Coordinator, FindCoordinatorResponse
from josefk.protocol.messages.generated.heartbeat_request import HeartbeatRequest
from josefk.protocol.messages.generated.heartbeat_response import HeartbeatResponse
from josefk.protocol.messages.generated.join_group_request import JoinGroupRequest
from josefk.protocol.messages.generated.join_group_response import JoinGroupResponse, JoinGroupResponseMember
from josefk.protocol.messages.generated.leave_group_request import LeaveGroupRequest
from josefk.protocol.messages.generated.leave_group_response import LeaveGroupResponse, MemberResponse
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.list_groups_response import ListedGroup, ListGroupsResponse
from josefk.protocol.messages.generated.offset_commit_request import OffsetCommitRequest
from josefk.protocol.messages.generated.offset_commit_response import (
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)
from josefk.protocol.messages.generated.offset_delete_request import OffsetDeleteRequest
from josefk.protocol.messages.generated.offset_delete_response import (
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)
from josefk.protocol.messages.generated.offset_fetch_request import OffsetFetchRequest
from josefk.protocol.messages.generated.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from josefk.protocol.messages.generated.sync_group_request import SyncGroupRequest
from josefk.protocol.messages.generated.sync_group_response import SyncGroupResponse
from josefk.protocol.messages.generated.txn_offset_commit_request import TxnOffsetCommitRequest
from josefk.protocol.messages.generated.txn_offset_commit_response import (
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponsePartition,
    TxnOffsetCommitResponseTopic,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.zk.admin_zk_client import TopicAdmin

log = logging.getLogger(__name__)

COORDINATOR_GROUP = 0
COORDINATOR_TRANSACTION = 1
GROUP_TYPE_CLASSIC = "classic"
# TxnOffsetCommit from v5 comes from producers on transactions v2: it adds the group's
# partition to the transaction itself (no AddOffsetsToTxn), as Kafka's addPartition operation.
TXN_OFFSET_COMMIT_ADD_VERSION = 5
# TxnOffsetCommit names topics by id from v6 (KIP-1319), as OffsetCommit from v10.
TXN_OFFSET_COMMIT_TOPIC_IDS_VERSION = 6


def _error_message(error: ErrorCode) -> str:
    """FindCoordinator's error_message as Kafka fills it: its Errors.message(), which for
    NONE (no exception) is the error's name, so a success says "NONE", not null."""
    return error.name


@dataclass(frozen=True)
class OffsetsTopicConfig:
    """How __consumer_offsets is created on first use (the offsets.topic.* broker configs)."""

    num_partitions: int
    replication_factor: int
    segment_bytes: int


class GroupApis:
    def __init__(self, coordinator: GroupCoordinator, metadata_cache: MetadataCache, admin: TopicAdmin,
                 store_executor: Executor, offsets_topic: OffsetsTopicConfig,
                 find_transaction_coordinator: Callable[[str, str], tuple[ErrorCode, int, str, int]] | None = None,
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        """`store_executor` creates __consumer_offsets off the event loop;
        `find_transaction_coordinator` answers FindCoordinator for transactional ids;
        `authorizer` checks each request's group and topic ACLs, as Kafka's KafkaApis."""
        self.authorizer = authorizer
        self.find_transaction_coordinator = find_transaction_coordinator
        self.coordinator = coordinator
        self.metadata_cache = metadata_cache
        self.admin = admin
        self.store_executor = store_executor
        self.offsets_topic = offsets_topic

    def handlers(self) -> dict[int, GroupHandler]:
        """The group APIs' handlers, for KafkaApis."""
        return dict([
            group_api(FindCoordinatorRequest, self.handle_find_coordinator),
            group_api(JoinGroupRequest, self.handle_join_group),
            group_api(SyncGroupRequest, self.handle_sync_group),
            group_api(HeartbeatRequest, self.handle_heartbeat),
            group_api(LeaveGroupRequest, self.handle_leave_group),
            group_api(OffsetCommitRequest, self.handle_offset_commit),
            group_api(OffsetFetchRequest, self.handle_offset_fetch),
            group_api(DescribeGroupsRequest, self.handle_describe_groups),
            group_api(ListGroupsRequest, self.handle_list_groups),
            group_api(DeleteGroupsRequest, self.handle_delete_groups),
            group_api(OffsetDeleteRequest, self.handle_offset_delete),
            group_api(TxnOffsetCommitRequest, self.handle_txn_offset_commit),
        ])

    # -- authorization -------------------------------------------------------------------

    def _group_allowed(self, request: GroupRequest[codec.ApiMessage], operation: AclOperation, group_id: str) -> bool:
        return self.authorizer.authorize(request, operation, ResourceType.GROUP, group_id)

    def _topics_allowed(self, request: GroupRequest[codec.ApiMessage], operation: AclOperation,
                        names: Iterable[str]) -> set[str]:
        return {n for n in set(names) if self.authorizer.authorize(request, operation, ResourceType.TOPIC, n)}

    # -- FindCoordinator -----------------------------------------------------------------

    def _ensure_offsets_topic(self) -> None:
        """Create __consumer_offsets on first use, as Kafka's auto topic creation does, in
        the background (store executor): meanwhile FindCoordinator answers
        COORDINATOR_NOT_AVAILABLE and clients retry."""
        if OFFSETS_TOPIC not in self.metadata_cache.topics:
            self.store_executor.submit(self._create_offsets_topic)

    def _create_offsets_topic(self) -> None:
        config = self.offsets_topic
        rf = min(config.replication_factor, max(1, len(self.metadata_cache.brokers)))
        try:
            self.admin.create_topic(
                OFFSETS_TOPIC, config.num_partitions, rf, None,
                {"cleanup.policy": "compact", "segment.bytes": str(config.segment_bytes),
                 "compression.type": "producer"})
            log.info("Created %s with %d partitions and replication factor %d", OFFSETS_TOPIC,
                     config.num_partitions, rf)
        except KafkaError as e:
            if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                log.warning("Could not create %s: %s", OFFSETS_TOPIC, e)

    def find_coordinator(self, key: str, key_type: int, listener: str) -> tuple[ErrorCode, int, str, int]:
        """The coordinator's id and its address on `listener` (the one the request came in on)."""
        if key_type == COORDINATOR_TRANSACTION:
            if self.find_transaction_coordinator is None:
                return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
            return self.find_transaction_coordinator(key or "", listener)
        if key_type != COORDINATOR_GROUP:
            return ErrorCode.INVALID_REQUEST, -1, "", -1
        self._ensure_offsets_topic()
        cache = self.metadata_cache
        state = cache.partition(OFFSETS_TOPIC, self.coordinator.partition_for(key or ""))
        broker = cache.brokers.get(state.leader) if state is not None else None
        endpoint = broker.endpoint(listener) if broker is not None else None
        if broker is None or endpoint is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        if broker.broker_id == self.coordinator.broker_id:
            self.coordinator.validate(key or "", "find")  # start loading the group's partition now
        return ErrorCode.NONE, broker.broker_id, endpoint.host, endpoint.port

    def _find_authorized(self, request: GroupRequest[codec.ApiMessage], key: str, key_type: int
                         ) -> tuple[ErrorCode, int, str, int, str]:
        """find_coordinator after Kafka's check: DESCRIBE on the group or transactional id."""
        refusal = None
        if key_type == COORDINATOR_GROUP and not self._group_allowed(request, AclOperation.DESCRIBE, key or ""):
            refusal = ErrorCode.GROUP_AUTHORIZATION_FAILED
        elif key_type == COORDINATOR_TRANSACTION and not self.authorizer.authorize(
                request, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key or ""):
            refusal = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        if refusal is not None:
            return refusal, -1, "", -1, AUTH_MESSAGES[refusal]
        error, node, host, port = self.find_coordinator(key, key_type, request.listener_name)
        return error, node, host, port, _error_message(error)

    def handle_find_coordinator(self, request: GroupRequest[FindCoordinatorRequest]) -> None:
        req, version = request.body, request.api_version
        key_type = req.key_type if version >= 1 else COORDINATOR_GROUP
        if version >= 4:
            coordinators = []
            for key in req.coordinator_keys:
                error, node, host, port, message = self._find_authorized(request, key, key_type)
                coordinators.append(Coordinator(key=key, node_id=node, host=host, port=port, error_code=error,
                                                error_message=message))
            request.send_response(FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators))
            return
        error, node, host, port, message = self._find_authorized(request, req.key, key_type)
        request.send_response(FindCoordinatorResponse(throttle_time_ms=0, error_code=error, error_message=message,
                                                      node_id=node, host=host, port=port))

    # -- JoinGroup / SyncGroup / Heartbeat / LeaveGroup ----------------------------------------

    def handle_join_group(self, request: GroupRequest[JoinGroupRequest]) -> None:
        req, version = request.body, request.api_version

        def respond(result: JoinResult) -> None:
            protocol_name = result.protocol_name
            if protocol_name is None and version < 7:
                protocol_name = ""
            members = [JoinGroupResponseMember(member_id=mid, group_instance_id=iid, metadata=meta)
                       for mid, iid, meta in result.members]
            request.send_response(JoinGroupResponse(
                throttle_time_ms=0, error_code=result.error, generation_id=result.generation_id,
                protocol_type=result.protocol_type, protocol_name=protocol_name, leader=result.leader_id,
                skip_assignment=result.skip_assignment, member_id=result.member_id, members=members))

        if not self._group_allowed(request, AclOperation.READ, req.group_id):
            respond(JoinResult(ErrorCode.GROUP_AUTHORIZATION_FAILED, member_id=req.member_id or ""))
            return
        self.coordinator.join_group(
            req.group_id, req.member_id or "", req.group_instance_id if version >= 5 else None,
            require_known_member_id=version >= 4, support_skipping_assignment=version >= 9,
            client_id=request.header.client_id or "", client_host=client_host(request.client_host),
            rebalance_timeout_ms=req.rebalance_timeout_ms if version >= 1 else req.session_timeout_ms,
            session_timeout_ms=req.session_timeout_ms, protocol_type=req.protocol_type,
            protocols=[(p.name, bytes(p.metadata)) for p in req.protocols], callback=respond,
            reason=req.reason if version >= 8 else None)

    def handle_sync_group(self, request: GroupRequest[SyncGroupRequest]) -> None:
        req, version = request.body, request.api_version

        def respond(result: SyncResult) -> None:
            ok = result.error == ErrorCode.NONE
            request.send_response(SyncGroupResponse(
                throttle_time_ms=0, error_code=result.error,
                protocol_type=result.protocol_type if ok else None,
                protocol_name=result.protocol_name if ok else None,
                assignment=result.assignment if ok else b""))

        if not self._group_allowed(request, AclOperation.READ, req.group_id):
            respond(SyncResult(ErrorCode.GROUP_AUTHORIZATION_FAILED))
            return
        self.coordinator.sync_group(
            req.group_id, req.generation_id, req.member_id or "",
            req.protocol_type if version >= 5 else None, req.protocol_name if version >= 5 else None,
            req.group_instance_id if version >= 3 else None,
            {a.member_id: bytes(a.assignment) for a in req.assignments}, respond)

    def handle_heartbeat(self, request: GroupRequest[HeartbeatRequest]) -> None:
        req, version = request.body, request.api_version
        if not self._group_allowed(request, AclOperation.READ, req.group_id):
            error = ErrorCode.GROUP_AUTHORIZATION_FAILED
        else:
            error = self.coordinator.heartbeat(req.group_id, req.member_id or "",
                                               req.group_instance_id if version >= 3 else None, req.generation_id)
        request.send_response(HeartbeatResponse(throttle_time_ms=0, error_code=error))

    def handle_leave_group(self, request: GroupRequest[LeaveGroupRequest]) -> None:
        req, version = request.body, request.api_version
        members: list[tuple[str, str | None]]  # (member id, group instance id)
        if version < 3:
            members = [(req.member_id or "", None)]
        else:
            members = [(m.member_id or "", m.group_instance_id) for m in req.members]
        if not self._group_allowed(request, AclOperation.READ, req.group_id):
            request.send_response(LeaveGroupResponse(throttle_time_ms=0,
                                                     error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED))
            return
        error, member_errors = self.coordinator.leave_group(req.group_id, members)
        if version < 3:
            if error == ErrorCode.NONE:
                error = next((e for e in member_errors if e != ErrorCode.NONE), ErrorCode.NONE)
            request.send_response(LeaveGroupResponse(throttle_time_ms=0, error_code=error))
            return
        responses = [MemberResponse(member_id=mid, group_instance_id=iid, error_code=e)
                     for (mid, iid), e in zip(members, member_errors, strict=False)]
        request.send_response(LeaveGroupResponse(throttle_time_ms=0, error_code=error, members=responses))

    # -- OffsetCommit / OffsetFetch / OffsetDelete ---------------------------------------------

    def _topic_names(self, topics: Sequence[TopicRef], by_id: bool) -> list[str]:
        """Each requested topic's name; by id (v10), looked up in the metadata, and for an id
        no topic has a name no topic can have (answered UNKNOWN_TOPIC_ID)."""
        if not by_id:
            return [t.name for t in topics]
        return [self.metadata_cache.topic_by_id(t.topic_id) or UNKNOWN_ID.format(t.topic_id) for t in topics]

    def _topic_id(self, name: str, requested: dict[str, uuid.UUID]) -> uuid.UUID:
        return requested.get(name) or self.metadata_cache.topic_ids.get(name) or uuid.UUID(int=0)

    def _known(self, topic: str, partition: int) -> bool:
        return self.metadata_cache.partition(topic, partition) is not None

    def handle_offset_commit(self, request: GroupRequest[OffsetCommitRequest]) -> None:
        req, version = request.body, request.api_version
        now = self.coordinator.time.milliseconds()
        retention = req.retention_time_ms if 2 <= version <= 4 else -1
        requested: list[tuple[str, int]] = []
        offsets: dict[tuple[str, int], OffsetAndMetadata] = {}
        errors: dict[tuple[str, int], ErrorCode] = {}
        group_allowed = self._group_allowed(request, AclOperation.READ, req.group_id)
        by_id = version >= TOPIC_IDS_VERSION
        names = self._topic_names(req.topics, by_id)
        ids = {name: t.topic_id for name, t in zip(names, req.topics, strict=True)} if by_id else {}
        readable = self._topics_allowed(request, AclOperation.READ, (n for n in names if not is_unknown_id(n)))
        for name, topic in zip(names, req.topics, strict=True):
            for p in topic.partitions:
                tp = (name, p.partition_index)
                requested.append(tp)
                if not group_allowed:
                    errors[tp] = ErrorCode.GROUP_AUTHORIZATION_FAILED
                    continue
                if is_unknown_id(name):
                    errors[tp] = ErrorCode.UNKNOWN_TOPIC_ID
                    continue
                if name not in readable:
                    errors[tp] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                    continue
                if not self._known(*tp):
                    errors[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    continue
                commit_ts = p.commit_timestamp if version == 1 and p.commit_timestamp != -1 else now
                epoch = p.committed_leader_epoch if version >= 6 else -1
                offsets[tp] = OffsetAndMetadata(
                    p.committed_offset, epoch if epoch is not None else -1, p.committed_metadata or "", commit_ts,
                    now + retention if retention != -1 else None)
        if group_allowed:  # Kafka lists the refused topics first, then the unknown ones, then the rest
            rank = {ErrorCode.UNKNOWN_TOPIC_ID: 0, ErrorCode.TOPIC_AUTHORIZATION_FAILED: 0,
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: 1}
            requested.sort(key=lambda tp: rank.get(errors.get(tp, ErrorCode.NONE), 2))

        def respond(results: dict[tuple[str, int], ErrorCode]) -> None:
            errors.update(results)
            topics = [OffsetCommitResponseTopic(
                partitions=[OffsetCommitResponsePartition(partition_index=p, error_code=e) for p, e in parts],
                **({"topic_id": ids[name]} if by_id else {"name": name}))
                for name, parts in by_topic([(tp, errors[tp]) for tp in requested]).items()]
            request.send_response(OffsetCommitResponse(throttle_time_ms=0, topics=topics))

        if not offsets:
            respond({})
            return
        generation = req.generation_id_or_member_epoch if version >= 1 else -1
        member_id = (req.member_id or "") if version >= 1 else ""
        instance_id = req.group_instance_id if version >= 7 else None
        self.coordinator.commit_offsets(req.group_id, member_id, instance_id, generation, offsets, respond,
                                        api_version=version)

    def handle_txn_offset_commit(self, request: GroupRequest[TxnOffsetCommitRequest]) -> None:
        """TxnOffsetCommit: offsets sent to a transaction, committed with it (Kafka's
        handleTxnOffsetCommitRequest)."""
        req, version = request.body, request.api_version
        now = self.coordinator.time.milliseconds()
        requested: list[tuple[str, int]] = []
        offsets: dict[tuple[str, int], OffsetAndMetadata] = {}
        errors: dict[tuple[str, int], ErrorCode] = {}
        # Kafka: WRITE on the transactional id, READ on the group, READ on each topic.
        refusal = None
        if not self.authorizer.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID,
                                         req.transactional_id):
            refusal = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        elif not self._group_allowed(request, AclOperation.READ, req.group_id):
            refusal = ErrorCode.GROUP_AUTHORIZATION_FAILED
        by_id = version >= TXN_OFFSET_COMMIT_TOPIC_IDS_VERSION
        names = self._topic_names(req.topics, by_id)
        ids = {name: t.topic_id for name, t in zip(names, req.topics, strict=True)} if by_id else {}
        readable = self._topics_allowed(request, AclOperation.READ, (n for n in names if not is_unknown_id(n)))
        for name, topic in zip(names, req.topics, strict=True):
            for p in topic.partitions:
                tp = (name, p.partition_index)
                requested.append(tp)
                if refusal is not None:
                    errors[tp] = refusal
                    continue
                if is_unknown_id(name):
                    errors[tp] = ErrorCode.UNKNOWN_TOPIC_ID
                    continue
                if name not in readable:
                    errors[tp] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                    continue
                if not self._known(*tp):
                    errors[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    continue
                epoch = p.committed_leader_epoch if version >= 2 else -1
                offsets[tp] = OffsetAndMetadata(p.committed_offset, epoch if epoch is not None else -1,
                                                p.committed_metadata or "", now, None)
        if refusal is None:  # Kafka lists the refused and unknown topics first, then the unknown partitions
            rank = {ErrorCode.UNKNOWN_TOPIC_ID: 0, ErrorCode.TOPIC_AUTHORIZATION_FAILED: 0,
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: 1}
            requested.sort(key=lambda tp: rank.get(errors.get(tp, ErrorCode.NONE), 2))

        def respond(results: dict[tuple[str, int], ErrorCode]) -> None:
            errors.update(results)
            fenced_name = ErrorCode.INVALID_PRODUCER_EPOCH if version < 2 else ErrorCode.PRODUCER_FENCED
            topics = [TxnOffsetCommitResponseTopic(partitions=[
                TxnOffsetCommitResponsePartition(
                    partition_index=p, error_code=fenced_name if e == ErrorCode.PRODUCER_FENCED else e)
                for p, e in parts], **({"topic_id": ids[name]} if by_id else {"name": name}))
                for name, parts in by_topic([(tp, errors[tp]) for tp in requested]).items()]
            request.send_response(TxnOffsetCommitResponse(throttle_time_ms=0, topics=topics))

        if not offsets:
            respond({})
            return
        member_id = (req.member_id or "") if version >= 3 else ""
        generation = req.generation_id_or_member_epoch if version >= 3 else -1
        instance_id = req.group_instance_id if version >= 3 else None
        self.coordinator.commit_txn_offsets(req.group_id, req.transactional_id, req.producer_id, req.producer_epoch,
                                            member_id, instance_id, generation, offsets, respond,
                                            add=version >= TXN_OFFSET_COMMIT_ADD_VERSION, api_version=version)

    def _fetch_group(self, request: GroupRequest[codec.ApiMessage], group_id: str,
                     topics: Sequence[RequestedPartitions] | None,
                     member: tuple[str | None, int] = (None, -1)
                     ) -> tuple[ErrorCode, list[tuple[tuple[str, int], OffsetAndMetadata | None]], set[str]]:
        """(error, offsets, topics refused): Kafka needs DESCRIBE on the group, and answers
        TOPIC_AUTHORIZATION_FAILED for requested topics the principal may not DESCRIBE, or
        leaves them out when all the group's offsets are asked for."""
        if not self._group_allowed(request, AclOperation.DESCRIBE, group_id):
            return ErrorCode.GROUP_AUTHORIZATION_FAILED, [], set()
        wanted = None if topics is None else [(t.name, p) for t in topics for p in t.partition_indexes]
        allowed_wanted = None if wanted is None else [
            tp for tp in wanted if tp[0] in self._topics_allowed(request, AclOperation.DESCRIBE, [tp[0]])]
        error, found = self.coordinator.fetch_offsets(group_id, allowed_wanted, member)
        if error != ErrorCode.NONE:
            return error, [], set()
        if wanted is None or allowed_wanted is None:
            describable = self._topics_allowed(request, AclOperation.DESCRIBE, (t for t, _ in found))
            return error, sorted((tp, om) for tp, om in found.items() if tp[0] in describable), set()
        refused = {t for t, _ in wanted} - {t for t, _ in allowed_wanted}
        return error, [(tp, found.get(tp)) for tp in wanted], refused

    def _unstable(self, group_id: str, results: list[tuple[tuple[str, int], OffsetAndMetadata | None]],
                  require_stable: bool) -> set[tuple[str, int]]:
        """With require_stable (v7+), partitions whose offset is in an open transaction."""
        if not require_stable:
            return set()
        return self.coordinator.unstable_partitions(group_id, [tp for tp, _ in results])

    def handle_offset_fetch(self, request: GroupRequest[OffsetFetchRequest]) -> None:
        req, version = request.body, request.api_version
        if version >= 8:
            groups = []
            by_id = version >= TOPIC_IDS_VERSION
            for g in req.groups:
                member = (g.member_id, g.member_epoch) if version >= 9 else (None, -1)
                wanted: Sequence[RequestedPartitions] | None = g.topics
                ids: dict[str, uuid.UUID] = {}
                if by_id and g.topics is not None:
                    names = self._topic_names(g.topics, by_id)
                    ids = {name: t.topic_id for name, t in zip(names, g.topics, strict=True)}
                    wanted = [NamedTopic(name, t.partition_indexes) for name, t in zip(names, g.topics, strict=True)]
                error, results, refused = self._fetch_group(request, g.group_id, wanted, member)
                unstable = self._unstable(g.group_id, [r for r in results if r[0][0] not in refused],
                                          req.require_stable)
                topics = [OffsetFetchResponseTopics(
                    partitions=[OffsetFetchResponsePartitions(
                        partition_index=p, committed_offset=-1 if (name, p) in unstable or not om else om.offset,
                        committed_leader_epoch=om.leader_epoch if om else -1,
                        metadata=om.metadata if om else "",
                        error_code=ErrorCode.UNKNOWN_TOPIC_ID if is_unknown_id(name)
                        else ErrorCode.TOPIC_AUTHORIZATION_FAILED if name in refused
                        else ErrorCode.UNSTABLE_OFFSET_COMMIT if (name, p) in unstable else ErrorCode.NONE)
                        for p, om in parts],
                    **({"topic_id": self._topic_id(name, ids)} if by_id else {"name": name}))
                    # Kafka answers the unknown ids after the group's offsets
                    for name, parts in sorted(by_topic(results).items(), key=lambda item: is_unknown_id(item[0]))]
                groups.append(OffsetFetchResponseGroup(group_id=g.group_id, topics=topics, error_code=error))
            request.send_response(OffsetFetchResponse(throttle_time_ms=0, groups=groups))
            return
        topics_req = req.topics if version >= 2 else (req.topics or [])
        error, results, refused = self._fetch_group(request, req.group_id, topics_req)
        if error != ErrorCode.NONE and version < 2:
            # No top-level error code before v2: every requested partition carries it.
            results = [((t.name, p), None) for t in topics_req or [] for p in t.partition_indexes]
        part_error = error if version < 2 else ErrorCode.NONE
        unstable = self._unstable(req.group_id, [r for r in results if r[0][0] not in refused],
                                  version >= 7 and req.require_stable)
        topic_results = [OffsetFetchResponseTopic(name=name, partitions=[
            OffsetFetchResponsePartition(
                partition_index=p, committed_offset=-1 if (name, p) in unstable or not om else om.offset,
                committed_leader_epoch=om.leader_epoch if om else -1,
                metadata=om.metadata if om else "",
                error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED if name in refused
                else ErrorCode.UNSTABLE_OFFSET_COMMIT if (name, p) in unstable else part_error)
            for p, om in parts]) for name, parts in by_topic(results).items()]
        request.send_response(OffsetFetchResponse(throttle_time_ms=0, topics=topic_results, error_code=error))

    def handle_offset_delete(self, request: GroupRequest[OffsetDeleteRequest]) -> None:
        req = request.body
        requested = [(t.name, p.partition_index) for t in req.topics for p in t.partitions]
        if not self._group_allowed(request, AclOperation.DELETE, req.group_id):
            request.send_response(OffsetDeleteResponse(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED,
                                                       throttle_time_ms=0, topics=[]))
            return
        readable = self._topics_allowed(request, AclOperation.READ, (t for t, _ in requested))
        unknown = {tp: ErrorCode.TOPIC_AUTHORIZATION_FAILED if tp[0] not in readable
                   else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                   for tp in requested if tp[0] not in readable or not self._known(*tp)}
        known = [tp for tp in requested if tp not in unknown]
        error, results = self.coordinator.delete_offsets(req.group_id, known)
        if error != ErrorCode.NONE:
            request.send_response(OffsetDeleteResponse(error_code=error, throttle_time_ms=0, topics=[]))
            return
        results.update(unknown)
        topics = [OffsetDeleteResponseTopic(name=name, partitions=[
            OffsetDeleteResponsePartition(partition_index=p, error_code=e) for p, e in parts])
            for name, parts in by_topic([(tp, results.get(tp, ErrorCode.NONE)) for tp in requested]).items()]
        request.send_response(OffsetDeleteResponse(error_code=ErrorCode.NONE, throttle_time_ms=0, topics=topics))

    # -- DescribeGroups / ListGroups / DeleteGroups --------------------------------------

    def handle_describe_groups(self, request: GroupRequest[DescribeGroupsRequest]) -> None:
        req, version = request.body, request.api_version
        include_ops = version >= 3 and req.include_authorized_operations
        # Kafka 3.9 answers the groups the principal may not describe first, then the others.
        refused = {g for g in req.groups if not self._group_allowed(request, AclOperation.DESCRIBE, g)}
        groups = [DescribedGroup(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, group_id=group_id,
                                 group_state="", protocol_type="", protocol_data="", members=[],
                                 authorized_operations=operations_bits(None))
                  for group_id in req.groups if group_id in refused]
        for group_id in req.groups:
            if group_id in refused:
                continue
            error, summary = self.coordinator.describe_group(group_id)
            message = None
            if error == ErrorCode.GROUP_ID_NOT_FOUND:
                if version >= 6:
                    message = f"Group {group_id} not found."
                else:
                    error = ErrorCode.NONE
            members = [DescribedGroupMember(
                member_id=m.member_id, group_instance_id=m.group_instance_id, client_id=m.client_id,
                client_host=m.client_host, member_metadata=m.metadata, member_assignment=m.assignment)
                for m in summary.members]
            groups.append(DescribedGroup(
                error_code=error, error_message=message, group_id=group_id, group_state=summary.state,
                protocol_type=summary.protocol_type, protocol_data=summary.protocol, members=members,
                authorized_operations=operations_bits(
                    None if not include_ops or error != ErrorCode.NONE
                    # v6 is Kafka 4's alone: its operations; before, Kafka 3.9's (the reference).
                    else kafka4_group_operations(self.authorizer, request, group_id) if version >= 6
                    else self.authorizer.authorized_operations(request, ResourceType.GROUP, group_id))))
        request.send_response(DescribeGroupsResponse(throttle_time_ms=0, groups=groups))

    def handle_list_groups(self, request: GroupRequest[ListGroupsRequest]) -> None:
        req, version = request.body, request.api_version
        states = set(req.states_filter or []) if version >= 4 else set()
        types = {t.lower() for t in (req.types_filter or [])} if version >= 5 else set()
        error, groups = self.coordinator.list_groups(states)
        if types and GROUP_TYPE_CLASSIC not in types:
            groups = []
        # Kafka: DESCRIBE on the cluster lists every group, else those the principal may DESCRIBE.
        if not self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
            groups = [g for g in groups if self._group_allowed(request, AclOperation.DESCRIBE, g.group_id)]
        listed = [ListedGroup(group_id=g.group_id, protocol_type=g.protocol_type or "",
                              group_state=g.state.value, group_type=GROUP_TYPE_CLASSIC)
                  for g in sorted(groups, key=lambda g: g.group_id)]
        request.send_response(ListGroupsResponse(throttle_time_ms=0, error_code=error, groups=listed))

    def handle_delete_groups(self, request: GroupRequest[DeleteGroupsRequest]) -> None:
        req = request.body
        deletable = [g for g in req.groups_names if self._group_allowed(request, AclOperation.DELETE, g)]
        results = {g: ErrorCode.GROUP_AUTHORIZATION_FAILED for g in req.groups_names}
        results.update(self.coordinator.delete_groups(deletable) if deletable else {})
        request.send_response(DeleteGroupsResponse(throttle_time_ms=0, results=[
            DeletableGroupResult(group_id=g, error_code=results[g]) for g in req.groups_names]))

