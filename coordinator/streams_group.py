"""A KIP-1071 streams group: epochs, members and their reconciliation (Kafka's StreamsGroup,
StreamsGroupMember and streams.CurrentAssignmentBuilder).

A task is a (subtopology id, partition) pair; a member holds some as active, standby or
warm-up tasks. As in a KIP-848 consumer group, the group epoch moves when membership, a
member's metadata, the topology or its topics change; the target assignment is then
recomputed and stamped with that epoch, and each member moves towards its target one step
per heartbeat: tasks it must give up are revoked first (it keeps its epoch until it has let
them go), and a task still held elsewhere is withheld until released. An active task is
held back while any member owns it as active, or while the member's own process still has
it as a standby or warm-up task; a standby or warm-up task while the member's process holds
the task in any role. So no task is ever active on two members, nor two roles on one process.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from josefk.coordinator.modern_group import GroupWithOffsets
from josefk.coordinator.streams_topology import ConfiguredTopology, Topology
from josefk.utils.time import SYSTEM_TIME, Time

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2

TaskSet = Mapping[str, frozenset[int]]  # subtopology id -> partitions
Task = tuple[str, int]


def _norm(tasks: Mapping[str, frozenset[int]]) -> dict[str, frozenset[int]]:
    return {s: frozenset(ps) for s, ps in tasks.items() if ps}


def _union(a: TaskSet, b: TaskSet) -> dict[str, frozenset[int]]:
    return _norm({s: a.get(s, frozenset()) | b.get(s, frozenset()) for s in set(a) | set(b)})


def _overlaps(a: TaskSet, b: TaskSet) -> bool:
    return any(a.get(s, frozenset()) & ps for s, ps in b.items())


def task_list(tasks: TaskSet) -> Iterator[Task]:
    for s in sorted(tasks):
        for p in sorted(tasks[s]):
            yield s, p


@dataclass(frozen=True)
class Tasks:
    """Kafka's TasksTuple: a member's active, standby and warm-up tasks."""

    active: Mapping[str, frozenset[int]] = field(default_factory=dict)
    standby: Mapping[str, frozenset[int]] = field(default_factory=dict)
    warmup: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("active", "standby", "warmup"):
            object.__setattr__(self, name, _norm(getattr(self, name)))

    def is_empty(self) -> bool:
        return not (self.active or self.standby or self.warmup)

    def merge(self, other: Tasks) -> Tasks:
        return Tasks(_union(self.active, other.active), _union(self.standby, other.standby),
                     _union(self.warmup, other.warmup))

    def overlaps(self, other: Tasks) -> bool:
        return (_overlaps(self.active, other.active) or _overlaps(self.standby, other.standby)
                or _overlaps(self.warmup, other.warmup))


EMPTY = Tasks()


class MemberState(enum.Enum):
    STABLE = "stable"
    UNREVOKED_TASKS = "unrevoked_tasks"
    UNRELEASED_TASKS = "unreleased_tasks"


class StreamsGroupState(enum.Enum):
    """Kafka's StreamsGroup.StreamsGroupState, as ListGroups and StreamsGroupDescribe name them."""

    EMPTY = "Empty"
    NOT_READY = "NotReady"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"
    DEAD = "Dead"


@dataclass(frozen=True)
class StreamsGroupMember:
    member_id: str
    process_id: str = ""
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    topology_epoch: int = 0
    user_endpoint: tuple[str, int] | None = None
    client_tags: tuple[tuple[str, str], ...] = ()
    task_offsets: tuple[tuple[str, int, int], ...] = ()
    task_end_offsets: tuple[tuple[str, int, int], ...] = ()
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Tasks = EMPTY  # may be used now
    pending_revocation: Tasks = EMPTY  # must be given up first
    # The epoch at which each active task the member holds (assigned or pending revocation)
    # was assigned to it (Kafka 4.4's per-task assignment epochs): a commit at an older
    # member epoch is good for the partitions of tasks held since then.
    task_epochs: Mapping[Task, int] = field(default_factory=dict)

    def task_epoch(self, task: Task) -> int | None:
        """The epoch the member got the active task at, None if it does not hold it. A task
        with no recorded epoch counts as assigned at the member's epoch (at least 0), the
        default Kafka 4.4 gives the tasks of a record without epochs."""
        subtopology, partition = task
        if partition not in self.assigned.active.get(subtopology, frozenset()) | \
                self.pending_revocation.active.get(subtopology, frozenset()):
            return None
        return self.task_epochs.get(task, max(self.member_epoch, 0))

    def epochs_of(self, *held: TaskSet) -> dict[Task, int]:
        """The assignment epochs of these active tasks the member holds."""
        return {task: self.task_epochs.get(task, max(self.member_epoch, 0))
                for tasks in held for task in task_list(tasks)}


