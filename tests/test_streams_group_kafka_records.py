"""Records Apache Kafka 4.4.0 writes for a streams group replay in josefk: two members join a
group on the session's Kafka 4.4.0 reference (raw StreamsGroupHeartbeats) and a third joins
and leaves; josefk's loader then replays Kafka's own __consumer_offsets segment files and
must rebuild the group Kafka describes: epochs, topology, members, their tasks, and not the
member that left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from harness.kafka import KRaftBroker
from josefk.coordinator.offsets_store import OFFSETS_TOPIC, LoadedPartition, OffsetsStore, partition_for
from josefk.coordinator.streams_group import StreamsGroup
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import streams_group_heartbeat_request as hb
from josefk.protocol.messages.generated.streams_group_describe_request import StreamsGroupDescribeRequest
from josefk.protocol.record_codec import decode_batch
from josefk.protocol.records import iter_headers
from josefk.utils.time import SYSTEM_TIME
from tests.differential import SHARED_SETTINGS, Side
from tests.test_group_clients import create_topic
from tests.test_streams_group_differential import RUN, coordinator_ready, topology

pytestmark = [pytest.mark.cluster]


def wait(condition: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


class Member:
    """One member's heartbeats: it reports the active tasks it was last given as owned."""

    def __init__(self, side: Side, group: str, member_id: str, process: str) -> None:
        self.side, self.group, self.member_id, self.process = side, group, member_id, process
        self.epoch = 0
        self.active: list[hb.TaskIds] = []

    def beat(self, **fields: Any) -> Any:
        join = self.epoch == 0
        request = hb.StreamsGroupHeartbeatRequest(
            group_id=self.group, member_id=self.member_id, member_epoch=self.epoch,
            rebalance_timeout_ms=30000 if join else -1, process_id=self.process if join else None,
            topology=topology(f"{self.group}-in") if join else None, active_tasks=self.active, standby_tasks=[],
            warmup_tasks=[], **fields)
        response = self.side.request(ApiKey.StreamsGroupHeartbeat, 1, request)
        assert response.error_code == ErrorCode.NONE, response
        self.epoch = response.member_epoch
        if response.active_tasks is not None:
            self.active = [hb.TaskIds(subtopology_id=t.subtopology_id, partitions=t.partitions)
                           for t in response.active_tasks]
        return response


def stable(side: Side, group: str, *members: Member) -> bool:
    """Each member heartbeats once; whether Kafka then describes the group as Stable."""
    for member in members:
        member.beat()
    return bool(describe(side, group).group_state == "Stable")


def describe(side: Side, group: str) -> Any:
    [described] = side.request(ApiKey.StreamsGroupDescribe, 1, StreamsGroupDescribeRequest(group_ids=[group])).groups
    return described


def replay(kafka: KRaftBroker, partition: int) -> LoadedPartition:
    """josefk's load of a partition, over Kafka's segment files of it."""
    loaded = LoadedPartition(SYSTEM_TIME)
    for segment in sorted((kafka.log_dir / f"{OFFSETS_TOPIC}-{partition}").glob("*.log")):
        data = segment.read_bytes()
        OffsetsStore.replay(loaded, [(h, decode_batch(data, h)) for h in iter_headers(data)], partition)
    return loaded


def tasks(ids: list[Any]) -> dict[str, frozenset[int]]:
    return {t.subtopology_id: frozenset(t.partitions) for t in ids if t.partitions}


def test_josefk_replays_the_streams_group_records_kafka_4_4_writes(kafka44: KRaftBroker) -> None:
    side = Side("Kafka 4.4.0", kafka44.bootstrap)
    group = f"{RUN}-kr"
    try:
        create_topic(kafka44.bootstrap, f"{group}-in", 4)
        coordinator_ready(side, group)
        a, b, c = (Member(side, group, m, p) for m, p in (("a", "p1"), ("b", "p2"), ("c", "p3")))
        # Kafka creates the internal topics from the first heartbeat, then assigns after its
        # initial rebalance delay.
        wait(lambda: stable(side, group, a) and sum(len(t.partitions) for t in a.active) == 8,
             "the first member to get all 8 tasks")
        b.beat(user_endpoint=hb.Endpoint(host="localhost", port=8080),
               client_tags=[hb.KeyValue(key="az", value="1")])
        c.beat()
        wait(lambda: stable(side, group, a, b, c), "the three members to reconcile")
        left = side.request(ApiKey.StreamsGroupHeartbeat, 1, hb.StreamsGroupHeartbeatRequest(
            group_id=group, member_id="c", member_epoch=-1))
        assert left.error_code == ErrorCode.NONE
        wait(lambda: stable(side, group, a, b), "the two members left to reconcile")
        kafkas = describe(side, group)

        # Kafka has written the records before answering; its segment files hold them.
        loaded = replay(kafka44, partition_for(group, int(SHARED_SETTINGS["offsets.topic.num.partitions"])))
        stored = loaded.streams_groups[group]
        ours = StreamsGroup(group)
        stored.rebuild(ours)
        assert (ours.group_epoch, ours.assignment_epoch) == (kafkas.group_epoch, kafkas.assignment_epoch)
        assert ours.topology is not None and kafkas.topology is not None
        assert ours.topology.epoch == kafkas.topology.epoch
        assert [(s.subtopology_id, s.source_topics, s.repartition_sink_topics,
                 [t.name for t in s.repartition_source_topics], [t.name for t in s.state_changelog_topics])
                for s in ours.topology.subtopologies] == [
            (s.subtopology_id, tuple(s.source_topics), tuple(s.repartition_sink_topics),
             [t.name for t in s.repartition_source_topics], [t.name for t in s.state_changelog_topics])
            for s in kafkas.topology.subtopologies or []]
        assert sorted(ours.members) == sorted(m.member_id for m in kafkas.members) == ["a", "b"]
        for m in kafkas.members:
            mine = ours.members[m.member_id]
            assert (mine.member_epoch, mine.process_id, mine.client_id, mine.topology_epoch) == (
                m.member_epoch, m.process_id, m.client_id, m.topology_epoch)
            assert dict(mine.assigned.active) == tasks(m.assignment.active_tasks)
            assert dict(ours.target[m.member_id].active) == tasks(m.target_assignment.active_tasks)
            assert set(mine.task_epochs) == {(s, p) for s, ps in mine.assigned.active.items() for p in ps}
        assert ours.members["b"].user_endpoint == ("localhost", 8080)
        assert ours.members["b"].client_tags == (("az", "1"),)
    finally:
        side.close()
