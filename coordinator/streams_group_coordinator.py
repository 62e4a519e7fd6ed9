"""StreamsGroupCoordinator: KIP-1071 streams groups (Kafka's GroupMetadataManager
streamsGroupHeartbeat and the streams-group parts of its offset and admin paths).

It lives beside the classic GroupCoordinator and the KIP-848 ConsumerGroupCoordinator and
shares their group ids, their __consumer_offsets partitions (it serves a group only where
the classic coordinator has loaded the partition) and the offsets store: a group id is a
classic, a consumer or a streams group, whichever its first member made it. It takes the
classic coordinator's offsets hook over, answering for streams groups and passing every
other group on to the consumer group coordinator.

Every change to a group is written to __consumer_offsets as Kafka 4.4's streams group
records (streams_group_records: group epoch, topology, member metadata, target assignment
epoch and tasks, current assignments; tombstones when a member leaves or the group goes)
before the heartbeat that made it is answered. Loading a partition rebuilds its groups from
them, with the topology configured against the topics as they are then and every member's
session timer restarted, so members carry on at their epochs with the new coordinator.
What Kafka keeps in memory only is lost as in Kafka: the members' task offsets, the
endpoint information epoch and a pending shutdown request.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from josefk.coordinator.group_config import (
    NO_GROUP_CONFIGS,
    STREAMS_HEARTBEAT_INTERVAL_MS,
    STREAMS_INITIAL_REBALANCE_DELAY_MS,
    STREAMS_NUM_STANDBY_REPLICAS,
    STREAMS_RACK_AWARE_ASSIGNMENT_TAGS,
    STREAMS_SESSION_TIMEOUT_MS,
    GroupConfigs,
)
from josefk.coordinator.group_coordinator import ConsumerGroupOffsets, GroupCoordinator
from josefk.coordinator.group_metadata import GroupMetadata, GroupState, OffsetAndMetadata
from josefk.coordinator.modern_group import (
    MemberTimers,
    TopicCounts,
    commit_offsets,
    delete_group,
    describe_group,
    expire_offsets,
    fenced_epoch,
    fetched_offsets,
    hand_to_classic,
    member_error,
)
from josefk.coordinator.offsets_store import LoadedPartition
from josefk.coordinator.streams_assignor import STICKY, AssignmentMember, assign
from josefk.coordinator.streams_group import (
    EMPTY,
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    MemberState,
    StreamsGroup,
    StreamsGroupMember,
    StreamsGroupState,
    Tasks,
    reconcile,
    task_list,
)
from josefk.coordinator.streams_group_records import StoredRecords, group_tombstones, write_changes
from josefk.coordinator.streams_topology import (
    ASSIGNMENT_DELAYED,
    SHUTDOWN_APPLICATION,
    STALE_TOPOLOGY,
    Status,
    TopicInfo,
    Topology,
    configure,
)
from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import ScheduledTask

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]


@dataclass(frozen=True)
class StreamsGroupConfig:
    """The group.streams.* broker configs (Kafka 4.4's names and defaults)."""

    session_timeout_ms: int = 45_000
    heartbeat_interval_ms: int = 5_000
    max_size: int = 2**31 - 1
    num_standby_replicas: int = 0
    initial_rebalance_delay_ms: int = 3_000  # a new group's first assignment waits this long for more members
    acceptable_recovery_lag: int = 10_000  # what the heartbeat tells the members; warm-ups are not assigned
    task_offset_interval_ms: int = 60_000


@dataclass(frozen=True)
class StreamsHeartbeatRequest:
    """A StreamsGroupHeartbeat's fields; None means "unchanged since the last heartbeat"."""

    group_id: str
    member_id: str
    member_epoch: int
    endpoint_information_epoch: int = 0
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    topology: Topology | None = None
    owned: Tasks | None = None
    process_id: str | None = None
    user_endpoint: tuple[str, int] | None = None
    client_tags: tuple[tuple[str, str], ...] | None = None
    task_offsets: tuple[tuple[str, int, int], ...] | None = None
    task_end_offsets: tuple[tuple[str, int, int], ...] | None = None
    shutdown_application: bool = False
    client_id: str = ""
    client_host: str = ""
    uses_regex: bool = False  # a subtopology names its source topics by regular expression


@dataclass(frozen=True)
class EndpointPartitions:
    endpoint: tuple[str, int]
    active: Mapping[str, tuple[int, ...]]  # topic -> partitions
    standby: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class StreamsHeartbeatResult:
    error: ErrorCode
    message: str | None = None
    member_id: str = ""
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    statuses: tuple[Status, ...] = ()
    assignment: Tasks | None = None  # None: unchanged, not sent
    endpoint_information_epoch: int = 0
    endpoints: tuple[EndpointPartitions, ...] | None = None  # None: unchanged, not sent
    to_create: tuple[TopicInfo, ...] = ()  # internal topics the broker should create


def _fail(error: ErrorCode, message: str) -> StreamsHeartbeatResult:
    return StreamsHeartbeatResult(error, message)


def _invalid_tasks(task_counts: Mapping[str, int], owned: Tasks) -> str | None:
    """Kafka's throwIfRequestContainsInvalidTasks: the tasks a member says it owns must be the topology's."""
    for tasks in (owned.active, owned.standby, owned.warmup):
        for subtopology, partitions in sorted(tasks.items()):
            if subtopology not in task_counts:
                return f"Subtopology {subtopology} does not exist in the topology."
            bad = [p for p in sorted(partitions) if not 0 <= p < task_counts[subtopology]]
            if bad:
                return (f"Task {bad[0]} for subtopology {subtopology} is invalid. Number of tasks for this "
                        f"subtopology: {task_counts[subtopology]}")
    return None


def _metadata(m: StreamsGroupMember) -> tuple[object, ...]:
    """What Kafka's StreamsGroupMemberMetadata record holds of a member."""
    return (m.rack_id, m.client_id, m.client_host, m.rebalance_timeout_ms, m.topology_epoch, m.process_id,
            m.user_endpoint, m.client_tags)


class StreamsGroupCoordinator:
    def __init__(self, classic: GroupCoordinator, topics: TopicCounts,
                 config: StreamsGroupConfig = StreamsGroupConfig(),
                 group_configs: GroupConfigs = NO_GROUP_CONFIGS) -> None:
        self.classic = classic
        self.topics = topics
        self.config = config
        self.group_configs = group_configs  # a group's streams.* configs over the broker's
        self.groups: dict[str, StreamsGroup] = {}
        self._session_timers = MemberTimers(classic.scheduler)
        self._rebalance_timers = MemberTimers(classic.scheduler)
        self._initial_delays: dict[str, ScheduledTask] = {}  # group id -> its initial rebalance delay
        # The classic coordinator's hooks: streams groups answered here, the rest passed on.
        self._next_offsets: ConsumerGroupOffsets | None = classic.consumer_groups
        self._next_join_guard = classic.join_guard
        classic.consumer_groups = self
        classic.join_guard = self._classic_join_guard
        classic.unload_listeners.append(self.unload_partition)
        classic.load_listeners.append(self.load_partition)
        self._stored: dict[str, StoredRecords] = {}  # group id -> its records as last written
        self.other_kinds: list[Callable[[str], bool]] = []  # is this id another kind of group (share)?

    def is_streams_group(self, group_id: str) -> bool:
        return group_id in self.groups

    def _other_kind(self, group_id: str) -> bool:
        """Whether the id is a group of another kind than classic or streams."""
        return ((self._next_offsets is not None and self._next_offsets.is_consumer_group(group_id))
                or any(is_other(group_id) for is_other in self.other_kinds))

    def _classic_join_guard(self, group_id: str) -> ErrorCode:
        """A classic JoinGroup for a streams group: refused while it has members, else the
        group becomes classic, offsets kept (Kafka's offline migration)."""
        group = self.groups.get(group_id)
        if group is None:
            return self._next_join_guard(group_id)
        if group.members:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        self._write_tombstones(group)
        self._drop(group)
        hand_to_classic(self.classic, group_id, group.offsets)
        return ErrorCode.NONE

    def _drop(self, group: StreamsGroup) -> None:
        for timers in (self._session_timers, self._rebalance_timers):
            timers.cancel_group(group.group_id)
        delay = self._initial_delays.pop(group.group_id, None)
        if delay is not None:
            delay.cancel()
        group.state = StreamsGroupState.DEAD
        group.book.transition_to(GroupState.DEAD)
        self.groups.pop(group.group_id, None)
        self._stored.pop(group.group_id, None)

    # -- the group's records -------------------------------------------------------------------

    def _persist(self, group: StreamsGroup, done: Callable[[ErrorCode], None]) -> None:
        """Write what changed in the group since its last write; `done` gets the error once
        the write is acknowledged (acks=-1), as Kafka answers a heartbeat only then. A group
        made by a request that then failed, still at its initial epoch, is not written."""
        stored = self._stored.get(group.group_id)
        if self.groups.get(group.group_id) is not group or (
                stored is None and group.is_new and not group.members):
            done(ErrorCode.NONE)
            return
        records = write_changes(group, self._stored.setdefault(group.group_id, StoredRecords()))
        self.classic.store.store_records(group.group_id, records, done)

    def _persist_after_timer(self, group: StreamsGroup) -> None:
        def written(error: ErrorCode) -> None:
            if error != ErrorCode.NONE:
                log.warning("[GroupCoordinator %d]: Writing streams group %s after a timer failed: %s",
                            self.classic.broker_id, group.group_id, error.name)
        self._persist(group, written)

    def _write_tombstones(self, group: StreamsGroup) -> ErrorCode:
        """Delete the group's streams records; like the classic coordinator's deletions,
        without waiting for replication (acks=1, answered at once)."""
        outcome: list[ErrorCode] = []
        self.classic.store.store_records(group.group_id, group_tombstones(
            group.group_id, self._stored.get(group.group_id)), outcome.append, required_acks=1)
        return outcome[0] if outcome else ErrorCode.NONE

    def load_partition(self, partition: int, loaded: LoadedPartition) -> None:
        """Rebuild the streams groups of a partition the classic coordinator has just
        loaded, each taking over the offsets the classic load put in an Empty classic group.
        The topology is configured against the topics as they are now; each member's session
        timer starts afresh (Kafka's onLoaded), as does the rebalance timer of a member that
        still has tasks to revoke. Members carry on at their epochs."""
        for group_id, stored in loaded.streams_groups.items():
            if self.classic.partition_for(group_id) != partition:
                continue
            group = StreamsGroup(group_id, self.classic.time)
            if group_id in self.classic.groups:  # its offsets, loaded as an Empty classic group
                group.book = self.classic.groups.pop(group_id)
            stored.rebuild(group)
            if group.topology is not None:
                group.metadata = self._partition_counts(group.topology)
                group.configured = configure(group.topology, group.metadata)
            group.update_state()
            self.groups[group_id] = group
            write_changes(group, self._stored.setdefault(group_id, StoredRecords()))  # what the log holds
            if self._topics_changed(group):
                group.group_epoch += 1  # the next heartbeat computes a new target assignment
                group.update_state()
                log.info("[GroupCoordinator %d]: The topics of streams group %s changed while it was not loaded; "
                         "its epoch is now %d", self.classic.broker_id, group_id, group.group_epoch)
                self._persist_after_timer(group)
            for member in group.members.values():
                self._schedule_session(group, member)
                if member.state == MemberState.UNREVOKED_TASKS:
                    self._schedule_rebalance(group, member)
            log.info("[GroupCoordinator %d]: Loaded streams group %s at epoch %d with %d members",
                     self.classic.broker_id, group_id, group.group_epoch, len(group.members))

    @staticmethod
    def _topics_changed(group: StreamsGroup) -> bool:
        """Whether the group's current target assignment, computed before the load, no
        longer matches its topics: the assignor gives every active task to some member, so
        the target of a group with members covers exactly the configured tasks. This stands
        in for Kafka's MetadataHash, which josefk does not keep."""
        if not group.members or group.group_epoch != group.assignment_epoch:
            return False
        configured = group.configured
        tasks = {(s, p) for s, n in configured.task_counts.items() for p in range(n)} \
            if configured is not None and configured.ready else set()
        return {t for target in group.target.values() for t in task_list(target.active)} != tasks

    def unload_partition(self, partition: int) -> None:
        for group in [g for g in self.groups.values() if self.classic.partition_for(g.group_id) == partition]:
            self._drop(group)

    def _group_for_heartbeat(self, group_id: str, create: bool) -> StreamsGroup | StreamsHeartbeatResult:
        group = self.groups.get(group_id)
        if group is not None:
            return group
        if self._other_kind(group_id):
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")
        classic = self.classic.groups.get(group_id)
        if classic is not None and (not classic.is_state(GroupState.EMPTY) or classic.pending_txn_offsets):
            return _fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")
        if not create:
            # Kafka answers GROUP_ID_NOT_FOUND; UNKNOWN_MEMBER_ID makes the members of a group
            # lost some other way (deleted, or written by a josefk that kept it in memory) rejoin.
            return _fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Streams group {group_id} not found: rejoin with epoch 0.")
        group = self.groups[group_id] = StreamsGroup(group_id, self.classic.time)
        if classic is not None:  # an Empty classic group is taken over, offsets and all
            del self.classic.groups[group_id]
            self.classic.store.write_tombstones(group_id, [], group=True)
            group.offsets = classic.offsets
        return group

    # -- StreamsGroupHeartbeat ----------------------------------------------------------------

    @staticmethod
    def _invalid(req: StreamsHeartbeatRequest) -> tuple[ErrorCode, str] | None:
        """Why the request is malformed (Kafka's throwIfStreamsGroupHeartbeatRequestIsInvalid)."""
        if req.uses_regex:
            return ErrorCode.INVALID_REQUEST, "Regular expressions for source topics are not supported yet."
        for value, name in ((req.member_id, "MemberId"), (req.group_id, "GroupId"),
                            (req.instance_id, "InstanceId"), (req.rack_id, "RackId")):
            if value is not None and not value.strip():
                return ErrorCode.INVALID_REQUEST, f"{name} can't be empty."
        if req.member_epoch == 0:
            if req.rebalance_timeout_ms == -1:
                return ErrorCode.INVALID_REQUEST, "RebalanceTimeoutMs must be provided in first request."
            if req.owned is not None:
                for tasks, name in ((req.owned.active, "ActiveTasks"), (req.owned.standby, "StandbyTasks"),
                                    (req.owned.warmup, "WarmupTasks")):
                    if tasks:
                        return ErrorCode.INVALID_REQUEST, f"{name} must be empty when (re-)joining."
            if req.topology is None:
                return ErrorCode.INVALID_REQUEST, "Topology must be non-null when (re-)joining."
            for s in req.topology.subtopologies:
                for t in s.state_changelog_topics:
                    if t.partitions != 0:
                        return ErrorCode.STREAMS_INVALID_TOPOLOGY, (
                            f"Changelog topic {t.name} must have an undefined partition count, "
                            f"but it is set to {t.partitions}.")
        elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            if req.instance_id is None:
                return ErrorCode.INVALID_REQUEST, "InstanceId can't be null."
        elif req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            return ErrorCode.INVALID_REQUEST, (
                f"MemberEpoch is {req.member_epoch}, but must be greater than or equal to -2.")
        if req.member_epoch != 0 and req.topology is not None:
            return ErrorCode.INVALID_REQUEST, "Topology can only be provided when (re-)joining."
        return None

    def heartbeat(self, req: StreamsHeartbeatRequest,
                  done: Callable[[StreamsHeartbeatResult], None] | None = None) -> StreamsHeartbeatResult:
        """Handle a StreamsGroupHeartbeat and write the group's changed records; `done`, if
        given, gets the answer once they are written (a failed write answers with Kafka's
        error for it). The answer is also returned at once, for callers on fake time."""
        result = self._heartbeat(req)
        group = self.groups.get(req.group_id)
        if group is None:
            if done is not None:
                done(result)
            return result

        def written(error: ErrorCode) -> None:
            if done is not None:
                done(result if error == ErrorCode.NONE else _fail(error, f"Writing the group failed: {error.name}"))

        self._persist(group, written)
        return result

    def _heartbeat(self, req: StreamsHeartbeatRequest) -> StreamsHeartbeatResult:
        invalid = self._invalid(req)
        if invalid is not None:
            return _fail(*invalid)
        error = self.classic.validate(req.group_id, "heartbeat")
        if error != ErrorCode.NONE:
            return StreamsHeartbeatResult(error)  # Kafka sends no message with a coordinator error
        if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            return self._leave(req)
        found = self._group_for_heartbeat(req.group_id, create=req.member_epoch == 0)
        if isinstance(found, StreamsHeartbeatResult):
            return found
        group = found
        existing = group.members.get(req.member_id)
        if req.member_epoch == 0:
            if existing is None and len(group.members) >= self.config.max_size:
                return _fail(ErrorCode.GROUP_MAX_SIZE_REACHED,
                             f"The streams group has reached its maximum capacity of {self.config.max_size} members.")
            member = existing or StreamsGroupMember(req.member_id)
        else:
            if existing is None:
                return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                             f"Member {req.member_id} is not a member of group {group.group_id}.")
            fenced = self._epoch_error(existing, req)
            if fenced is not None:
                return _fail(ErrorCode.FENCED_MEMBER_EPOCH, fenced)
            member = existing
        return self._update(group, member, req)

    @staticmethod
    def _epoch_error(member: StreamsGroupMember, req: StreamsHeartbeatRequest) -> str | None:
        """Kafka's throwIfStreamsGroupMemberEpochIsInvalid."""
        owned = req.owned
        return fenced_epoch("streams", req.member_epoch, member, member.previous_member_epoch, lambda: (
            owned is not None and not owned.overlaps(Tasks(
                {s: ps - member.assigned.active.get(s, frozenset()) for s, ps in owned.active.items()},
                {s: ps - member.assigned.standby.get(s, frozenset()) for s, ps in owned.standby.items()},
                {s: ps - member.assigned.warmup.get(s, frozenset()) for s, ps in owned.warmup.items()}))))

    def _partition_counts(self, topology: Topology) -> dict[str, int]:
        return {name: len(self.topics.topics[name]) for name in sorted(topology.topic_names())
                if self.topics.topics.get(name)}

    def _update(self, group: StreamsGroup, member: StreamsGroupMember,
                req: StreamsHeartbeatRequest) -> StreamsHeartbeatResult:
        """Kafka's streamsGroupHeartbeat: update the member, then the topology and its
        configuration, bump the group epoch if any changed, compute the target assignment
        of a new epoch, and reconcile the member one step towards it."""
        topology = group.topology
        if req.topology is not None and topology is not None and req.topology.epoch >= topology.epoch \
                and req.topology != topology:
            return _fail(ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
        topology = topology or req.topology
        assert topology is not None  # a join carries it
        counts = self._partition_counts(topology)
        configured = group.configured if group.configured is not None and counts == group.metadata \
            else configure(topology, counts)
        if configured.ready and req.owned is not None:
            invalid = _invalid_tasks(configured.task_counts, req.owned)
            if invalid is not None:
                return _fail(ErrorCode.INVALID_REQUEST, invalid)
        new_group = group.is_new
        updated = replace(
            member,
            process_id=req.process_id if req.process_id is not None else member.process_id,
            rack_id=req.rack_id if req.rack_id is not None else member.rack_id,
            rebalance_timeout_ms=(req.rebalance_timeout_ms if req.rebalance_timeout_ms != -1
                                  else member.rebalance_timeout_ms),
            topology_epoch=req.topology.epoch if req.topology is not None else member.topology_epoch,
            user_endpoint=req.user_endpoint if req.user_endpoint is not None else member.user_endpoint,
            client_tags=req.client_tags if req.client_tags is not None else member.client_tags,
            task_offsets=req.task_offsets if req.task_offsets is not None else member.task_offsets,
            task_end_offsets=req.task_end_offsets if req.task_end_offsets is not None else member.task_end_offsets,
            client_id=req.client_id, client_host=req.client_host)
        # A new member, or one whose metadata (as Kafka's StreamsGroupMemberMetadata record
        # holds it) changed, moves the group to a new epoch.
        bump = member.member_id not in group.members or _metadata(updated) != _metadata(member)
        if not group.members:
            self._start_initial_delay(group)
        group.update_member(updated)
        if group.topology is None:
            group.topology = topology
            log.info("[GroupCoordinator %d]: Member %s initialized the topology of streams group %s with epoch %d",
                     self.classic.broker_id, member.member_id, group.group_id, topology.epoch)
        statuses: list[Status] = []
        if updated.topology_epoch < topology.epoch:
            statuses.append(Status(STALE_TOPOLOGY, f"The member's topology epoch {updated.topology_epoch} "
                                   f"is behind the group's topology epoch {topology.epoch}."))
        if configured is not group.configured:
            group.metadata, group.configured = counts, configured
            bump = True
        assignment_configs = self._assignment_configs(group.group_id)
        if not bump and not group.is_new and assignment_configs != group.last_assignment_configs:
            log.info("[GroupCoordinator %d]: Assignment configurations of streams group %s changed to %s. Triggering "
                     "rebalance.", self.classic.broker_id, group.group_id, assignment_configs)
            bump = True
        if bump:
            group.group_epoch += 1
            group.last_assignment_configs = assignment_configs
            log.info("[GroupCoordinator %d]: Bumped epoch of streams group %s to %d", self.classic.broker_id,
                     group.group_id, group.group_epoch)
        target_epoch, target = group.assignment_epoch, group.target.get(updated.member_id, EMPTY)
        if group.group_epoch > group.assignment_epoch:
            if group.group_id in self._initial_delays:
                # Kafka 4.4: the first members reconcile towards nothing until the delay ends.
                target_epoch, target = group.assignment_epoch, EMPTY
                statuses.append(Status(ASSIGNMENT_DELAYED,
                                       "Assignment delayed due to the configured initial rebalance delay."))
            else:
                self._compute_target(group)
                target_epoch, target = group.assignment_epoch, group.target.get(updated.member_id, EMPTY)
        reconciled = reconcile(updated, target_epoch, target, group.owners, req.owned)
        group.update_member(reconciled)
        self._schedule_session(group, reconciled)
        if reconciled.state == MemberState.UNREVOKED_TASKS:
            if (member.state != MemberState.UNREVOKED_TASKS or member.member_epoch != reconciled.member_epoch
                    or (group.group_id, reconciled.member_id) not in self._rebalance_timers):
                self._schedule_rebalance(group, reconciled)
        else:
            self._rebalance_timers.cancel(group.group_id, reconciled.member_id)
        if req.shutdown_application:
            group.shutdown_requester = reconciled.member_id
        # The assignment goes out when the member joins or it changed; so does, with an
        # endpoint, a new endpoint information epoch.
        send = req.member_epoch == 0 or reconciled.assigned != member.assigned
        if send and reconciled.user_endpoint is not None:
            group.endpoint_epoch += 1
        configured = group.configured
        statuses.extend(configured.statuses)
        if group.shutdown_requester is not None:
            statuses.append(Status(SHUTDOWN_APPLICATION, f"Streams group member {group.shutdown_requester} "
                                   "encountered a fatal error and requested a shutdown for the entire application."))
        group.update_state()
        endpoints = self._endpoints(group, reconciled.member_id) \
            if req.endpoint_information_epoch != group.endpoint_epoch else None
        return StreamsHeartbeatResult(
            ErrorCode.NONE, None, reconciled.member_id, reconciled.member_epoch,
            self.group_configs.int_value(group.group_id, STREAMS_HEARTBEAT_INTERVAL_MS,
                                         self.config.heartbeat_interval_ms),
            tuple(statuses), reconciled.assigned if send else None, 0 if new_group else group.endpoint_epoch,
            endpoints, configured.to_create)

    def _endpoints(self, group: StreamsGroup, member_id: str) -> tuple[EndpointPartitions, ...]:
        """Every member's endpoint with the source partitions of its tasks (Kafka's
        EndpointToPartitionsManager), for Interactive Queries; the asking member's last."""
        inputs: dict[str, list[str]] = {}
        for s in group.topology.subtopologies if group.topology is not None else ():
            inputs[s.subtopology_id] = sorted([*s.source_topics, *(t.name for t in s.repartition_source_topics)])

        def partitions(tasks: Mapping[str, frozenset[int]]) -> dict[str, tuple[int, ...]]:
            out: dict[str, set[int]] = {}
            for sub, ps in tasks.items():
                for topic in inputs.get(sub, []):
                    out.setdefault(topic, set()).update(ps)
            return {t: tuple(sorted(ps)) for t, ps in sorted(out.items())}

        return tuple(EndpointPartitions(m.user_endpoint, partitions(m.assigned.active),
                                        partitions(m.assigned.merge(Tasks(standby=m.assigned.warmup)).standby))
                     for _, m in sorted(group.members.items(), key=lambda kv: (kv[0] == member_id, kv[0]))
                     if m.user_endpoint is not None)

    def _compute_target(self, group: StreamsGroup) -> None:
        configured = group.configured
        counts = configured.task_counts if configured is not None and configured.ready else {}
        members = {mid: AssignmentMember(m.process_id, group.target.get(mid, EMPTY))
                   for mid, m in group.members.items()}
        stateful = frozenset(s.subtopology_id for s in group.topology.subtopologies if s.state_changelog_topics) \
            if group.topology is not None else frozenset()
        group.target = assign(members, counts, int(self._assignment_configs(group.group_id)["num.standby.replicas"]),
                              stateful)
        group.assignment_epoch = group.group_epoch
        group.update_state()
        log.info("[GroupCoordinator %d]: Computed a new target assignment for epoch %d of streams group %s "
                 "with the %s assignor", self.classic.broker_id, group.group_epoch, group.group_id, STICKY)

    def _assignment_configs(self, group_id: str) -> dict[str, str]:
        """Kafka's streamsGroupAssignmentConfigs: the group's configs the assignor takes, whose
        change starts a new group epoch (josefk's assignor does not use the rack tags)."""
        configs = {"num.standby.replicas": str(self.group_configs.int_value(
            group_id, STREAMS_NUM_STANDBY_REPLICAS, self.config.num_standby_replicas))}
        tags = self.group_configs.str_value(group_id, STREAMS_RACK_AWARE_ASSIGNMENT_TAGS, "")
        if tags:
            configs["rack.aware.assignment.tags"] = ",".join(re.split(r"\s*,\s*", tags))
        return configs

    def _start_initial_delay(self, group: StreamsGroup) -> None:
        """A member joins the empty group: its first target assignment waits for
        group.streams.initial.rebalance.delay.ms, then covers every member that joined."""
        delay_ms = self.group_configs.int_value(group.group_id, STREAMS_INITIAL_REBALANCE_DELAY_MS,
                                                self.config.initial_rebalance_delay_ms)
        if delay_ms <= 0 or group.group_id in self._initial_delays:
            return

        def expired() -> None:
            self._initial_delays.pop(group.group_id, None)
            if self.groups.get(group.group_id) is group and group.members \
                    and group.group_epoch > group.assignment_epoch:
                self._compute_target(group)
                self._persist_after_timer(group)

        self._initial_delays[group.group_id] = self.classic.scheduler.schedule(delay_ms, expired)

    def _leave(self, req: StreamsHeartbeatRequest) -> StreamsHeartbeatResult:
        group = self.groups.get(req.group_id)
        member = group.members.get(req.member_id) if group is not None else None
        if group is None or member is None:
            return _fail(ErrorCode.UNKNOWN_MEMBER_ID,
                         f"Member {req.member_id} is not a member of group {req.group_id}.")
        self._fence(group, member.member_id, "left the group")
        return StreamsHeartbeatResult(ErrorCode.NONE, None, req.member_id, req.member_epoch)

    def _fence(self, group: StreamsGroup, member_id: str, why: str) -> None:
        """Remove the member; the group moves to a new epoch, whose target assignment is
        computed at the next heartbeat."""
        self._cancel_timers(group.group_id, member_id)
        group.remove_member(member_id)
        group.group_epoch += 1
        group.update_state()
        log.info("[GroupCoordinator %d]: Member %s of streams group %s %s; group epoch is now %d",
                 self.classic.broker_id, member_id, group.group_id, why, group.group_epoch)

    # -- timers ----------------------------------------------------------------------------

    def _cancel_timers(self, group_id: str, member_id: str) -> None:
        self._session_timers.cancel(group_id, member_id)
        self._rebalance_timers.cancel(group_id, member_id)

    def _schedule_session(self, group: StreamsGroup, member: StreamsGroupMember) -> None:
        def expired() -> None:
            if self.groups.get(group.group_id) is group and member.member_id in group.members:
                self._fence(group, member.member_id, "failed to heartbeat within the session timeout")
                self._persist_after_timer(group)

        self._session_timers.schedule(group.group_id, member.member_id, self.group_configs.int_value(
            group.group_id, STREAMS_SESSION_TIMEOUT_MS, self.config.session_timeout_ms), expired)

    def _schedule_rebalance(self, group: StreamsGroup, member: StreamsGroupMember) -> None:
        epoch = member.member_epoch

        def expired() -> None:
            current = group.members.get(member.member_id) if self.groups.get(group.group_id) is group else None
            if current is not None and current.state == MemberState.UNREVOKED_TASKS and current.member_epoch == epoch:
                self._fence(group, member.member_id, "failed to revoke tasks within the rebalance timeout")
                self._persist_after_timer(group)

        self._rebalance_timers.schedule(group.group_id, member.member_id, member.rebalance_timeout_ms, expired)

    # -- offsets (the classic coordinator's ConsumerGroupOffsets hook) -----------------------

    def is_consumer_group(self, group_id: str) -> bool:
        """Whether the hook answers for the group: a streams group, or the next hook's group."""
        return group_id in self.groups or (self._next_offsets is not None
                                           and self._next_offsets.is_consumer_group(group_id))

    def _next(self) -> ConsumerGroupOffsets:
        assert self._next_offsets is not None
        return self._next_offsets

    def _member_error(self, group: StreamsGroup, member_id: str | None, member_epoch: int,
                      partitions: Iterable[TopicPartition] | None = None) -> ErrorCode:
        """Kafka's StreamsGroup.validateOffsetCommit/Fetch: without a member epoch (admin
        tools) only an Empty group is open; a member names its current epoch, or, for a
        commit (`partitions`), an older one at or after which it got the active tasks of
        every partition (Kafka 4.4's per-task assignment epochs)."""
        if member_epoch < 0 and not group.members:
            return ErrorCode.NONE
        member = group.members.get(member_id or "")
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if member_epoch == member.member_epoch:
            return ErrorCode.NONE
        if member_epoch > member.member_epoch or partitions is None or group.topology is None:
            return ErrorCode.STALE_MEMBER_EPOCH
        subtopologies = {t: s.subtopology_id for s in group.topology.subtopologies
                         for t in (*s.source_topics, *(r.name for r in s.repartition_source_topics))}
        for topic, partition in partitions:
            subtopology = subtopologies.get(topic)
            epoch = None if subtopology is None else member.task_epoch((subtopology, partition))
            if epoch is None or member_epoch < epoch:
                return ErrorCode.STALE_MEMBER_EPOCH
        return ErrorCode.NONE

    def commit_offsets(self, group_id: str, member_id: str, member_epoch: int, api_version: int,
                       offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
        group = self.groups.get(group_id)
        if group is None:
            self._next().commit_offsets(group_id, member_id, member_epoch, api_version, offsets, callback)
            return
        error = self._member_error(group, member_id, member_epoch, offsets)
        if error == ErrorCode.NONE and member_epoch >= 0 and api_version < 9:
            error = ErrorCode.UNSUPPORTED_VERSION  # streams-protocol members commit with v9+
        commit_offsets(self.classic.store, self.classic.max_metadata_bytes, group_id, group.offsets, offsets,
                       lambda _: error, lambda: group.state == StreamsGroupState.DEAD, callback)

    def fetch_offsets(self, group_id: str, member_id: str | None, member_epoch: int,
                      partitions: list[TopicPartition] | None
                      ) -> tuple[ErrorCode, dict[TopicPartition, OffsetAndMetadata | None]]:
        group = self.groups.get(group_id)
        if group is None:
            return self._next().fetch_offsets(group_id, member_id, member_epoch, partitions)
        if member_id is not None or member_epoch >= 0:
            error = member_error(group.members, member_id, member_epoch)
            if error != ErrorCode.NONE:
                return error, {}
        return ErrorCode.NONE, fetched_offsets(group.offsets, partitions)

    def txn_member_error(self, group_id: str, member_id: str, generation_id: int,
                         partitions: Iterable[TopicPartition]) -> ErrorCode:
        group = self.groups.get(group_id)
        if group is None:
            return self._next().txn_member_error(group_id, member_id, generation_id, partitions)
        if not member_id and generation_id < 0:
            return ErrorCode.NONE
        return self._member_error(group, member_id, generation_id, partitions)

    def offsets_book(self, group_id: str) -> GroupMetadata:
        group = self.groups.get(group_id)
        return group.book if group is not None else self._next().offsets_book(group_id)

    def offsets_books(self) -> list[GroupMetadata]:
        others = self._next_offsets.offsets_books() if self._next_offsets is not None else []
        return [g.book for g in self.groups.values()] + others

    def cleanup(self, now: int) -> int:
        """Offset expiration: an Empty streams group's offsets expire
        offsets.retention.minutes after their commit; a group left with none is deleted."""
        removed = self._next_offsets.cleanup(now) if self._next_offsets is not None else 0
        for group in list(self.groups.values()):
            if self.classic.partition_for(group.group_id) not in self.classic.owned or group.members:
                continue
            expired, drop = expire_offsets(self.classic.store, group, now, self.classic.offsets_retention_ms,
                                           (), lambda: ErrorCode.NONE)  # no records of its own
            removed += expired
            if drop:
                self._write_tombstones(group)
                self._drop(group)
        return removed

    # -- admin -----------------------------------------------------------------------------

    def describe(self, group_id: str) -> tuple[ErrorCode, str | None, StreamsGroup | None]:
        return describe_group(self.classic, self.groups, group_id, "streams",
                              lambda other: other in self.classic.groups or self._other_kind(other))

    def list_groups(self, states: set[str]) -> list[StreamsGroup]:
        return self.classic.listed(self.groups.values(), states)

    def delete_group(self, group_id: str) -> ErrorCode:
        return delete_group(self.classic, self.groups, group_id, self._delete)

    def _delete(self, group: StreamsGroup) -> ErrorCode:
        error = self.classic.store.write_tombstones(group.group_id, list(group.offsets), group=True)
        if error == ErrorCode.NONE:
            error = self._write_tombstones(group)
        if error == ErrorCode.NONE:
            self._drop(group)
        return error
