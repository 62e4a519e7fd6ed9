"""Wires KIP-932 share group membership into a broker: ShareGroupHeartbeat (76) and
ShareGroupDescribe (77), plus the share groups' part of ListGroups, DescribeGroups and
DeleteGroups (the handlers already there answer for the other kinds of group; these add or
correct the share groups' entries, as the consumer groups' handlers do for the classic ones).
"""

from __future__ import annotations

from dataclasses import replace

from josefk.coordinator.consumer_assignors import Assignment
from josefk.coordinator.group_request import GroupHandler, GroupRequest, client_host, group_api
from josefk.coordinator.modern_group_apis import (
    answer_of,
    authorized_operations,
    delete_groups_with,
    describe_each,
    group_allowed,
    list_groups_with,
)
from josefk.coordinator.share_assignor import SIMPLE_ASSIGNOR
from josefk.coordinator.share_group import ShareGroup
from josefk.coordinator.share_group_coordinator import (
    GROUP_TYPE_SHARE,
    ShareGroupCoordinator,
    ShareHeartbeatRequest,
    ShareHeartbeatResult,
)
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import share_group_describe_response as describe
from josefk.protocol.messages.generated import share_group_heartbeat_response as heartbeat
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.describe_groups_request import DescribeGroupsRequest
from josefk.protocol.messages.generated.describe_groups_response import DescribeGroupsResponse
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.share_group_describe_request import ShareGroupDescribeRequest
from josefk.protocol.messages.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest

SHARE_PROTOCOL_TYPE = "share"


class ShareGroupApis:
    def __init__(self, coordinator: ShareGroupCoordinator, inner: dict[int, GroupHandler],
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        """`inner` has the ListGroups, DescribeGroups and DeleteGroups handlers of the other
        kinds of group, which these wrap."""
        self.coordinator = coordinator
        self.inner = inner
        self.authorizer = authorizer

    def handlers(self) -> dict[int, GroupHandler]:
        return dict([
            group_api(ShareGroupHeartbeatRequest, self.handle_share_group_heartbeat),
            group_api(ShareGroupDescribeRequest, self.handle_share_group_describe),
            group_api(ListGroupsRequest, self.handle_list_groups),
            group_api(DescribeGroupsRequest, self.handle_describe_groups),
            group_api(DeleteGroupsRequest, self.handle_delete_groups),
        ])

    def handle_share_group_heartbeat(self, request: GroupRequest[ShareGroupHeartbeatRequest]) -> None:
        req = request.body
        if not group_allowed(self.authorizer, request, AclOperation.READ, req.group_id):
            request.send_response(heartbeat.ShareGroupHeartbeatResponse(
                error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED))
            return
        if not req.member_id:  # Kafka 4.4's KafkaApis refuses it before the coordinator, without a message
            request.send_response(heartbeat.ShareGroupHeartbeatResponse(error_code=ErrorCode.INVALID_REQUEST))
            return
        if req.subscribed_topic_names and not all(
                self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, t)
                for t in set(req.subscribed_topic_names)):
            request.send_response(heartbeat.ShareGroupHeartbeatResponse(
                error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED))
            return

        def respond(result: ShareHeartbeatResult) -> None:
            assignment = None if result.assignment is None else heartbeat.Assignment(topic_partitions=[
                heartbeat.TopicPartitions(topic_id=t, partitions=sorted(ps))
                for t, ps in sorted(result.assignment.items(), key=lambda kv: str(kv[0]))])
            request.send_response(heartbeat.ShareGroupHeartbeatResponse(
                error_code=result.error, error_message=result.message, member_id=result.member_id,
                member_epoch=result.member_epoch, heartbeat_interval_ms=result.heartbeat_interval_ms,
                assignment=assignment))

        self.coordinator.heartbeat(ShareHeartbeatRequest(
            group_id=req.group_id, member_id=req.member_id, member_epoch=req.member_epoch, rack_id=req.rack_id,
            subscribed_topic_names=None if req.subscribed_topic_names is None else tuple(req.subscribed_topic_names),
            client_id=request.header.client_id or "", client_host=client_host(request.client_host)), respond)

    def _described_assignment(self, assignment: Assignment) -> describe.Assignment:
        names = {tid: name for name, tid in self.coordinator.topics.topic_ids.items()}
        return describe.Assignment(topic_partitions=[
            describe.TopicPartitions(topic_id=t, topic_name=names.get(t, ""), partitions=sorted(ps))
            for t, ps in sorted(assignment.items(), key=lambda kv: names.get(kv[0], ""))])

    def handle_share_group_describe(self, request: GroupRequest[ShareGroupDescribeRequest]) -> None:
        req = request.body

        def described(group_id: str, group: ShareGroup) -> describe.DescribedGroup:
            members = [describe.Member(
                member_id=m.member_id, rack_id=m.rack_id, member_epoch=m.member_epoch, client_id=m.client_id,
                client_host=m.client_host, subscribed_topic_names=list(m.subscribed_topic_names),
                assignment=self._described_assignment(m.assigned))
                for m in group.members.values()]
            return describe.DescribedGroup(
                group_id=group_id, group_state=group.state.value, group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch, assignor_name=SIMPLE_ASSIGNOR, members=members,
                authorized_operations=authorized_operations(self.authorizer, request, group_id,
                                                            req.include_authorized_operations))

        groups = describe_each(request, req.group_ids, self.authorizer, self.coordinator.describe, lambda g, e, m: (
            describe.DescribedGroup(group_id=g, error_code=e, error_message=m)), described)
        request.send_response(describe.ShareGroupDescribeResponse(throttle_time_ms=0, groups=groups))

    def handle_list_groups(self, request: GroupRequest[ListGroupsRequest]) -> None:
        list_groups_with(request, self.inner[ApiKey.ListGroups], self.authorizer, GROUP_TYPE_SHARE,
                         SHARE_PROTOCOL_TYPE, self.coordinator.list_groups)

    def handle_describe_groups(self, request: GroupRequest[DescribeGroupsRequest]) -> None:
        """Kafka 4.x's DescribeGroups for a share group's id: v6+ says it is not a classic
        group; older versions, which cannot, answer it Dead with no error, as for any id
        without a classic group."""
        answer = answer_of(self.inner[ApiKey.DescribeGroups], request, request.body)
        assert isinstance(answer, DescribeGroupsResponse)
        if request.api_version >= 6:
            answer = replace(answer, groups=[
                replace(g, error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                        error_message=f"Group {g.group_id} is not a classic group.", group_state="Dead")
                if g.error_code == ErrorCode.NONE and self.coordinator.is_share_group(g.group_id) else g
                for g in answer.groups])
        request.send_response(answer)

    def handle_delete_groups(self, request: GroupRequest[DeleteGroupsRequest]) -> None:
        """The share groups' share state is deleted first (Kafka: DeleteShareGroupState at the
        share coordinators); a group whose state could not be deleted answers that error."""
        deletable = [g for g in request.body.groups_names
                     if self.coordinator.is_share_group(g) and group_allowed(self.authorizer, request,
                                                                             AclOperation.DELETE, g)]

        def states_deleted(failed: dict[str, ErrorCode]) -> None:
            delete_groups_with(request, self.inner[ApiKey.DeleteGroups], self.authorizer,
                               self.coordinator.is_share_group,
                               lambda group_id: failed.get(group_id) or self.coordinator.delete_group(group_id))

        self.coordinator.delete_states(deletable, states_deleted)
