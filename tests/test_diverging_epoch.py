"""A leader tells a follower where its log diverged (Fetch v12+, KIP-320): Kafka 3.9
followers truncate on this answer alone, so a josefk leader must give it."""

from __future__ import annotations

from pathlib import Path

from josefk.controller.state import PartitionState
from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.partition import FetchIsolation, Partition
from josefk.utils.mock_time import MockTime


class NoIsrChanges:
    def submit(self, partition: Partition, new_isr: list[int]) -> None:
        raise AssertionError("no ISR change expected")


def leader_with_epochs(tmp_path: Path) -> Partition:
    """Epoch 1 holds offsets 0-4, epoch 3 offsets 5-7 (epoch 2 never wrote here)."""
    time = MockTime()
    partition = Partition("t", 0, 1, Log(tmp_path / "t-0", LogConfig(), time=time), NoIsrChanges(), time)
    for epoch, count in ((1, 5), (3, 3)):
        partition.make_leader(PartitionState("t", 0, 1, epoch, [1, 2], [1, 2], 1))
        now = time.milliseconds()
        partition.append_as_leader(build_batch([Record(i, now, None, b"v") for i in range(count)]), 1, now)
    return partition


def test_a_follower_ahead_in_an_epoch_is_told_where_that_epoch_ends(tmp_path: Path) -> None:
    partition = leader_with_epochs(tmp_path)
    assert partition.diverging_epoch(1, 6) == (1, 5)  # it has epoch-1 records past where epoch 1 ended here
    assert partition.diverging_epoch(2, 7) == (1, 5)  # an epoch this leader never had: back to epoch 1's end
    read = partition.read(6, 1 << 20, FetchIsolation.LOG_END, True, last_fetched_epoch=1)
    assert read.regions == [] and read.diverging_epoch == (1, 5)


def test_a_follower_on_the_leaders_history_reads_on(tmp_path: Path) -> None:
    partition = leader_with_epochs(tmp_path)
    assert partition.diverging_epoch(1, 5) is None  # exactly at the end of epoch 1
    assert partition.diverging_epoch(3, 8) is None
    assert partition.diverging_epoch(-1, 3) is None  # no epoch given (before v12): nothing to check
    read = partition.read(5, 1 << 20, FetchIsolation.LOG_END, True, last_fetched_epoch=1)
    assert read.diverging_epoch is None and read.size > 0
