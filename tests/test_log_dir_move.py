"""Moving a replica between log dirs (AlterReplicaLogDirs): the future log's catch-up and
swap, and start-up with what a crash leaves behind (-future and -delete dirs)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from josefk.log.cleaner import LogCleaner
from josefk.log.config import LogConfig
from josefk.log.log import AppendOrigin, Log
from josefk.log.log_manager import LogManager
from josefk.protocol.control_records import encode_end_txn_marker
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_all
from josefk.replication.alter_log_dirs import LogDirMove
from josefk.utils.mock_time import MockTime

pytestmark = pytest.mark.unit

CONFIG = LogConfig(segment_bytes=2048, file_delete_delay_ms=60000)


@dataclass
class Replica:
    """The partition as the move sees it: the log it serves from."""

    log: Log


def batch(first: int, n: int = 3, pid: int = -1, seq: int = -1) -> bytes:
    return build_batch([Record(first + i, 1000 + first + i, b"k", b"value-%04d" % (first + i)) for i in range(n)],
                       base_offset=first, producer_id=pid, producer_epoch=0 if pid >= 0 else -1, base_sequence=seq)


def manager(tmp_path: Path, time: MockTime) -> LogManager:
    m = LogManager([tmp_path / "a", tmp_path / "b"], CONFIG, time=time)
    m.startup()
    return m


def values(log: Log) -> list[bytes | None]:
    data = log.read(log.log_start_offset, 10_000_000, max_offset=None).read_bytes()
    return [r.value for r in decode_all(data)]


def test_future_log_catches_up_while_appends_continue_then_swaps(tmp_path: Path) -> None:
    time = MockTime()
    m = manager(tmp_path, time)
    current = m.get_or_create_log("t", 0)
    src = m.log_dir_of("t", 0)
    assert src is not None
    dest = next(d for d in m.log_dirs if d != src)
    for i in range(0, 60, 3):
        current.append_as_leader(batch(i, pid=7, seq=i), leader_epoch=3)
    current.update_high_watermark(45)
    current.maybe_increment_log_start_offset(6)
    future = m.create_future_log("t", 0, str(dest.absolute()))
    assert future.dir.parent == dest and future.dir.name.startswith("t-0.") and future.dir.name.endswith("-future")
    current.update_config(LogConfig(segment_bytes=4096, file_delete_delay_ms=60000))  # a topic config change
    replica = Replica(current)
    move = LogDirMove(("t", 0), replica, m, chunk_bytes=300)
    steps = 0
    while not move.step():
        steps += 1
        if steps % 4 == 0 and current.log_end_offset < 90:  # the producer keeps writing during the copy
            current.append_as_leader(batch(current.log_end_offset, pid=7, seq=current.log_end_offset),
                                     leader_epoch=4)
        assert steps < 1000
    assert steps > 5  # copied in chunks, not in one go
    new = replica.log
    assert new is m.get_log("t", 0) and new.dir == dest / "t-0" and m.log_dir_of("t", 0) == dest
    assert m.future_log("t", 0) is None
    assert current.closed and not (src / "t-0").exists()
    leftovers = [p.name for p in src.iterdir() if p.name.startswith("t-0.")]
    assert len(leftovers) == 1 and leftovers[0].endswith("-delete")
    expected_end = current.log_end_offset
    assert (new.log_start_offset, new.log_end_offset, new.high_watermark) == (6, expected_end, 45)
    assert new.config.segment_bytes == 4096
    assert values(new) == [b"value-%04d" % i for i in range(6, expected_end)]
    assert new.leader_epoch_cache.entries() == [(3, 6), (4, 60)]
    assert new.producer_state.producers[7].last_seq == expected_end - 1
    with pytest.raises(KafkaError) as e:  # the old log takes nothing more
        current.append_as_leader(batch(0), leader_epoch=4)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    # the replaced log's files go after file.delete.delay.ms
    m.delete_retired_logs()
    assert leftovers[0] in os.listdir(src)
    time.sleep(60000)
    m.delete_retired_logs()
    assert not [p for p in src.iterdir() if p.name.startswith("t-0")]
    m.shutdown()
    # and the moved log is where a restart finds it, with its checkpoints
    again = manager(tmp_path, time)
    reloaded = again.get_log("t", 0)
    assert reloaded is not None and again.log_dir_of("t", 0) == dest
    assert (reloaded.log_start_offset, reloaded.log_end_offset) == (6, expected_end)
    again.shutdown()


def test_future_log_follows_a_truncated_current_log(tmp_path: Path) -> None:
    m = manager(tmp_path, MockTime())
    current = m.get_or_create_log("t", 0)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("t", 0))
    for i in range(0, 30, 3):
        current.append_as_leader(batch(i), leader_epoch=1)
    m.create_future_log("t", 0, str(dest))
    replica = Replica(current)
    move = LogDirMove(("t", 0), replica, m, chunk_bytes=10_000_000)
    assert not move.step()  # everything copied, not yet swapped
    future = m.future_log("t", 0)
    assert future is not None and future.log_end_offset == 30
    current.truncate_to(12)  # a follower's divergent tail, replaced by the new leader's
    current.append_as_follower(build_batch([Record(12 + i, 5, b"k", b"new-%d" % i) for i in range(4)],
                                           base_offset=12, partition_leader_epoch=2))
    while not move.step():
        pass
    assert values(replica.log) == [b"value-%04d" % i for i in range(12)] + [b"new-%d" % i for i in range(4)]
    m.shutdown()


def test_alter_to_the_current_dir_or_an_unknown_dir(tmp_path: Path) -> None:
    m = manager(tmp_path, MockTime())
    m.get_or_create_log("t", 0)
    assert m.is_log_dir_online(str(m.log_dir_of("t", 0)))
    for bad in ("/nonexistent/dir", "relative/a"):
        with pytest.raises(KafkaError) as e:
            m.is_log_dir_online(bad)
        assert e.value.code == ErrorCode.LOG_DIR_NOT_FOUND
    # a partition created later goes to the dir asked for beforehand
    m.maybe_update_preferred_log_dir("later", 0, str(tmp_path / "b"))
    m.maybe_update_preferred_log_dir("later2", 0, str(tmp_path / "a"))
    m.get_or_create_log("later", 0)
    m.get_or_create_log("later2", 0)
    assert m.log_dir_of("later", 0) == tmp_path / "b" and m.log_dir_of("later2", 0) == tmp_path / "a"
    m.shutdown()


def test_restart_resumes_a_future_log_and_removes_delete_dirs(tmp_path: Path) -> None:
    time = MockTime()
    m = manager(tmp_path, time)
    current = m.get_or_create_log("t", 0)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("t", 0))
    for i in range(0, 30, 3):
        current.append_as_leader(batch(i), leader_epoch=1)
    m.create_future_log("t", 0, str(dest))
    move = LogDirMove(("t", 0), Replica(current), m, chunk_bytes=200)
    move.step()
    copied = m.future_log("t", 0).log_end_offset  # type: ignore[union-attr]
    assert 0 < copied < 30
    (dest / "gone-0.0123456789abcdef0123456789abcdef-delete").mkdir()
    m.shutdown()  # a stop in the middle of the move
    again = manager(tmp_path, time)
    future = again.future_log("t", 0)
    assert future is not None and future.log_end_offset == copied and again.future_log_dir_of("t", 0) == dest
    assert not (dest / "gone-0.0123456789abcdef0123456789abcdef-delete").exists()
    replica = Replica(again.get_log("t", 0))  # type: ignore[arg-type]
    move = LogDirMove(("t", 0), replica, again, chunk_bytes=200)
    while not move.step():
        pass
    assert replica.log.dir == dest / "t-0" and values(replica.log) == [b"value-%04d" % i for i in range(30)]
    again.shutdown()


def test_crash_between_the_swap_renames_promotes_the_future_log(tmp_path: Path) -> None:
    """The current dir already renamed -delete, the future not yet renamed: start-up finishes
    the swap instead of losing the partition."""
    m = manager(tmp_path, MockTime())
    current = m.get_or_create_log("t", 0)
    src = m.log_dir_of("t", 0)
    assert src is not None
    assert src is not None
    dest = next(d for d in m.log_dirs if d != src)
    for i in range(0, 15, 3):
        current.append_as_leader(batch(i), leader_epoch=1)
    future = m.create_future_log("t", 0, str(dest))
    future.append_as_follower(current.read(0, 1_000_000, max_offset=None).read_bytes())
    m.shutdown()
    os.rename(src / "t-0", src / "t-0.00000000000000000000000000000000-delete")
    again = manager(tmp_path, MockTime())
    log = again.get_log("t", 0)
    assert log is not None and again.log_dir_of("t", 0) == dest and again.future_log("t", 0) is None
    assert log.dir == dest / "t-0" and values(log) == [b"value-%04d" % i for i in range(15)]
    assert not [p for p in src.iterdir() if p.name.startswith("t-0")]
    again.shutdown()


def test_removing_a_future_log_keeps_the_current_one(tmp_path: Path) -> None:
    m = manager(tmp_path, MockTime())
    current = m.get_or_create_log("t", 0)
    current.append_as_leader(batch(0), leader_epoch=0)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("t", 0))
    m.create_future_log("t", 0, str(dest))
    assert m.remove_future_log("t", 0)
    assert m.future_log("t", 0) is None and not [p for p in dest.iterdir() if p.name.startswith("t-0")]
    assert values(current) == [b"value-0000", b"value-0001", b"value-0002"]
    m.shutdown()


def test_transactions_come_along(tmp_path: Path) -> None:
    """An aborted transaction's .txnindex entry, an open transaction (the last stable offset)
    and the producers' epochs are rebuilt in the moved log."""
    m = manager(tmp_path, MockTime())
    current = m.get_or_create_log("t", 0)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("t", 0))

    def txn(pid: int, seq: int) -> bytes:
        return build_batch([Record(j, 1000, b"k", b"v") for j in range(2)], producer_id=pid, producer_epoch=2,
                           base_sequence=seq, is_transactional=True)

    current.append_as_leader(txn(100, 0), 0)
    current.append_as_leader(encode_end_txn_marker(100, 2, 5, False, 2000), 0, origin=AppendOrigin.COORDINATOR)
    current.append_as_leader(txn(200, 0), 0)  # still open
    current.update_high_watermark(current.log_end_offset)
    m.create_future_log("t", 0, str(dest))
    replica = Replica(current)
    move = LogDirMove(("t", 0), replica, m, chunk_bytes=100)
    while not move.step():
        pass
    new = replica.log
    assert new.dir.parent == dest
    assert [(a.producer_id, a.first_offset, a.last_offset) for a in new.collect_aborted_transactions(0, 10)] == [
        (100, 0, 2)]
    assert new.last_stable_offset == current.last_stable_offset == 3
    ongoing, aborted = new.producer_state.producers[200], new.producer_state.producers[100]
    assert (ongoing.epoch, ongoing.current_txn_first_offset) == (2, 3)
    assert (aborted.epoch, aborted.coordinator_epoch, aborted.current_txn_first_offset) == (2, 5, -1)
    m.shutdown()


