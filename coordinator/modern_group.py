"""What KIP-848 consumer, KIP-932 share and KIP-1071 streams groups have in common (Kafka's
ModernGroup and ModernGroupMember, and the parts of GroupMetadataManager that serve all three).

Each kind of group has epochs (the group epoch moves with membership, the assignment epoch
follows it once a target assignment is computed), members fenced by epoch and by session
timer, and the same admin answers (describe, delete). Consumer and streams groups also hold
committed offsets, checked, stored and expired alike. The kinds differ in their members,
their assignment and reconciliation, which stay in consumer_group*, share_group* and
streams_group*.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Generic, Protocol, TypeVar

from josefk.coordinator.group_metadata import GroupMetadata, GroupState, OffsetAndMetadata
from josefk.protocol.errors import ErrorCode
from josefk.utils.scheduler import ScheduledTask, Scheduler
from josefk.utils.time import Time

TopicPartition = tuple[str, int]
Offsets = dict[TopicPartition, OffsetAndMetadata]

S = TypeVar("S", bound=enum.Enum)
M = TypeVar("M", bound="ModernGroupMember")
T = TypeVar("T")
G = TypeVar("G", bound="HasMembers")

# A new group's epoch and assignment epoch (Kafka 4.4's ModernGroup and
# TargetAssignmentMetadata.INITIAL, KAFKA-20268): epoch 0 is a joining member's, so a group
# starts at 1 with an empty target assignment; its first computed assignment is epoch 2.
INITIAL_EPOCH = 1


class ModernGroupMember(Protocol):
    """What every kind of member has (Kafka's ModernGroupMember)."""

    @property
    def member_id(self) -> str: ...

    @property
    def member_epoch(self) -> int: ...


class HasMembers(Protocol):
    @property
    def members(self) -> Mapping[str, object]: ...


class ModernGroup(Generic[S, M, T]):
    """A group's epochs, members (by id) and target assignment (member id -> T)."""

    def __init__(self, group_id: str, state: S) -> None:
        self.group_id = group_id
        self.state = state
        self.group_epoch = INITIAL_EPOCH
        self.assignment_epoch = INITIAL_EPOCH
        self.members: dict[str, M] = {}
        self.target: dict[str, T] = {}

    @property
    def is_new(self) -> bool:
        """No heartbeat has moved the group yet (a join that failed leaves it so)."""
        return self.group_epoch == INITIAL_EPOCH

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.group_id!r}, {self.state.value}, epoch={self.group_epoch}, "
                f"assignment_epoch={self.assignment_epoch}, members={sorted(self.members)})")


class GroupWithOffsets(ModernGroup[S, M, T]):
    """A consumer or streams group: it commits offsets (a share group has none)."""

    def __init__(self, group_id: str, state: S, time: Time) -> None:
        super().__init__(group_id, state)
        # The group's committed and transaction-pending offsets, in the shape the classic
        # coordinator's offset paths (TxnOffsetCommit, transaction completion) work on.
        self.book = GroupMetadata(group_id, GroupState.EMPTY, time)

    @property
    def offsets(self) -> Offsets:
        return self.book.offsets

    @offsets.setter
    def offsets(self, offsets: Offsets) -> None:
        self.book.offsets = offsets


class TopicCounts(Protocol):
    """The cluster's topics and their partitions (MetadataCache has them)."""

    @property
    def topics(self) -> Mapping[str, Mapping[int, object]]: ...


class TopicsView(TopicCounts, Protocol):
    """The cluster's topics with their ids (MetadataCache has both)."""

    @property
    def topic_ids(self) -> Mapping[str, uuid.UUID]: ...


def subscription_metadata(topics: TopicsView, names: Iterable[str]) -> dict[str, tuple[uuid.UUID, int]]:
    """Topic -> (id, partition count) of the existing topics among `names`: a change of it
    moves the group epoch."""
    out: dict[str, tuple[uuid.UUID, int]] = {}
    for name in sorted(names):
        partitions = topics.topics.get(name)
        topic_id = topics.topic_ids.get(name)
        if partitions and topic_id is not None:
            out[name] = (topic_id, len(partitions))
    return out


