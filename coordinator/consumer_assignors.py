"""Server-side assignors of KIP-848 consumer groups: `uniform` (the default) and `range`.

The coordinator computes each member's target assignment itself (no leader member). Both
assignors are deterministic (the same input gives the same output, whatever the dict
order) and sticky: a member keeps the partitions it was assigned while that stays within
its fair share, so a rebalance moves as few partitions as it can (Kafka's UniformAssignor
and RangeAssignor in group-coordinator/.../assignor).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

TopicId = uuid.UUID
Assignment = dict[TopicId, frozenset[int]]


@dataclass(frozen=True)
class AssignmentMember:
    """What an assignor sees of a member: its subscribed topics (by id, only those that
    exist) and its current target assignment, for stickiness."""

    subscribed: frozenset[TopicId]
    current: Mapping[TopicId, frozenset[int]]


class ConsumerGroupAssignor(Protocol):
    name: str

    def assign(self, members: Mapping[str, AssignmentMember], partitions: Mapping[TopicId, int]
               ) -> dict[str, Assignment]:
        """The target assignment of every member; `partitions` is each topic's partition count."""
        ...


def _freeze(assigned: dict[str, set[tuple[TopicId, int]]]) -> dict[str, Assignment]:
    out: dict[str, Assignment] = {}
    for member_id, tps in assigned.items():
        by_topic: dict[TopicId, set[int]] = {}
        for topic_id, p in tps:
            by_topic.setdefault(topic_id, set()).add(p)
        out[member_id] = {t: frozenset(ps) for t, ps in by_topic.items()}
    return out


class UniformAssignor:
    """Spreads every subscribed partition so that no member holds more than one partition
    more than any other member that could take it; kept partitions stay put."""

    name = "uniform"

    def assign(self, members: Mapping[str, AssignmentMember], partitions: Mapping[TopicId, int]
               ) -> dict[str, Assignment]:
        order = sorted(members)
        assigned: dict[str, set[tuple[TopicId, int]]] = {m: set() for m in order}
        owner: dict[tuple[TopicId, int], str] = {}
        for m in order:  # stickiness: keep what is still valid
            member = members[m]
            for topic_id in sorted(member.current):
                if topic_id not in member.subscribed or topic_id not in partitions:
                    continue
                for p in sorted(member.current[topic_id]):
                    if p < partitions[topic_id] and (topic_id, p) not in owner:
                        owner[(topic_id, p)] = m
                        assigned[m].add((topic_id, p))
        eligible = {t: [m for m in order if t in members[m].subscribed] for t in sorted(partitions)}
        every = [(t, p) for t in sorted(partitions) if eligible[t] for p in range(partitions[t])]
        for tp in every:
            if tp not in owner:
                target = min(eligible[tp[0]], key=lambda m: (len(assigned[m]), order.index(m)))
                owner[tp] = target
                assigned[target].add(tp)
        moved = True
        while moved:  # move from overloaded members to those with two fewer that may take it
            moved = False
            for tp in every:
                current = owner[tp]
                load = len(assigned[current])
                takers = [m for m in eligible[tp[0]] if len(assigned[m]) < load - 1]
                if takers:
                    target = min(takers, key=lambda m: (len(assigned[m]), order.index(m)))
                    assigned[current].discard(tp)
                    assigned[target].add(tp)
                    owner[tp] = target
                    moved = True
        return _freeze(assigned)


class RangeAssignor:
    """Per topic, each subscribed member (in member id order) gets a share of
    partitions // members, the first partitions % members one more; a member first keeps
    the partitions it had, up to its share, then the rest are handed out in order."""

    name = "range"

    def assign(self, members: Mapping[str, AssignmentMember], partitions: Mapping[TopicId, int]
               ) -> dict[str, Assignment]:
        order = sorted(members)
        assigned: dict[str, set[tuple[TopicId, int]]] = {m: set() for m in order}
        for topic_id in sorted(partitions):
            subscribers = [m for m in order if topic_id in members[m].subscribed]
            if not subscribers:
                continue
            count = partitions[topic_id]
            base, extra = divmod(count, len(subscribers))
            quota = {m: base + (1 if i < extra else 0) for i, m in enumerate(subscribers)}
            taken: set[int] = set()
            for m in subscribers:
                kept = sorted(p for p in members[m].current.get(topic_id, ()) if p < count)[:quota[m]]
                for p in kept:
                    taken.add(p)
                    assigned[m].add((topic_id, p))
            free = iter(p for p in range(count) if p not in taken)
            for m in subscribers:
                while sum(1 for t, _ in assigned[m] if t == topic_id) < quota[m]:
                    assigned[m].add((topic_id, next(free)))
        return _freeze(assigned)


ASSIGNORS: dict[str, ConsumerGroupAssignor] = {a.name: a for a in (UniformAssignor(), RangeAssignor())}
DEFAULT_ASSIGNORS = "uniform,range"


def assignor_name(configured: str) -> str:
    """group.consumer.assignors takes Kafka's class names or the short names."""
    short = configured.strip().rsplit(".", 1)[-1]
    return {"UniformAssignor": "uniform", "RangeAssignor": "range"}.get(short, short)
