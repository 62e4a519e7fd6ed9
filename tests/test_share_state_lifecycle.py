"""The group coordinator drives the share state's life, as Kafka 4.4's does, in a
three-broker josefk cluster (ZooKeeper) where the group's coordinator and the share
coordinators keeping its partitions' state are, for some partitions, different brokers (so
InitializeShareGroupState and DeleteShareGroupState go over the wire): a share group's first
heartbeat has the subscribed partitions' state initialized (state epoch the group epoch, no
start offset yet) before they are assigned, and DeleteGroups deletes that state;
DescribeShareGroupOffsets reads the share coordinators' summaries; and a share partition
leader whose state an admin changed through another broker reads it again once fenced."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic

from harness.wire import call, connect
from josefk.coordinator.share_state_store import kafka_uuid_string
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated import alter_share_group_offsets_request as alter_request
from josefk.protocol.messages.generated import describe_share_group_offsets_request as describe_request
from josefk.protocol.messages.generated import read_share_group_state_summary_request as summary_request
from josefk.protocol.messages.generated import share_fetch_request as fetch_request
from josefk.zk.zk_data import decode_topic_id
from tests.test_cluster import Cluster
from tests.test_share_failover import share_coordinator_found

pytestmark = pytest.mark.cluster

STATE_PARTITIONS = 3
TOPIC, GROUP, PARTITIONS = "lifecycle", "lifecycle-group", 4
SETTINGS = {"share.coordinator.state.topic.num.partitions": str(STATE_PARTITIONS), "offsets.topic.num.partitions": "3"}


@pytest.fixture
def cluster(zookeeper, tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(zookeeper, tmp_path, SETTINGS)
    yield running
    running.stop()


def coordinator(cluster: Cluster, key_type: int, key: str) -> int | None:
    """The broker FindCoordinator names for `key` (None while there is none)."""
    with connect(cluster.bootstrap.split(",")[0]) as sock:
        _cid, found = call(sock, ApiKey.FindCoordinator, 6, key_type=key_type, coordinator_keys=[key])
    [answer] = found.coordinators
    return answer.node_id if answer.error_code == ErrorCode.NONE else None


def ask(cluster: Cluster, broker: int, api: ApiKey, version: int, **fields: Any) -> Any:
    with connect(cluster.brokers[broker].bootstrap) as sock:
        return call(sock, api, version, **fields)[1]


def summary(cluster: Cluster, topic_id: uuid.UUID, partition: int) -> Any:
    """ReadShareGroupStateSummary at the share coordinator of the group's partition."""
    key = f"{GROUP}:{kafka_uuid_string(topic_id)}:{partition}"
    broker = coordinator(cluster, 2, key)
    assert broker is not None
    answer = ask(cluster, broker, ApiKey.ReadShareGroupStateSummary, 1, group_id=GROUP, topics=[
        summary_request.ReadStateSummaryData(topic_id=topic_id, partitions=[
            summary_request.PartitionData(partition=partition)])])
    return answer.results[0].partitions[0]


def topic_and_coordinator(cluster: Cluster, group: str) -> tuple[uuid.UUID, int]:
    """The test topic created, the share state topic and `group`'s coordinator found: the
    topic's id and the group coordinator's broker id."""
    cluster.create_topic(NewTopic(TOPIC, PARTITIONS, 3))
    cluster.wait_for(lambda: share_coordinator_found(cluster), "__share_group_state and its leaders", timeout=60)
    cluster.wait_for(lambda: coordinator(cluster, 0, group) is not None, "the group's coordinator", timeout=60)
    data, _ = cluster.kazoo.get(f"/brokers/topics/{TOPIC}")
    group_coordinator = coordinator(cluster, 0, group)
    assert group_coordinator is not None
    return decode_topic_id(json.loads(data)["topic_id"]), group_coordinator


def heartbeat(cluster: Cluster, broker: int, member: str, epoch: int, topics: list[str] | None = None) -> Any:
    return ask(cluster, broker, ApiKey.ShareGroupHeartbeat, 1, group_id=GROUP, member_id=member,
               member_epoch=epoch, rack_id=None, subscribed_topic_names=topics)


