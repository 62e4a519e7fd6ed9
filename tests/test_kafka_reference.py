"""Apache Kafka 3.9 as the oracle for files: Kafka's DumpLogSegments reads what josefk
writes, and a log dir (with its ZooKeeper) written by Kafka is served by josefk intact."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from harness.kafka import DUMP_PROBLEMS, SEGMENT_FILES, KafkaBroker, dump_log_segments, segment_files
from harness.zookeeper import ZooKeeperServer
from josefk.log.cleaner import LogCleaner
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.record_codec import Record, build_batch

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")


def _deep_records(dump: str) -> int:
    return sum(1 for line in dump.splitlines() if line.startswith("| offset:"))


def test_dump_log_segments_validates_josefk_segments_indexes_and_snapshots(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "logs", overrides={"log.segment.bytes": "20000",
                                                         "log.index.interval.bytes": "500"})
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic(f"dump-{codec}", 1, 1) for codec in CODECS])
        admin.close()
        for codec in CODECS:
            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, enable_idempotence=True, acks="all",
                                     compression_type=None if codec == "none" else codec, linger_ms=5)
            for i in range(1500):
                producer.send(f"dump-{codec}", key=b"k%d" % (i % 50), value=b"value-%d " % i * 5,
                              headers=[("h", b"%d" % i)])
            producer.flush(timeout=60)
            producer.close()
    finally:
        assert broker.stop() == 0
    files = segment_files(tmp_path / "logs")
    assert {f.suffix for f in files} == set(SEGMENT_FILES)
    assert sum(1 for f in files if f.suffix == ".log" and f.parent.name.startswith("dump-")) > 2 * len(CODECS)
    dump = dump_log_segments([f for f in files if f.parent.name.startswith("dump-")])
    assert not [line for line in dump.splitlines() if DUMP_PROBLEMS.search(line)], dump[-3000:]
    assert _deep_records(dump) == 1500 * len(CODECS)
    assert "producerId:" in dump  # the .snapshot files were read as producer state


def test_dump_log_segments_validates_cleaned_segments(tmp_path: Path):
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    config = LogConfig(cleanup_policy="compact", segment_bytes=2000, min_cleanable_dirty_ratio=0.01)
    log = manager.get_or_create_log("cleaned", 0, config)
    now = 1_700_000_000_000
    for r in range(30):
        records = [Record(i, now + i, b"k%d" % ((i + r) % 7), None if i == 3 else b"v" * 40) for i in range(5)]
        log.append_as_leader(build_batch(records, compression=r % 5, producer_id=r % 3, producer_epoch=0,
                                         base_sequence=(r // 3) * 5), leader_epoch=1, now_ms=now)
    assert LogCleaner(manager).clean_once(now) == 1
    manager.shutdown()
    dump = dump_log_segments(segment_files(tmp_path))
    assert not [line for line in dump.splitlines() if DUMP_PROBLEMS.search(line)], dump[-3000:]
    assert 0 < _deep_records(dump) < 150  # cleaned: fewer records than the 150 appended


def _read_all(bootstrap: str, topic: str, partitions: int, expected: int) -> list[tuple]:
    """Every record of the topic, polled until `expected` arrived (bounded at 120 s)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    tps = [TopicPartition(topic, p) for p in range(partitions)]
    consumer.assign(tps)
    consumer.seek_to_beginning(*tps)
    seen: list[tuple] = []
    deadline = time.monotonic() + 120
    while len(seen) < expected and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            seen.extend((r.partition, r.offset, r.timestamp, r.key, r.value, tuple(r.headers)) for r in records)
    consumer.close()
    return sorted(seen)


def test_a_kafka_written_log_dir_is_served_by_josefk_intact(tmp_path: Path, zookeeper: ZooKeeperServer):
    """Kafka 3.9 writes a topic and a group's offsets; stopped, its log dir and ZooKeeper are
    handed to a josefk broker with the same broker.id: every record, offset, timestamp,
    header and committed offset is served as Kafka served it."""
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1)
    try:
        admin = KafkaAdminClient(bootstrap_servers=kafka.bootstrap)
        # 2023 timestamps: kept past the default retention, which Kafka applies 30 s after start
        admin.create_topics([NewTopic("migrated", 3, 1, topic_configs={"retention.ms": "-1"})])
        admin.close()
        for codec in (None, "gzip", "lz4"):
            producer = KafkaProducer(bootstrap_servers=kafka.bootstrap, compression_type=codec, acks="all",
                                     enable_idempotence=True)
            for i in range(300):
                producer.send("migrated", key=b"key-%d" % i, value=b"%s-%d" % (str(codec).encode(), i),
                              headers=[("codec", str(codec).encode()), ("i", b"%d" % i)],
                              timestamp_ms=1_700_000_000_000 + i)
            producer.flush(timeout=60)
            producer.close()
        expected = _read_all(kafka.bootstrap, "migrated", 3, 900)
        assert len(expected) == 900
        group = KafkaConsumer("migrated", bootstrap_servers=kafka.bootstrap, group_id="movers",
                              auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=60000)
        for count, _record in enumerate(group, 1):
            if count == 500:
                break
        group.commit()
        committed = {tp.partition: group.committed(tp, timeout_ms=30_000) for tp in group.assignment()}
        group.close()
        assert sum(committed.values()) >= 500
    finally:
        assert kafka.stop()

    josefk = BrokerProcess(kafka.log_dir, overrides={"broker.id": "1", "zookeeper.connect": zookeeper.connect})
    try:
        assert _read_all(josefk.bootstrap, "migrated", 3, 900) == expected
        admin = KafkaAdminClient(bootstrap_servers=josefk.bootstrap)
        offsets = admin.list_group_offsets("movers")["movers"]
        admin.close()
        assert {tp.partition: meta.offset for tp, meta in offsets.items()} == committed
    finally:
        assert josefk.stop() == 0
