"""Wires KIP-848 consumer groups into a broker: ConsumerGroupHeartbeat (68) and
ConsumerGroupDescribe (69), plus the parts of ListGroups and DeleteGroups that see both
kinds of group (the classic GroupApis answers for its own groups; these handlers add the
consumer groups). OffsetCommit / OffsetFetch reach consumer groups through the classic
coordinator's consumer_groups hook, so GroupApis keeps handling their request shapes.
"""

from __future__ import annotations

from josefk.coordinator.consumer_assignors import Assignment
from josefk.coordinator.consumer_group import ConsumerGroup
from josefk.coordinator.consumer_group_coordinator import (
    ConsumerGroupCoordinator,
    HeartbeatRequest,
    HeartbeatResult,
)
from josefk.coordinator.group_apis import GroupApis
from josefk.coordinator.group_request import GroupHandler, GroupRequest, client_host, group_api
from josefk.coordinator.modern_group_apis import (
    authorized_operations,
    delete_groups_with,
    describe_each,
    group_allowed,
    list_groups_with,
)
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import consumer_group_describe_response as describe
from josefk.protocol.messages.generated import consumer_group_heartbeat_response as heartbeat
from josefk.protocol.messages.generated.consumer_group_describe_request import ConsumerGroupDescribeRequest
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest

GROUP_TYPE_CONSUMER = "consumer"
CONSUMER_PROTOCOL_TYPE = "consumer"
MEMBER_TYPE_CLASSIC = 0  # ConsumerGroupDescribe v1's MemberType
MEMBER_TYPE_CONSUMER = 1


class ConsumerGroupApis:
    def __init__(self, coordinator: ConsumerGroupCoordinator, classic: GroupApis,
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        self.coordinator = coordinator
        self.classic = classic
        self.authorizer = authorizer

    def handlers(self) -> dict[int, GroupHandler]:
        """Added after GroupApis.handlers(): ListGroups and DeleteGroups are replaced by
        versions that cover both kinds of group."""
        return dict([
            group_api(ConsumerGroupHeartbeatRequest, self.handle_consumer_group_heartbeat),
            group_api(ConsumerGroupDescribeRequest, self.handle_consumer_group_describe),
            group_api(ListGroupsRequest, self.handle_list_groups),
            group_api(DeleteGroupsRequest, self.handle_delete_groups),
        ])

    def handle_consumer_group_heartbeat(self, request: GroupRequest[ConsumerGroupHeartbeatRequest]) -> None:
        req = request.body
        if not group_allowed(self.authorizer, request, AclOperation.READ, req.group_id):
            request.send_response(heartbeat.ConsumerGroupHeartbeatResponse(
                error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, error_message=None))
            return
        if req.subscribed_topic_names:
            if not all(self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, t)
                       for t in set(req.subscribed_topic_names)):  # Kafka 4.x: DESCRIBE on every subscribed topic
                request.send_response(heartbeat.ConsumerGroupHeartbeatResponse(
                    error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED))
                return
        owned = None if req.topic_partitions is None else {
            tp.topic_id: frozenset(tp.partitions) for tp in req.topic_partitions}

        def respond(result: HeartbeatResult) -> None:
            assignment = None if result.assignment is None else heartbeat.Assignment(topic_partitions=[
                heartbeat.TopicPartitions(topic_id=t, partitions=sorted(ps))
                for t, ps in sorted(result.assignment.items(), key=lambda kv: str(kv[0]))])
            request.send_response(heartbeat.ConsumerGroupHeartbeatResponse(
                error_code=result.error, error_message=result.message, member_id=result.member_id,
                member_epoch=result.member_epoch, heartbeat_interval_ms=result.heartbeat_interval_ms,
                assignment=assignment))

        self.coordinator.heartbeat(HeartbeatRequest(
            group_id=req.group_id, member_id=req.member_id, member_epoch=req.member_epoch,
            instance_id=req.instance_id, rack_id=req.rack_id, rebalance_timeout_ms=req.rebalance_timeout_ms,
            subscribed_topic_names=None if req.subscribed_topic_names is None else tuple(req.subscribed_topic_names),
            subscribed_topic_regex=req.subscribed_topic_regex if request.api_version >= 1 else None,
            member_id_required=request.api_version >= 1,
            server_assignor=req.server_assignor, owned=owned, client_id=request.header.client_id or "",
            client_host=client_host(request.client_host)), respond)

    def _described_assignment(self, assignment: Assignment) -> describe.Assignment:
        names = {tid: name for name, tid in self.coordinator.topics.topic_ids.items()}
        return describe.Assignment(topic_partitions=[
            describe.TopicPartitions(topic_id=t, topic_name=names.get(t, ""), partitions=sorted(ps))
            for t, ps in sorted(assignment.items(), key=lambda kv: names.get(kv[0], ""))])

    def handle_consumer_group_describe(self, request: GroupRequest[ConsumerGroupDescribeRequest]) -> None:
        req = request.body

        def described(group_id: str, group: ConsumerGroup) -> describe.DescribedGroup:
            members = [describe.Member(
                member_id=m.member_id, instance_id=m.instance_id, rack_id=m.rack_id, member_epoch=m.member_epoch,
                client_id=m.client_id, client_host=m.client_host,
                subscribed_topic_names=list(m.subscribed_topic_names),
                subscribed_topic_regex=m.subscribed_topic_regex or "",
                member_type=MEMBER_TYPE_CLASSIC if m.uses_classic_protocol else MEMBER_TYPE_CONSUMER,
                assignment=self._described_assignment(m.assigned),
                target_assignment=self._described_assignment(group.target.get(m.member_id, {})))
                for m in group.members.values()]
            return describe.DescribedGroup(
                group_id=group_id, group_state=group.state.value, group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch,
                assignor_name=group.preferred_assignor(self.coordinator.config.assignors[0]), members=members,
                authorized_operations=authorized_operations(self.authorizer, request, group_id,
                                                            req.include_authorized_operations))

        groups = describe_each(request, req.group_ids, self.authorizer, self.coordinator.describe, lambda g, e, m: (
            describe.DescribedGroup(group_id=g, error_code=e, error_message=m)), described)
        request.send_response(describe.ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups))

    def handle_list_groups(self, request: GroupRequest[ListGroupsRequest]) -> None:
        list_groups_with(request, self.classic.handle_list_groups, self.authorizer, GROUP_TYPE_CONSUMER,
                         CONSUMER_PROTOCOL_TYPE, self.coordinator.list_groups)

    def handle_delete_groups(self, request: GroupRequest[DeleteGroupsRequest]) -> None:
        delete_groups_with(request, self.classic.handle_delete_groups, self.authorizer,
                           self.coordinator.is_consumer_group, self.coordinator.delete_group)
