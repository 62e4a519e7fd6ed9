"""Group coordinator state machine and error codes, driven by raw request bytes against a real broker.

Real clients hide most error codes behind retries, so these tests speak the protocol
directly (harness/wire.py) over several sockets: one socket per group member, since a
parked JoinGroup holds its connection's later responses back, exactly as in Kafka.
"""

from __future__ import annotations

import socket
import struct
import time

import pytest

from harness.wire import call, connect, create_topic, encode_request, read_frame, wait_until
from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey, is_flexible
from josefk.protocol.errors import ErrorCode
from josefk.utils.time import SYSTEM_TIME
from tests.conftest import RunningBroker

JOIN = request_class(ApiKey.JoinGroup)
SYNC = request_class(ApiKey.SyncGroup)
COMMIT = request_class(ApiKey.OffsetCommit)
FETCH = request_class(ApiKey.OffsetFetch)
LEAVE = request_class(ApiKey.LeaveGroup)
OFFSET_DELETE = request_class(ApiKey.OffsetDelete)


def send(sock: socket.socket, api_key: int, version: int, correlation_id: int = 7, **fields) -> None:
    sock.sendall(encode_request(api_key, version, request_class(api_key)(**fields), correlation_id))


def receive(sock: socket.socket, api_key: int, version: int):
    frame = read_frame(sock)
    offset = 5 if is_flexible(api_key, version) else 4
    return response_class(api_key).decode(frame[offset:], version=version)


def rpc(sock: socket.socket, api_key: int, version: int, **fields):
    return call(sock, api_key, version, **fields)[1]


def protocols(*names: str, metadata: bytes = b"meta"):
    return [JOIN.JoinGroupRequestProtocol(name=n, metadata=metadata) for n in names]


def join_fields(group: str, member_id: str = "", session_ms: int = 10_000, rebalance_ms: int = 10_000,
                instance_id: str | None = None, names: tuple[str, ...] = ("range",), metadata: bytes = b"meta") -> dict:
    return dict(group_id=group, session_timeout_ms=session_ms, rebalance_timeout_ms=rebalance_ms,
                member_id=member_id, group_instance_id=instance_id, protocol_type="consumer",
                protocols=protocols(*names, metadata=metadata), reason=None)


def find_coordinator_ready(sock: socket.socket, group: str) -> None:
    """The first lookup creates __consumer_offsets; Kafka answers COORDINATOR_NOT_AVAILABLE
    until its partitions have leaders."""
    wait_until(lambda: rpc(sock, ApiKey.FindCoordinator, 0, key=group).error_code == ErrorCode.NONE,
               f"a coordinator for {group}")


def join_one(sock: socket.socket, group: str, version: int = 5, **kw):
    """A new member's full join at v4+: MEMBER_ID_REQUIRED first, then the real join."""
    first = rpc(sock, ApiKey.JoinGroup, version, **join_fields(group, **kw))
    assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED
    assert first.member_id
    kw["member_id"] = first.member_id
    return rpc(sock, ApiKey.JoinGroup, version, **join_fields(group, **kw))


def sync(sock: socket.socket, group: str, generation: int, member_id: str, assignments: dict[str, bytes],
         version: int = 3, instance_id: str | None = None):
    return rpc(sock, ApiKey.SyncGroup, version, group_id=group, generation_id=generation, member_id=member_id,
               group_instance_id=instance_id, protocol_type=None, protocol_name=None,
               assignments=[SYNC.SyncGroupRequestAssignment(member_id=m, assignment=a)
                            for m, a in assignments.items()])


def heartbeat(sock: socket.socket, group: str, generation: int, member_id: str, version: int = 3,
              instance_id: str | None = None) -> int:
    return rpc(sock, ApiKey.Heartbeat, version, group_id=group, generation_id=generation, member_id=member_id,
               group_instance_id=instance_id).error_code