def test_no_cleaning_during_a_move_and_no_swap_during_a_clean(tmp_path: Path) -> None:
    """Kafka's abortAndPauseCleaning: the cleaner leaves a moving log alone, and a clean that
    was already writing its files in the current log's dir holds the swap back."""
    m = manager(tmp_path, MockTime())
    compact = LogConfig(cleanup_policy="compact", segment_bytes=600, min_cleanable_dirty_ratio=0.01)
    current = m.get_or_create_log("c", 0, compact)
    for r in range(10):
        current.append_as_leader(build_batch([Record(k, 1000, b"k%d" % k, b"v%d" % r) for k in range(8)]), 0,
                                 now_ms=2000)
    current.update_high_watermark(current.log_end_offset)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("c", 0))
    m.create_future_log("c", 0, str(dest))
    assert m.is_cleaning_paused("c", 0)
    assert LogCleaner(m).clean_once(3000) == 0  # dirty, but moving
    m.begin_cleaning("c", 0)  # as if a clean had started before the move
    replica = Replica(current)
    move = LogDirMove(("c", 0), replica, m, chunk_bytes=200)
    for _ in range(100):
        assert not move.step()
    future = m.future_log("c", 0)
    assert future is not None and future.log_end_offset == current.log_end_offset and not move.swapped
    m.end_cleaning("c", 0)
    assert move.step() and move.swapped and replica.log.dir.parent == dest
    assert not m.is_cleaning_paused("c", 0)
    assert LogCleaner(m).clean_once(3000) == 1  # the moved log is cleaned again
    m.shutdown()


