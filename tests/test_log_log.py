"""Log: leader appends (validation, offsets, LogAppendTime), reads across segments, rolls,
timestamps, truncation, retention, reopen."""

from __future__ import annotations

import os
import struct
import threading
from pathlib import Path

import pytest

from josefk.log import log as log_module
from josefk.log.config import LogConfig
from josefk.log.log import Log, UnexpectedAppendOffsetError
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.protocol import records as R
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_all


def make_batch(n: int = 3, ts: int = 1000, value: bytes = b"v" * 30, base_offset: int = 0, *, compression: int = 0,
               producer_id: int = -1, producer_epoch: int = -1, base_sequence: int = -1) -> bytes:
    return build_batch([Record(base_offset + j, ts + j, b"k", value) for j in range(n)],
                       base_offset=base_offset, compression=compression, producer_id=producer_id,
                       producer_epoch=producer_epoch, base_sequence=base_sequence)


def offsets_of(log: Log, offset: int, max_bytes: int = 1 << 24, **kw: object) -> list[int]:
    return [r.offset for r in decode_all(log.read(offset, max_bytes, **kw).read_bytes())]  # type: ignore[arg-type]


@pytest.fixture
def small() -> LogConfig:
    return LogConfig(segment_bytes=1000, index_interval_bytes=100)


