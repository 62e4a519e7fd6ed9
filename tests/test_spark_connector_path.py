"""Spark's official Kafka connector against josefk.

Its client calls are replayed by compat/java/SparkConnectorPath.java with kafka-clients 3.9.2
(compat/java/pom-3.9.xml; the connector itself brings the same release), and real PySpark
jobs run through the connector itself, the way a PySpark user runs them: a plain
SparkSession whose only settings are `spark.jars.packages` and the driver's address (127.0.0.1)
(org.apache.spark:spark-sql-kafka-0-10_2.13 at pyspark's own version), which Spark resolves
with its dependencies from Maven Central (cached under ~/.ivy2*). On a machine without Maven
Central, SPARK_KAFKA_JARS gives the jars instead (a comma-separated list of
spark-sql-kafka-0-10, spark-token-provider-kafka-0-10, kafka-clients and commons-pool2).

One broker and one SparkSession serve the whole module: starting a session costs ~20 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from tests.conftest import RunningBroker
from tests.prerequisites import require_module
from tests.spark_jvm import stop_session_and_jvm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "compat"))

import setup_envs  # noqa: E402

pytestmark = pytest.mark.spark

SCALA = "2.13"  # the Scala build pyspark 4 ships (its jars/scala-library-2.13.*.jar)


def test_connector_client_calls_for_every_strategy_and_isolation_level(broker):
    setup_envs.setup_java(force=False)
    result = subprocess.run(["java", "-cp", setup_envs.java_classpath(), "SparkConnectorPath", broker.bootstrap],
                            capture_output=True, text=True, timeout=180)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert {(r["strategy"], r["isolation"]) for r in lines} == {
        (s, i) for s in ("subscribe", "subscribePattern", "assign") for i in ("read_uncommitted", "read_committed")}, \
        result.stderr[-2000:]
    failed = [r for r in lines if r["status"] != "pass"]
    assert not failed, failed


def connector_jars() -> tuple[str, str]:
    """The one Spark setting that puts the official connector on the classpath: the
    connector of pyspark's own version (pyproject.toml pins a pyspark whose connector Maven
    Central serves), or local jars from SPARK_KAFKA_JARS."""
    local = os.environ.get("SPARK_KAFKA_JARS")
    if local:
        return "spark.jars", local
    return "spark.jars.packages", f"org.apache.spark:spark-sql-kafka-0-10_{SCALA}:{version('pyspark')}"


@pytest.fixture(scope="module")
def kbroker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A josefk broker; with SPARK_CONNECTOR_BROKER=kafka, Apache Kafka 3.9.2 itself (jars from
    `make kafka-jars`, ZooKeeper from Debian's zookeeper package), to check that what these
    tests expect is what Kafka does."""
    if os.environ.get("SPARK_CONNECTOR_BROKER") == "kafka":
        from harness.kafka import KafkaBroker
        from harness.zookeeper import ZooKeeperServer

        zookeeper = ZooKeeperServer()
        try:
            kafka = KafkaBroker(tmp_path_factory.mktemp("connector-kafka"), zookeeper.connect)
            try:
                yield kafka
            finally:
                assert kafka.stop(), "Kafka did not shut down cleanly"
        finally:
            zookeeper.stop()
        return
    running = RunningBroker(tmp_path_factory.mktemp("connector-broker"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    require_module("pyspark")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").config(*connector_jars())
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    stop_session_and_jvm(session)  # a later module's session must not inherit the connector


def create(bootstrap: str, topic: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, partitions, 1)])
    finally:
        admin.close()


