"""What consumer, share and streams groups share (coordinator/modern_group.py), under
MockTime: member timers that replace each other, the epoch fencing rule, and offset expiry.
The three coordinators' own tests cover these through their heartbeats; these pin the
shared pieces one by one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from josefk.coordinator.consumer_group import ConsumerGroup, ConsumerGroupMember
from josefk.coordinator.group_metadata import OffsetAndMetadata
from josefk.coordinator.modern_group import MemberTimers, expire_offsets, fenced_epoch
from josefk.protocol.errors import ErrorCode
from josefk.utils.mock_time import MockScheduler, MockTime


def test_a_member_timer_replaces_its_last_and_forgets_itself_when_it_fires() -> None:
    time = MockTime()
    timers = MemberTimers(MockScheduler(time))
    fired: list[str] = []
    timers.schedule("g", "a", 100, lambda: fired.append("first"))
    time.sleep(50)
    timers.schedule("g", "a", 100, lambda: fired.append("second"))  # a heartbeat restarts it
    time.sleep(60)
    assert fired == [] and ("g", "a") in timers
    time.sleep(40)
    assert fired == ["second"] and ("g", "a") not in timers


def test_member_timers_cancel_one_member_or_a_whole_group() -> None:
    time = MockTime()
    timers = MemberTimers(MockScheduler(time))
    fired: list[tuple[str, str]] = []

    def on_expiry(group: str, member: str) -> Callable[[], None]:
        return lambda: fired.append((group, member))

    for group, member in (("g", "a"), ("g", "b"), ("h", "a")):
        timers.schedule(group, member, 100, on_expiry(group, member))
    timers.cancel("g", "a")
    timers.cancel("g", "nobody")  # no timer: nothing to do
    timers.cancel_group("h")
    time.sleep(100)
    assert fired == [("g", "b")]


@dataclass(frozen=True)
class _Member:
    member_id: str
    member_epoch: int


def test_an_epoch_ahead_or_behind_by_more_than_a_lost_response_is_fenced() -> None:
    member = _Member("m", 5)
    assert fenced_epoch("share", 5, member, previous_epoch=4) is None
    assert fenced_epoch("share", 4, member, previous_epoch=4) is None  # its last response was lost
    assert fenced_epoch("consumer", 4, member, previous_epoch=4, owns_only_assigned=lambda: False) == (
        "The consumer group member has a smaller member epoch (4) than the one known by the group "
        "coordinator (5). The member must abandon all its partitions and rejoin.")
    assert fenced_epoch("streams", 6, member, previous_epoch=4) == (
        "The streams group member has a greater member epoch (6) than the one known by the group "
        "coordinator (5). The member must abandon all its partitions and rejoin.")
    assert fenced_epoch("share", 3, member, previous_epoch=4) is not None


class _Store:
    def __init__(self, error: ErrorCode = ErrorCode.NONE) -> None:
        self.error = error
        self.tombstones: list[tuple[str, list[tuple[str, int]], bool]] = []

    def store_offsets(self, group_id: str, offsets: object, done: object) -> None:
        raise AssertionError("expiry writes tombstones only")

    def write_tombstones(self, group_id: str, partitions: list[tuple[str, int]], group: bool) -> ErrorCode:
        self.tombstones.append((group_id, partitions, group))
        return self.error


def _group(commits: dict[tuple[str, int], int], members: int = 0) -> ConsumerGroup:
    group = ConsumerGroup("g", MockTime())
    for tp, ts in commits.items():
        group.offsets[tp] = OffsetAndMetadata(1, -1, "", ts, None)
    for i in range(members):
        group.update_member(ConsumerGroupMember(f"m{i}"))
    return group


def test_offsets_expire_after_retention_unless_subscribed_and_an_empty_group_goes_with_its_last() -> None:
    store = _Store()
    group = _group({("t", 0): 0, ("u", 0): 0, ("t", 1): 900}, members=1)
    assert expire_offsets(store, group, 1000, 500, {"u"}, lambda: ErrorCode.NONE) == (1, False)
    assert store.tombstones == [("g", [("t", 0)], False)] and set(group.offsets) == {("u", 0), ("t", 1)}
    empty = _group({("t", 0): 0})
    deleted: list[str] = []

    def delete_records() -> ErrorCode:
        deleted.append("records")
        return ErrorCode.NONE

    assert expire_offsets(store, empty, 1000, 500, (), delete_records) == (1, True)
    assert deleted == ["records"] and not empty.offsets


def test_a_failed_tombstone_write_expires_nothing() -> None:
    group = _group({("t", 0): 0})
    assert expire_offsets(_Store(ErrorCode.NOT_COORDINATOR), group, 1000, 500, (), lambda: ErrorCode.NONE) == (
        0, False)
    assert set(group.offsets) == {("t", 0)}
