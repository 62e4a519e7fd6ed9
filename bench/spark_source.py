"""Benchmark: rows/s that the josefk Spark source delivers into a no-op sink.

Starts a josefk broker, produces N 100-byte records with confluent-kafka, then times a batch
read of the whole topic through format("josefk") into format("noop") on local[2].

    .venv/bin/python bench/spark_source.py [--records 1000000] [--partitions 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.josefk import BrokerProcess  # noqa: E402


def produce(bootstrap: str, topic: str, records: int, partitions: int) -> float:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result()
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.size": 1_000_000,
                         "compression.type": "none", "queue.buffering.max.messages": 1_000_000})
    value = b"x" * 100
    start = time.perf_counter()
    for i in range(records):
        while True:
            try:
                producer.produce(topic, value, partition=i % partitions)
                break
            except BufferError:
                producer.poll(0.05)
        if i % 10_000 == 0:
            producer.poll(0)
    producer.flush()
    return records / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=2)
    parser.add_argument("--bootstrap", help="use a running broker instead of starting one")
    args = parser.parse_args()
    os.environ["PYSPARK_PYTHON"] = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        broker = None
        if args.bootstrap:
            bootstrap = args.bootstrap
        else:
            broker = BrokerProcess(Path(tmp))
            bootstrap = broker.bootstrap
        try:
            topic = f"bench-{int(time.time())}"
            rate = produce(bootstrap, topic, args.records, args.partitions)
            print(f"produced {args.records:,} x 100 B with confluent-kafka: {rate:,.0f} records/s")
            from pyspark.sql import SparkSession

            from josefk.spark import register
            spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false").config("spark.driver.host", "127.0.0.1")
                     .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
            spark.sparkContext.setLogLevel("ERROR")
            register(spark)

            def run() -> float:
                start = time.perf_counter()
                (spark.read.format("josefk").option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic)
                 .load().write.format("noop").mode("overwrite").save())
                return time.perf_counter() - start

            warm = run()  # JVM and Python worker warm-up
            timed = run()
            print(f"josefk source -> noop sink, local[2], {args.partitions} partitions: first run {warm:.1f} s, "
                  f"second run {timed:.1f} s = {args.records / timed:,.0f} rows/s")
            spark.stop()
        finally:
            if broker is not None:
                broker.stop()


if __name__ == "__main__":
    main()
