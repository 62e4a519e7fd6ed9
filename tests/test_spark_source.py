"""josefk.spark against a real josefk broker with a real local SparkSession (local[2]).

One broker and one SparkSession per module keep the file within a few minutes. Fails at
once when pyspark/pyarrow (the josefk[spark] extra) or Java are missing."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic

from tests.conftest import RunningBroker
from tests.prerequisites import require_module, require_tools
from tests.spark_jvm import stop_session_and_jvm

require_module("pyspark")
require_module("pyarrow")
if not os.environ.get("JAVA_HOME"):
    require_tools("java")

pytestmark = [pytest.mark.spark, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def kbroker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path_factory.mktemp("spark-broker"), {"log.retention.check.interval.ms": "200"})
    yield running
    running.stop()


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from josefk.spark import register, shim

    os.environ.setdefault("JOSEFK_SPARK_SHIM_DIR", str(tmp_path_factory.mktemp("shim")))
    builder = (SparkSession.builder.master("local[2]").appName("josefk-spark-tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true"))
    session = shim.configure(builder).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    register(session)
    yield session
    stop_session_and_jvm(session)  # a later module's session must not inherit the shim


def create(bootstrap: str, topic: str, partitions: int, configs: dict[str, str] | None = None) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, partitions, 1, topic_configs=configs or {})])
    finally:
        admin.close()


def produce(bootstrap: str, topic: str, n: int, partitions: int, start: int = 0, size: int = 0) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, batch_size=1024 if size else 16384)
    for i in range(start, start + n):
        value = f"v{i}".encode().ljust(size, b".")
        producer.send(topic, key=f"k{i}".encode(), value=value, partition=i % partitions,
                      headers=[("n", str(i).encode())])
    producer.flush()
    producer.close()


def reader(spark: Any, bootstrap: str, fmt: str = "josefk", **options: str) -> Any:
    r = spark.read.format(fmt).option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        r = r.option(k, v)
    return r.load()


def stream(spark: Any, bootstrap: str, fmt: str = "josefk", **options: str) -> Any:
    r = spark.readStream.format(fmt).option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        r = r.option(k, v)
    return r.load()


def test_batch_read_starting_ending_offsets(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "batch", 3)
    produce(bs, "batch", 30, 3)
    everything = reader(spark, bs, subscribe="batch", includeHeaders="true").collect()
    assert len(everything) == 30
    row = next(r for r in everything if r.value == b"v4")
    assert (row.key, row.topic, row.partition, row.offset, row.timestampType) == (b"k4", "batch", 1, 1, 0)
    assert [(h.key, h.value) for h in row.headers] == [("n", b"4")]
    assert abs(row.timestamp.timestamp() - time.time()) < 120
    ranged = reader(spark, bs, subscribe="batch",
                    startingOffsets=json.dumps({"batch": {"0": 2, "1": -2, "2": 9}}),
                    endingOffsets=json.dumps({"batch": {"0": 5, "1": 3, "2": -1}})).collect()
    assert sorted((r.partition, r.offset) for r in ranged) == [(0, 2), (0, 3), (0, 4), (1, 0), (1, 1), (1, 2), (2, 9)]
    assigned = reader(spark, bs, assign=json.dumps({"batch": [2]}), startingOffsets="earliest")
    assert {r.partition for r in assigned.collect()} == {2}
    future = reader(spark, bs, subscribe="batch", startingTimestamp=str(int(time.time() * 1000) + 3_600_000),
                    startingOffsetsByTimestampStrategy="latest")
    assert future.count() == 0


def test_stream_restart_resumes_exactly_once(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    bs = kbroker.bootstrap
    create(bs, "clicks", 2)
    produce(bs, "clicks", 40, 2)
    out, ckpt = tmp_path / "out", tmp_path / "ckpt"

    def run(trigger: dict[str, Any], during: Any = None) -> None:
        df = stream(spark, bs, subscribe="clicks", startingOffsets="earliest", maxOffsetsPerTrigger="15")
        q = (df.selectExpr("CAST(value AS STRING) AS value", "partition", "offset").writeStream.format("parquet")
             .option("path", str(out)).option("checkpointLocation", str(ckpt)).trigger(**trigger).start())
        if during is None:
            q.awaitTermination(180)
        else:
            during()
            q.processAllAvailable()
            q.stop()
        assert q.exception() is None

    run({"availableNow": True})  # 40 records, batches of at most 15
    assert spark.read.parquet(str(out)).count() == 40
    run({"processingTime": "500 milliseconds"}, during=lambda: produce(bs, "clicks", 25, 2, start=40))
    produce(bs, "clicks", 15, 2, start=65)
    run({"availableNow": True})
    rows = spark.read.parquet(str(out)).collect()
    assert sorted(int(r.value[1:]) for r in rows) == list(range(80))
    assert len({(r.partition, r.offset) for r in rows}) == 80
    last = max((p for p in (ckpt / "offsets").iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    assert json.loads(last.read_text().splitlines()[-1]) == {"clicks": {"0": 40, "1": 40}}


def test_sink_writes_keys_headers_partitions(spark: Any, kbroker: RunningBroker) -> None:
    bs = kbroker.bootstrap
    create(bs, "sunk", 3)
    df = spark.createDataFrame(
        [(f"user{i}", f"page{i}", i % 3, [("src", f"s{i}".encode())]) for i in range(12)],
        "key string, value string, partition int, headers array<struct<key:string,value:binary>>")
    df.write.format("josefk").option("kafka.bootstrap.servers", bs).option("topic", "sunk").mode("append").save()
    consumer = KafkaConsumer(bootstrap_servers=bs, auto_offset_reset="earliest", enable_auto_commit=False)
    consumer.assign([TopicPartition("sunk", p) for p in range(3)])
    got: list[Any] = []
    deadline = time.time() + 30
    while len(got) < 12 and time.time() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            got.extend(records)
    consumer.close()
    assert len(got) == 12
    for r in got:
        i = int(r.key[4:])
        assert (r.key, r.value, r.partition, r.headers) == (f"user{i}".encode(), f"page{i}".encode(), i % 3,
                                                              [("src", f"s{i}".encode())])
    # the topic column routes rows when no topic option is given
    spark.createDataFrame([("sunk", "x", "y")], "topic string, key string, value string").write \
        .format("josefk").option("kafka.bootstrap.servers", bs).mode("append").save()
    assert reader(spark, bs, subscribe="sunk").count() == 13


def test_fail_on_data_loss(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    bs = kbroker.bootstrap
    create(bs, "aged", 1, {"segment.bytes": "4096", "retention.bytes": "8192"})
    produce(bs, "aged", 200, 1, size=100)
    admin = KafkaAdminClient(bootstrap_servers=bs)
    tp = TopicPartition("aged", 0)
    deadline, seen = time.time() + 30, [0]
    while time.time() < deadline and (seen[-1] == 0 or len(seen) < 5 or len(set(seen[-5:])) > 1):
        seen.append(admin.list_partition_offsets({tp: -2})[tp].offset)  # wait until retention settles
        time.sleep(0.3)
    admin.close()
    earliest = seen[-1]
    assert earliest > 0, "retention did not remove the oldest segments"
    from_zero = {"startingOffsets": json.dumps({"aged": {"0": 0}}), "subscribe": "aged"}
    with pytest.raises(Exception, match="failOnDataLoss"):
        reader(spark, bs, **from_zero).count()
    rows = reader(spark, bs, failOnDataLoss="false", **from_zero).select("offset").collect()
    offsets = sorted(r.offset for r in rows)
    assert offsets[0] >= earliest and offsets == list(range(offsets[0], 200))
    # a streaming query asked to start below the log start: fails, or continues from the earliest
    for fail, expect_error in (("true", True), ("false", False)):
        q = (stream(spark, bs, failOnDataLoss=fail, **from_zero).writeStream.format("noop")
             .option("checkpointLocation", str(tmp_path / fail)).trigger(availableNow=True).start())
        if expect_error:
            with pytest.raises(Exception, match="failOnDataLoss"):
                q.awaitTermination(120)
        else:
            q.awaitTermination(120)
            assert q.exception() is None
            assert 0 < sum(p["numInputRows"] for p in q.recentProgress) <= 200 - earliest


def test_subscribe_pattern_picks_up_new_topic(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    bs = kbroker.bootstrap
    create(bs, "pat-a", 2)
    produce(bs, "pat-a", 6, 2)
    df = stream(spark, bs, subscribePattern="pat-.*", startingOffsets="earliest")
    q = (df.selectExpr("topic", "CAST(value AS STRING) AS value").writeStream.format("memory").queryName("pattern")
         .option("checkpointLocation", str(tmp_path / "ckpt")).trigger(processingTime="500 milliseconds").start())
    try:
        q.processAllAvailable()
        create(bs, "pat-b", 3)
        produce(bs, "pat-b", 9, 3)
        deadline = time.time() + 90
        while time.time() < deadline:
            seen = {(r.topic, r.value) for r in spark.sql("SELECT * FROM pattern").collect()}
            if len(seen) >= 15:
                break
            time.sleep(1)
    finally:
        q.stop()
    assert {t for t, _ in seen} == {"pat-a", "pat-b"}
    assert sorted(v for t, v in seen if t == "pat-b") == sorted(f"v{i}" for i in range(9))


def test_format_kafka_unchanged_job_through_shim(spark: Any, kbroker: RunningBroker, tmp_path: Path) -> None:
    """An unchanged format("kafka") job, streaming read and write, runs on josefk.spark."""
    bs = kbroker.bootstrap
    create(bs, "k-in", 2)
    produce(bs, "k-in", 10, 2)
    q = (stream(spark, bs, "kafka", subscribe="k-in", startingOffsets="earliest")
         .selectExpr("key", "UPPER(CAST(value AS STRING)) AS value").writeStream.format("kafka")
         .option("kafka.bootstrap.servers", bs).option("topic", "k-out")
         .option("checkpointLocation", str(tmp_path / "ckpt")).trigger(availableNow=True).start())
    q.awaitTermination(120)
    assert q.exception() is None
    out = reader(spark, bs, "kafka", subscribe="k-out").selectExpr("CAST(key AS STRING) k", "CAST(value AS STRING) v")
    assert sorted((r.k, r.v) for r in out.collect()) == sorted((f"k{i}", f"V{i}") for i in range(10))
