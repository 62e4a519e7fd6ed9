"""GroupCoordinator: rebalances, heartbeats and committed offsets of classic consumer groups.

Modelled on Kafka's GroupCoordinator. Everything runs on the broker's one event loop, so
a group needs no lock: a JoinGroup that must wait for the other members parks its
response callback on the member and returns; the rebalance completes from a loop timer
(the join deadline, on the injected Scheduler) or as soon as the last member has rejoined. Session expiry is a
timer per member, re-armed by every heartbeat, never a scan.

A group belongs to the broker leading partition partition_for(group) of
__consumer_offsets; this coordinator serves the groups of the partitions it has loaded.
"""

from __future__ import annotations

import enum
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from josefk.coordinator.group_metadata import (
    CONSUMER_PROTOCOL_TYPE,
    NO_GENERATION,
    UNKNOWN_MEMBER_ID,
    GroupMetadata,
    GroupState,
    GroupSummary,
    JoinCallback,
    JoinResult,
    MemberMetadata,
    OffsetAndMetadata,
    SyncCallback,
    SyncResult,
)
from josefk.coordinator.offsets_store import OFFSETS_TOPIC, CoordinatorPartitions, LoadedPartition, OffsetsStore
from josefk.log.producer_state import SENTINEL, VerificationGuard
from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import LOOP_SCHEDULER, ScheduledTask, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000  # a new member must complete its first join within this
DEFAULT_OFFSET_METADATA_MAX_BYTES = 4096
DEFAULT_RETENTION_CHECK_INTERVAL_MS = 600_000
DEFAULT_GROUP_MAX_SIZE = 2**31 - 1
# TxnOffsetCommit from v6 (KIP-1319) answers GROUP_ID_NOT_FOUND and STALE_MEMBER_EPOCH where older
# versions answer ILLEGAL_GENERATION (TxnOffsetCommitRequest.supportsGroupIdNotFoundError).
TXN_OFFSET_COMMIT_V6_ERRORS_VERSION = 6
# TxnOffsetCommit v5 exists from Kafka 4 only, whose coordinator answers an unknown group named with
# a generation ILLEGAL_GENERATION; v0-4 keep Kafka 3.9's answer (the group is created).
TXN_OFFSET_COMMIT_KAFKA_4_VERSION = 5

TopicPartition = tuple[str, int]
GROUP_API_NEEDS_ID = {"join", "sync", "heartbeat", "leave", "offset_delete"}


