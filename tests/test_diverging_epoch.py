"""A leader tells a follower where its log diverged (Fetch v12+, KIP-320): Kafka 3.9
followers truncate on this answer alone, so a josefk leader must give it."""

from __future__ import annotations

from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_all
from josefk.replication.partition import FetchIsolation, Partition
from josefk.utils.mock_time import MockTime
from josefk.zk.zk_data import PartitionState


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


def test_a_follower_the_leader_cannot_place_is_out_of_range(tmp_path: Path) -> None:
    """Kafka's Partition.readRecords answers OFFSET_OUT_OF_RANGE when it cannot say where
    the follower's last epoch ends (newer than all of its own) or the fetch offset is below
    its log start; a Kafka follower then truncates to the leader's log end or starts over at
    its log start. A diverging epoch of -1 it would not take for a divergence at all."""
    partition = leader_with_epochs(tmp_path)
    with pytest.raises(KafkaError) as newer:
        partition.read(8, 1 << 20, FetchIsolation.LOG_END, True, last_fetched_epoch=4)
    partition.high_watermark = 8
    partition.delete_records_before(5)
    with pytest.raises(KafkaError) as below_start:
        partition.read(3, 1 << 20, FetchIsolation.LOG_END, True, last_fetched_epoch=1)
    assert newer.value.code == below_start.value.code == ErrorCode.OFFSET_OUT_OF_RANGE


def follower_with_epochs(tmp_path: Path, epochs: tuple[tuple[int, int], ...]) -> Partition:
    """A follower whose log holds `count` records of each `(epoch, count)`, in order, one
    batch each (a log truncates at batch boundaries)."""
    time = MockTime()
    partition = Partition("t", 0, 2, Log(tmp_path / "f-0", LogConfig(), time=time), NoIsrChanges(), time)
    offset = 0
    for epoch, count in epochs:
        for _ in range(count):
            partition.log.append_as_follower(build_batch([Record(offset, 0, None, b"%d" % offset)],
                                                         base_offset=offset, partition_leader_epoch=epoch))
            offset += 1
    return partition


def values(partition: Partition) -> list[bytes | None]:
    return [r.value for r in decode_all(partition.log.read(0, 1 << 20).read_bytes())]


def test_a_follower_truncates_to_the_end_of_the_epoch_both_logs_had(tmp_path: Path) -> None:
    """Kafka's getOffsetTruncationState: the leader's epoch is ours too, so truncate to the
    smaller of where it ends on the leader and here."""
    follower = follower_with_epochs(tmp_path, ((1, 5), (2, 5)))
    assert follower.truncate_to_leader(1, 7) is True  # our epoch 1 ends at 5: the smaller
    assert follower.log.log_end_offset == 5 and values(follower) == [b"%d" % i for i in range(5)]
    assert follower.truncate_to_leader(1, 3) is True
    assert follower.log.log_end_offset == 3 and follower.log.leader_epoch_cache.latest_epoch == 1


def test_a_follower_that_never_had_the_leaders_epoch_truncates_further_and_asks_again(tmp_path: Path) -> None:
    """The leader's epoch 2 is unknown here: truncate to where our largest epoch below it (1)
    ends, and report the truncation incomplete, so the next fetch carries epoch 1."""
    follower = follower_with_epochs(tmp_path, ((1, 4), (3, 4)))
    assert follower.truncate_to_leader(2, 6) is False
    assert follower.log.log_end_offset == 4 and follower.log.leader_epoch_cache.latest_epoch == 1
    assert values(follower) == [b"0", b"1", b"2", b"3"]


def test_a_leader_without_the_epoch_leaves_the_high_watermark(tmp_path: Path) -> None:
    follower = follower_with_epochs(tmp_path, ((1, 6),))
    follower.high_watermark = 2
    assert follower.truncate_to_leader(-1, -1) is True  # end offset -1: no such epoch on the leader
    assert follower.log.log_end_offset == 2


def test_a_follower_drops_the_epoch_it_led_without_writing(tmp_path: Path) -> None:
    """Elected at epoch 3, this replica wrote nothing before the leadership moved on (epoch
    4, to a replica that never saw epoch 3): its log ends in an epoch-3 entry no other
    replica has. The leader answers the first fetch with epoch 1 ending at our log end;
    truncating there drops the entry (Kafka's UnifiedLog.truncateTo), so the next fetch
    carries epoch 1 and reads on instead of being told the same divergence forever."""
    leader = leader_with_epochs(tmp_path)  # epoch 1: offsets 0-4, epoch 3: 5-7
    leader.log.truncate_to(5)
    leader.make_leader(PartitionState("t", 0, 1, 4, [1, 2], [1, 2], 1))
    assert leader.log.leader_epoch_cache.entries() == [(1, 0), (4, 5)]
    follower = follower_with_epochs(tmp_path, ((1, 5),))
    follower.make_leader(PartitionState("t", 0, 2, 3, [1, 2], [2, 1], 1))
    follower.make_follower(PartitionState("t", 0, 1, 4, [1, 2], [1, 2], 1))
    assert follower.log.leader_epoch_cache.latest_epoch == 3
    assert leader.diverging_epoch(3, 5) == (1, 5)
    assert follower.truncate_to_leader(1, 5) is True
    assert follower.log.log_end_offset == 5 and follower.log.leader_epoch_cache.latest_epoch == 1
    assert leader.diverging_epoch(follower.log.leader_epoch_cache.latest_epoch, 5) is None
