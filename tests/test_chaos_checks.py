"""The chaos suite's checkers on made-up histories: each must catch what it is for."""

from __future__ import annotations

from collections import Counter

from confluent_kafka import KafkaError

from josefk.protocol.records import HEADER_SIZE
from tests.chaos import checks
from tests.chaos.load import Ack, Commit, IsrSample, RdKafkaProducerLoad
from tests.chaos.run import FATAL, ClientTally, Report


def sample(at: float, version: int, mtime: float, isr: tuple[int, ...], leader: int = 1) -> IsrSample:
    return IsrSample(at, 0, version, mtime, leader, isr)


SHRUNK = [sample(10.0, 0, 0.0, (1, 2, 3)), sample(10.1, 1, 10.05, (1,)), sample(20.0, 1, 10.05, (1,)),
          sample(20.1, 2, 20.05, (1, 2))]


def test_an_ack_inside_a_proven_under_min_isr_window_is_caught():
    inside = Ack(0, 5, b"v", sent=12.0, acked=13.0)
    assert len(checks.acks_below_min_isr([inside], SHRUNK, 2)) == 1


def test_acks_that_could_have_met_an_isr_of_two_are_not():
    before = Ack(0, 1, b"v", sent=9.0, acked=11.0)  # sent while the ISR was still 3
    propagating = Ack(0, 2, b"v", sent=10.5, acked=11.0)  # within ISR_PROPAGATION of the shrink
    after = Ack(0, 3, b"v", sent=19.0, acked=20.2)  # acked once the ISR grew back
    assert checks.acks_below_min_isr([before, propagating, after], SHRUNK, 2) == []


def test_a_version_gap_ends_what_a_version_proves_at_its_last_sample():
    gap = [sample(10.1, 1, 10.05, (1,)), sample(12.0, 1, 10.05, (1,)), sample(30.0, 3, 29.0, (1, 2))]
    (version, _three) = checks.timelines(gap)[0]
    assert version.span == checks.Span(10.05, 12.0)  # version 2 came somewhere in (12, 29]
    assert checks.acks_below_min_isr([Ack(0, 1, b"v", sent=12.5, acked=13.0)], gap, 2) == []


def test_stalls_count_only_while_the_isr_could_take_acks_all():
    healthy = [sample(t / 10, 0, 0.0, (1, 2)) for t in range(0, 301)]
    acks = [Ack(0, i, b"v", sent=t, acked=t) for i, t in enumerate((1.0, 2.0, 17.0, 29.0))]
    seconds, partition, began = checks.longest_stall(acks, healthy, 0.0, 30.0, 2)
    assert round(seconds, 1) == 15.0 and partition == 0 and began == 2.0
    shrunk = [s if not 3.0 <= s.at <= 16.0 else sample(s.at, 1, 3.0, (1,)) for s in healthy]
    assert round(checks.longest_stall(acks, shrunk, 0.0, 30.0, 2)[0], 1) == 12.0  # 17 to 29


def test_lost_and_duplicated_records():
    logs = {0: {0: b"a", 1: b"b", 2: b"a"}}
    assert checks.lost_acks([Ack(0, 1, b"b", 0, 0)], logs) == []
    assert len(checks.lost_acks([Ack(0, 1, b"x", 0, 0), Ack(0, 7, b"y", 0, 0)], logs)) == 2
    assert checks.duplicates(logs) == checks.Duplicates(["b'a' at [(0, 0), (0, 2)]"], [])


def test_committed_offsets_going_back_are_caught():
    fine = [Commit(1.0, 0, 5, False), Commit(2.0, 0, 5, True), Commit(3.0, 0, 9, False)]
    assert checks.offsets_went_back(fine) == []
    assert len(checks.offsets_went_back([*fine, Commit(4.0, 0, 0, True)])) == 1


def _batch(base_offset: int, payload: bytes) -> bytes:
    """A v2 batch header with one record's worth of made-up body; only sizes and magic are read."""
    length = HEADER_SIZE - 12 + len(payload)
    header = base_offset.to_bytes(8, "big") + length.to_bytes(4, "big") + bytes(4) + b"\x02"
    return header + bytes(HEADER_SIZE - len(header)) + payload


def test_replicas_must_hold_the_same_bytes_below_the_high_watermark(tmp_path):
    for broker, tail in ((1, b"x"), (2, b"x"), (3, b"y")):
        (tmp_path / f"b{broker}").mkdir()
        (tmp_path / f"b{broker}" / "00000000000000000000.log").write_bytes(_batch(0, b"a") + _batch(1, tail))
    dirs = {b: tmp_path / f"b{b}" for b in (1, 2, 3)}
    assert checks.replicas_differ(dirs, 1) == []  # they differ only at and above the high watermark
    (difference,) = checks.replicas_differ(dirs, 2)
    assert "broker 3 and broker 1" in difference and "offset 1" in difference


