"""The group coordinator's timeouts under MockTime: no sockets, no sleeps, no event loop.

The coordinator runs on a real ReplicaManager and log (this broker leads the one
__consumer_offsets partition alone, so every group write is acknowledged at once), with
every timer on a MockScheduler: each test moves time by hand and checks what happened
just before and just at each deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from josefk.coordinator.group_coordinator import GroupCoordinator
from josefk.coordinator.group_metadata import GroupMetadata, GroupState, JoinResult, SyncResult
from josefk.coordinator.offsets_store import OFFSETS_TOPIC
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.replication.coordinator_partitions import LocalCoordinatorPartitions
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import ReplicaManager, ReplicationSettings
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState

GROUP = "g"
SESSION_MS = 10_000
REBALANCE_MS = 30_000


class Coordinator:
    """A GroupCoordinator on fake time, with a client's calls as one-liners."""

    def __init__(self, tmp_path: Path, initial_rebalance_delay_ms: int = 0) -> None:
        self.time = MockTime()
        self.scheduler = MockScheduler(self.time)
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig(), time=self.time)
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.replicas = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _topic: LogConfig(),
                                       EmbeddedStore(tmp_path / "store.json"), ReplicationSettings(), self.executor,
                                       self.time, self.scheduler)
        state = PartitionState(OFFSETS_TOPIC, 0, 1, 1, [1], [1], 1)
        assert self.replicas.leader_and_isr(0, 1, [state], [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE
        self.coordinator = GroupCoordinator(
            1, LocalCoordinatorPartitions(self.replicas), num_partitions=1, min_session_timeout_ms=1,
            max_session_timeout_ms=300_000, initial_rebalance_delay_ms=initial_rebalance_delay_ms,
            offsets_retention_ms=7 * 24 * 3600 * 1000,
            time=self.time, scheduler=self.scheduler)
        self.coordinator.startup()
        self.coordinator.on_leadership_change()

    def close(self) -> None:
        self.coordinator.shutdown()
        self.replicas.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()

    @property
    def group(self) -> GroupMetadata:
        return self.coordinator.groups[GROUP]

    def join(self, member_id: str = "", instance_id: str | None = None, session_ms: int = SESSION_MS,
             rebalance_ms: int = REBALANCE_MS) -> list[JoinResult]:
        """Send a JoinGroup; the list gets the response whenever the coordinator sends it."""
        got: list[JoinResult] = []
        self.coordinator.join_group(GROUP, member_id, instance_id, False, False, "client", "/127.0.0.1",
                                    rebalance_ms, session_ms, "consumer", [("range", b"")], got.append)
        return got

    def sync(self, member_id: str, generation: int, assignments: dict[str, bytes] | None = None,
             instance_id: str | None = None) -> list[SyncResult]:
        got: list[SyncResult] = []
        self.coordinator.sync_group(GROUP, generation, member_id, "consumer", "range", instance_id,
                                    assignments or {}, got.append)
        return got

    def heartbeat(self, member_id: str, generation: int, instance_id: str | None = None) -> ErrorCode:
        return self.coordinator.heartbeat(GROUP, member_id, instance_id, generation)

    def stable_group(self, instance_ids: list[str | None]) -> list[str]:
        """Members join one by one and the group settles; their member ids, the leader's first."""
        ids: list[str] = []
        for instance_id in instance_ids:
            newcomer = self.join(instance_id=instance_id)  # the others learn of it and rejoin
            parked = [self.join(m, iid) for m, iid in zip(ids, instance_ids, strict=False)] + [newcomer]
            self.time.sleep(0)  # the initial delay, when there is one, is 0 here
            assert all(len(p) == 1 and p[0].error == ErrorCode.NONE for p in parked)
            ids = [p[0].member_id for p in parked]
            generation = parked[0][0].generation_id
            for member_id, iid in zip(ids, instance_ids, strict=False):
                assignment = {m: m.encode() for m in ids} if member_id == self.group.leader_id else None
                assert self.sync(member_id, generation, assignment, iid)[0].error == ErrorCode.NONE
        assert self.group.is_state(GroupState.STABLE)
        return ids


@pytest.fixture
def gc(tmp_path: Path) -> Iterator[Coordinator]:
    coordinator = Coordinator(tmp_path)
    yield coordinator
    coordinator.close()


def test_a_member_that_stops_heartbeating_is_expelled_after_the_session_timeout(gc: Coordinator) -> None:
    a, b = gc.stable_group([None, None])
    generation = gc.group.generation_id
    gc.time.sleep(SESSION_MS // 2)
    assert gc.heartbeat(b, generation) == ErrorCode.NONE  # b keeps heartbeating; a falls silent
    gc.time.sleep(SESSION_MS // 2 - 1)
    assert gc.group.has(a) and gc.group.is_state(GroupState.STABLE)
    gc.time.sleep(1)  # a's session.timeout.ms is up
    assert not gc.group.has(a)
    assert gc.group.is_state(GroupState.PREPARING_REBALANCE)
    assert gc.heartbeat(b, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    assert gc.heartbeat(a, generation) == ErrorCode.UNKNOWN_MEMBER_ID
    rejoined = gc.join(b)  # b is the only member left: the rebalance completes at once
    assert [(r.error, r.generation_id, r.leader_id, [m[0] for m in r.members]) for r in rejoined] == [
        (ErrorCode.NONE, generation + 1, b, [b])]


def test_the_initial_rebalance_delay_waits_while_members_keep_joining(tmp_path: Path) -> None:
    """group.initial.rebalance.delay.ms: each new member restarts the delay, but the first
    generation never waits longer than the rebalance timeout."""
    gc = Coordinator(tmp_path, initial_rebalance_delay_ms=3_000)
    try:
        first = gc.join(rebalance_ms=10_000)
        gc.time.sleep(2_000)
        second = gc.join(rebalance_ms=10_000)
        gc.time.sleep(3_999)  # t=5999: the delay restarted at t=3000, since a member joined meanwhile
        assert first == [] and second == []
        gc.time.sleep(1)
        assert [r.generation_id for r in first + second] == [1, 1]
        assert len(first[0].members) == 2
    finally:
        gc.close()


def test_the_initial_rebalance_delay_is_bounded_by_the_rebalance_timeout(tmp_path: Path) -> None:
    gc = Coordinator(tmp_path, initial_rebalance_delay_ms=3_000)
    try:
        parked = [gc.join(rebalance_ms=10_000)]
        for _ in range(4):  # a new member every 2 s would put the group off forever
            gc.time.sleep(2_000)
            parked.append(gc.join(rebalance_ms=10_000))
        gc.time.sleep(1_999)  # t=9999
        assert not any(parked)
        gc.time.sleep(1)  # t=10000: the rebalance timeout
        assert [len(p) for p in parked] == [1] * 5
        assert {p[0].generation_id for p in parked} == {1} and len(parked[0][0].members) == 5
    finally:
        gc.close()


def test_a_static_member_restarting_within_the_session_timeout_keeps_its_assignment(gc: Coordinator) -> None:
    old, other = gc.stable_group(["instance-a", "instance-b"])
    generation = gc.group.generation_id
    gc.time.sleep(SESSION_MS - 1)
    assert gc.heartbeat(other, generation, "instance-b") == ErrorCode.NONE
    # instance-a restarts: it has lost its member id and joins as new, with its group.instance.id.
    rejoined = gc.join(instance_id="instance-a")
    assert len(rejoined) == 1 and rejoined[0].error == ErrorCode.NONE
    new = rejoined[0].member_id
    assert new != old and rejoined[0].generation_id == generation  # no rebalance
    assert gc.group.is_state(GroupState.STABLE)
    assert gc.heartbeat(other, generation, "instance-b") == ErrorCode.NONE
    assert gc.heartbeat(old, generation, "instance-a") == ErrorCode.FENCED_INSTANCE_ID
    synced = gc.sync(new, generation, instance_id="instance-a")
    assert [(s.error, s.assignment) for s in synced] == [(ErrorCode.NONE, old.encode())]
    gc.time.sleep(SESSION_MS - 1)  # the new id's session started at the rejoin
    assert gc.group.has(new)


def test_a_static_member_gone_longer_than_the_session_timeout_is_removed(gc: Coordinator) -> None:
    gone, other = gc.stable_group(["instance-a", "instance-b"])
    generation = gc.group.generation_id
    gc.time.sleep(SESSION_MS - 1)
    assert gc.heartbeat(other, generation, "instance-b") == ErrorCode.NONE
    gc.time.sleep(1)
    assert not gc.group.has(gone) and gc.group.is_state(GroupState.PREPARING_REBALANCE)


def test_a_member_that_misses_the_rebalance_timeout_is_removed(gc: Coordinator) -> None:
    a, b = gc.stable_group([None, None])
    generation = gc.group.generation_id
    leader = a if gc.group.is_leader(a) else b
    follower = b if leader == a else a
    rejoined = gc.join(leader)  # the leader asks for a new assignment; the follower never rejoins
    for _ in range(3):  # heartbeats keep the follower's session alive, but they are no JoinGroup
        gc.time.sleep(REBALANCE_MS // 4)
        assert gc.heartbeat(follower, generation) == ErrorCode.REBALANCE_IN_PROGRESS
    gc.time.sleep(REBALANCE_MS // 4 - 1)
    assert rejoined == [] and gc.group.has(follower)
    gc.time.sleep(1)  # the rebalance timeout
    assert [(r.error, r.generation_id, [m[0] for m in r.members]) for r in rejoined] == [
        (ErrorCode.NONE, generation + 1, [leader])]
    assert not gc.group.has(follower)
    assert gc.heartbeat(follower, generation) == ErrorCode.UNKNOWN_MEMBER_ID


def test_a_leader_epoch_bump_without_a_new_leader_keeps_the_groups(gc: Coordinator) -> None:
    """The controller bumps the leader epoch of __consumer_offsets when it shrinks the ISR,
    the leader staying. Kafka's coordinator reloads only on a new leader (makeLeader's
    isNewLeader): a member parked in a rebalance keeps waiting and the group goes on."""
    a, b = gc.stable_group([None, None])  # a leads: its rejoin starts a rebalance
    group = gc.group
    parked = gc.join(a)
    assert group.is_state(GroupState.PREPARING_REBALANCE) and parked == []
    state = PartitionState(OFFSETS_TOPIC, 0, 1, 2, [1], [1], 1)
    assert gc.replicas.leader_and_isr(0, 1, [state], [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE
    gc.coordinator.on_leadership_change()
    gc.time.sleep(0)
    assert parked == []  # not answered NOT_COORDINATOR
    assert gc.coordinator.groups[GROUP] is group
    rejoined = gc.join(b)
    gc.time.sleep(0)
    assert [r.error for r in parked + rejoined] == [ErrorCode.NONE, ErrorCode.NONE]
    generation = rejoined[0].generation_id
    assert group.leader_id is not None
    assert gc.sync(group.leader_id, generation, {a: b"a", b: b"b"})[0].error == ErrorCode.NONE
    assert group.is_state(GroupState.STABLE)