def describe(sock: socket.socket, group: str, version: int = 4):
    return rpc(sock, ApiKey.DescribeGroups, version, groups=[group], include_authorized_operations=False).groups[0]


def test_find_coordinator_all_versions_creates_offsets_topic(gbroker):
    sock = connect(gbroker.bootstrap)
    port = gbroker.server.port
    first = rpc(sock, ApiKey.FindCoordinator, 0, key="g", key_type=0)
    assert first.error_code in (ErrorCode.NONE, ErrorCode.COORDINATOR_NOT_AVAILABLE)
    find_coordinator_ready(sock, "g")
    for version in range(0, 4):
        response = rpc(sock, ApiKey.FindCoordinator, version, key="g", key_type=0)
        assert (response.error_code, response.node_id, response.host, response.port) == (0, 0, "127.0.0.1", port)
    response = rpc(sock, ApiKey.FindCoordinator, 4, key_type=0, coordinator_keys=["a", "b"])
    assert [(c.key, c.error_code, c.node_id, c.port) for c in response.coordinators] == [
        ("a", 0, 0, port), ("b", 0, 0, port)]
    response = rpc(sock, ApiKey.FindCoordinator, 6, key_type=1, coordinator_keys=["txn"])
    assert response.coordinators[0].error_code == ErrorCode.COORDINATOR_NOT_AVAILABLE
    metadata = rpc(sock, ApiKey.Metadata, 1, topics=[request_class(ApiKey.Metadata).MetadataRequestTopic(
        name="__consumer_offsets")])
    topic = metadata.topics[0]
    assert topic.error_code == 0 and topic.is_internal and len(topic.partitions) == 5
    sock.close()


def test_partition_for_group_matches_java_string_hashcode():
    from josefk.coordinator.offsets_store import java_string_hashcode, partition_for

    # Values from java.lang.String.hashCode.
    assert java_string_hashcode("") == 0
    assert java_string_hashcode("hello") == 99_162_322
    assert java_string_hashcode("polygenelubricants") == -(2**31)
    assert partition_for("polygenelubricants", 50) == 0  # Utils.abs(Integer.MIN_VALUE) is 0
    assert partition_for("console-consumer-12345", 50) == abs(java_string_hashcode("console-consumer-12345")) % 50
    assert java_string_hashcode("\u00e9t\u00e9") == 233 * 31 * 31 + 116 * 31 + 233


