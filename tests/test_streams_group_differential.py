"""StreamsGroupHeartbeat and StreamsGroupDescribe, request for request, on josefk and on
Apache Kafka 4.4.0 (the session's KRaft reference, streams.version=1): malformed requests,
the statuses of a group whose topics are missing, a join once they exist, and describing
groups that are not streams groups. Each step's error code, message and the fields named
are compared; where josefk differs on purpose, KNOWN says why."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.kafka import KRaftBroker
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated import streams_group_heartbeat_request as hb
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.create_topics_request import CreatableTopic, CreateTopicsRequest
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.find_coordinator_request import FindCoordinatorRequest
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from josefk.protocol.messages.generated.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopics,
)
from josefk.protocol.messages.generated.streams_group_describe_request import StreamsGroupDescribeRequest
from tests.conftest import RunningBroker
from tests.differential import SHARED_SETTINGS, Side

pytestmark = [pytest.mark.cluster]

HEARTBEAT, DESCRIBE = ApiKey.StreamsGroupHeartbeat, ApiKey.StreamsGroupDescribe
RUN = f"sgd{os.getpid()}"  # names unique to this run: the Kafka 4.4.0 reference is shared by the session


@pytest.fixture(scope="module")
def sides(kafka44: KRaftBroker) -> Iterator[tuple[Side, Side]]:
    work = Path(tempfile.mkdtemp(prefix="josefk-streams-differential-"))
    josefk = RunningBroker(work / "josefk", SHARED_SETTINGS)
    pair = (Side("josefk", josefk.bootstrap), Side("Kafka 4.4.0", kafka44.bootstrap))
    try:
        yield pair
    finally:
        for side in pair:
            side.close()
        josefk.stop()


def topology(source: str, changelog_partitions: int = 0, regex: bool = False) -> hb.Topology:
    return hb.Topology(epoch=0, subtopologies=[
        hb.Subtopology(subtopology_id="0", source_topics=[] if regex else [source],
                       source_topic_regex=[f"{source}.*"] if regex else [], repartition_sink_topics=[f"{source}-rep"]),
        hb.Subtopology(subtopology_id="1", repartition_source_topics=[hb.TopicInfo(name=f"{source}-rep")],
                       state_changelog_topics=[hb.TopicInfo(
                           name=f"{source}-changelog", partitions=changelog_partitions,
                           topic_configs=[hb.KeyValue(key="cleanup.policy", value="compact")])])])


def join(group: str, member: str = "m1", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"group_id": group, "member_id": member, "member_epoch": 0,
                            "rebalance_timeout_ms": 30000, "process_id": "p1", "topology": topology(f"{group}-in"),
                            "active_tasks": [], "standby_tasks": [], "warmup_tasks": []}
    return {**base, **fields}


def heartbeat(side: Side, **fields: Any) -> Any:
    return side.request(HEARTBEAT, 1, hb.StreamsGroupHeartbeatRequest(**fields))


MISSING_SOURCE_TOPICS = 1
RESPONSE_FIELDS = ("member_id", "member_epoch", "heartbeat_interval_ms", "acceptable_recovery_lag",
                   "task_offset_interval_ms", "endpoint_information_epoch", "status", "active_tasks", "standby_tasks",
                   "warmup_tasks", "partitions_by_user_endpoint")


def outcome(response: Any, *fields: str) -> dict[str, Any]:
    """The compared part of a heartbeat answer."""
    out = {"error_code": response.error_code, "error_message": response.error_message}
    for name in fields:
        value = getattr(response, name)
        if name == "status":
            value = sorted((s.status_code, s.status_detail) for s in value or [])
        elif name.endswith("_tasks"):
            value = None if value is None else sorted((t.subtopology_id, sorted(t.partitions)) for t in value)
        out[name] = value
    return out


CASES: dict[str, Callable[[Side, str], list[dict[str, Any]]]] = {}


def case(fn: Callable[[Side, str], list[dict[str, Any]]]) -> Callable[[Side, str], list[dict[str, Any]]]:
    CASES[fn.__name__] = fn
    return fn


@case
def malformed(side: Side, g: str) -> list[dict[str, Any]]:
    bad = [join(g, member=""), join(g, rebalance_timeout_ms=-1), join(g, topology=None),
           join(g, active_tasks=[hb.TaskIds(subtopology_id="0", partitions=[0])]),
           join(g, member_epoch=1), join(g, topology=topology(f"{g}-in", changelog_partitions=3)),
           join(g, member_epoch=-3, topology=None), join(g, topology=topology(f"{g}-in", regex=True)),
           join(g, instance_id="static-1"), join(g, rack_id="")]
    return [outcome(heartbeat(side, **fields)) for fields in bad]


@case
def unknown_group_and_member(side: Side, g: str) -> list[dict[str, Any]]:
    return [outcome(heartbeat(side, group_id=g, member_id="m1", member_epoch=1)),
            outcome(heartbeat(side, group_id=g, member_id="m1", member_epoch=-1))]


@case
def missing_topics(side: Side, g: str) -> list[dict[str, Any]]:
    first = heartbeat(side, **join(g))
    steps = [outcome(first, *RESPONSE_FIELDS)]
    side.request(ApiKey.CreateTopics, 7, CreateTopicsRequest(topics=[CreatableTopic(
        name=f"{g}-in", num_partitions=2, replication_factor=1)], timeout_ms=30000))
    epoch, seen = first.member_epoch, []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the heartbeat creates the internal topics; then the tasks come
        beat = heartbeat(side, group_id=g, member_id="m1", member_epoch=epoch)
        epoch = beat.member_epoch
        # Kafka's coordinator sees a new topic a moment later than josefk's: not compared.
        seen.append({"status": [x for x in outcome(beat, "status")["status"] if x[0] != MISSING_SOURCE_TOPICS]})
        if beat.active_tasks:
            # How many epochs it took depends on when each broker saw each new topic: not compared.
            steps.append({k: v for k, v in outcome(beat, *RESPONSE_FIELDS).items() if k != "member_epoch"})
            steps.append(outcome(heartbeat(side, group_id=g, member_id="m1", member_epoch=-1), *RESPONSE_FIELDS))
            break
        time.sleep(0.2)
    # The statuses met on the way (each kind once), not how many heartbeats each lasted.
    steps.append({"statuses": sorted({str(s["status"]) for s in seen})})
    d = side.request(DESCRIBE, 1, StreamsGroupDescribeRequest(group_ids=[g])).groups[0]
    subtopologies = d.topology.subtopologies if d.topology is not None else None
    changelogs = None if not subtopologies else [
        (t.name.removeprefix(g), t.partitions) for t in subtopologies[1].state_changelog_topics]
    steps.append({"state": d.group_state, "members": [m.member_id for m in d.members], "changelog": changelogs,
                  "assignor": d.assignor_name, "description": d.topology_description_status,
                  "assignment_is_target": [m.assignment == m.target_assignment for m in d.members],
                  "process": [(m.process_id, m.topology_epoch, m.instance_id, m.rack_id) for m in d.members],
                  "repartition": None if not subtopologies else [
                      (t.name.removeprefix(g), t.partitions, [(c.key, c.value) for c in t.topic_configs])
                      for t in subtopologies[1].repartition_source_topics]})
    return steps


@case
def describe_other_groups(side: Side, g: str) -> list[dict[str, Any]]:
    side.request(ApiKey.ConsumerGroupHeartbeat, 1, ConsumerGroupHeartbeatRequest(
        group_id=f"{g}-cg", member_id="c1abcdefghijklmnopqrst", member_epoch=0, rebalance_timeout_ms=30000,
        subscribed_topic_names=["x"], topic_partitions=[]))
    described = side.request(DESCRIBE, 1, StreamsGroupDescribeRequest(group_ids=[f"{g}-none", f"{g}-cg"]))
    return [{"group_id": d.group_id.removeprefix(g), "error_code": d.error_code, "error_message":
             (d.error_message or "").replace(g, "<g>")} for d in sorted(described.groups, key=lambda d: d.group_id)]


def coordinator_ready(side: Side, group: str) -> None:
    """Until the group's coordinator answers: FindCoordinator (the first creates __consumer_offsets),
    then StreamsGroupDescribe, which Kafka answers NOT_COORDINATOR until the partition is loaded."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = side.request(ApiKey.FindCoordinator, 4, FindCoordinatorRequest(key_type=0, coordinator_keys=[group]))
        if found.coordinators[0].error_code == 0:
            described = side.request(DESCRIBE, 1, StreamsGroupDescribeRequest(group_ids=[group]))
            if described.groups[0].error_code not in (14, 15, 16):  # coordinator loading, not available, not it
                return
        time.sleep(0.2)


