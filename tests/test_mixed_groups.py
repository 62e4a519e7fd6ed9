"""KIP-848 mixed groups under MockTime: a classic group with members becomes a consumer
group when a consumer-protocol member joins (online upgrade), its classic members keep
talking JoinGroup/SyncGroup/Heartbeat/LeaveGroup/OffsetCommit to the consumer group's
state machine, and it becomes a classic group again when the last consumer-protocol
member leaves (online downgrade). Kafka 4.x's GroupMetadataManager is the reference:
classicGroup*ToConsumerGroup, validateOnlineUpgrade/Downgrade, convertTo*Group.

The subscriptions and assignments are ConsumerProtocol bytes written by hand here, as a
Java or kafka-python classic consumer sends them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from josefk.coordinator.consumer_group import ConsumerGroupState, MemberState
from josefk.coordinator.consumer_group_coordinator import HeartbeatRequest
from josefk.coordinator.group_metadata import GroupState, JoinResult, OffsetAndMetadata, SyncResult
from josefk.coordinator.mixed_groups import MigrationPolicy
from josefk.protocol.errors import ErrorCode
from tests.test_consumer_group import REBALANCE_MS, T1, Harness, failover
from tests.test_group_timeouts import GROUP

CLASSIC_SESSION_MS = 10_000
ALL = frozenset(range(6))


def s16(text: str) -> bytes:
    return struct.pack(">h", len(text)) + text.encode()


def subscription(topics: tuple[str, ...] = ("t1",), owned: frozenset[int] | None = None) -> bytes:
    """A ConsumerProtocolSubscription: v0 without owned partitions, else v1 with them."""
    body = struct.pack(">i", len(topics)) + b"".join(s16(t) for t in topics) + struct.pack(">i", -1)
    if owned is None:
        return struct.pack(">h", 0) + body
    ps = sorted(owned)
    return (struct.pack(">h", 1) + body + struct.pack(">i", 1) + s16("t1") + struct.pack(">i", len(ps))
            + b"".join(struct.pack(">i", p) for p in ps))


def assignment(ps: frozenset[int], version: int = 0) -> bytes:
    sorted_ps = sorted(ps)
    return (struct.pack(">hi", version, 1) + s16("t1") + struct.pack(">i", len(sorted_ps))
            + b"".join(struct.pack(">i", p) for p in sorted_ps) + struct.pack(">i", -1))


def read_assignment(data: bytes) -> frozenset[int]:
    """The t1 partitions of a ConsumerProtocolAssignment (any version)."""
    pos = 2
    (topics,) = struct.unpack_from(">i", data, pos)
    pos += 4
    out: set[int] = set()
    for _ in range(topics):
        (n,) = struct.unpack_from(">h", data, pos)
        pos += 2 + n
        (count,) = struct.unpack_from(">i", data, pos)
        pos += 4
        out.update(struct.unpack_from(f">{count}i", data, pos))
        pos += 4 * count
    return frozenset(out)


class Mixed(Harness):
    """The consumer group harness with classic members that speak real ConsumerProtocol bytes."""

    def classic_join(self, member_id: str = "", owned: frozenset[int] | None = None,
                     instance_id: str | None = None, protocols: tuple[str, ...] = ("range",),
                     require_known: bool = False) -> list[JoinResult]:
        got: list[JoinResult] = []
        self.base.coordinator.join_group(
            GROUP, member_id, instance_id, require_known, False, "classic-client", "/127.0.0.1", REBALANCE_MS,
            CLASSIC_SESSION_MS, "consumer", [(p, subscription(owned=owned)) for p in protocols], got.append)
        return got

    def classic_sync(self, member_id: str, generation: int, assignments: dict[str, bytes] | None = None,
                     protocol: str = "range") -> list[SyncResult]:
        got: list[SyncResult] = []
        self.base.coordinator.sync_group(GROUP, generation, member_id, "consumer", protocol, None,
                                         assignments or {}, got.append)
        return got

    def classic_heartbeat(self, member_id: str, generation: int) -> ErrorCode:
        return self.base.coordinator.heartbeat(GROUP, member_id, None, generation)

    def stable_classic_group(self) -> tuple[str, str, int]:
        """Two classic members, the leader's assignment splitting t1 0-2 / 3-5: their ids and generation."""
        first = self.classic_join()
        second = self.classic_join()
        self.time.sleep(0)
        a, b = first[0].member_id, second[0].member_id
        generation = first[0].generation_id
        leader = self.base.group.leader_id
        assert leader is not None
        follower = b if leader == a else a
        assert self.classic_sync(follower, generation) == []  # parked until the leader's assignment
        done = self.classic_sync(leader, generation, {a: assignment(frozenset({0, 1, 2})),
                                                      b: assignment(frozenset({3, 4, 5}))})
        assert done[0].error == ErrorCode.NONE and self.base.group.is_state(GroupState.STABLE)
        return a, b, generation

    def partitions(self) -> dict[str, frozenset[int]]:
        return {mid: m.assigned.get(T1, frozenset()) for mid, m in self.group.members.items()}

    def rejoin_and_sync(self, member_id: str, owned: frozenset[int]) -> tuple[int, frozenset[int]]:
        """A classic member rejoins (as the Java consumer: owned partitions in its subscription)
        and syncs: its new generation and partitions."""
        joined = self.classic_join(member_id, owned=owned)
        assert joined[0].error == ErrorCode.NONE, joined
        assert (joined[0].protocol_type, joined[0].protocol_name, joined[0].leader_id, joined[0].members) == (
            "consumer", "range", "", [])
        synced = self.classic_sync(member_id, joined[0].generation_id)
        assert synced[0].error == ErrorCode.NONE, synced
        return joined[0].generation_id, read_assignment(synced[0].assignment)


