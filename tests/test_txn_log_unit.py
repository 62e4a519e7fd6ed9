"""Transactions in the log: control batches, producer state, the LSO and .txnindex files."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from josefk.log.cleaner import LogCleaner, delete_horizon
from josefk.log.config import LogConfig
from josefk.log.log import AppendOrigin, Log
from josefk.log.log_manager import LogManager
from josefk.log.producer_state import ProducerStateManager
from josefk.log.transaction_index import ENTRY_SIZE, AbortedTxn, TransactionIndex
from josefk.protocol import records as R
from josefk.protocol.control_records import ControlRecordType, encode_end_txn_marker, read_end_txn_marker
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_batch
from josefk.utils.mock_time import MockTime

pytestmark = pytest.mark.unit

PID, EPOCH = 1000, 3


def txn_batch(pid: int = PID, seq: int = 0, n: int = 2, epoch: int = EPOCH, ts: int = 1000) -> bytes:
    return build_batch([Record(j, ts, b"k", b"v%d" % j) for j in range(n)], producer_id=pid,
                       producer_epoch=epoch, base_sequence=seq, is_transactional=True)


def marker(commit: bool, pid: int = PID, epoch: int = EPOCH, coordinator_epoch: int = 5) -> bytes:
    return encode_end_txn_marker(pid, epoch, coordinator_epoch, commit, 2000)


def open_log(path: Path, **kw: object) -> Log:
    return Log(path, LogConfig(**kw), time=MockTime())  # type: ignore[arg-type]


def end(log: Log, commit: bool, pid: int = PID, **kw: int) -> int:
    return log.append_as_leader(marker(commit, pid, **kw), 0, origin=AppendOrigin.COORDINATOR).first_offset


# -- control records -------------------------------------------------------------------


def test_marker_batch_layout() -> None:
    data = marker(True, coordinator_epoch=7)
    h = R.read_header(data)
    assert h.is_control and h.is_transactional
    assert (h.producer_id, h.producer_epoch, h.base_sequence, h.record_count) == (PID, EPOCH, -1, 1)
    R.verify_crc(data, h)
    (record,) = decode_batch(data, h)
    assert record.key == struct.pack(">hh", 0, 1) and record.value == struct.pack(">hi", 0, 7)
    assert read_end_txn_marker(data) == (ControlRecordType.COMMIT, 7)
    assert read_end_txn_marker(marker(False, coordinator_epoch=2)) == (ControlRecordType.ABORT, 2)


def test_read_marker_refuses_data_batch() -> None:
    with pytest.raises(R.CorruptRecordError):
        read_end_txn_marker(txn_batch())


# -- transaction index -------------------------------------------------------------------


def test_txn_index_file_format_truncate_and_collect(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000000.txnindex"
    index = TransactionIndex(0, path)
    assert not path.exists()  # created on the first entry, as Kafka's
    index.append(AbortedTxn(7, 0, 5, 6))
    index.append(AbortedTxn(8, 3, 10, 11))
    with pytest.raises(ValueError):
        index.append(AbortedTxn(9, 4, 10, 12))
    index.close()
    data = path.read_bytes()
    assert len(data) == 2 * ENTRY_SIZE == 68
    assert struct.unpack_from(">hqqqq", data, 0) == (0, 7, 0, 5, 6)
    reopened = TransactionIndex(0, path)
    assert reopened.entries == [AbortedTxn(7, 0, 5, 6), AbortedTxn(8, 3, 10, 11)]
    result = reopened.collect_aborted_txns(6, 20)
    assert result.aborted == [AbortedTxn(8, 3, 10, 11)] and not result.is_complete
    result = reopened.collect_aborted_txns(0, 4)
    assert result.aborted == [AbortedTxn(7, 0, 5, 6)] and result.is_complete
    reopened.truncate_to(10)
    assert reopened.entries == [AbortedTxn(7, 0, 5, 6)] and path.stat().st_size == ENTRY_SIZE
    reopened.close()


# -- producer state and the LSO -----------------------------------------------------------


def test_lso_follows_open_transactions_and_high_watermark(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(PID), 0)            # 0-1, pid A open
    log.append_as_leader(txn_batch(PID + 1), 0)        # 2-3, pid B open
    assert log.first_unstable_offset == 0
    assert log.last_stable_offset == 0
    log.update_high_watermark(4)
    assert log.last_stable_offset == 0
    assert end(log, True) == 4                         # A commits at 4
    log.update_high_watermark(5)
    assert log.first_unstable_offset == 2 and log.last_stable_offset == 2
    assert end(log, False, PID + 1) == 5               # B aborts at 5
    assert log.last_stable_offset == 2                 # its marker is not below the HW yet
    log.update_high_watermark(6)
    assert log.first_unstable_offset is None and log.last_stable_offset == 6
    (segment,) = log.segments
    assert segment.txn_index.entries == [AbortedTxn(PID + 1, 2, 5, 6)]
    assert log.collect_aborted_transactions(0, 6) == [AbortedTxn(PID + 1, 2, 5, 6)]
    assert log.collect_aborted_transactions(6, 7) == []
    log.close()


def test_aborted_entry_records_lso_of_other_open_transaction(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(PID), 0)            # 0-1
    log.append_as_leader(txn_batch(PID + 1), 0)        # 2-3
    end(log, False, PID + 1)                           # 4: B aborts while A is open
    assert log.active_segment.txn_index.entries == [AbortedTxn(PID + 1, 2, 4, 0)]
    log.close()


def test_marker_validation(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(epoch=EPOCH), 0)
    with pytest.raises(KafkaError) as e:
        end(log, True, epoch=EPOCH - 1)
    assert e.value.code == ErrorCode.INVALID_PRODUCER_EPOCH
    end(log, True, coordinator_epoch=9)
    log.append_as_leader(txn_batch(seq=2), 0)
    with pytest.raises(KafkaError) as e:
        end(log, False, coordinator_epoch=8)
    assert e.value.code == ErrorCode.TRANSACTION_COORDINATOR_FENCED
    with pytest.raises(KafkaError) as e:  # clients may not write control batches
        log.append_as_leader(marker(True, coordinator_epoch=9), 0)
    assert e.value.code == ErrorCode.INVALID_RECORD
    plain = build_batch([Record(0, 1000, None, b"x")], producer_id=PID, producer_epoch=EPOCH, base_sequence=4)
    with pytest.raises(KafkaError) as e:  # a non-transactional write while a transaction is open
        log.append_as_leader(plain, 0)
    assert e.value.code == ErrorCode.INVALID_TXN_STATE
    end(log, False, coordinator_epoch=9)
    assert log.append_as_leader(plain, 0).first_offset == 6
    log.close()


def test_marker_without_data_changes_nothing(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    end(log, False)
    log.update_high_watermark(1)
    assert log.last_stable_offset == 1 and log.collect_aborted_transactions(0, 1) == []
    assert not log.active_segment.txn_index.path.exists()
    log.close()


def test_open_transaction_survives_clean_restart_via_snapshot(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(PID), 0)            # 0-1, aborted below
    end(log, False)                                    # 2
    log.append_as_leader(txn_batch(PID + 1), 0)        # 3-4, open
    log.close()
    state = ProducerStateManager.read_snapshot(tmp_path / "t-0" / "00000000000000000005.snapshot")
    assert state[PID + 1].current_txn_first_offset == 3 and state[PID].coordinator_epoch == 5
    log = open_log(tmp_path / "t-0")
    log.update_high_watermark(5)
    assert log.last_stable_offset == 3
    assert log.collect_aborted_transactions(0, 5) == [AbortedTxn(PID, 0, 2, 3)]
    end(log, True, PID + 1)
    log.update_high_watermark(6)
    assert log.last_stable_offset == 6
    log.close()


def test_unclean_recovery_rebuilds_txn_index_and_open_transactions(tmp_path: Path) -> None:
    d = tmp_path / "t-0"
    log = open_log(d, segment_bytes=300)
    log.append_as_leader(txn_batch(PID), 0)            # 0-1
    log.append_as_leader(txn_batch(PID + 1), 0)        # 2-3
    end(log, False)                                    # 4: A aborted (LSO 2: B open)
    log.append_as_leader(txn_batch(PID + 2), 0)        # 5-6
    end(log, False, PID + 1)                           # 7: B aborted
    assert len(log.segments) > 1
    expected = log.collect_aborted_transactions(0, 100)
    assert expected == [AbortedTxn(PID, 0, 4, 2), AbortedTxn(PID + 1, 2, 7, 5)]
    log.close_handlers()                               # a crash: no snapshot, no clean marker
    for p in d.glob("*.txnindex"):
        p.unlink()
    for p in d.glob("*.snapshot"):
        p.unlink()
    log = Log(d, LogConfig(segment_bytes=300), recovery_point=0, clean_shutdown=False, time=MockTime())
    assert log.collect_aborted_transactions(0, 100) == expected
    log.update_high_watermark(log.log_end_offset)
    assert log.first_unstable_offset == 5
    log.close()


def test_truncation_drops_index_entries_and_reopens_transaction(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(PID), 0)            # 0-1
    end(log, False)                                    # 2
    log.update_high_watermark(3)
    assert log.last_stable_offset == 3
    log.truncate_to(2)
    assert log.collect_aborted_transactions(0, 10) == []
    assert log.active_segment.txn_index.path.stat().st_size == 0
    assert log.first_unstable_offset == 0 and log.last_stable_offset == 0
    log.close()


def test_follower_append_keeps_state_and_index(tmp_path: Path) -> None:
    leader = open_log(tmp_path / "l-0")
    leader.append_as_leader(txn_batch(PID), 0)
    end(leader, False)
    follower = open_log(tmp_path / "f-0")
    follower.append_as_follower(leader.read(0, 1 << 20).read_bytes())
    assert follower.collect_aborted_transactions(0, 3) == [AbortedTxn(PID, 0, 2, 3)]
    leader.close()
    follower.close()


def test_retention_renames_txn_index_with_its_segment(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0", segment_bytes=200, file_delete_delay_ms=0, retention_ms=-1)
    log.append_as_leader(txn_batch(PID), 0)
    end(log, False)
    log.roll()
    log.append_as_leader(txn_batch(PID + 1), 0)
    first = log.segments[0]
    assert first.txn_index.path.exists()
    log.update_high_watermark(log.log_end_offset)
    log.maybe_increment_log_start_offset(log.segments[1].base_offset)
    assert log.delete_old_segments() == 1
    assert first.txn_index.path.name.endswith(".txnindex.deleted")
    log.delete_expired_files(force=True)
    assert not list((tmp_path / "t-0").glob("*.txnindex*"))
    log.close()


def test_expiration_keeps_producers_with_open_transactions(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    log.append_as_leader(txn_batch(PID, ts=0), 0)
    log.append_as_leader(build_batch([Record(0, 0, None, b"x")], producer_id=PID + 1, producer_epoch=0,
                                     base_sequence=0), 0)
    log.producer_state.remove_expired(now_ms=10**9, expiration_ms=1)
    assert set(log.producer_state.producers) == {PID}
    log.close()


# -- the cleaner's transaction rules --------------------------------------------------------

CLEAN_NOW = 1_700_000_000_000


def kv_txn(pid: int, pairs: list[tuple[bytes, bytes]], seq: int = 0) -> bytes:
    return build_batch([Record(i, CLEAN_NOW + i, k, v) for i, (k, v) in enumerate(pairs)], producer_id=pid,
                       producer_epoch=EPOCH, base_sequence=seq, is_transactional=True)


def kv(pairs: list[tuple[bytes, bytes]]) -> bytes:
    return build_batch([Record(i, CLEAN_NOW + i, k, v) for i, (k, v) in enumerate(pairs)])


def compacted(log: Log) -> list[tuple[int, bool, bytes | None, bytes | None]]:
    """(offset, is control, key, value) of every record left."""
    data = log.read(log.log_start_offset, 1 << 26).read_bytes()
    return [(r.offset, h.is_control, r.key, r.value) for h in R.iter_headers(data) for r in decode_batch(data, h)]


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[LogManager]:
    lm = LogManager([tmp_path], LogConfig(), time=MockTime())
    lm.startup()
    yield lm
    lm.shutdown()


def test_cleaner_removes_aborted_data_keeps_markers_then_drops_them(manager: LogManager) -> None:
    cfg = LogConfig(cleanup_policy="compact", min_cleanable_dirty_ratio=0.01, delete_retention_ms=1000,
                    file_delete_delay_ms=0)
    log = manager.get_or_create_log("c", 0, cfg)

    def append(records: bytes) -> None:
        log.append_as_leader(records, 0, now_ms=CLEAN_NOW)

    def idempotent(pid: int, key: bytes, value: bytes) -> bytes:
        return build_batch([Record(0, CLEAN_NOW, key, value)], producer_id=pid, producer_epoch=EPOCH,
                           base_sequence=1)

    append(kv([(b"a", b"1")]))                          # 0
    append(kv_txn(PID, [(b"a", b"aborted")]))           # 1
    end(log, False)                                     # 2
    append(kv_txn(PID + 1, [(b"b", b"committed")]))     # 3
    end(log, True, PID + 1)                             # 4
    append(kv_txn(PID + 2, [(b"c", b"open")]))          # 5, open
    log.roll()
    append(idempotent(PID + 1, b"b", b"new"))           # 6: shadows b=committed
    append(idempotent(PID, b"d", b"x"))                 # 7: PID's last batch is no longer the aborted one
    log.roll()
    log.update_high_watermark(log.log_end_offset)
    assert log.last_stable_offset == 5
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(CLEAN_NOW) == 0           # the open transaction's segment is not cleanable
    end(log, True, PID + 2)                             # 8
    log.roll()
    log.update_high_watermark(log.log_end_offset)
    assert cleaner.clean_once(CLEAN_NOW) == 1
    left = compacted(log)
    # the aborted a=aborted neither survives nor shadows a=1; every marker stays, since each
    # transaction had batches in this clean, and the ABORT keeps its .txnindex entry
    assert [(o, k, v) for o, c, k, v in left if not c] == [(0, b"a", b"1"), (5, b"c", b"open"), (6, b"b", b"new"),
                                                           (7, b"d", b"x")]
    assert [o for o, c, _, _ in left if c] == [2, 4, 8]
    assert log.collect_aborted_transactions(0, 9) == [AbortedTxn(PID, 1, 2, 3)]
    assert log.segments[0].txn_index.path.name == "00000000000000000000.txnindex"
    # the next clean finds those transactions' data gone: their markers get a delete horizon
    cleaner._first_dirty.clear()
    assert cleaner.clean_once(CLEAN_NOW + 10) == 1
    data = log.read(0, 1 << 26).read_bytes()
    assert [(h.base_offset, delete_horizon(h)) for h in R.iter_headers(data) if h.is_control] == [
        (2, CLEAN_NOW + 1010), (4, CLEAN_NOW + 1010), (8, None)]
    assert log.collect_aborted_transactions(0, 9) == []
    # ... and go once it has passed; the marker of the transaction whose data remains stays
    assert cleaner.clean_once(CLEAN_NOW + 1010) == 1
    assert [o for o, c, _, _ in compacted(log) if c] == [8]


def test_cleaner_keeps_an_active_producers_last_marker_emptied(manager: LogManager) -> None:
    cfg = LogConfig(cleanup_policy="compact", min_cleanable_dirty_ratio=0.01, delete_retention_ms=1000,
                    file_delete_delay_ms=0)
    log = manager.get_or_create_log("c", 0, cfg)
    log.append_as_leader(kv([(b"a", b"1")]), 0, now_ms=CLEAN_NOW)          # 0
    end(log, False, epoch=EPOCH + 1)                                       # 1: a bumped epoch, no data
    end(log, True, PID + 1)                                                # 2: another producer's, no data
    log.roll()
    log.update_high_watermark(log.log_end_offset)
    cleaner = LogCleaner(manager)
    assert cleaner.clean_once(CLEAN_NOW) == 1                              # horizons stamped
    assert cleaner.clean_once(CLEAN_NOW + 1000) == 1                       # and passed
    data = log.read(0, 1 << 26).read_bytes()
    kept = [(h.base_offset, h.record_count, h.is_control) for h in R.iter_headers(data)]
    # both producers' last entries are these markers (no data batch): Kafka keeps them, emptied
    assert kept == [(0, 1, False), (1, 0, True), (2, 0, True)]
    log.close()
    reopened = Log(log.dir, cfg, time=MockTime())
    assert reopened.producer_state.producers[PID].epoch == EPOCH + 1
    reopened.close()


def test_interrupted_cleaner_swap_rebuilds_the_txn_index(tmp_path: Path) -> None:
    d = tmp_path / "t-0"
    log = open_log(d)
    log.append_as_leader(txn_batch(PID), 0)             # 0-1
    end(log, False)                                     # 2
    log.roll()
    log.append_as_leader(build_batch([Record(0, 1000, None, b"x")]), 0)  # 3
    log.close()
    # a crash after the cleaned segment became `.swap` and before its .txnindex was renamed
    prefix = d / "00000000000000000000"
    Path(f"{prefix}.log").rename(f"{prefix}.log.swap")
    Path(f"{prefix}.txnindex").rename(f"{prefix}.txnindex.swap")
    log = open_log(d)
    assert not list(d.glob("*.swap"))
    assert log.collect_aborted_transactions(0, 4) == [AbortedTxn(PID, 0, 2, 3)]
    assert Path(f"{prefix}.txnindex").stat().st_size == ENTRY_SIZE
    log.close()