def test_the_group_coordinator_initializes_and_deletes_the_share_state(cluster: Cluster) -> None:
    topic_id, group_coordinator = topic_and_coordinator(cluster, GROUP)
    others = {coordinator(cluster, 2, f"{GROUP}:{kafka_uuid_string(topic_id)}:{p}") for p in range(PARTITIONS)}
    assert others - {group_coordinator}, "some partition's state kept by another broker than the group's"
    assert [summary(cluster, topic_id, p).state_epoch for p in range(PARTITIONS)] == [0] * PARTITIONS

    member = str(uuid.uuid4())
    first = heartbeat(cluster, group_coordinator, member, 0, [TOPIC])
    assert (first.error_code, first.member_epoch, first.assignment.topic_partitions) == (ErrorCode.NONE, 2, [])
    # initialized at the share coordinators: the group epoch as state epoch, no start offset yet
    cluster.wait_for(lambda: all(summary(cluster, topic_id, p).state_epoch == 2 for p in range(PARTITIONS)),
                     "every partition's share state initialized", timeout=60)
    assert {(s.error_code, s.start_offset) for s in (summary(cluster, topic_id, p) for p in range(PARTITIONS))} == {
        (ErrorCode.NONE, -1)}
    beats = [first]

    def assigned() -> bool:
        beats.append(heartbeat(cluster, group_coordinator, member, beats[-1].member_epoch))
        return beats[-1].assignment is not None and bool(beats[-1].assignment.topic_partitions)

    cluster.wait_for(assigned, "the initialized partitions assigned", timeout=60)
    assert beats[-1].member_epoch == 3
    assert sorted(beats[-1].assignment.topic_partitions[0].partitions) == list(range(PARTITIONS))

    assert heartbeat(cluster, group_coordinator, member, -1).error_code == ErrorCode.NONE
    deleted = ask(cluster, group_coordinator, ApiKey.DeleteGroups, 2, groups_names=[GROUP])
    assert [(r.group_id, r.error_code) for r in deleted.results] == [(GROUP, ErrorCode.NONE)]
    # the share coordinators keep no state of the group: a summary says so as of an uninitialized one
    assert [(s.state_epoch, s.start_offset) for s in (summary(cluster, topic_id, p) for p in range(PARTITIONS))] == [
        (0, -1)] * PARTITIONS


def test_describe_share_group_offsets_asks_the_share_coordinators(cluster: Cluster) -> None:
    """DescribeShareGroupOffsets at the group's coordinator reads each partition's summary from
    the share coordinator keeping it (ReadShareGroupStateSummary over the wire when that is
    another broker), as Kafka's GroupCoordinatorService does."""
    group = "described-group"
    topic_id, group_coordinator = topic_and_coordinator(cluster, group)
    keepers = [coordinator(cluster, 2, f"{group}:{kafka_uuid_string(topic_id)}:{p}") for p in range(PARTITIONS)]
    assert set(keepers) - {group_coordinator}, "some partition's state kept by another broker than the group's"
    altered = ask(cluster, group_coordinator, ApiKey.AlterShareGroupOffsets, 0, group_id=group, topics=[
        alter_request.AlterShareGroupOffsetsRequestTopic(topic_name=TOPIC, partitions=[
            alter_request.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=10 + p)
            for p in range(PARTITIONS)])])
    assert [(p.partition_index, p.error_code) for p in altered.responses[0].partitions] == [
        (p, ErrorCode.NONE) for p in range(PARTITIONS)]
    for topics in ([describe_request.DescribeShareGroupOffsetsRequestTopic(topic_name=TOPIC,
                                                                          partitions=list(range(PARTITIONS)))], None):
        described = ask(cluster, group_coordinator, ApiKey.DescribeShareGroupOffsets, 1, groups=[
            describe_request.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=topics)])
        [answer] = described.groups
        assert answer.error_code == ErrorCode.NONE and [t.topic_name for t in answer.topics] == [TOPIC]
        assert [(p.partition_index, p.start_offset, p.error_code) for p in answer.topics[0].partitions] == [
            (p, 10 + p, ErrorCode.NONE) for p in range(PARTITIONS)]


def share_fetch(sock: Any, group: str, member: str, epoch: int, topic_id: uuid.UUID,
                acks: list[tuple[int, int, list[int]]] | None = None, max_wait_ms: int = 0) -> Any:
    return call(sock, ApiKey.ShareFetch, 1, group_id=group, member_id=member, share_session_epoch=epoch,
               max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20, max_records=500, batch_size=500,
               topics=[fetch_request.FetchTopic(topic_id=topic_id, partitions=[fetch_request.FetchPartition(
                   partition_index=0, acknowledgement_batches=[
                       fetch_request.AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=types)
                       for f, last, types in acks or []])])],
               forgotten_topics_data=[])[1]


class ShareSession:
    """A member's share session with the leader of the topic's partition 0, on one connection
    (as Kafka 4.4, the broker ends a session when the connection that opened it closes)."""

    def __init__(self, cluster: Cluster, broker: int, group: str, member: str, topic_id: uuid.UUID) -> None:
        self.cluster, self.group, self.member, self.topic_id = cluster, group, member, topic_id
        self.sock = connect(cluster.brokers[broker].bootstrap)
        self.epoch = 0

    def close(self) -> None:
        self.sock.close()

    def fetch(self, acks: list[tuple[int, int, list[int]]] | None = None) -> list[tuple[int, int]]:
        """The ranges acquired by one ShareFetch (acknowledging `acks` with it)."""
        answer = share_fetch(self.sock, self.group, self.member, self.epoch, self.topic_id, acks, max_wait_ms=500)
        self.epoch += 1
        assert answer.error_code == ErrorCode.NONE
        return [(r.first_offset, r.last_offset) for t in answer.responses for p in t.partitions
                for r in p.acquired_records]

    def acquire(self, what: str) -> list[tuple[int, int]]:
        got: list[list[tuple[int, int]]] = []

        def acquired() -> bool:
            got.append(self.fetch())
            return bool(got[-1])

        self.cluster.wait_for(acquired, what, timeout=60)
        return got[-1]