def test_append_assigns_offsets_and_epoch(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    info = log.append_as_leader(make_batch(3), leader_epoch=7, now_ms=5)
    assert (info.first_offset, info.last_offset, info.record_count, info.duplicate) == (0, 2, 3, False)
    assert info.log_append_time == -1 and info.log_start_offset == 0
    info = log.append_as_leader(make_batch(2, base_offset=1000), leader_epoch=7)
    assert (info.first_offset, info.last_offset) == (3, 4)
    assert log.log_end_offset == 5
    data = log.read(0, 1 << 20).read_bytes()
    headers = list(R.iter_headers(data))
    assert [(h.base_offset, h.partition_leader_epoch) for h in headers] == [(0, 7), (3, 7)]
    for h in headers:
        R.verify_crc(data, h)
    assert [r.offset for r in decode_all(data)] == [0, 1, 2, 3, 4]


def test_a_renamed_log_names_its_new_dir_and_log_dir(tmp_path: Path) -> None:
    """A Log keeps its name and log dir with its dir (every append uses them): after the
    LogManager moves it (a -delete rename, a future replica's promotion to another log dir)
    its errors name the new dir, and the new log dir going offline stops its appends."""
    channel = LogDirFailureChannel()
    log = Log(tmp_path / "a" / "t-0", LogConfig(), failure_channel=channel)
    log.append_as_leader(make_batch(1), 0)
    (tmp_path / "b").mkdir()
    renamed = tmp_path / "b" / "t-0.0123abcd-delete"
    log.rename_dir(renamed)
    assert log.name == "t-0.0123abcd-delete"
    with pytest.raises(KafkaError) as too_large:
        log.append_as_leader(make_batch(1, value=b"v" * 2_000_000), 0)
    assert "t-0.0123abcd-delete" in str(too_large.value)
    channel.maybe_add_offline_log_dir(tmp_path / "b", "disk failed", OSError("EIO"))
    with pytest.raises(KafkaError) as offline:
        log.append_as_leader(make_batch(1), 0)
    assert offline.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert str(tmp_path / "b") in str(offline.value)


def test_a_flush_in_flight_holds_off_the_rename_of_its_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log-dir move of a loaded CI run: a background flush was fsyncing a log's dir when the
    LogManager renamed it (the replica's future log took over), found the old name gone and took
    the whole log dir offline. The rename now waits for the flush, and the renamed log is not
    flushed again."""
    channel = LogDirFailureChannel()
    log = Log(tmp_path / "d1" / "t-0", LogConfig(), failure_channel=channel)
    log.append_as_leader(make_batch(1), 0)
    in_flush, go = threading.Event(), threading.Event()
    real_fsync_dir = log_module.fsync_dir

    def fsync_dir_held(path: Path) -> None:
        in_flush.set()
        assert go.wait(30)
        real_fsync_dir(path)

    monkeypatch.setattr(log_module, "fsync_dir", fsync_dir_held)
    errors: list[BaseException] = []

    def flush() -> None:
        try:
            log.flush()
        except BaseException as e:  # noqa: BLE001 - the test reports it
            errors.append(e)

    flusher = threading.Thread(target=flush)
    flusher.start()
    assert in_flush.wait(30)
    renamed = tmp_path / "d1" / "t-0.0123abcd-delete"
    renamer = threading.Thread(target=log.rename_dir, args=(renamed,))
    renamer.start()
    renamer.join(0.5)  # without the lock the rename is done by now, under the flush's feet
    go.set()
    flusher.join(30)
    renamer.join(30)
    assert not flusher.is_alive() and not renamer.is_alive()
    assert errors == [] and not channel.any_offline
    assert log.dir == renamed and renamed.is_dir() and not (tmp_path / "d1" / "t-0").exists()
    in_flush.clear()
    log.append_as_leader(make_batch(1), 0)
    log.flush()  # renamed away: nothing to do, and nothing fsynced under the old name
    assert not in_flush.is_set()


def test_bytearray_is_patched_in_place(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(make_batch(2), 0)
    buf = bytearray(make_batch(1))
    log.append_as_leader(buf, 3)
    assert struct.unpack_from(">qii", buf) [0] == 2 and struct.unpack_from(">i", buf, 12)[0] == 3


def test_multiple_batches_in_one_append(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    info = log.append_as_leader(make_batch(2) + make_batch(4, base_offset=9), 0)
    assert (info.first_offset, info.last_offset, info.record_count) == (0, 5, 6)
    assert offsets_of(log, 0) == list(range(6))


def test_compressed_batches(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    for codec in (1, 2, 3, 4):
        log.append_as_leader(make_batch(5, compression=codec), 0)
    assert offsets_of(log, 7) == list(range(5, 20))


def test_log_append_time(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(message_timestamp_type="LogAppendTime"))
    info = log.append_as_leader(make_batch(3, ts=1), 0, now_ms=123456)
    assert info.log_append_time == 123456
    data = log.read(0, 1 << 20).read_bytes()
    h = R.read_header(data)
    assert h.is_log_append_time and h.max_timestamp == 123456
    R.verify_crc(data, h)
    assert [r.timestamp for r in decode_all(data)] == [123456] * 3


def test_corrupt_and_oversized_batches_rejected(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(max_message_bytes=300))
    bad = bytearray(make_batch(3))
    bad[-1] ^= 0x55
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(bad, 0)
    assert e.value.code == ErrorCode.CORRUPT_MESSAGE
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(make_batch(3)[:-4], 0)
    assert e.value.code == ErrorCode.CORRUPT_MESSAGE
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(make_batch(20), 0)
    assert e.value.code == ErrorCode.MESSAGE_TOO_LARGE
    assert log.log_end_offset == 0 and log.size_in_bytes == 0


def test_record_list_too_large_and_invalid_records(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(segment_bytes=500))
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(make_batch(20), 0)
    assert e.value.code == ErrorCode.RECORD_LIST_TOO_LARGE
    control = build_batch([Record(0, 1, b"\x00\x00\x00\x00", b"")], is_control=True, producer_id=1,
                          producer_epoch=0, base_sequence=-1, is_transactional=True)
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(control, 0)
    assert e.value.code == ErrorCode.INVALID_RECORD


def test_timestamp_bounds(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(message_timestamp_before_max_ms=1000))
    log.append_as_leader(make_batch(1, ts=9500), 0, now_ms=10000)
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(make_batch(1, ts=8000), 0, now_ms=10000)
    assert e.value.code == ErrorCode.INVALID_TIMESTAMP


def test_roll_by_size_and_read_across_segments(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    for _ in range(40):
        log.append_as_leader(make_batch(3), 0)
    segments = log.segments
    assert len(segments) > 5 and all(s.size <= 1000 for s in segments)
    assert [s.base_offset for s in segments] == sorted(s.base_offset for s in segments)
    assert sorted(os.listdir(tmp_path / "t-0"))[0] == "00000000000000000000.index"
    assert offsets_of(log, 0) == list(range(120))
    assert offsets_of(log, 61) == list(range(60, 120))
    info = log.read(4, 1000)
    assert info.size <= 1000 and len(info.regions) >= 1 and info.next_offset % 3 == 0


def test_max_offset_is_exclusive_and_holds_back_straddling_batches(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    for _ in range(40):
        log.append_as_leader(make_batch(3), 0)
    assert offsets_of(log, 0, max_offset=60) == list(range(60))
    assert offsets_of(log, 10, max_offset=61) == list(range(9, 60))  # batch 60..62 crosses 61
    assert log.read(60, 1 << 20, max_offset=60).is_empty
    assert log.read(61, 1 << 20, max_offset=61).is_empty
    assert log.read(70, 1 << 20, max_offset=60).is_empty


def test_out_of_range_and_end_of_log(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(make_batch(3), 0)
    assert log.read(3, 100).is_empty
    with pytest.raises(KafkaError) as e:
        log.read(4, 100)
    assert e.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    log.maybe_increment_log_start_offset(2)
    with pytest.raises(KafkaError):
        log.read(1, 100)
    assert offsets_of(log, 2) == [0, 1, 2]  # whole batch, the consumer skips below its offset


def test_min_one_message_and_zero_max_bytes(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(make_batch(3), 0)
    assert log.read(0, 0).size > 0
    assert log.read(0, 0, min_one_message=False).is_empty


def test_roll_by_time_and_index_full(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(segment_ms=1000))
    log.append_as_leader(make_batch(1, ts=10_000), 0, now_ms=10_000)
    log.append_as_leader(make_batch(1, ts=10_500), 0, now_ms=10_500)
    assert len(log.segments) == 1
    log.append_as_leader(make_batch(1, ts=11_001), 0, now_ms=11_001)
    assert [s.base_offset for s in log.segments] == [0, 2]
    log2 = Log(tmp_path / "u-0", LogConfig(segment_index_bytes=24, index_interval_bytes=0))
    for _ in range(10):
        log2.append_as_leader(make_batch(1), 0)
    assert len(log2.segments) > 2
    assert all(s.offset_index.entries <= 3 for s in log2.segments)
    assert offsets_of(log2, 0) == list(range(10))


def test_reopen_clean(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    for i in range(30):
        log.append_as_leader(make_batch(3, ts=1000 + i), 0)
    log.flush()
    log.close()
    log = Log(tmp_path / "t-0", small, recovery_point=90)
    assert log.log_end_offset == 90 and log.recovery_point == 90
    assert offsets_of(log, 45) == list(range(45, 90))
    info = log.append_as_leader(make_batch(2), 0)
    assert info.first_offset == 90
    assert offsets_of(log, 88) == [87, 88, 89, 90, 91]


def test_fetch_offset_by_timestamp(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    for i in range(30):
        log.append_as_leader(make_batch(3, ts=1000 + 10 * i), 0)
    assert log.fetch_offset_by_timestamp(0) == (0, 1000)
    assert log.fetch_offset_by_timestamp(1151) == (46, 1151)
    assert log.fetch_offset_by_timestamp(1155) == (48, 1160)
    assert log.fetch_offset_by_timestamp(10_000) is None
    assert log.fetch_offset_by_timestamp(-2) == (0, -1)
    assert log.fetch_offset_by_timestamp(-1) == (90, -1)
    assert log.latest_timestamp_offset() == (89, 1292)
    assert log.fetch_offset_by_timestamp(-3) == (89, 1292)


def test_latest_timestamp_offset_finds_the_record(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(build_batch([Record(0, 5, None, b"a"), Record(1, 50, None, b"b"),
                                      Record(2, 7, None, b"c")]), 0)
    log.append_as_leader(make_batch(2, ts=20), 0)
    assert log.latest_timestamp_offset() == (1, 50)
    assert Log(tmp_path / "e-0", LogConfig()).latest_timestamp_offset() is None


def test_truncate_to(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    for _ in range(30):
        log.append_as_leader(make_batch(3), 0)
    n = len(log.segments)
    assert log.truncate_to(40)  # 40 is inside batch 39..41: the whole batch goes
    assert log.log_end_offset == 39 and len(log.segments) < n
    assert offsets_of(log, 30) == list(range(30, 39))
    assert log.append_as_leader(make_batch(1), 0).first_offset == 39
    assert not log.truncate_to(100)
    log.truncate_to(0)
    assert log.log_end_offset == 0 and log.size_in_bytes == 0
    assert log.append_as_leader(make_batch(1), 0).first_offset == 0
    log.delete_expired_files(force=True)
    assert not [n for n in os.listdir(tmp_path / "t-0") if n.endswith(".deleted")]


def test_follower_append_keeps_offsets(tmp_path: Path, small: LogConfig) -> None:
    log = Log(tmp_path / "t-0", small)
    info = log.append_as_follower(make_batch(3, base_offset=0) + make_batch(2, base_offset=3))
    assert (info.first_offset, info.last_offset) == (0, 4)
    info = log.append_as_follower(make_batch(2, base_offset=10))  # a gap, as after compaction
    assert log.log_end_offset == 12
    with pytest.raises(UnexpectedAppendOffsetError):
        log.append_as_follower(make_batch(1, base_offset=5))
    assert offsets_of(log, 5) == [10, 11]
    log.truncate_fully_and_start_at(100)
    assert (log.log_start_offset, log.log_end_offset) == (100, 100)
    log.append_as_follower(make_batch(1, base_offset=100))
    assert offsets_of(log, 100) == [100]


def test_retention(tmp_path: Path, small: LogConfig) -> None:
    cfg = LogConfig(segment_bytes=1000, retention_bytes=2500, file_delete_delay_ms=0)
    log = Log(tmp_path / "t-0", cfg)
    for i in range(40):
        log.append_as_leader(make_batch(3, ts=1000 + i), 0)
    log.update_high_watermark(log.log_end_offset)
    assert log.delete_old_segments(now_ms=2000) > 0
    assert log.size_in_bytes - log.active_segment.size <= 2500
    assert log.log_start_offset == log.segments[0].base_offset > 0
    with pytest.raises(KafkaError):
        log.read(0, 100)
    log.update_config(LogConfig(segment_bytes=1000, retention_ms=100, file_delete_delay_ms=0))
    log.delete_old_segments(now_ms=10_000)
    assert len(log.segments) == 1
    log.delete_expired_files()
    assert not [n for n in os.listdir(tmp_path / "t-0") if n.endswith(".deleted")]


def test_flush_advances_recovery_point(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(flush_messages=5))
    log.append_as_leader(make_batch(3), 0)
    assert log.recovery_point == 0 and not log.flush_due
    log.append_as_leader(make_batch(3), 0)
    assert log.flush_due  # flush.messages reached: the appender flushes, off the event loop
    log.flush()
    assert log.recovery_point == 6 and not log.flush_due
    log.append_as_leader(make_batch(1), 0)
    log.flush(up_to=7)
    assert log.recovery_point == 7


def test_legacy_message_sets_are_converted(tmp_path: Path) -> None:
    from josefk.protocol import legacy

    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(make_batch(2), 0)
    first = 2
    for magic, compression in ((1, 0), (0, 0), (1, 1)):
        msgs = [legacy.LegacyMessage(offset=i, magic=magic, timestamp=1000 + i if magic else -1,
                                     timestamp_type=0 if magic else -1, key=b"k", value=b"v%d" % i)
                for i in range(3)]
        info = log.append_as_leader(legacy.build_message_set(msgs, magic=magic, compression=compression), 0)
        assert (info.first_offset, info.last_offset) == (first, first + 2)
        records = decode_all(log.read(first, 1 << 20).read_bytes())
        assert [(r.offset, r.value) for r in records] == [(first + i, b"v%d" % i) for i in range(3)]
        first += 3


def test_retention_takes_the_active_segment_once_the_high_watermark_passed_it(tmp_path: Path) -> None:
    """Kafka's deletableSegments: a non-empty active segment past retention.ms goes too (a new
    one is rolled at the log end), but nothing at or beyond the high watermark does."""
    log = Log(tmp_path / "t-0", LogConfig(retention_ms=100, file_delete_delay_ms=0))
    log.append_as_leader(make_batch(3, ts=1000), 0)
    log.append_as_leader(make_batch(2, ts=1000), 0)
    assert len(log.segments) == 1
    log.update_high_watermark(3)  # the second batch is not replicated yet
    assert log.delete_old_segments(now_ms=10_000) == 0 and log.log_start_offset == 0
    log.update_high_watermark(5)
    assert log.delete_old_segments(now_ms=10_000) == 1
    assert [s.base_offset for s in log.segments] == [5] and log.log_start_offset == log.log_end_offset == 5
    assert log.active_segment.size == 0
    assert log.delete_old_segments(now_ms=10_000) == 0  # an empty active segment stays
