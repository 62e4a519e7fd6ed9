"""Spark's official Kafka connector against josefk.

The connector's jars come from Maven Central, which CI cannot reach, so its exact client
calls are replayed by compat/java/SparkConnectorPath.java with the same kafka-clients
release (3.9.1). When the connector jars are supplied locally (SPARK_KAFKA_JARS, a
comma-separated list of spark-sql-kafka-0-10, spark-token-provider-kafka-0-10,
kafka-clients and commons-pool2 jars), a real PySpark job runs through it too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "compat"))

import setup_envs  # noqa: E402


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


@pytest.mark.skipif(not os.environ.get("SPARK_KAFKA_JARS"),
                    reason="set SPARK_KAFKA_JARS to the spark-sql-kafka-0-10 jars to run the official connector")
def test_official_connector_batch_read(broker):
    from kafka import KafkaProducer
    from pyspark.sql import SparkSession

    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for i in range(10):
        producer.send("official", key=b"%d" % i, value=b"v%d" % i)
    producer.close()
    spark = (SparkSession.builder.master("local[2]").config("spark.jars", os.environ["SPARK_KAFKA_JARS"])
             .getOrCreate())
    try:
        rows = (spark.read.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap)
                .option("subscribe", "official").load().orderBy("offset").collect())
        assert [(r.key, r.value) for r in rows] == [(b"%d" % i, b"v%d" % i) for i in range(10)]
    finally:
        spark.stop()