class ConsumerGroupOffsets(Protocol):
    """The KIP-848 consumer groups' side of offset commits and fetches (member epochs)."""

    def is_consumer_group(self, group_id: str) -> bool: ...

    def commit_offsets(self, group_id: str, member_id: str, member_epoch: int, api_version: int,
                       offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None: ...

    def fetch_offsets(self, group_id: str, member_id: str | None, member_epoch: int,
                      partitions: list[TopicPartition] | None
                      ) -> tuple[ErrorCode, dict[TopicPartition, OffsetAndMetadata | None]]: ...

    def txn_member_error(self, group_id: str, member_id: str, generation_id: int,
                         partitions: Iterable[TopicPartition]) -> ErrorCode: ...

    def offsets_book(self, group_id: str) -> GroupMetadata:
        """The consumer group's offsets (committed and pending) as a classic group holds them."""
        ...

    def offsets_books(self) -> list[GroupMetadata]: ...

    def cleanup(self, now: int) -> int:
        """Expire offsets past retention and drop Empty groups left without any; how many expired."""
        ...


class ClassicMembersOfConsumerGroups(Protocol):
    """KIP-848 consumer groups whose members may speak the classic protocol (mixed
    groups): JoinGroup for a non-empty consumer group, and SyncGroup, Heartbeat and
    LeaveGroup for any consumer group, are served there (Kafka's classicGroup*ToConsumerGroup)."""

    def serves(self, group_id: str, joining: bool) -> bool: ...

    def classic_join(self, group_id: str, member_id: str, group_instance_id: str | None,
                     require_known_member_id: bool, joining: JoiningMember, callback: JoinCallback) -> None: ...

    def classic_sync(self, group_id: str, generation_id: int, member_id: str, protocol_type: str | None,
                     protocol_name: str | None, group_instance_id: str | None, callback: SyncCallback) -> None: ...

    def classic_heartbeat(self, group_id: str, member_id: str, group_instance_id: str | None,
                          generation_id: int) -> ErrorCode: ...

    def classic_leave(self, group_id: str, members: list[tuple[str, str | None]]
                      ) -> tuple[ErrorCode, list[ErrorCode]]: ...


class ListedGroup(Protocol):
    """A group of another kind (consumer, share, streams) kept on these partitions."""

    @property
    def group_id(self) -> str: ...

    @property
    def state(self) -> enum.Enum: ...


G = TypeVar("G", bound=ListedGroup)


@dataclass(frozen=True)
class JoiningMember:
    """What a JoinGroup says of its member: the MemberMetadata fields a join sets, carried
    together through the join paths (Kafka's handleJoinGroup arguments)."""

    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: list[tuple[str, bytes]]  # (name, metadata), most preferred first


class GroupCoordinator:
    def __init__(self, broker_id: int, partitions: CoordinatorPartitions, *, num_partitions: int,
                 min_session_timeout_ms: int, max_session_timeout_ms: int, initial_rebalance_delay_ms: int,
                 offsets_retention_ms: int, retention_check_interval_ms: int = DEFAULT_RETENTION_CHECK_INTERVAL_MS,
                 max_metadata_bytes: int = DEFAULT_OFFSET_METADATA_MAX_BYTES,
                 group_max_size: int = DEFAULT_GROUP_MAX_SIZE, commit_timeout_ms: int = 5000,
                 time: Time = SYSTEM_TIME, scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        """`partitions` are this broker's replicas of __consumer_offsets; `time` stamps commits
        and group states; `scheduler` runs every group timer (sessions, join and sync
        deadlines, offset expiry)."""
        self.broker_id = broker_id
        self.partitions = partitions
        self.time = time
        self.scheduler = scheduler
        self.store = OffsetsStore(partitions, num_partitions, time, commit_timeout_ms)
        self.min_session_timeout_ms = min_session_timeout_ms
        self.max_session_timeout_ms = max_session_timeout_ms
        self.initial_rebalance_delay_ms = initial_rebalance_delay_ms
        self.offsets_retention_ms = offsets_retention_ms
        self.retention_check_interval_ms = retention_check_interval_ms
        self.max_metadata_bytes = max_metadata_bytes
        self.group_max_size = group_max_size
        self.groups: dict[str, GroupMetadata] = {}
        self.owned: dict[int, int] = {}  # loaded __consumer_offsets partition -> leader epoch
        self.loading: set[int] = set()
        self.active = False
        self._heartbeat_timers: dict[tuple[str, str], ScheduledTask] = {}
        self._pending_timers: dict[tuple[str, str], ScheduledTask] = {}
        self._join_timers: dict[str, tuple[ScheduledTask, bool]] = {}  # group -> (timer, initial delay?)
        self._sync_timers: dict[str, ScheduledTask] = {}
        self._cleanup_timer: ScheduledTask | None = None
        # KIP-848 consumer groups share the group ids and partitions: they hear of loads
        # (taking their groups, offsets and all) and unloads, and may refuse (or give up to
        # a classic group) a JoinGroup for one of theirs.
        self.load_listeners: list[Callable[[int, LoadedPartition], None]] = []
        self.unload_listeners: list[Callable[[int], None]] = []
        self.join_guard: Callable[[str], ErrorCode] = lambda group_id: ErrorCode.NONE
        self.consumer_groups: ConsumerGroupOffsets | None = None  # their offsets go there
        self.classic_members: ClassicMembersOfConsumerGroups | None = None  # their classic members go there

    # -- lifecycle ---------------------------------------------------------------------------

    def startup(self) -> None:
        self.active = True
        self._cleanup_timer = self._later(self.retention_check_interval_ms, self._cleanup_expired)
        log.info("[GroupCoordinator %d]: Startup complete.", self.broker_id)

    def shutdown(self) -> None:
        """Stop timers and answer parked requests; the state itself is already in the log."""
        self.active = False
        for p in list(self.owned) + list(self.loading):
            self.unload_partition(p)
        if self._cleanup_timer is not None:
            self._cleanup_timer.cancel()
        log.info("[GroupCoordinator %d]: Shutdown complete.", self.broker_id)

    def _later(self, delay_ms: int, fn: Callable[..., None], *args: object) -> ScheduledTask:
        return self.scheduler.schedule(delay_ms, fn, *args)

    # -- partition ownership and loading -----------------------------------------------------

    def partition_for(self, group_id: str) -> int:
        return self.store.partition_for(group_id)

    def listed(self, groups: Iterable[G], states: set[str]) -> list[G]:
        """ListGroups for the other kinds of group: those on partitions this coordinator owns,
        in any of `states` (any case; none given: all)."""
        wanted = {s.lower() for s in states}
        return [g for g in groups if self.partition_for(g.group_id) in self.owned
                and (not wanted or g.state.value.lower() in wanted)]

    def on_leadership_change(self) -> None:
        """Load newly led __consumer_offsets partitions, unload those no longer led."""
        led = self.partitions.led_partitions(OFFSETS_TOPIC)
        for p in led:
            if p not in self.owned and p not in self.loading:
                self.load_partition(p)
        for p in list(self.owned) + list(self.loading):
            epoch = led.get(p)
            if epoch is None:
                self.unload_partition(p)
            elif p in self.owned and epoch != self.owned[p]:
                # Leadership moved away and back: the log may hold writes we did not make.
                self.unload_partition(p)
                self.load_partition(p)

    def _status(self, group_id: str) -> ErrorCode:
        """Whether this broker can serve the group now (validateGroupStatus, minus the id check)."""
        if not self.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        p = self.partition_for(group_id)
        if p in self.loading:
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        if self.partitions.leader_epoch((OFFSETS_TOPIC, p)) is None:
            if p in self.owned:
                self.unload_partition(p)
            return ErrorCode.NOT_COORDINATOR
        if p not in self.owned:
            self.load_partition(p)
            return ErrorCode.NONE if p in self.owned else ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        return ErrorCode.NONE

    def validate(self, group_id: str | None, api: str) -> ErrorCode:
        if group_id is None or (api in GROUP_API_NEEDS_ID and not group_id):
            return ErrorCode.INVALID_GROUP_ID
        return self._status(group_id)

    def load_partition(self, partition: int) -> None:
        """Replay the partition's log; the first chunk now, the rest from loop callbacks. The
        partition is owned at the epoch it was led at when loading began (Kafka's
        coordinatorEpoch): a later epoch reloads it."""
        epoch = self.partitions.leader_epoch((OFFSETS_TOPIC, partition))
        if epoch is None:
            return
        log.info("[GroupMetadataManager brokerId=%d] Scheduling loading of offsets and group metadata "
                 "from %s-%d for epoch %d", self.broker_id, OFFSETS_TOPIC, partition, epoch)
        self.loading.add(partition)
        started = self.time.hi_res_clock_ms()
        chunks = self.store.read_chunks(partition)
        loaded = LoadedPartition(self.time)

        def step() -> None:
            if partition not in self.loading:
                return  # unloaded meanwhile
            for _ in range(2):  # a small log loads synchronously; a big one a chunk per loop turn
                try:
                    records = next(chunks)
                except StopIteration:
                    self._finish_load(partition, epoch, loaded, started)
                    return
                except Exception:
                    log.exception("Loading %s-%d failed", OFFSETS_TOPIC, partition)
                    self.loading.discard(partition)
                    return
                self.store.replay(loaded, records, partition)
            self.scheduler.call_soon(step)

        step()

    def _finish_load(self, partition: int, epoch: int, loaded: LoadedPartition, started: int) -> None:
        self.loading.discard(partition)
        self.owned[partition] = epoch
        for group_id, offsets in loaded.offsets.items():
            if not offsets and group_id not in loaded.groups:
                continue  # every offset deleted: nothing left of the group
            if group_id not in loaded.groups:
                loaded.groups[group_id] = GroupMetadata(group_id, GroupState.EMPTY, self.time)
            loaded.groups[group_id].offsets = offsets
        for producer_id, by_group in loaded.pending_txn.items():
            for group_id, offsets in by_group.items():
                if group_id not in loaded.groups:
                    loaded.groups[group_id] = GroupMetadata(group_id, GroupState.EMPTY, self.time)
                loaded.groups[group_id].pending_txn_offsets[producer_id] = offsets
        for group_id, group in loaded.groups.items():
            if self.partition_for(group_id) != partition:
                continue
            self.groups[group_id] = group
            for member in group.members.values():
                self._schedule_heartbeat(group, member)
        for listener in self.load_listeners:
            listener(partition, loaded)
        log.info("[GroupMetadataManager brokerId=%d] Finished loading offsets and group metadata from "
                 "%s-%d in %d milliseconds (%d groups)", self.broker_id, OFFSETS_TOPIC, partition,
                 self.time.hi_res_clock_ms() - started, len(loaded.groups))

    def unload_partition(self, partition: int) -> None:
        """This broker no longer leads the partition: drop its groups, answer parked requests."""
        self.loading.discard(partition)
        self.owned.pop(partition, None)
        for group_id in [g for g in self.groups if self.partition_for(g) == partition]:
            group = self.groups.pop(group_id)
            for member in list(group.members.values()):
                group.invoke_join_callback(member, JoinResult(ErrorCode.NOT_COORDINATOR, member.member_id))
                group.invoke_sync_callback(member, SyncResult(ErrorCode.NOT_COORDINATOR))
            self._cancel_group_timers(group)
            group.transition_to(GroupState.DEAD)
        for listener in self.unload_listeners:
            listener(partition)
        log.info("[GroupMetadataManager brokerId=%d] Unloaded groups of %s-%d", self.broker_id, OFFSETS_TOPIC,
                 partition)

    # -- groups converted to or from KIP-848 consumer groups (mixed groups) -------------------

    def give_up(self, group: GroupMetadata) -> None:
        """The group becomes a consumer group (online upgrade): members parked in JoinGroup or
        SyncGroup are told to rejoin (REBALANCE_IN_PROGRESS), its timers stop, it is dropped."""
        for member in list(group.members.values()):
            group.invoke_join_callback(member, JoinResult(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
            group.invoke_sync_callback(member, SyncResult(ErrorCode.REBALANCE_IN_PROGRESS))
        self._cancel_group_timers(group)
        group.transition_to(GroupState.DEAD)
        self.groups.pop(group.group_id, None)

    def adopt(self, group: GroupMetadata, reason: str | None) -> None:
        """A consumer group came back as this Stable classic group (online downgrade): its
        members' sessions start and, given a reason, it rebalances, so they rejoin on the
        classic protocol."""
        self.groups[group.group_id] = group
        for member in group.members.values():
            self._schedule_heartbeat(group, member)
        if reason is not None:
            self._prepare_rebalance(group, reason)

    # -- timers --------------------------------------------------------------------------

    def _cancel_group_timers(self, group: GroupMetadata) -> None:
        for timers in (self._heartbeat_timers, self._pending_timers):
            for key in [k for k in timers if k[0] == group.group_id]:
                timers.pop(key).cancel()
        join = self._join_timers.pop(group.group_id, None)
        if join is not None:
            join[0].cancel()
        sync = self._sync_timers.pop(group.group_id, None)
        if sync is not None:
            sync.cancel()

    def _schedule_heartbeat(self, group: GroupMetadata, member: MemberMetadata, timeout_ms: int | None = None) -> None:
        """completeAndScheduleNextHeartbeatExpiration: the member has until now + timeout."""
        key = (group.group_id, member.member_id)
        old = self._heartbeat_timers.pop(key, None)
        if old is not None:
            old.cancel()
        timeout = member.session_timeout_ms if timeout_ms is None else timeout_ms
        self._heartbeat_timers[key] = self._later(timeout, self._on_heartbeat_expired, group, member.member_id)

    def _cancel_heartbeat(self, group: GroupMetadata, member_id: str) -> None:
        old = self._heartbeat_timers.pop((group.group_id, member_id), None)
        if old is not None:
            old.cancel()

    def _on_heartbeat_expired(self, group: GroupMetadata, member_id: str) -> None:
        self._heartbeat_timers.pop((group.group_id, member_id), None)
        if self.groups.get(group.group_id) is not group or not group.has(member_id):
            return
        member = group.get(member_id)
        # Members parked in a rebalance count as alive, except new ones that never completed a join.
        if not member.is_new and (member.awaiting_join is not None or member.awaiting_sync is not None):
            return
        log.info("[GroupCoordinator %d]: Member %s in group %s has failed, removing it from the group",
                 self.broker_id, member_id, group.group_id)
        self._remove_member_and_update_group(group, member, f"removing member {member_id} on heartbeat expiration")

    def _add_pending_member_expiration(self, group: GroupMetadata, member_id: str, timeout_ms: int) -> None:
        key = (group.group_id, member_id)
        old = self._pending_timers.pop(key, None)
        if old is not None:
            old.cancel()

        def expire() -> None:
            self._pending_timers.pop(key, None)
            if group.is_state(GroupState.DEAD) or member_id not in group.pending_members:
                return
            log.info("[GroupCoordinator %d]: Pending member %s in group %s has been removed after session "
                     "timeout expiration.", self.broker_id, member_id, group.group_id)
            self._remove_pending_member_and_update_group(group, member_id)

        self._pending_timers[key] = self._later(timeout_ms, expire)

    # -- JoinGroup ---------------------------------------------------------------------------

    def join_group(self, group_id: str, member_id: str, group_instance_id: str | None, require_known_member_id: bool,
                   support_skipping_assignment: bool, client_id: str, client_host: str, rebalance_timeout_ms: int,
                   session_timeout_ms: int, protocol_type: str, protocols: list[tuple[str, bytes]],
                   callback: JoinCallback, reason: str | None = None) -> None:
        error = self.validate(group_id, "join")
        timeouts = (self.min_session_timeout_ms, self.max_session_timeout_ms)
        if error == ErrorCode.NONE and not timeouts[0] <= session_timeout_ms <= timeouts[1]:
            error = ErrorCode.INVALID_SESSION_TIMEOUT
        if error != ErrorCode.NONE:
            callback(JoinResult(error, member_id))
            return
        if self.classic_members is not None and self.classic_members.serves(group_id, joining=True):
            self.classic_members.classic_join(group_id, member_id, group_instance_id, require_known_member_id,
                                              JoiningMember(client_id, client_host, rebalance_timeout_ms,
                                                            session_timeout_ms, protocol_type, protocols), callback)
            return
        error = self.join_guard(group_id)
        if error != ErrorCode.NONE:
            callback(JoinResult(error, member_id))
            return
        is_unknown = member_id == UNKNOWN_MEMBER_ID
        group = self.groups.get(group_id)
        if group is None:
            if not is_unknown:
                callback(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id))
                return
            group = self.groups[group_id] = GroupMetadata(group_id, GroupState.EMPTY, self.time)
        if not group.has(member_id) and len(group.members) >= self.group_max_size:
            callback(JoinResult(ErrorCode.GROUP_MAX_SIZE_REACHED, member_id))
            return
        names = [name for name, _ in protocols]
        if not group.is_state(GroupState.EMPTY) and (
                group.protocol_type != protocol_type or not group.supports_protocols(protocol_type, names)):
            callback(JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id))
            return
        if group.is_state(GroupState.EMPTY) and (not protocols or not protocol_type):
            callback(JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id))
            return
        joining = JoiningMember(client_id, client_host, rebalance_timeout_ms, session_timeout_ms, protocol_type,
                             protocols)
        if is_unknown:
            self._unknown_member_join(group, group_instance_id, require_known_member_id, support_skipping_assignment,
                                      joining, callback, reason)
        else:
            self._current_member_join(group, member_id, group_instance_id, joining, callback, reason)
        self._try_complete_join(group)

    def _unknown_member_join(self, group: GroupMetadata, group_instance_id: str | None, require_known_member_id: bool,
                             support_skipping_assignment: bool, joining: JoiningMember, callback: JoinCallback,
                             reason: str | None) -> None:
        if group.is_state(GroupState.DEAD):
            callback(JoinResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, UNKNOWN_MEMBER_ID))
            return
        new_member_id = f"{joining.client_id}-{uuid.uuid4()}"
        if group_instance_id is not None:
            existing = group.static_member_id(group_instance_id)
            if existing is None:
                self._add_member_and_rebalance(group, new_member_id, group_instance_id, joining, callback,
                                               reason or f"static member {group_instance_id} joined")
            else:
                self._update_static_member_and_rebalance(group, existing, new_member_id, group_instance_id, joining,
                                                         callback, support_skipping_assignment)
        elif require_known_member_id:
            # KIP-394: hand out the id first so a retried join cannot leave a phantom member behind.
            group.pending_members.add(new_member_id)
            self._add_pending_member_expiration(group, new_member_id, joining.session_timeout_ms)
            callback(JoinResult(ErrorCode.MEMBER_ID_REQUIRED, new_member_id))
        else:
            self._add_member_and_rebalance(group, new_member_id, None, joining, callback,
                                           reason or f"new member {new_member_id} joined")

    def _current_member_join(self, group: GroupMetadata, member_id: str, group_instance_id: str | None,
                             joining: JoiningMember, callback: JoinCallback, reason: str | None) -> None:
        if group.is_state(GroupState.DEAD):
            callback(JoinResult(ErrorCode.COORDINATOR_NOT_AVAILABLE, member_id))
            return
        if member_id in group.pending_members:
            if group_instance_id is not None:
                callback(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id))
                return
            timer = self._pending_timers.pop((group.group_id, member_id), None)
            if timer is not None:
                timer.cancel()
            self._add_member_and_rebalance(group, member_id, None, joining, callback,
                                           reason or f"pending member {member_id} joined")
            return
        if group.is_static_member_fenced(group_instance_id, member_id):
            callback(JoinResult(ErrorCode.FENCED_INSTANCE_ID, member_id))
            return
        if not group.has(member_id) or (group_instance_id is not None
                                        and group.static_member_id(group_instance_id) is None):
            callback(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id))
            return
        member = group.get(member_id)
        why = reason or f"member {member_id} rejoined"
        if group.is_state(GroupState.PREPARING_REBALANCE):
            self._update_member_and_rebalance(group, member, joining, callback, why)
        elif group.is_state(GroupState.COMPLETING_REBALANCE):
            if member.matches(joining.protocols):
                # The member missed the JoinGroup response: send it again for this generation.
                callback(self._join_result(group, member.member_id))
            else:
                self._update_member_and_rebalance(group, member, joining, callback, why)
        elif group.is_state(GroupState.STABLE):
            if group.is_leader(member_id) or not member.matches(joining.protocols):
                # The leader rejoining means it wants a new assignment (e.g. metadata changed).
                self._update_member_and_rebalance(group, member, joining, callback, why)
            else:
                callback(JoinResult(ErrorCode.NONE, member_id, group.generation_id, group.protocol_type,
                                    group.protocol_name, group.leader_id or ""))
        else:
            callback(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id))

    def _join_result(self, group: GroupMetadata, member_id: str) -> JoinResult:
        return JoinResult(ErrorCode.NONE, member_id, group.generation_id, group.protocol_type, group.protocol_name,
                          group.leader_id or "",
                          group.current_member_metadata() if group.is_leader(member_id) else [])

    def _add_member_and_rebalance(self, group: GroupMetadata, member_id: str, group_instance_id: str | None,
                                  joining: JoiningMember, callback: JoinCallback, reason: str) -> None:
        member = MemberMetadata(member_id, group_instance_id, joining.client_id, joining.client_host,
                                joining.rebalance_timeout_ms, joining.session_timeout_ms, joining.protocol_type,
                                list(joining.protocols))
        member.is_new = True
        if group.is_state(GroupState.PREPARING_REBALANCE) and group.generation_id == 0:
            group.new_member_added = True
        group.add(member, callback)
        # A new member that never completes its first join is dropped after this long.
        self._schedule_heartbeat(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS)
        self._maybe_prepare_rebalance(group, reason)

    def _update_member_and_rebalance(self, group: GroupMetadata, member: MemberMetadata, joining: JoiningMember,
                                     callback: JoinCallback, reason: str) -> None:
        group.update_member(member, list(joining.protocols), joining.rebalance_timeout_ms, joining.session_timeout_ms,
                            callback)
        self._maybe_prepare_rebalance(group, reason)

    def _update_static_member_and_rebalance(self, group: GroupMetadata, old_member_id: str, new_member_id: str,
                                            group_instance_id: str, joining: JoiningMember, callback: JoinCallback,
                                            support_skipping_assignment: bool) -> None:
        """A known group.instance.id rejoined with a fresh member id (KIP-345): no rebalance
        when nothing changed, the old id is fenced."""
        current_leader = group.leader_id or ""
        self._cancel_heartbeat(group, old_member_id)
        member = group.replace_static_member(group_instance_id, old_member_id, new_member_id)
        old_protocols = member.supported_protocols
        old_rebalance, old_session = member.rebalance_timeout_ms, member.session_timeout_ms
        group.update_member(member, list(joining.protocols), joining.rebalance_timeout_ms, joining.session_timeout_ms,
                            callback)
        self._schedule_heartbeat(group, member)
        if group.is_state(GroupState.STABLE):
            if group.protocol_name == group.select_protocol():
                assignment = {m.member_id: m.assignment for m in group.members.values()}

                def stored(error: ErrorCode) -> None:
                    if error != ErrorCode.NONE:
                        # Could not persist the new member id: put the old member back.
                        group.update_member(member, old_protocols, old_rebalance, old_session, None)
                        self._cancel_heartbeat(group, new_member_id)
                        group.replace_static_member(group_instance_id, new_member_id, old_member_id)
                        self._schedule_heartbeat(group, member)
                        callback(JoinResult(error, UNKNOWN_MEMBER_ID, group.generation_id, group.protocol_type,
                                            group.protocol_name, current_leader))
                        return
                    if support_skipping_assignment:
                        is_leader = group.is_leader(new_member_id)
                        result = JoinResult(ErrorCode.NONE, new_member_id, group.generation_id, group.protocol_type,
                                            group.protocol_name, group.leader_id or "",
                                            group.current_member_metadata() if is_leader else [], is_leader)
                    else:
                        # The old leader id stops a replaced leader from running a pointless assignment.
                        result = JoinResult(ErrorCode.NONE, new_member_id, group.generation_id, group.protocol_type,
                                            group.protocol_name, current_leader)
                    group.invoke_join_callback(member, result)

                self.store.store_group(group, assignment, stored)
            else:
                self._maybe_prepare_rebalance(group, f"static member {group_instance_id} changed its protocols")
        elif group.is_state(GroupState.COMPLETING_REBALANCE):
            # The leader may already be assigning with the old id: start over.
            self._prepare_rebalance(group, f"updating metadata for static member {group_instance_id}")
        # PreparingRebalance: the member waits for the join to complete like everyone else.

    # -- rebalance -----------------------------------------------------------------------

    def _maybe_prepare_rebalance(self, group: GroupMetadata, reason: str) -> None:
        if group.can_rebalance():
            self._prepare_rebalance(group, reason)

    def _prepare_rebalance(self, group: GroupMetadata, reason: str) -> None:
        if group.is_state(GroupState.COMPLETING_REBALANCE):
            self._reset_and_propagate_assignment_error(group, ErrorCode.REBALANCE_IN_PROGRESS)
        sync = self._sync_timers.pop(group.group_id, None)
        if sync is not None:
            sync.cancel()
        initial = group.is_state(GroupState.EMPTY)
        group.transition_to(GroupState.PREPARING_REBALANCE)
        log.info("[GroupCoordinator %d]: Preparing to rebalance group %s in state PreparingRebalance with old "
                 "generation %d (%s-%d) (reason: %s)", self.broker_id, group.group_id, group.generation_id,
                 OFFSETS_TOPIC, self.partition_for(group.group_id), reason)
        old = self._join_timers.pop(group.group_id, None)
        if old is not None:
            old[0].cancel()
        if initial:
            delay = self.initial_rebalance_delay_ms
            remaining = max(group.rebalance_timeout_ms() - delay, 0)
            self._join_timers[group.group_id] = (self._later(delay, self._on_initial_join_timer, group, remaining),
                                                 True)
        else:
            self._join_timers[group.group_id] = (
                self._later(group.rebalance_timeout_ms(), self._on_join_deadline, group), False)
            self._try_complete_join(group)

    def _on_initial_join_timer(self, group: GroupMetadata, remaining_ms: int) -> None:
        """InitialDelayedJoin: while new members keep arriving, wait another delay (bounded)."""
        self._join_timers.pop(group.group_id, None)
        if group.new_member_added and remaining_ms != 0:
            group.new_member_added = False
            delay = min(self.initial_rebalance_delay_ms, remaining_ms)
            remaining = max(remaining_ms - self.initial_rebalance_delay_ms, 0)
            self._join_timers[group.group_id] = (self._later(delay, self._on_initial_join_timer, group, remaining),
                                                 True)
        else:
            self._complete_join(group)

    def _on_join_deadline(self, group: GroupMetadata) -> None:
        self._join_timers.pop(group.group_id, None)
        self._complete_join(group)

    def _try_complete_join(self, group: GroupMetadata) -> None:
        """DelayedJoin.tryComplete: finish early once every member has rejoined."""
        timer = self._join_timers.get(group.group_id)
        if timer is None or timer[1] or not group.is_state(GroupState.PREPARING_REBALANCE):
            return
        if group.has_all_members_joined():
            self._join_timers.pop(group.group_id)[0].cancel()
            self._complete_join(group)

    def _complete_join(self, group: GroupMetadata) -> None:
        """onCompleteJoin: drop dynamic members that did not rejoin, start the next generation."""
        if group.is_state(GroupState.DEAD) or self.groups.get(group.group_id) is not group:
            return
        if not group.is_state(GroupState.PREPARING_REBALANCE):
            return
        for member in group.not_yet_rejoined():
            if not member.is_static:
                log.info("[GroupCoordinator %d]: Member %s in group %s has not rejoined; removing it",
                         self.broker_id, member.member_id, group.group_id)
                self._cancel_heartbeat(group, member.member_id)
                group.remove(member.member_id)
        if not group.maybe_elect_new_joined_leader() and group.members:
            log.error("[GroupCoordinator %d]: Group %s could not complete rebalance because no members rejoined",
                      self.broker_id, group.group_id)
            self._join_timers[group.group_id] = (
                self._later(group.rebalance_timeout_ms(), self._on_join_deadline, group), False)
            return
        group.init_next_generation()
        if group.is_state(GroupState.EMPTY):
            log.info("[GroupCoordinator %d]: Group %s with generation %d is now empty (%s-%d)", self.broker_id,
                     group.group_id, group.generation_id, OFFSETS_TOPIC, self.partition_for(group.group_id))
            def stored_empty(error: ErrorCode) -> None:
                if error != ErrorCode.NONE:
                    log.warning("Failed to write empty metadata for group %s: %s", group.group_id, error.name)

            self.store.store_group(group, {}, stored_empty)
            return
        log.info("[GroupCoordinator %d]: Stabilized group %s generation %d (%s-%d) with %d members",
                 self.broker_id, group.group_id, group.generation_id, OFFSETS_TOPIC,
                 self.partition_for(group.group_id), len(group.members))
        for member in list(group.members.values()):
            group.invoke_join_callback(member, self._join_result(group, member.member_id))
            self._schedule_heartbeat(group, member)
            member.is_new = False
            group.pending_sync_members.add(member.member_id)
        self._sync_timers[group.group_id] = self._later(group.rebalance_timeout_ms(), self._on_sync_deadline,
                                                        group, group.generation_id)

    def _on_sync_deadline(self, group: GroupMetadata, generation: int) -> None:
        """Members that got their JoinGroup response but never sent SyncGroup are removed."""
        self._sync_timers.pop(group.group_id, None)
        if generation != group.generation_id or not group.pending_sync_members:
            return
        if not (group.is_state(GroupState.COMPLETING_REBALANCE) or group.is_state(GroupState.STABLE)):
            return
        missing = list(group.pending_sync_members)
        log.info("[GroupCoordinator %d]: Group %s removed members %s who haven't sent their sync requests",
                 self.broker_id, group.group_id, missing)
        for member_id in missing:
            group.pending_sync_members.discard(member_id)
            if group.has(member_id):
                self._cancel_heartbeat(group, member_id)
                group.remove(member_id)
        self._maybe_prepare_rebalance(group, f"removing members {missing} on pending sync request expiration")

    def _reset_and_propagate_assignment_error(self, group: GroupMetadata, error: ErrorCode) -> None:
        for member in group.members.values():
            member.assignment = b""
            group.invoke_sync_callback(member, SyncResult(error))

    def _set_and_propagate_assignment(self, group: GroupMetadata, assignment: dict[str, bytes]) -> None:
        for member in group.members.values():
            member.assignment = assignment.get(member.member_id, b"")
        for member in group.members.values():
            if group.invoke_sync_callback(member, SyncResult(ErrorCode.NONE, member.assignment, group.protocol_type,
                                                             group.protocol_name)):
                self._schedule_heartbeat(group, member)

    def _remove_member_and_update_group(self, group: GroupMetadata, member: MemberMetadata, reason: str) -> None:
        # A member expiring while parked in JoinGroup learns it is unknown and may rejoin.
        group.invoke_join_callback(member, JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member.member_id))
        group.invoke_sync_callback(member, SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
        self._cancel_heartbeat(group, member.member_id)
        group.remove(member.member_id)
        if group.state in (GroupState.STABLE, GroupState.COMPLETING_REBALANCE):
            self._maybe_prepare_rebalance(group, reason)
        elif group.is_state(GroupState.PREPARING_REBALANCE):
            self._try_complete_join(group)

    def _remove_pending_member_and_update_group(self, group: GroupMetadata, member_id: str) -> None:
        group.pending_members.discard(member_id)
        timer = self._pending_timers.pop((group.group_id, member_id), None)
        if timer is not None:
            timer.cancel()
        if group.is_state(GroupState.PREPARING_REBALANCE):
            self._try_complete_join(group)

    # -- SyncGroup ---------------------------------------------------------------------------

    def sync_group(self, group_id: str, generation_id: int, member_id: str, protocol_type: str | None,
                   protocol_name: str | None, group_instance_id: str | None, assignments: dict[str, bytes],
                   callback: SyncCallback) -> None:
        error = self.validate(group_id, "sync")
        if error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
            # The rebalance state was lost with the old coordinator: make the member rejoin.
            error = ErrorCode.REBALANCE_IN_PROGRESS
        if error != ErrorCode.NONE:
            callback(SyncResult(error))
            return
        if self.classic_members is not None and self.classic_members.serves(group_id, joining=False):
            self.classic_members.classic_sync(group_id, generation_id, member_id, protocol_type, protocol_name,
                                              group_instance_id, callback)
            return
        group = self.groups.get(group_id)
        if group is None:
            callback(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
            return
        if group.is_state(GroupState.DEAD):
            callback(SyncResult(ErrorCode.COORDINATOR_NOT_AVAILABLE))
        elif group.is_static_member_fenced(group_instance_id, member_id):
            callback(SyncResult(ErrorCode.FENCED_INSTANCE_ID))
        elif not group.has(member_id):
            callback(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
        elif generation_id != group.generation_id:
            callback(SyncResult(ErrorCode.ILLEGAL_GENERATION))
        elif protocol_type is not None and group.protocol_type != protocol_type:
            callback(SyncResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL))
        elif protocol_name is not None and group.protocol_name != protocol_name:
            callback(SyncResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL))
        elif group.is_state(GroupState.EMPTY):
            callback(SyncResult(ErrorCode.UNKNOWN_MEMBER_ID))
        elif group.is_state(GroupState.PREPARING_REBALANCE):
            callback(SyncResult(ErrorCode.REBALANCE_IN_PROGRESS))
        elif group.is_state(GroupState.COMPLETING_REBALANCE):
            member = group.get(member_id)
            member.awaiting_sync = callback
            group.pending_sync_members.discard(member_id)
            if group.is_leader(member_id):
                log.info("[GroupCoordinator %d]: Assignment received from leader %s for group %s for generation "
                         "%d. The group has %d members, %d of which are static.", self.broker_id, member_id,
                         group_id, group.generation_id, len(group.members), len(group.static_members))
                full = {mid: assignments.get(mid, b"") for mid in group.members}

                def stored(error: ErrorCode) -> None:
                    # Members may have joined or left while the write was replicated.
                    if (self.groups.get(group_id) is not group or generation_id != group.generation_id
                            or not group.is_state(GroupState.COMPLETING_REBALANCE)):
                        return
                    if error != ErrorCode.NONE:
                        self._reset_and_propagate_assignment_error(group, error)
                        self._maybe_prepare_rebalance(group, f"error {error.name} storing group assignment")
                    else:
                        self._set_and_propagate_assignment(group, full)
                        group.transition_to(GroupState.STABLE)

                self.store.store_group(group, full, stored)
        else:  # Stable
            group.pending_sync_members.discard(member_id)
            member = group.get(member_id)
            callback(SyncResult(ErrorCode.NONE, member.assignment, group.protocol_type, group.protocol_name))
            self._schedule_heartbeat(group, member)

    # -- Heartbeat / LeaveGroup ----------------------------------------------------------

    def heartbeat(self, group_id: str, member_id: str, group_instance_id: str | None, generation_id: int) -> ErrorCode:
        error = self.validate(group_id, "heartbeat")
        if error == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
            return ErrorCode.NONE  # the group is still loading: answer blindly, as Kafka does
        if error != ErrorCode.NONE:
            return error
        if self.classic_members is not None and self.classic_members.serves(group_id, joining=False):
            return self.classic_members.classic_heartbeat(group_id, member_id, group_instance_id, generation_id)
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.is_state(GroupState.DEAD):
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if group.is_static_member_fenced(group_instance_id, member_id):
            return ErrorCode.FENCED_INSTANCE_ID
        if not group.has(member_id):
            return ErrorCode.UNKNOWN_MEMBER_ID
        if generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        if group.is_state(GroupState.EMPTY):
            return ErrorCode.UNKNOWN_MEMBER_ID
        self._schedule_heartbeat(group, group.get(member_id))
        if group.is_state(GroupState.PREPARING_REBALANCE):
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    def leave_group(self, group_id: str, members: list[tuple[str, str | None]]) -> tuple[ErrorCode, list[ErrorCode]]:
        """Remove members by id or, with an empty id, by group.instance.id (admin removal)."""
        error = self.validate(group_id, "leave")
        if error != ErrorCode.NONE:
            return error, []
        if self.classic_members is not None and self.classic_members.serves(group_id, joining=False):
            return self.classic_members.classic_leave(group_id, members)
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE, [ErrorCode.UNKNOWN_MEMBER_ID] * len(members)
        if group.is_state(GroupState.DEAD):
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, []
        errors = []
        for member_id, instance_id in members:
            if member_id == UNKNOWN_MEMBER_ID:
                current = group.static_member_id(instance_id)
                if current is not None:
                    self._remove_current_member(group, current)
                    errors.append(ErrorCode.NONE)
                else:
                    errors.append(ErrorCode.UNKNOWN_MEMBER_ID)
            elif member_id in group.pending_members:
                self._remove_pending_member_and_update_group(group, member_id)
                errors.append(ErrorCode.NONE)
            elif group.is_static_member_fenced(instance_id, member_id):
                errors.append(ErrorCode.FENCED_INSTANCE_ID)
            elif group.has(member_id):
                self._remove_current_member(group, member_id)
                errors.append(ErrorCode.NONE)
            else:
                errors.append(ErrorCode.UNKNOWN_MEMBER_ID)
        return ErrorCode.NONE, errors

    def _remove_current_member(self, group: GroupMetadata, member_id: str) -> None:
        member = group.get(member_id)
        log.info("[GroupCoordinator %d]: Member[group.instance.id %s, member.id %s] in group %s has left, "
                 "removing it from the group", self.broker_id, member.group_instance_id, member_id, group.group_id)
        self._remove_member_and_update_group(group, member, f"removing member {member_id} on LeaveGroup")

    # -- offsets -------------------------------------------------------------------------

    def commit_offsets(self, group_id: str, member_id: str, group_instance_id: str | None, generation_id: int,
                       offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None], api_version: int = 9) -> None:
        error = self.validate(group_id, "offset_commit")
        if error != ErrorCode.NONE:
            callback(dict.fromkeys(offsets, error))
            return
        if self.consumer_groups is not None and self.consumer_groups.is_consumer_group(group_id):
            self.consumer_groups.commit_offsets(group_id, member_id, generation_id, api_version, offsets, callback)
            return
        group = self.groups.get(group_id)
        if group is None:
            if generation_id >= 0:
                # A member of a generation we never saw (or a group that was deleted): reject.
                callback(dict.fromkeys(offsets, ErrorCode.ILLEGAL_GENERATION))
                return
            group = self.groups[group_id] = GroupMetadata(group_id, GroupState.EMPTY, self.time)  # a simple consumer
        error = self._validate_offset_commit(group, generation_id, member_id, group_instance_id)
        if error == ErrorCode.NONE and group.is_state(GroupState.COMPLETING_REBALANCE):
            # The member has the new generation but not yet its assignment.
            error = ErrorCode.REBALANCE_IN_PROGRESS
        if error != ErrorCode.NONE:
            callback(dict.fromkeys(offsets, error))
            return
        if group.state in (GroupState.STABLE, GroupState.PREPARING_REBALANCE) and group.has(member_id):
            self._schedule_heartbeat(group, group.get(member_id))
        self._store_offsets(group, offsets, callback)

    def _validate_offset_commit(self, group: GroupMetadata, generation_id: int, member_id: str,
                                group_instance_id: str | None) -> ErrorCode:
        if group.is_state(GroupState.DEAD):
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if generation_id >= 0 or member_id != UNKNOWN_MEMBER_ID or group_instance_id is not None:
            if group.is_static_member_fenced(group_instance_id, member_id):
                return ErrorCode.FENCED_INSTANCE_ID
            if not group.has(member_id):
                return ErrorCode.UNKNOWN_MEMBER_ID
            if generation_id != group.generation_id:
                return ErrorCode.ILLEGAL_GENERATION
            return ErrorCode.NONE
        if not group.is_state(GroupState.EMPTY):
            return ErrorCode.UNKNOWN_MEMBER_ID  # only members may commit for a group with members
        return ErrorCode.NONE

    def commit_txn_offsets(self, group_id: str, transactional_id: str, producer_id: int, producer_epoch: int,
                           member_id: str, group_instance_id: str | None, generation_id: int,
                           offsets: dict[TopicPartition, OffsetAndMetadata],
                           callback: Callable[[dict[TopicPartition, ErrorCode]], None], add: bool = False,
                           api_version: int = 0) -> None:
        """TxnOffsetCommit: the offsets are written in the producer's transaction and stay
        pending (invisible to OffsetFetch) until its marker ends it (Kafka's
        handleTxnOffsetCommit). A group that does not exist yet is created Empty. First
        the transaction coordinator must confirm that the group's partition is in the
        transaction (AddOffsetsToTxn put it there; KIP-890 verification), else offsets
        could land in a transaction that already ended and never be completed. With `add`
        (v5+, a producer on transactions v2, which sends no AddOffsetsToTxn) the coordinator
        adds the partition instead, as Kafka's addPartition operation. From v6 an unknown
        group named with a generation is GROUP_ID_NOT_FOUND and a stale member epoch
        STALE_MEMBER_EPOCH; before, both are ILLEGAL_GENERATION (OffsetMetadataManager's
        validateTransactionalOffsetCommit)."""
        error = self.validate(group_id, "txn_offset_commit")
        if error != ErrorCode.NONE:
            callback(dict.fromkeys(offsets, error))
            return
        v6_errors = api_version >= TXN_OFFSET_COMMIT_V6_ERRORS_VERSION
        consumer = self.consumer_groups
        if consumer is not None and consumer.is_consumer_group(group_id):
            error = consumer.txn_member_error(group_id, member_id, generation_id, offsets)
            if error == ErrorCode.STALE_MEMBER_EPOCH and not v6_errors:
                error = ErrorCode.ILLEGAL_GENERATION
            if error != ErrorCode.NONE:
                callback(dict.fromkeys(offsets, error))
                return
            book = consumer.offsets_book(group_id)

            def verified_for_consumer_group(error: ErrorCode, guard: VerificationGuard) -> None:
                if error != ErrorCode.NONE:
                    callback(dict.fromkeys(offsets, error))
                else:
                    self._store_offsets(book, offsets, callback, (producer_id, producer_epoch), guard)

            self.store.verify_transaction(group_id, transactional_id, producer_id, producer_epoch,
                                          verified_for_consumer_group, add)
            return
        group = self.groups.get(group_id)
        if group is None and api_version >= TXN_OFFSET_COMMIT_KAFKA_4_VERSION and generation_id >= 0:
            not_found_error = ErrorCode.GROUP_ID_NOT_FOUND if v6_errors else ErrorCode.ILLEGAL_GENERATION

            def not_found(error: ErrorCode, _guard: VerificationGuard) -> None:
                callback(dict.fromkeys(offsets, not_found_error if error == ErrorCode.NONE else error))

            self.store.verify_transaction(group_id, transactional_id, producer_id, producer_epoch, not_found, add)
            return
        if group is None:
            group = self.groups[group_id] = GroupMetadata(group_id, GroupState.EMPTY, self.time)

        def verified(error: ErrorCode, guard: VerificationGuard) -> None:
            if error != ErrorCode.NONE:
                callback(dict.fromkeys(offsets, error))
                return
            self._commit_txn_offsets(group, producer_id, producer_epoch, member_id, group_instance_id,
                                     generation_id, offsets, callback, guard)

        self.store.verify_transaction(group_id, transactional_id, producer_id, producer_epoch, verified, add)

    def _commit_txn_offsets(self, group: GroupMetadata, producer_id: int, producer_epoch: int, member_id: str,
                            group_instance_id: str | None, generation_id: int,
                            offsets: dict[TopicPartition, OffsetAndMetadata],
                            callback: Callable[[dict[TopicPartition, ErrorCode]], None],
                            guard: VerificationGuard) -> None:
        error = ErrorCode.NONE
        if group.is_state(GroupState.DEAD):
            error = ErrorCode.COORDINATOR_NOT_AVAILABLE
        elif member_id != UNKNOWN_MEMBER_ID and not group.has(member_id):
            error = ErrorCode.UNKNOWN_MEMBER_ID
        elif group.is_static_member_fenced(group_instance_id, member_id):
            error = ErrorCode.FENCED_INSTANCE_ID
        elif generation_id >= 0 and generation_id != group.generation_id:
            error = ErrorCode.ILLEGAL_GENERATION
        if error != ErrorCode.NONE:
            callback(dict.fromkeys(offsets, error))
            return
        self._store_offsets(group, offsets, callback, producer=(producer_id, producer_epoch), verification_guard=guard)

    def complete_txn_offsets(self, producer_id: int, commit: bool, partitions: list[int]) -> None:
        """A transaction's marker is in these __consumer_offsets partitions: its pending
        offsets there become committed, or are dropped on abort (handleTxnCompletion)."""
        wanted = set(partitions)
        books = self.consumer_groups.offsets_books() if self.consumer_groups is not None else []
        for group in [*self.groups.values(), *books]:
            if self.partition_for(group.group_id) not in wanted:
                continue
            pending = group.pending_txn_offsets.pop(producer_id, None)
            if pending and commit and not group.is_state(GroupState.DEAD):
                group.offsets.update(pending)

    def unstable_partitions(self, group_id: str, partitions: list[TopicPartition] | None) -> set[TopicPartition]:
        """Partitions with offsets in an open transaction: OffsetFetch with require_stable
        answers UNSTABLE_OFFSET_COMMIT for them, so a read_committed consumer waits."""
        group = self.groups.get(group_id)
        if group is None and self.consumer_groups is not None and self.consumer_groups.is_consumer_group(group_id):
            group = self.consumer_groups.offsets_book(group_id)
        if group is None:
            return set()
        pending = {tp for offsets in group.pending_txn_offsets.values() for tp in offsets}
        return pending if partitions is None else pending & set(partitions)

    def _store_offsets(self, group: GroupMetadata, offsets: dict[TopicPartition, OffsetAndMetadata],
                       callback: Callable[[dict[TopicPartition, ErrorCode]], None],
                       producer: tuple[int, int] | None = None,
                       verification_guard: VerificationGuard = SENTINEL) -> None:
        results: dict[TopicPartition, ErrorCode] = {}
        valid: dict[TopicPartition, OffsetAndMetadata] = {}
        for tp, om in offsets.items():
            if om.metadata is not None and len(om.metadata.encode()) > self.max_metadata_bytes:
                results[tp] = ErrorCode.OFFSET_METADATA_TOO_LARGE
            else:
                valid[tp] = om
        if not valid:
            callback({tp: results[tp] for tp in offsets})
            return

        def stored(error: ErrorCode) -> None:
            # Offsets become visible to OffsetFetch only once durably written (and, in a
            # transaction, committed).
            if error == ErrorCode.NONE and not group.is_state(GroupState.DEAD):
                if producer is None:
                    group.offsets.update(valid)
                else:
                    group.pending_txn_offsets.setdefault(producer[0], {}).update(valid)
            for tp in valid:
                results[tp] = error
            callback({tp: results[tp] for tp in offsets})

        self.store.store_offsets(group.group_id, valid, stored, producer, verification_guard)

    def fetch_offsets(self, group_id: str, partitions: list[TopicPartition] | None,
                      member: tuple[str | None, int] = (None, -1)
                      ) -> tuple[ErrorCode, dict[TopicPartition, OffsetAndMetadata | None]]:
        """Committed offsets (None: nothing committed); partitions=None means all of the group's.
        `member` is OffsetFetch v9's member id and epoch, checked for a consumer group."""
        error = self.validate(group_id, "offset_fetch")
        if error != ErrorCode.NONE:
            return error, {}
        if self.consumer_groups is not None and self.consumer_groups.is_consumer_group(group_id):
            return self.consumer_groups.fetch_offsets(group_id, member[0], member[1], partitions)
        group = self.groups.get(group_id)
        if group is None or group.is_state(GroupState.DEAD):
            return ErrorCode.NONE, {tp: None for tp in partitions or []}
        if partitions is None:
            return ErrorCode.NONE, dict(group.offsets)
        return ErrorCode.NONE, {tp: group.offsets.get(tp) for tp in partitions}

    def delete_offsets(self, group_id: str, partitions: list[TopicPartition]
                       ) -> tuple[ErrorCode, dict[TopicPartition, ErrorCode]]:
        error = self.validate(group_id, "offset_delete")
        if error != ErrorCode.NONE:
            return error, {}
        group = self.groups.get(group_id)
        if group is None or group.is_state(GroupState.DEAD):
            return ErrorCode.GROUP_ID_NOT_FOUND, {}
        results: dict[TopicPartition, ErrorCode] = {}
        eligible: list[TopicPartition] = []
        if group.is_state(GroupState.EMPTY):
            eligible = list(partitions)
        elif group.protocol_type == CONSUMER_PROTOCOL_TYPE:
            for tp in partitions:
                if group.is_subscribed_to(tp[0]):
                    results[tp] = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC
                else:
                    eligible.append(tp)
        else:
            return ErrorCode.NON_EMPTY_GROUP, {}
        if eligible:
            present = [tp for tp in eligible if tp in group.offsets]
            error = self.store.write_tombstones(group.group_id, present, group=False) if present else ErrorCode.NONE
            if error == ErrorCode.NONE:
                for tp in present:
                    group.offsets.pop(tp, None)
            for tp in eligible:
                results[tp] = ErrorCode.NONE if error == ErrorCode.NONE else error
        return ErrorCode.NONE, results

    # -- admin ---------------------------------------------------------------------------

    def describe_group(self, group_id: str) -> tuple[ErrorCode, GroupSummary]:
        error = self.validate(group_id, "describe")
        dead = GroupSummary(state=GroupState.DEAD.value, protocol_type="", protocol="", members=[])
        if error != ErrorCode.NONE:
            return error, dead
        group = self.groups.get(group_id)
        if group is None:  # DescribeGroups before v6 answers NONE and the Dead state instead (KIP-1043)
            return ErrorCode.GROUP_ID_NOT_FOUND, dead
        return ErrorCode.NONE, group.summary()

    def list_groups(self, states: set[str]) -> tuple[ErrorCode, list[GroupMetadata]]:
        if not self.active:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, []
        self.on_leadership_change()
        wanted = {s.lower() for s in states}
        groups = [g for g in self.groups.values()
                  if not wanted or g.state.value.lower() in wanted]
        return (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS if self.loading else ErrorCode.NONE), groups

    def delete_groups(self, group_ids: list[str]) -> dict[str, ErrorCode]:
        results: dict[str, ErrorCode] = {}
        for group_id in group_ids:
            error = self.validate(group_id, "delete")
            if error != ErrorCode.NONE:
                results[group_id] = error
                continue
            group = self.groups.get(group_id)
            if group is None or group.is_state(GroupState.DEAD):
                results[group_id] = ErrorCode.GROUP_ID_NOT_FOUND
            elif group.is_state(GroupState.EMPTY):
                error = self.store.write_tombstones(group_id, list(group.offsets), group=True)
                if error != ErrorCode.NONE:
                    results[group_id] = error
                    continue
                group.transition_to(GroupState.DEAD)
                self._cancel_group_timers(group)
                del self.groups[group_id]
                results[group_id] = ErrorCode.NONE
            else:
                results[group_id] = ErrorCode.NON_EMPTY_GROUP
        return results

    # -- offset retention ----------------------------------------------------------------

    def _cleanup_expired(self) -> None:
        """Expire offsets past offsets.retention.minutes (KIP-211 rules) and drop groups
        left Empty without offsets."""
        self._cleanup_timer = self._later(self.retention_check_interval_ms, self._cleanup_expired)
        try:
            self.cleanup_group_metadata(self.time.milliseconds())
        except Exception:
            log.exception("Offset expiration failed")

    def cleanup_group_metadata(self, now: int) -> int:
        removed = 0
        for group_id, group in list(self.groups.items()):
            if self.partition_for(group_id) not in self.owned:
                continue
            expired = self._expired_offsets(group, now)
            drop_group = group.is_state(GroupState.EMPTY) and len(expired) == len(group.offsets)
            if not expired and not drop_group:
                continue
            error = self.store.write_tombstones(group_id, expired, group=drop_group)
            if error != ErrorCode.NONE:
                continue
            for tp in expired:
                group.offsets.pop(tp, None)
            removed += len(expired)
            if drop_group:
                group.transition_to(GroupState.DEAD)
                self._cancel_group_timers(group)
                del self.groups[group_id]
        if self.consumer_groups is not None:
            removed += self.consumer_groups.cleanup(now)
        if removed:
            log.info("[GroupMetadataManager brokerId=%d] Removed %d expired offsets", self.broker_id, removed)
        return removed

    def _expired_offsets(self, group: GroupMetadata, now: int) -> list[TopicPartition]:
        retention = self.offsets_retention_ms

        def expired(base: Callable[[OffsetAndMetadata], int], subscribed: set[str]) -> list[TopicPartition]:
            out = []
            for tp, om in group.offsets.items():
                if tp[0] in subscribed:
                    continue
                if om.expire_timestamp is not None:
                    if now >= om.expire_timestamp:
                        out.append(tp)
                elif now - base(om) >= retention:
                    out.append(tp)
            return out

        if group.protocol_type is not None and group.is_state(GroupState.EMPTY):
            ts = group.current_state_timestamp
            return expired(lambda om: ts if ts is not None else om.commit_timestamp, set())
        if (group.protocol_type == CONSUMER_PROTOCOL_TYPE and group.subscribed_topics is not None
                and group.is_state(GroupState.STABLE)):
            return expired(lambda om: om.commit_timestamp, group.subscribed_topics)
        if group.protocol_type is None:
            return expired(lambda om: om.commit_timestamp, set())
        return []


__all__ = ["GroupCoordinator", "NO_GENERATION"]