class MemberTimers:
    """One kind of member timer (session, rebalance, ...) of a coordinator's groups, by
    (group id, member id): scheduling a member's timer replaces its last one."""

    def __init__(self, scheduler: Scheduler) -> None:
        self._scheduler = scheduler
        self._tasks: dict[tuple[str, str], ScheduledTask] = {}

    def __contains__(self, key: tuple[str, str]) -> bool:
        return key in self._tasks

    def schedule(self, group_id: str, member_id: str, delay_ms: int, expired: Callable[[], None]) -> None:
        key = (group_id, member_id)
        self.cancel(group_id, member_id)

        def run() -> None:
            self._tasks.pop(key, None)
            expired()

        self._tasks[key] = self._scheduler.schedule(delay_ms, run)

    def cancel(self, group_id: str, member_id: str) -> None:
        task = self._tasks.pop((group_id, member_id), None)
        if task is not None:
            task.cancel()

    def cancel_group(self, group_id: str) -> None:
        for key in [k for k in self._tasks if k[0] == group_id]:
            self._tasks.pop(key).cancel()


def fenced_epoch(kind: str, epoch: int, member: ModernGroupMember, previous_epoch: int,
                 owns_only_assigned: Callable[[], bool] = lambda: True) -> str | None:
    """Why a heartbeat at `epoch` fences the member, None if it does not (Kafka's
    throwIfMemberEpochIsInvalid and its share and streams twins): a member ahead of the
    coordinator, or behind it other than by one lost response (its previous epoch, owning
    nothing it was not given), must abandon all it holds and rejoin."""
    if epoch > member.member_epoch:
        return (f"The {kind} group member has a greater member epoch ({epoch}) than the one known by the group "
                f"coordinator ({member.member_epoch}). The member must abandon all its partitions and rejoin.")
    if epoch < member.member_epoch and (epoch != previous_epoch or not owns_only_assigned()):
        return (f"The {kind} group member has a smaller member epoch ({epoch}) than the one known by the group "
                f"coordinator ({member.member_epoch}). The member must abandon all its partitions and rejoin.")
    return None


class GroupValidator(Protocol):
    """What the modern groups' admin answers need of the classic coordinator."""

    def validate(self, group_id: str | None, api: str) -> ErrorCode: ...


def describe_group(host: GroupValidator, groups: Mapping[str, G], group_id: str, kind: str,
                   other_kind: Callable[[str], bool]) -> tuple[ErrorCode, str | None, G | None]:
    """A describe's (error, message, group): a group of another kind is named as such."""
    error = host.validate(group_id, "describe")
    if error != ErrorCode.NONE:
        return error, None, None
    group = groups.get(group_id)
    if group is None:
        if other_kind(group_id):
            return ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a {kind} group.", None
        return ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.", None
    return ErrorCode.NONE, None, group


def delete_group(host: GroupValidator, groups: Mapping[str, G], group_id: str,
                 delete: Callable[[G], ErrorCode]) -> ErrorCode:
    """DeleteGroups for one group of this kind: only an Empty group is deleted, by `delete`."""
    error = host.validate(group_id, "delete")
    if error != ErrorCode.NONE:
        return error
    group = groups[group_id]
    if group.members:
        return ErrorCode.NON_EMPTY_GROUP
    return delete(group)


# -- offsets (consumer and streams groups) ------------------------------------------------------


class OffsetWriter(Protocol):
    """Where a group's offsets go: its __consumer_offsets partition (OffsetsStore)."""

    def store_offsets(self, group_id: str, offsets: Offsets, done: Callable[[ErrorCode], None]) -> None: ...

    def write_tombstones(self, group_id: str, partitions: list[TopicPartition], group: bool) -> ErrorCode: ...


