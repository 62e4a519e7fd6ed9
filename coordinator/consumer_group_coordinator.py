"""ConsumerGroupCoordinator: KIP-848 consumer groups (Kafka's GroupMetadataManager
consumerGroupHeartbeat and the consumer-group parts of its offset and admin paths).

It lives beside the classic GroupCoordinator and shares its group ids, its
__consumer_offsets partitions (it serves a group only where the classic coordinator has
loaded the partition) and its offsets store. Every change to a group is written there as
Kafka 4.x's consumer group records (consumer_group_records) before the heartbeat that made
it is answered; loading a partition rebuilds its groups from them, epochs, assignments and
all, with every member's session timer restarted, so members carry on at their epochs
with the new coordinator.
"""

from __future__ import annotations

import logging
import re
import struct
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial

from josefk.coordinator.consumer_assignors import ASSIGNORS, AssignmentMember, ConsumerGroupAssignor, TopicId
from josefk.coordinator.consumer_group import (
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ClassicMemberMetadata,
    ConsumerGroup,
    ConsumerGroupMember,
    ConsumerGroupState,
    MemberState,
    reconcile,
)
from josefk.coordinator.consumer_group_records import group_tombstones, write_changes
from josefk.coordinator.consumer_protocol import read_subscription, version_of, write_assignment
from josefk.coordinator.group_config import (
    CONSUMER_HEARTBEAT_INTERVAL_MS,
    CONSUMER_SESSION_TIMEOUT_MS,
    NO_GROUP_CONFIGS,
    GroupConfigs,
)
from josefk.coordinator.group_coordinator import GroupCoordinator, JoiningMember
from josefk.coordinator.group_metadata import (
    CONSUMER_PROTOCOL_TYPE,
    GroupMetadata,
    GroupState,
    JoinCallback,
    JoinResult,
    OffsetAndMetadata,
    SyncCallback,
    SyncResult,
)
from josefk.coordinator.group_records import group_key, group_value
from josefk.coordinator.mixed_groups import (
    CustomAssignorInUse,
    MalformedProtocol,
    MigrationPolicy,
    classic_group_from_consumer,
    consumer_group_from_classic,
)
from josefk.coordinator.modern_group import (
    MemberTimers,
    TopicsView,
    commit_offsets,
    delete_group,
    describe_group,
    expire_offsets,
    fenced_epoch,
    fetched_offsets,
    hand_to_classic,
    member_error,
    subscription_metadata,
)
from josefk.coordinator.offsets_store import LoadedPartition
from josefk.coordinator.record_io import RecordFormatError
from josefk.protocol.errors import ErrorCode

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
Owned = dict[TopicId, frozenset[int]]


@dataclass(frozen=True)
class ConsumerGroupConfig:
    """The group.consumer.* broker configs."""

    session_timeout_ms: int = 45_000
    heartbeat_interval_ms: int = 5_000
    assignors: tuple[str, ...] = ("uniform", "range")  # the first is the default
    max_size: int = 2**31 - 1
    migration_policy: MigrationPolicy = MigrationPolicy.BIDIRECTIONAL


@dataclass(frozen=True)
class HeartbeatRequest:
    """A ConsumerGroupHeartbeat's fields; None means "unchanged since the last heartbeat"."""

    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: tuple[str, ...] | None = None
    subscribed_topic_regex: str | None = None  # "" clears it
    server_assignor: str | None = None
    owned: Owned | None = None
    client_id: str = ""
    client_host: str = ""
    member_id_required: bool = False  # v1+: the client makes its member id (KIP-1082)


@dataclass(frozen=True)
class HeartbeatResult:
    error: ErrorCode
    message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: Owned | None = None  # None: unchanged, not sent


def _fail(error: ErrorCode, message: str) -> HeartbeatResult:
    """An error answer: Kafka sends no member id or epoch with it."""
    return HeartbeatResult(error, message)


