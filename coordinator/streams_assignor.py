"""The streams group's task assignor: a deterministic sticky one, as Kafka 4.4's default
"sticky" assignor (streams/assignor/StickyTaskAssignor) in what it promises, not in its steps.

Active tasks are spread so that no member has more than one more than another, and a task
stays with the member that had it in the previous target while that keeps the balance.
Standby tasks (num.standby.replicas per stateful task: one of a subtopology with state
stores, as Kafka assigns them) go to members of other processes than the task's active one
and its other standbys, fewest tasks first, previous holders preferred;
a standby that has no such member is left out, as Kafka does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from josefk.coordinator.streams_group import Task, Tasks, task_list

STICKY = "sticky"


@dataclass(frozen=True)
class AssignmentMember:
    process_id: str
    previous: Tasks  # its tasks in the previous target assignment


def _as_tasks(active: list[Task], standby: list[Task]) -> Tasks:
    def grouped(tasks: list[Task]) -> dict[str, frozenset[int]]:
        out: dict[str, set[int]] = {}
        for s, p in tasks:
            out.setdefault(s, set()).add(p)
        return {s: frozenset(ps) for s, ps in out.items()}
    return Tasks(grouped(active), grouped(standby))


def assign(members: Mapping[str, AssignmentMember], task_counts: Mapping[str, int],
           num_standby_replicas: int, stateful: frozenset[str] = frozenset()) -> dict[str, Tasks]:
    """The target assignment of every member; `stateful`: the subtopologies with state."""
    if not members:
        return {}
    tasks = [(s, p) for s in sorted(task_counts) for p in range(task_counts[s])]
    order = sorted(members)
    base, extra = divmod(len(tasks), len(order))
    active: dict[str, list[Task]] = {m: [] for m in order}
    owner: dict[Task, str] = {}
    valid = set(tasks)
    # Sticky: each member keeps its previous tasks up to its share.
    for m in order:
        kept = [t for t in task_list(members[m].previous.active) if t in valid and t not in owner]
        share = base + (1 if extra > 0 and len(kept) > base else 0)
        if share > base:
            extra -= 1
        for t in kept[:share]:
            active[m].append(t)
            owner[t] = m
    for t in tasks:
        if t in owner:
            continue
        open_members = [m for m in order if len(active[m]) < base or (len(active[m]) == base and extra > 0)]
        m = min(open_members, key=lambda m: (len(active[m]), m))
        if len(active[m]) == base:
            extra -= 1
        active[m].append(t)
        owner[t] = m
    standby: dict[str, list[Task]] = {m: [] for m in order}
    for _ in range(num_standby_replicas):
        for t in (t for t in tasks if t[0] in stateful):
            busy = {members[owner[t]].process_id} | {members[m].process_id for m in order if t in standby[m]}
            free = [m for m in order if members[m].process_id not in busy]
            if not free:
                continue
            m = min(free, key=lambda m: (t not in set(task_list(members[m].previous.standby)),
                                         len(active[m]) + len(standby[m]), m))
            standby[m].append(t)
    return {m: _as_tasks(active[m], standby[m]) for m in order}
