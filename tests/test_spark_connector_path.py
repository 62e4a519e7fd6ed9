"""Spark's official Kafka connector against josefk.

Its exact client calls are replayed by compat/java/SparkConnectorPath.java with the same
kafka-clients release (3.9.1), and a real PySpark job reads through the connector itself:
Spark resolves spark-sql-kafka-0-10 and its dependencies from Maven Central
(spark.jars.packages, cached under ~/.ivy2*), or takes local jars from SPARK_KAFKA_JARS (a
comma-separated list of spark-sql-kafka-0-10, spark-token-provider-kafka-0-10,
kafka-clients and commons-pool2 jars) on a machine without Maven Central.
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

pytestmark = pytest.mark.spark

SCALA = "2.13"  # the Scala build pyspark 4 ships (its jars/scala-library-2.13.*.jar)
# The newest spark-sql-kafka-0-10 on Maven Central: 4.3.0, pyspark's own version, is not
# published there; this 4.2 connector runs on pyspark 4.3.0.
CONNECTOR = "4.2.0"


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
    """The Spark setting that puts the official connector on the classpath."""
    local = os.environ.get("SPARK_KAFKA_JARS")
    if local:
        return "spark.jars", local
    return "spark.jars.packages", f"org.apache.spark:spark-sql-kafka-0-10_{SCALA}:{CONNECTOR}"


@pytest.mark.timeout(600)  # the first run downloads the connector and its dependencies
def test_official_connector_batch_read(broker):
    from kafka import KafkaProducer
    from pyspark.sql import SparkSession

    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for i in range(10):
        producer.send("official", key=b"%d" % i, value=b"v%d" % i)
    producer.close()
    spark = SparkSession.builder.master("local[2]").config(*connector_jars()).getOrCreate()
    try:
        rows = (spark.read.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap)
                .option("subscribe", "official").load().orderBy("offset").collect())
        assert [(r.key, r.value) for r in rows] == [(b"%d" % i, b"v%d" % i) for i in range(10)]
    finally:
        spark.stop()
