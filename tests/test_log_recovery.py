"""Crash recovery: torn tails, corruption, lost indexes, and a real kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_all

CFG = LogConfig(segment_bytes=1000, index_interval_bytes=100)


def batch(i: int) -> bytes:
    return build_batch([Record(j, 1000 + i, b"k", b"rec-%d-%d" % (i, j)) for j in range(3)])


def fill(log: Log, n: int) -> None:
    for i in range(n):
        log.append_as_leader(batch(i), 0)


def all_offsets(log: Log) -> list[int]:
    return [r.offset for r in decode_all(log.read(log.log_start_offset, 1 << 24).read_bytes())]


def flip(path: Path, position: int) -> None:
    with open(path, "r+b") as f:
        f.seek(position)
        b = f.read(1)
        f.seek(position)
        f.write(bytes([b[0] ^ 0xFF]))


def test_torn_tail_is_truncated(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 30)
    active = log.active_segment
    size, last = active.size, log.log_end_offset
    with open(active.path, "r+b") as f:
        f.truncate(size - 10)  # the last batch was only partly written
    reopened = Log(tmp_path / "t-0", CFG, recovery_point=0, clean_shutdown=False)
    assert reopened.log_end_offset == last - 3
    assert all_offsets(reopened) == list(range(last - 3))
    assert reopened.append_as_leader(batch(99), 0).first_offset == last - 3


def test_garbage_after_last_batch(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 5)
    with open(log.active_segment.path, "ab") as f:
        f.write(b"\x00" * 50 + os.urandom(30))
    reopened = Log(tmp_path / "t-0", CFG, clean_shutdown=False)
    assert reopened.log_end_offset == 15 and all_offsets(reopened) == list(range(15))


def test_corruption_in_unflushed_segment_drops_everything_after(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 40)
    segments = log.segments
    assert len(segments) >= 4
    log.flush(up_to=segments[1].base_offset)
    flip(segments[2].path, 200)  # after the recovery point
    reopened = Log(tmp_path / "t-0", CFG, recovery_point=log.recovery_point, clean_shutdown=False)
    assert len(reopened.segments) == 3
    end = reopened.log_end_offset
    assert segments[2].base_offset <= end < segments[3].base_offset
    assert all_offsets(reopened) == list(range(end))
    assert reopened.append_as_leader(batch(1), 0).first_offset == end


def test_corruption_before_the_recovery_point_is_never_served(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 40)
    log.flush()
    log.close()
    old = log.segments[1]
    flip(old.path, 150)  # a record byte of an old, flushed segment
    reopened = Log(tmp_path / "t-0", CFG, recovery_point=120, clean_shutdown=True)
    with pytest.raises(KafkaError) as e:
        reopened.read(old.base_offset, 1 << 20)
    assert e.value.code == ErrorCode.CORRUPT_MESSAGE
    # a read spanning into the corruption stops before it
    first = reopened.read(0, 1 << 24)
    assert first.next_offset <= old.base_offset + 3
    with pytest.raises(KafkaError):
        reopened.verify()
    # the segments after it are fine
    later = log.segments[3].base_offset
    assert all_offsets_from(reopened, later)[0] == later


def all_offsets_from(log: Log, offset: int) -> list[int]:
    return [r.offset for r in decode_all(log.read(offset, 1 << 24).read_bytes())]


def test_corrupt_header_in_old_segment(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 40)
    log.close()
    old = log.segments[1]
    with open(old.path, "r+b") as f:
        f.seek(8)
        f.write(b"\x7f\xff\xff\xff")  # first batch length: absurd
    reopened = Log(tmp_path / "t-0", CFG)
    with pytest.raises(KafkaError) as e:
        reopened.read(old.base_offset, 1 << 20)
    assert e.value.code == ErrorCode.CORRUPT_MESSAGE


def test_missing_or_broken_index_is_rebuilt(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 40)
    log.close()
    seg = log.segments[1]
    seg.offset_index.path.unlink()
    with open(log.segments[2].offset_index.path, "ab") as f:
        f.write(b"\x01\x02\x03")
    reopened = Log(tmp_path / "t-0", CFG)
    assert reopened.segments[1].offset_index.entries > 0
    assert all_offsets(reopened) == list(range(120))
    assert reopened.read(seg.base_offset + 4, 100).regions[0].base_offset == seg.base_offset + 3


def test_unflushed_index_after_crash(tmp_path: Path) -> None:
    """The active segment's preallocated index is never trimmed when the process dies."""
    log = Log(tmp_path / "t-0", LogConfig(index_interval_bytes=50))
    fill(log, 30)
    idx = log.active_segment.offset_index.path
    assert idx.stat().st_size == LogConfig().segment_index_bytes
    for clean in (True, False):
        reopened = Log(tmp_path / "t-0", LogConfig(index_interval_bytes=50), clean_shutdown=clean)
        assert reopened.log_end_offset == 90 and all_offsets(reopened) == list(range(90))


