"""The log manager seen through a real broker process: retention by time and size,
compaction (last value per key, tombstones dropped after delete.retention.ms,
__consumer_offsets compacted), and corruption detected after kill -9."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.structs import OffsetAndMetadata

from harness.josefk import BrokerProcess
from josefk.log.checkpoint import OffsetCheckpointFile
from josefk.log.log_manager import RECOVERY_POINT_CHECKPOINT
from josefk.protocol.records import HEADER_SIZE, iter_headers

pytestmark = pytest.mark.integration

FAST = {"log.retention.check.interval.ms": "200", "log.cleaner.backoff.ms": "200",
        "log.flush.scheduler.interval.ms": "200"}


def create(broker: BrokerProcess, topic: str, configs: dict[str, str]) -> None:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 1, 1, topic_configs=configs)])
    finally:
        admin.close()


def produce(broker: BrokerProcess, topic: str,
            messages: Sequence[tuple[bytes | None, bytes | None, int | None]]) -> None:
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=0, batch_size=256, acks=1)
    try:
        for key, value, ts in messages:
            producer.send(topic, key=key, value=value, timestamp_ms=ts)
            producer.flush()  # one small batch each: many batches, many segments
    finally:
        producer.close()


def read_all(broker: BrokerProcess, topic: str, timeout: float = 10) -> tuple[int, list[tuple[int, bytes | None,
                                                                                          bytes | None]]]:
    """(log start offset, every record from it to the log end)."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100)
    tp = TopicPartition(topic, 0)
    try:
        consumer.assign([tp])
        start = consumer.beginning_offsets([tp])[tp]
        end = consumer.end_offsets([tp])[tp]
        consumer.seek(tp, start)
        out: list[tuple[int, bytes | None, bytes | None]] = []
        deadline = time.time() + timeout
        while consumer.position(tp) < end and time.time() < deadline:
            for records in consumer.poll(timeout_ms=200).values():
                out += [(r.offset, r.key, r.value) for r in records]
        return start, out
    finally:
        consumer.close()


def segments(log_dir: Path, topic: str) -> list[int]:
    return sorted(int(p.name[:20]) for p in (log_dir / f"{topic}-0").glob("*.log"))


def wait_for(condition, timeout: float = 20, interval: float = 0.2):
    deadline = time.time() + timeout
    while True:
        result = condition()
        if result or time.time() > deadline:
            return result
        time.sleep(interval)


@pytest.fixture
def broker(tmp_path: Path):
    b = BrokerProcess(tmp_path, overrides=FAST)
    yield b
    b.stop()


def test_retention_by_time_and_size(broker: BrokerProcess, tmp_path: Path) -> None:
    now = int(time.time() * 1000)
    create(broker, "by-time", {"segment.bytes": "1000", "retention.ms": "600000", "file.delete.delay.ms": "0"})
    create(broker, "by-size", {"segment.bytes": "1000", "retention.bytes": "3000", "file.delete.delay.ms": "0"})
    old = [(b"k", b"old-%03d" % i + b"x" * 100, now - 3_600_000) for i in range(40)]
    new = [(b"k", b"new-%03d" % i + b"x" * 100, now) for i in range(20)]
    produce(broker, "by-time", old + new)
    produce(broker, "by-size", [(b"k", b"s-%03d" % i + b"x" * 100, now) for i in range(80)])

    # time: every segment holding only hour-old records goes; the first recent record stays
    def time_done():
        start, records = read_all(broker, "by-time")
        return (start, records) if start > 0 and segments(tmp_path, "by-time")[0] == start else None
    assert wait_for(time_done)
    start, records = read_all(broker, "by-time")
    values = [v for _, _, v in records if v is not None]
    assert len(values) == len(records)
    assert [v for v in values if v.startswith(b"new")] == [v for _, v, _ in new]
    assert start <= 40 and start > 40 - 8  # only the segment straddling old and new keeps old records
    assert all(v.startswith(b"old") for v in values[: 40 - start])

    # size: oldest whole segments go until one more would bring the log under retention.bytes
    def size_done():
        bases = segments(tmp_path, "by-size")
        sizes = [(tmp_path / "by-size-0" / f"{b:020d}.log").stat().st_size for b in bases]
        return bases[0] > 0 and sum(sizes) - 3000 < sizes[0]
    assert wait_for(size_done)
    start, records = read_all(broker, "by-size")
    assert start == segments(tmp_path, "by-size")[0]
    assert [o for o, _, _ in records] == list(range(start, 80))
    assert wait_for(lambda: OffsetCheckpointFile(tmp_path / "log-start-offset-checkpoint").read()
                    .get(("by-size", 0)) == start)