def test_join_sync_heartbeat_and_error_codes(gbroker):
    a, b = connect(gbroker.bootstrap), connect(gbroker.bootstrap)
    find_coordinator_ready(a, "g1")
    # Session timeout outside group.min/max.session.timeout.ms.
    bad = rpc(a, ApiKey.JoinGroup, 5, **join_fields("g1", session_ms=100))
    assert bad.error_code == ErrorCode.INVALID_SESSION_TIMEOUT
    # Joining with a member id the group never issued.
    unknown = rpc(a, ApiKey.JoinGroup, 5, **join_fields("g1", member_id="nobody"))
    assert unknown.error_code == ErrorCode.UNKNOWN_MEMBER_ID
    joined = join_one(a, "g1")
    assert joined.error_code == 0 and joined.generation_id == 1
    assert joined.leader == joined.member_id and joined.protocol_name == "range"
    assert [m.member_id for m in joined.members] == [joined.member_id]
    m1, gen = joined.member_id, joined.generation_id
    # SyncGroup errors, then the leader's assignment.
    assert sync(a, "g1", gen + 1, m1, {}).error_code == ErrorCode.ILLEGAL_GENERATION
    assert sync(a, "g1", gen, "stranger", {}).error_code == ErrorCode.UNKNOWN_MEMBER_ID
    synced = sync(a, "g1", gen, m1, {m1: b"assignment-1"})
    assert (synced.error_code, synced.assignment) == (0, b"assignment-1")
    assert describe(a, "g1").group_state == "Stable"
    # Heartbeat errors.
    assert heartbeat(a, "g1", gen, m1) == 0
    assert heartbeat(a, "g1", gen + 5, m1) == ErrorCode.ILLEGAL_GENERATION
    assert heartbeat(a, "g1", gen, "stranger") == ErrorCode.UNKNOWN_MEMBER_ID
    assert heartbeat(a, "nogroup", 1, m1) == ErrorCode.UNKNOWN_MEMBER_ID
    # A protocol no member supports.
    other = rpc(b, ApiKey.JoinGroup, 5, **join_fields("g1", names=("roundrobin",)))
    assert other.error_code == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    # A second member (JoinGroup v0, no MEMBER_ID_REQUIRED) parks until the first rejoins.
    send(b, ApiKey.JoinGroup, 0, **join_fields("g1"))
    deadline = time.time() + 5
    while heartbeat(a, "g1", gen, m1) != ErrorCode.REBALANCE_IN_PROGRESS:
        assert time.time() < deadline
    assert describe(a, "g1").group_state == "PreparingRebalance"
    # An offset commit is still allowed while preparing; the member learns of the rebalance by heartbeat.
    rejoined = rpc(a, ApiKey.JoinGroup, 5, **join_fields("g1", member_id=m1))
    second = receive(b, ApiKey.JoinGroup, 0)
    assert rejoined.error_code == second.error_code == 0
    assert rejoined.generation_id == second.generation_id == gen + 1
    assert rejoined.leader == m1 and len(rejoined.members) == 2 and second.members == []
    m2, gen2 = second.member_id, second.generation_id
    assert m2.startswith("test-")
    assert describe(a, "g1").group_state == "CompletingRebalance"
    # Commits during CompletingRebalance are refused with REBALANCE_IN_PROGRESS.
    create_topic(a, "t", 2)
    commit = rpc(a, ApiKey.OffsetCommit, 5, group_id="g1", generation_id_or_member_epoch=gen2, member_id=m1,
                 topics=[COMMIT.OffsetCommitRequestTopic(name="t", partitions=[
                     COMMIT.OffsetCommitRequestTopic.OffsetCommitRequestPartition(
                         partition_index=0, committed_offset=5, committed_metadata="")])])
    assert commit.topics[0].partitions[0].error_code == ErrorCode.REBALANCE_IN_PROGRESS
    # The follower's SyncGroup waits for the leader's.
    send(b, ApiKey.SyncGroup, 1, group_id="g1", generation_id=gen2, member_id=m2, assignments=[])
    leader_sync = sync(a, "g1", gen2, m1, {m1: b"p0", m2: b"p1"})
    follower_sync = receive(b, ApiKey.SyncGroup, 1)
    assert (leader_sync.assignment, follower_sync.assignment) == (b"p0", b"p1")
    group = describe(a, "g1")
    assert group.group_state == "Stable" and group.protocol_data == "range"
    assert sorted((m.member_id, m.member_assignment) for m in group.members) == sorted([(m1, b"p0"), (m2, b"p1")])
    assert all(m.client_host == "/127.0.0.1" for m in group.members)
    # Old generation after the rebalance.
    assert heartbeat(a, "g1", gen, m1) == ErrorCode.ILLEGAL_GENERATION
    # LeaveGroup v0 for the follower, then v3 batched with one unknown member.
    assert rpc(b, ApiKey.LeaveGroup, 0, group_id="g1", member_id=m2).error_code == 0
    assert heartbeat(a, "g1", gen2, m1) == ErrorCode.REBALANCE_IN_PROGRESS
    response = rpc(a, ApiKey.LeaveGroup, 3, group_id="g1", members=[
        LEAVE.MemberIdentity(member_id=m1, group_instance_id=None),
        LEAVE.MemberIdentity(member_id="ghost", group_instance_id=None)])
    assert response.error_code == 0
    assert [(m.member_id, m.error_code) for m in response.members] == [(m1, 0), ("ghost", ErrorCode.UNKNOWN_MEMBER_ID)]
    assert rpc(a, ApiKey.LeaveGroup, 1, group_id="g1", member_id="ghost").error_code == ErrorCode.UNKNOWN_MEMBER_ID
    group = describe(a, "g1")
    assert (group.group_state, group.members) == ("Empty", [])
    assert rpc(a, ApiKey.JoinGroup, 5, **join_fields("")).error_code == ErrorCode.INVALID_GROUP_ID
    a.close()
    b.close()


