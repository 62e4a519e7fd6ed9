"""LogCleaner: last value per key, offsets kept, dirty ratio, compaction lag, tombstone
horizons, Kafka's batch rules, the .cleaned/.swap protocol and its crash states."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from josefk.log.cleaner import CLEANER_OFFSET_CHECKPOINT, DELETE_HORIZON_MASK, LogCleaner, delete_horizon
from josefk.log.config import LogConfig
from josefk.log.loader import CLEANED_SUFFIX, SWAP_SUFFIX
from josefk.log.log import Log
from josefk.log.log_manager import LogManager
from josefk.protocol import records as R
from josefk.protocol.record_codec import Record, build_batch, iter_batches

NOW = 1_700_000_000_000
COMPACT = LogConfig(cleanup_policy="compact", segment_bytes=600, index_interval_bytes=100,
                    min_cleanable_dirty_ratio=0.01, delete_retention_ms=1000, file_delete_delay_ms=0)


def batch(pairs: list[tuple[bytes | None, bytes | None]], ts: int = NOW, *, compression: int = 0,
          producer_id: int = -1, producer_epoch: int = -1, base_sequence: int = -1) -> bytes:
    return build_batch([Record(i, ts + i, k, v) for i, (k, v) in enumerate(pairs)], compression=compression,
                       producer_id=producer_id, producer_epoch=producer_epoch, base_sequence=base_sequence)


def contents(log: Log) -> list[tuple[int, bytes | None, bytes | None]]:
    data = log.read(log.log_start_offset, 1 << 26).read_bytes()
    return [(r.offset, r.key, r.value) for _, recs in iter_batches(data) for r in recs]


def headers(log: Log) -> list[R.BatchHeader]:
    return list(R.iter_headers(log.read(log.log_start_offset, 1 << 26).read_bytes()))


@pytest.fixture
def manager(tmp_path: Path):
    lm = LogManager([tmp_path], LogConfig())
    lm.startup()
    yield lm
    lm.shutdown()


def fill(log: Log, rounds: int = 10, keys: int = 8) -> dict[bytes, tuple[int, bytes]]:
    """Many updates per key across several segments; returns key -> (offset, last value)."""
    last: dict[bytes, tuple[int, bytes]] = {}
    for r in range(rounds):
        pairs: list[tuple[bytes | None, bytes | None]] = [(b"k%d" % k, b"v%d-%d" % (k, r)) for k in range(keys)]
        info = log.append_as_leader(batch(pairs), leader_epoch=0, now_ms=NOW)
        for i, (k, v) in enumerate(pairs):
            assert k is not None and v is not None
            last[k] = (info.first_offset + i, v)
    return last


def test_keeps_the_last_record_per_key_with_its_offset(manager: LogManager) -> None:
    log = manager.get_or_create_log("c", 0, COMPACT)
    last = fill(log)
    assert len(log.segments) > 3
    active_before = (log.active_segment.base_offset, log.active_segment.size)
    tail = [t for t in contents(log) if t[0] >= active_before[0]]
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(NOW + 10) == 1
    got = contents(log)
    cleaned = [t for t in got if t[0] < active_before[0]]
    assert (log.active_segment.base_offset, log.active_segment.size) == active_before
    assert [t for t in got if t[0] >= active_before[0]] == tail
    # below the active segment each key appears at most once, and only if it is its latest
    assert len({k for _, k, _ in cleaned}) == len(cleaned)
    final = {k: (o, v) for o, k, v in got}
    assert final == last
    assert [o for o, _, _ in got] == sorted(o for o, _, _ in got)
    assert log.log_end_offset == 80
    stats = cleaner.last_stats
    assert stats is not None and stats.end_offset == active_before[0] and stats.records_retained < stats.records_read
    text = (manager.log_dirs[0] / CLEANER_OFFSET_CHECKPOINT).read_text().split("\n")
    assert text[:3] == ["0", "1", f"c 0 {active_before[0]}"]
    # nothing dirty left: a second pass does nothing
    assert cleaner.clean_once(NOW + 20) == 0
    # a reloaded cleaner reads the checkpoint
    assert LogCleaner(manager).first_dirty_offset(("c", 0), log) == active_before[0]


def test_only_compacted_logs_past_the_dirty_ratio_are_cleaned(manager: LogManager) -> None:
    fill(manager.get_or_create_log("plain", 0, LogConfig(segment_bytes=600)))
    strict = manager.get_or_create_log("strict", 0, LogConfig(cleanup_policy="compact", segment_bytes=600,
                                                              min_cleanable_dirty_ratio=0.99))
    fill(strict)
    cleaner = LogCleaner(manager)
    ratio, *_ = cleaner.cleanable_ratio(("strict", 0), strict, NOW)
    assert ratio == 1.0  # never cleaned: everything below the active segment is dirty
    assert cleaner.clean_once(NOW) == 1  # 1.0 > 0.99
    cleaner_log = cleaner.last_stats
    assert cleaner_log is not None and cleaner_log.topic_partition == ("strict", 0)
    fill(strict, rounds=4)  # a little new dirt over a clean head: ratio well below 0.99
    ratio, *_ = cleaner.cleanable_ratio(("strict", 0), strict, NOW)
    assert 0 < ratio < 0.99
    assert cleaner.clean_once(NOW) == 0


def test_dirtiest_log_goes_first(manager: LogManager) -> None:
    a = manager.get_or_create_log("a", 0, COMPACT)
    b = manager.get_or_create_log("b", 0, COMPACT)
    fill(a)
    fill(b)
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(NOW) == 1
    first = cleaner.last_stats
    assert first is not None
    fill(a if first.topic_partition == ("b", 0) else b, rounds=1)
    assert cleaner.clean_once(NOW) == 1
    assert cleaner.last_stats is not None and cleaner.last_stats.topic_partition != first.topic_partition


def test_min_compaction_lag_holds_recent_segments_back(manager: LogManager) -> None:
    cfg = LogConfig(cleanup_policy="compact", segment_bytes=600, min_cleanable_dirty_ratio=0.01,
                    min_compaction_lag_ms=60_000)
    log = manager.get_or_create_log("lag", 0, cfg)
    fill(log)
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(NOW + 1000) == 0  # every record is younger than the lag
    assert cleaner.clean_once(NOW + 120_000) == 1


def test_nothing_at_or_above_the_high_watermark_is_cleaned(manager: LogManager) -> None:
    log = manager.get_or_create_log("hw", 0, COMPACT)
    fill(log)
    bases = [s.base_offset for s in log.segments]
    hw = bases[2] + 1  # inside the third segment: only the first two may be cleaned
    assert LogCleaner(manager, last_stable_offset=lambda key: None).clean_once(NOW) == 0  # unknown: not cleaned
    cleaner = LogCleaner(manager, last_stable_offset=lambda key: hw)
    before = [(o, k, v) for o, k, v in contents(log) if o >= bases[2]]
    assert cleaner.clean_once(NOW) == 1
    after = contents(log)
    assert [(o, k, v) for o, k, v in after if o >= bases[2]] == before  # untouched from the HW's segment on
    assert len([o for o, _, _ in after if o < bases[2]]) < bases[2] - bases[0]  # below it, compacted
    assert cleaner.first_dirty_offset(("hw", 0), log) <= bases[2]


def test_tombstones_are_dropped_after_delete_retention(manager: LogManager) -> None:
    log = manager.get_or_create_log("t", 0, COMPACT)
    log.append_as_leader(batch([(b"a", b"1"), (b"b", b"1")]), 0, now_ms=NOW)
    log.append_as_leader(batch([(b"a", None), (b"c", b"1")]), 0, now_ms=NOW)
    log.roll()
    log.append_as_leader(batch([(b"z", b"1")]), 0, now_ms=NOW)
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(NOW) == 1
    assert [(k, v) for _, k, v in contents(log)] == [(b"b", b"1"), (b"a", None), (b"c", b"1"), (b"z", b"1")]
    stamped = [h for h in headers(log) if h.attributes & DELETE_HORIZON_MASK]
    assert len(stamped) == 1 and delete_horizon(stamped[0]) == NOW + 1000
    # record timestamps survive the horizon in the base timestamp
    data = log.read(0, 1 << 20).read_bytes()
    assert [r.timestamp for _, recs in iter_batches(data) for r in recs][:3] == [NOW + 1, NOW, NOW + 1]
    assert cleaner.clean_once(NOW + 500) == 0  # nothing dirty, horizon not reached
    assert cleaner.clean_once(NOW + 1000) == 1  # the horizon makes the log due
    assert [(k, v) for _, k, v in contents(log)] == [(b"b", b"1"), (b"c", b"1"), (b"z", b"1")]
    assert cleaner.last_stats is not None and cleaner.last_stats.tombstones_dropped == 1
    assert cleaner.clean_once(NOW + 5000) == 0


def test_batches_keep_their_structure(manager: LogManager) -> None:
    log = manager.get_or_create_log("s", 0, COMPACT)
    # producer 7: two batches, both partly superseded (b by a tombstone)
    log.append_as_leader(batch([(b"a", b"1"), (b"b", b"1")], producer_id=7, producer_epoch=0, base_sequence=0,
                               compression=1), 3, now_ms=NOW)
    log.append_as_leader(batch([(b"a", b"2"), (b"c", b"2"), (b"d", b"2")], producer_id=7, producer_epoch=0,
                               base_sequence=2, compression=1), 3, now_ms=NOW)
    # producer 9's only batch will be superseded entirely: kept as an empty batch
    log.append_as_leader(batch([(b"e", b"3")], producer_id=9, producer_epoch=2, base_sequence=0), 4, now_ms=NOW)
    log.append_as_leader(batch([(b"c", b"4"), (b"d", b"4"), (b"e", b"4"), (b"b", None)]), 4, now_ms=NOW)
    untouched = log.append_as_leader(batch([(b"f", b"5")]), 4, now_ms=NOW)
    log.roll()
    log.append_as_leader(batch([(b"g", b"6")]), 4, now_ms=NOW)
    before = log.read(untouched.first_offset, 1 << 20).regions[0]
    original_f = before.read_bytes()[:before.size]
    assert LogCleaner(manager).clean_once(NOW) == 1
    hs = headers(log)
    summary = [(h.base_offset, h.last_offset_delta, h.record_count, h.producer_id, h.base_sequence, h.compression,
                h.partition_leader_epoch) for h in hs]
    assert summary == [
        (2, 2, 1, 7, 2, 1, 3),      # a=2 kept; c, d superseded; offsets and sequence range preserved
        (5, 0, 0, 9, 0, 0, 4),      # producer 9's last batch, emptied
        (6, 3, 4, -1, -1, 0, 4),    # c, d, e and the tombstone for b: stamped with a horizon
        (10, 0, 1, -1, -1, 0, 4),   # f: copied byte for byte
        (11, 0, 1, -1, -1, 0, 4),   # the active segment
    ]
    data = log.read(0, 1 << 20).read_bytes()
    for h in hs:
        R.verify_crc(data, h)
    assert data[hs[3].position:hs[3].position + hs[3].size] == original_f[:hs[3].size]
    # producer state rebuilt from the cleaned log keeps every producer's last sequence
    log.producer_state.clear()
    log.producer_state.delete_snapshots_above(-1)
    log._rebuild_producer_state()
    assert log.producer_state.producers[9].last_seq == 0
    assert log.producer_state.producers[7].last_seq == 4


def test_records_without_a_key_are_dropped(manager: LogManager) -> None:
    log = manager.get_or_create_log("nk", 0, COMPACT)
    log.append_as_leader(batch([(None, b"x"), (b"k", b"1")]), 0, now_ms=NOW)
    log.roll()
    log.append_as_leader(batch([(b"k", b"2")]), 0, now_ms=NOW)
    assert LogCleaner(manager).clean_once(NOW) == 1
    assert contents(log) == [(1, b"k", b"1"), (2, b"k", b"2")]


def test_a_clean_is_discarded_if_the_log_moved_on(manager: LogManager) -> None:
    log = manager.get_or_create_log("m", 0, COMPACT)
    fill(log)
    cleaner = LogCleaner(manager)
    task = cleaner.plan(NOW)
    assert task is not None
    task.build()
    log.truncate_to(3)  # a follower truncation while the clean was built
    assert not cleaner.commit(task)
    assert not [p for p in os.listdir(log.dir) if p.endswith(CLEANED_SUFFIX)]
    assert [o for o, _, _ in contents(log)] == [0, 1, 2] or log.log_end_offset == 0


def test_clean_once_async_runs_the_build_in_a_thread(manager: LogManager) -> None:
    log = manager.get_or_create_log("as", 0, COMPACT)
    last = fill(log)
    cleaner = LogCleaner(manager)
    assert asyncio.run(cleaner.clean_once_async(NOW)) == 1
    assert {k: (o, v) for o, k, v in contents(log)} == last


@pytest.mark.parametrize("crash_point", ["cleaned", "swap", "swap-old-deleted"])
def test_crash_during_a_swap_recovers(tmp_path: Path, crash_point: str) -> None:
    lm = LogManager([tmp_path], LogConfig())
    lm.startup()
    log = lm.get_or_create_log("x", 0, COMPACT)
    last = fill(log)
    everything = contents(log)
    cleaner = LogCleaner(lm)
    task = cleaner.plan(NOW)
    assert task is not None
    task.build()
    bases = [base for _, base in task.groups if base is not None]
    assert bases
    if crash_point != "cleaned":
        for base in bases:  # the commit point: .cleaned -> .swap, the .log last
            for suffix in (".index", ".timeindex", ".log"):
                prefix = log.dir / f"{base:020d}"
                os.rename(f"{prefix}{suffix}{CLEANED_SUFFIX}", f"{prefix}{suffix}{SWAP_SUFFIX}")
    if crash_point == "swap-old-deleted":
        for old, _ in task.groups:
            for s in old:
                os.rename(s.path, f"{s.path}.deleted")
    lm.shutdown()
    lm = LogManager([tmp_path], LogConfig())
    lm.startup()
    try:
        reopened = lm.get_log("x", 0)
        assert reopened is not None
        reopened.update_config(COMPACT)
        left = [p for p in os.listdir(reopened.dir) if p.endswith((CLEANED_SUFFIX, SWAP_SUFFIX, ".deleted"))]
        assert not left
        got = contents(reopened)
        if crash_point == "cleaned":
            assert got == everything  # the clean never happened
        else:
            assert {k: (o, v) for o, k, v in got} == last
            assert len(got) < len(everything)
        reopened.verify()
    finally:
        lm.shutdown()
