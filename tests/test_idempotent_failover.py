"""An idempotent producer's retries after its partition leader died (josefk issue 27).

The old leader appended batches it never acknowledged; a follower replicated them through
the real follower append and then became leader, perhaps after a kill -9 and a reload from
disk, perhaps after truncating a divergent tail. The producer retries the same batches with
the same sequence numbers, maybe batched differently. As Kafka's ProducerStateManager does,
the new leader must answer a retry of a batch it holds with that batch's offsets (a
duplicate) or OUT_OF_ORDER_SEQUENCE_NUMBER, and never write it again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol.errors import KafkaError
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.partition import Partition
from josefk.zk.zk_data import PartitionState

TOPIC = "t"
PID, EPOCH = 4000, 0
REPLICAS = [1, 2, 3]


class NoIsrChanges:
    def submit(self, partition: Partition, new_isr: list[int]) -> None:
        raise AssertionError(f"no ISR change expected, got {new_isr}")


def batch(first_seq: int, count: int = 1) -> bytes:
    """One batch of the producer's records `first_seq` .. `first_seq + count - 1`."""
    return build_batch([Record(i, 1_000 + first_seq + i, None, b"r%d" % (first_seq + i)) for i in range(count)],
                       producer_id=PID, producer_epoch=EPOCH, base_sequence=first_seq)


def replica(root: Path, broker: int, config: LogConfig) -> Partition:
    return Partition(TOPIC, 0, broker, Log(root / f"broker-{broker}" / f"{TOPIC}-0", config), NoIsrChanges())


def state(leader: int, epoch: int) -> PartitionState:
    return PartitionState(TOPIC, 0, leader, epoch, list(REPLICAS), list(REPLICAS), 1)


def replicate(leader: Partition, follower: Partition, up_to: int) -> None:
    """The follower fetches from its log end up to `up_to`, a batch at a time (so a small
    segment.bytes rolls its segments, writing producer snapshots), and appends as a follower does."""
    while follower.log.log_end_offset < up_to:
        read = leader.log.read(follower.log.log_end_offset, 1, max_offset=up_to)
        follower.append_as_follower(b"".join(r.read_bytes() for r in read.regions), leader.high_watermark)


def retry(partition: Partition, records: bytes) -> str:
    """What the leader does with a producer's retry: 'duplicate of A-B', an error, or 'appended at N'."""
    end = partition.log.log_end_offset
    try:
        info = partition.append_as_leader(records, -1, 0)
    except KafkaError as e:
        assert partition.log.log_end_offset == end
        return e.code.name
    if info.duplicate:
        assert partition.log.log_end_offset == end
        return f"duplicate of {info.first_offset}-{info.last_offset}"
    return f"appended at {info.first_offset}"


def old_leader_with_unacknowledged_batches(root: Path, config: LogConfig, count: int) -> Partition:
    """Broker 1 leads at epoch 1 and appends `count` one-record batches (sequences 0..count-1)."""
    leader = replica(root, 1, config)
    leader.make_leader(state(1, 1))
    for seq in range(count):
        leader.append_as_leader(batch(seq), -1, 0)
    return leader


@pytest.mark.parametrize("segment_bytes", [1 << 20, 200], ids=["one-segment", "rolling-with-snapshots"])
def test_follower_made_leader_answers_each_retry_as_the_batch_it_replicated(tmp_path: Path,
                                                                              segment_bytes: int) -> None:
    config = LogConfig.from_props({"segment.bytes": str(segment_bytes)})
    old = old_leader_with_unacknowledged_batches(tmp_path, config, 5)
    new = replica(tmp_path, 2, config)
    new.make_follower(state(1, 1))
    replicate(old, new, 5)

    new.make_leader(state(2, 2))  # broker 1 was killed before acknowledging anything

    assert [retry(new, batch(seq)) for seq in range(5)] == [f"duplicate of {s}-{s}" for s in range(5)]
    assert retry(new, batch(0, 5)) == "OUT_OF_ORDER_SEQUENCE_NUMBER"  # the same records in one batch
    assert retry(new, batch(3, 2)) == "OUT_OF_ORDER_SEQUENCE_NUMBER"  # a batch from inside the range
    assert retry(new, batch(5)) == "appended at 5"  # the producer's next record follows


@pytest.mark.parametrize("segment_bytes", [1 << 20, 200], ids=["one-segment", "rolling-with-snapshots"])
def test_follower_killed_and_reloaded_then_made_leader_never_appends_a_retry(tmp_path: Path,
                                                                             segment_bytes: int) -> None:
    config = LogConfig.from_props({"segment.bytes": str(segment_bytes)})
    old = old_leader_with_unacknowledged_batches(tmp_path, config, 5)
    follower = replica(tmp_path, 2, config)
    follower.make_follower(state(1, 1))
    replicate(old, follower, 5)
    follower.log.close_handlers()  # kill -9: no clean-shutdown snapshot, nothing but what is on disk

    reloaded = Partition(TOPIC, 0, 2, Log(follower.log.dir, config, recovery_point=0, clean_shutdown=False),
                         NoIsrChanges())
    assert reloaded.log.log_end_offset == 5
    reloaded.make_leader(state(2, 2))

    outcomes = [retry(reloaded, batch(seq)) for seq in range(5)]
    assert outcomes[-1] == "duplicate of 4-4"  # a snapshot keeps at least the last batch, as Kafka's
    assert all(o.startswith("duplicate") or o == "OUT_OF_ORDER_SEQUENCE_NUMBER" for o in outcomes), outcomes
    assert retry(reloaded, batch(0, 5)) == "OUT_OF_ORDER_SEQUENCE_NUMBER"
    assert reloaded.log.log_end_offset == 5


def test_follower_that_truncated_a_divergent_tail_takes_only_what_it_dropped(tmp_path: Path) -> None:
    """Broker 2 replicated seven batches from broker 1; broker 3, with five, became leader at
    epoch 2 and wrote nothing; broker 2 truncates to it, then leads at epoch 3."""
    config = LogConfig()
    old = old_leader_with_unacknowledged_batches(tmp_path, config, 7)
    ahead, behind = replica(tmp_path, 2, config), replica(tmp_path, 3, config)
    for follower, end in ((ahead, 7), (behind, 5)):
        follower.make_follower(state(1, 1))
        replicate(old, follower, end)
    behind.make_leader(state(3, 2))
    ahead.make_follower(state(3, 2))
    epoch, end = behind.last_offset_for_leader_epoch(1)
    assert ahead.truncate_to_leader(epoch, end) and ahead.log.log_end_offset == 5

    ahead.make_leader(state(2, 3))

    assert [retry(ahead, batch(seq)) for seq in range(5)] == [f"duplicate of {s}-{s}" for s in range(5)]
    assert retry(ahead, batch(5, 2)) == "appended at 5"  # the dropped batches, retried together
