"""ShareGroupCoordinator: KIP-932 share group membership (Kafka's GroupMetadataManager
shareGroupHeartbeat, shareGroupLeave and the share-group session timeouts).

It lives beside the classic and consumer-group coordinators and shares their group ids
and __consumer_offsets partitions: it serves a group only where the classic coordinator
has loaded the group's partition, and a group id is of one type at a time (a share
heartbeat for a classic or consumer group's id is refused, as are their requests for a
share group's id). Kafka computes the target assignment with the `simple` assignor when
the group epoch moves (a member joins, leaves, times out, changes its subscription, or a
subscribed topic changes its partitions); every member then takes its target at its next
heartbeat, with no revocation step.

As Kafka 4.4's group coordinator, it owns the share state's life: a heartbeat whose group
subscribes to partitions without share state asks the share coordinator to initialize them
(InitializeShareGroupState at the group epoch, start offset -1, which the share partition
leader resolves with share.auto.offset.reset), recording them in the group's
ShareGroupStatePartitionMetadata as initializing, then initialized; only initialized
partitions are assigned. Deleting the group deletes their state (DeleteShareGroupState).
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from josefk.coordinator.consumer_assignors import Assignment, AssignmentMember, TopicId
from josefk.coordinator.group_config import (
    NO_GROUP_CONFIGS,
    SHARE_HEARTBEAT_INTERVAL_MS,
    SHARE_SESSION_TIMEOUT_MS,
    GroupConfigs,
)
from josefk.coordinator.group_coordinator import G
from josefk.coordinator.modern_group import (
    MemberTimers,
    TopicsView,
    delete_group,
    describe_group,
    fenced_epoch,
    subscription_metadata,
)
from josefk.coordinator.offsets_store import LoadedPartition
from josefk.coordinator.share_assignor import SIMPLE_ASSIGNOR, assign_simple
from josefk.coordinator.share_group import (
    LEAVE_GROUP_MEMBER_EPOCH,
    InitTopic,
    ShareGroup,
    ShareGroupMember,
    ShareGroupState,
)
from josefk.coordinator.share_group_records import changes, group_records, rebuild
from josefk.protocol.errors import ErrorCode
from josefk.replication.share_state_service import StateKey, StateResult
from josefk.utils.scheduler import Scheduler
from josefk.utils.time import Time

log = logging.getLogger(__name__)

GROUP_TYPE_SHARE = "share"


class GroupHost(Protocol):
    """The classic coordinator's side: where a group lives, and its classic groups."""

    broker_id: int
    scheduler: Scheduler
    time: Time
    unload_listeners: list[Callable[[int], None]]
    load_listeners: list[Callable[[int, LoadedPartition], None]]
    join_guard: Callable[[str], ErrorCode]

    @property
    def store(self) -> GroupRecordStore: ...

    @property
    def groups(self) -> Mapping[str, object]: ...

    def validate(self, group_id: str | None, api: str) -> ErrorCode: ...

    def partition_for(self, group_id: str) -> int: ...

    def listed(self, groups: Iterable[G], states: set[str]) -> list[G]: ...

    @property
    def owned(self) -> Mapping[int, int]: ...


class GroupRecordStore(Protocol):
    """Where a group's records go: its __consumer_offsets partition (OffsetsStore)."""

    def store_records(self, group_id: str, records: list[tuple[bytes, bytes | None]],
                      done: Callable[[ErrorCode], None], required_acks: int = -1) -> None: ...


class ShareStateChanger(Protocol):
    """The share coordinators' side the group coordinator drives (Kafka's Persister
    initializeState and deleteState: replication/share_state_persister.py)."""

    def reset(self, key: StateKey, state_epoch: int, start_offset: int,
              done: Callable[[StateResult], None]) -> None: ...

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None: ...


class NoShareState:
    """Before the persister is wired in (and in tests of membership alone): nothing to keep."""

    def reset(self, key: StateKey, state_epoch: int, start_offset: int,
              done: Callable[[StateResult], None]) -> None:
        done(StateResult())

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None:
        done(StateResult())