def test_librdkafka_fatal_errors_are_kept_and_other_errors_counted(tmp_path):
    load = RdKafkaProducerLoad("127.0.0.1:9", "t", 1, "librdkafka-0", 1.0, tmp_path / "librdkafka-0.log")
    for after in ("0ms in state CONNECT", "3012ms in state UP, 1 identical error(s) suppressed"):
        refused = f"b1:9092/1: Connect failed: Connection refused (after {after})"
        load._on_error(KafkaError(KafkaError._TRANSPORT, refused))
    assert load.fatal == []
    load._on_error(KafkaError(KafkaError.OUT_OF_ORDER_SEQUENCE_NUMBER, "ProduceRequest failed", fatal=True))
    (fatal,) = load.fatal
    assert fatal.endswith("librdkafka-0: OUT_OF_ORDER_SEQUENCE_NUMBER: ProduceRequest failed")
    assert load.client_errors == {"_TRANSPORT: b1:9092/1: Connect failed: Connection refused": 2,
                                  "OUT_OF_ORDER_SEQUENCE_NUMBER: ProduceRequest failed": 1}
    report = Report(1, clients={"librdkafka": ClientTally(1, 10, 8, Counter(_MSG_TIMED_OUT=2), load.client_errors)},
                    fatal=1, violations={FATAL: load.fatal})
    summary = report.summary()
    assert "librdkafka (1 producers): sent 10, acknowledged 8, timed out 2" in summary
    assert "    2 x _TRANSPORT: b1:9092/1: Connect failed: Connection refused" in summary
    assert f"VIOLATION {FATAL}: 1" in summary and "idempotent producer fatal errors: 1" in summary


def _idempotent_batch(base_offset: int, producer_id: int, epoch: int, sequence: int) -> bytes:
    """_batch with the producer fields set (producerId at byte 43, producerEpoch 51, baseSequence 53)."""
    batch = bytearray(_batch(base_offset, b"r"))
    batch[43:57] = producer_id.to_bytes(8, "big") + epoch.to_bytes(2, "big") + sequence.to_bytes(4, "big")
    return bytes(batch)


def test_a_duplicate_names_the_producer_epoch_and_sequence_of_each_copy(tmp_path):
    """The record of issue 27: librdkafka's resend under a bumped epoch, beside the first copy, is
    told apart from a batch the broker appended twice (same producer and epoch), the violation."""
    (tmp_path / "chaos-0").mkdir()
    (tmp_path / "chaos-0" / "00000000000000000000.log").write_bytes(
        _idempotent_batch(4040, 1000, 0, 2092) + _idempotent_batch(4041, 7, 0, 1948)
        + _idempotent_batch(4042, 1000, 1, 0) + _idempotent_batch(4043, 7, 0, 1948))
    logs = {0: {4040: b"v", 4041: b"w", 4042: b"v", 4043: b"w"}}
    found = checks.duplicates(logs, lambda p, offset: checks.batch_writer(tmp_path / f"chaos-{p}", offset))
    assert found.resent == ["b'v' at [(0, 4040), (0, 4042)]: offset 4040 by producer 1000 epoch 0 sequence 2092;"
                            " offset 4042 by producer 1000 epoch 1 sequence 0"]
    assert found.written_twice == ["b'w' at [(0, 4041), (0, 4043)]: offset 4041 by producer 7 epoch 0 sequence 1948;"
                                   " offset 4043 by producer 7 epoch 0 sequence 1948"]
    assert checks.batch_writer(tmp_path / "chaos-0", 4044) is None


def test_only_a_later_epoch_of_the_same_producer_counts_as_a_resend():
    first, bumped, other = checks.Writer(1000, 0, 5), checks.Writer(1000, 1, 0), checks.Writer(2000, 0, 0)
    writers = {0: first, 1: bumped, 2: other, 3: None}
    logs = {0: {0: b"a", 1: b"a", 2: b"b", 3: b"b"}}
    found = checks.duplicates(logs, lambda p, offset: writers[offset])
    assert len(found.resent) == 1 and "b'a'" in found.resent[0]
    assert len(found.written_twice) == 1 and "an unknown writer" in found.written_twice[0]
    assert checks.duplicates({0: {0: b"a", 1: b"a"}}, lambda p, o: [bumped, first][o]).written_twice  # epoch went down
