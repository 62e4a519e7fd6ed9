"""Share groups' membership state machine under MockTime: epochs without reconciliation,
session timeouts, leaving, topic changes, the group size cap and the border with classic
and consumer groups. The coordinators run on the real GroupCoordinator, ReplicaManager and
log of the classic timeouts test (tests/test_group_timeouts.py), every timer on a MockScheduler."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from josefk.coordinator.consumer_group_coordinator import (
    ConsumerGroupConfig,
    ConsumerGroupCoordinator,
    HeartbeatRequest,
)
from josefk.coordinator.share_group import InitTopic, ShareGroup, ShareGroupState
from josefk.coordinator.share_group_coordinator import (
    ShareGroupConfig,
    ShareGroupCoordinator,
    ShareHeartbeatRequest,
    ShareHeartbeatResult,
)
from josefk.protocol.errors import ErrorCode
from josefk.replication.share_state_service import StateKey, StateResult
from tests.test_consumer_group import Topics
from tests.test_group_timeouts import GROUP, Coordinator

T1 = uuid.UUID(int=1)
SESSION_MS = 45_000


class ShareCoordinators:
    """The share coordinators as the group coordinator reaches them: each call is kept, and
    answered at once with `error`, or left for the test to answer when `hold`."""

    def __init__(self) -> None:
        self.error = ErrorCode.NONE
        self.hold = False
        self.initialized: list[tuple[StateKey, int, int]] = []
        self.deleted: list[StateKey] = []
        self.waiting: list[Callable[[StateResult], None]] = []

    def _answer(self, done: Callable[[StateResult], None]) -> None:
        if self.hold:
            self.waiting.append(done)
        else:
            done(StateResult(self.error))

    def reset(self, key: StateKey, state_epoch: int, start_offset: int, done: Callable[[StateResult], None]) -> None:
        self.initialized.append((key, state_epoch, start_offset))
        self._answer(done)

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None:
        self.deleted.append(key)
        self._answer(done)


class Harness:
    def __init__(self, tmp_path: Path, max_size: int = 200, initialized: bool = True) -> None:
        """`initialized`: the group starts with t1's share state initialized (as once its
        first member has joined), so assignments come at once."""
        self.base = Coordinator(tmp_path)
        self.time = self.base.time
        self.topics = Topics()
        self.topics.add("t1", T1, 4)
        self.consumer = ConsumerGroupCoordinator(self.base.coordinator, self.topics, ConsumerGroupConfig())
        self.sgc = ShareGroupCoordinator(self.base.coordinator, self.consumer, self.topics,
                                         ShareGroupConfig(SESSION_MS, 5000, max_size))
        self.share = ShareCoordinators()
        self.sgc.state = self.share
        self.left: list[tuple[str, str]] = []
        self.sgc.member_listeners.append(lambda g, m: self.left.append((g, m)))
        if initialized:
            group = self.sgc.groups[GROUP] = ShareGroup(GROUP)
            group.initialized[T1] = InitTopic("t1", frozenset(range(4)))

    @property
    def group(self) -> ShareGroup:
        return self.sgc.groups[GROUP]

    def send(self, req: ShareHeartbeatRequest) -> ShareHeartbeatResult:
        got: list[ShareHeartbeatResult] = []
        self.sgc.heartbeat(req, got.append)
        assert len(got) == 1
        return got[0]

    def join(self, member_id: str, topics: tuple[str, ...] = ("t1",)) -> ShareHeartbeatResult:
        return self.send(ShareHeartbeatRequest(GROUP, member_id, 0, subscribed_topic_names=topics))

    def beat(self, member_id: str, epoch: int) -> ShareHeartbeatResult:
        return self.send(ShareHeartbeatRequest(GROUP, member_id, epoch))


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path)
    yield harness
    harness.base.close()


def parts(*ps: int) -> dict[uuid.UUID, frozenset[int]]:
    return {T1: frozenset(ps)}


def test_members_take_their_target_at_once_and_share_partitions(h: Harness) -> None:
    first = h.join("a")
    assert (first.error, first.member_epoch, first.assignment) == (ErrorCode.NONE, 2, parts(0, 1, 2, 3))
    assert h.group.state == ShareGroupState.STABLE
    assert h.beat("a", 2).assignment is None  # nothing changed: not sent
    second = h.join("b")
    assert (second.member_epoch, second.assignment) == (3, parts(2, 3))
    # a keeps 0-3 until its next heartbeat, then moves to epoch 3 with half: no revocation round
    assert h.group.members["a"].assigned == parts(0, 1, 2, 3)
    moved = h.beat("a", 2)
    assert (moved.member_epoch, moved.assignment) == (3, parts(0, 1))
    for m in "cdefgh":
        h.join(m)
    for m in "abcdefgh":
        h.beat(m, h.group.members[m].member_epoch)
    held = sorted(p for m in h.group.members.values() for p in m.assigned[T1])
    assert held == [0, 0, 1, 1, 2, 2, 3, 3]  # eight members on four partitions: two on each


def test_session_timeout_fences_and_the_others_take_over(h: Harness) -> None:
    h.join("a")
    h.join("b")
    h.beat("a", 2)
    h.time.sleep(SESSION_MS - 1)
    h.beat("a", 3)
    h.time.sleep(1)
    assert set(h.group.members) == {"a"} and h.left == [(GROUP, "b")]
    assert h.group.group_epoch == 4
    back = h.beat("a", 3)  # b's partitions initialized but unassigned: the epoch moves again (Kafka's too)
    assert (back.member_epoch, back.assignment) == (5, parts(0, 1, 2, 3))
    gone = h.beat("b", 3)
    assert gone.error == ErrorCode.UNKNOWN_MEMBER_ID
    h.time.sleep(SESSION_MS)
    assert h.group.state == ShareGroupState.EMPTY and h.group.group_epoch == 6


def test_leave_fencing_and_validation(h: Harness) -> None:
    h.join("a")
    assert h.beat("a", 3).error == ErrorCode.FENCED_MEMBER_EPOCH
    h.join("b")
    assert h.beat("a", 2).member_epoch == 3
    assert h.beat("a", 2).error == ErrorCode.NONE  # the previous epoch: a lost response
    assert h.join("a").member_epoch == 3  # re-joining at 0 with the same id (after a fencing) keeps it
    left = h.send(ShareHeartbeatRequest(GROUP, "a", -1))
    assert (left.error, left.member_epoch) == (ErrorCode.NONE, -1) and h.left == [(GROUP, "a")]
    assert h.send(ShareHeartbeatRequest(GROUP, "a", -1)).error == ErrorCode.UNKNOWN_MEMBER_ID
    assert h.send(ShareHeartbeatRequest(GROUP, "x", -2)).message == "MemberEpoch is invalid."
    assert h.send(ShareHeartbeatRequest(GROUP, " ", 0, subscribed_topic_names=("t1",))).message == (
        "MemberId can't be empty.")
    assert h.send(ShareHeartbeatRequest(GROUP, "x", 0, subscribed_topic_names=())).message == (
        "SubscribedTopicNames must be set in first request.")


def test_a_new_partition_moves_the_epoch(h: Harness) -> None:
    h.join("a")
    h.join("b")
    h.beat("a", 2)
    h.topics.add("t1", T1, 6)
    moved = h.beat("a", 3)  # partitions 4 and 5 have no share state yet: not assigned
    assert moved.member_epoch == 4 and moved.assignment is None
    assert h.share.initialized == [((GROUP, T1, 4), 4, -1), ((GROUP, T1, 5), 4, -1)]
    moved = h.beat("a", 4)  # initialized since: the epoch moves for them
    assert moved.member_epoch == 5 and moved.assignment is not None and len(moved.assignment[T1]) == 3
    unknown = h.join("c", ("nope",))
    assert (unknown.error, unknown.assignment) == (ErrorCode.NONE, {})


def test_group_size_cap(tmp_path: Path) -> None:
    h = Harness(tmp_path, max_size=2)
    try:
        h.join("a")
        h.join("b")
        full = h.join("c")
        assert (full.error, full.message) == (ErrorCode.GROUP_MAX_SIZE_REACHED,
                                              "The share group has reached its maximum capacity of 2 members.")
    finally:
        h.base.close()


def test_one_type_per_group_id(h: Harness) -> None:
    h.join("a")
    consumer: list = []
    h.consumer.heartbeat(HeartbeatRequest(GROUP, "c", 0, rebalance_timeout_ms=30_000,
                                          subscribed_topic_names=("t1",), owned={}), consumer.append)
    assert (consumer[0].error, consumer[0].message) == (ErrorCode.GROUP_ID_NOT_FOUND,
                                                        f"Group {GROUP} is not a consumer group.")
    assert h.sgc.join_guard(GROUP) == ErrorCode.GROUP_ID_NOT_FOUND
    assert h.base.join()[0].error == ErrorCode.GROUP_ID_NOT_FOUND  # a classic JoinGroup
    h.consumer.heartbeat(HeartbeatRequest("cg", "c", 0, rebalance_timeout_ms=30_000,
                                          subscribed_topic_names=("t1",), owned={}), consumer.append)
    assert consumer[1].error == ErrorCode.NONE
    refused = h.send(ShareHeartbeatRequest("cg", "a", 0, subscribed_topic_names=("t1",)))
    assert (refused.error, refused.message) == (ErrorCode.GROUP_ID_NOT_FOUND, "Group cg is not a share group.")
    assert h.sgc.delete_group(GROUP) == ErrorCode.NON_EMPTY_GROUP
    h.send(ShareHeartbeatRequest(GROUP, "a", -1))
    assert h.sgc.delete_group(GROUP) == ErrorCode.NONE and not h.sgc.is_share_group(GROUP)


def test_after_a_failover_the_group_comes_back_from_its_records(h: Harness) -> None:
    """The group's records in __consumer_offsets (Kafka 4.4's ShareGroup* layouts) rebuild
    it: epochs, members, targets and assignments; sessions restart; leaving deletes them."""
    h.join("a")
    h.join("b")
    h.beat("a", 2)
    before = (h.group.group_epoch, h.group.assignment_epoch, dict(h.group.members), dict(h.group.target))
    gc = h.base.coordinator
    gc.unload_partition(0)
    assert GROUP not in h.sgc.groups
    gc.on_leadership_change()
    h.time.sleep(0)
    assert (h.group.group_epoch, h.group.assignment_epoch, h.group.members, h.group.target) == before
    assert h.group.state == ShareGroupState.STABLE
    assert h.beat("a", 3).error == ErrorCode.NONE  # carries on at its epoch
    h.time.sleep(SESSION_MS)  # b's session restarted at the load and ran out; a's too
    assert h.group.members == {} and h.group.group_epoch == 5
    gc.unload_partition(0)
    gc.on_leadership_change()
    h.time.sleep(0)
    assert (h.group.state, h.group.group_epoch) == (ShareGroupState.EMPTY, 5)
    assert h.sgc.delete_group(GROUP) == ErrorCode.NONE
    gc.unload_partition(0)
    gc.on_leadership_change()
    h.time.sleep(0)
    assert GROUP not in h.sgc.groups  # the tombstones deleted it


def test_a_new_group_has_its_share_state_initialized_before_it_is_assigned(tmp_path: Path) -> None:
    """Kafka 4.4's GroupMetadataManager: the first heartbeat asks the share coordinator to
    initialize the subscribed partitions (state epoch the group epoch, start offset -1) and
    assigns nothing; once initialized, the next heartbeat moves the epoch and assigns them."""
    h = Harness(tmp_path, initialized=False)
    try:
        first = h.join("a")
        assert (first.error, first.member_epoch, first.assignment) == (ErrorCode.NONE, 2, {})
        assert h.share.initialized == [((GROUP, T1, p), 2, -1) for p in range(4)]
        assert h.group.initialized[T1].partitions == frozenset(range(4)) and not h.group.initializing
        second = h.beat("a", 2)
        assert (second.member_epoch, second.assignment) == (3, parts(0, 1, 2, 3))
        assert h.join("b").member_epoch == 4 and len(h.share.initialized) == 4  # asked once
        gc = h.base.coordinator  # the ShareGroupStatePartitionMetadata record brings it back
        gc.unload_partition(0)
        gc.on_leadership_change()
        h.time.sleep(0)
        assert h.group.initialized[T1].partitions == frozenset(range(4))
    finally:
        h.base.close()


def test_an_initialization_is_asked_again_when_it_failed_or_after_the_retry_interval(tmp_path: Path) -> None:
    h = Harness(tmp_path, initialized=False)
    try:
        h.share.error = ErrorCode.UNKNOWN_SERVER_ERROR
        h.join("a")
        assert len(h.share.initialized) == 4 and not h.group.initialized and not h.group.initializing
        h.share.error, h.share.hold = ErrorCode.NONE, True
        assert h.beat("a", 2).assignment is None and len(h.share.initialized) == 8  # failed: asked again
        h.beat("a", 2)
        assert len(h.share.initialized) == 8  # being initialized: not asked again within the interval
        h.time.sleep(30_000)
        h.beat("a", 2)
        assert len(h.share.initialized) == 12
        for done in h.share.waiting:
            done(StateResult())
        assert h.group.initialized[T1].partitions == frozenset(range(4)) and not h.group.initializing
        assert h.beat("a", 2).assignment == parts(0, 1, 2, 3)
    finally:
        h.base.close()


def test_deleting_a_group_deletes_its_share_state_first(h: Harness) -> None:
    h.join("a")
    got: list[dict[str, ErrorCode]] = []
    h.sgc.delete_states([GROUP], got.append)
    assert got == [{}] and h.share.deleted == []  # not empty: nothing deleted
    h.send(ShareHeartbeatRequest(GROUP, "a", -1))
    h.share.error = ErrorCode.COORDINATOR_NOT_AVAILABLE
    h.sgc.delete_states([GROUP], got.append)
    assert got[1] == {GROUP: ErrorCode.COORDINATOR_NOT_AVAILABLE}
    assert h.share.deleted == [(GROUP, T1, p) for p in range(4)]
    assert h.group.deleting == {T1: "t1"} and not h.group.initialized
    h.share.error = ErrorCode.NONE
    h.sgc.delete_states([GROUP], got.append)  # the topics still being deleted are asked again
    assert got[2] == {} and h.share.deleted[4:] == [(GROUP, T1, p) for p in range(4)]
    assert h.sgc.delete_group(GROUP) == ErrorCode.NONE


def test_a_deleted_topic_has_its_share_state_deleted(h: Harness) -> None:
    """Kafka's onPartitionsDeleted: after a metadata update without the topic, every group here
    with state of it has that state deleted, the topic no longer initialized."""
    h.join("a")
    h.sgc.topics_changed()  # the first update: what the cluster has
    assert h.share.deleted == []
    del h.topics.topics["t1"], h.topics.topic_ids["t1"]
    h.sgc.topics_changed()
    assert h.share.deleted == [(GROUP, T1, p) for p in range(4)]
    assert not h.group.initialized and not h.group.deleting  # deleted: no longer being deleted either
