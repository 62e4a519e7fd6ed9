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
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from josefk.coordinator.consumer_assignors import ASSIGNORS, AssignmentMember, ConsumerGroupAssignor, TopicId
from josefk.coordinator.consumer_group import (
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ConsumerGroup,
    ConsumerGroupMember,
    ConsumerGroupState,
    MemberState,
    reconcile,
)
from josefk.coordinator.consumer_group_records import group_tombstones, write_changes
from josefk.coordinator.group_coordinator import GroupCoordinator
from josefk.coordinator.group_metadata import GroupMetadata, GroupState, OffsetAndMetadata
from josefk.coordinator.offsets_store import LoadedPartition
from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import ScheduledTask

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
Owned = dict[TopicId, frozenset[int]]


class TopicsView(Protocol):
    """What the coordinator needs of the cluster's topics (MetadataCache has both)."""

    @property
    def topics(self) -> Mapping[str, Mapping[int, object]]: ...

    @property
    def topic_ids(self) -> Mapping[str, uuid.UUID]: ...


@dataclass(frozen=True)
class ConsumerGroupConfig:
    """The group.consumer.* broker configs."""

    session_timeout_ms: int = 45_000
    heartbeat_interval_ms: int = 5_000
    assignors: tuple[str, ...] = ("uniform", "range")  # the first is the default
    max_size: int = 2**31 - 1


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
                 config: ConsumerGroupConfig = ConsumerGroupConfig()) -> None:
        self.classic = classic
        self.topics = topics
        self.config = config
        unknown = [n for n in config.assignors if n not in ASSIGNORS]
        if unknown or not config.assignors:
            raise ValueError(f"group.consumer.assignors: unknown assignors {unknown}; josefk has {sorted(ASSIGNORS)}")
        self.assignors: dict[str, ConsumerGroupAssignor] = {n: ASSIGNORS[n] for n in config.assignors}
        self.groups: dict[str, ConsumerGroup] = {}
        self._session_timers: dict[tuple[str, str], ScheduledTask] = {}
        self._rebalance_timers: dict[tuple[str, str], ScheduledTask] = {}
        # group id -> its records as last written (key -> value), to write only what changed
        self._stored: dict[str, dict[bytes, bytes]] = {}
        classic.load_listeners.append(self.load_partition)
        classic.unload_listeners.append(self.unload_partition)
        classic.join_guard = self._classic_join_guard
        classic.consumer_groups = self
        self.share_groups: Callable[[str], bool] = lambda _group_id: False  # share group ids are not ours

    # -- group lookup, shared with the classic coordinator -----------------------------------

    def is_consumer_group(self, group_id: str) -> bool:
        return group_id in self.groups

    def _classic_join_guard(self, group_id: str) -> ErrorCode:
        """A classic JoinGroup for a consumer group: refused while it has members (Kafka's
        answer without online migration), else the group becomes classic, offsets kept."""
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE
        if group.members:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        self._write_tombstones(group)
        self._drop(group)
        classic = GroupMetadata(group_id, GroupState.EMPTY, self.classic.time)
        classic.offsets = group.offsets
        self.classic.groups[group_id] = classic
        return ErrorCode.NONE

    def _group_for_heartbeat(self, group_id: str, create: bool) -> ConsumerGroup | HeartbeatResult:
        group = self.groups.get(group_id)
        if group is not None:
            return group
        if self.share_groups(group_id):
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
        classic = self.classic.groups.get(group_id)
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

    def _drop(self, group: ConsumerGroup) -> None:
        for timers in (self._session_timers, self._rebalance_timers):
            for key in [k for k in timers if k[0] == group.group_id]:
                timers.pop(key).cancel()
        group.state = ConsumerGroupState.DEAD
        group.book.transition_to(GroupState.DEAD)
        self.groups.pop(group.group_id, None)
        self._stored.pop(group.group_id, None)

    # -- the group's records -------------------------------------------------------------------

    def _persist(self, group: ConsumerGroup, done: Callable[[ErrorCode], None]) -> None:
        """Write what changed in the group since its last write; `done` gets the error once
        the write is acknowledged (acks=-1), as Kafka answers a heartbeat only then. A group
        made by a request that then failed, still at epoch 0, is not written."""
        stored = self._stored.get(group.group_id)
        if stored is None and group.group_epoch == 0 and not group.members:
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
        """Kafka's throwIfMemberEpochIsInvalid: a member ahead of the coordinator, or behind
        it other than by one lost response, is fenced."""
        if req.member_epoch > member.member_epoch:
            return (f"The consumer group member has a greater member epoch ({req.member_epoch}) than the one known "
                    f"by the group coordinator ({member.member_epoch}). The member must abandon all its "
                    "partitions and rejoin.")
        if req.member_epoch < member.member_epoch:
            owned = req.owned
            subset = owned is not None and all(ps <= member.assigned.get(t, frozenset()) for t, ps in owned.items())
            if req.member_epoch != member.previous_member_epoch or not subset:
                return (f"The consumer group member has a smaller member epoch ({req.member_epoch}) than the one "
                        f"known by the group coordinator ({member.member_epoch}). The member must abandon all its "
                        "partitions and rejoin.")
        return None

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
            client_id=req.client_id, client_host=req.client_host)
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
                               group.owner_epoch, req.owned)
        group.update_member(reconciled)
        self._schedule_session(group, reconciled)
        if reconciled.state == MemberState.UNREVOKED_PARTITIONS:
            if (member.state != MemberState.UNREVOKED_PARTITIONS or member.member_epoch != reconciled.member_epoch
                    or (group.group_id, reconciled.member_id) not in self._rebalance_timers):
                self._schedule_rebalance(group, reconciled)
        else:
            self._cancel_timer(self._rebalance_timers, group.group_id, reconciled.member_id)
        full = (req.rebalance_timeout_ms != -1 and req.subscribed_topic_names is not None
                and req.owned is not None)
        changed = (is_new or reconciled.assigned != member.assigned
                   or reconciled.member_epoch != member.member_epoch)
        return HeartbeatResult(ErrorCode.NONE, None, reconciled.member_id, reconciled.member_epoch,
                               self.config.heartbeat_interval_ms,
                               dict(reconciled.assigned) if changed or full or req.member_epoch == 0 else None)

    def _subscribed(self, member: ConsumerGroupMember) -> set[str]:
        """The member's topic names plus the existing topics its regex matches in full
        (Python's re, not Kafka's RE2/J; internal topics never match)."""
        names = set(member.subscribed_topic_names)
        if member.subscribed_topic_regex:
            pattern = re.compile(member.subscribed_topic_regex)
            names |= {t for t in self.topics.topics if not t.startswith("__") and pattern.fullmatch(t)}
        return names

    def _subscription_metadata(self, group: ConsumerGroup) -> dict[str, tuple[uuid.UUID, int]]:
        out: dict[str, tuple[uuid.UUID, int]] = {}
        for name in sorted(set().union(*(self._subscribed(m) for m in group.members.values()))):
            partitions = self.topics.topics.get(name)
            topic_id = self.topics.topic_ids.get(name)
            if partitions and topic_id is not None:
                out[name] = (topic_id, len(partitions))
        return out

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
            # The static member means to come back: it keeps its partitions for a session timeout.
            group.update_member(replace(member, member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH,
                                        previous_member_epoch=member.member_epoch))
            self._cancel_timer(self._rebalance_timers, group.group_id, member.member_id)
            self._schedule_session(group, member)
            log.info("[GroupCoordinator %d]: Static member %s of consumer group %s left temporarily",
                     self.classic.broker_id, member.member_id, group.group_id)
        else:
            self._fence(group, member.member_id, "left the group")
        return HeartbeatResult(ErrorCode.NONE, None, req.member_id, req.member_epoch)

    def _fence(self, group: ConsumerGroup, member_id: str, why: str) -> None:
        """Remove the member; the group moves to a new epoch, whose target assignment is
        computed at the next heartbeat (Kafka's consumerGroupFenceMember)."""
        self._cancel_timers(group.group_id, member_id)
        group.remove_member(member_id)
        group.subscription_metadata = self._subscription_metadata(group)
        group.group_epoch += 1
        group.update_state()
        log.info("[GroupCoordinator %d]: Member %s of consumer group %s %s; group epoch is now %d",
                 self.classic.broker_id, member_id, group.group_id, why, group.group_epoch)

    # -- timers ----------------------------------------------------------------------------

    def _cancel_timer(self, timers: dict[tuple[str, str], ScheduledTask], group_id: str, member_id: str) -> None:
        task = timers.pop((group_id, member_id), None)
        if task is not None:
            task.cancel()

    def _cancel_timers(self, group_id: str, member_id: str) -> None:
        self._cancel_timer(self._session_timers, group_id, member_id)
        self._cancel_timer(self._rebalance_timers, group_id, member_id)

    def _schedule_session(self, group: ConsumerGroup, member: ConsumerGroupMember) -> None:
        key = (group.group_id, member.member_id)
        self._cancel_timer(self._session_timers, *key)

        def expired() -> None:
            self._session_timers.pop(key, None)
            if self.groups.get(group.group_id) is group and member.member_id in group.members:
                self._fence(group, member.member_id, "failed to heartbeat within the session timeout")
                self._persist_after_timeout(group)

        self._session_timers[key] = self.classic.scheduler.schedule(self.config.session_timeout_ms, expired)

    def _schedule_rebalance(self, group: ConsumerGroup, member: ConsumerGroupMember) -> None:
        key = (group.group_id, member.member_id)
        self._cancel_timer(self._rebalance_timers, *key)
        epoch = member.member_epoch

        def expired() -> None:
            self._rebalance_timers.pop(key, None)
            current = group.members.get(member.member_id) if self.groups.get(group.group_id) is group else None
            if (current is not None and current.state == MemberState.UNREVOKED_PARTITIONS
                    and current.member_epoch == epoch):
                self._fence(group, member.member_id, "failed to revoke partitions within the rebalance timeout")
                self._persist_after_timeout(group)

        self._rebalance_timers[key] = self.classic.scheduler.schedule(member.rebalance_timeout_ms, expired)

    # -- offsets ---------------------------------------------------------------------------

    def _member_error(self, group: ConsumerGroup, member_id: str | None, member_epoch: int) -> ErrorCode:
        """Kafka's ConsumerGroup.validateOffsetCommit/Fetch: without a member epoch (admin
        tools, manual assignment) only an Empty group is open; a member must name its
        current epoch."""
        if member_epoch < 0 and not group.members:
            return ErrorCode.NONE
        member = group.members.get(member_id or "")
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if member_epoch != member.member_epoch:
            return ErrorCode.STALE_MEMBER_EPOCH
        return ErrorCode.NONE

    def commit_offsets(self, group_id: str, member_id: str, member_epoch: int, api_version: int,
                       offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
        group = self.groups[group_id]
        error = self._member_error(group, member_id, member_epoch)
        if error == ErrorCode.NONE and member_epoch >= 0 and api_version < 9:
            error = ErrorCode.UNSUPPORTED_VERSION  # consumer-protocol members commit with v9+
        if error != ErrorCode.NONE:
            callback(dict.fromkeys(offsets, error))
            return
        results: dict[TopicPartition, ErrorCode] = {}
        valid = {}
        for tp, om in offsets.items():
            if om.metadata is not None and len(om.metadata.encode()) > self.classic.max_metadata_bytes:
                results[tp] = ErrorCode.OFFSET_METADATA_TOO_LARGE
            else:
                valid[tp] = om

        def stored(error: ErrorCode) -> None:
            if error == ErrorCode.NONE and group.state != ConsumerGroupState.DEAD:
                group.offsets.update(valid)
            results.update(dict.fromkeys(valid, error))
            callback({tp: results[tp] for tp in offsets})

        if valid:
            self.classic.store.store_offsets(group_id, valid, stored)
        else:
            callback(results)

    def txn_member_error(self, group_id: str, member_id: str, generation_id: int) -> ErrorCode:
        """TxnOffsetCommit's check: a producer that names the member (consumer.groupMetadata())
        must name its current epoch; TxnOffsetCommit reports a stale one as ILLEGAL_GENERATION."""
        if not member_id and generation_id < 0:
            return ErrorCode.NONE
        error = self._member_error(self.groups[group_id], member_id, generation_id)
        return ErrorCode.ILLEGAL_GENERATION if error == ErrorCode.STALE_MEMBER_EPOCH else error

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
            expired = [tp for tp, om in group.offsets.items() if tp[0] not in subscribed and (
                now >= om.expire_timestamp if om.expire_timestamp is not None
                else now - om.commit_timestamp >= self.classic.offsets_retention_ms)]
            drop = not group.members and len(expired) == len(group.offsets) and not group.book.pending_txn_offsets
            if not expired and not drop:
                continue
            if self.classic.store.write_tombstones(group.group_id, expired, group=drop) != ErrorCode.NONE:
                continue
            if drop and self._write_tombstones(group) != ErrorCode.NONE:
                continue
            for tp in expired:
                group.offsets.pop(tp, None)
            removed += len(expired)
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
        if partitions is None:
            return ErrorCode.NONE, dict(group.offsets)
        return ErrorCode.NONE, {tp: group.offsets.get(tp) for tp in partitions}

    # -- admin -----------------------------------------------------------------------------

    def describe(self, group_id: str) -> tuple[ErrorCode, str | None, ConsumerGroup | None]:
        error = self.classic.validate(group_id, "describe")
        if error != ErrorCode.NONE:
            return error, None, None
        group = self.groups.get(group_id)
        if group is None:
            if group_id in self.classic.groups or self.share_groups(group_id):
                return ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.", None
            return ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.", None
        return ErrorCode.NONE, None, group

    def list_groups(self, states: set[str]) -> list[ConsumerGroup]:
        return self.classic.listed(self.groups.values(), states)

    def delete_group(self, group_id: str) -> ErrorCode:
        error = self.classic.validate(group_id, "delete")
        if error != ErrorCode.NONE:
            return error
        group = self.groups[group_id]
        if group.members:
            return ErrorCode.NON_EMPTY_GROUP
        error = self.classic.store.write_tombstones(group_id, list(group.offsets), group=True)
        if error == ErrorCode.NONE:
            error = self._write_tombstones(group)
        if error == ErrorCode.NONE:
            self._drop(group)
        return error
