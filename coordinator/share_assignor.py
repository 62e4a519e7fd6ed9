"""The `simple` share group assignor (Kafka 4.4's SimpleAssignor, the only one share groups have).

Share groups hand a partition to several members at once: the share partition on the
leader gives each fetching member its own records under acquisition locks, so sharing is
safe. The assignor spreads the subscribed partitions over the members so that every
partition is shared by at most ceil(members / partitions) members and every member holds
about the same number of partitions; balance first, then stickiness (a member keeps what it
has while that stays balanced). Deterministic: the same input gives the same output.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from josefk.coordinator.consumer_assignors import Assignment, AssignmentMember, TopicId

SIMPLE_ASSIGNOR = "simple"

TopicPartition = tuple[TopicId, int]


def _desired_counts(members: list[str], slots: int) -> dict[str, int]:
    """`slots` partition assignments spread over the members, the first ones taking the remainder."""
    base, extra = divmod(slots, len(members))
    return {m: base + (1 if i < extra else 0) for i, m in enumerate(members)}


def assign_simple(members: Mapping[str, AssignmentMember], partitions: Mapping[TopicId, int],
                  assignable: Mapping[TopicId, AbstractSet[int]] | None = None) -> dict[str, Assignment]:
    """Every member's target assignment; `partitions` is each topic's partition count, of
    which only the `assignable` ones (when given: those with share state) are assigned."""
    order = sorted(members)
    subscribed = set().union(*(m.subscribed for m in members.values())) if members else set()
    targets: list[TopicPartition] = sorted(((t, p) for t in subscribed if t in partitions
                                            for p in range(partitions[t])
                                            if assignable is None or p in assignable.get(t, ())),
                                           key=lambda tp: (str(tp[0]), tp[1]))
    held: dict[str, set[TopicPartition]] = {m: set() for m in order}
    if not order or not targets:
        return {m: {} for m in order}
    sharing = -(-len(order) // len(targets))  # ceil(members / partitions)
    desired = _desired_counts(order, sharing * len(targets))
    sharers: dict[TopicPartition, list[str]] = {tp: [] for tp in targets}
    for m in order:  # stickiness: keep what is still subscribed, within both limits
        current = members[m].current
        for tp in sorted(((t, p) for t, ps in current.items() for p in ps), key=lambda tp: (str(tp[0]), tp[1])):
            if (tp in sharers and tp[0] in members[m].subscribed and len(held[m]) < desired[m]
                    and len(sharers[tp]) < sharing):
                held[m].add(tp)
                sharers[tp].append(m)
    for tp in sorted(targets, key=lambda tp: len(sharers[tp])):  # the least shared first
        eligible = [m for m in order if tp[0] in members[m].subscribed and tp not in held[m]]
        while len(sharers[tp]) < sharing and eligible:
            # the member with the most room left; past everyone's share only to give the partition an owner
            room = [m for m in eligible if len(held[m]) < desired[m]]
            if not room and sharers[tp]:
                break
            pick = min(room or eligible, key=lambda m: (len(held[m]) - desired[m], order.index(m)))
            held[pick].add(tp)
            sharers[tp].append(pick)
            eligible.remove(pick)
    out: dict[str, Assignment] = {}
    for m in order:
        by_topic: dict[TopicId, set[int]] = {}
        for t, p in held[m]:
            by_topic.setdefault(t, set()).add(p)
        out[m] = {t: frozenset(ps) for t, ps in by_topic.items()}
    return out
