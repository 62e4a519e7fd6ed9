"""The server-side assignors of KIP-848 consumer groups: balance, determinism, stickiness."""

from __future__ import annotations

import uuid

from josefk.coordinator.consumer_assignors import AssignmentMember, RangeAssignor, UniformAssignor

A = uuid.UUID(int=1)
B = uuid.UUID(int=2)


def member(*topics: uuid.UUID, current: dict[uuid.UUID, frozenset[int]] | None = None) -> AssignmentMember:
    return AssignmentMember(frozenset(topics), current or {})


def counts(result: dict[str, dict[uuid.UUID, frozenset[int]]]) -> dict[str, int]:
    return {m: sum(len(ps) for ps in a.values()) for m, a in result.items()}


def covered(result: dict[str, dict[uuid.UUID, frozenset[int]]]) -> list[tuple[uuid.UUID, int]]:
    return sorted((t, p) for a in result.values() for t, ps in a.items() for p in ps)


def test_uniform_balances_and_covers_every_partition_once() -> None:
    result = UniformAssignor().assign({m: member(A, B) for m in ("m1", "m2", "m3")}, {A: 4, B: 3})
    assert sorted(counts(result).values()) == [2, 2, 3]
    assert covered(result) == sorted([(A, p) for p in range(4)] + [(B, p) for p in range(3)])


def test_uniform_is_sticky_when_a_member_joins() -> None:
    before = UniformAssignor().assign({"m1": member(A), "m2": member(A)}, {A: 6})
    members = {m: member(A, current=before[m]) for m in before} | {"m3": member(A)}
    after = UniformAssignor().assign(members, {A: 6})
    assert counts(after) == {"m1": 2, "m2": 2, "m3": 2}
    assert after["m1"][A] <= before["m1"][A] and after["m2"][A] <= before["m2"][A]  # only moves to m3


def test_uniform_with_different_subscriptions() -> None:
    result = UniformAssignor().assign({"m1": member(A), "m2": member(A, B)}, {A: 4, B: 2})
    assert result["m1"] == {A: frozenset(range(4))} or counts(result)["m1"] >= 3
    assert result["m2"].get(B) == frozenset({0, 1})
    assert covered(result) == sorted([(A, p) for p in range(4)] + [(B, 0), (B, 1)])


def test_assignors_are_deterministic_whatever_the_member_order() -> None:
    for assignor in (UniformAssignor(), RangeAssignor()):
        one = assignor.assign({"x": member(A), "y": member(A), "z": member(A)}, {A: 7})
        two = assignor.assign({"z": member(A), "x": member(A), "y": member(A)}, {A: 7})
        assert one == two


def test_range_gives_contiguous_ranges_per_topic_in_member_order() -> None:
    result = RangeAssignor().assign({"m1": member(A, B), "m2": member(A, B)}, {A: 3, B: 3})
    assert result == {"m1": {A: frozenset({0, 1}), B: frozenset({0, 1})}, "m2": {A: frozenset({2}), B: frozenset({2})}}


def test_range_keeps_what_a_member_had_within_its_share() -> None:
    result = RangeAssignor().assign({"m1": member(A, current={A: frozenset({2, 3})}), "m2": member(A)}, {A: 4})
    assert result == {"m1": {A: frozenset({2, 3})}, "m2": {A: frozenset({0, 1})}}
