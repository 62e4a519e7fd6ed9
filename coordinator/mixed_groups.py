"""Converting a group between the classic and the KIP-848 consumer protocol while it has
members (KIP-848 mixed groups; Kafka's ConsumerGroup.fromClassicGroup and
ClassicGroup.fromConsumerGroup).

Upgrade: the classic group's generation becomes the group epoch, the assignment epoch
and every member's epoch; each member keeps the partitions of its last SyncGroup
assignment as its current and target assignment, is Stable, and stays a classic member
(its session timeout and JoinGroup protocols kept). Downgrade: the consumer group's epoch
becomes the generation of a Stable classic group of the remaining (all classic) members,
each holding its target assignment written in the consumer protocol version of its
subscription; the caller then makes it rebalance.
"""

from __future__ import annotations

import enum
import struct
import uuid
from collections.abc import Mapping, Set

from josefk.coordinator.consumer_group import ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember, MemberState
from josefk.coordinator.consumer_protocol import read_assignment, read_subscription, version_of, write_assignment
from josefk.coordinator.group_metadata import CONSUMER_PROTOCOL_TYPE, GroupMetadata, GroupState, MemberMetadata
from josefk.coordinator.record_io import RecordFormatError
from josefk.utils.time import Time


class MigrationPolicy(enum.Enum):
    """group.consumer.migration.policy (Kafka 4.x's default: bidirectional)."""

    BIDIRECTIONAL = "bidirectional"
    UPGRADE = "upgrade"
    DOWNGRADE = "downgrade"
    DISABLED = "disabled"

    @property
    def upgrade_enabled(self) -> bool:
        return self in (MigrationPolicy.BIDIRECTIONAL, MigrationPolicy.UPGRADE)

    @property
    def downgrade_enabled(self) -> bool:
        return self in (MigrationPolicy.BIDIRECTIONAL, MigrationPolicy.DOWNGRADE)


class MalformedProtocol(Exception):
    """A member's embedded consumer protocol bytes could not be read."""


class CustomAssignorInUse(Exception):
    """A member's assignment carries user data, which the server-side assignor would lose."""


def _protocol_of(group: GroupMetadata, member: MemberMetadata) -> str:
    """The group's protocol, or (no generation completed yet) the member's first."""
    if group.protocol_name is not None:
        return group.protocol_name
    return member.supported_protocols[0][0]


def consumer_group_from_classic(classic: GroupMetadata, topic_ids: Mapping[str, uuid.UUID],
                                time: Time) -> ConsumerGroup:
    """Raises MalformedProtocol when a member's subscription or assignment is unreadable,
    CustomAssignorInUse when an assignment has user data (Kafka 4.x refuses those too)."""
    group = ConsumerGroup(classic.group_id, time)
    group.offsets = classic.offsets
    group.book.pending_txn_offsets = classic.pending_txn_offsets
    generation = classic.generation_id
    group.group_epoch = group.assignment_epoch = generation
    for member in classic.members.values():
        try:
            subscription = read_subscription(member.metadata_for(_protocol_of(classic, member)))
            assigned, user_data = read_assignment(member.assignment)
        except (RecordFormatError, struct.error, UnicodeDecodeError, KeyError) as e:
            raise MalformedProtocol(str(e)) from e
        if user_data:
            raise CustomAssignorInUse(member.member_id)
        partitions = {topic_ids[t]: ps for t, ps in assigned.items() if t in topic_ids and ps}
        group.update_member(ConsumerGroupMember(
            member.member_id, instance_id=member.group_instance_id, rack_id=subscription.rack_id,
            client_id=member.client_id, client_host=member.client_host,
            subscribed_topic_names=tuple(sorted(set(subscription.topics))),
            rebalance_timeout_ms=member.rebalance_timeout_ms, member_epoch=generation,
            previous_member_epoch=generation, state=MemberState.STABLE, assigned=partitions,
            partition_epochs={(t, p): generation for t, ps in partitions.items() for p in ps},
            classic=ClassicMemberMetadata(member.session_timeout_ms, tuple(member.supported_protocols))))
        group.target[member.member_id] = dict(partitions)
    group.update_state()
    return group


def classic_group_from_consumer(group: ConsumerGroup, leaving: Set[str], topic_names: Mapping[uuid.UUID, str],
                                time: Time) -> tuple[GroupMetadata, dict[str, bytes]]:
    """The Stable classic group and each member's assignment bytes; every member not
    `leaving` must be a classic member. Raises MalformedProtocol as above."""
    classic = GroupMetadata(group.group_id, GroupState.STABLE, time)
    classic.generation_id = group.group_epoch
    classic.protocol_type = CONSUMER_PROTOCOL_TYPE
    classic.offsets = group.offsets
    classic.pending_txn_offsets = group.book.pending_txn_offsets
    for member in group.members.values():
        if member.member_id in leaving:
            continue
        assert member.classic is not None, f"{member.member_id} is not a classic member"
        classic.add(MemberMetadata(member.member_id, member.instance_id, member.client_id, member.client_host,
                                   member.rebalance_timeout_ms, member.classic.session_timeout_ms,
                                   CONSUMER_PROTOCOL_TYPE, list(member.classic.protocols)))
    classic.protocol_name = classic.select_protocol()
    classic.subscribed_topics = classic.compute_subscribed_topics()
    assignments = {}
    for member_id, classic_member in classic.members.items():
        target = group.target.get(member_id, {})
        try:
            version = version_of(classic_member.metadata_for(classic.protocol_name))
        except RecordFormatError as e:
            raise MalformedProtocol(str(e)) from e
        classic_member.assignment = assignments[member_id] = write_assignment(
            {topic_names[t]: ps for t, ps in target.items() if t in topic_names}, version)
    return classic, assignments
