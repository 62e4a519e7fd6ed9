"""KIP-848's APIs on a real broker, spoken byte for byte: ConsumerGroupHeartbeat,
ConsumerGroupDescribe, ListGroups' types, OffsetCommit/OffsetFetch v9 member epochs,
and the border with classic JoinGroup."""

from __future__ import annotations

import struct
import uuid
from pathlib import Path

import pytest

from harness.wire import call, connect, create_topic, wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.offset_commit_request import (
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from josefk.protocol.messages.generated.offset_fetch_request import OffsetFetchRequestGroup, OffsetFetchRequestTopics
from tests.conftest import RunningBroker
from tests.test_group_coordinator import find_coordinator_ready, join_fields, sync


def heartbeat(sock, version: int = 1, **fields):
    base = dict(group_id="g", member_id="", member_epoch=0, instance_id=None, rack_id=None,
                rebalance_timeout_ms=-1, subscribed_topic_names=None, server_assignor=None, topic_partitions=None)
    if version >= 1:
        base["subscribed_topic_regex"] = None
    return call(sock, ApiKey.ConsumerGroupHeartbeat, version, **{**base, **fields})[1]


def commit(sock, member_id: str, epoch: int, offset: int):
    return call(sock, ApiKey.OffsetCommit, 9, group_id="g", generation_id_or_member_epoch=epoch,
                member_id=member_id, group_instance_id=None, retention_time_ms=-1, topics=[
                    OffsetCommitRequestTopic(name="t", partitions=[
                        OffsetCommitRequestPartition(partition_index=0, committed_offset=offset,
                                                     committed_leader_epoch=-1, committed_metadata="")])]
                )[1].topics[0].partitions[0].error_code


def fetch(sock, member_id: str | None, epoch: int):
    group = OffsetFetchRequestGroup(group_id="g", member_id=member_id, member_epoch=epoch, topics=[
        OffsetFetchRequestTopics(name="t", partition_indexes=[0])])
    return call(sock, ApiKey.OffsetFetch, 9, groups=[group], require_stable=False)[1].groups[0]


def test_join_describe_list_commit_and_leave(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "t", 3)
        find_coordinator_ready(sock, "g")
        versions = {a.api_key: (a.min_version, a.max_version)
                    for a in call(sock, ApiKey.ApiVersions, 3, client_software_name="t",
                                  client_software_version="1")[1].api_keys}
        assert versions[ApiKey.ConsumerGroupHeartbeat] == (0, 1)
        assert versions[ApiKey.ConsumerGroupDescribe] == (0, 1)
        missing = heartbeat(sock, member_id="", rebalance_timeout_ms=30_000, subscribed_topic_names=["t"],
                            topic_partitions=[])
        assert (missing.error_code, missing.error_message) == (ErrorCode.INVALID_REQUEST, "MemberId can't be empty.")
        assert (missing.member_id, missing.member_epoch) == (None, 0)  # as Kafka 4.4.0 answers errors
        member = str(uuid.uuid4())
        joined = heartbeat(sock, member_id=member, rebalance_timeout_ms=30_000, subscribed_topic_names=["t"],
                           topic_partitions=[])
        assert (joined.error_code, joined.member_id, joined.member_epoch, joined.heartbeat_interval_ms) == (
            ErrorCode.NONE, member, 2, 5000)
        [assigned] = joined.assignment.topic_partitions
        assert sorted(assigned.partitions) == [0, 1, 2]
        described = call(sock, ApiKey.ConsumerGroupDescribe, 1, group_ids=["g", "nope"],
                         include_authorized_operations=False)[1].groups
        assert (described[0].group_state, described[0].group_epoch, described[0].assignment_epoch,
                described[0].assignor_name) == ("Stable", 2, 2, "uniform")
        [m] = described[0].members
        assert (m.member_id, m.member_epoch, m.subscribed_topic_names, m.client_host) == (member, 2, ["t"],
                                                                                          "/127.0.0.1")
        assert [tp.topic_name for tp in m.assignment.topic_partitions] == ["t"]
        assert (m.subscribed_topic_regex, m.member_type) == ("", 1)  # Kafka 4.4.0's answer
        assert (described[1].error_code, described[1].error_message) == (ErrorCode.GROUP_ID_NOT_FOUND,
                                                                         "Group nope not found.")
        listed = call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=["consumer"])[1].groups
        assert [(g.group_id, g.group_type, g.group_state, g.protocol_type) for g in listed] == [
            ("g", "consumer", "Stable", "consumer")]
        assert call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=["classic"])[1].groups == []
        # A classic JoinGroup is served by the consumer group (mixed groups): first a member id.
        classic = call(sock, ApiKey.JoinGroup, 5, **join_fields("g"))[1]
        assert (classic.error_code, classic.generation_id) == (ErrorCode.MEMBER_ID_REQUIRED, -1)
        assert call(sock, ApiKey.JoinGroup, 5, **{**join_fields("g"), "protocol_type": "x"})[1].error_code == (
            ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        # DescribeGroups v5 sees no classic group there (Kafka before v6 answers Dead).
        dg = call(sock, ApiKey.DescribeGroups, 5, groups=["g"], include_authorized_operations=False)[1].groups[0]
        assert (dg.error_code, dg.group_state) == (ErrorCode.NONE, "Dead")
        # Offsets: only the member, at its current epoch.
        assert commit(sock, member, 0, 5) == ErrorCode.STALE_MEMBER_EPOCH
        assert commit(sock, "other", 2, 5) == ErrorCode.UNKNOWN_MEMBER_ID
        assert commit(sock, member, 2, 5) == ErrorCode.NONE
        assert fetch(sock, member, 3).error_code == ErrorCode.STALE_MEMBER_EPOCH
        assert fetch(sock, member, 2).topics[0].partitions[0].committed_offset == 5
        assert fetch(sock, None, -1).topics[0].partitions[0].committed_offset == 5  # an admin's fetch
        deleted = call(sock, ApiKey.DeleteGroups, 2, groups_names=["g"])[1].results[0]
        assert deleted.error_code == ErrorCode.NON_EMPTY_GROUP
        fenced = heartbeat(sock, member_id=member, member_epoch=7)
        assert (fenced.error_code, fenced.member_id) == (ErrorCode.FENCED_MEMBER_EPOCH, None)
        assert fenced.error_message == ("The consumer group member has a greater member epoch (7) than the one "
                                        "known by the group coordinator (2). The member must abandon all its "
                                        "partitions and rejoin.")
        left = heartbeat(sock, member_id=member, member_epoch=-1)
        assert (left.error_code, left.member_id, left.member_epoch) == (ErrorCode.NONE, member, -1)
        again = heartbeat(sock, member_id=member, member_epoch=-1)
        assert (again.error_code, again.error_message) == (ErrorCode.UNKNOWN_MEMBER_ID,
                                                           f"Member {member} is not a member of group g.")
        assert call(sock, ApiKey.DeleteGroups, 2, groups_names=["g"])[1].results[0].error_code == ErrorCode.NONE
        assert fetch(sock, None, -1).topics[0].partitions[0].committed_offset == -1
    finally:
        sock.close()


def test_a_classic_group_whose_members_protocol_is_unreadable_is_not_upgraded(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "t", 1)
        find_coordinator_ready(sock, "g")
        first = call(sock, ApiKey.JoinGroup, 5, **join_fields("g"))[1]
        assert call(sock, ApiKey.JoinGroup, 5, **join_fields("g", member_id=first.member_id))[1].error_code == 0
        refused = heartbeat(sock, member_id=str(uuid.uuid4()), rebalance_timeout_ms=30_000,
                            subscribed_topic_names=["t"], topic_partitions=[])
        assert (refused.error_code, refused.error_message) == (
            ErrorCode.GROUP_ID_NOT_FOUND,
            "Cannot upgrade classic group g to consumer group because the embedded consumer protocol is malformed.")
    finally:
        sock.close()


@pytest.mark.integration
def test_a_mixed_group_survives_a_broker_restart(tmp_path: Path) -> None:
    """Two classic members (real ConsumerProtocol subscriptions) upgraded by a
    consumer-protocol member: after a restart the broker rebuilds the group from its log
    with the classic members' metadata, so they carry on at their generation (told to
    rejoin, not that they are unknown) and ConsumerGroupDescribe still shows them classic."""
    overrides = {"group.min.session.timeout.ms": "500", "offsets.topic.num.partitions": "5"}
    broker = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(broker.bootstrap)
        create_topic(sock, "t", 4)
        find_coordinator_ready(sock, "g")
        a = call(sock, ApiKey.JoinGroup, 3, **join_fields("g", metadata=subscription()))[1]
        assert a.error_code == ErrorCode.NONE
        assert sync(sock, "g", a.generation_id, a.member_id, {a.member_id: b""}).error_code == ErrorCode.NONE
        c = heartbeat(sock, member_id=str(uuid.uuid4()), rebalance_timeout_ms=30_000, subscribed_topic_names=["t"],
                      topic_partitions=[])
        assert (c.error_code, c.member_epoch) == (ErrorCode.NONE, a.generation_id + 1)  # the upgrade
        sock.close()
    finally:
        broker.stop()
    broker = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(broker.bootstrap)
        find_coordinator_ready(sock, "g")
        wait_until(lambda: call(sock, ApiKey.ConsumerGroupDescribe, 1, group_ids=["g"],
                                include_authorized_operations=False)[1].groups[0].error_code == ErrorCode.NONE,
                   "the group to be loaded")
        [group] = call(sock, ApiKey.ConsumerGroupDescribe, 1, group_ids=["g"],
                       include_authorized_operations=False)[1].groups
        assert sorted((m.member_type, m.member_epoch) for m in group.members) == [
            (0, a.generation_id), (1, a.generation_id + 1)]
        assert group.group_epoch == a.generation_id + 1
        assert call(sock, ApiKey.Heartbeat, 3, group_id="g", generation_id=a.generation_id, member_id=a.member_id,
                    group_instance_id=None)[1].error_code == ErrorCode.REBALANCE_IN_PROGRESS
        sock.close()
    finally:
        broker.stop()


def subscription() -> bytes:
    """A ConsumerProtocolSubscription v0 for topic t, as kafka-python sends it."""
    return struct.pack(">hih", 0, 1, 1) + b"t" + struct.pack(">i", -1)
