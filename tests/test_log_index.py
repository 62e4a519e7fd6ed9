"""Offset and time indexes: Kafka's byte layout, lookups, truncation, preallocation."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from josefk.log.index import CorruptIndexError, OffsetIndex, TimeIndex


def test_offset_index_file_format_is_byte_exact(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000100.index"
    index = OffsetIndex(path, 100, max_index_size=8 * 10 + 5)
    assert path.stat().st_size == 80  # preallocated, rounded down to whole entries
    index.append(105, 4096)
    index.append(0x7FFFFFFF + 100, 0x7FFFFFF0)
    index.trim_to_valid_size()
    index.close()
    assert path.read_bytes() == struct.pack(">ii", 5, 4096) + struct.pack(">ii", 0x7FFFFFFF, 0x7FFFFFF0)
    assert path.read_bytes() == bytes.fromhex("00000005 00001000 7fffffff 7ffffff0".replace(" ", ""))


def test_time_index_file_format_is_byte_exact(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000100.timeindex"
    index = TimeIndex(path, 100, max_index_size=12 * 4)
    index.maybe_append(1_700_000_000_000, 107)
    index.maybe_append(1_700_000_000_000, 108)  # not larger: ignored
    index.maybe_append(1_700_000_000_005, 110)
    index.trim_to_valid_size()
    index.close()
    assert path.read_bytes() == struct.pack(">qi", 1_700_000_000_000, 7) + struct.pack(">qi", 1_700_000_000_005, 10)


def test_offset_index_lookups(tmp_path: Path) -> None:
    index = OffsetIndex(tmp_path / "x.index", 1000, max_index_size=1024)
    assert index.lookup(5000) == (1000, 0)
    for i in range(1, 51):
        index.append(1000 + i * 10, i * 100)
    assert index.lookup(999) == (1000, 0)
    assert index.lookup(1009) == (1000, 0)
    assert index.lookup(1010) == (1010, 100)
    assert index.lookup(1255) == (1250, 2500)
    assert index.lookup(10**9) == (1500, 5000)
    assert index.lookup_position(2550) == (1250, 2500)
    assert index.lookup_position(50) == (1000, 0)
    with pytest.raises(ValueError):
        index.append(1500, 6000)  # offsets must increase
    index.truncate_to(1250)
    assert index.entries == 24 and index.last_offset == 1240
    index.truncate_to(1241)
    assert index.entries == 24


def test_full_and_resize(tmp_path: Path) -> None:
    index = OffsetIndex(tmp_path / "x.index", 0, max_index_size=16)
    index.append(1, 10)
    index.append(2, 20)
    assert index.is_full()
    with pytest.raises(ValueError):
        index.append(3, 30)
    index.resize(64)
    index.append(3, 30)
    assert not index.is_full()
    t = TimeIndex(tmp_path / "x.timeindex", 0, max_index_size=36)  # 3 slots, one held back
    t.maybe_append(1, 1)
    t.maybe_append(2, 2)
    assert t.is_full()
    t.maybe_append(3, 3, skip_full_check=True)
    assert t.entries == 3


def test_preallocated_file_entry_count_found_after_crash(tmp_path: Path) -> None:
    path = tmp_path / "x.index"
    index = OffsetIndex(path, 0, max_index_size=8000)
    for i in range(1, 8):
        index.append(i, i * 64)
    index.flush()
    index.close()  # not trimmed: like a crash
    assert path.stat().st_size == 8000
    reopened = OffsetIndex(path, 0)
    assert reopened.entries == 7 and reopened.last_offset == 7
    reopened.sanity_check()
    tpath = tmp_path / "x.timeindex"
    t = TimeIndex(tpath, 0, max_index_size=1200)
    t.maybe_append(0, 0)  # a zero first entry is legitimate
    t.maybe_append(50, 3)
    t.close()
    t2 = TimeIndex(tpath, 0)
    assert t2.entries == 2 and t2.last_entry == (50, 3)
    assert t2.lookup(49) == (0, 0) and t2.lookup(-5) == (-1, 0)


def test_truncated_entries_are_zeroed(tmp_path: Path) -> None:
    path = tmp_path / "x.index"
    index = OffsetIndex(path, 0, max_index_size=800)
    for i in range(1, 10):
        index.append(i, i * 10)
    index.truncate_to(5)
    index.close()
    assert OffsetIndex(path, 0).entries == 4


def test_time_index_lookup_and_truncate(tmp_path: Path) -> None:
    t = TimeIndex(tmp_path / "x.timeindex", 100, max_index_size=1200)
    for i in range(10):
        t.maybe_append(1000 + i * 10, 100 + i * 5)
    assert t.lookup(1000) == (1000, 100)
    assert t.lookup(1055) == (1050, 125)
    assert t.lookup(999) == (-1, 100)
    t.truncate_to(125)
    assert t.entries == 5 and t.last_entry == (1040, 120)


def test_partial_entry_fails_sanity_check(tmp_path: Path) -> None:
    path = tmp_path / "x.index"
    path.write_bytes(struct.pack(">ii", 1, 10) + b"\x00\x01\x02")
    with pytest.raises(CorruptIndexError):
        OffsetIndex(path, 0).sanity_check()


def descriptors_under(directory: Path) -> list[str]:
    """This process's open descriptors on files under `directory` (threads other tests
    left running open and close sockets of their own meanwhile: those are not counted)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except FileNotFoundError:  # closed since the listing
            continue
        if target.startswith(f"{directory.resolve()}/"):
            found.append(target)
    return found


def test_an_open_index_holds_no_file_descriptor(tmp_path: Path) -> None:
    """Kafka maps an index and closes its file; CPython's mmap.mmap would keep a dup of
    the descriptor per mapping (two per index with the index's own)."""
    indexes = [cls(tmp_path / f"{i:020d}{cls.SUFFIX}", i, max_index_size=4096)
               for i in range(50) for cls in (OffsetIndex, TimeIndex)]
    for n, index in enumerate(indexes):
        if isinstance(index, OffsetIndex):
            index.append(index.base_offset + 1, n)
        else:
            index.maybe_append(1_700_000_000_000, index.base_offset + 1)
    assert descriptors_under(tmp_path) == []
    index = indexes[0]
    assert isinstance(index, OffsetIndex)
    index.resize(8192)  # remapped through a descriptor opened for the call only
    index.flush()
    assert descriptors_under(tmp_path) == []
    assert index.lookup(1) == (1, 0) and index.max_entries == 1024
    for index in indexes:
        index.trim_to_valid_size()
        index.close()
    assert (tmp_path / f"{0:020d}.index").read_bytes() == struct.pack(">ii", 1, 0)
    assert TimeIndex(tmp_path / f"{7:020d}.timeindex", 7).last_entry == (1_700_000_000_000, 8)
