"""Partition's ISR rules on MockTime: a follower leaves the ISR after replica.lag.time.max.ms
without a fetch that reached the leader's log end, rejoins once it fetches from the high
watermark, and the high watermark is the smallest log end offset in the ISR.

tests/test_replication_faults.py covers the same rules through the ReplicaManager and the
store (pending changes, acks=all); these pin the thresholds on one Partition, with the
ISR changes it sends recorded instead of written."""

from __future__ import annotations

from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.partition import AWAIT_METADATA, Partition
from josefk.utils.mock_time import MockTime
from josefk.zk.zk_data import PartitionState

LAG_MS = 10_000


class RecordingSender:
    """IsrChangeSender that keeps what the leader asked for."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []

    def submit(self, partition: Partition, new_isr: list[int]) -> None:
        self.sent.append(new_isr)


def leader(tmp_path: Path, isr: list[int]) -> tuple[Partition, RecordingSender, MockTime]:
    time = MockTime()
    sender = RecordingSender()
    partition = Partition("t", 0, 1, Log(tmp_path / "t-0", LogConfig(), time=time), sender, time)
    partition.make_leader(PartitionState("t", 0, 1, 1, isr, [1, 2, 3], 1))
    return partition, sender, time


def append(partition: Partition, time: MockTime, n: int) -> None:
    now = time.milliseconds()
    partition.append_as_leader(build_batch([Record(i, now, None, b"v") for i in range(n)]), 1, now)


def commit(partition: Partition, sender: RecordingSender) -> None:
    """The store accepted the last change sent."""
    partition.complete_isr_change(partition.leader_epoch, sender.sent[-1], partition.zk_version + 1)


def test_a_follower_fetching_but_never_caught_up_leaves_the_isr_after_the_lag_time(tmp_path: Path) -> None:
    partition, sender, time = leader(tmp_path, [1, 2, 3])
    append(partition, time, 5)
    time.sleep(LAG_MS)
    partition.update_follower_fetch(2, 5)  # caught up with the log end
    partition.update_follower_fetch(3, 2)  # fetching, but behind
    assert partition.high_watermark == 2  # the smallest log end offset in the ISR
    partition.maybe_shrink_isr(LAG_MS)
    assert sender.sent == []  # exactly replica.lag.time.max.ms behind is not yet too long
    time.sleep(1)
    partition.update_follower_fetch(3, 4)
    partition.maybe_shrink_isr(LAG_MS)
    assert sender.sent == [[1, 2]]
    commit(partition, sender)
    assert partition.isr == [1, 2] and partition.high_watermark == 5


def test_a_follower_rejoins_the_isr_once_it_fetches_from_the_high_watermark(tmp_path: Path) -> None:
    partition, sender, time = leader(tmp_path, [1, 2])
    append(partition, time, 5)
    partition.update_follower_fetch(2, 5)
    assert partition.high_watermark == 5
    partition.update_follower_fetch(3, 4)
    assert sender.sent == []  # below the high watermark: it may lack committed records
    partition.update_follower_fetch(3, 5)
    assert sender.sent == [[1, 2, 3]]
    commit(partition, sender)
    append(partition, time, 3)
    partition.update_follower_fetch(2, 8)
    assert partition.high_watermark == 5  # now follower 3 counts too
    partition.update_follower_fetch(3, 7)
    assert partition.high_watermark == 7
    partition.update_follower_fetch(3, 8)
    assert partition.high_watermark == 8


def test_a_follower_outside_the_isr_does_not_hold_the_high_watermark(tmp_path: Path) -> None:
    partition, sender, time = leader(tmp_path, [1, 2])
    append(partition, time, 5)
    partition.update_follower_fetch(2, 3)
    assert partition.high_watermark == 3
    partition.update_follower_fetch(3, 1)
    partition.update_follower_fetch(2, 5)
    assert partition.high_watermark == 5 and sender.sent == []


@pytest.mark.parametrize("error", sorted(AWAIT_METADATA))
def test_a_change_the_controller_calls_stale_stays_pending_until_the_next_leader_and_isr(
        tmp_path: Path, error: ErrorCode) -> None:
    """Kafka's leader sends nothing more after such an answer: resent on every follower
    fetch, it flooded the controller (about 150 AlterPartition a second in a loaded CI run)."""
    partition, sender, time = leader(tmp_path, [1, 2])
    append(partition, time, 5)
    partition.update_follower_fetch(2, 5)
    partition.update_follower_fetch(3, 5)
    assert sender.sent == [[1, 2, 3]]
    partition.complete_isr_change(partition.leader_epoch, [1, 2, 3], None, error)
    for _ in range(3):
        partition.update_follower_fetch(3, 5)
    assert sender.sent == [[1, 2, 3]] and partition.isr == [1, 2]
    partition.make_leader(PartitionState("t", 0, 1, 1, [1, 2], [1, 2, 3], 1, zk_version=7))  # the latest state
    partition.update_follower_fetch(3, 5)
    assert sender.sent == [[1, 2, 3], [1, 2, 3]]


@pytest.mark.parametrize("error", [ErrorCode.INELIGIBLE_REPLICA, ErrorCode.OPERATION_NOT_ATTEMPTED,
                                   ErrorCode.NONE])
def test_a_change_refused_for_another_reason_is_sent_again_at_the_next_fetch(tmp_path: Path,
                                                                             error: ErrorCode) -> None:
    partition, sender, time = leader(tmp_path, [1, 2])
    append(partition, time, 5)
    partition.update_follower_fetch(2, 5)
    partition.update_follower_fetch(3, 5)
    partition.complete_isr_change(partition.leader_epoch, [1, 2, 3], None, error)
    partition.update_follower_fetch(3, 5)
    assert sender.sent == [[1, 2, 3], [1, 2, 3]]