def test_member_id_required_pending_member_and_static_membership(gbroker):
    a, b = connect(gbroker.bootstrap), connect(gbroker.bootstrap)
    find_coordinator_ready(a, "g3")
    # A dynamic member that got MEMBER_ID_REQUIRED but never came back holds the group's
    # first rebalance only until it leaves (or its session times out).
    pending = rpc(b, ApiKey.JoinGroup, 4, **join_fields("g3"))
    assert pending.error_code == ErrorCode.MEMBER_ID_REQUIRED
    assert rpc(b, ApiKey.LeaveGroup, 2, group_id="g3", member_id=pending.member_id).error_code == 0
    # Static members (group.instance.id) skip MEMBER_ID_REQUIRED.
    joined = rpc(a, ApiKey.JoinGroup, 7, **join_fields("g3", instance_id="instance-1"))
    assert joined.error_code == 0 and joined.protocol_type == "consumer"
    m1 = joined.member_id
    assert sync(a, "g3", 1, m1, {m1: b"mine"}, version=5, instance_id="instance-1").error_code == 0
    # A static member rejoining without its member id (a restart) gets a new id, no rebalance,
    # the same generation, and the old id is fenced.
    restarted = rpc(b, ApiKey.JoinGroup, 7, **join_fields("g3", instance_id="instance-1"))
    assert restarted.error_code == 0 and restarted.member_id != m1
    assert restarted.generation_id == 1 and restarted.leader == m1  # old leader id: no re-assignment
    assert heartbeat(a, "g3", 1, m1, instance_id="instance-1") == ErrorCode.FENCED_INSTANCE_ID
    synced = sync(b, "g3", 1, restarted.member_id, {}, version=5, instance_id="instance-1")
    assert (synced.error_code, synced.assignment) == (0, b"mine")
    assert describe(a, "g3").group_state == "Stable"
    # v9 static rejoin of the leader: told to skip the assignment.
    again = rpc(a, ApiKey.JoinGroup, 9, **join_fields("g3", instance_id="instance-1"))
    assert again.error_code == 0 and again.skip_assignment and again.leader == again.member_id
    # Admin removal by group.instance.id (LeaveGroup v3+, empty member id).
    response = rpc(a, ApiKey.LeaveGroup, 4, group_id="g3", members=[
        LEAVE.MemberIdentity(member_id="", group_instance_id="instance-1")])
    assert [m.error_code for m in response.members] == [0]
    assert describe(a, "g3").group_state == "Empty"
    a.close()
    b.close()


def _commit(sock, version: int, group: str, partitions: dict[tuple[str, int], tuple[int, str | None]],
            generation: int = -1, member: str = ""):
    topics: dict[str, list] = {}
    for (topic, p), (offset, metadata) in partitions.items():
        topics.setdefault(topic, []).append(COMMIT.OffsetCommitRequestTopic.OffsetCommitRequestPartition(
            partition_index=p, committed_offset=offset, committed_leader_epoch=3, commit_timestamp=-1,
            committed_metadata=metadata))
    response = rpc(sock, ApiKey.OffsetCommit, version, group_id=group, generation_id_or_member_epoch=generation,
                   member_id=member, group_instance_id=None, retention_time_ms=-1,
                   topics=[COMMIT.OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in topics.items()])
    return {(t.name, p.partition_index): p.error_code for t in response.topics for p in t.partitions}