def test_compaction_keeps_the_last_value_and_drops_tombstones(broker: BrokerProcess, tmp_path: Path) -> None:
    create(broker, "cmp", {"cleanup.policy": "compact", "segment.bytes": "2000", "min.cleanable.dirty.ratio": "0.01",
                           "delete.retention.ms": "1500", "file.delete.delay.ms": "0"})
    keys = [b"key-%02d" % k for k in range(10)]
    messages: list[tuple[bytes | None, bytes | None, int | None]] = []
    for r in range(20):
        messages += [(k, b"%s=%d" % (k, r) + b"." * 30, None) for k in keys]
    deleted = keys[:3]
    messages += [(k, None, None) for k in deleted]
    messages += [(b"filler", b"f" * 60, None) for _ in range(40)]  # roll past the tombstones
    produce(broker, "cmp", messages)
    expected = {k: b"%s=%d" % (k, 19) + b"." * 30 for k in keys[3:]}

    def compacted_with_tombstones():
        _, records = read_all(broker, "cmp")
        tombstones = {k for _, k, v in records if v is None}
        return records if len(records) < 200 and tombstones == set(deleted) else None
    records = wait_for(compacted_with_tombstones)
    assert records, "the cleaner did not compact the topic"
    final = {k: v for _, k, v in records}
    assert {k: final[k] for k in keys[3:]} == expected
    assert [o for o, _, _ in records] == sorted({o for o, _, _ in records})

    def tombstones_gone():
        _, records = read_all(broker, "cmp")
        return records if not [k for _, k, _ in records if k in deleted] else None
    records = wait_for(tombstones_gone, timeout=15)
    assert records, "tombstones were not dropped after delete.retention.ms"
    assert {k: v for _, k, v in records if k != b"filler"} == expected
    checkpoint = OffsetCheckpointFile(tmp_path / "cleaner-offset-checkpoint")
    assert checkpoint.read().get(("cmp", 0), 0) > 0


def test_consumer_offsets_is_compacted(tmp_path: Path) -> None:
    overrides = {**FAST, "offsets.topic.num.partitions": "1", "offsets.topic.segment.bytes": "2000"}
    broker = BrokerProcess(tmp_path, overrides=overrides)
    tp = TopicPartition("some-topic", 0)
    try:
        create(broker, "some-topic", {})
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id="g", enable_auto_commit=False)
        for i in range(150):
            consumer.commit({tp: OffsetAndMetadata(i, "", -1)})
        consumer.close()
        log_dir = tmp_path / "__consumer_offsets-0"
        checkpoint = OffsetCheckpointFile(tmp_path / "cleaner-offset-checkpoint")
        assert wait_for(lambda: checkpoint.read().get(("__consumer_offsets", 0), 0) > 0)

        def cleaned_bytes() -> int:  # below the active segment, the 150 commits of one key squash to one
            logs = sorted(log_dir.glob("*.log"))
            return sum(p.stat().st_size for p in logs[:-1])
        assert len(list(log_dir.glob("*.log"))) > 1
        assert wait_for(lambda: cleaned_bytes() < 400), cleaned_bytes()
    finally:
        broker.stop()
    broker = BrokerProcess(tmp_path, port=broker.port, overrides=overrides)  # the offsets reload from it
    try:
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id="g", enable_auto_commit=False,
                                 request_timeout_ms=5000)
        committed = wait_for(lambda: consumer.committed(tp), timeout=10)
        consumer.close()
        assert committed == 149
    finally:
        broker.stop()