class Owners(Mapping[Task, str]):
    """Who holds each task, in each role, by process (Kafka's StreamsGroup
    currentActiveTaskToProcessId / currentStandbyTaskToProcessIds / currentWarmupTaskToProcessIds)."""

    def __init__(self) -> None:
        self.active: dict[Task, tuple[str, str]] = {}  # task -> (member id, process id)
        self.standby: dict[Task, dict[str, str]] = {}  # task -> member id -> process id
        self.warmup: dict[Task, dict[str, str]] = {}

    def __getitem__(self, task: Task) -> str:
        return self.active[task][0]

    def __iter__(self) -> Iterator[Task]:
        return iter(self.active)

    def __len__(self) -> int:
        return len(self.active)

    def add(self, member: StreamsGroupMember) -> None:
        held = member.assigned.merge(member.pending_revocation)
        for task in task_list(held.active):
            self.active[task] = (member.member_id, member.process_id)
        for tasks, roles in ((held.standby, self.standby), (held.warmup, self.warmup)):
            for task in task_list(tasks):
                roles.setdefault(task, {})[member.member_id] = member.process_id

    def remove(self, member: StreamsGroupMember) -> None:
        held = member.assigned.merge(member.pending_revocation)
        for task in task_list(held.active):
            if self.active.get(task, ("", ""))[0] == member.member_id:
                del self.active[task]
        for tasks, roles in ((held.standby, self.standby), (held.warmup, self.warmup)):
            for task in task_list(tasks):
                holders = roles.get(task, {})
                holders.pop(member.member_id, None)
                if not holders:
                    roles.pop(task, None)

    def active_process(self, task: Task) -> str | None:
        owner = self.active.get(task)
        return None if owner is None else owner[1]

    def on_process(self, task: Task, process_id: str) -> bool:
        """Whether `process_id` holds the task as a standby or warm-up task."""
        return (process_id in self.standby.get(task, {}).values()
                or process_id in self.warmup.get(task, {}).values())


def _difference(current: TaskSet, target: TaskSet, unreleased: Callable[[Task], bool]
                ) -> tuple[dict[str, frozenset[int]], dict[str, frozenset[int]], dict[str, frozenset[int]], bool]:
    """(kept, to revoke, ready to assign, whether some target task is still held elsewhere)."""
    kept: dict[str, frozenset[int]] = {}
    revoking: dict[str, frozenset[int]] = {}
    ready: dict[str, frozenset[int]] = {}
    held_back = False
    for s in set(current) | set(target):
        have, want = current.get(s, frozenset()), target.get(s, frozenset())
        kept[s] = have & want
        revoking[s] = have - want
        free = frozenset(p for p in want - have if not unreleased((s, p)))
        ready[s] = free
        held_back |= len(free) < len(want - have)
    return _norm(kept), _norm(revoking), _norm(ready), held_back


def reconcile(member: StreamsGroupMember, target_epoch: int, target: Tasks, owners: Owners,
              owned: Tasks | None) -> StreamsGroupMember:
    """The member's next state (Kafka's streams CurrentAssignmentBuilder.build). `owned` is
    what the member said it owns in this heartbeat, None if it did not say."""
    if member.state == MemberState.UNREVOKED_TASKS:
        if owned is None or owned.overlaps(member.pending_revocation):
            return member
        return _next(member, member.member_epoch + 1, target_epoch, target, owners, owned)
    if member.state == MemberState.STABLE and member.member_epoch == target_epoch:
        return member
    return _next(member, member.member_epoch, target_epoch, target, owners, owned)