@pytest.fixture
def m(tmp_path: Path) -> Iterator[Mixed]:
    harness = Mixed(tmp_path)
    yield harness
    harness.base.close()


def no_partition_twice(m: Mixed) -> None:
    assert all(len(who) == 1 for who in m.owners().values())


def upgrade(m: Mixed) -> tuple[str, str, int]:
    a, b, generation = m.stable_classic_group()
    joined = m.join("c")
    assert joined.error == ErrorCode.NONE
    return a, b, generation


def test_a_consumer_protocol_member_upgrades_a_classic_group_with_members(m: Mixed) -> None:
    a, b, generation = m.stable_classic_group()
    c = m.join("c")
    assert GROUP not in m.base.coordinator.groups and GROUP in m.cgc.groups
    # The classic members came over at the generation, with their assignments, Stable.
    for member_id, ps in ((a, {0, 1, 2}), (b, {3, 4, 5})):
        member = m.group.members[member_id]
        assert (member.member_epoch, member.state, member.assigned) == (generation, MemberState.STABLE,
                                                                       {T1: frozenset(ps)})
        assert member.classic is not None and member.classic.session_timeout_ms == CLASSIC_SESSION_MS
        assert member.classic.protocols[0][0] == "range" and member.subscribed_topic_names == ("t1",)
    # The joiner bumped the epoch; its share is still held by the classic members.
    assert (c.error, c.member_epoch, c.assignment) == (ErrorCode.NONE, generation + 1, {})
    assert m.group.group_epoch == generation + 1 and m.group.state == ConsumerGroupState.RECONCILING
    # The classic members learn of the rebalance on their next heartbeat.
    assert m.classic_heartbeat(a, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    assert m.classic_heartbeat(b, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    assert m.classic_heartbeat(b, generation + 1) == ErrorCode.ILLEGAL_GENERATION
    # An eager member (range) rejoins owning nothing: it moves to the new epoch at once.
    gen_a, got_a = m.rejoin_and_sync(a, frozenset())
    gen_b, got_b = m.rejoin_and_sync(b, frozenset())
    assert gen_a == gen_b == generation + 1
    assert m.classic_heartbeat(a, gen_a) == ErrorCode.NONE
    c2 = m.beat("c", generation + 1, {})
    got_c = c2.assignment[T1] if c2.assignment else frozenset()
    assert got_a | got_b | got_c == ALL and len(got_a) + len(got_b) + len(got_c) == 6
    assert len(got_a) == len(got_b) == len(got_c) == 2
    assert m.group.state == ConsumerGroupState.STABLE
    no_partition_twice(m)


def test_a_cooperative_classic_member_revokes_before_its_partitions_move(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    # a rejoins still owning all three: it must revoke first, so it stays at its epoch.
    joined = m.classic_join(a, owned=frozenset({0, 1, 2}))
    assert joined[0].generation_id == generation
    assert m.group.members[a].state == MemberState.UNREVOKED_PARTITIONS
    kept = read_assignment(m.classic_sync(a, generation)[0].assignment)
    assert len(kept) == 2 and kept < {0, 1, 2}
    assert m.classic_heartbeat(a, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    no_partition_twice(m)
    # Having let go, it rejoins and reaches the new epoch.
    again = m.classic_join(a, owned=kept)
    assert again[0].generation_id == generation + 1
    assert m.group.members[a].state in (MemberState.STABLE, MemberState.UNRELEASED_PARTITIONS)
    no_partition_twice(m)


def test_the_upgrade_is_refused_as_kafka_refuses_it(m: Mixed, tmp_path: Path) -> None:
    m.stable_classic_group()
    m.cgc.config = replace(m.cgc.config, migration_policy=MigrationPolicy.DOWNGRADE)
    refused = m.join("c")
    assert (refused.error, refused.message) == (
        ErrorCode.GROUP_ID_NOT_FOUND,
        f"Cannot upgrade classic group {GROUP} to consumer group because online upgrade is disabled.")
    m.cgc.config = replace(m.cgc.config, migration_policy=MigrationPolicy.UPGRADE, max_size=1)
    refused = m.join("c")
    assert refused.message == (f"Cannot upgrade classic group {GROUP} to consumer group because the group size "
                               "exceeds the consumer group maximum size.")
    m.cgc.config = replace(m.cgc.config, max_size=10)
    leader = m.base.group.members[m.base.group.leader_id or ""]
    leader.assignment = leader.assignment[:-4] + struct.pack(">i", 2) + b"ud"  # a custom assignor's user data
    refused = m.join("c")
    assert refused.message == (f"Cannot upgrade classic group {GROUP} to consumer group because an unsupported "
                               "custom assignor is in use. Please refer to the documentation or switch to a default "
                               "assignor before re-attempting the upgrade.")
    m.base.group.protocol_type = "connect"
    refused = m.join("c")
    assert refused.message == (f"Cannot upgrade classic group {GROUP} to consumer group because the group does not "
                               "use the consumer embedded protocol.")
    # A heartbeat at a member epoch (no join) does not convert either.
    assert m.send(HeartbeatRequest(GROUP, "c", 1)).message == f"Group {GROUP} is not a consumer group."
    assert m.base.group.is_state(GroupState.STABLE) and GROUP not in m.cgc.groups


def test_a_classic_member_joins_a_consumer_group(m: Mixed) -> None:
    m.join("c")
    first = m.classic_join(require_known=True)
    assert first[0].error == ErrorCode.MEMBER_ID_REQUIRED and first[0].member_id
    member_id = first[0].member_id
    generation, got = m.rejoin_and_sync(member_id, frozenset())
    assert generation == 3 and got == frozenset()  # its share is c's until c revokes
    assert m.group.members[member_id].state == MemberState.UNRELEASED_PARTITIONS
    assert m.classic_heartbeat(member_id, 3) == ErrorCode.NONE  # still waiting on c
    c = m.beat("c", 2, {T1: ALL})
    kept = c.assignment[T1] if c.assignment else frozenset()
    assert len(kept) == 3
    m.beat("c", 2, {T1: kept})
    # Its partitions are free now: its heartbeat sends it back to JoinGroup to get them.
    assert m.classic_heartbeat(member_id, 3) == ErrorCode.REBALANCE_IN_PROGRESS
    generation, got = m.rejoin_and_sync(member_id, frozenset())
    assert got == ALL - kept and generation == 3
    no_partition_twice(m)
    # A protocol the group's classic members do not share, or another protocol type, is refused.
    assert m.classic_join(protocols=("roundrobin",))[0].error == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    # SyncGroup / Heartbeat for a consumer-protocol member, or a wrong generation.
    assert m.classic_sync("c", 3)[0].error == ErrorCode.UNKNOWN_MEMBER_ID
    assert m.classic_sync(member_id, 2)[0].error == ErrorCode.ILLEGAL_GENERATION
    assert m.classic_sync(member_id, 3, protocol="other")[0].error == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    assert m.classic_heartbeat("c", 3) == ErrorCode.UNKNOWN_MEMBER_ID


def test_classic_members_commit_with_their_generation(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    om = OffsetAndMetadata(5, -1, "", m.time.milliseconds(), None)
    got: list[dict] = []
    m.cgc.commit_offsets(GROUP, a, generation + 1, 8, {("t1", 0): om}, got.append)
    m.cgc.commit_offsets(GROUP, a, generation, 8, {("t1", 0): om}, got.append)  # v8: fine for a classic member
    m.time.sleep(0)
    assert [r[("t1", 0)] for r in got] == [ErrorCode.ILLEGAL_GENERATION, ErrorCode.NONE]
    assert m.cgc.fetch_offsets(GROUP, None, -1, [("t1", 0)]) == (ErrorCode.NONE, {("t1", 0): om})


def test_classic_members_that_do_not_rejoin_or_sync_in_time_are_fenced(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    assert m.classic_heartbeat(a, generation) == ErrorCode.REBALANCE_IN_PROGRESS  # a's deadline starts
    step = CLASSIC_SESSION_MS // 2
    for _ in range(REBALANCE_MS // step - 1):  # both keep their sessions alive
        m.time.sleep(step)
        assert m.classic_heartbeat(a, generation) == ErrorCode.REBALANCE_IN_PROGRESS  # not a new deadline
        m.classic_heartbeat(b, generation)
        m.beat("c", m.group.members["c"].member_epoch)
    m.time.sleep(step - 1)
    assert a in m.group.members
    m.time.sleep(1)
    assert a not in m.group.members and b in m.group.members  # a never rejoined
    joined = m.classic_join(b, owned=frozenset())
    assert joined[0].error == ErrorCode.NONE
    for _ in range(REBALANCE_MS // step - 1):  # b heartbeats but never sends its SyncGroup
        m.time.sleep(step)
        assert m.classic_heartbeat(b, joined[0].generation_id) == ErrorCode.NONE
        m.beat("c", m.group.members["c"].member_epoch)
    m.time.sleep(step - 1)
    assert b in m.group.members
    m.time.sleep(1)
    assert b not in m.group.members


def test_a_classic_member_is_fenced_after_its_own_session_timeout(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    for _ in range(3):
        m.beat("c", m.group.members["c"].member_epoch)
        m.time.sleep(CLASSIC_SESSION_MS // 2)
        m.classic_heartbeat(b, generation)
    assert a not in m.group.members and b in m.group.members


def test_the_last_consumer_protocol_member_leaving_downgrades_the_group(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    m.rejoin_and_sync(a, frozenset())
    m.rejoin_and_sync(b, frozenset())
    epoch = m.group.group_epoch
    targets = {mid: m.group.target[mid][T1] for mid in (a, b)}
    left = m.send(HeartbeatRequest(GROUP, "c", -1))
    assert left.error == ErrorCode.NONE
    assert GROUP not in m.cgc.groups
    classic = m.base.group
    assert (classic.state, classic.generation_id, classic.protocol_type, classic.protocol_name) == (
        GroupState.PREPARING_REBALANCE, epoch, "consumer", "range")
    assert set(classic.members) == {a, b}
    assert {mid: read_assignment(classic.members[mid].assignment) for mid in (a, b)} == targets
    assert classic.members[a].session_timeout_ms == CLASSIC_SESSION_MS
    # The members rejoin the classic group; its leader assigns everything.
    assert m.classic_heartbeat(a, epoch) == ErrorCode.REBALANCE_IN_PROGRESS
    ja, jb = m.classic_join(a, owned=frozenset()), m.classic_join(b, owned=frozenset())
    assert ja[0].generation_id == jb[0].generation_id == epoch + 1
    leader = classic.leader_id
    assert leader in (a, b)
    done = m.classic_sync(leader, epoch + 1, {a: assignment(frozenset({0, 1, 2})), b: assignment(frozenset({3, 4, 5}))})
    assert done[0].error == ErrorCode.NONE and classic.is_state(GroupState.STABLE)
    # It is a classic group in the log too.
    failover(m)
    assert GROUP not in m.cgc.groups and set(m.base.group.members) == {a, b}
    assert m.base.group.generation_id == epoch + 1


def test_then_upgrade_and_downgrade_again(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    m.send(HeartbeatRequest(GROUP, "c", -1))
    ja, jb = m.classic_join(a, owned=frozenset()), m.classic_join(b, owned=frozenset())
    gen = ja[0].generation_id
    assert jb[0].generation_id == gen
    leader = m.base.group.leader_id
    assert leader is not None
    m.classic_sync(leader, gen, {a: assignment(frozenset({0, 1, 2})), b: assignment(frozenset({3, 4, 5}))})
    assert m.base.group.is_state(GroupState.STABLE)
    d = m.join("d")
    assert d.error == ErrorCode.NONE and m.group.group_epoch == gen + 1
    assert {m.group.members[x].member_epoch for x in (a, b)} == {gen}
    m.send(HeartbeatRequest(GROUP, "d", -1))
    # The classic group takes the consumer group's epoch as its generation (the leave itself bumps nothing).
    assert m.base.group.is_state(GroupState.PREPARING_REBALANCE) and m.base.group.generation_id == gen + 1


def test_a_mixed_group_survives_a_failover_with_its_classic_members(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    m.rejoin_and_sync(a, frozenset())
    before = dict(m.group.members)
    failover(m)
    assert m.group.members == before  # classic metadata, epochs and all
    assert m.group.members[a].classic is not None and m.group.members["c"].classic is None
    assert m.classic_heartbeat(a, generation + 1) == ErrorCode.NONE
    assert m.classic_heartbeat(b, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    # The session timers restart on load with each classic member's own timeout.
    m.time.sleep(CLASSIC_SESSION_MS - 1)
    m.beat("c", m.group.members["c"].member_epoch)
    m.classic_heartbeat(a, generation + 1)
    m.time.sleep(1)
    assert b not in m.group.members and a in m.group.members


def test_classic_leave_group_removes_the_member_and_bumps_the_epoch(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    epoch = m.group.group_epoch
    assert m.base.coordinator.leave_group(GROUP, [(a, None), ("nope", None), ("c", None)]) == (
        ErrorCode.NONE, [ErrorCode.NONE, ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.UNKNOWN_MEMBER_ID])
    assert a not in m.group.members and m.group.group_epoch == epoch + 1


def test_a_downgrade_that_cannot_read_a_protocol_leaves_a_consumer_group(m: Mixed) -> None:
    a, b, generation = upgrade(m)
    for member_id in (a, b):  # their protocol's metadata no longer readable
        member = m.group.members[member_id]
        assert member.classic is not None
        m.group.update_member(replace(member, classic=replace(member.classic, protocols=(("range", b""),))))
    epoch = m.group.group_epoch
    assert m.send(HeartbeatRequest(GROUP, "c", -1)).error == ErrorCode.NONE
    assert GROUP not in m.base.coordinator.groups and set(m.group.members) == {a, b}  # c left all the same
    assert m.group.group_epoch == epoch + 1


def test_a_classic_static_member_replacing_the_last_consumer_protocol_one_downgrades(m: Mixed) -> None:
    a, b, generation = m.stable_classic_group()
    m.join("c", instance_id="i1")  # a static consumer-protocol member upgrades the group
    m.rejoin_and_sync(a, frozenset())
    m.rejoin_and_sync(b, frozenset())
    c = m.beat("c", generation + 1, {}, instance_id="i1")
    assert c.assignment is not None and len(c.assignment[T1]) == 2
    epoch = m.group.group_epoch
    # The instance restarts with group.protocol=classic: same instance id, no member id.
    joined = m.classic_join(instance_id="i1", owned=frozenset())
    assert joined[0].error == ErrorCode.NONE and joined[0].generation_id == epoch
    assert GROUP not in m.cgc.groups
    classic = m.base.group
    assert classic.is_state(GroupState.STABLE) and classic.generation_id == epoch  # same subscription: no rebalance
    assert classic.static_members == {"i1": joined[0].member_id}
    synced = m.classic_sync(joined[0].member_id, epoch)
    assert (synced[0].error, read_assignment(synced[0].assignment)) == (ErrorCode.NONE, c.assignment[T1])
    assert m.classic_heartbeat(a, epoch) == ErrorCode.NONE