class OtherGroups(Protocol):
    share_groups: Callable[[str], bool]  # told which ids are share groups'

    def is_consumer_group(self, group_id: str) -> bool: ...


@dataclass(frozen=True)
class ShareGroupConfig:
    """The group.share.* broker configs of membership."""

    session_timeout_ms: int = 45_000
    heartbeat_interval_ms: int = 5_000
    max_size: int = 200
    initialize_retry_interval_ms: int = 30_000  # group.share.initialize.retry.interval.ms


@dataclass(frozen=True)
class ShareHeartbeatRequest:
    """A ShareGroupHeartbeat's fields; None means "unchanged since the last heartbeat"."""

    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None = None
    subscribed_topic_names: tuple[str, ...] | None = None
    client_id: str = ""
    client_host: str = ""


@dataclass(frozen=True)
class ShareHeartbeatResult:
    error: ErrorCode
    message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    assignment: Assignment | None = None  # None: unchanged, not sent


def _fail(error: ErrorCode, message: str) -> ShareHeartbeatResult:
    return ShareHeartbeatResult(error, message)


class ShareGroupCoordinator:
    def __init__(self, classic: GroupHost, consumer: OtherGroups, topics: TopicsView,
                 config: ShareGroupConfig = ShareGroupConfig(),
                 group_configs: GroupConfigs = NO_GROUP_CONFIGS) -> None:
        self.classic = classic
        self.consumer = consumer
        self.topics = topics
        self.config = config
        self.group_configs = group_configs  # a group's share.* configs over the broker's
        self.state: ShareStateChanger = NoShareState()  # the persister, set once the broker has made it
        self._topic_ids: set[uuid.UUID] | None = None  # the cluster's topics at the last metadata update
        self.groups: dict[str, ShareGroup] = {}
        self._session_timers = MemberTimers(classic.scheduler)
        # told (group id, member id) when a member leaves or is fenced: its share sessions end
        self.member_listeners: list[Callable[[str, str], None]] = []
        # group id -> its records as last written (key -> value), to write only what changed
        self._stored: dict[str, dict[bytes, bytes]] = {}
        classic.load_listeners.append(self.load_partition)
        classic.unload_listeners.append(self.unload_partition)
        consumer.share_groups = self.is_share_group
        inner_guard = classic.join_guard
        classic.join_guard = lambda group_id: self.join_guard(group_id) or inner_guard(group_id)

    def is_share_group(self, group_id: str) -> bool:
        return group_id in self.groups

    def _other_type(self, group_id: str) -> bool:
        return group_id in self.classic.groups or self.consumer.is_consumer_group(group_id)

    def load_partition(self, partition: int, loaded: LoadedPartition) -> None:
        """Rebuild the share groups of a partition the classic coordinator has just loaded,
        every member's session timer started afresh (Kafka's onLoaded)."""
        for group_id, records in loaded.share_groups.items():
            if self.classic.partition_for(group_id) != partition or not records:
                continue
            group = rebuild(group_id, records, self.classic.time.milliseconds())
            group.subscription_metadata = self._subscription_metadata(group)
            self.groups[group_id] = group
            self._stored[group_id] = dict(records)
            for member in group.members.values():
                self._schedule_session(group, member)
            log.info("[GroupCoordinator %d]: Loaded share group %s at epoch %d with %d members",
                     self.classic.broker_id, group_id, group.group_epoch, len(group.members))

    def _persist(self, group: ShareGroup, done: Callable[[ErrorCode], None]) -> None:
        """Write what changed in the group since its last write; `done` gets the error once
        the write is acknowledged, as Kafka answers a heartbeat only then."""
        records = changes(self._stored.setdefault(group.group_id, {}), group_records(group))
        if not records:
            done(ErrorCode.NONE)
            return
        self.classic.store.store_records(group.group_id, records, done)

    def _persist_in_background(self, group: ShareGroup) -> None:
        def written(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                log.warning("[GroupCoordinator %d]: Writing share group %s failed: %s", self.classic.broker_id,
                            group.group_id, error.name)
        self._persist(group, written)

    def unload_partition(self, partition: int) -> None:
        for group in [g for g in self.groups.values() if self.classic.partition_for(g.group_id) == partition]:
            self._drop(group)

    def _drop(self, group: ShareGroup) -> None:
        self._session_timers.cancel_group(group.group_id)
        group.state = ShareGroupState.DEAD
        self.groups.pop(group.group_id, None)
        self._stored.pop(group.group_id, None)

    # -- ShareGroupHeartbeat ------------------------------------------------------------------

    @staticmethod
    def _invalid(req: ShareHeartbeatRequest) -> str | None:
        """Kafka's throwIfShareGroupHeartbeatRequestIsInvalid (an empty string counts when blank)."""
        if not req.member_id.strip():
            return "MemberId can't be empty."
        if not req.group_id.strip():
            return "GroupId can't be empty."
        if req.rack_id is not None and not req.rack_id.strip():
            return "RackId can't be empty."
        if req.member_epoch == 0:
            if not req.subscribed_topic_names:
                return "SubscribedTopicNames must be set in first request."
        elif req.member_epoch < LEAVE_GROUP_MEMBER_EPOCH:
            return "MemberEpoch is invalid."
        return None

    def heartbeat(self, req: ShareHeartbeatRequest, done: Callable[[ShareHeartbeatResult], None]) -> None:
        """Handle a ShareGroupHeartbeat; `done` gets the answer once the group's changed
        records are written."""
        result = self._heartbeat(req)
        group = self.groups.get(req.group_id)
        if group is None or (group.is_new and not group.members):  # a failed first join: not written
            done(result)
            return

        joined = result.error == ErrorCode.NONE and req.member_epoch != LEAVE_GROUP_MEMBER_EPOCH
        to_initialize = self._topics_to_initialize(group) if joined else {}

        def written(error: ErrorCode) -> None:
            done(result if error == ErrorCode.NONE else _fail(error, f"Writing the group failed: {error.name}"))
            if error == ErrorCode.NONE and to_initialize:
                self._initialize(group, group.group_epoch, to_initialize)

        self._persist(group, written)

    def _heartbeat(self, req: ShareHeartbeatRequest) -> ShareHeartbeatResult:
        invalid = self._invalid(req)
        if invalid is not None:
            return _fail(ErrorCode.INVALID_REQUEST, invalid)
        error = self.classic.validate(req.group_id, "heartbeat")
        if error != ErrorCode.NONE:
            return _fail(error, error.name)
        if self._other_type(req.group_id):
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {req.group_id} is not a share group.")
        if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH:
            return self._leave(req)
        group = self.groups.get(req.group_id)
        if group is None:
            if req.member_epoch != 0:
                # A group this coordinator does not hold (lost with a failover or restart):
                # UNKNOWN_MEMBER_ID makes its members rejoin at epoch 0.
                return _fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Share group {req.group_id} not found: rejoin.")
            group = self.groups[req.group_id] = ShareGroup(req.group_id)
        member = group.members.get(req.member_id)
        if member is None:
            if req.member_epoch != 0:
                return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                             f"Member {req.member_id} is not a member of group {group.group_id}.")
            if len(group.members) >= self.config.max_size:
                return _fail(ErrorCode.GROUP_MAX_SIZE_REACHED,
                             f"The share group has reached its maximum capacity of {self.config.max_size} members.")
            member = ShareGroupMember(req.member_id)
            log.info("[GroupCoordinator %d]: Member %s joins share group %s", self.classic.broker_id,
                     req.member_id, group.group_id)
        elif req.member_epoch != 0:
            # Kafka's throwIfShareGroupMemberEpochIsInvalid
            fenced = fenced_epoch("share", req.member_epoch, member, member.previous_member_epoch)
            if fenced is not None:
                return _fail(ErrorCode.FENCED_MEMBER_EPOCH, fenced)
        return self._update(group, member, req)

    def _update(self, group: ShareGroup, member: ShareGroupMember, req: ShareHeartbeatRequest
                ) -> ShareHeartbeatResult:
        is_new = member.member_id not in group.members
        updated = replace(
            member, rack_id=req.rack_id if req.rack_id is not None else member.rack_id,
            subscribed_topic_names=(tuple(sorted(set(req.subscribed_topic_names)))
                                    if req.subscribed_topic_names is not None else member.subscribed_topic_names),
            client_id=req.client_id, client_host=req.client_host)
        bump = (is_new or updated.subscribed_topic_names != member.subscribed_topic_names
                or self._initialized_assignment_pending(group))
        group.update_member(updated)
        metadata = self._subscription_metadata(group)
        if metadata != group.subscription_metadata:
            group.subscription_metadata = metadata
            bump = True
        if bump:
            group.group_epoch += 1
            log.info("[GroupCoordinator %d]: Bumped epoch of share group %s to %d", self.classic.broker_id,
                     group.group_id, group.group_epoch)
        if group.group_epoch > group.assignment_epoch:
            self._compute_target(group)
        target = group.target.get(updated.member_id, {})
        reconciled = updated
        if updated.member_epoch != group.assignment_epoch or updated.assigned != target:
            reconciled = replace(updated, member_epoch=group.assignment_epoch,
                                 previous_member_epoch=updated.member_epoch, assigned=target)
        group.update_member(reconciled)
        self._schedule_session(group, reconciled)
        changed = req.member_epoch == 0 or reconciled.assigned != member.assigned or is_new
        return ShareHeartbeatResult(ErrorCode.NONE, None, reconciled.member_id, reconciled.member_epoch,
                                    self.group_configs.int_value(group.group_id, SHARE_HEARTBEAT_INTERVAL_MS,
                                                                 self.config.heartbeat_interval_ms),
                                    dict(reconciled.assigned) if changed else None)

    def _subscription_metadata(self, group: ShareGroup) -> dict[str, tuple[uuid.UUID, int]]:
        return subscription_metadata(self.topics, group.subscribed_topics())

    def _compute_target(self, group: ShareGroup) -> None:
        meta = group.subscription_metadata
        members = {mid: AssignmentMember(frozenset(meta[t][0] for t in m.subscribed_topic_names if t in meta),
                                         group.target.get(mid, {}))
                   for mid, m in group.members.items()}
        partitions: dict[TopicId, int] = dict(meta.values())
        group.target = assign_simple(members, partitions,
                                     {topic_id: t.partitions for topic_id, t in group.initialized.items()})
        group.assignment_epoch = group.group_epoch
        log.info("[GroupCoordinator %d]: Computed a new target assignment for epoch %d of share group %s "
                 "with the %s assignor", self.classic.broker_id, group.group_epoch, group.group_id, SIMPLE_ASSIGNOR)

    def _leave(self, req: ShareHeartbeatRequest) -> ShareHeartbeatResult:
        group = self.groups.get(req.group_id)
        if group is None:
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {req.group_id} not found.")
        if req.member_id not in group.members:
            return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                         f"Member {req.member_id} is not a member of group {req.group_id}.")
        self._fence(group, req.member_id, "left the share group")
        return ShareHeartbeatResult(ErrorCode.NONE, None, req.member_id, req.member_epoch)

    def _fence(self, group: ShareGroup, member_id: str, why: str) -> None:
        """Remove the member; the group moves to a new epoch, whose target assignment is
        computed at the next heartbeat (Kafka's shareGroupFenceMember)."""
        self._session_timers.cancel(group.group_id, member_id)
        group.remove_member(member_id)
        group.subscription_metadata = self._subscription_metadata(group)
        group.group_epoch += 1
        log.info("[GroupCoordinator %d]: Member %s of share group %s %s; group epoch is now %d",
                 self.classic.broker_id, member_id, group.group_id, why, group.group_epoch)
        for listener in self.member_listeners:
            listener(group.group_id, member_id)

    def _schedule_session(self, group: ShareGroup, member: ShareGroupMember) -> None:
        def expired() -> None:
            if self.groups.get(group.group_id) is group and member.member_id in group.members:
                self._fence(group, member.member_id, "failed to heartbeat within the session timeout")
                self._persist_in_background(group)

        self._session_timers.schedule(group.group_id, member.member_id, self.group_configs.int_value(
            group.group_id, SHARE_SESSION_TIMEOUT_MS, self.config.session_timeout_ms), expired)

    # -- the share state of the group's partitions ------------------------------------------------

    @staticmethod
    def _initialized_assignment_pending(group: ShareGroup) -> bool:
        """Whether partitions initialized since the target was computed are subscribed but
        unassigned (Kafka's initializedAssignmentPending): the group epoch moves for them."""
        if not group.members or not group.initialized:
            return False
        subscribed = group.subscribed_topics()
        assigned: dict[uuid.UUID, set[int]] = {}
        for target in group.target.values():
            for topic_id, partitions in target.items():
                assigned.setdefault(topic_id, set()).update(partitions)
        return any(t.name in subscribed and assigned.get(topic_id) != set(t.partitions)
                   for topic_id, t in group.initialized.items())

    def _topics_to_initialize(self, group: ShareGroup) -> dict[uuid.UUID, InitTopic]:
        """The subscribed partitions with no share state yet (Kafka's subscribedTopicsChangeMap:
        neither initialized nor asked less than group.share.initialize.retry.interval.ms ago),
        recorded as initializing in the group's ShareGroupStatePartitionMetadata."""
        now = self.classic.time.milliseconds()
        fresh = {topic_id: t for topic_id, t in group.initializing.items()
                 if now - t.since_ms < self.config.initialize_retry_interval_ms}
        out: dict[uuid.UUID, InitTopic] = {}
        for name in sorted(group.subscribed_topics()):
            found = group.subscription_metadata.get(name)
            if found is None:
                continue
            topic_id, count = found
            have = ((group.initialized[topic_id].partitions if topic_id in group.initialized else frozenset())
                    | (fresh[topic_id].partitions if topic_id in fresh else frozenset()))
            missing = frozenset(range(count)) - have
            if missing:
                out[topic_id] = InitTopic(name, missing, now)
        for topic_id, t in out.items():
            known = group.initializing.get(topic_id)
            group.initializing[topic_id] = t if known is None else InitTopic(t.name, known.partitions | t.partitions,
                                                                              now)
            group.deleting.pop(topic_id, None)
        return out

    def _initialize(self, group: ShareGroup, state_epoch: int, topics: dict[uuid.UUID, InitTopic]) -> None:
        """InitializeShareGroupState for `topics` at the share coordinators; once all answer,
        the partitions are initialized (or, on a failure, no longer initializing, to be asked
        again at a later heartbeat), as Kafka's GroupCoordinatorService.persisterInitialize."""
        _ask_each(_state_keys(group, topics), lambda key, answer: self.state.reset(key, state_epoch, -1, answer),
                  lambda failed: self._initialized(group, topics, failed))

    def _initialized(self, group: ShareGroup, topics: dict[uuid.UUID, InitTopic], failed: list[StateResult]) -> None:
        if self.groups.get(group.group_id) is not group:
            return
        for topic_id, t in topics.items():
            known = group.initializing.get(topic_id)
            if known is not None:
                rest = known.partitions - t.partitions
                if rest:
                    group.initializing[topic_id] = InitTopic(known.name, rest, known.since_ms)
                else:
                    del group.initializing[topic_id]
        if failed:
            log.warning("[GroupCoordinator %d]: Initializing the share state of group %s failed: %s %s",
                        self.classic.broker_id, group.group_id, failed[0].error.name, failed[0].message or "")
        else:  # a topic deleted meanwhile is not (its state is being deleted)
            existing = set(self.topics.topic_ids.values())
            self.mark_initialized(group, {topic_id: t for topic_id, t in topics.items() if topic_id in existing})
            log.info("[GroupCoordinator %d]: Initialized the share state of group %s for %s", self.classic.broker_id,
                     group.group_id, sorted(t.name for t in topics.values()))
        self._persist_in_background(group)

    @staticmethod
    def mark_initialized(group: ShareGroup, topics: Mapping[uuid.UUID, InitTopic]) -> None:
        """Add `topics`' partitions to the group's initialized ones."""
        for topic_id, t in topics.items():
            known = group.initialized.get(topic_id)
            group.initialized[topic_id] = InitTopic(t.name, t.partitions | (known.partitions if known else frozenset()))

    def uninitialized(self, group_id: str, topic_ids: Iterable[uuid.UUID]) -> None:
        """An admin deleted these topics' share state (DeleteShareGroupOffsets): the next
        heartbeat initializes them again."""
        group = self.groups.get(group_id)
        if group is None:
            return
        for topic_id in topic_ids:
            group.initialized.pop(topic_id, None)
            group.initializing.pop(topic_id, None)
        self._persist_in_background(group)

    def altered(self, group_id: str, topics: Mapping[uuid.UUID, InitTopic]) -> None:
        """An admin initialized these partitions' share state (AlterShareGroupOffsets)."""
        group = self.groups.get(group_id)
        if group is not None:
            self.mark_initialized(group, topics)
            self._persist_in_background(group)

    def delete_states(self, group_ids: Iterable[str], done: Callable[[dict[str, ErrorCode]], None]) -> None:
        """DeleteShareGroupState for every partition with share state of each deletable group
        (empty, of this kind, here), the topics recorded as deleting meanwhile (Kafka's
        sharePartitionDeleteRequests); `done` gets the groups whose deletion failed."""
        work: dict[str, list[StateKey]] = {}
        for group_id in group_ids:
            group = self.groups.get(group_id)
            if group is None or group.members or self.classic.validate(group_id, "delete") != ErrorCode.NONE:
                continue
            topics = group.state_topics()
            for topic_id, name in group.deleting.items():  # a deletion that failed before: asked again
                count = len(self.topics.topics.get(name) or {})
                topics.setdefault(topic_id, InitTopic(name, frozenset(range(count))))
            if not topics:
                continue
            group.deleting.update({topic_id: t.name for topic_id, t in topics.items()})
            group.initializing.clear()
            group.initialized.clear()
            self._persist_in_background(group)
            work[group_id] = [(group_id, topic_id, p) for topic_id, t in topics.items() for p in sorted(t.partitions)]
        errors: dict[str, ErrorCode] = {}
        left = [sum(len(keys) for keys in work.values())]
        if not left[0]:
            done(errors)
            return

        def answered(group_id: str, result: StateResult) -> None:
            if result.error != ErrorCode.NONE:
                errors.setdefault(group_id, result.error)
            left[0] -= 1
            if left[0] == 0:
                done(errors)

        for group_id, keys in work.items():
            for key in keys:
                self.state.delete(key, functools.partial(answered, group_id))

    def topics_changed(self) -> None:
        """After each metadata update: the share state of the topics deleted since the last
        one is deleted for every group here (Kafka's onPartitionsDeleted)."""
        current = set(self.topics.topic_ids.values())
        known, self._topic_ids = self._topic_ids, current
        if known is not None and known - current:
            self.topics_deleted(known - current)

    def topics_deleted(self, topic_ids: set[uuid.UUID]) -> None:
        """DeleteShareGroupState for the deleted topics' partitions of each group that has
        state of them."""
        for group in list(self.groups.values()):
            topics = {topic_id: t for topic_id, t in group.state_topics().items() if topic_id in topic_ids}
            if topics:
                self._delete_topics(group, topics)

    def _delete_topics(self, group: ShareGroup, topics: dict[uuid.UUID, InitTopic]) -> None:
        """The topics' share state deleted, recorded as deleting until the share coordinators answer."""
        for topic_id, t in topics.items():
            group.initialized.pop(topic_id, None)
            group.initializing.pop(topic_id, None)
            group.deleting[topic_id] = t.name
        self._persist_in_background(group)

        def deleted(failed: list[StateResult]) -> None:
            if not failed and self.groups.get(group.group_id) is group:
                for topic_id in topics:
                    group.deleting.pop(topic_id, None)
                self._persist_in_background(group)

        log.info("[GroupCoordinator %d]: Deleting the share state of group %s for deleted topics %s",
                 self.classic.broker_id, group.group_id, sorted(t.name for t in topics.values()))
        _ask_each(_state_keys(group, topics), self.state.delete, deleted)

    # -- admin ---------------------------------------------------------------------------------

    def describe(self, group_id: str) -> tuple[ErrorCode, str | None, ShareGroup | None]:
        return describe_group(self.classic, self.groups, group_id, "share", self._other_type)

    def list_groups(self, states: set[str]) -> list[ShareGroup]:
        return self.classic.listed(self.groups.values(), states)

    def delete_group(self, group_id: str) -> ErrorCode:
        return delete_group(self.classic, self.groups, group_id, self._delete)

    def _delete(self, group: ShareGroup) -> ErrorCode:
        outcome: list[ErrorCode] = []
        tombstones: list[tuple[bytes, bytes | None]] = [(key, None) for key in self._stored.get(group.group_id, {})]
        if tombstones:  # as the classic coordinator's deletions: acks=1, answered at once
            self.classic.store.store_records(group.group_id, tombstones, outcome.append, required_acks=1)
        error = outcome[0] if outcome else ErrorCode.NONE
        if error == ErrorCode.NONE:
            self._drop(group)
        return error

    def offsets_group(self, group_id: str, create: bool) -> tuple[ErrorCode, str | None, ShareGroup | None]:
        """The share group whose offsets an admin alters or deletes, which must be empty; an
        absent one is made (empty) if `create`, as Kafka's alterShareGroupOffsets does."""
        error, message, group = self.describe(group_id)
        if group is None and create and error == ErrorCode.GROUP_ID_NOT_FOUND and not self._other_type(group_id):
            group = self.groups[group_id] = ShareGroup(group_id)
            self._persist_in_background(group)
            return ErrorCode.NONE, None, group
        if group is None:
            return error, message, None
        if group.members:
            return ErrorCode.NON_EMPTY_GROUP, f"Share group {group_id} is not empty.", None
        return ErrorCode.NONE, None, group

    def join_guard(self, group_id: str) -> ErrorCode:
        """A classic JoinGroup for a share group's id (Kafka: the group is not a classic group)."""
        return ErrorCode.GROUP_ID_NOT_FOUND if group_id in self.groups else ErrorCode.NONE


def _state_keys(group: ShareGroup, topics: dict[uuid.UUID, InitTopic]) -> list[StateKey]:
    return [(group.group_id, topic_id, p) for topic_id, t in topics.items() for p in sorted(t.partitions)]


def _ask_each(keys: list[StateKey], ask: Callable[[StateKey, Callable[[StateResult], None]], None],
              done: Callable[[list[StateResult]], None]) -> None:
    """Ask the share coordinators about every key; `done` gets the failed answers once all are in."""
    failed: list[StateResult] = []
    left = [len(keys)]

    def answered(result: StateResult) -> None:
        if result.error != ErrorCode.NONE:
            failed.append(result)
        left[0] -= 1
        if left[0] == 0:
            done(failed)

    for key in keys:
        ask(key, answered)
