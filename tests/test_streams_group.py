"""KIP-1071 streams groups' state machine under MockTime: topology configuration and
internal topics, epochs, reconciliation of active and standby tasks, the sticky assignor,
timeouts, offsets and the border with classic and consumer groups.

The coordinator runs on the same real ReplicaManager and log as the classic group
timeouts test (tests/test_group_timeouts.py), every timer on a MockScheduler.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from josefk.coordinator.consumer_group_coordinator import ConsumerGroupCoordinator, HeartbeatRequest
from josefk.coordinator.group_metadata import OffsetAndMetadata
from josefk.coordinator.streams_assignor import AssignmentMember, assign
from josefk.coordinator.streams_group import MemberState, StreamsGroup, StreamsGroupState, Tasks, task_list
from josefk.coordinator.streams_group_apis import StreamsGroupApis
from josefk.coordinator.streams_group_coordinator import (
    StreamsGroupConfig,
    StreamsGroupCoordinator,
    StreamsHeartbeatRequest,
    StreamsHeartbeatResult,
)
from josefk.coordinator.streams_topology import (
    ASSIGNMENT_DELAYED,
    INCORRECTLY_PARTITIONED_TOPICS,
    MISSING_INTERNAL_TOPICS,
    MISSING_SOURCE_TOPICS,
    SHUTDOWN_APPLICATION,
    STALE_TOPOLOGY,
    Subtopology,
    TopicInfo,
    Topology,
    configure,
    java_set_order,
)
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import AllowAll
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import streams_group_heartbeat_request as hb
from josefk.protocol.messages.generated import streams_group_topology_description_update_request as update
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.describe_groups_request import DescribeGroupsRequest
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.list_groups_response import ListGroupsResponse
from josefk.protocol.messages.generated.streams_group_describe_request import StreamsGroupDescribeRequest
from josefk.protocol.messages.generated.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from josefk.protocol.messages.generated.streams_group_topology_description_update_request import (
    StreamsGroupTopologyDescriptionUpdateRequest,
)
from tests.test_consumer_group import StubRequest, Topics
from tests.test_group_timeouts import GROUP, Coordinator

SESSION_MS = 45_000
REBALANCE_MS = 30_000

# A word count: subtopology 0 reads `in` and writes the repartition topic, subtopology 1
# reads it and keeps its counts in a changelog.
REPARTITION = "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"
CHANGELOG = "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"
WORD_COUNT = Topology(0, (
    Subtopology("0", source_topics=("in",), repartition_sink_topics=(REPARTITION,)),
    Subtopology("1", repartition_source_topics=(TopicInfo(REPARTITION, 0, 0, (("cleanup.policy", "delete"),)),),
                state_changelog_topics=(TopicInfo(CHANGELOG, 0, 0, (("cleanup.policy", "compact"),)),)),
))


class Harness:
    def __init__(self, tmp_path: Path, standbys: int = 0, initial_delay_ms: int = 0) -> None:
        self.base = Coordinator(tmp_path)
        self.time = self.base.time
        self.topics = Topics()
        self.topics.add("in", uuid.UUID(int=1), 4)
        self.cgc = ConsumerGroupCoordinator(self.base.coordinator, self.topics)
        self.sgc = StreamsGroupCoordinator(self.base.coordinator, self.topics,
                                           StreamsGroupConfig(num_standby_replicas=standbys,
                                                              initial_rebalance_delay_ms=initial_delay_ms))

    def create_internal_topics(self) -> None:
        self.topics.add(REPARTITION, uuid.UUID(int=2), 4)
        self.topics.add(CHANGELOG, uuid.UUID(int=3), 4)

    @property
    def group(self) -> StreamsGroup:
        return self.sgc.groups[GROUP]

    def join(self, member_id: str, process: str | None = None, topology: Topology = WORD_COUNT,
             endpoint: tuple[str, int] | None = None) -> StreamsHeartbeatResult:
        return self.sgc.heartbeat(StreamsHeartbeatRequest(
            GROUP, member_id, 0, rebalance_timeout_ms=REBALANCE_MS, topology=topology, owned=Tasks(),
            process_id=process or f"process-{member_id}", user_endpoint=endpoint))

    def beat(self, member_id: str, epoch: int, owned: Tasks | None = None, **kw: object) -> StreamsHeartbeatResult:
        return self.sgc.heartbeat(StreamsHeartbeatRequest(GROUP, member_id, epoch, owned=owned, **kw))  # type: ignore[arg-type]

    def active_owners(self) -> dict[tuple[str, int], set[str]]:
        """Who may process each task as active now: its assigned plus its pending revocation."""
        out: dict[tuple[str, int], set[str]] = {}
        for m in self.group.members.values():
            for task in task_list(m.assigned.merge(m.pending_revocation).active):
                out.setdefault(task, set()).add(m.member_id)
        return out


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path)
    yield harness
    harness.base.close()


def active(**tasks: tuple[int, ...]) -> Tasks:
    return Tasks({s.lstrip("s"): frozenset(ps) for s, ps in tasks.items()})


ALL = active(s0=(0, 1, 2, 3), s1=(0, 1, 2, 3))


def test_topics_are_listed_in_javas_hash_set_order() -> None:
    # As Kafka 4.4.0 answered these (tests/test_streams_group_differential.py's names).
    assert java_set_order(["sgd4817-missing_topics-in-rep", "sgd4817-missing_topics-in-changelog"]) == [
        "sgd4817-missing_topics-in-rep", "sgd4817-missing_topics-in-changelog"]
    assert java_set_order(["sgd7237-missing_topics-in-rep", "sgd7237-missing_topics-in-changelog"]) == [
        "sgd7237-missing_topics-in-changelog", "sgd7237-missing_topics-in-rep"]
    assert java_set_order(["b", "a", "c"]) == ["a", "b", "c"]  # one-letter strings hash to their code


def test_configure_derives_partitions_and_reports_missing_topics() -> None:
    assert configure(WORD_COUNT, {}).statuses[0].code == MISSING_SOURCE_TOPICS
    missing = configure(WORD_COUNT, {"in": 4})
    assert not missing.ready and missing.statuses[0].code == MISSING_INTERNAL_TOPICS
    assert {t.name: t.partitions for t in missing.to_create} == {REPARTITION: 4, CHANGELOG: 4}
    assert dict(missing.to_create[1].configs) == {"cleanup.policy": "compact"}  # the repartition topic first
    ready = configure(WORD_COUNT, {"in": 4, REPARTITION: 4, CHANGELOG: 4})
    assert ready.ready and dict(ready.task_counts) == {"0": 4, "1": 4} and not ready.statuses
    wrong = configure(WORD_COUNT, {"in": 4, REPARTITION: 4, CHANGELOG: 2})
    assert not wrong.ready and wrong.statuses[0].code == INCORRECTLY_PARTITIONED_TOPICS
    join = Topology(0, (Subtopology("0", source_topics=("a", "b"), copartition_groups=(((0, 1), ()),)),))
    assert configure(join, {"a": 3, "b": 3}).ready
    assert configure(join, {"a": 3, "b": 2}).statuses[0].code == INCORRECTLY_PARTITIONED_TOPICS


def test_the_group_is_not_ready_and_assigns_nothing_until_its_internal_topics_exist(h: Harness) -> None:
    r = h.join("a")
    assert (r.error, r.member_epoch, r.heartbeat_interval_ms) == (ErrorCode.NONE, 2, 5000)
    assert r.assignment == Tasks()
    assert [s.code for s in r.statuses] == [MISSING_INTERNAL_TOPICS]
    assert {t.name for t in r.to_create} == {REPARTITION, CHANGELOG}
    assert h.group.state == StreamsGroupState.NOT_READY
    h.create_internal_topics()
    r = h.beat("a", 2, Tasks())
    assert (r.member_epoch, r.statuses, r.to_create) == (3, (), ())
    assert r.assignment == ALL
    assert h.group.state == StreamsGroupState.STABLE
    assert (h.group.group_epoch, h.group.assignment_epoch) == (3, 3)
    assert h.beat("a", 3, ALL).assignment is None  # nothing changed: not sent


def stable_one(h: Harness) -> None:
    h.create_internal_topics()
    assert h.join("a").assignment == ALL


def test_a_second_member_gets_tasks_only_once_the_first_revoked_them(h: Harness) -> None:
    stable_one(h)
    b = h.join("b")
    assert (b.member_epoch, b.assignment) == (3, Tasks())  # its share is still a's
    assert h.group.members["b"].state == MemberState.UNRELEASED_TASKS
    assert h.group.state == StreamsGroupState.RECONCILING
    a = h.beat("a", 2, ALL)
    assert a.member_epoch == 2 and a.assignment is not None
    kept = a.assignment
    assert sum(len(ps) for ps in kept.active.values()) == 4  # keeps 4 of 8, revokes 4
    assert h.group.members["a"].state == MemberState.UNREVOKED_TASKS
    assert all(len(who) == 1 for who in h.active_owners().values())
    assert h.beat("a", 2, ALL).member_epoch == 2  # still owns the revoked ones: no progress
    assert h.beat("b", 3, Tasks()).assignment is None
    a = h.beat("a", 2, kept)
    assert (a.member_epoch, h.group.members["a"].state) == (3, MemberState.STABLE)
    b = h.beat("b", 3, Tasks())
    assert b.assignment is not None and not b.assignment.overlaps(kept)
    assert kept.merge(b.assignment) == ALL
    assert h.group.state == StreamsGroupState.STABLE
    assert all(len(who) == 1 for who in h.active_owners().values()) and len(h.active_owners()) == 8


def test_a_member_that_stops_heartbeating_is_fenced_and_its_tasks_move(h: Harness) -> None:
    stable_one(h)
    h.join("b")
    h.time.sleep(SESSION_MS - 1)
    h.beat("b", 3, Tasks())
    h.time.sleep(1)  # a's session ends
    assert set(h.group.members) == {"b"}
    assert h.beat("b", 3, Tasks()).assignment == ALL
    assert h.group.state == StreamsGroupState.STABLE
    h.time.sleep(SESSION_MS)
    assert h.group.state == StreamsGroupState.EMPTY and not h.group.members


def test_a_member_that_does_not_revoke_within_the_rebalance_timeout_is_fenced(h: Harness) -> None:
    stable_one(h)
    h.join("b")
    h.beat("a", 2, ALL)
    assert h.group.members["a"].state == MemberState.UNREVOKED_TASKS
    h.time.sleep(REBALANCE_MS - 1)
    h.beat("a", 2, ALL)
    h.beat("b", 3, Tasks())
    h.time.sleep(1)
    assert "a" not in h.group.members
    assert h.beat("a", 2, ALL).error == ErrorCode.UNKNOWN_MEMBER_ID


def test_fencing_by_member_epoch_and_leaving(h: Harness) -> None:
    stable_one(h)
    assert h.beat("a", 3, ALL).error == ErrorCode.FENCED_MEMBER_EPOCH
    assert h.beat("nobody", 1).error == ErrorCode.UNKNOWN_MEMBER_ID
    h.join("b")
    left = h.beat("a", -1)
    assert (left.error, left.member_epoch) == (ErrorCode.NONE, -1)
    assert h.group.group_epoch == 4
    assert h.beat("b", 3, Tasks()).assignment == ALL


def test_the_topology_is_the_first_members_and_cannot_be_updated(h: Harness) -> None:
    stable_one(h)
    newer = Topology(1, WORD_COUNT.subtopologies[:1])
    r = h.join("b", topology=newer)
    assert (r.error, r.message) == (ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
    assert h.join("b", topology=Topology(1, WORD_COUNT.subtopologies)).error == ErrorCode.INVALID_REQUEST
    h.beat("a", -1)
    assert h.join("c", topology=newer).error == ErrorCode.INVALID_REQUEST  # kept while the group lives
    stale = h.join("d", topology=Topology(-1, ()))
    assert (stale.error, [s.code for s in stale.statuses]) == (ErrorCode.NONE, [STALE_TOPOLOGY])
    assert stale.statuses[0].detail == "The member's topology epoch -1 is behind the group's topology epoch 0."


def test_owned_tasks_must_be_the_topologys(h: Harness) -> None:
    stable_one(h)
    r = h.beat("a", 2, active(s0=(0,), s7=(1,)))
    assert (r.error, r.message) == (ErrorCode.INVALID_REQUEST, "Subtopology 7 does not exist in the topology.")
    r = h.beat("a", 2, active(s1=(4,)))
    assert (r.error, r.message) == (ErrorCode.INVALID_REQUEST,
                                    "Task 4 for subtopology 1 is invalid. Number of tasks for this subtopology: 4")
    assert h.group.members["a"].assigned == ALL  # nothing changed


def test_malformed_heartbeats(h: Harness) -> None:
    def error(req: StreamsHeartbeatRequest) -> tuple[ErrorCode, str | None]:
        r = h.sgc.heartbeat(req)
        return r.error, r.message

    assert error(StreamsHeartbeatRequest(GROUP, "", 0, rebalance_timeout_ms=1, topology=WORD_COUNT)) == (
        ErrorCode.INVALID_REQUEST, "MemberId can't be empty.")
    assert error(StreamsHeartbeatRequest(GROUP, "a", 0, topology=WORD_COUNT)) == (
        ErrorCode.INVALID_REQUEST, "RebalanceTimeoutMs must be provided in first request.")
    assert error(StreamsHeartbeatRequest(GROUP, "a", 0, rebalance_timeout_ms=1)) == (
        ErrorCode.INVALID_REQUEST, "Topology must be non-null when (re-)joining.")
    assert error(StreamsHeartbeatRequest(GROUP, "a", 0, rebalance_timeout_ms=1, topology=WORD_COUNT,
                                         owned=ALL)) == (
        ErrorCode.INVALID_REQUEST, "ActiveTasks must be empty when (re-)joining.")
    assert error(StreamsHeartbeatRequest(GROUP, "a", 1, topology=WORD_COUNT)) == (
        ErrorCode.INVALID_REQUEST, "Topology can only be provided when (re-)joining.")
    bad = Topology(0, (Subtopology("0", ("in",), state_changelog_topics=(TopicInfo("c", 3),)),))
    assert error(StreamsHeartbeatRequest(GROUP, "a", 0, rebalance_timeout_ms=1, topology=bad))[0] == (
        ErrorCode.STREAMS_INVALID_TOPOLOGY)
    assert error(StreamsHeartbeatRequest(GROUP, "a", -3))[0] == ErrorCode.INVALID_REQUEST
    assert GROUP not in h.sgc.groups


def test_standby_tasks_go_to_another_process_and_never_beside_the_active_copy(tmp_path: Path) -> None:
    h = Harness(tmp_path, standbys=1)
    try:
        stable_one(h)
        b = h.join("b")
        a_target, b_target = h.group.target["a"], h.group.target["b"]
        # Standbys of the stateful subtopology only (1, with the changelog), on the other process.
        assert set(task_list(a_target.standby)) == {t for t in task_list(b_target.active) if t[0] == "1"}
        assert set(task_list(b_target.standby)) == {t for t in task_list(a_target.active) if t[0] == "1"}
        # b may hold standbys of a's kept tasks at once, but no active task a still has.
        assert b.assignment == Tasks(standby=b_target.standby)
        a = h.beat("a", 2, ALL)
        assert a.assignment == Tasks(a_target.active)  # revoke first, standbys later
        kept = a.assignment
        a = h.beat("a", 2, kept)
        # Revoked, but its process held them as active until this heartbeat: standbys next time.
        assert (a.member_epoch, a.assignment) == (3, None)  # the same tasks, at the new epoch
        assert h.group.members["a"].state == MemberState.UNRELEASED_TASKS
        assert h.beat("a", 3, kept).assignment == a_target
        assert h.beat("b", 3, b.assignment).assignment == b_target
        assert h.group.state == StreamsGroupState.STABLE
        for m in h.group.members.values():
            assert not set(task_list(m.assigned.active)) & set(task_list(m.assigned.standby))
    finally:
        h.base.close()


def test_the_sticky_assignor_balances_and_keeps_tasks() -> None:
    counts = {"0": 5, "1": 2}
    first = assign({m: AssignmentMember(m, Tasks()) for m in ("a", "b", "c")}, counts, 0)
    sizes = sorted(sum(len(ps) for ps in t.active.values()) for t in first.values())
    assert sizes == [2, 2, 3]
    assert set().union(*(set(task_list(t.active)) for t in first.values())) == {
        (s, p) for s, n in counts.items() for p in range(n)}
    again = assign({m: AssignmentMember(m, first[m]) for m in ("a", "b", "c")}, counts, 0)
    assert again == first
    grown = assign({m: AssignmentMember(m, first.get(m, Tasks())) for m in ("a", "b", "c", "d")}, counts, 0)
    moved = sum(len(set(task_list(first[m].active)) - set(task_list(grown[m].active))) for m in first)
    assert moved == 1  # 7 tasks over 4 members: one task moves to the newcomer... and no more
    assert sorted(sum(len(ps) for ps in t.active.values()) for t in grown.values()) == [1, 2, 2, 2]


def test_endpoints_and_the_shutdown_request_reach_every_member(h: Harness) -> None:
    h.create_internal_topics()
    r = h.join("a", endpoint=("host-a", 7070))
    assert r.endpoints is not None and len(r.endpoints) == 1
    e = r.endpoints[0]
    assert e.endpoint == ("host-a", 7070)
    assert dict(e.active) == {"in": (0, 1, 2, 3), REPARTITION: (0, 1, 2, 3)}
    # A group's first heartbeat answers endpoint epoch 0, as Kafka's (not yet written): the
    # member is sent the endpoints once more, then not while the epoch stands.
    assert r.endpoint_information_epoch == 0
    again = h.beat("a", 2, endpoint_information_epoch=0)
    assert again.endpoints == r.endpoints and again.endpoint_information_epoch == 1
    assert h.beat("a", 2, endpoint_information_epoch=1).endpoints is None
    h.beat("a", 2, shutdown_application=True)
    assert [(s.code, s.detail) for s in h.beat("a", 2).statuses] == [(SHUTDOWN_APPLICATION, (
        "Streams group member a encountered a fatal error and requested a shutdown for the entire application."))]


def test_offsets_need_the_current_member_epoch(h: Harness) -> None:
    stable_one(h)
    got: list[dict[tuple[str, int], ErrorCode]] = []
    om = OffsetAndMetadata(5, -1, "", 0)
    h.base.coordinator.commit_offsets(GROUP, "a", None, 0, {("in", 0): om}, got.append)
    assert got[-1] == {("in", 0): ErrorCode.STALE_MEMBER_EPOCH}
    h.base.coordinator.commit_offsets(GROUP, "x", None, 2, {("in", 0): om}, got.append)
    assert got[-1] == {("in", 0): ErrorCode.UNKNOWN_MEMBER_ID}
    h.base.coordinator.commit_offsets(GROUP, "a", None, 2, {("in", 0): om}, got.append)
    assert got[-1] == {("in", 0): ErrorCode.NONE}
    error, offsets = h.base.coordinator.fetch_offsets(GROUP, [("in", 0)], ("a", 2))
    assert error == ErrorCode.NONE and offsets[("in", 0)] is not None and offsets[("in", 0)].offset == 5
    assert h.base.coordinator.fetch_offsets(GROUP, [("in", 0)], ("a", 7))[0] == ErrorCode.STALE_MEMBER_EPOCH


def test_streams_consumer_and_classic_groups_do_not_share_a_group_id(h: Harness) -> None:
    stable_one(h)
    consumer = h.cgc.heartbeat
    assert h.base.coordinator.join_guard(GROUP) == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    got: list[object] = []
    consumer(HeartbeatRequest("cg", "c", 0, rebalance_timeout_ms=1, subscribed_topic_names=("in",)), got.append)
    r = h.sgc.heartbeat(StreamsHeartbeatRequest("cg", "s", 0, rebalance_timeout_ms=1, topology=WORD_COUNT))
    assert (r.error, r.message) == (ErrorCode.GROUP_ID_NOT_FOUND, "Group cg is not a streams group.")
    # An Empty streams group becomes classic at a JoinGroup, its offsets kept.
    h.beat("a", -1)
    assert h.base.coordinator.join_guard(GROUP) == ErrorCode.NONE
    assert GROUP not in h.sgc.groups and GROUP in h.base.coordinator.groups


class NoCreate(AllowAll):
    """May not CREATE the changelog topic (nor on the cluster)."""

    def authorize(self, request: object, operation: AclOperation, resource_type: ResourceType, name: str,
                  log_if_denied: bool = True) -> bool:
        return not (operation == AclOperation.CREATE and (resource_type == ResourceType.CLUSTER or name == CHANGELOG))


@dataclass
class Created:
    topics: list[TopicInfo] = field(default_factory=list)

    def create_internal_topics(self, topics: list[TopicInfo]) -> None:
        self.topics.extend(topics)


def wire_join(apis: StreamsGroupApis, member_id: str) -> Any:
    request = StubRequest(StreamsGroupHeartbeatRequest(
        group_id=GROUP, member_id=member_id, member_epoch=0, rebalance_timeout_ms=REBALANCE_MS, process_id="p",
        topology=hb.Topology(epoch=0, subtopologies=[
            hb.Subtopology(subtopology_id="0", source_topics=["in"], repartition_sink_topics=[REPARTITION]),
            hb.Subtopology(subtopology_id="1", repartition_source_topics=[hb.TopicInfo(name=REPARTITION)],
                           state_changelog_topics=[hb.TopicInfo(name=CHANGELOG)])]),
        active_tasks=[], standby_tasks=[], warmup_tasks=[]))
    apis.handle_streams_group_heartbeat(request)
    return request.responses[0]


def test_the_heartbeat_creates_the_internal_topics_the_principal_may_create(h: Harness) -> None:
    created = Created()
    apis = StreamsGroupApis(h.sgc, {}, created, NoCreate())
    r = wire_join(apis, "a")
    assert (r.error_code, r.member_epoch, r.active_tasks) == (ErrorCode.NONE, 2, [])
    assert [t.name for t in created.topics] == [REPARTITION]  # with the partitions the topology needs
    assert created.topics[0].partitions == 4
    missing = ", ".join(java_set_order([REPARTITION, CHANGELOG]))
    assert [(s.status_code, s.status_detail) for s in r.status] == [
        (MISSING_INTERNAL_TOPICS, f"Internal topics are missing: {missing}"),
        (MISSING_INTERNAL_TOPICS, f"Unauthorized to CREATE on topics {CHANGELOG}.")]


def test_the_group_apis_see_streams_groups_as_kafka_4_4_does(h: Harness) -> None:
    stable_one(h)
    previous: dict[int, Any] = {
        ApiKey.ListGroups: lambda req: req.send_response(ListGroupsResponse(groups=[])),
        ApiKey.ConsumerGroupHeartbeat: lambda req: req.send_response("consumer heartbeat handled"),
    }
    apis = StreamsGroupApis(h.sgc, previous, Created())
    listed = StubRequest(ListGroupsRequest(types_filter=["streams"]), api_version=5)
    apis.handle_list_groups(listed)
    assert [(g.group_id, g.group_type, g.protocol_type, g.group_state) for g in listed.responses[0].groups] == [
        (GROUP, "streams", "streams", "Stable")]
    for version, error in ((5, ErrorCode.NONE), (6, ErrorCode.GROUP_ID_NOT_FOUND)):
        described = StubRequest(DescribeGroupsRequest(groups=[GROUP]), api_version=version)
        apis.handle_describe_groups(described)
        g = described.responses[0].groups[0]
        assert (g.error_code, g.group_state) == (error, "Dead")
    beat = StubRequest(ConsumerGroupHeartbeatRequest(group_id=GROUP, member_id="c", member_epoch=0))
    apis.handle_consumer_group_heartbeat(beat)
    assert (beat.responses[0].error_code, beat.responses[0].error_message) == (
        ErrorCode.GROUP_ID_NOT_FOUND, f"Group {GROUP} is not a consumer group.")
    described = StubRequest(StreamsGroupDescribeRequest(group_ids=[GROUP, "nope"]))
    apis.handle_streams_group_describe(described)
    ours, missing = described.responses[0].groups
    assert (ours.group_state, ours.group_epoch, ours.assignment_epoch, ours.assignor_name) == ("Stable", 2, 2, "sticky")
    assert ours.topology is not None and ours.topology.subtopologies is not None
    assert [t.partitions for t in ours.topology.subtopologies[1].state_changelog_topics] == [4]
    assert [m.member_id for m in ours.members] == ["a"]
    assert (missing.error_code, missing.error_message) == (ErrorCode.GROUP_ID_NOT_FOUND, "Group nope not found.")


class NoGroupRead(AllowAll):
    def authorize(self, request: object, operation: AclOperation, resource_type: ResourceType, name: str,
                  log_if_denied: bool = True) -> bool:
        return not (resource_type == ResourceType.GROUP and operation == AclOperation.READ)


def test_topology_descriptions_are_answered_as_kafka_4_4_without_a_description_plugin(h: Harness) -> None:
    """KIP-1331 with Kafka's default (no group.streams.topology.description.plugin.class): no
    heartbeat asks for the description, every push is refused (READ on the group checked first),
    and a describe that asks for it says NOT_STORED (1), one that does not NOT_REQUESTED (0)."""
    apis = StreamsGroupApis(h.sgc, {}, Created())
    assert ApiKey.StreamsGroupTopologyDescriptionUpdate in apis.handlers()
    joined = wire_join(apis, "a")
    assert (joined.error_code, joined.topology_description_required) == (ErrorCode.NONE, False)

    def push(on: StreamsGroupApis, member_id: str) -> Any:
        request = StubRequest(StreamsGroupTopologyDescriptionUpdateRequest(
            group_id=GROUP, member_id=member_id, topology_epoch=0, topology_description=update.TopologyDescription(
                subtopologies=[update.TopologyDescriptionSubtopology(subtopology_id="0", nodes=[
                    update.TopologyDescriptionNode(name="KSTREAM-SOURCE-0000000000", node_type=1,
                                                   source_topics=["in"])])], global_stores=[])), api_version=0)
        on.handle_topology_description_update(request)
        return request.responses[0].error_code, request.responses[0].error_message

    refused = (ErrorCode.UNSUPPORTED_VERSION, "The broker has no streams group topology description plugin configured.")
    assert push(apis, "a") == push(apis, "unknown") == refused
    assert push(StreamsGroupApis(h.sgc, {}, Created(), NoGroupRead()), "a") == (
        ErrorCode.GROUP_AUTHORIZATION_FAILED, None)
    for include, status in ((False, 0), (True, 1)):
        described = StubRequest(StreamsGroupDescribeRequest(group_ids=[GROUP], include_topology_description=include))
        apis.handle_streams_group_describe(described)
        group = described.responses[0].groups[0]
        assert (group.error_code, group.topology_description_status, group.topology_description) == (
            ErrorCode.NONE, status, None)


def test_a_new_groups_first_assignment_waits_for_the_initial_rebalance_delay(tmp_path: Path) -> None:
    h = Harness(tmp_path, initial_delay_ms=3_000)
    try:
        h.create_internal_topics()
        a = h.join("a")
        delayed = [(ASSIGNMENT_DELAYED, "Assignment delayed due to the configured initial rebalance delay.")]
        assert (a.member_epoch, a.assignment, [(s.code, s.detail) for s in a.statuses]) == (1, Tasks(), delayed)
        assert h.group.state == StreamsGroupState.ASSIGNING
        h.time.sleep(1_000)
        b = h.join("b")
        assert (b.member_epoch, b.assignment, [(s.code, s.detail) for s in b.statuses]) == (1, Tasks(), delayed)
        h.time.sleep(2_000)  # the delay ends: one assignment for both
        a, b = h.beat("a", 1, Tasks()), h.beat("b", 1, Tasks())
        assert (a.statuses, b.statuses) == ((), ())
        assert a.assignment is not None and b.assignment is not None
        assert a.assignment.merge(b.assignment) == ALL and not a.assignment.overlaps(b.assignment)
        assert (h.group.group_epoch, h.group.assignment_epoch) == (3, 3)
    finally:
        h.base.close()