def produce(bootstrap: str, topic: str, n: int, partitions: int, start: int = 0,
            timestamp_ms: int | None = None) -> set[tuple[int, int]]:
    """n records keyed k<i>, valued v<i>, header n=<i>, round-robin over the partitions;
    record i's timestamp is timestamp_ms + 1000 * i when given. Returns the (partition,
    offset) pairs the broker acknowledged."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    futures = [producer.send(topic, key=f"k{i}".encode(), value=f"v{i}".encode(), partition=i % partitions,
                             headers=[("n", str(i).encode())],
                             timestamp_ms=None if timestamp_ms is None else timestamp_ms + 1000 * i)
               for i in range(start, start + n)]
    producer.flush()
    acked = {(m.partition, m.offset) for m in (f.get(timeout=30) for f in futures)}
    producer.close()
    assert len(acked) == n
    return acked


def read(spark: Any, bootstrap: str, **options: str) -> Any:
    r = spark.read.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        r = r.option(k, v)
    return r.load()


def stream(spark: Any, bootstrap: str, **options: str) -> Any:
    r = spark.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        r = r.option(k, v)
    return r.load()


def pairs(df: Any) -> list[tuple[int, int]]:
    """(partition, offset) of every row, sorted, duplicates kept."""
    return sorted((r.partition, r.offset) for r in df.select("partition", "offset").collect())


def test_batch_read_json_offsets(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "ranges", 3)
    produced = produce(bs, "ranges", 30, 3)
    everything = read(spark, bs, subscribe="ranges").collect()
    assert sorted((r.partition, r.offset) for r in everything) == sorted(produced)
    row = next(r for r in everything if r.value == b"v4")
    assert (row.key, row.topic, row.partition, row.offset, row.timestampType) == (b"k4", "ranges", 1, 1, 0)
    assert abs(row.timestamp.timestamp() - time.time()) < 300
    # -2 is earliest, -1 latest, as in Spark's docs
    ranged = read(spark, bs, subscribe="ranges",
                  startingOffsets=json.dumps({"ranges": {"0": 2, "1": -2, "2": 9}}),
                  endingOffsets=json.dumps({"ranges": {"0": 5, "1": 3, "2": -1}}))
    assert pairs(ranged) == [(0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (2, 9)]
    assigned = read(spark, bs, assign=json.dumps({"ranges": [2]}), startingOffsets="earliest")
    assert pairs(assigned) == [(2, o) for o in range(10)]


def test_batch_read_by_timestamp(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "timed", 2)
    base = int(time.time() * 1000) - 3_600_000  # record i at base + i s, i % 2 its partition
    produce(bs, "timed", 20, 2, timestamp_ms=base)
    rows = read(spark, bs, subscribe="timed", startingTimestamp=str(base + 5000),
                endingTimestamp=str(base + 12_000)).select("value", "timestamp").collect()
    assert sorted(int(r.value[1:]) for r in rows) == list(range(5, 12))  # [start, end)
    assert {int(r.timestamp.timestamp() * 1000) for r in rows} == {base + 1000 * i for i in range(5, 12)}
    # per partition: partition 0 holds records 0, 2, 4..., partition 1 holds 1, 3, 5...
    by_partition = read(spark, bs, subscribe="timed",
                        startingOffsetsByTimestamp=json.dumps({"timed": {"0": base + 3000, "1": base + 14_500}}),
                        endingOffsetsByTimestamp=json.dumps({"timed": {"0": base + 9000, "1": base + 60_000}}))
    assert sorted(int(r.value[1:]) for r in by_partition.select("value").collect()) == [4, 6, 8, 15, 17, 19]
    # a timestamp after every record: Spark's default strategy fails, "latest" reads nothing
    late = str(base + 3_600_000)
    with pytest.raises(Exception, match="(?i)timestamp"):
        read(spark, bs, subscribe="timed", startingTimestamp=late).count()
    assert read(spark, bs, subscribe="timed", startingTimestamp=late,
                startingOffsetsByTimestampStrategy="latest").count() == 0


def test_stream_restarted_from_checkpoint_delivers_exactly_once(spark: Any, kbroker: RunningBroker,
                                                                  tmp_path: Path) -> None:
    bs = kbroker.bootstrap
    create(bs, "clicks", 2)
    out, ckpt = tmp_path / "out", tmp_path / "ckpt"
    produced = produce(bs, "clicks", 30, 2)  # before the first run

    def run(trigger: dict[str, Any], during: Any = None) -> None:
        df = stream(spark, bs, subscribe="clicks", startingOffsets="earliest")
        q = (df.select("partition", "offset", "value").writeStream.format("parquet")
             .option("path", str(out)).option("checkpointLocation", str(ckpt)).trigger(**trigger).start())
        try:
            if during is None:
                assert q.awaitTermination(180)
            else:
                during()
                q.processAllAvailable()
        finally:
            q.stop()
        assert q.exception() is None

    run({"availableNow": True})
    assert pairs(spark.read.parquet(str(out))) == sorted(produced)
    produced |= produce(bs, "clicks", 20, 2, start=30)  # between the runs
    # a running query, with records produced while it runs
    run({"processingTime": "500 milliseconds"}, during=lambda: produced.update(produce(bs, "clicks", 20, 2, start=50)))
    produced |= produce(bs, "clicks", 10, 2, start=70)  # after the second run
    run({"availableNow": True})
    sink = spark.read.parquet(str(out))
    assert pairs(sink) == sorted(produced)  # every record once: no duplicate, none missing
    assert sorted(int(r.value[1:]) for r in sink.select("value").collect()) == list(range(80))
    last = max((p for p in (ckpt / "offsets").iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    assert json.loads(last.read_text().splitlines()[-1]) == {"clicks": {"0": 40, "1": 40}}


def test_sink_writes_key_value_headers_partition(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "sunk", 3)
    df = spark.createDataFrame(
        [(f"user{i}", f"page{i}".encode(), i % 3, [("src", f"s{i}".encode()), ("src", None)]) for i in range(12)],
        "key string, value binary, partition int, headers array<struct<key:string,value:binary>>")
    df.write.format("kafka").option("kafka.bootstrap.servers", bs).option("topic", "sunk").save()
    # the topic column routes rows when no topic option is given
    spark.createDataFrame([("sunk", "x", "y", 1)], "topic string, key string, value string, partition int") \
        .write.format("kafka").option("kafka.bootstrap.servers", bs).save()
    consumer = KafkaConsumer(bootstrap_servers=bs, auto_offset_reset="earliest", enable_auto_commit=False)
    consumer.assign([TopicPartition("sunk", p) for p in range(3)])
    got: list[Any] = []
    deadline = time.time() + 60
    while len(got) < 13 and time.time() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            got.extend(records)
    consumer.close()
    assert len(got) == 13
    extra = [r for r in got if r.key == b"x"]
    assert [(r.value, r.partition, r.headers) for r in extra] == [(b"y", 1, [])]
    for r in got:
        if r.key == b"x":
            continue
        i = int(r.key[4:])
        assert (r.value, r.partition, r.headers) == (f"page{i}".encode(), i % 3, [("src", f"s{i}".encode()),
                                                                                   ("src", None)])
    assert sorted(r.offset for r in got if r.partition == 0) == list(range(4))


def test_subscribe_pattern(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    for topic, partitions in (("pat-a", 2), ("pat-b", 1), ("patx", 1)):
        create(bs, topic, partitions)
        produce(bs, topic, 4, partitions)
    rows = read(spark, bs, subscribePattern="pat-.*").select("topic", "partition", "offset").collect()
    assert sorted((r.topic, r.partition, r.offset) for r in rows) == [
        ("pat-a", 0, 0), ("pat-a", 0, 1), ("pat-a", 1, 0), ("pat-a", 1, 1),
        ("pat-b", 0, 0), ("pat-b", 0, 1), ("pat-b", 0, 2), ("pat-b", 0, 3)]


def test_include_headers(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "headed", 1)
    from confluent_kafka import Producer  # kafka-python cannot send a null header value

    producer = Producer({"bootstrap.servers": bs})
    producer.produce("headed", value=b"a", headers=[("h", b"1"), ("empty", b""), ("h", b"2"), ("null", None)])
    producer.produce("headed", value=b"b")
    assert producer.flush(30) == 0
    rows = read(spark, bs, subscribe="headed", includeHeaders="true").orderBy("offset").collect()
    # order, repeated keys, empty and null values kept; a record without headers has null (Spark's choice)
    assert [r.headers and [(h.key, h.value) for h in r.headers] for r in rows] == [
        [("h", b"1"), ("empty", b""), ("h", b"2"), ("null", None)], None]
    assert "headers" not in read(spark, bs, subscribe="headed").columns


def test_max_offsets_per_trigger(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    bs = kbroker.bootstrap
    create(bs, "limited", 2)
    produce(bs, "limited", 50, 2)
    q = (stream(spark, bs, subscribe="limited", startingOffsets="earliest", maxOffsetsPerTrigger="12")
         .writeStream.format("noop").option("checkpointLocation", str(tmp_path / "ckpt"))
         .trigger(availableNow=True).start())
    try:
        assert q.awaitTermination(180)
    finally:
        q.stop()
    assert q.exception() is None
    # 25 records a partition, 12 a batch spread in proportion to each partition's backlog
    assert [p["numInputRows"] for p in q.recentProgress] == [12, 12, 12, 12, 2]
    ends = [json.loads(p["sources"][0]["endOffset"])["limited"] for p in q.recentProgress]
    assert ends[-1] == {"0": 25, "1": 25}


def test_min_partitions_splits_offset_ranges(spark: Any, kbroker: RunningBroker) -> None:
    from pyspark.sql.functions import spark_partition_id

    bs = kbroker.bootstrap
    create(bs, "split", 2)
    produced = produce(bs, "split", 40, 2)
    df = read(spark, bs, subscribe="split", minPartitions="6")
    assert df.rdd.getNumPartitions() == 6
    rows = df.select(spark_partition_id().alias("task"), "partition", "offset").collect()
    assert sorted((r.partition, r.offset) for r in rows) == sorted(produced)
    assert len({r.task for r in rows}) == 6
    assert read(spark, bs, subscribe="split").rdd.getNumPartitions() == 2


def test_read_committed(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    """Offsets listed and records fetched at read_committed. josefk has no transactions, so
    its last stable offset is the high watermark: every record is committed."""
    bs = kbroker.bootstrap
    create(bs, "committed", 2)
    produced = produce(bs, "committed", 20, 2)
    committed = {"kafka.isolation.level": "read_committed"}
    assert pairs(read(spark, bs, subscribe="committed", **committed)) == sorted(produced)
    out = tmp_path / "out"
    q = (stream(spark, bs, subscribe="committed", startingOffsets="earliest", **committed)
         .select("partition", "offset").writeStream.format("parquet").option("path", str(out))
         .option("checkpointLocation", str(tmp_path / "ckpt")).trigger(availableNow=True).start())
    try:
        assert q.awaitTermination(180)
    finally:
        q.stop()
    assert q.exception() is None
    assert pairs(spark.read.parquet(str(out))) == sorted(produced)


def test_fail_on_data_loss_after_delete_records(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    """Records below the log start offset (DeleteRecords) are lost: failOnDataLoss=true fails
    the batch read and the restarted stream, false skips to the log start."""
    bs = kbroker.bootstrap
    create(bs, "trimmed", 1)
    produce(bs, "trimmed", 10, 1)
    ckpt = tmp_path / "ckpt"

    def restart(fail: str) -> Any:
        return (stream(spark, bs, subscribe="trimmed", startingOffsets="earliest", failOnDataLoss=fail)
             .select("offset").writeStream.format("noop").option("checkpointLocation", str(ckpt))
             .trigger(availableNow=True).start())

    q = restart("true")
    assert q.awaitTermination(180) and q.exception() is None  # checkpoint at offset 10
    produce(bs, "trimmed", 10, 1, start=10)
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        admin.delete_records({TopicPartition("trimmed", 0): 15})
    finally:
        admin.close()
    from_zero = {"subscribe": "trimmed", "startingOffsets": json.dumps({"trimmed": {"0": 0}})}
    with pytest.raises(Exception, match="failOnDataLoss"):
        read(spark, bs, **from_zero).count()
    assert pairs(read(spark, bs, failOnDataLoss="false", **from_zero)) == [(0, o) for o in range(15, 20)]
    q = restart("true")
    with pytest.raises(Exception, match="failOnDataLoss"):
        q.awaitTermination(180)
    q.stop()
    q = restart("false")
    assert q.awaitTermination(180) and q.exception() is None
    assert sum(p["numInputRows"] for p in q.recentProgress) == 5


def test_stream_picks_up_new_partitions_and_pattern_topics(spark: Any, kbroker: RunningBroker,
                                                           tmp_path: Path) -> None:
    """Partitions (CreatePartitions) and topics matching subscribePattern that appear while the
    query runs are read from their first offset."""
    from kafka.admin import NewPartitions

    bs = kbroker.bootstrap
    create(bs, "grow-a", 1)
    produce(bs, "grow-a", 5, 1)
    out = tmp_path / "out"
    q = (stream(spark, bs, subscribePattern="grow-.*", startingOffsets="latest")
         .select("topic", "partition", "offset").writeStream.format("parquet").option("path", str(out))
         .option("checkpointLocation", str(tmp_path / "ckpt")).trigger(processingTime="500 milliseconds").start())
    try:
        q.processAllAvailable()  # starts at the end: the 5 records above are not read
        admin = KafkaAdminClient(bootstrap_servers=bs)
        try:
            admin.create_partitions({"grow-a": NewPartitions(3)})
        finally:
            admin.close()
        create(bs, "grow-b", 2)
        expected = {("grow-a", p, o) for p, o in produce(bs, "grow-a", 6, 3, start=5)}
        expected |= {("grow-b", p, o) for p, o in produce(bs, "grow-b", 4, 2)}
        deadline = time.time() + 120
        got: list[tuple[str, int, int]] = []
        while time.time() < deadline:
            q.processAllAvailable()
            got = sorted((r.topic, r.partition, r.offset) for r in spark.read.parquet(str(out)).collect())
            if len(got) >= len(expected):
                break
    finally:
        q.stop()
    assert q.exception() is None
    assert got == sorted(expected)


def test_log_append_time_topic(spark: Any, kbroker: RunningBroker) -> None:
    """message.timestamp.type=LogAppendTime: the broker's time replaces the producer's, in the
    records (timestampType 1) and for offsets by timestamp."""
    bs = kbroker.bootstrap
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        admin.create_topics([NewTopic("appended", 1, 1, topic_configs={"message.timestamp.type": "LogAppendTime"})])
    finally:
        admin.close()
    before = int(time.time() * 1000)
    produce(bs, "appended", 4, 1, timestamp_ms=before - 86_400_000)  # a day old, as the producer says
    rows = read(spark, bs, subscribe="appended").collect()
    assert [r.timestampType for r in rows] == [1, 1, 1, 1]
    assert all(r.timestamp.timestamp() * 1000 >= before - 1000 for r in rows)
    # by the producer's timestamps every record would be earlier than this; by append time none is
    assert read(spark, bs, subscribe="appended", startingTimestamp=str(before - 3_600_000)).count() == 4