class ConsumerGroupCoordinator:
    def __init__(self, classic: GroupCoordinator, topics: TopicsView,
                 config: ConsumerGroupConfig = ConsumerGroupConfig(),
                 group_configs: GroupConfigs = NO_GROUP_CONFIGS) -> None:
        self.classic = classic
        self.topics = topics
        self.config = config
        self.group_configs = group_configs  # a group's consumer.* configs over the broker's
        unknown = [n for n in config.assignors if n not in ASSIGNORS]
        if unknown or not config.assignors:
            raise ValueError(f"group.consumer.assignors: unknown assignors {unknown}; josefk has {sorted(ASSIGNORS)}")
        self.assignors: dict[str, ConsumerGroupAssignor] = {n: ASSIGNORS[n] for n in config.assignors}
        self.groups: dict[str, ConsumerGroup] = {}
        self._session_timers = MemberTimers(classic.scheduler)
        self._rebalance_timers = MemberTimers(classic.scheduler)
        # group id -> its records as last written (key -> value), to write only what changed
        self._stored: dict[str, dict[bytes, bytes]] = {}
        classic.load_listeners.append(self.load_partition)
        classic.unload_listeners.append(self.unload_partition)
        classic.join_guard = self._classic_join_guard
        classic.consumer_groups = self
        classic.classic_members = self
        # classic members: a JoinGroup answer awaits their SyncGroup; a REBALANCE_IN_PROGRESS
        # answer awaits their JoinGroup; each within the rebalance timeout, or they are fenced
        self._sync_timers = MemberTimers(classic.scheduler)
        self._join_timers = MemberTimers(classic.scheduler)
        self.share_groups: Callable[[str], bool] = lambda _group_id: False  # share group ids are not ours

    # -- group lookup, shared with the classic coordinator -----------------------------------

    def is_consumer_group(self, group_id: str) -> bool:
        return group_id in self.groups

    def _classic_join_guard(self, group_id: str) -> ErrorCode:
        """A classic JoinGroup for an Empty consumer group (one with members serves it,
        classic_join): the group becomes classic, offsets kept."""
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE
        self._write_tombstones(group)
        self._drop(group)
        hand_to_classic(self.classic, group_id, group.offsets)
        return ErrorCode.NONE

    def _group_for_heartbeat(self, group_id: str, create: bool) -> ConsumerGroup | HeartbeatResult:
        group = self.groups.get(group_id)
        if group is not None:
            return group
        if self.share_groups(group_id):
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
        classic = self.classic.groups.get(group_id)
        if classic is not None and create and not classic.is_state(GroupState.EMPTY):
            return self._upgrade(classic)
        if classic is not None:
            if not classic.is_state(GroupState.EMPTY) or classic.pending_txn_offsets:
                return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
            if not create:
                # Offsets only, as a consumer group comes back after a failover: its members
                # rejoin (epoch 0) and the first one takes the group over.
                return _fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Group {group_id} has no member of that id.")
            del self.classic.groups[group_id]  # an Empty classic group is taken over, offsets and all
            self.classic.store.write_tombstones(group_id, [], group=True)
            group = ConsumerGroup(group_id, self.classic.time)
            group.offsets = classic.offsets
            self.groups[group_id] = group
            return group
        if not create:
            # Kafka answers GROUP_ID_NOT_FOUND; UNKNOWN_MEMBER_ID makes the members of a group
            # lost some other way (deleted, or written by a josefk that kept it in memory) rejoin.
            return _fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Consumer group {group_id} not found: rejoin with epoch 0.")
        group = self.groups[group_id] = ConsumerGroup(group_id, self.classic.time)
        return group

    def _upgrade(self, classic: GroupMetadata) -> ConsumerGroup | HeartbeatResult:
        """A consumer-protocol member joins a classic group with members: the group becomes
        a consumer group of classic members (Kafka's validateOnlineUpgrade and
        convertToConsumerGroup); the joining member then bumps its epoch, so they rejoin."""
        group_id = classic.group_id
        why = None
        if not self.config.migration_policy.upgrade_enabled:
            why = "online upgrade is disabled"
        elif classic.protocol_type != CONSUMER_PROTOCOL_TYPE or classic.is_state(GroupState.DEAD):
            why = "the group does not use the consumer embedded protocol"
        elif len(classic.members) > self.config.max_size:
            why = "the group size exceeds the consumer group maximum size"
        if why is None:
            try:
                group = consumer_group_from_classic(classic, self.topics.topic_ids, self.classic.time)
            except MalformedProtocol:
                why = "the embedded consumer protocol is malformed"
            except CustomAssignorInUse:
                why = ("an unsupported custom assignor is in use. Please refer to the documentation or switch "
                       "to a default assignor before re-attempting the upgrade")
        if why is not None:
            log.info("[GroupCoordinator %d]: Cannot upgrade classic group %s to consumer group because %s.",
                     self.classic.broker_id, group_id, why)
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND,
                         f"Cannot upgrade classic group {group_id} to consumer group because {why}.")
        self.classic.give_up(classic)
        self.classic.store.write_tombstones(group_id, [], group=True)
        group.subscription_metadata = self._subscription_metadata(group)
        self.groups[group_id] = group
        for member in group.members.values():
            self._schedule_session(group, member)
        log.info("[GroupCoordinator %d]: Converted the classic group %s to a consumer group.",
                 self.classic.broker_id, group_id)
        return group

    def _downgradable(self, group: ConsumerGroup, leaving: set[str]) -> bool:
        """Kafka's validateOnlineDowngradeWithFencedMembers: members would remain, all classic."""
        remaining = len(group.members) - len(leaving & set(group.members))
        return (remaining > 0 and group.all_classic_except(leaving)
                and self.config.migration_policy.downgrade_enabled and remaining <= self.classic.group_max_size)

    def _downgrade(self, group: ConsumerGroup, leaving: set[str],
                   reason: str | None = "for member leaving") -> bool:
        """The last consumer-protocol member left (or was replaced by a classic static
        member): the group becomes a classic group of the rest, written as the consumer
        group's tombstones and a classic group record at once, and, given a reason,
        rebalances (Kafka's convertToClassicGroup). False: it stays as it is."""
        names = {tid: name for name, tid in self.topics.topic_ids.items()}
        try:
            classic, assignments = classic_group_from_consumer(group, leaving, names, self.classic.time)
        except MalformedProtocol:
            log.warning("[GroupCoordinator %d]: Cannot downgrade consumer group %s: a member's consumer protocol "
                        "is malformed.", self.classic.broker_id, group.group_id)
            return False
        records = group_tombstones(group.group_id, self._stored.get(group.group_id, {}))
        records.append((group_key(group.group_id), group_value(classic, assignments)))
        self._drop(group)

        def written(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                log.warning("[GroupCoordinator %d]: Writing the downgrade of group %s failed: %s",
                            self.classic.broker_id, group.group_id, error.name)

        self.classic.store.store_records(group.group_id, records, written)
        self.classic.adopt(classic, None if reason is None
                           else f"Downgrade group {group.group_id} from consumer to classic {reason}.")
        log.info("[GroupCoordinator %d]: Converted the consumer group %s to a classic group.",
                 self.classic.broker_id, group.group_id)
        return True

    def _drop(self, group: ConsumerGroup) -> None:
        for timers in (self._session_timers, self._rebalance_timers, self._sync_timers, self._join_timers):
            timers.cancel_group(group.group_id)
        group.state = ConsumerGroupState.DEAD
        group.book.transition_to(GroupState.DEAD)
        self.groups.pop(group.group_id, None)
        self._stored.pop(group.group_id, None)

    # -- the group's records -------------------------------------------------------------------

    def _persist(self, group: ConsumerGroup, done: Callable[[ErrorCode], None]) -> None:
        """Write what changed in the group since its last write; `done` gets the error once
        the write is acknowledged (acks=-1), as Kafka answers a heartbeat only then. A group
        made by a request that then failed, still at its initial epoch, is not written."""
        stored = self._stored.get(group.group_id)
        if self.groups.get(group.group_id) is not group:  # dropped, or converted to a classic group
            done(ErrorCode.NONE)
            return
        if stored is None and group.is_new and not group.members:
            done(ErrorCode.NONE)
            return
        touched, group.touched = group.touched, set()
        records = write_changes(group, self._stored.setdefault(group.group_id, {}), touched)
        self.classic.store.store_records(group.group_id, records, done)

    def _persist_after_timeout(self, group: ConsumerGroup) -> None:
        def written(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                log.warning("[GroupCoordinator %d]: Writing consumer group %s after a timeout failed: %s",
                            self.classic.broker_id, group.group_id, error.name)
        self._persist(group, written)

    def _write_tombstones(self, group: ConsumerGroup) -> ErrorCode:
        """Delete the group's records; like the classic coordinator's deletions, without
        waiting for replication (acks=1, answered at once)."""
        outcome: list[ErrorCode] = []
        self.classic.store.store_records(group.group_id, group_tombstones(group.group_id, self._stored.get(
            group.group_id, {})), outcome.append, required_acks=1)
        return outcome[0] if outcome else ErrorCode.NONE

    def load_partition(self, partition: int, loaded: LoadedPartition) -> None:
        """Rebuild the consumer groups of a partition the classic coordinator has just
        loaded: each takes over the offsets the classic load put in an Empty classic group,
        and each member's session timer starts afresh (Kafka's onLoaded), as does the
        rebalance timer of a member that still has partitions to revoke."""
        for group_id, stored in loaded.consumer_groups.items():
            if self.classic.partition_for(group_id) != partition:
                continue
            group = ConsumerGroup(group_id, self.classic.time)
            if group_id in self.classic.groups:  # its offsets, loaded as an Empty classic group
                group.book = self.classic.groups.pop(group_id)
            stored.rebuild(group)
            group.subscription_metadata = self._subscription_metadata(group)
            self.groups[group_id] = group
            touched, group.touched = group.touched, set()
            write_changes(group, self._stored.setdefault(group_id, {}), touched)  # what the log holds
            for member in group.members.values():
                self._schedule_session(group, member)
                if member.state == MemberState.UNREVOKED_PARTITIONS:
                    self._schedule_rebalance(group, member)
            log.info("[GroupCoordinator %d]: Loaded consumer group %s at epoch %d with %d members",
                     self.classic.broker_id, group_id, group.group_epoch, len(group.members))

    def unload_partition(self, partition: int) -> None:
        for group in [g for g in self.groups.values() if self.classic.partition_for(g.group_id) == partition]:
            self._drop(group)

    # -- ConsumerGroupHeartbeat ---------------------------------------------------------------

    def _invalid(self, req: HeartbeatRequest) -> str | None:
        """Why the request is malformed (Kafka's throwIfConsumerGroupHeartbeatRequestIsInvalid)."""
        if not req.group_id:
            return "GroupId can't be empty."
        if req.instance_id == "":
            return "InstanceId can't be empty."
        if req.rack_id == "":
            return "RackId can't be empty."
        if (req.member_epoch > 0 or req.member_id_required) and not req.member_id:
            return "MemberId can't be empty."
        if req.member_epoch == 0:
            if req.rebalance_timeout_ms == -1:
                return "RebalanceTimeoutMs must be provided when joining."
            if req.owned:
                return "TopicPartitions must be empty when (re-)joining."
            if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
                return "SubscribedTopicNames or SubscribedTopicRegex must be set in first request."
        elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            if req.instance_id is None:
                return "InstanceId can't be null."
        elif req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            return f"MemberEpoch is invalid: {req.member_epoch}."
        if req.subscribed_topic_regex:
            try:
                re.compile(req.subscribed_topic_regex)
            except re.error as e:
                return f"SubscribedTopicRegex {req.subscribed_topic_regex} is not a valid regular expression: {e}"
        return None

    def heartbeat(self, req: HeartbeatRequest, done: Callable[[HeartbeatResult], None]) -> None:
        """Handle a ConsumerGroupHeartbeat; `done` gets the answer once the group's changed
        records are written (a failed write answers with Kafka's error for it)."""
        result = self._heartbeat(req)
        group = self.groups.get(req.group_id)
        if group is None:
            done(result)
            return

        def written(error: ErrorCode) -> None:
            done(result if error == ErrorCode.NONE else _fail(error, f"Writing the group failed: {error.name}"))

        self._persist(group, written)

    def _heartbeat(self, req: HeartbeatRequest) -> HeartbeatResult:
        invalid = self._invalid(req)
        if invalid is not None:
            return _fail(ErrorCode.INVALID_REQUEST, invalid)
        error = self.classic.validate(req.group_id, "heartbeat")
        if error != ErrorCode.NONE:
            return _fail(error, error.name)
        if req.server_assignor is not None and req.server_assignor not in self.assignors:
            return _fail(ErrorCode.UNSUPPORTED_ASSIGNOR, f"ServerAssignor {req.server_assignor} is not supported. "
                         f"Supported assignors: {', '.join(self.assignors)}.")
        if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            return self._leave(req)
        found = self._group_for_heartbeat(req.group_id, create=req.member_epoch == 0)
        if isinstance(found, HeartbeatResult):
            return found
        group = found
        member_id = req.member_id or str(uuid.uuid4())
        if req.member_epoch == 0:
            joined = self._joining_member(group, req, member_id)
            if isinstance(joined, HeartbeatResult):
                return joined
            member = joined
        else:
            existing = group.members.get(member_id)
            if existing is None:
                return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                             f"Member {member_id} is not a member of group {group.group_id}.")
            fenced = self._epoch_error(existing, req)
            if fenced is not None:
                return _fail(ErrorCode.FENCED_MEMBER_EPOCH, fenced)
            member = existing
        return self._update(group, member, req)

    def _joining_member(self, group: ConsumerGroup, req: HeartbeatRequest, member_id: str
                        ) -> ConsumerGroupMember | HeartbeatResult:
        existing = group.members.get(member_id)
        if existing is not None:
            return existing
        if len(group.members) >= self.config.max_size:
            return _fail(ErrorCode.GROUP_MAX_SIZE_REACHED,
                         f"The consumer group has reached its maximum capacity of {self.config.max_size} members.")
        if req.instance_id is not None and req.instance_id in group.static_members:
            old = group.members[group.static_members[req.instance_id]]
            if old.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                return _fail(ErrorCode.UNRELEASED_INSTANCE_ID,
                             f"Static member {old.member_id} with instance id {req.instance_id} cannot join the "
                             f"group because the instance id is owned by member {old.member_id}.")
            # The instance comes back under a new member id: it takes over the old one's partitions.
            target = group.target.pop(old.member_id, {})
            group.remove_member(old.member_id)
            self._cancel_timers(group.group_id, old.member_id)
            group.target[member_id] = target
            successor = replace(old, member_id=member_id, member_epoch=0, previous_member_epoch=0,
                                state=MemberState.STABLE)
            group.update_member(successor)  # the same member to the group: no new epoch
            return successor
        return ConsumerGroupMember(member_id, instance_id=req.instance_id)

    @staticmethod
    def _epoch_error(member: ConsumerGroupMember, req: HeartbeatRequest) -> str | None:
        owned = req.owned
        return fenced_epoch("consumer", req.member_epoch, member, member.previous_member_epoch, lambda: (
            owned is not None and all(ps <= member.assigned.get(t, frozenset()) for t, ps in owned.items())))

    def _update(self, group: ConsumerGroup, member: ConsumerGroupMember, req: HeartbeatRequest) -> HeartbeatResult:
        is_new = member.member_id not in group.members
        updated = replace(
            member,
            instance_id=req.instance_id if req.instance_id is not None else member.instance_id,
            rack_id=req.rack_id if req.rack_id is not None else member.rack_id,
            rebalance_timeout_ms=(req.rebalance_timeout_ms if req.rebalance_timeout_ms != -1
                                  else member.rebalance_timeout_ms),
            subscribed_topic_names=(tuple(sorted(set(req.subscribed_topic_names)))
                                    if req.subscribed_topic_names is not None else member.subscribed_topic_names),
            subscribed_topic_regex=(req.subscribed_topic_regex or None if req.subscribed_topic_regex is not None
                                    else member.subscribed_topic_regex),
            server_assignor=req.server_assignor if req.server_assignor is not None else member.server_assignor,
            client_id=req.client_id, client_host=req.client_host, classic=None)
        reconciled = self._apply(group, member, updated, is_new, req.owned)
        self._schedule_session(group, reconciled)
        if reconciled.state == MemberState.UNREVOKED_PARTITIONS:
            if (member.state != MemberState.UNREVOKED_PARTITIONS or member.member_epoch != reconciled.member_epoch
                    or (group.group_id, reconciled.member_id) not in self._rebalance_timers):
                self._schedule_rebalance(group, reconciled)
        else:
            self._rebalance_timers.cancel(group.group_id, reconciled.member_id)
        full = (req.rebalance_timeout_ms != -1 and req.subscribed_topic_names is not None
                and req.owned is not None)
        changed = (is_new or reconciled.assigned != member.assigned
                   or reconciled.member_epoch != member.member_epoch)
        return HeartbeatResult(ErrorCode.NONE, None, reconciled.member_id, reconciled.member_epoch,
                               self.group_configs.int_value(group.group_id, CONSUMER_HEARTBEAT_INTERVAL_MS,
                                                            self.config.heartbeat_interval_ms),
                               dict(reconciled.assigned) if changed or full or req.member_epoch == 0 else None)

    def _apply(self, group: ConsumerGroup, member: ConsumerGroupMember, updated: ConsumerGroupMember,
               is_new: bool, owned: Owned | None) -> ConsumerGroupMember:
        """Store the updated member; a new member, a changed subscription or changed topics
        bump the group epoch and a new target assignment is computed; the member then
        takes its next reconciliation step (the heart of Kafka's consumerGroupHeartbeat and
        classicGroupJoinToConsumerGroup)."""
        bump = (is_new or updated.subscribed_topic_names != member.subscribed_topic_names
                or updated.subscribed_topic_regex != member.subscribed_topic_regex
                or updated.server_assignor != member.server_assignor)
        group.update_member(updated)
        metadata = self._subscription_metadata(group)
        if metadata != group.subscription_metadata:
            group.subscription_metadata = metadata
            bump = True
        if bump:
            group.group_epoch += 1
            log.info("[GroupCoordinator %d]: Bumped epoch of consumer group %s to %d", self.classic.broker_id,
                     group.group_id, group.group_epoch)
        if group.group_epoch > group.assignment_epoch:
            self._compute_target(group)
        reconciled = reconcile(updated, group.assignment_epoch, group.target.get(updated.member_id, {}),
                               group.owner_epoch, owned)
        group.update_member(reconciled)
        return reconciled

    def _subscribed(self, member: ConsumerGroupMember) -> set[str]:
        """The member's topic names plus the existing topics its regex matches in full
        (Python's re, not Kafka's RE2/J; internal topics never match)."""
        names = set(member.subscribed_topic_names)
        if member.subscribed_topic_regex:
            pattern = re.compile(member.subscribed_topic_regex)
            names |= {t for t in self.topics.topics if not t.startswith("__") and pattern.fullmatch(t)}
        return names

    def _subscription_metadata(self, group: ConsumerGroup) -> dict[str, tuple[uuid.UUID, int]]:
        return subscription_metadata(self.topics, set().union(*(self._subscribed(m) for m in group.members.values())))

    def _compute_target(self, group: ConsumerGroup) -> None:
        assignor = self.assignors[group.preferred_assignor(self.config.assignors[0])]
        meta = group.subscription_metadata
        members = {mid: AssignmentMember(frozenset(meta[t][0] for t in self._subscribed(m) if t in meta),
                                         group.target.get(mid, {}))
                   for mid, m in group.members.items()}
        group.set_target(assignor.assign(members, dict(meta.values())))
        group.assignment_epoch = group.group_epoch
        group.update_state()
        log.info("[GroupCoordinator %d]: Computed a new target assignment for epoch %d of consumer group %s "
                 "with the %s assignor", self.classic.broker_id, group.group_epoch, group.group_id, assignor.name)

    def _leave(self, req: HeartbeatRequest) -> HeartbeatResult:
        group = self.groups.get(req.group_id)
        member = group.members.get(req.member_id) if group is not None else None
        if group is None or member is None:
            return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                         f"Member {req.member_id} is not a member of group {req.group_id}.")
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            # The static member means to come back: it keeps its partitions for a session timeout,
            # their assignment epochs reset to 0 as Kafka 4.4 does.
            epochs = member.epochs_of(member.pending_revocation)
            epochs.update(dict.fromkeys(member.epochs_of(member.assigned), 0))
            group.update_member(replace(member, member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH,
                                        previous_member_epoch=member.member_epoch, partition_epochs=epochs))
            self._rebalance_timers.cancel(group.group_id, member.member_id)
            self._schedule_session(group, member)
            log.info("[GroupCoordinator %d]: Static member %s of consumer group %s left temporarily",
                     self.classic.broker_id, member.member_id, group.group_id)
        else:
            self._fence(group, member.member_id, "left the group")
        return HeartbeatResult(ErrorCode.NONE, None, req.member_id, req.member_epoch)

    def _fence(self, group: ConsumerGroup, member_id: str, why: str) -> None:
        """Remove the member; the group moves to a new epoch, whose target assignment is
        computed at the next heartbeat (Kafka's consumerGroupFenceMember). If only classic
        members remain, the group becomes a classic group instead."""
        self._cancel_timers(group.group_id, member_id)
        if self._downgradable(group, {member_id}) and self._downgrade(group, {member_id}):
            log.info("[GroupCoordinator %d]: Member %s of consumer group %s %s", self.classic.broker_id, member_id,
                     group.group_id, why)
            return
        group.remove_member(member_id)
        group.subscription_metadata = self._subscription_metadata(group)
        group.group_epoch += 1
        group.update_state()
        log.info("[GroupCoordinator %d]: Member %s of consumer group %s %s; group epoch is now %d",
                 self.classic.broker_id, member_id, group.group_id, why, group.group_epoch)

    # -- timers ----------------------------------------------------------------------------

    def _cancel_timers(self, group_id: str, member_id: str) -> None:
        for timers in (self._session_timers, self._rebalance_timers, self._sync_timers, self._join_timers):
            timers.cancel(group_id, member_id)

    def _schedule_session(self, group: ConsumerGroup, member: ConsumerGroupMember) -> None:
        def expired() -> None:
            if self.groups.get(group.group_id) is group and member.member_id in group.members:
                self._fence(group, member.member_id, "failed to heartbeat within the session timeout")
                self._persist_after_timeout(group)

        timeout = member.classic.session_timeout_ms if member.classic is not None else \
            self.group_configs.int_value(group.group_id, CONSUMER_SESSION_TIMEOUT_MS, self.config.session_timeout_ms)
        self._session_timers.schedule(group.group_id, member.member_id, timeout, expired)

    def _schedule_rebalance(self, group: ConsumerGroup, member: ConsumerGroupMember) -> None:
        epoch = member.member_epoch

        def expired() -> None:
            current = group.members.get(member.member_id) if self.groups.get(group.group_id) is group else None
            if (current is not None and current.state == MemberState.UNREVOKED_PARTITIONS
                    and current.member_epoch == epoch):
                self._fence(group, member.member_id, "failed to revoke partitions within the rebalance timeout")
                self._persist_after_timeout(group)

        self._rebalance_timers.schedule(group.group_id, member.member_id, member.rebalance_timeout_ms, expired)

    # -- offsets ---------------------------------------------------------------------------

    def _member_error(self, group: ConsumerGroup, member_id: str | None, member_epoch: int) -> ErrorCode:
        """modern_group.member_error; a classic member names its generation, the member
        epoch it was given in JoinGroup, and is told ILLEGAL_GENERATION."""
        error = member_error(group.members, member_id, member_epoch)
        if error == ErrorCode.STALE_MEMBER_EPOCH and group.members[member_id or ""].uses_classic_protocol:
            return ErrorCode.ILLEGAL_GENERATION
        return error

    def _commit_error(self, group: ConsumerGroup, member_id: str | None, member_epoch: int,
                      partitions: Iterable[TopicPartition]) -> ErrorCode:
        """Kafka 4.4's ConsumerGroup.validateOffsetCommit (KIP-1251): as _member_error, but
        an older member epoch may still commit a partition the member owns (assigned or
        pending revocation) and got at or before that epoch; any other partition refuses
        the whole commit. A newer epoch is refused as before."""
        member = group.members.get(member_id or "")
        if member is None or member_epoch >= member.member_epoch or member_epoch < 0:
            return self._member_error(group, member_id, member_epoch)
        stale = ErrorCode.ILLEGAL_GENERATION if member.uses_classic_protocol else ErrorCode.STALE_MEMBER_EPOCH
        ids = self.topics.topic_ids
        for topic, partition in partitions:
            topic_id = ids.get(topic)
            epoch = None if topic_id is None else member.assignment_epoch(topic_id, partition)
            if epoch is None or member_epoch < epoch:
                return stale
        return ErrorCode.NONE

    def commit_offsets(self, group_id: str, member_id: str, member_epoch: int, api_version: int,
                       offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
        group = self.groups[group_id]

        def error_for(partitions: Iterable[TopicPartition]) -> ErrorCode:
            error = self._commit_error(group, member_id, member_epoch, partitions)
            if (error == ErrorCode.NONE and member_epoch >= 0 and api_version < 9
                    and not group.members[member_id].uses_classic_protocol):
                return ErrorCode.UNSUPPORTED_VERSION  # consumer-protocol members commit with v9+
            return error

        commit_offsets(self.classic.store, self.classic.max_metadata_bytes, group_id, group.offsets, offsets,
                       error_for, lambda: group.state == ConsumerGroupState.DEAD, callback)

    def txn_member_error(self, group_id: str, member_id: str, generation_id: int,
                         partitions: Iterable[TopicPartition]) -> ErrorCode:
        """TxnOffsetCommit's check: a producer that names the member (consumer.groupMetadata())
        must name an epoch OffsetCommit would take for these partitions (GroupCoordinator
        reports a stale one as ILLEGAL_GENERATION before v6)."""
        if not member_id and generation_id < 0:
            return ErrorCode.NONE
        return self._commit_error(self.groups[group_id], member_id, generation_id, partitions)

    def offsets_book(self, group_id: str) -> GroupMetadata:
        return self.groups[group_id].book

    def offsets_books(self) -> list[GroupMetadata]:
        return [g.book for g in self.groups.values()]

    def cleanup(self, now: int) -> int:
        """Kafka's offset expiration for consumer groups: an offset of a topic no member
        subscribes to expires offsets.retention.minutes after its commit; an Empty group
        with no offset left is deleted."""
        removed = 0
        for group in list(self.groups.values()):
            if self.classic.partition_for(group.group_id) not in self.classic.owned:
                continue
            subscribed: set[str] = set().union(*(self._subscribed(m) for m in group.members.values()))
            expired, drop = expire_offsets(self.classic.store, group, now, self.classic.offsets_retention_ms,
                                           subscribed, partial(self._write_tombstones, group))
            removed += expired
            if drop:
                self._drop(group)
        return removed

    def fetch_offsets(self, group_id: str, member_id: str | None, member_epoch: int,
                      partitions: list[TopicPartition] | None
                      ) -> tuple[ErrorCode, dict[TopicPartition, OffsetAndMetadata | None]]:
        group = self.groups[group_id]
        if member_id is not None or member_epoch >= 0:
            error = self._member_error(group, member_id, member_epoch)
            if error != ErrorCode.NONE:
                return error, {}
        return ErrorCode.NONE, fetched_offsets(group.offsets, partitions)

    # -- admin -----------------------------------------------------------------------------

    def describe(self, group_id: str) -> tuple[ErrorCode, str | None, ConsumerGroup | None]:
        return describe_group(self.classic, self.groups, group_id, "consumer",
                              lambda other: other in self.classic.groups or self.share_groups(other))

    def list_groups(self, states: set[str]) -> list[ConsumerGroup]:
        return self.classic.listed(self.groups.values(), states)

    def delete_group(self, group_id: str) -> ErrorCode:
        return delete_group(self.classic, self.groups, group_id, self._delete)

    def _delete(self, group: ConsumerGroup) -> ErrorCode:
        error = self.classic.store.write_tombstones(group.group_id, list(group.offsets), group=True)
        if error == ErrorCode.NONE:
            error = self._write_tombstones(group)
        if error == ErrorCode.NONE:
            self._drop(group)
        return error

    # -- classic members (KIP-848 mixed groups) ----------------------------------------------

    def serves(self, group_id: str, joining: bool) -> bool:
        """Kafka routes a JoinGroup to a consumer group with members, the other classic
        group APIs to any consumer group."""
        group = self.groups.get(group_id)
        return group is not None and (bool(group.members) or not joining)

    def _classic_member(self, group: ConsumerGroup, member_id: str, instance_id: str | None
                        ) -> ConsumerGroupMember | ErrorCode:
        """Kafka's validateConsumerGroupMember plus throwIfMemberDoesNotUseClassicProtocol."""
        if instance_id is None:
            member = group.members.get(member_id)
        else:
            static_id = group.static_members.get(instance_id)
            member = group.members.get(static_id) if static_id is not None else None
            if member is not None and member.member_id != member_id:
                return ErrorCode.FENCED_INSTANCE_ID
        if member is None or not member.uses_classic_protocol:
            return ErrorCode.UNKNOWN_MEMBER_ID
        return member

    def classic_join(self, group_id: str, member_id: str, group_instance_id: str | None,
                     require_known_member_id: bool, joining: JoiningMember, callback: JoinCallback) -> None:
        """Kafka's classicGroupJoinToConsumerGroup: the member's subscription and owned
        partitions come from its embedded consumer protocol; the group epoch, the target
        assignment and the member's reconciliation move as for a consumer-protocol member,
        and the JoinGroup answer names the member epoch as the generation. The member is
        never the leader: it gets its partitions in SyncGroup."""
        group = self.groups[group_id]
        unknown = not member_id
        new_id = str(uuid.uuid4()) if unknown else member_id
        names = [name for name, _ in joining.protocols]
        if len(group.members) >= self.config.max_size and new_id not in group.members:
            callback(JoinResult(ErrorCode.GROUP_MAX_SIZE_REACHED, member_id))
            return
        if not group.supports_classic_protocols(joining.protocol_type, names):
            callback(JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id))
            return
        if require_known_member_id and unknown and group_instance_id is None:
            callback(JoinResult(ErrorCode.MEMBER_ID_REQUIRED, new_id))
            return
        try:
            subscription = read_subscription(joining.protocols[0][1])
        except (RecordFormatError, struct.error, UnicodeDecodeError):
            # Kafka's IllegalStateException("Malformed embedded consumer protocol ...")
            callback(JoinResult(ErrorCode.UNKNOWN_SERVER_ERROR, member_id))
            return
        replacing = unknown and group_instance_id is not None and group_instance_id in group.static_members
        found = self._classic_joining_member(group, new_id, group_instance_id, unknown)
        if isinstance(found, ErrorCode):
            callback(JoinResult(found, member_id))
            return
        member = found
        is_new = member.member_id not in group.members
        updated = replace(
            member, instance_id=group_instance_id if group_instance_id is not None else member.instance_id,
            rack_id=subscription.rack_id if subscription.rack_id is not None else member.rack_id,
            rebalance_timeout_ms=joining.rebalance_timeout_ms, server_assignor=None,
            subscribed_topic_names=tuple(sorted(set(subscription.topics))), subscribed_topic_regex=None,
            client_id=joining.client_id, client_host=joining.client_host,
            classic=ClassicMemberMetadata(joining.session_timeout_ms, tuple(joining.protocols)))
        ids = self.topics.topic_ids
        owned = {ids[t]: ps for t, ps in subscription.owned.items() if t in ids and ps}
        epoch = group.group_epoch
        reconciled = self._apply(group, member, updated, is_new, owned)
        if replacing and self._downgradable(group, set()):
            # A classic static member took the place of the last consumer-protocol one
            # (Kafka's validateOnlineDowngradeWithReplacedMember): no rebalance unless the
            # subscription changed.
            self._downgrade(group, set(), "for static member replacement with different subscription"
                            if group.group_epoch != epoch else None)
        self._join_timers.cancel(group_id, reconciled.member_id)
        self._rebalance_timers.cancel(group_id, reconciled.member_id)
        protocol_name = joining.protocols[0][0]

        def written(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                callback(JoinResult(error, member_id))
                return
            if self.groups.get(group_id) is group and reconciled.member_id in group.members:
                self._schedule_session(group, group.members[reconciled.member_id])
                self._schedule_classic(self._sync_timers, group, reconciled, "send its SyncGroup")
            callback(JoinResult(ErrorCode.NONE, reconciled.member_id, reconciled.member_epoch,
                                CONSUMER_PROTOCOL_TYPE, protocol_name))

        self._persist(group, written)

    def _classic_joining_member(self, group: ConsumerGroup, member_id: str, instance_id: str | None,
                                unknown: bool) -> ConsumerGroupMember | ErrorCode:
        """The member a classic JoinGroup is for: a static member coming back under a new
        id takes over its old self, as in Kafka's getOrMaybeSubscribeStaticConsumerGroupMember."""
        if instance_id is None:
            return group.members.get(member_id) or ConsumerGroupMember(member_id)
        static_id = group.static_members.get(instance_id)
        if static_id is None:
            return ConsumerGroupMember(member_id, instance_id=instance_id)
        if not unknown:
            return group.members[static_id] if static_id == member_id else ErrorCode.FENCED_INSTANCE_ID
        old = group.members[static_id]
        target = group.target.pop(old.member_id, {})
        group.remove_member(old.member_id)
        self._cancel_timers(group.group_id, old.member_id)
        group.target[member_id] = target
        successor = replace(old, member_id=member_id)
        group.update_member(successor)
        return successor

    def _rejoin_needed(self, group: ConsumerGroup, member: ConsumerGroupMember) -> ErrorCode:
        """REBALANCE_IN_PROGRESS for a classic member that must rejoin, with the deadline
        of its JoinGroup started if not yet (Kafka's scheduleConsumerGroupJoinTimeoutIfAbsent)."""
        if (group.group_id, member.member_id) not in self._join_timers:
            self._schedule_classic(self._join_timers, group, member, "rejoin")
        return ErrorCode.REBALANCE_IN_PROGRESS

    def classic_sync(self, group_id: str, generation_id: int, member_id: str, protocol_type: str | None,
                     protocol_name: str | None, group_instance_id: str | None, callback: SyncCallback) -> None:
        """Kafka's classicGroupSyncToConsumerGroup: the member's current partitions, in the
        consumer protocol version of its subscription, unless it must rejoin first."""
        group = self.groups[group_id]
        found = self._classic_member(group, member_id, group_instance_id)
        if isinstance(found, ErrorCode):
            callback(SyncResult(found))
            return
        member = found
        assert member.classic is not None
        name, metadata = member.classic.protocols[0]
        if generation_id != member.member_epoch:
            callback(SyncResult(ErrorCode.ILLEGAL_GENERATION))
        elif ((protocol_type is not None and protocol_type != CONSUMER_PROTOCOL_TYPE)
              or (protocol_name is not None and protocol_name != name)):
            callback(SyncResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL))
        elif group.group_epoch > member.member_epoch and member.state != MemberState.UNREVOKED_PARTITIONS:
            callback(SyncResult(self._rejoin_needed(group, member)))
        else:
            self._sync_timers.cancel(group_id, member.member_id)
            self._schedule_session(group, member)
            names = {tid: n for n, tid in self.topics.topic_ids.items()}
            try:
                version = version_of(metadata)
            except RecordFormatError:
                version = 0
            assignment = write_assignment({names[t]: ps for t, ps in member.assigned.items() if t in names}, version)
            callback(SyncResult(ErrorCode.NONE, assignment, CONSUMER_PROTOCOL_TYPE, name))

    def classic_heartbeat(self, group_id: str, member_id: str, group_instance_id: str | None,
                          generation_id: int) -> ErrorCode:
        """Kafka's classicGroupHeartbeatToConsumerGroup: REBALANCE_IN_PROGRESS when the
        member is behind the group epoch, has partitions to revoke, or may now have
        partitions other members released."""
        group = self.groups[group_id]
        found = self._classic_member(group, member_id, group_instance_id)
        if isinstance(found, ErrorCode):
            return found
        member = found
        if generation_id != member.member_epoch:
            return ErrorCode.ILLEGAL_GENERATION
        self._schedule_session(group, member)
        if (member.member_epoch < group.group_epoch or member.state == MemberState.UNREVOKED_PARTITIONS
                or (member.state == MemberState.UNRELEASED_PARTITIONS and not group.waiting_on_unreleased(member))):
            return self._rejoin_needed(group, member)
        return ErrorCode.NONE

    def classic_leave(self, group_id: str, members: list[tuple[str, str | None]]
                      ) -> tuple[ErrorCode, list[ErrorCode]]:
        """Kafka's classicGroupLeaveToConsumerGroup: each member leaves (by group.instance.id
        alone, an admin may remove any static member); the group moves to a new epoch.
        The answer does not wait for the write."""
        group = self.groups[group_id]
        errors = []
        for member_id, instance_id in members:
            if instance_id is not None and not member_id:
                static_id = group.static_members.get(instance_id)
                found: ConsumerGroupMember | ErrorCode = (
                    group.members[static_id] if static_id is not None else ErrorCode.UNKNOWN_MEMBER_ID)
            else:
                found = self._classic_member(group, member_id, instance_id)
            if isinstance(found, ErrorCode):
                errors.append(found)
                continue
            self._cancel_timers(group_id, found.member_id)
            group.remove_member(found.member_id)
            log.info("[GroupCoordinator %d]: Member %s left consumer group %s through LeaveGroup",
                     self.classic.broker_id, found.member_id, group_id)
            errors.append(ErrorCode.NONE)
        if ErrorCode.NONE in errors:
            group.subscription_metadata = self._subscription_metadata(group)
            group.group_epoch += 1
            group.update_state()
            self._persist_after_timeout(group)
        return ErrorCode.NONE, errors

    def _schedule_classic(self, timers: MemberTimers, group: ConsumerGroup, member: ConsumerGroupMember,
                          what: str) -> None:
        """A classic member's deadline (its rebalance timeout) to `what`, else it is fenced."""
        def expired() -> None:
            if self.groups.get(group.group_id) is group and member.member_id in group.members:
                self._fence(group, member.member_id, f"failed to {what} within the rebalance timeout")
                self._persist_after_timeout(group)

        timers.schedule(group.group_id, member.member_id, member.rebalance_timeout_ms, expired)
