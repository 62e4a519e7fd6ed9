"""Activity stream on one log, processed online and offline (Kafka's original use case).

- generate(): page-view events {"user", "page", "referrer", "ts"} keyed by user into topic
  page_views (6 partitions), event time advancing on a simulated clock.
- start_stream(): Structured Streaming job: parse, 1-minute event-time windows with a
  1-minute watermark, views per page, each closed window written to topic page_view_counts
  and to Parquet.
- offline_counts(): batch job computing the same counts from the topic's offset range.
- closed_windows_agree(): online == offline for every window the watermark has closed.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from kafka import KafkaProducer

TOPIC, COUNTS_TOPIC, PARTITIONS = "page_views", "page_view_counts", 6
PAGES = ["/home", "/search", "/product", "/cart", "/checkout", "/help"]
WEIGHTS = [30, 25, 20, 12, 8, 5]
REFERRERS = ["google", "direct", "newsletter", "twitter", None]
EVENT_SCHEMA = "user STRING, page STRING, referrer STRING, ts TIMESTAMP"
WATERMARK = "1 minute"
START = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


def generate(bootstrap: str, minutes: float, per_minute: int, start: datetime, seed: int) -> datetime:
    """Produce `minutes` of event time at `per_minute` views/minute; returns the next event time.
    A few events arrive late (up to 40 s, inside the watermark)."""
    rnd = random.Random(seed)
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=10)
    n = int(minutes * per_minute)
    step = timedelta(minutes=1) / per_minute
    t = start
    for _ in range(n):
        t += step
        late = timedelta(seconds=rnd.uniform(0, 40)) if rnd.random() < 0.05 else timedelta(0)
        user = f"user{rnd.randrange(500)}"
        event = {"user": user, "page": rnd.choices(PAGES, WEIGHTS)[0], "referrer": rnd.choice(REFERRERS),
                 "ts": (t - late).isoformat()}
        producer.send(TOPIC, key=user.encode(), value=json.dumps(event).encode())
    producer.flush()
    producer.close()
    return t


def parse(df: Any) -> Any:
    """Kafka rows -> typed page-view events."""
    from pyspark.sql import functions as F

    return df.select(F.from_json(F.col("value").cast("string"), EVENT_SCHEMA).alias("e")).select("e.*")


def window_counts(events: Any) -> Any:
    """Views per page per 1-minute event-time window."""
    from pyspark.sql import functions as F

    return (events.groupBy(F.window("ts", "1 minute").alias("w"), "page").count()
            .select(F.col("w.start").alias("window_start"), F.col("w.end").alias("window_end"), "page", "count"))


def start_stream(spark: Any, bootstrap: str, parquet_dir: str, checkpoint: str, fmt: str = "josefk") -> Any:
    """The online job; returns the running StreamingQuery."""
    from pyspark.sql import functions as F

    events = parse(spark.readStream.format(fmt).option("kafka.bootstrap.servers", bootstrap)
                   .option("subscribe", TOPIC).option("startingOffsets", "earliest").load())
    counts = window_counts(events.withWatermark("ts", WATERMARK))

    def sink(batch: Any, batch_id: int) -> None:
        batch.persist()
        batch.write.mode("append").parquet(parquet_dir)
        (batch.select(F.col("page").alias("key"), F.to_json(F.struct("*")).alias("value"))
         .write.format(fmt).option("kafka.bootstrap.servers", bootstrap).option("topic", COUNTS_TOPIC)
         .mode("append").save())
        batch.unpersist()

    return (counts.writeStream.outputMode("append").foreachBatch(sink).option("checkpointLocation", checkpoint)
            .trigger(processingTime="2 seconds").start())


def offline_counts(spark: Any, bootstrap: str, fmt: str = "josefk") -> tuple[Any, datetime]:
    """The offline job: the same counts from the whole offset range of page_views, plus the
    watermark the online job reached (max event time - 1 minute)."""
    from pyspark.sql import functions as F

    events = parse(spark.read.format(fmt).option("kafka.bootstrap.servers", bootstrap).option("subscribe", TOPIC)
                   .option("startingOffsets", "earliest").option("endingOffsets", "latest").load()).cache()
    max_ts = events.agg(F.max("ts")).first()[0]
    return window_counts(events), max_ts - timedelta(minutes=1)


def closed_windows_agree(online: Any, offline: Any, watermark: datetime) -> tuple[bool, int]:
    """Compare the windows the watermark closed; (agree, number of (window, page) rows)."""
    from pyspark.sql import functions as F

    closed = offline.where(F.col("window_end") <= F.lit(watermark.replace(tzinfo=None)))
    a = {(r.window_start, r.page, r["count"]) for r in online.collect()}
    b = {(r.window_start, r.page, r["count"]) for r in closed.collect()}
    return a == b, len(b)
