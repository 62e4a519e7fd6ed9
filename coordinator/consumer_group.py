"""A KIP-848 consumer group: epochs, members and their reconciliation (Kafka's
ConsumerGroup, ConsumerGroupMember and CurrentAssignmentBuilder).

The group epoch moves when membership, a subscription or a subscribed topic changes; the
target assignment is then recomputed and stamped with the group epoch (the assignment
epoch). Each member moves towards its target one step per heartbeat: partitions it must
give up are revoked first (the member keeps its epoch until it has let them go), and a
partition still held by another member is withheld until released, so no partition is
ever owned by two members at once.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from josefk.coordinator.consumer_assignors import Assignment, TopicId
from josefk.coordinator.modern_group import GroupWithOffsets
from josefk.utils.time import SYSTEM_TIME, Time

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2
NO_PARTITION_EPOCH = -1


class ConsumerGroupState(enum.Enum):
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"
    DEAD = "Dead"


class MemberState(enum.Enum):
    STABLE = "stable"
    UNREVOKED_PARTITIONS = "unrevoked_partitions"
    UNRELEASED_PARTITIONS = "unreleased_partitions"


@dataclass(frozen=True)
class ClassicMemberMetadata:
    """What a member speaking the classic protocol (JoinGroup/SyncGroup/Heartbeat) in a
    consumer group joined with: its session timeout and its (name, metadata) protocols,
    most preferred first (Kafka's ConsumerGroupMemberMetadataValue.ClassicMemberMetadata)."""

    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...]


@dataclass(frozen=True)
class ConsumerGroupMember:
    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: tuple[str, ...] = ()
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    rebalance_timeout_ms: int = -1
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Assignment = field(default_factory=dict)  # may be used now
    pending_revocation: Assignment = field(default_factory=dict)  # must be given up first
    classic: ClassicMemberMetadata | None = None  # set for a member on the classic protocol
    # The epoch at which each owned partition (assigned or pending revocation) was assigned
    # to the member (Kafka 4.4's per-partition assignment epochs, KIP-1251): a commit at an
    # older member epoch is good for a partition held since then.
    partition_epochs: Mapping[tuple[TopicId, int], int] = field(default_factory=dict)

    @property
    def uses_classic_protocol(self) -> bool:
        return self.classic is not None

    def assignment_epoch(self, topic_id: TopicId, partition: int) -> int | None:
        """The epoch the member got the partition at, None if it does not own it. A
        partition with no recorded epoch counts as assigned at the member's epoch (at
        least 0), the default Kafka 4.4 gives partitions of a record without epochs."""
        if partition not in self.assigned.get(topic_id, frozenset()) | self.pending_revocation.get(
                topic_id, frozenset()):
            return None
        return self.partition_epochs.get((topic_id, partition), max(self.member_epoch, 0))

    def epochs_of(self, *owned: Mapping[TopicId, frozenset[int]]) -> dict[tuple[TopicId, int], int]:
        """The assignment epochs of these partitions the member owns."""
        return {(t, p): self.partition_epochs.get((t, p), max(self.member_epoch, 0))
                for assignment in owned for t, ps in assignment.items() for p in ps}


def _union(a: Mapping[TopicId, frozenset[int]], b: Mapping[TopicId, frozenset[int]]) -> Assignment:
    return {t: a.get(t, frozenset()) | b.get(t, frozenset()) for t in set(a) | set(b)
            if a.get(t, frozenset()) | b.get(t, frozenset())}


def owns_any(owned: Mapping[TopicId, frozenset[int]] | None, revoking: Mapping[TopicId, frozenset[int]]) -> bool:
    """Whether the member may still own one of `revoking`; unknown (None) counts as yes."""
    if owned is None:
        return True
    return any(owned.get(t, frozenset()) & ps for t, ps in revoking.items())


def reconcile(member: ConsumerGroupMember, target_epoch: int, target: Mapping[TopicId, frozenset[int]],
              owner_epoch: Mapping[tuple[TopicId, int], tuple[str, int]],
              owned: Mapping[TopicId, frozenset[int]] | None) -> ConsumerGroupMember:
    """The member's next state (Kafka's CurrentAssignmentBuilder.build). `owner_epoch` maps
    each partition held by a member to (member id, epoch); `owned` is what the member said
    it owns in this heartbeat, None if it did not say."""
    if member.state == MemberState.UNREVOKED_PARTITIONS:
        if owns_any(owned, member.pending_revocation):
            return member
        return _next(member, member.member_epoch + 1 if member.member_epoch < target_epoch else target_epoch,
                     member.assigned, target_epoch, target, owner_epoch, owned)
    if member.state == MemberState.STABLE and member.member_epoch == target_epoch:
        return member
    return _next(member, member.member_epoch, member.assigned, target_epoch, target, owner_epoch, owned)