def _flip_byte_in_batch(segment: Path, which: float) -> tuple[int, int]:
    """Flip a byte inside the records of a batch part-way through the file; returns the
    batch's (base offset, last offset)."""
    data = bytearray(segment.read_bytes())
    headers = list(iter_headers(data))
    h = headers[int(len(headers) * which)]
    data[h.position + HEADER_SIZE + 3] ^= 0xFF
    with open(segment, "r+b") as f:
        f.write(data)
    return h.base_offset, h.last_offset


def test_flipped_byte_is_detected_after_kill_minus_9(tmp_path: Path) -> None:
    broker = BrokerProcess(tmp_path, overrides=FAST)
    create(broker, "old-seg", {"segment.bytes": "1500"})
    create(broker, "active-seg", {"segment.bytes": "1000000"})
    values = [b"value-%03d" % i + b"v" * 50 for i in range(60)]
    produce(broker, "old-seg", [(b"k", v, None) for v in values])
    produce(broker, "active-seg", [(b"k", v, None) for v in values])
    # the flusher checkpoints the rolled segments of old-seg: its recovery point reaches the active segment
    checkpoint = OffsetCheckpointFile(tmp_path / RECOVERY_POINT_CHECKPOINT)
    assert wait_for(lambda: checkpoint.read().get(("old-seg", 0), -1) >= segments(tmp_path, "old-seg")[-1],
                    timeout=60), checkpoint.read()
    broker.kill()

    # a byte flipped in an old segment (below the recovery point): caught when it is read
    old_first = tmp_path / "old-seg-0" / f"{segments(tmp_path, 'old-seg')[0]:020d}.log"
    bad_old = _flip_byte_in_batch(old_first, 0.5)
    # a byte flipped in the active segment (after the recovery point): recovery truncates there
    active = tmp_path / "active-seg-0" / f"{0:020d}.log"
    bad_active = _flip_byte_in_batch(active, 0.5)

    broker = BrokerProcess(tmp_path, port=broker.port, overrides=FAST)
    try:
        _, served = read_all(broker, "active-seg")
        assert [o for o, _, _ in served] == list(range(bad_active[0]))
        assert [v for _, _, v in served] == values[: bad_active[0]]

        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False,
                                 fetch_max_wait_ms=100)
        tp = TopicPartition("old-seg", 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        got: dict[int, bytes] = {}
        error: Exception | None = None
        deadline = time.time() + 60  # left at the first error: a loaded machine's slow fetches cost no time
        while time.time() < deadline:
            try:
                for records in consumer.poll(timeout_ms=200).values():
                    got.update((r.offset, r.value) for r in records)
            except Exception as e:  # noqa: BLE001 - the client surfaces CORRUPT_MESSAGE as an error
                error = e
                break
        consumer.close()
        assert all(values[o] == v for o, v in got.items())
        assert error is not None and "CorruptRecord" in type(error).__name__, error  # reported to the client
        assert not any(bad_old[0] <= o <= bad_old[1] for o in got), "a corrupt batch was served"
    finally:
        broker.stop()
    # and on disk the old segment is reported corrupt by a full check
    from josefk.log.config import LogConfig
    from josefk.log.log import Log
    from josefk.protocol.errors import KafkaError

    log = Log(tmp_path / "old-seg-0", LogConfig())
    try:
        with pytest.raises(KafkaError, match="Corrupt"):
            log.verify()
    finally:
        log.close()
    assert os.path.exists(old_first)