def _next(member: StreamsGroupMember, member_epoch: int, target_epoch: int, target: Tasks, owners: Owners,
          owned: Tasks | None) -> StreamsGroupMember:
    process = member.process_id

    def active_unreleased(task: Task) -> bool:
        return owners.active_process(task) is not None or owners.on_process(task, process)

    def other_unreleased(task: Task) -> bool:
        return owners.active_process(task) == process or owners.on_process(task, process)

    current = member.assigned
    a_kept, a_rev, a_ready, a_held = _difference(current.active, target.active, active_unreleased)
    s_kept, s_rev, s_ready, s_held = _difference(current.standby, target.standby, other_unreleased)
    w_kept, w_rev, w_ready, w_held = _difference(current.warmup, target.warmup, other_unreleased)
    kept, revoking, ready = Tasks(a_kept, s_kept, w_kept), Tasks(a_rev, s_rev, w_rev), Tasks(a_ready, s_ready, w_ready)
    held_back = a_held or s_held or w_held
    if not revoking.is_empty() and (owned is None or owned.overlaps(revoking)):
        # Revoke first; the member keeps its epoch until it has let go of them.
        return replace(member, state=MemberState.UNREVOKED_TASKS, member_epoch=member_epoch,
                       previous_member_epoch=member.member_epoch, assigned=kept, pending_revocation=revoking,
                       task_epochs=member.epochs_of(kept.active, revoking.active))
    state = MemberState.UNRELEASED_TASKS if held_back else MemberState.STABLE
    # Kept active tasks keep the epoch they were assigned at; new ones get the target's.
    epochs = member.epochs_of(kept.active)
    epochs.update((task, target_epoch) for task in task_list(ready.active))
    return replace(member, state=state, member_epoch=target_epoch, previous_member_epoch=member.member_epoch,
                   assigned=kept.merge(ready), pending_revocation=EMPTY, task_epochs=epochs)


class StreamsGroup(GroupWithOffsets[StreamsGroupState, StreamsGroupMember, Tasks]):
    def __init__(self, group_id: str, time: Time = SYSTEM_TIME) -> None:
        super().__init__(group_id, StreamsGroupState.EMPTY, time)
        self.owners = Owners()
        self.topology: Topology | None = None
        self.configured: ConfiguredTopology | None = None
        self.metadata: dict[str, int] = {}  # partition counts of the topology's topics, as last configured
        self.endpoint_epoch = 0
        self.shutdown_requester: str | None = None  # the member that asked all to shut down
        # Kafka's lastAssignmentConfigs: the group configs the assignor uses, as at the last epoch bump
        self.last_assignment_configs: dict[str, str] = {}

    def update_member(self, member: StreamsGroupMember) -> None:
        """Store `member`, keeping the task owners in step."""
        old = self.members.get(member.member_id)
        if old is not None:
            self.owners.remove(old)
        self.members[member.member_id] = member
        self.owners.add(member)
        self.update_state()

    def remove_member(self, member_id: str) -> StreamsGroupMember | None:
        member = self.members.pop(member_id, None)
        if member is None:
            return None
        self.owners.remove(member)
        self.target.pop(member_id, None)
        if not self.members:
            self.shutdown_requester = None
        self.update_state()
        return member

    def update_state(self) -> None:
        """Kafka's StreamsGroup.maybeUpdateGroupState."""
        if self.state == StreamsGroupState.DEAD:
            return
        if not self.members:
            self.state = StreamsGroupState.EMPTY
        elif self.configured is None or not self.configured.ready:
            self.state = StreamsGroupState.NOT_READY
        elif self.group_epoch > self.assignment_epoch:
            self.state = StreamsGroupState.ASSIGNING
        elif any(m.member_epoch != self.assignment_epoch or m.state != MemberState.STABLE
                 for m in self.members.values()):
            self.state = StreamsGroupState.RECONCILING
        else:
            self.state = StreamsGroupState.STABLE