@case
def offsets_and_deletion(side: Side, g: str) -> list[dict[str, Any]]:
    """A member's offsets need its epoch; a group with members is not deleted, an Empty one is."""
    side.request(ApiKey.CreateTopics, 7, CreateTopicsRequest(topics=[CreatableTopic(
        name=f"{g}-in", num_partitions=2, replication_factor=1)], timeout_ms=30000))
    epoch = heartbeat(side, **join(g)).member_epoch
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until the internal topics exist and the delay is over
        beat = heartbeat(side, group_id=g, member_id="m1", member_epoch=epoch)
        epoch = beat.member_epoch
        if not beat.status:
            break
        time.sleep(0.2)

    def commit(member: str, member_epoch: int) -> Any:
        response = side.request(ApiKey.OffsetCommit, 9, OffsetCommitRequest(
            group_id=g, member_id=member, generation_id_or_member_epoch=member_epoch,
            topics=[OffsetCommitRequestTopic(name=f"{g}-in", partitions=[
                OffsetCommitRequestPartition(partition_index=0, committed_offset=7)])]))
        return [p.error_code for t in response.topics for p in t.partitions]

    def fetch(member: str | None, member_epoch: int) -> Any:
        response = side.request(ApiKey.OffsetFetch, 9, OffsetFetchRequest(groups=[OffsetFetchRequestGroup(
            group_id=g, member_id=member, member_epoch=member_epoch,
            topics=[OffsetFetchRequestTopics(name=f"{g}-in", partition_indexes=[0])])]))
        group = response.groups[0]
        return group.error_code, [(p.partition_index, p.committed_offset, p.error_code)
                                  for t in group.topics for p in t.partitions]

    def delete() -> Any:
        return [r.error_code for r in side.request(ApiKey.DeleteGroups, 2, DeleteGroupsRequest(
            groups_names=[g])).results]

    def listed() -> Any:
        return [(x.group_type, x.protocol_type, x.group_state) for x in side.request(
            ApiKey.ListGroups, 5, ListGroupsRequest(types_filter=["streams"])).groups if x.group_id == g]

    steps: list[dict[str, Any]] = [
        {"commit": commit("m1", epoch), "stale": commit("m1", epoch + 5), "unknown": commit("m9", epoch),
         "admin": commit("", -1)},
        {"fetch": fetch("m1", epoch), "stale": fetch("m1", epoch + 5), "admin": fetch(None, -1)},
        {"delete": delete(), "listed": listed()}]
    fenced = outcome(heartbeat(side, group_id=g, member_id="m1", member_epoch=epoch + 1))
    # The epoch reached depends on when each broker saw each new topic: the message names it.
    fenced["error_message"] = fenced["error_message"].replace(f"({epoch + 1})", "(<e+1>)").replace(
        f"({epoch})", "(<e>)")
    steps.append({"fenced": fenced,
                  "unknown subtopology": outcome(heartbeat(
                      side, group_id=g, member_id="m1", member_epoch=epoch, active_tasks=[
                          hb.TaskIds(subtopology_id="9", partitions=[0])], standby_tasks=[], warmup_tasks=[]))})
    heartbeat(side, group_id=g, member_id="m1", member_epoch=-1)
    steps.append({"admin": commit("", -1), "fetch": fetch(None, -1), "listed": listed(), "delete": delete(),
                  "after": listed()})
    return steps


# Where josefk answers otherwise on purpose: (case, step) -> why.
KNOWN: dict[tuple[str, int], str] = {
    ("unknown_group_and_member", 0): "a heartbeat for a group josefk does not know answers UNKNOWN_MEMBER_ID, which "
    "has the members of a group lost some other way (deleted, or kept in memory only by a josefk from before streams "
    "groups were written to __consumer_offsets) rejoin, where Kafka answers GROUP_ID_NOT_FOUND",
    ("unknown_group_and_member", 1): "the same for a member leaving a group josefk does not know",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_josefk_answers_streams_group_requests_like_kafka_4_4(sides: tuple[Side, Side], name: str) -> None:
    josefk, kafka = sides
    group = f"{RUN}-{name}"
    for side in sides:
        for suffix in ("", "-none", "-cg"):
            coordinator_ready(side, group + suffix)
    mine, theirs = CASES[name](josefk, group), CASES[name](kafka, group)
    assert len(mine) == len(theirs)
    problems = [f"step {i}: josefk {a} / Kafka 4.4.0 {b}" for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
                if a != b and (name, i) not in KNOWN]
    assert not problems, "\n".join(problems)
