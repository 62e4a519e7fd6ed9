"""LogManager and checkpoint files: meta.properties, clean-shutdown marker, placement,
deletion, flushing and checkpoint round trips."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from josefk.log.checkpoint import CorruptCheckpointError, OffsetCheckpointFile
from josefk.log.config import LogConfig
from josefk.log.log_manager import (
    CLEAN_SHUTDOWN_FILE,
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    InconsistentBrokerMetadataError,
    LogManager,
    parse_partition_dir,
    read_properties,
)
from josefk.protocol.record_codec import Record, build_batch, decode_all
from josefk.utils.mock_time import MockTime


def batch(n: int = 2) -> bytes:
    return build_batch([Record(i, 1000 + i, b"k", b"value-%d" % i) for i in range(n)])


def test_checkpoint_format_and_round_trip(tmp_path: Path) -> None:
    cp = OffsetCheckpointFile(tmp_path / "recovery-point-offset-checkpoint")
    assert cp.read() == {}
    cp.write({("b-topic", 1): 42, ("a.topic-x", 0): 7})
    assert cp.path.read_text() == "0\n2\na.topic-x 0 7\nb-topic 1 42\n"
    assert cp.read() == {("b-topic", 1): 42, ("a.topic-x", 0): 7}
    assert not (tmp_path / "recovery-point-offset-checkpoint.tmp").exists()
    cp.write({})
    assert cp.path.read_text() == "0\n0\n" and cp.read() == {}
    cp.path.write_text("")  # Kafka creates cleaner-offset-checkpoint empty
    assert cp.read() == {}


@pytest.mark.parametrize("text", ["0\n", "1\n0\n", "0\n2\nt 0 1\n", "0\n1\nt x 1\n", "0\n1\nt 0\n"])
def test_malformed_checkpoints(tmp_path: Path, text: str) -> None:
    path = tmp_path / "cp"
    path.write_text(text)
    with pytest.raises(CorruptCheckpointError):
        OffsetCheckpointFile(path).read()


def test_parse_partition_dir() -> None:
    assert parse_partition_dir("my-topic-12") == ("my-topic", 12)
    assert parse_partition_dir("__consumer_offsets-0") == ("__consumer_offsets", 0)
    assert parse_partition_dir("lost+found") is None


def test_startup_creates_meta_properties_and_marker_lifecycle(tmp_path: Path) -> None:
    d = tmp_path / "logs"
    m = LogManager([d], LogConfig(), broker_id=3, cluster_id="Clus-ter_1")
    m.startup()
    props = read_properties(d / "meta.properties")
    assert props == {"version": "0", "broker.id": "3", "cluster.id": "Clus-ter_1"}
    log = m.get_or_create_log("orders", 0)
    log.append_as_leader(batch(), 0)
    assert not (d / CLEAN_SHUTDOWN_FILE).exists()
    m.shutdown()
    assert json.loads((d / CLEAN_SHUTDOWN_FILE).read_text())["version"] == 0
    assert (d / RECOVERY_POINT_CHECKPOINT).read_text() == "0\n1\norders 0 2\n"
    assert (d / LOG_START_OFFSET_CHECKPOINT).read_text() == "0\n1\norders 0 0\n"
    m2 = LogManager([d], LogConfig(), broker_id=3)
    m2.startup()
    assert m2.cluster_id == "Clus-ter_1"
    assert not (d / CLEAN_SHUTDOWN_FILE).exists()  # removed at start-up
    reopened = m2.get_log("orders", 0)
    assert reopened is not None and reopened.log_end_offset == 2 and reopened.recovery_point == 2
    assert [r.value for r in decode_all(reopened.read(0, 1 << 20).read_bytes())] == [b"value-0", b"value-1"]
    m2.shutdown()


def test_inconsistent_meta_properties(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=1, cluster_id="a")
    m.startup()
    m.shutdown()
    with pytest.raises(InconsistentBrokerMetadataError):
        LogManager([tmp_path], LogConfig(), broker_id=2, cluster_id="a").startup()
    with pytest.raises(InconsistentBrokerMetadataError):
        LogManager([tmp_path], LogConfig(), broker_id=1, cluster_id="b").startup()
    m = LogManager([tmp_path], LogConfig(), broker_id=1, cluster_id="a")
    m.startup()  # the failed attempts released the dir lock
    m.shutdown()


def test_dir_lock(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=1)
    m.startup()
    with pytest.raises(RuntimeError, match="Failed to acquire lock"):
        LogManager([tmp_path], LogConfig(), broker_id=1).startup()
    m.shutdown()


def test_new_logs_go_to_least_loaded_dir(tmp_path: Path) -> None:
    dirs = [tmp_path / "a", tmp_path / "b", tmp_path / "c"]
    m = LogManager(dirs, LogConfig(), broker_id=0)
    m.startup()
    for p in range(6):
        m.get_or_create_log("t", p)
    counts = {d: len([n for n in os.listdir(d) if n.startswith("t-")]) for d in dirs}
    assert list(counts.values()) == [2, 2, 2]
    assert m.get_or_create_log("t", 0) is m.get_log("t", 0)
    assert m.get_log("t", 99) is None
    assert set(m.all_logs()) == {("t", p) for p in range(6)}
    m.shutdown()
    m = LogManager(dirs, LogConfig(), broker_id=0)
    m.startup()
    assert set(m.all_logs()) == {("t", p) for p in range(6)}
    m.shutdown()


def test_topic_config_at_creation_and_startup(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    cfg = LogConfig(segment_bytes=2048)
    assert m.get_or_create_log("t", 0, cfg).config.segment_bytes == 2048
    m.shutdown()
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup(topic_configs={"t": cfg})
    assert m.get_log("t", 0).config is cfg  # type: ignore[union-attr]
    m.shutdown()


def test_delete_log(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    m.get_or_create_log("gone", 0).append_as_leader(batch(), 0)
    m.get_or_create_log("kept", 0).append_as_leader(batch(), 0)
    m.checkpoint_recovery_points()
    assert m.delete_log("gone", 0)
    assert not m.delete_log("gone", 0)
    assert m.get_log("gone", 0) is None
    assert not [n for n in os.listdir(tmp_path) if n.startswith("gone")]
    assert "gone" not in (tmp_path / RECOVERY_POINT_CHECKPOINT).read_text()
    # a rename that survived a crash is finished at start-up
    (tmp_path / "old-0.0123abcd-delete").mkdir()
    m.shutdown()
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    assert not (tmp_path / "old-0.0123abcd-delete").exists()
    assert set(m.all_logs()) == {("kept", 0)}
    m.shutdown()


def test_flush_dirty_logs(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    timed = m.get_or_create_log("timed", 0, LogConfig(flush_ms=1000))
    never = m.get_or_create_log("never", 0)
    rolled = m.get_or_create_log("rolled", 0, LogConfig(segment_bytes=300))
    for log in (timed, never, rolled):
        for _ in range(4):
            log.append_as_leader(batch(), 0)
    now = timed.last_flush_ms
    m.flush_dirty_logs(now + 10)
    assert timed.recovery_point == 0 and never.recovery_point == 0
    assert rolled.recovery_point == rolled.active_segment.base_offset > 0  # rolled segments get synced
    m.flush_dirty_logs(now + 1000)
    assert timed.recovery_point == 8 and never.recovery_point == 0
    m.checkpoint_recovery_points()
    cp = OffsetCheckpointFile(tmp_path / RECOVERY_POINT_CHECKPOINT).read()
    assert cp[("timed", 0)] == 8 and cp[("never", 0)] == 0
    m.shutdown()


def test_unclean_start_uses_recovery_checkpoint(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    log = m.get_or_create_log("t", 0, LogConfig(segment_bytes=400))
    for _ in range(10):
        log.append_as_leader(batch(), 0)
    log.flush()
    m.checkpoint_recovery_points()
    log.append_as_leader(batch(), 0)
    # crash: no shutdown; the dir lock is per process, so release it by hand
    m._release_locks()
    m2 = LogManager([tmp_path], LogConfig(), broker_id=0)
    m2.startup()
    log2 = m2.get_log("t", 0)
    assert log2 is not None and log2.log_end_offset == 22 and log2.recovery_point == 20
    m2.shutdown()


def test_cleanup_logs_applies_retention(tmp_path: Path) -> None:
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    log = m.get_or_create_log("t", 0, LogConfig(segment_bytes=300, retention_ms=1000, file_delete_delay_ms=0))
    idem = build_batch([Record(0, 1000, None, b"x")], producer_id=5, producer_epoch=0, base_sequence=0)
    log.append_as_leader(idem, 0)
    for _ in range(10):
        log.append_as_leader(batch(), 0)
    log.update_high_watermark(log.log_end_offset)
    n = len(log.segments)
    assert n > 3
    assert m.cleanup_logs(now_ms=1000 + 5000) == n  # the active segment too, after a roll, as Kafka
    assert len(log.segments) == 1 and log.log_start_offset == log.active_segment.base_offset == log.log_end_offset
    m.cleanup_logs()
    assert not [n for n in os.listdir(tmp_path / "t-0") if n.endswith(".deleted")]
    m.shutdown()


def test_producer_ids_expire_on_their_own_check(tmp_path: Path) -> None:
    """producer.id.expiration.ms, checked apart from retention (Kafka's
    PeriodicProducerExpirationCheck): an idle producer goes, a recent one stays."""
    m = LogManager([tmp_path], LogConfig(), broker_id=0)
    m.startup()
    log = m.get_or_create_log("t", 0, LogConfig())
    for producer_id, ts in ((5, 1000), (6, 9000)):
        log.append_as_leader(build_batch([Record(0, ts, None, b"x")], producer_id=producer_id, producer_epoch=0,
                                         base_sequence=0), 0)
    m.cleanup_logs(now_ms=10_000)
    assert set(log.producer_state.producers) == {5, 6}  # retention leaves producer ids alone
    m.remove_expired_producers(5000, now_ms=10_000)
    assert set(log.producer_state.producers) == {6}
    m.shutdown()


def test_retention_by_time_and_the_delete_delay_run_on_the_injected_time(tmp_path: Path) -> None:
    """cleanup_logs() without now_ms reads the LogManager's Time: segments whose newest
    record is older than retention.ms go (the active one too, once the high watermark has passed
    it: a new one is rolled), and their files once file.delete.delay.ms has passed."""
    time = MockTime()
    m = LogManager([tmp_path], LogConfig(), time=time)
    m.startup()
    log = m.get_or_create_log("t", 0, LogConfig(segment_bytes=300, retention_ms=60_000,
                                                 file_delete_delay_ms=5_000))

    def append(n: int) -> None:
        for _ in range(n):  # a batch is ~170 bytes: one per segment
            log.append_as_leader(build_batch([Record(0, time.milliseconds(), None, b"x" * 100)]), 0)
        log.update_high_watermark(log.log_end_offset)

    append(3)
    old = [s.base_offset for s in log.segments]
    time.sleep(30_000)
    append(3)
    newer = [s.base_offset for s in log.segments if s.base_offset not in old]
    assert (len(old), len(newer)) == (3, 3)
    time.sleep(30_000)
    assert m.cleanup_logs() == 0  # the oldest records are exactly retention.ms old
    time.sleep(1)
    assert m.cleanup_logs() == len(old)
    assert [s.base_offset for s in log.segments] == newer
    deleted = [n for n in os.listdir(tmp_path / "t-0") if n.endswith(".deleted")]
    assert len(deleted) == 3 * len(old)  # .log, .index, .timeindex, kept for the delete delay
    time.sleep(5_000)
    assert m.cleanup_logs() == 0
    assert not [n for n in os.listdir(tmp_path / "t-0") if n.endswith(".deleted")]
    time.sleep(60_000)
    assert m.cleanup_logs() == len(newer)
    assert [s.base_offset for s in log.segments] == [log.log_end_offset] == [log.log_start_offset]
    m.shutdown()


def test_startup_says_what_it_recovers_and_nothing_about_an_empty_dir(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    """Kafka's three loading messages: a first start is not an unclean shutdown."""
    caplog.set_level("INFO", logger="josefk.log.log_manager")
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    assert f"No logs found to be loaded in {tmp_path}" in caplog.messages
    assert not [m for m in caplog.messages if "clean" in m]
    manager.get_or_create_log("t", 0).append_as_leader(batch(), leader_epoch=0)
    manager._release_locks()  # a crash: no clean-shutdown marker

    caplog.clear()
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    assert f"Recovering 1 logs from {tmp_path} since no clean shutdown file was found" in caplog.messages
    manager.shutdown()

    caplog.clear()
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    assert f"Skipping recovery of 1 logs from {tmp_path} since clean shutdown file was found" in caplog.messages
    manager.shutdown()