def test_a_move_is_held_to_the_alter_log_dirs_quota(tmp_path: Path) -> None:
    """replica.alter.log.dirs.io.max.bytes.per.second: each chunk copied counts, and no chunk
    is read while the quota is exceeded (Kafka's ReplicaAlterLogDirsThread builds no fetch)."""
    import asyncio

    from josefk.replication.replication_quota import ReplicationQuotaManager
    from josefk.utils.rate import MetricConfig

    class CountingQuota(ReplicationQuotaManager):
        checks = 0

        def is_quota_exceeded(self) -> bool:
            self.checks += 1
            return super().is_quota_exceeded()

    time = MockTime()
    m = manager(tmp_path, time)
    current = m.get_or_create_log("t", 0)
    for i in range(0, 30, 3):
        current.append_as_leader(batch(i), leader_epoch=1)
    dest = next(d for d in m.log_dirs if d != m.log_dir_of("t", 0))
    future = m.create_future_log("t", 0, str(dest.absolute()))
    quota = CountingQuota("AlterLogDirsReplication", MetricConfig(), time)
    quota.update_quota(100)  # bytes/s: one chunk of 200 bytes exceeds it
    replica = Replica(current)
    move = LogDirMove(("t", 0), replica, m, chunk_bytes=200, quota=quota)

    async def run() -> None:
        task = asyncio.create_task(move.run())
        while quota.checks < 3:  # the first check let a chunk through; the fake clock stands still
            await asyncio.sleep(0.01)
        assert not task.done()
        assert 0 < future.log_end_offset < current.log_end_offset  # one chunk, then held
        assert quota.byte_rate() > 100
        quota.update_quota(float(2**63 - 1))  # the throttle lifted
        await asyncio.wait_for(task, 30)

    asyncio.run(run())
    assert move.swapped and replica.log.dir == dest / "t-0"
    assert values(replica.log) == [b"value-%04d" % i for i in range(30)]
