"""KIP-848 consumer groups' state machine under MockTime: epochs, reconciliation,
timeouts, fencing, static members, offsets and the border with classic groups.

The coordinator runs on the same real ReplicaManager and log as the classic group
timeouts test (tests/test_group_timeouts.py), every timer on a MockScheduler.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest

from josefk.coordinator.consumer_group import ConsumerGroup, ConsumerGroupState, MemberState
from josefk.coordinator.consumer_group_apis import ConsumerGroupApis
from josefk.coordinator.consumer_group_coordinator import (
    ConsumerGroupConfig,
    ConsumerGroupCoordinator,
    HeartbeatRequest,
    HeartbeatResult,
)
from josefk.coordinator.group_apis import GroupApis
from josefk.coordinator.group_metadata import GroupState, OffsetAndMetadata
from josefk.coordinator.offsets_store import OFFSETS_TOPIC
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import AllowAll
from josefk.protocol.errors import ErrorCode
from josefk.protocol.headers import RequestHeader
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.test_group_timeouts import GROUP, Coordinator

T1 = uuid.UUID(int=1)
T2 = uuid.UUID(int=2)
SESSION_MS = 45_000
REBALANCE_MS = 30_000


@dataclass
class Topics:
    topics: dict[str, dict[int, object]] = field(default_factory=dict)
    topic_ids: dict[str, uuid.UUID] = field(default_factory=dict)

    def add(self, name: str, topic_id: uuid.UUID, partitions: int) -> None:
        self.topics[name] = dict.fromkeys(range(partitions), object())
        self.topic_ids[name] = topic_id


class Harness:
    def __init__(self, tmp_path: Path) -> None:
        self.base = Coordinator(tmp_path)
        self.time = self.base.time
        self.topics = Topics()
        self.topics.add("t1", T1, 6)
        self.cgc = ConsumerGroupCoordinator(self.base.coordinator, self.topics, ConsumerGroupConfig())

    @property
    def group(self) -> ConsumerGroup:
        return self.cgc.groups[GROUP]

    def send(self, req: HeartbeatRequest) -> HeartbeatResult:
        """A heartbeat, answered at once (a one-broker log acknowledges its writes at once)."""
        got: list[HeartbeatResult] = []
        self.cgc.heartbeat(req, got.append)
        assert len(got) == 1
        return got[0]

    def join(self, member_id: str, topics: tuple[str, ...] = ("t1",), instance_id: str | None = None,
             assignor: str | None = None) -> HeartbeatResult:
        return self.send(HeartbeatRequest(GROUP, member_id, 0, instance_id=instance_id,
                                                   rebalance_timeout_ms=REBALANCE_MS, subscribed_topic_names=topics,
                                                   server_assignor=assignor, owned={}))

    def beat(self, member_id: str, epoch: int, owned: dict[uuid.UUID, frozenset[int]] | None = None,
             instance_id: str | None = None) -> HeartbeatResult:
        return self.send(HeartbeatRequest(GROUP, member_id, epoch, instance_id=instance_id, owned=owned))

    def owners(self) -> dict[tuple[uuid.UUID, int], set[str]]:
        """Who may consume each partition now: its assigned plus its pending revocation."""
        out: dict[tuple[uuid.UUID, int], set[str]] = {}
        for m in self.group.members.values():
            for assignment in (m.assigned, m.pending_revocation):
                for t, ps in assignment.items():
                    for p in ps:
                        out.setdefault((t, p), set()).add(m.member_id)
        return out


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path)
    yield harness
    harness.base.close()


def parts(*ps: int) -> dict[uuid.UUID, frozenset[int]]:
    return {T1: frozenset(ps)}


def test_the_first_member_gets_every_partition_and_the_group_is_stable(h: Harness) -> None:
    r = h.join("a")
    assert (r.error, r.member_id, r.member_epoch, r.heartbeat_interval_ms) == (ErrorCode.NONE, "a", 2, 5000)
    assert r.assignment == parts(0, 1, 2, 3, 4, 5)
    assert h.group.state == ConsumerGroupState.STABLE
    assert (h.group.group_epoch, h.group.assignment_epoch) == (2, 2)
    again = h.beat("a", 2, parts(0, 1, 2, 3, 4, 5))
    assert (again.error, again.member_epoch, again.assignment) == (ErrorCode.NONE, 2, None)  # nothing changed


def test_a_coordinator_made_member_id_when_the_client_sends_none(h: Harness) -> None:
    r = h.join("")
    assert r.error == ErrorCode.NONE and r.member_id and r.member_id in h.group.members


def test_a_second_member_waits_for_the_first_to_revoke_before_it_gets_partitions(h: Harness) -> None:
    h.join("a")
    b = h.join("b")
    assert (b.member_epoch, b.assignment) == (3, {})  # its share is still a's
    assert h.group.members["b"].state == MemberState.UNRELEASED_PARTITIONS
    assert h.group.state == ConsumerGroupState.RECONCILING
    a = h.beat("a", 2, parts(0, 1, 2, 3, 4, 5))
    assert h.group.members["a"].state == MemberState.UNREVOKED_PARTITIONS
    assert a.member_epoch == 2 and a.assignment is not None and len(a.assignment[T1]) == 3  # keep 3, revoke 3
    assert all(len(who) == 1 for who in h.owners().values())
    kept = a.assignment[T1]
    # Still owning the revoked ones: no progress.
    assert h.beat("a", 2, parts(0, 1, 2, 3, 4, 5)).member_epoch == 2
    assert h.beat("b", 3, {}).assignment is None
    a = h.beat("a", 2, {T1: kept})
    assert (a.member_epoch, h.group.members["a"].state) == (3, MemberState.STABLE)
    b = h.beat("b", 3, {})
    assert b.assignment == {T1: frozenset(range(6)) - kept}
    assert h.group.state == ConsumerGroupState.STABLE
    assert all(len(who) == 1 for who in h.owners().values()) and len(h.owners()) == 6


def stable_pair(h: Harness) -> tuple[frozenset[int], frozenset[int]]:
    h.join("a")
    h.join("b")
    a = h.beat("a", 2, parts(*range(6)))
    assert a.assignment is not None
    h.beat("a", 2, a.assignment)
    b = h.beat("b", 3, {})
    assert b.assignment is not None and h.group.state == ConsumerGroupState.STABLE
    return a.assignment[T1], b.assignment[T1]


def test_a_member_that_stops_heartbeating_is_fenced_at_the_session_timeout(h: Harness) -> None:
    a_parts, b_parts = stable_pair(h)
    h.time.sleep(SESSION_MS - 1)
    h.beat("a", 3, {T1: a_parts})
    h.time.sleep(1)
    assert set(h.group.members) == {"a"}
    assert (h.group.group_epoch, h.group.state) == (4, ConsumerGroupState.ASSIGNING)
    a = h.beat("a", 3, {T1: a_parts})
    assert (a.member_epoch, a.assignment) == (4, parts(*range(6)))
    assert h.beat("b", 3, {T1: b_parts}).error == ErrorCode.UNKNOWN_MEMBER_ID


def test_a_member_that_does_not_revoke_within_the_rebalance_timeout_is_fenced(h: Harness) -> None:
    h.join("a")
    h.join("b")
    h.beat("a", 2, parts(*range(6)))
    assert h.group.members["a"].state == MemberState.UNREVOKED_PARTITIONS
    h.time.sleep(REBALANCE_MS - 1)
    h.beat("a", 2, parts(*range(6)))  # heartbeats, but still holds what it must give up
    h.beat("b", 3, {})
    assert "a" in h.group.members
    h.time.sleep(1)
    assert "a" not in h.group.members
    assert h.beat("b", 3, {}).assignment == parts(*range(6))


def test_fencing_by_member_epoch_and_member_id(h: Harness) -> None:
    a_parts, _ = stable_pair(h)
    r = h.beat("a", 4, {T1: a_parts})
    assert r.error == ErrorCode.FENCED_MEMBER_EPOCH and "greater member epoch (4)" in (r.message or "")
    assert h.beat("a", 2, parts(0, 1, 2, 3, 4, 5)).error == ErrorCode.FENCED_MEMBER_EPOCH  # not a subset
    # The previous epoch with a subset of the assignment: the bumped epoch's response was lost.
    assert h.beat("a", 2, {T1: a_parts}).error == ErrorCode.NONE
    assert h.beat("nobody", 3, {}).error == ErrorCode.UNKNOWN_MEMBER_ID


def test_a_member_that_leaves_gives_its_partitions_back_at_the_next_epoch(h: Harness) -> None:
    a_parts, _ = stable_pair(h)
    r = h.send(HeartbeatRequest(GROUP, "b", -1))
    assert (r.error, r.member_id, r.member_epoch) == (ErrorCode.NONE, "b", -1)
    assert set(h.group.members) == {"a"} and h.group.state == ConsumerGroupState.ASSIGNING
    assert h.beat("a", 3, {T1: a_parts}).assignment == parts(*range(6))
    assert h.group.state == ConsumerGroupState.STABLE
    assert h.send(HeartbeatRequest(GROUP, "a", -1)).error == ErrorCode.NONE
    assert h.group.state == ConsumerGroupState.EMPTY


def test_a_static_member_that_leaves_temporarily_gets_its_partitions_back_under_a_new_id(h: Harness) -> None:
    h.join("a", instance_id="i-a")
    first = h.join("b", instance_id="i-b")
    a = h.beat("a", 2, parts(*range(6)))
    assert a.assignment is not None
    h.beat("a", 2, a.assignment)
    b = h.beat("b", first.member_epoch, {})
    assert b.assignment
    epoch = h.group.group_epoch
    left = h.send(HeartbeatRequest(GROUP, "b", -2, instance_id="i-b"))
    assert (left.error, left.member_epoch) == (ErrorCode.NONE, -2)
    assert h.group.group_epoch == epoch  # no rebalance: the instance is expected back
    clash = h.join("a2", instance_id="i-a")
    assert clash.error == ErrorCode.UNRELEASED_INSTANCE_ID
    back = h.join("b2", instance_id="i-b")
    assert (back.error, back.assignment) == (ErrorCode.NONE, b.assignment)
    assert set(h.group.members) == {"a", "b2"} and h.group.group_epoch == epoch
    # A static member that does not come back within the session timeout is removed.
    h.send(HeartbeatRequest(GROUP, "b2", -2, instance_id="i-b"))
    h.time.sleep(SESSION_MS - 1)
    h.beat("a", h.group.members["a"].member_epoch, a.assignment)
    assert "b2" in h.group.members
    h.time.sleep(1)
    assert set(h.group.members) == {"a"}


def test_new_partitions_of_a_subscribed_topic_start_a_new_epoch(h: Harness) -> None:
    h.join("a")
    h.topics.add("t1", T1, 8)
    r = h.beat("a", 2, parts(*range(6)))
    assert (r.member_epoch, r.assignment) == (3, parts(*range(8)))


def test_a_subscription_change_and_a_second_topic(h: Harness) -> None:
    h.topics.add("t2", T2, 2)
    h.join("a")
    r = h.send(HeartbeatRequest(GROUP, "a", 2, subscribed_topic_names=("t1", "t2"), owned=parts(*range(6))))
    assert (r.member_epoch, r.assignment) == (3, {T1: frozenset(range(6)), T2: frozenset({0, 1})})


def test_malformed_heartbeats_and_unknown_assignors(h: Harness) -> None:
    no_timeout = h.send(HeartbeatRequest(GROUP, "a", 0, subscribed_topic_names=("t1",)))
    assert no_timeout.error == ErrorCode.INVALID_REQUEST
    assert h.send(HeartbeatRequest("", "a", 0, rebalance_timeout_ms=1,
                                            subscribed_topic_names=())).error == ErrorCode.INVALID_REQUEST
    assert h.send(HeartbeatRequest(GROUP, "a", -2)).error == ErrorCode.INVALID_REQUEST
    assert h.join("a", assignor="sticky").error == ErrorCode.UNSUPPORTED_ASSIGNOR
    assert h.join("a", assignor="range").error == ErrorCode.NONE


def test_offsets_need_the_current_member_epoch(h: Harness) -> None:
    a_parts, _ = stable_pair(h)
    got: list[dict] = []
    om = OffsetAndMetadata(42, -1, "", h.time.milliseconds(), None)
    h.cgc.commit_offsets(GROUP, "a", 2, 9, {("t1", 0): om}, got.append)
    h.cgc.commit_offsets(GROUP, "x", 3, 9, {("t1", 0): om}, got.append)
    h.cgc.commit_offsets(GROUP, "", -1, 9, {("t1", 0): om}, got.append)  # not a member: group not empty
    h.cgc.commit_offsets(GROUP, "a", 3, 8, {("t1", 0): om}, got.append)
    h.cgc.commit_offsets(GROUP, "a", 3, 9, {("t1", 0): om}, got.append)
    h.time.sleep(0)
    assert [r[("t1", 0)] for r in got] == [ErrorCode.STALE_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID,
                                           ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.UNSUPPORTED_VERSION,
                                           ErrorCode.NONE]
    assert h.cgc.fetch_offsets(GROUP, "a", 2, None)[0] == ErrorCode.STALE_MEMBER_EPOCH
    assert h.cgc.fetch_offsets(GROUP, "a", 3, [("t1", 0)]) == (ErrorCode.NONE, {("t1", 0): om})
    assert h.cgc.fetch_offsets(GROUP, None, -1, [("t1", 0)]) == (ErrorCode.NONE, {("t1", 0): om})


def test_classic_and_consumer_groups_do_not_share_a_group_id(h: Harness) -> None:
    h.join("a")
    joined = h.base.join()  # a classic member whose subscription is no ConsumerProtocol subscription
    assert joined[0].error == ErrorCode.UNKNOWN_SERVER_ERROR
    assert GROUP not in h.base.coordinator.groups and list(h.group.members) == ["a"]
    h.send(HeartbeatRequest(GROUP, "a", -1))
    # An Empty consumer group gives way to a classic member, offsets and all ...
    h.group.offsets[("t1", 0)] = OffsetAndMetadata(7, -1, "", 0, None)
    joined = h.base.join()
    h.time.sleep(0)
    assert joined[0].error == ErrorCode.NONE and GROUP not in h.cgc.groups
    assert h.base.group.offsets[("t1", 0)].offset == 7
    # ... and a classic group with members whose protocol cannot be read is not upgraded.
    refused = h.join("c")
    assert (refused.error, refused.message) == (
        ErrorCode.GROUP_ID_NOT_FOUND,
        f"Cannot upgrade classic group {GROUP} to consumer group because the embedded consumer protocol is malformed.")
    h.base.coordinator.leave_group(GROUP, [(joined[0].member_id, None)])
    assert h.base.group.is_state(GroupState.EMPTY)
    taken = h.join("c")  # an Empty classic group is taken over
    assert taken.error == ErrorCode.NONE and h.group.offsets[("t1", 0)].offset == 7
    assert GROUP not in h.base.coordinator.groups


def test_a_group_id_comes_back_as_the_kind_of_group_last_written(h: Harness) -> None:
    h.join("a")
    h.send(HeartbeatRequest(GROUP, "a", -1))
    failover(h)
    assert (h.group.state, h.group.group_epoch) == (ConsumerGroupState.EMPTY, 3)
    joined = h.base.join()  # the Empty consumer group gives way to a classic one
    h.time.sleep(0)
    assert h.base.sync(joined[0].member_id, joined[0].generation_id)[0].error == ErrorCode.NONE
    failover(h)
    assert GROUP not in h.cgc.groups and h.base.group.is_state(GroupState.STABLE)
    h.base.coordinator.leave_group(GROUP, [(joined[0].member_id, None)])
    assert h.join("c").error == ErrorCode.NONE  # the Empty classic group is taken over
    failover(h)
    assert set(h.group.members) == {"c"} and GROUP not in h.base.coordinator.groups


def test_transactional_offsets_for_an_unknown_group_with_a_generation(h: Harness) -> None:
    """TxnOffsetCommit naming a generation of a group that does not exist: from v6 (KIP-1319)
    GROUP_ID_NOT_FOUND, at v5 (Kafka 4's) ILLEGAL_GENERATION, and no group appears; at v4
    (Kafka 3.9's) the group is created, the member unknown."""
    om = OffsetAndMetadata(9, -1, "", 0, None)
    got: list[dict] = []
    gc = h.base.coordinator
    for version in (6, 5, 4):
        gc.commit_txn_offsets("nowhere", "tx", 5, 0, "m", None, 3, {("t1", 0): om}, got.append, api_version=version)
        h.time.sleep(0)
        if version == 5:
            assert "nowhere" not in gc.groups
    assert [r[("t1", 0)] for r in got] == [ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.ILLEGAL_GENERATION,
                                           ErrorCode.UNKNOWN_MEMBER_ID]
    del gc.groups["nowhere"]
    gc.commit_txn_offsets("nowhere", "tx", 5, 0, "", None, -1, {("t1", 0): om}, got.append, api_version=6)
    h.time.sleep(0)
    assert got[3] == {("t1", 0): ErrorCode.NONE}  # no generation: an Empty group, at every version


def test_unloading_the_partition_drops_the_group_and_its_timers(h: Harness) -> None:
    stable_pair(h)
    h.base.coordinator.unload_partition(0)
    assert GROUP not in h.cgc.groups
    assert h.base.scheduler.pending <= 1  # only the classic offset-expiry timer is left


def test_transactional_offsets_of_a_consumer_group_wait_for_the_marker(h: Harness) -> None:
    h.join("a")
    om = OffsetAndMetadata(9, -1, "", 0, None)
    got: list[dict] = []
    gc = h.base.coordinator
    gc.commit_txn_offsets(GROUP, "tx", 5, 0, "a", None, 7, {("t1", 0): om}, got.append)  # wrong epoch
    gc.commit_txn_offsets(GROUP, "tx", 5, 0, "a", None, 7, {("t1", 0): om}, got.append, api_version=6)
    gc.commit_txn_offsets(GROUP, "tx", 5, 0, "a", None, 2, {("t1", 0): om}, got.append)
    h.time.sleep(0)
    # Before v6 a stale epoch is ILLEGAL_GENERATION, from v6 (KIP-1319) STALE_MEMBER_EPOCH.
    assert [r[("t1", 0)] for r in got] == [ErrorCode.ILLEGAL_GENERATION, ErrorCode.STALE_MEMBER_EPOCH,
                                           ErrorCode.NONE]
    assert GROUP not in gc.groups  # no classic group appears beside the consumer group
    assert gc.unstable_partitions(GROUP, None) == {("t1", 0)}
    assert h.cgc.fetch_offsets(GROUP, None, -1, [("t1", 0)])[1] == {("t1", 0): None}
    gc.complete_txn_offsets(5, True, [0])
    assert gc.unstable_partitions(GROUP, None) == set()
    assert h.cgc.fetch_offsets(GROUP, None, -1, [("t1", 0)])[1] == {("t1", 0): om}


def test_an_older_member_epoch_commits_the_partitions_held_since_then(h: Harness) -> None:
    """Kafka 4.4 (KIP-1251): a commit at an older epoch than the member's is good for the
    partitions the member got at or before that epoch; anything else refuses the commit."""
    a_parts, b_parts = stable_pair(h)  # a kept 3-5 across the bump to epoch 3, b got 0-2 at epoch 3
    assert (a_parts, b_parts) == (frozenset({3, 4, 5}), frozenset({0, 1, 2}))
    assert h.group.members["a"].partition_epochs == {(T1, p): 2 for p in a_parts}
    assert h.group.members["b"].partition_epochs == {(T1, p): 3 for p in b_parts}
    om = OffsetAndMetadata(7, -1, "", h.time.milliseconds(), None)

    def commit(member: str, epoch: int, *partitions: int) -> set[ErrorCode]:
        got: list[dict] = []
        h.cgc.commit_offsets(GROUP, member, epoch, 9, {("t1", p): om for p in partitions}, got.append)
        h.time.sleep(0)
        return set(got[0].values())

    assert commit("a", 2, 3, 4) == {ErrorCode.NONE}  # kept across the bump
    assert commit("a", 2, 3, 0) == {ErrorCode.STALE_MEMBER_EPOCH}  # 0 is b's: the whole commit fails
    assert commit("b", 2, 0) == {ErrorCode.STALE_MEMBER_EPOCH}  # assigned only at epoch 3
    assert commit("a", 1, 3) == {ErrorCode.STALE_MEMBER_EPOCH}  # older than the partition's epoch
    assert commit("a", 4, 3) == {ErrorCode.STALE_MEMBER_EPOCH}  # newer than the member's epoch
    assert commit("b", 3, 0) == {ErrorCode.NONE}
    # TxnOffsetCommit takes the same epochs (GroupCoordinator says ILLEGAL_GENERATION before v6).
    assert h.cgc.txn_member_error(GROUP, "a", 2, [("t1", 5)]) == ErrorCode.NONE
    assert h.cgc.txn_member_error(GROUP, "b", 2, [("t1", 1)]) == ErrorCode.STALE_MEMBER_EPOCH
    # The epochs are in the current assignment records: they hold after a failover.
    failover(h)
    assert h.group.members["a"].partition_epochs == {(T1, p): 2 for p in a_parts}
    assert commit("a", 2, 5) == {ErrorCode.NONE}
    assert commit("b", 2, 2) == {ErrorCode.STALE_MEMBER_EPOCH}


def test_a_partition_pending_revocation_keeps_its_epoch_and_a_static_leave_resets_them(h: Harness) -> None:
    h.join("a", instance_id="ia")
    h.join("b")
    h.beat("a", 2, parts(*range(6)))  # a must give up 0-2 before it moves to epoch 3
    a = h.group.members["a"]
    assert a.pending_revocation == parts(0, 1, 2)
    assert a.partition_epochs == {(T1, p): 2 for p in range(6)}
    h.beat("a", 2, parts(3, 4, 5))
    assert h.group.members["a"].partition_epochs == {(T1, p): 2 for p in (3, 4, 5)}
    assert h.beat("a", -2, instance_id="ia").error == ErrorCode.NONE  # leaves, meaning to come back
    assert h.group.members["a"].partition_epochs == {(T1, p): 0 for p in (3, 4, 5)}


def failover(h: Harness) -> None:
    """The partition moves away and back: the groups come back from the log alone."""
    gc = h.base.coordinator
    gc.unload_partition(0)
    assert GROUP not in h.cgc.groups
    gc.on_leadership_change()
    h.time.sleep(0)


def test_after_a_failover_the_members_carry_on_at_their_epochs_with_their_offsets(h: Harness) -> None:
    a_parts, b_parts = stable_pair(h)
    got: list[dict] = []
    om = OffsetAndMetadata(11, -1, "", h.time.milliseconds(), None)
    h.cgc.commit_offsets(GROUP, "a", 3, 9, {("t1", 0): om}, got.append)
    h.time.sleep(0)
    assert got == [{("t1", 0): ErrorCode.NONE}]
    before = dict(h.group.members)
    epochs = (h.group.group_epoch, h.group.assignment_epoch, h.group.target)
    failover(h)
    assert h.group.members == before and (h.group.group_epoch, h.group.assignment_epoch, h.group.target) == epochs
    assert h.group.state == ConsumerGroupState.STABLE and GROUP not in h.base.coordinator.groups
    a = h.beat("a", 3, {T1: a_parts})
    assert (a.error, a.member_epoch, a.assignment) == (ErrorCode.NONE, 3, None)  # no rebalance
    assert h.cgc.fetch_offsets(GROUP, "a", 3, [("t1", 0)]) == (ErrorCode.NONE, {("t1", 0): om})
    # The session timers start afresh on load: b, silent since, is fenced a session later.
    h.time.sleep(SESSION_MS - 1)
    h.beat("a", 3, {T1: a_parts})
    assert set(h.group.members) == {"a", "b"}
    h.time.sleep(1)
    assert set(h.group.members) == {"a"}
    assert h.beat("b", 3, {T1: b_parts}).error == ErrorCode.UNKNOWN_MEMBER_ID


def test_a_member_mid_revocation_goes_on_revoking_after_a_failover(h: Harness) -> None:
    h.join("a")
    h.join("b")
    h.beat("a", 2, parts(*range(6)))
    pending = h.group.members["a"]  # a must give up half its partitions before epoch 3
    assert pending.state == MemberState.UNREVOKED_PARTITIONS
    failover(h)
    assert h.group.members["a"] == pending and h.group.state == ConsumerGroupState.RECONCILING
    h.time.sleep(REBALANCE_MS - 1)
    assert "a" in h.group.members
    h.time.sleep(1)  # its rebalance timer was restarted on load
    assert "a" not in h.group.members


def test_a_member_that_left_and_a_deleted_group_stay_gone_after_a_failover(h: Harness) -> None:
    stable_pair(h)
    assert h.send(HeartbeatRequest(GROUP, "b", -1)).error == ErrorCode.NONE
    failover(h)
    assert set(h.group.members) == {"a"} and set(h.group.target) == {"a"} and h.group.group_epoch == 4
    assert h.send(HeartbeatRequest(GROUP, "a", -1)).error == ErrorCode.NONE
    assert h.cgc.delete_group(GROUP) == ErrorCode.NONE
    failover(h)
    assert GROUP not in h.cgc.groups and GROUP not in h.base.coordinator.groups


def lead(h: Harness, epoch: int, isr: list[int]) -> None:
    """The controller changes the offsets partition's ISR (broker 1 stays leader)."""
    state = PartitionState(OFFSETS_TOPIC, 0, 1, epoch, isr, [1, 2], 1)
    brokers = [BrokerInfo(1, "127.0.0.1", 1), BrokerInfo(2, "127.0.0.1", 2)]
    assert h.base.replicas.leader_and_isr(0, 1, [state], brokers).error == ErrorCode.NONE


def test_a_heartbeat_is_answered_once_its_records_are_replicated_or_their_write_failed(h: Harness) -> None:
    stable_pair(h)
    lead(h, 2, [1, 2])  # broker 2, in the ISR, never fetches: acks=-1 writes time out
    got: list[HeartbeatResult] = []
    h.cgc.heartbeat(HeartbeatRequest(GROUP, "c", 0, rebalance_timeout_ms=REBALANCE_MS,
                                     subscribed_topic_names=("t1",), owned={}), got.append)
    assert got == []  # answered only once written
    h.time.sleep(h.base.coordinator.store.commit_timeout_ms)
    assert [r.error for r in got] == [ErrorCode.COORDINATOR_NOT_AVAILABLE]
    lead(h, 3, [1])
    assert h.send(HeartbeatRequest(GROUP, "a", 3)).error == ErrorCode.NONE  # written at once again


def test_offsets_expire_unless_subscribed_and_an_empty_group_without_offsets_is_deleted(h: Harness) -> None:
    h.join("a")
    got: list[dict] = []
    now = h.time.milliseconds()
    retention = h.base.coordinator.offsets_retention_ms
    subscribed, other = ("t1", 0), ("t2", 0)
    h.cgc.commit_offsets(GROUP, "a", 2, 9, {tp: OffsetAndMetadata(1, -1, "", now, None)
                                           for tp in (subscribed, other)}, got.append)
    h.time.sleep(0)
    assert got == [{subscribed: ErrorCode.NONE, other: ErrorCode.NONE}]
    assert h.cgc.cleanup(now + retention - 1) == 0
    assert h.cgc.cleanup(now + retention) == 1
    assert set(h.group.offsets) == {subscribed}
    h.send(HeartbeatRequest(GROUP, "a", -1))
    assert h.cgc.cleanup(now + retention) == 1
    assert GROUP not in h.cgc.groups


@dataclass
class StubRequest:
    """What ConsumerGroupApis reads of a request; the response is kept."""

    body: Any
    api_version: int = 1
    header: RequestHeader = field(default_factory=lambda: RequestHeader(68, 1, 1, "client", 0, True))
    client_host: str = "127.0.0.1:5000"
    principal: object = None
    listener_name: str = "PLAINTEXT"
    responses: list[Any] = field(default_factory=list)

    def send_response(self, body: Any) -> None:
        self.responses.append(body)


class NoTopicT2(AllowAll):
    def authorize(self, request: object, operation: AclOperation, resource_type: ResourceType, name: str,
                  log_if_denied: bool = True) -> bool:
        return not (resource_type == ResourceType.TOPIC and name == "t2")


def test_a_heartbeat_needs_describe_on_every_subscribed_topic(h: Harness) -> None:
    apis = ConsumerGroupApis(h.cgc, cast(GroupApis, None), NoTopicT2())

    def join(topics: list[str]) -> Any:
        request = StubRequest(ConsumerGroupHeartbeatRequest(group_id=GROUP, member_id="a", member_epoch=0,
                                                            rebalance_timeout_ms=REBALANCE_MS,
                                                            subscribed_topic_names=topics, topic_partitions=[]))
        apis.handle_consumer_group_heartbeat(request)
        return request.responses[0]

    assert join(["t1", "t2"]).error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
    assert GROUP not in h.cgc.groups
    joined = join(["t1"])
    assert (joined.error_code, joined.member_epoch) == (ErrorCode.NONE, 2)
    assert h.group.members["a"].client_host == "/127.0.0.1"
