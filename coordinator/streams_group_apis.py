"""Wires KIP-1071 streams groups into a broker: StreamsGroupHeartbeat (88),
StreamsGroupDescribe (89) and KIP-1331's StreamsGroupTopologyDescriptionUpdate (93), plus
the parts of the group APIs that see every kind of group (ListGroups, DescribeGroups,
DeleteGroups, and the consumer group APIs, which must not take a streams group's id). Each
of those wraps the handler it replaces and adds or refuses the streams groups. OffsetCommit /
OffsetFetch reach streams groups through the classic coordinator's offsets hook
(StreamsGroupCoordinator takes it over).

Missing internal topics (repartition and changelog topics) are created from the heartbeat,
as Kafka 4.x's KafkaApis does, where the principal may CREATE them.

KIP-1331 topology descriptions are answered as Kafka 4.4 answers them by default, without a
group.streams.topology.description.plugin.class (a JVM class josefk cannot load): a heartbeat
never asks for a description, a push is refused with UNSUPPORTED_VERSION, and a describe that
asks for the description says NOT_STORED.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from josefk.coordinator.group_config import STREAMS_ACCEPTABLE_RECOVERY_LAG, STREAMS_TASK_OFFSET_INTERVAL_MS
from josefk.coordinator.group_request import GroupHandler, GroupRequest, client_host, group_api
from josefk.coordinator.modern_group_apis import (
    answer_of,
    authorized_operations,
    delete_groups_with,
    describe_each,
    group_allowed,
    list_groups_with,
)
from josefk.coordinator.streams_group import StreamsGroup, Tasks
from josefk.coordinator.streams_group_coordinator import (
    StreamsGroupCoordinator,
    StreamsHeartbeatRequest,
    StreamsHeartbeatResult,
)
from josefk.coordinator.streams_topology import MISSING_INTERNAL_TOPICS, Subtopology, TopicInfo, Topology
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer, operations_bits
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated import consumer_group_describe_response as consumer_describe
from josefk.protocol.messages.generated import consumer_group_heartbeat_response as consumer_heartbeat
from josefk.protocol.messages.generated import streams_group_describe_response as describe
from josefk.protocol.messages.generated import streams_group_heartbeat_request as hb_request
from josefk.protocol.messages.generated import streams_group_heartbeat_response as heartbeat
from josefk.protocol.messages.generated import streams_group_topology_description_update_response as update
from josefk.protocol.messages.generated.consumer_group_describe_request import ConsumerGroupDescribeRequest
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.describe_groups_request import DescribeGroupsRequest
from josefk.protocol.messages.generated.describe_groups_response import DescribedGroup, DescribeGroupsResponse
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.streams_group_describe_request import StreamsGroupDescribeRequest
from josefk.protocol.messages.generated.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from josefk.protocol.messages.generated.streams_group_topology_description_update_request import (
    StreamsGroupTopologyDescriptionUpdateRequest,
)

GROUP_TYPE_STREAMS = "streams"
STREAMS_PROTOCOL_TYPE = "streams"
TOPOLOGY_DESCRIPTION_NOT_REQUESTED = 0
TOPOLOGY_DESCRIPTION_NOT_STORED = 1
# GroupCoordinatorService's refusal of a push when no topology description plugin is configured.
NO_DESCRIPTION_PLUGIN = "The broker has no streams group topology description plugin configured."


class InternalTopicCreator(Protocol):
    """Creates topics in the background (the broker's admin client on its store executor)."""

    def create_internal_topics(self, topics: list[TopicInfo]) -> None: ...


def _tasks(ids: list[hb_request.TaskIds] | None) -> dict[str, frozenset[int]]:
    return {t.subtopology_id: frozenset(t.partitions) for t in ids or []}


def _topic_info(t: hb_request.TopicInfo) -> TopicInfo:
    return TopicInfo(t.name, t.partitions, t.replication_factor,
                     tuple((c.key, c.value) for c in t.topic_configs))


def topology_from_request(t: hb_request.Topology) -> Topology:
    return Topology(t.epoch, tuple(Subtopology(
        s.subtopology_id, tuple(s.source_topics), tuple(s.repartition_sink_topics),
        tuple(_topic_info(i) for i in s.state_changelog_topics),
        tuple(_topic_info(i) for i in s.repartition_source_topics),
        tuple((tuple(g.source_topics), tuple(g.repartition_source_topics)) for g in s.copartition_groups))
        for s in t.subtopologies))


def _task_ids(cls: type, tasks: Mapping[str, frozenset[int]]) -> list:
    return [cls(subtopology_id=s, partitions=sorted(tasks[s])) for s in sorted(tasks)]


def _described_topic(t: TopicInfo, partitions: int) -> describe.TopicInfo:
    return describe.TopicInfo(name=t.name, partitions=partitions, replication_factor=t.replication_factor,
                              topic_configs=[describe.KeyValue(key=k, value=v) for k, v in t.configs])


class StreamsGroupApis:
    def __init__(self, coordinator: StreamsGroupCoordinator, previous: Mapping[int, GroupHandler],
                 creator: InternalTopicCreator, authorizer: Authorizer = ALLOW_ALL) -> None:
        self.coordinator = coordinator
        self.previous = previous
        self.creator = creator
        self.authorizer = authorizer

    def handlers(self) -> dict[int, GroupHandler]:
        """Added after the classic and consumer group handlers, some of which it wraps."""
        return dict([
            group_api(StreamsGroupHeartbeatRequest, self.handle_streams_group_heartbeat),
            group_api(StreamsGroupDescribeRequest, self.handle_streams_group_describe),
            group_api(StreamsGroupTopologyDescriptionUpdateRequest, self.handle_topology_description_update),
            group_api(ListGroupsRequest, self.handle_list_groups),
            group_api(DescribeGroupsRequest, self.handle_describe_groups),
            group_api(DeleteGroupsRequest, self.handle_delete_groups),
            group_api(ConsumerGroupHeartbeatRequest, self.handle_consumer_group_heartbeat),
            group_api(ConsumerGroupDescribeRequest, self.handle_consumer_group_describe),
        ])

    # -- StreamsGroupHeartbeat ---------------------------------------------------------------

    def handle_streams_group_heartbeat(self, request: GroupRequest[StreamsGroupHeartbeatRequest]) -> None:
        req = request.body
        if not group_allowed(self.authorizer, request, AclOperation.READ, req.group_id):
            request.send_response(heartbeat.StreamsGroupHeartbeatResponse(
                error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED))
            return
        topology = None if req.topology is None else topology_from_request(req.topology)
        if topology is not None and not all(
                self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, t)
                for t in sorted(topology.topic_names())):
            request.send_response(heartbeat.StreamsGroupHeartbeatResponse(
                error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED))
            return
        owned = None if req.active_tasks is None else Tasks(
            _tasks(req.active_tasks), _tasks(req.standby_tasks), _tasks(req.warmup_tasks))
        uses_regex = req.topology is not None and any(s.source_topic_regex for s in req.topology.subtopologies)
        self.coordinator.heartbeat(StreamsHeartbeatRequest(
            group_id=req.group_id, member_id=req.member_id, member_epoch=req.member_epoch,
            endpoint_information_epoch=req.endpoint_information_epoch, instance_id=req.instance_id,
            rack_id=req.rack_id, rebalance_timeout_ms=req.rebalance_timeout_ms, topology=topology, owned=owned,
            process_id=req.process_id,
            user_endpoint=None if req.user_endpoint is None else (req.user_endpoint.host, req.user_endpoint.port),
            client_tags=None if req.client_tags is None else tuple((kv.key, kv.value) for kv in req.client_tags),
            task_offsets=None if req.task_offsets is None else tuple(
                (o.subtopology_id, o.partition, o.offset) for o in req.task_offsets),
            task_end_offsets=None if req.task_end_offsets is None else tuple(
                (o.subtopology_id, o.partition, o.offset) for o in req.task_end_offsets),
            shutdown_application=req.shutdown_application, client_id=request.header.client_id or "",
            client_host=client_host(request.client_host), uses_regex=uses_regex),
            lambda result: request.send_response(self._heartbeat_response(request, result, req.group_id)))

    def _create_internal_topics(self, request: GroupRequest[ApiMessage], topics: tuple[TopicInfo, ...]) -> list[str]:
        """Create the missing internal topics the principal may create (CREATE on the cluster
        or on the topic, as Kafka's CreateTopics); the names it may not are returned."""
        if self.authorizer.authorize(request, AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME):
            allowed = list(topics)
        else:
            allowed = [t for t in topics
                       if self.authorizer.authorize(request, AclOperation.CREATE, ResourceType.TOPIC, t.name)]
        if allowed:
            self.creator.create_internal_topics(allowed)
        return sorted({t.name for t in topics} - {t.name for t in allowed})

    def _heartbeat_response(self, request: GroupRequest[ApiMessage], result: StreamsHeartbeatResult,
                            group_id: str) -> heartbeat.StreamsGroupHeartbeatResponse:
        if result.error != ErrorCode.NONE:
            return heartbeat.StreamsGroupHeartbeatResponse(error_code=result.error, error_message=result.message)
        if result.member_epoch < 0:  # it left: Kafka answers with the member and its epoch only
            return heartbeat.StreamsGroupHeartbeatResponse(member_id=result.member_id,
                                                           member_epoch=result.member_epoch)
        statuses = [heartbeat.Status(status_code=s.code, status_detail=s.detail) for s in result.statuses]
        if result.to_create:
            refused = self._create_internal_topics(request, result.to_create)
            if refused:
                statuses.append(heartbeat.Status(
                    status_code=MISSING_INTERNAL_TOPICS,
                    status_detail=f"Unauthorized to CREATE on topics {', '.join(refused)}."))
        config = self.coordinator.config
        lag = self.coordinator.group_configs.int_value(group_id, STREAMS_ACCEPTABLE_RECOVERY_LAG,
                                                       config.acceptable_recovery_lag)  # the group's, as Kafka 4.4
        assignment = result.assignment
        endpoints = None if result.endpoints is None else [heartbeat.EndpointToPartitions(
            user_endpoint=heartbeat.Endpoint(host=e.endpoint[0], port=e.endpoint[1]),
            active_partitions=[heartbeat.TopicPartition(topic=t, partitions=list(ps)) for t, ps in e.active.items()],
            standby_partitions=[heartbeat.TopicPartition(topic=t, partitions=list(ps))
                                for t, ps in e.standby.items()]) for e in result.endpoints]
        return heartbeat.StreamsGroupHeartbeatResponse(
            error_code=ErrorCode.NONE, member_id=result.member_id, member_epoch=result.member_epoch,
            heartbeat_interval_ms=result.heartbeat_interval_ms,
            acceptable_recovery_lag_legacy=(min(lag, 2**31 - 1) if request.api_version == 0 else 0),  # v0 only
            acceptable_recovery_lag=lag, task_offset_interval_ms=self.coordinator.group_configs.int_value(
                group_id, STREAMS_TASK_OFFSET_INTERVAL_MS, config.task_offset_interval_ms), status=statuses,
            active_tasks=None if assignment is None else _task_ids(heartbeat.TaskIds, assignment.active),
            standby_tasks=None if assignment is None else _task_ids(heartbeat.TaskIds, assignment.standby),
            warmup_tasks=None if assignment is None else _task_ids(heartbeat.TaskIds, assignment.warmup),
            endpoint_information_epoch=result.endpoint_information_epoch, partitions_by_user_endpoint=endpoints)

    # -- StreamsGroupDescribe ----------------------------------------------------------------

    def _assignment(self, tasks: Tasks) -> describe.Assignment:
        return describe.Assignment(active_tasks=_task_ids(describe.TaskIds, tasks.active),
                                   standby_tasks=_task_ids(describe.TaskIds, tasks.standby),
                                   warmup_tasks=_task_ids(describe.TaskIds, tasks.warmup))

    def handle_streams_group_describe(self, request: GroupRequest[StreamsGroupDescribeRequest]) -> None:
        req = request.body

        def described(group_id: str, group: StreamsGroup) -> describe.DescribedGroup:
            topology = None
            if group.topology is not None:
                configured = group.configured
                ready = configured is not None and configured.ready
                counts = configured.task_counts if configured is not None else {}
                repartition = configured.repartition_partitions if configured is not None else {}
                topology = describe.Topology(epoch=group.topology.epoch, subtopologies=[describe.Subtopology(
                    subtopology_id=s.subtopology_id, source_topics=list(s.source_topics),
                    repartition_sink_topics=list(s.repartition_sink_topics),
                    state_changelog_topics=[_described_topic(t, counts.get(s.subtopology_id, 0))
                                            for t in s.state_changelog_topics],
                    repartition_source_topics=[_described_topic(t, repartition.get(t.name, t.partitions))
                                               for t in s.repartition_source_topics])
                    for s in group.topology.subtopologies] if ready else None)
            members = [describe.Member(
                member_id=m.member_id, member_epoch=m.member_epoch, instance_id=m.instance_id, rack_id=m.rack_id,
                client_id=m.client_id, client_host=m.client_host, topology_epoch=m.topology_epoch,
                process_id=m.process_id,
                user_endpoint=None if m.user_endpoint is None else describe.Endpoint(
                    host=m.user_endpoint[0], port=m.user_endpoint[1]),
                client_tags=[describe.KeyValue(key=k, value=v) for k, v in m.client_tags],
                task_offsets=[describe.TaskOffset(subtopology_id=s, partition=p, offset=o)
                              for s, p, o in m.task_offsets],
                task_end_offsets=[describe.TaskOffset(subtopology_id=s, partition=p, offset=o)
                                  for s, p, o in m.task_end_offsets],
                assignment=self._assignment(m.assigned),
                target_assignment=self._assignment(group.target.get(m.member_id, Tasks())))
                for _, m in sorted(group.members.items())]
            return describe.DescribedGroup(
                group_id=group_id, group_state=group.state.value, group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch, topology=topology, members=members,
                authorized_operations=authorized_operations(self.authorizer, request, group_id,
                                                            req.include_authorized_operations),
                topology_description_status=(TOPOLOGY_DESCRIPTION_NOT_STORED if req.include_topology_description
                                             else TOPOLOGY_DESCRIPTION_NOT_REQUESTED),
                assignor_name="sticky")

        groups = describe_each(request, req.group_ids, self.authorizer, self.coordinator.describe, lambda g, e, m: (
            describe.DescribedGroup(group_id=g, error_code=e, error_message=m)), described)
        request.send_response(describe.StreamsGroupDescribeResponse(throttle_time_ms=0, groups=groups))

    # -- StreamsGroupTopologyDescriptionUpdate ----------------------------------------------

    def handle_topology_description_update(
            self, request: GroupRequest[StreamsGroupTopologyDescriptionUpdateRequest]) -> None:
        """Kafka 4.4 without a description plugin: READ on the group is checked (a push is
        authorized like an offset commit), then every push is refused before the group, its
        member or its coordinator is looked at, as GroupCoordinatorService does."""
        if not group_allowed(self.authorizer, request, AclOperation.READ, request.body.group_id):
            request.send_response(update.StreamsGroupTopologyDescriptionUpdateResponse(
                error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED))
            return
        request.send_response(update.StreamsGroupTopologyDescriptionUpdateResponse(
            error_code=ErrorCode.UNSUPPORTED_VERSION, error_message=NO_DESCRIPTION_PLUGIN))

    # -- the group APIs that see every kind of group -----------------------------------------

    def _previous(self, api_key: int, request: GroupRequest[ApiMessage], body: ApiMessage) -> ApiMessage | None:
        return answer_of(self.previous[api_key], request, body)

    def handle_list_groups(self, request: GroupRequest[ListGroupsRequest]) -> None:
        list_groups_with(request, self.previous[ApiKey.ListGroups], self.authorizer, GROUP_TYPE_STREAMS,
                         STREAMS_PROTOCOL_TYPE, self.coordinator.list_groups)

    def handle_describe_groups(self, request: GroupRequest[DescribeGroupsRequest]) -> None:
        """A streams group is no classic group: v6 says so (GROUP_ID_NOT_FOUND), older
        versions describe it Dead, as Kafka 4.4 answers."""
        req, version = request.body, request.api_version
        mine = [g for g in req.groups if self.coordinator.is_streams_group(g)
                and group_allowed(self.authorizer, request, AclOperation.DESCRIBE, g)]
        others: dict[str, DescribedGroup] = {}
        rest = [g for g in req.groups if g not in mine]
        if rest:
            response = self._previous(ApiKey.DescribeGroups, request, replace(req, groups=rest))
            assert isinstance(response, DescribeGroupsResponse)
            others = {g.group_id: g for g in response.groups}
        for group_id in mine:
            others[group_id] = DescribedGroup(
                error_code=ErrorCode.GROUP_ID_NOT_FOUND if version >= 6 else ErrorCode.NONE,
                error_message=f"Group {group_id} is not a classic group." if version >= 6 else None,
                group_id=group_id, group_state="Dead", protocol_type="", protocol_data="", members=[],
                authorized_operations=operations_bits(None))
        # As Kafka: the groups the principal may not describe first, then the rest in request order.
        ordered = [others[g] for g in dict.fromkeys(req.groups) if g in others]
        request.send_response(DescribeGroupsResponse(throttle_time_ms=0, groups=sorted(
            ordered, key=lambda g: g.error_code != ErrorCode.GROUP_AUTHORIZATION_FAILED)))

    def handle_delete_groups(self, request: GroupRequest[DeleteGroupsRequest]) -> None:
        delete_groups_with(request, self.previous[ApiKey.DeleteGroups], self.authorizer,
                           self.coordinator.is_streams_group, self.coordinator.delete_group)

    def handle_consumer_group_heartbeat(self, request: GroupRequest[ConsumerGroupHeartbeatRequest]) -> None:
        group_id = request.body.group_id
        if self.coordinator.is_streams_group(group_id):
            request.send_response(consumer_heartbeat.ConsumerGroupHeartbeatResponse(
                error_code=ErrorCode.GROUP_ID_NOT_FOUND, error_message=f"Group {group_id} is not a consumer group."))
            return
        self.previous[ApiKey.ConsumerGroupHeartbeat](request)

    def handle_consumer_group_describe(self, request: GroupRequest[ConsumerGroupDescribeRequest]) -> None:
        req = request.body
        mine = [g for g in req.group_ids if self.coordinator.is_streams_group(g)]
        others: dict[str, consumer_describe.DescribedGroup] = {}
        rest = [g for g in req.group_ids if g not in mine]
        if rest:
            response = self._previous(ApiKey.ConsumerGroupDescribe, request, replace(req, group_ids=rest))
            assert isinstance(response, consumer_describe.ConsumerGroupDescribeResponse)
            others = {g.group_id: g for g in response.groups}
        for group_id in mine:
            others[group_id] = consumer_describe.DescribedGroup(
                group_id=group_id, error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                error_message=f"Group {group_id} is not a consumer group.")
        request.send_response(consumer_describe.ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=[
            others[g] for g in dict.fromkeys(req.group_ids) if g in others]))

