"""LeaderEpochFileCache: Kafka's checkpoint format, assign rules, end_offset_for, and the
Log hooks (leader and follower appends, truncation, log start offset, reload)."""

from __future__ import annotations

from pathlib import Path

import pytest

from josefk.log.checkpoint import CorruptCheckpointError
from josefk.log.config import LogConfig
from josefk.log.leader_epoch import LEADER_EPOCH_CHECKPOINT, LeaderEpochFileCache, read_leader_epoch_checkpoint
from josefk.log.log import Log
from josefk.protocol.record_codec import Record, build_batch


def batch(n: int = 2, base_offset: int = 0, epoch: int = -1) -> bytes:
    return build_batch([Record(base_offset + i, 1000 + i, b"k", b"v" * 20) for i in range(n)],
                       base_offset=base_offset, partition_leader_epoch=epoch)


def test_file_format_and_reload(tmp_path: Path) -> None:
    cache = LeaderEpochFileCache(tmp_path)
    cache.assign(0, 0)
    cache.assign(0, 5)  # same epoch, later offset: no change
    cache.assign(3, 10)
    assert (tmp_path / LEADER_EPOCH_CHECKPOINT).read_text() == "0\n2\n0 0\n3 10\n"
    assert LeaderEpochFileCache(tmp_path).entries() == [(0, 0), (3, 10)]
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("text", ["", "0\n"])
def test_an_empty_checkpoint_as_kafka_creates_it_is_read_without_complaint(tmp_path: Path, text: str,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    """Kafka 3.9 creates leader-epoch-checkpoint empty for a partition with no epoch yet
    (a __consumer_offsets partition nobody wrote): no entries, not an unreadable file."""
    (tmp_path / LEADER_EPOCH_CHECKPOINT).write_text(text)
    assert read_leader_epoch_checkpoint(tmp_path / LEADER_EPOCH_CHECKPOINT) == []
    assert LeaderEpochFileCache(tmp_path).entries() == []
    assert "Ignoring unreadable" not in caplog.text
    (tmp_path / LEADER_EPOCH_CHECKPOINT).write_text("1\n0\n")
    with pytest.raises(CorruptCheckpointError):
        read_leader_epoch_checkpoint(tmp_path / LEADER_EPOCH_CHECKPOINT)


def test_assign_removes_conflicting_entries(tmp_path: Path) -> None:
    cache = LeaderEpochFileCache(tmp_path)
    for epoch, offset in [(1, 0), (2, 10), (4, 20)]:
        cache.assign(epoch, offset)
    cache.assign(3, 15)  # epoch 4 at 20 conflicts (higher epoch)
    assert cache.entries() == [(1, 0), (2, 10), (3, 15)]
    cache.assign(5, 12)  # offset 15 >= 12 conflicts
    assert cache.entries() == [(1, 0), (2, 10), (5, 12)]
    cache.assign(-1, 30)  # undefined epochs (old message formats) are ignored
    assert cache.latest_epoch == 5 and cache.epoch_for_offset(11) == 2 and cache.epoch_for_offset(13) == 5


def test_end_offset_for(tmp_path: Path) -> None:
    cache = LeaderEpochFileCache(tmp_path)
    assert cache.end_offset_for(0, 100) == (-1, -1)
    for epoch, offset in [(1, 5), (3, 20), (6, 40)]:
        cache.assign(epoch, offset)
    assert cache.end_offset_for(6, 100) == (6, 100)  # latest: the log end offset
    assert cache.end_offset_for(1, 100) == (1, 20)
    assert cache.end_offset_for(2, 100) == (1, 20)  # unknown epoch between: floor epoch, next start
    assert cache.end_offset_for(4, 100) == (3, 40)
    assert cache.end_offset_for(0, 100) == (0, 5)  # below every entry: first start offset
    assert cache.end_offset_for(7, 100) == (-1, -1)
    assert cache.end_offset_for(-1, 100) == (-1, -1)


def test_truncation(tmp_path: Path) -> None:
    cache = LeaderEpochFileCache(tmp_path)
    for epoch, offset in [(1, 0), (2, 10), (3, 20)]:
        cache.assign(epoch, offset)
    cache.truncate_from_end(20)
    assert cache.entries() == [(1, 0), (2, 10)]
    cache.truncate_from_end(50)
    assert cache.entries() == [(1, 0), (2, 10)]
    cache.truncate_from_start(12)
    assert cache.entries() == [(2, 12)]
    cache.truncate_from_start(5)
    assert cache.entries() == [(2, 12)]
    cache.clear()
    assert cache.entries() == [] and LeaderEpochFileCache(tmp_path).entries() == []


def test_log_keeps_the_cache(tmp_path: Path) -> None:
    cfg = LogConfig(segment_bytes=300)
    log = Log(tmp_path / "t-0", cfg)
    log.append_as_leader(batch(3), leader_epoch=0)
    log.append_as_leader(batch(3), leader_epoch=0)
    log.append_as_leader(batch(3), leader_epoch=2)
    log.append_as_leader(batch(3), leader_epoch=5)
    assert log.leader_epoch_cache.entries() == [(0, 0), (2, 6), (5, 9)]
    assert log.leader_epoch_cache.end_offset_for(2, log.log_end_offset) == (2, 9)
    assert log.leader_epoch_cache.end_offset_for(5, log.log_end_offset) == (5, 12)
    log.truncate_to(8)  # the batch 6..8 goes whole
    assert log.log_end_offset == 6
    assert log.leader_epoch_cache.entries() == [(0, 0)]
    log.append_as_leader(batch(3), leader_epoch=7)
    assert len(log.segments) > 1
    log.maybe_increment_log_start_offset(4)
    assert log.leader_epoch_cache.entries() == [(0, 4), (7, 6)]
    log.close()
    reopened = Log(tmp_path / "t-0", cfg, log_start_offset=4)
    assert reopened.leader_epoch_cache.entries() == [(0, 4), (7, 6)]
    reopened.truncate_fully_and_start_at(100)
    assert reopened.leader_epoch_cache.entries() == []
    reopened.close()


def test_follower_appends_take_the_batch_epochs(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_follower(batch(2, 0, epoch=1) + batch(2, 2, epoch=1) + batch(3, 4, epoch=4))
    assert log.leader_epoch_cache.entries() == [(1, 0), (4, 4)]
    log.close()


def test_reload_drops_entries_past_the_log_end(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(batch(2), leader_epoch=1)
    log.close()
    (tmp_path / "t-0" / LEADER_EPOCH_CHECKPOINT).write_text("0\n2\n1 0\n2 50\n")  # epoch 2 data lost
    log = Log(tmp_path / "t-0", LogConfig())
    assert log.leader_epoch_cache.entries() == [(1, 0)]
    log.close()