def _fetch(sock, version: int, group: str, partitions: list[tuple[str, int]] | None):
    if partitions is None:
        topics = None
    else:
        by_topic: dict[str, list[int]] = {}
        for t, p in partitions:
            by_topic.setdefault(t, []).append(p)
        topics = [FETCH.OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
    response = rpc(sock, ApiKey.OffsetFetch, version, group_id=group, topics=topics, require_stable=False)
    return response.error_code if version >= 2 else 0, {
        (t.name, p.partition_index): (p.committed_offset, p.metadata, p.error_code)
        for t in response.topics for p in t.partitions}


@pytest.mark.parametrize("version", range(10))
def test_offset_commit_and_fetch_every_version(gbroker, version):
    sock = connect(gbroker.bootstrap)
    create_topic(sock, "topic-a", 3)
    group = f"simple-{version}"
    find_coordinator_ready(sock, group)
    errors = _commit(sock, version, group, {("topic-a", 0): (10, "m0"), ("topic-a", 2): (20, None),
                                            ("missing", 0): (1, "")})
    assert errors == {("topic-a", 0): 0, ("topic-a", 2): 0, ("missing", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}
    for fetch_version in range(8):
        error, got = _fetch(sock, fetch_version, group, [("topic-a", 0), ("topic-a", 1), ("topic-a", 2)])
        assert error == 0
        assert got == {("topic-a", 0): (10, "m0", 0), ("topic-a", 1): (-1, "", 0), ("topic-a", 2): (20, "", 0)}
    if version >= 2:
        error, got = _fetch(sock, 7, group, None)  # all committed partitions
        assert got == {("topic-a", 0): (10, "m0", 0), ("topic-a", 2): (20, "", 0)}
    too_big = _commit(sock, version, group, {("topic-a", 1): (5, "x" * 4097)})
    assert too_big == {("topic-a", 1): ErrorCode.OFFSET_METADATA_TOO_LARGE}
    # A member id and generation the (empty) group does not know.
    if version >= 1:
        assert _commit(sock, version, group, {("topic-a", 1): (5, "")}, generation=4, member="who") == {
            ("topic-a", 1): ErrorCode.UNKNOWN_MEMBER_ID}
        assert _commit(sock, version, "never-seen", {("topic-a", 1): (5, "")}, generation=4, member="who") == {
            ("topic-a", 1): ErrorCode.ILLEGAL_GENERATION}
    sock.close()


def test_offset_fetch_v8_multiple_groups_and_leader_epoch(gbroker):
    sock = connect(gbroker.bootstrap)
    create_topic(sock, "multi", 2)
    for group, offset in (("ga", 1), ("gb", 2)):
        find_coordinator_ready(sock, group)
        assert _commit(sock, 8, group, {("multi", 0): (offset, "meta")}) == {("multi", 0): 0}
    groups = [FETCH.OffsetFetchRequestGroup(group_id="ga", topics=None),
              FETCH.OffsetFetchRequestGroup(group_id="gb", topics=[
                  FETCH.OffsetFetchRequestGroup.OffsetFetchRequestTopics(name="multi", partition_indexes=[0, 1])]),
              FETCH.OffsetFetchRequestGroup(group_id="gc", topics=None)]
    for version in (8, 9):
        response = rpc(sock, ApiKey.OffsetFetch, version, groups=groups, require_stable=False)
        got = {g.group_id: (g.error_code, [(t.name, p.partition_index, p.committed_offset, p.committed_leader_epoch)
                                           for t in g.topics for p in t.partitions]) for g in response.groups}
        assert got == {"ga": (0, [("multi", 0, 1, 3)]), "gb": (0, [("multi", 0, 2, 3), ("multi", 1, -1, -1)]),
                       "gc": (0, [])}
    sock.close()


def test_describe_list_delete_groups_and_offset_delete(gbroker):
    a = connect(gbroker.bootstrap)
    create_topic(a, "d", 1)
    for group in ("empty-group", "busy-group"):
        find_coordinator_ready(a, group)
    assert _commit(a, 2, "empty-group", {("d", 0): (3, "")}) == {("d", 0): 0}
    joined = join_one(a, "busy-group")
    sync(a, "busy-group", 1, joined.member_id, {joined.member_id: b""})
    listed = rpc(a, ApiKey.ListGroups, 4, states_filter=[])
    assert {(g.group_id, g.group_state, g.protocol_type) for g in listed.groups} == {
        ("empty-group", "Empty", ""), ("busy-group", "Stable", "consumer")}
    only_stable = rpc(a, ApiKey.ListGroups, 4, states_filter=["Stable"])
    assert [g.group_id for g in only_stable.groups] == ["busy-group"]
    assert rpc(a, ApiKey.ListGroups, 5, states_filter=[], types_filter=["consumer"]).groups == []
    assert len(rpc(a, ApiKey.ListGroups, 0).groups) == 2
    missing = describe(a, "no-such-group", version=5)
    assert (missing.error_code, missing.group_state) == (0, "Dead")
    # OffsetDelete: unknown group, then an Empty group.
    topics = [OFFSET_DELETE.OffsetDeleteRequestTopic(name="d", partitions=[
        OFFSET_DELETE.OffsetDeleteRequestTopic.OffsetDeleteRequestPartition(partition_index=0)])]
    assert rpc(a, ApiKey.OffsetDelete, 0, group_id="nope", topics=topics).error_code == ErrorCode.GROUP_ID_NOT_FOUND
    deleted = rpc(a, ApiKey.OffsetDelete, 0, group_id="empty-group", topics=topics)
    assert deleted.error_code == 0 and deleted.topics[0].partitions[0].error_code == 0
    assert _fetch(a, 3, "empty-group", [("d", 0)])[1] == {("d", 0): (-1, "", 0)}
    # DeleteGroups: non-empty, unknown, and deletable groups.
    response = rpc(a, ApiKey.DeleteGroups, 2, groups_names=["busy-group", "nope", "empty-group"])
    assert [(r.group_id, r.error_code) for r in response.results] == [
        ("busy-group", ErrorCode.NON_EMPTY_GROUP), ("nope", ErrorCode.GROUP_ID_NOT_FOUND), ("empty-group", 0)]
    assert [g.group_id for g in rpc(a, ApiKey.ListGroups, 4, states_filter=[]).groups] == ["busy-group"]
    a.close()


@pytest.mark.integration
def test_offsets_and_groups_survive_restart(tmp_path):
    overrides = {"group.min.session.timeout.ms": "500", "offsets.topic.num.partitions": "5"}
    running = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(running.bootstrap)
        create_topic(sock, "persist", 2)
        find_coordinator_ready(sock, "keep")
        assert _commit(sock, 7, "keep", {("persist", 0): (42, "meta"), ("persist", 1): (7, "")}) == {
            ("persist", 0): 0, ("persist", 1): 0}
        assert _commit(sock, 7, "keep", {("persist", 1): (8, "later")}) == {("persist", 1): 0}
        find_coordinator_ready(sock, "members")
        joined = join_one(sock, "members", session_ms=1000)
        sync(sock, "members", 1, joined.member_id, {joined.member_id: b"a"})
        find_coordinator_ready(sock, "gone")
        _commit(sock, 7, "gone", {("persist", 0): (1, "")})
        assert rpc(sock, ApiKey.DeleteGroups, 1, groups_names=["gone"]).results[0].error_code == 0
        sock.close()
    finally:
        running.stop()
    running = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(running.bootstrap)
        deadline = time.time() + 10
        while True:
            error, got = _fetch(sock, 5, "keep", None)
            if error != ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
                break
            assert time.time() < deadline
            time.sleep(0.05)
        assert (error, got) == (0, {("persist", 0): (42, "meta", 0), ("persist", 1): (8, "later", 0)})
        # The group came back Stable with its member, which then expires without heartbeats.
        group = describe(sock, "members")
        assert group.group_state == "Stable" and [m.member_id for m in group.members] == [joined.member_id]
        deadline = time.time() + 5
        while describe(sock, "members").group_state != "Empty":
            assert time.time() < deadline
            time.sleep(0.1)
        assert _fetch(sock, 5, "gone", None)[1] == {}
        assert "gone" not in [g.group_id for g in rpc(sock, ApiKey.ListGroups, 4, states_filter=[]).groups]
        sock.close()
    finally:
        running.stop()


def test_records_use_kafka_layouts():
    """The offsets topic holds Kafka's own key/value layouts, readable by Kafka's tools."""
    from josefk.coordinator.group_metadata import GroupMetadata, GroupState, MemberMetadata, OffsetAndMetadata
    from josefk.coordinator.group_records import (
        group_key,
        group_value,
        offset_key,
        offset_value,
        read_group_value,
        read_key,
        read_offset_value,
    )

    assert offset_key("g", "t", 1) == b"\x00\x01\x00\x01g\x00\x01t\x00\x00\x00\x01"
    assert group_key("g") == b"\x00\x02\x00\x01g"
    value = offset_value(OffsetAndMetadata(5, 2, "m", 1000))
    assert value == struct.pack(">hqih", 3, 5, 2, 1) + b"m" + struct.pack(">q", 1000)
    assert read_offset_value(value) == OffsetAndMetadata(5, 2, "m", 1000)
    group = GroupMetadata("g", GroupState.EMPTY, SYSTEM_TIME)
    member = MemberMetadata("m-1", "i-1", "client", "/127.0.0.1", 300, 100, "consumer", [("range", b"sub")])
    group.add(member)
    group.protocol_name, group.generation_id = "range", 4
    decoded = read_group_value("g", group_value(group, {"m-1": b"asg"}), SYSTEM_TIME)
    assert (decoded.generation_id, decoded.protocol_name, decoded.leader_id, decoded.protocol_type) == (
        4, "range", "m-1", "consumer")
    m = decoded.members["m-1"]
    assert (m.group_instance_id, m.client_id, m.rebalance_timeout_ms, m.session_timeout_ms, m.assignment) == (
        "i-1", "client", 300, 100, b"asg")
    assert read_key(group_key("g")).group == "g"


def test_offsets_expire_after_retention_and_empty_groups_go(gbroker):
    """offsets.retention.minutes (KIP-211): a group's offsets expire once it has been Empty for
    the retention period; a simple consumer's expire per commit. The check normally runs
    every offsets.retention.check.interval.ms; here it is invoked with a future clock."""
    sock = connect(gbroker.bootstrap)
    create_topic(sock, "ret", 1)
    find_coordinator_ready(sock, "simple-ret")
    assert _commit(sock, 5, "simple-ret", {("ret", 0): (4, "")}) == {("ret", 0): 0}
    find_coordinator_ready(sock, "live-ret")
    joined = join_one(sock, "live-ret")
    sync(sock, "live-ret", 1, joined.member_id, {joined.member_id: b""})
    assert _commit(sock, 5, "live-ret", {("ret", 0): (9, "")}, generation=1, member=joined.member_id) == {
        ("ret", 0): 0}
    coordinator = gbroker.server.group_coordinator
    week = 7 * 24 * 3600 * 1000

    async def expire(delta: int) -> int:
        return coordinator.cleanup_group_metadata(coordinator.time.milliseconds() + delta)

    assert gbroker.call(expire(week - 60_000)) == 0
    assert gbroker.call(expire(week + 1000)) == 1  # only the simple consumer: a Stable group keeps its offsets
    assert _fetch(sock, 5, "simple-ret", None)[1] == {}
    assert _fetch(sock, 5, "live-ret", None)[1] == {("ret", 0): (9, "", 0)}
    groups = [g.group_id for g in rpc(sock, ApiKey.ListGroups, 4, states_filter=[]).groups]
    assert groups == ["live-ret"]
    sock.close()