def _next(member: ConsumerGroupMember, member_epoch: int, current: Mapping[TopicId, frozenset[int]],
          target_epoch: int, target: Mapping[TopicId, frozenset[int]],
          owner_epoch: Mapping[tuple[TopicId, int], tuple[str, int]],
          owned: Mapping[TopicId, frozenset[int]] | None) -> ConsumerGroupMember:
    kept: dict[TopicId, frozenset[int]] = {}
    revoking: dict[TopicId, frozenset[int]] = {}
    ready: dict[TopicId, frozenset[int]] = {}
    unreleased = False
    for topic_id in set(current) | set(target):
        have, want = current.get(topic_id, frozenset()), target.get(topic_id, frozenset())
        if have & want:
            kept[topic_id] = have & want
        if have - want:
            revoking[topic_id] = have - want
        free = frozenset(p for p in want - have
                         if owner_epoch.get((topic_id, p), (member.member_id, 0))[0] == member.member_id)
        if free:
            ready[topic_id] = free
        if len(free) < len(want - have):
            unreleased = True
    # Kept and revoked partitions keep the epoch they were assigned at; new ones get the target's.
    if revoking and owns_any(owned, revoking):
        # Revoke first; the member keeps its epoch until it has let go of them.
        return replace(member, state=MemberState.UNREVOKED_PARTITIONS, member_epoch=member_epoch,
                       previous_member_epoch=member.member_epoch, assigned=kept, pending_revocation=revoking,
                       partition_epochs=member.epochs_of(kept, revoking))
    state = MemberState.UNRELEASED_PARTITIONS if unreleased else MemberState.STABLE
    epochs = member.epochs_of(kept)
    epochs.update(((t, p), target_epoch) for t, ps in ready.items() for p in ps)
    return replace(member, state=state, member_epoch=target_epoch, previous_member_epoch=member.member_epoch,
                   assigned=_union(kept, ready), pending_revocation={}, partition_epochs=epochs)


class ConsumerGroup(GroupWithOffsets[ConsumerGroupState, ConsumerGroupMember, Assignment]):
    def __init__(self, group_id: str, time: Time = SYSTEM_TIME) -> None:
        super().__init__(group_id, ConsumerGroupState.EMPTY, time)
        self.static_members: dict[str, str] = {}  # instance id -> member id
        self.owner_epoch: dict[tuple[TopicId, int], tuple[str, int]] = {}
        self.subscription_metadata: dict[str, tuple[uuid.UUID, int]] = {}  # topic -> (id, partitions)
        # Members whose records (subscription, target, current assignment) may have changed
        # since the coordinator last wrote the group: it writes only theirs.
        self.touched: set[str] = set()

    def update_member(self, member: ConsumerGroupMember) -> None:
        """Store `member`, keeping the partition owners and the static index in step."""
        old = self.members.get(member.member_id)
        if old is not None:
            self._release(old)
        self.members[member.member_id] = member
        if old != member:
            self.touched.add(member.member_id)
        if member.instance_id is not None:
            self.static_members[member.instance_id] = member.member_id
        for topic_id, ps in _union(member.assigned, member.pending_revocation).items():
            for p in ps:
                self.owner_epoch[(topic_id, p)] = (member.member_id, member.member_epoch)
        self.update_state()

    def remove_member(self, member_id: str) -> ConsumerGroupMember | None:
        member = self.members.pop(member_id, None)
        if member is None:
            return None
        self._release(member)
        self.touched.add(member_id)
        if member.instance_id is not None and self.static_members.get(member.instance_id) == member_id:
            del self.static_members[member.instance_id]
        self.target.pop(member_id, None)
        self.update_state()
        return member

    def set_target(self, target: dict[str, Assignment]) -> None:
        self.touched.update(self.target, target)
        self.target = target

    def _release(self, member: ConsumerGroupMember) -> None:
        for topic_id, ps in _union(member.assigned, member.pending_revocation).items():
            for p in ps:
                if self.owner_epoch.get((topic_id, p), ("", 0))[0] == member.member_id:
                    del self.owner_epoch[(topic_id, p)]

    def update_state(self) -> None:
        if self.state == ConsumerGroupState.DEAD:
            return
        if not self.members:
            self.state = ConsumerGroupState.EMPTY
        elif self.group_epoch > self.assignment_epoch:
            self.state = ConsumerGroupState.ASSIGNING
        elif any(m.member_epoch != self.assignment_epoch or m.state != MemberState.STABLE
                 for m in self.members.values()):
            self.state = ConsumerGroupState.RECONCILING
        else:
            self.state = ConsumerGroupState.STABLE

    def all_classic_except(self, member_ids: set[str]) -> bool:
        """Whether every member but these speaks the classic protocol (a downgrade's test)."""
        return all(m.uses_classic_protocol for mid, m in self.members.items() if mid not in member_ids)

    def waiting_on_unreleased(self, member: ConsumerGroupMember) -> bool:
        """Whether a partition the member is to get is still held by another member."""
        target = self.target.get(member.member_id, {})
        return any(self.owner_epoch.get((t, p), (member.member_id, 0))[0] != member.member_id
                   for t, ps in target.items() for p in ps - member.assigned.get(t, frozenset()))

    def supports_classic_protocols(self, protocol_type: str, names: list[str]) -> bool:
        """Kafka's ConsumerGroup.supportsClassicProtocols: the consumer protocol type and,
        with classic members present, one protocol all of them support."""
        if protocol_type != "consumer" or not names:
            return False
        classic = [m.classic for m in self.members.values() if m.classic is not None]
        return not classic or any(all(n in {p for p, _ in c.protocols} for c in classic) for n in names)

    def preferred_assignor(self, default: str) -> str:
        """The assignor most members ask for (ties: by name), else `default`."""
        votes: dict[str, int] = {}
        for m in self.members.values():
            if m.server_assignor:
                votes[m.server_assignor] = votes.get(m.server_assignor, 0) + 1
        if not votes:
            return default
        return min(votes, key=lambda name: (-votes[name], name))