def member_error(members: Mapping[str, ModernGroupMember], member_id: str | None, member_epoch: int) -> ErrorCode:
    """Kafka's ConsumerGroup/StreamsGroup.validateOffsetCommit/Fetch: without a member epoch
    (admin tools, manual assignment) only an Empty group is open; a member must name its
    current epoch."""
    if member_epoch < 0 and not members:
        return ErrorCode.NONE
    member = members.get(member_id or "")
    if member is None:
        return ErrorCode.UNKNOWN_MEMBER_ID
    if member_epoch != member.member_epoch:
        return ErrorCode.STALE_MEMBER_EPOCH
    return ErrorCode.NONE


def commit_offsets(store: OffsetWriter, max_metadata_bytes: int, group_id: str, book: Offsets,
                   offsets: Offsets, error_for: Callable[[Iterable[TopicPartition]], ErrorCode],
                   is_dead: Callable[[], bool], callback: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
    """OffsetCommit for a group: `error_for` (given the partitions whose metadata fits)
    refuses the whole commit or lets it through; the offsets are written, then kept in
    `book` unless the group died meanwhile, and `callback` gets each partition's error."""
    results: dict[TopicPartition, ErrorCode] = {}
    valid = {}
    for tp, om in offsets.items():
        if om.metadata is not None and len(om.metadata.encode()) > max_metadata_bytes:
            results[tp] = ErrorCode.OFFSET_METADATA_TOO_LARGE
        else:
            valid[tp] = om
    error = error_for(valid)
    if error != ErrorCode.NONE:
        callback(dict.fromkeys(offsets, error))
        return

    def stored(error: ErrorCode) -> None:
        if error == ErrorCode.NONE and not is_dead():
            book.update(valid)
        results.update(dict.fromkeys(valid, error))
        callback({tp: results[tp] for tp in offsets})

    if valid:
        store.store_offsets(group_id, valid, stored)
    else:
        callback(results)


def fetched_offsets(offsets: Offsets, partitions: list[TopicPartition] | None
                    ) -> dict[TopicPartition, OffsetAndMetadata | None]:
    """OffsetFetch's answer from a group's offsets: all of them, or those asked for."""
    if partitions is None:
        return dict(offsets)
    return {tp: offsets.get(tp) for tp in partitions}


def expire_offsets(store: OffsetWriter, group: GroupWithOffsets[S, M, T], now: int, retention_ms: int,
                   subscribed: Container[str], delete_records: Callable[[], ErrorCode]) -> tuple[int, bool]:
    """Kafka's offset expiration for one group: an offset of a topic no member subscribes to
    expires offsets.retention.minutes after its commit (or at its expire timestamp); an
    Empty group left with no offset is deleted, its own records by `delete_records`. Returns
    how many offsets expired and whether the group is to be dropped."""
    expired = [tp for tp, om in group.offsets.items() if tp[0] not in subscribed and (
        now >= om.expire_timestamp if om.expire_timestamp is not None
        else now - om.commit_timestamp >= retention_ms)]
    drop = not group.members and len(expired) == len(group.offsets) and not group.book.pending_txn_offsets
    if not expired and not drop:
        return 0, False
    if store.write_tombstones(group.group_id, expired, group=drop) != ErrorCode.NONE:
        return 0, False
    if drop and delete_records() != ErrorCode.NONE:
        return 0, False
    for tp in expired:
        group.offsets.pop(tp, None)
    return len(expired), drop


class ClassicGroups(Protocol):
    """The classic coordinator's groups, which a modern group's id may pass to and from."""

    time: Time

    @property
    def groups(self) -> dict[str, GroupMetadata]: ...


def hand_to_classic(classic: ClassicGroups, group_id: str, offsets: Offsets) -> None:
    """The group becomes an Empty classic group with its offsets (Kafka's offline migration)."""
    book = GroupMetadata(group_id, GroupState.EMPTY, classic.time)
    book.offsets = offsets
    classic.groups[group_id] = book
