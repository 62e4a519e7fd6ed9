"""Idempotent producer state: duplicates, sequence and epoch checks, snapshots, rebuilds."""

from __future__ import annotations

import struct
from pathlib import Path

import crc32c
import pytest

from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.log.producer_state import ProducerStateManager, snapshot_path
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch

INT_MAX = 0x7FFFFFFF


def pbatch(pid: int, epoch: int, seq: int, n: int = 2) -> bytes:
    return build_batch([Record(j, 1000 + j, None, b"x%d" % j) for j in range(n)], producer_id=pid,
                       producer_epoch=epoch, base_sequence=seq)


def code_of(log: Log, data: bytes) -> ErrorCode:
    with pytest.raises(KafkaError) as e:
        log.append_as_leader(data, 0)
    return e.value.code


def test_duplicate_returns_original_offsets_and_writes_nothing(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    first = log.append_as_leader(pbatch(7, 0, 0), 0)
    second = log.append_as_leader(pbatch(7, 0, 2), 0)
    size, end = log.size_in_bytes, log.log_end_offset
    dup = log.append_as_leader(pbatch(7, 0, 0), 0)
    assert dup.duplicate and (dup.first_offset, dup.last_offset) == (first.first_offset, first.last_offset)
    dup = log.append_as_leader(pbatch(7, 0, 2), 0)
    assert dup.duplicate and (dup.first_offset, dup.last_offset) == (second.first_offset, second.last_offset)
    assert (log.size_in_bytes, log.log_end_offset) == (size, end)


def test_only_last_five_batches_are_remembered(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    for k in range(6):
        log.append_as_leader(pbatch(1, 0, 2 * k), 0)
    assert log.append_as_leader(pbatch(1, 0, 2), 0).duplicate  # second batch: still cached
    assert code_of(log, pbatch(1, 0, 0)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER  # first: evicted


def test_out_of_order_sequence(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(pbatch(1, 0, 0), 0)
    assert code_of(log, pbatch(1, 0, 3)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert code_of(log, pbatch(1, 0, 1)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER  # overlaps
    assert log.log_end_offset == 2
    assert not log.append_as_leader(pbatch(1, 0, 2), 0).duplicate


def test_epochs(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(pbatch(1, 3, 0), 0)
    assert code_of(log, pbatch(1, 2, 2)) == ErrorCode.INVALID_PRODUCER_EPOCH
    assert code_of(log, pbatch(1, 4, 5)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    log.append_as_leader(pbatch(1, 4, 0), 0)
    assert code_of(log, pbatch(1, 3, 2)) == ErrorCode.INVALID_PRODUCER_EPOCH
    assert not log.append_as_leader(pbatch(1, 4, 2), 0).duplicate


def test_unknown_producer_any_sequence_and_wraparound(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(pbatch(9, 0, 41), 0)
    log.append_as_leader(pbatch(9, 0, 43), 0)
    log.append_as_leader(pbatch(5, 0, INT_MAX - 1), 0)  # sequences INT_MAX-1, INT_MAX
    info = log.append_as_leader(pbatch(5, 0, 0), 0)
    assert not info.duplicate
    log.append_as_leader(build_batch([Record(0, 1, None, b"v")]), 0)  # non-idempotent: no checks


def test_several_batches_of_one_producer_in_one_append(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig())
    info = log.append_as_leader(pbatch(1, 0, 0) + pbatch(1, 0, 2), 0)
    assert (info.first_offset, info.last_offset) == (0, 3)
    assert code_of(log, pbatch(1, 0, 4) + pbatch(1, 0, 7)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert log.log_end_offset == 4


def test_state_survives_clean_and_unclean_restarts(tmp_path: Path) -> None:
    cfg = LogConfig(segment_bytes=300)
    log = Log(tmp_path / "t-0", cfg)
    infos = [log.append_as_leader(pbatch(1, 0, 2 * k), 0) for k in range(10)]
    assert len(log.segments) > 2
    log.close()
    reopened = Log(tmp_path / "t-0", cfg)
    dup = reopened.append_as_leader(pbatch(1, 0, 18), 0)
    assert dup.duplicate and dup.first_offset == infos[-1].first_offset
    assert code_of(reopened, pbatch(1, 0, 30)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    more = [reopened.append_as_leader(pbatch(1, 0, 20 + 2 * k), 0) for k in range(3)]
    # crash: no close, so no snapshot at the end; the batches after the last roll are replayed
    crashed = Log(tmp_path / "t-0", cfg, recovery_point=0, clean_shutdown=False)
    dup = crashed.append_as_leader(pbatch(1, 0, 22), 0)
    assert dup.duplicate and dup.first_offset == more[1].first_offset
    assert code_of(crashed, pbatch(1, 0, 0)) == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_truncation_rewinds_producer_state(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0", LogConfig(segment_bytes=600))
    infos = [log.append_as_leader(pbatch(1, 0, 2 * k), 0) for k in range(8)]
    log.truncate_to(infos[5].first_offset)
    assert log.log_end_offset == infos[5].first_offset
    info = log.append_as_leader(pbatch(1, 0, 10), 0)  # seq 10 follows 9 again
    assert not info.duplicate and info.first_offset == infos[5].first_offset


def test_snapshot_file_layout(tmp_path: Path) -> None:
    psm = ProducerStateManager(tmp_path)
    log = Log(tmp_path / "t-0", LogConfig())
    log.append_as_leader(pbatch(77, 3, 10, n=4), 0)
    for h in log.segments[0].iter_headers():
        psm.update(h)
    path = psm.take_snapshot(4)
    assert path == snapshot_path(tmp_path, 4) and path.name == "00000000000000000004.snapshot"
    data = path.read_bytes()
    version, crc = struct.unpack_from(">hI", data)
    body = data[6:]
    assert version == 1 and crc == crc32c.crc32c(body)
    count, = struct.unpack_from(">i", body)
    entry = struct.unpack_from(">qhiqiqiq", body, 4)
    assert count == 1 and entry == (77, 3, 13, 3, 3, 1003, -1, -1)
    restored = ProducerStateManager.read_snapshot(path)[77]
    batch = restored.batches[-1]
    assert (restored.epoch, batch.first_seq, batch.last_seq, batch.first_offset, batch.last_offset) == (3, 10, 13, 0, 3)
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert psm.load_latest_snapshot(10) is None and not path.exists()  # corrupt: dropped