_CHILD = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from josefk.log.config import LogConfig
    from josefk.log.log_manager import LogManager
    from josefk.protocol.record_codec import Record, build_batch

    m = LogManager([Path(sys.argv[1])], LogConfig(), broker_id=0, cluster_id="c")
    m.startup()
    log = m.get_or_create_log("t", 0, LogConfig(segment_bytes=8192, index_interval_bytes=256))

    def flusher():
        while True:
            m.flush_dirty_logs()
            m.checkpoint_recovery_points()

    threading.Thread(target=flusher, daemon=True).start()
    i = 0
    while True:
        info = log.append_as_leader(build_batch([Record(0, i, b"k", b"value-%d" % i)]), 0)
        print(info.first_offset, i, flush=True)
        i += 1
""")


def test_kill_minus_9_loses_no_acknowledged_write(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    acked: list[tuple[int, int]] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    try:
        while len(acked) < 2000 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            offset, i = map(int, line.split())
            acked.append((offset, i))
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        # Through the same buffered reader: communicate() would skip what readline() buffered.
        assert proc.stdout is not None and proc.stderr is not None  # both PIPE
        rest, err = proc.stdout.read(), proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    for line in rest.split("\n")[:-1]:  # whole lines printed before the kill were acknowledged too
        if line.strip():
            offset, i = map(int, line.split())
            acked.append((offset, i))
    assert len(acked) >= 200, err
    assert not (tmp_path / ".kafka_cleanshutdown").exists()
    m = LogManager([tmp_path], LogConfig(), broker_id=0, cluster_id="c")
    m.startup()
    log = m.get_log("t", 0)
    assert log is not None and len(log.segments) > 2
    assert log.log_end_offset >= acked[-1][0] + 1
    records = {r.offset: r for r in decode_all(log.read(0, 1 << 30).read_bytes())}
    for offset, i in acked:
        assert records[offset].value == b"value-%d" % i
        assert records[offset].timestamp == i
    m.shutdown()


def test_corrupt_tail_after_clean_shutdown_is_recovered(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 5)
    log.close()
    path = log.active_segment.path
    with open(path, "ab") as f:
        f.write(b"\x00" * 8 + b"\x7f\xff\xff\xff" + b"junk" * 20)
    reopened = Log(tmp_path / "t-0", CFG)
    assert reopened.log_end_offset == 15 and all_offsets(reopened) == list(range(15))


def test_loader_reports_what_the_log_starts_from(tmp_path):
    """LogLoader on its own: an empty dir gets a first segment (and needs a dir fsync); an
    unclean shutdown with a torn tail recovers from the recovery point, and the offsets it
    hands the Log are the ones left after the cut."""
    from josefk.log.loader import LogLoader
    from josefk.log.producer_state import ProducerStateManager
    from josefk.utils.time import SYSTEM_TIME

    def load(recovery_point: int, clean: bool):
        return LogLoader(tmp_path / "t-0", CFG, ProducerStateManager(tmp_path / "t-0"), SYSTEM_TIME).load(
            recovery_point, 0, clean)

    (tmp_path / "t-0").mkdir()
    empty = load(0, clean=True)
    assert (empty.created_segment, empty.log_end_offset, len(empty.segments)) == (True, 0, 1)
    for segment in empty.segments:
        segment.close()
    log = Log(tmp_path / "t-0", CFG)
    fill(log, 40)
    log.close()
    active = sorted((tmp_path / "t-0").glob("*.log"))[-1]
    size = active.stat().st_size
    with open(active, "r+b") as f:
        f.truncate(size - 5)  # a torn last batch
    loaded = load(0, clean=False)
    assert not loaded.created_segment and len(loaded.segments) > 1
    assert loaded.log_end_offset == 117  # 40 batches of 3, the last one cut
    assert loaded.recovery_point == 0 and loaded.log_start_offset == 0
    for segment in loaded.segments:
        segment.close()
