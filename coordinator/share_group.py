"""A KIP-932 share group (Kafka's ShareGroup and ShareGroupMember).

A share group has epochs like a KIP-848 consumer group but no reconciliation: partitions
are shared, never owned, so a member takes its new target assignment (and the assignment
epoch) at its next heartbeat, with nothing to revoke first. Its states are Kafka's: Empty
without members, Stable with any, Dead once deleted.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field

from josefk.coordinator.consumer_assignors import Assignment
from josefk.coordinator.modern_group import ModernGroup

LEAVE_GROUP_MEMBER_EPOCH = -1


class ShareGroupState(enum.Enum):
    EMPTY = "Empty"
    STABLE = "Stable"
    DEAD = "Dead"


@dataclass(frozen=True)
class ShareGroupMember:
    member_id: str
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: tuple[str, ...] = ()
    member_epoch: int = 0
    previous_member_epoch: int = 0
    assigned: Assignment = field(default_factory=dict)


@dataclass(frozen=True)
class InitTopic:
    """A topic's partitions in the group's share-state bookkeeping (Kafka's InitMapValue);
    `since_ms` is when their initialization was asked (not written to the log)."""

    name: str
    partitions: frozenset[int]
    since_ms: int = -1


class ShareGroup(ModernGroup[ShareGroupState, ShareGroupMember, Assignment]):
    def __init__(self, group_id: str) -> None:
        super().__init__(group_id, ShareGroupState.EMPTY)
        self.subscription_metadata: dict[str, tuple[uuid.UUID, int]] = {}  # topic -> (id, partitions)
        # Kafka's ShareGroupStatePartitionMetadata: whose share state the share coordinator
        # is initializing, has initialized (only those are assigned), or is deleting
        self.initializing: dict[uuid.UUID, InitTopic] = {}
        self.initialized: dict[uuid.UUID, InitTopic] = {}
        self.deleting: dict[uuid.UUID, str] = {}

    def state_topics(self) -> dict[uuid.UUID, InitTopic]:
        """The partitions with share state, initialized or being initialized (what a delete removes)."""
        out = dict(self.initialized)
        for topic_id, topic in self.initializing.items():
            known = out.get(topic_id)
            out[topic_id] = topic if known is None else InitTopic(
                topic.name, known.partitions | topic.partitions, topic.since_ms)
        return out

    def update_member(self, member: ShareGroupMember) -> None:
        self.members[member.member_id] = member
        self.update_state()

    def remove_member(self, member_id: str) -> ShareGroupMember | None:
        member = self.members.pop(member_id, None)
        self.target.pop(member_id, None)
        self.update_state()
        return member

    def update_state(self) -> None:
        if self.state != ShareGroupState.DEAD:
            self.state = ShareGroupState.STABLE if self.members else ShareGroupState.EMPTY

    def subscribed_topics(self) -> set[str]:
        return set().union(*(m.subscribed_topic_names for m in self.members.values()))

    def assigned_partitions(self) -> set[tuple[uuid.UUID, int]]:
        """Every partition some member is assigned: the share partitions the group reads."""
        return {(t, p) for m in self.members.values() for t, ps in m.assigned.items() for p in ps}
