"""LogSegment: appends, whole-batch reads through the sparse index, recovery, truncation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from josefk.log.segment import LogSegment
from josefk.protocol import records as R
from josefk.protocol.record_codec import Record, build_batch, decode_all


def make_batch(base_offset: int, n: int = 3, ts: int = 1000, value: bytes = b"v" * 30) -> bytearray:
    return bytearray(build_batch([Record(base_offset + j, ts + j, b"k", value) for j in range(n)],
                                 base_offset=base_offset))


def fill(segment: LogSegment, start: int, batches: int, n: int = 3, ts0: int = 1000) -> list[tuple[int, int]]:
    """Append `batches` batches of n records; returns (base offset, position) of each."""
    out = []
    offset = start
    for i in range(batches):
        buf = make_batch(offset, n, ts0 + i * 10)
        h = R.read_header(buf)
        out.append((offset, segment.size))
        segment.append(h.last_offset, h.max_timestamp, h.last_offset, buf)
        offset += n
    return out


def test_file_names_and_round_trip(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 42, active=True)
    assert seg.path.name == "00000000000000000042.log"
    assert seg.offset_index.path.name == "00000000000000000042.index"
    assert seg.time_index.path.name == "00000000000000000042.timeindex"
    fill(seg, 42, 5)
    region = seg.read(42, 1 << 20)
    assert region is not None and region.position == 0 and region.size == seg.size
    assert (region.base_offset, region.next_offset) == (42, 57)
    assert [r.offset for r in decode_all(region.read_bytes())] == list(range(42, 57))
    assert seg.read_next_offset() == 57
    assert seg.read(57, 100) is None


def test_sparse_index_every_interval(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=400, active=True)
    layout = fill(seg, 0, 20)
    batch_size = layout[1][1]
    assert seg.offset_index.entries > 0
    for slot in range(seg.offset_index.entries):
        offset, pos = seg.offset_index.entry(slot)
        assert pos % batch_size == 0 and offset == pos // batch_size * 3 + 2  # (last offset, batch start)


def test_read_from_middle_of_batch_returns_whole_batch(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    layout = fill(seg, 0, 30)
    size = layout[1][1]
    region = seg.read(31, size)  # offset 31 sits in the batch at 30
    assert region is not None
    assert (region.position, region.size, region.base_offset, region.next_offset) == (layout[10][1], size, 30, 33)
    assert [r.offset for r in decode_all(region.read_bytes())] == [30, 31, 32]


def test_reads_end_on_batch_boundaries(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    layout = fill(seg, 0, 30)
    size = layout[1][1]
    for max_size in (size + 1, 3 * size - 1, 3 * size, 10 * size + 7):
        region = seg.read(3, max_size)
        assert region is not None and region.size == (max_size // size) * size
        assert region.next_offset == 3 + (max_size // size) * 3
        decode_all(region.read_bytes())  # whole batches only


def test_min_one_message(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, active=True)
    layout = fill(seg, 0, 3)
    size = layout[1][1]
    region = seg.read(0, 10)
    assert region is not None and region.size == size
    empty = seg.read(0, 10, min_one_message=False)
    assert empty is not None and empty.size == 0


def test_max_position(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, active=True)
    layout = fill(seg, 0, 5)
    region = seg.read(0, 1 << 20, max_position=layout[2][1])
    assert region is not None and region.size == layout[2][1] and region.next_offset == 6
    region = seg.read(6, 1 << 20, max_position=layout[2][1])
    assert region is not None and region.size == 0


def test_find_offset_by_timestamp_decodes_the_batch(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    fill(seg, 0, 20, ts0=1000)  # batch i has records at 1000+10i .. +2
    assert seg.find_offset_by_timestamp(1000) == (1000, 0)
    assert seg.find_offset_by_timestamp(1051) == (1051, 16)
    assert seg.find_offset_by_timestamp(1055) == (1060, 18)
    assert seg.find_offset_by_timestamp(5000) is None
    assert (seg.max_timestamp, seg.offset_of_max_timestamp) == (1192, 59)


def test_close_trims_indexes_and_reopen(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    fill(seg, 0, 20)
    entries = seg.offset_index.entries
    size = seg.size
    seg.close()
    assert seg.offset_index.path.stat().st_size == entries * 8
    reopened = LogSegment(tmp_path, 0, index_interval_bytes=100)
    reopened.sanity_check()
    assert reopened.size == size and reopened.offset_index.entries == entries
    assert reopened.max_timestamp == 1192 and reopened.read_next_offset() == 60


def test_recover_truncates_torn_tail(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    layout = fill(seg, 0, 10)
    full = seg.size
    seg.close()
    with open(seg.path, "r+b") as f:
        f.truncate(full - 7)
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    assert seg.recover() == full - 7 - layout[9][1]
    assert seg.size == layout[9][1] and seg.read_next_offset() == 27


def test_recover_stops_at_crc_corruption(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    layout = fill(seg, 0, 10)
    full = seg.size
    seg.close()
    with open(seg.path, "r+b") as f:
        f.seek(layout[4][1] + 70)  # inside batch 4's records
        byte = f.read(1)
        f.seek(layout[4][1] + 70)
        f.write(bytes([byte[0] ^ 0xFF]))
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100)
    assert seg.recover() == full - layout[4][1]
    assert seg.read_next_offset() == 12
    assert all(pos < layout[4][1] for _, pos in (seg.offset_index.entry(i) for i in range(seg.offset_index.entries)))


def test_recover_rejects_garbage_tail(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, active=True)
    fill(seg, 0, 3)
    good = seg.size
    seg.close()
    with open(seg.path, "ab") as f:
        f.write(os.urandom(200))
    seg = LogSegment(tmp_path, 0)
    assert seg.recover() == 200 and seg.size == good


def test_corruption_in_clean_loaded_segment_is_not_served(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, active=True)
    layout = fill(seg, 0, 5)
    seg.close()
    with open(seg.path, "r+b") as f:
        f.seek(layout[3][1] + 80)
        f.write(b"\xde\xad")
    seg = LogSegment(tmp_path, 0)
    ok = seg.read(0, layout[3][1])
    assert ok is not None and ok.size == layout[3][1]
    with pytest.raises(R.CorruptRecordError):
        seg.read(9, 1 << 20)
    with pytest.raises(R.CorruptRecordError):
        seg.verify()


def test_truncate_to(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, active=True)
    layout = fill(seg, 0, 20)
    removed_from = layout[10][1]
    full = seg.size
    assert seg.truncate_to(31) == full - removed_from  # the whole batch holding 31 goes
    assert seg.size == removed_from and seg.read_next_offset() == 30
    assert seg.offset_index.last_offset < 30 and seg.max_timestamp == 1092
    fill(seg, 30, 2, ts0=5000)
    assert seg.read_next_offset() == 36 and seg.max_timestamp == 5012
    size = seg.size
    assert seg.truncate_to(0) == size
    assert seg.size == 0 and seg.max_timestamp == -1


def test_flush_from_another_thread(tmp_path: Path) -> None:
    import threading

    seg = LogSegment(tmp_path, 0, active=True)
    stop = threading.Event()
    errors: list[BaseException] = []

    def flusher() -> None:
        try:
            while not stop.is_set():
                seg.flush()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=flusher)
    t.start()
    fill(seg, 0, 200)
    seg.close()
    stop.set()
    t.join()
    assert not errors


def test_appended_data_is_trusted_after_a_clean_open(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, active=True)
    layout = fill(seg, 0, 3)
    seg.close()
    with open(seg.path, "r+b") as f:
        f.seek(layout[0][1] + 80)
        f.write(b"\xde\xad")
    seg = LogSegment(tmp_path, 0, active=True)
    fill(seg, 9, 2)
    region = seg.read(9, 1 << 20)  # only data written by this process: no re-check needed
    assert region is not None and region.next_offset == 15
    with pytest.raises(R.CorruptRecordError):
        seg.read(0, 1 << 20)