def produce(cluster: Cluster, count: int) -> None:
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    try:
        for i in range(count):
            producer.send(TOPIC, value=b"r%d" % i, partition=0).get(timeout=60)
    finally:
        producer.close()


def test_a_leader_reads_the_state_again_when_another_broker_altered_it(cluster: Cluster) -> None:
    """An admin's AlterShareGroupOffsets at the group's coordinator moves the state epoch at the
    share coordinator; the share partition leader, another broker, finds out at its next write
    (FENCED_STATE_EPOCH) and reads the state again, delivering from the new start offset."""
    topic_id, _ = topic_and_coordinator(cluster, GROUP)  # __consumer_offsets is led
    leader = cluster.state(TOPIC, 0)["leader"]
    group = next(g for g in (f"fenced-{n}" for n in range(1000)) if coordinator(cluster, 0, g) not in (leader, None))
    group_coordinator = coordinator(cluster, 0, group)
    assert group_coordinator is not None

    def joined(member: str) -> None:
        beats = [ask(cluster, group_coordinator, ApiKey.ShareGroupHeartbeat, 1, group_id=group, member_id=member,
                     member_epoch=0, rack_id=None, subscribed_topic_names=[TOPIC])]

        def assigned() -> bool:
            if beats[-1].assignment is not None and beats[-1].assignment.topic_partitions:
                return True
            beats.append(ask(cluster, group_coordinator, ApiKey.ShareGroupHeartbeat, 1, group_id=group,
                             member_id=member, member_epoch=beats[-1].member_epoch, rack_id=None,
                             subscribed_topic_names=None))
            return False

        cluster.wait_for(assigned, f"{member} assigned", timeout=60)

    def alter(start_offset: int) -> None:
        altered = ask(cluster, group_coordinator, ApiKey.AlterShareGroupOffsets, 0, group_id=group, topics=[
            alter_request.AlterShareGroupOffsetsRequestTopic(topic_name=TOPIC, partitions=[
                alter_request.AlterShareGroupOffsetsRequestPartition(partition_index=0, start_offset=start_offset)])])
        assert altered.responses[0].partitions[0].error_code == ErrorCode.NONE

    alter(0)  # the group starts at offset 0, whenever its share partition is first read
    first = ShareSession(cluster, leader, group, "m1", topic_id)
    try:
        joined("m1")
        produce(cluster, 10)
        assert first.acquire("the ten records") == [(0, 9)]
        first.fetch(acks=[(0, 9, [1])])  # accepted: the state's start offset is 10
    finally:
        first.close()
    ask(cluster, group_coordinator, ApiKey.ShareGroupHeartbeat, 1, group_id=group, member_id="m1", member_epoch=-1,
        rack_id=None, subscribed_topic_names=None)
    alter(3)

    second = ShareSession(cluster, leader, group, "m2", topic_id)
    try:
        joined("m2")
        second.fetch()
        produce(cluster, 1)
        assert second.acquire("offset 10, from the leader's stale share partition") == [(10, 10)]
        second.fetch(acks=[(10, 10, [1])])  # written at the old state epoch: fenced, the partition read again
        assert second.acquire("the records from the altered start offset") == [(3, 10)]
    finally:
        second.close()


def test_deleting_a_topic_deletes_its_share_state(cluster: Cluster) -> None:
    """Kafka's onPartitionsDeleted: the group coordinator deletes a deleted topic's share state
    at the share coordinators (some of them other brokers)."""
    topic_id, group_coordinator = topic_and_coordinator(cluster, GROUP)
    assert heartbeat(cluster, group_coordinator, "m1", 0, [TOPIC]).error_code == ErrorCode.NONE
    cluster.wait_for(lambda: all(summary(cluster, topic_id, p).state_epoch == 2 for p in range(PARTITIONS)),
                     "every partition's share state initialized", timeout=60)
    admin = KafkaAdminClient(bootstrap_servers=cluster.bootstrap, request_timeout_ms=30000)
    try:
        admin.delete_topics([TOPIC])
    finally:
        admin.close()
    cluster.wait_for(lambda: all(summary(cluster, topic_id, p).state_epoch == 0 for p in range(PARTITIONS)),
                     "every partition's share state deleted", timeout=60)
