"""`make demo`: the activity-stream pipeline end to end against a josefk broker it starts.

    .venv/bin/python examples/activity_stream/demo.py [--out demo-out] [--minutes 8] [--source kafka|josefk]

--source kafka (the default) reads and writes through Spark's official Kafka connector,
spark-sql-kafka-0-10 of pyspark's own version, which Spark fetches from Maven Central
(spark.jars.packages); --source josefk uses josefk's Python data source (no JVM connector).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import pipeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONNECTOR = f"org.apache.spark:spark-sql-kafka-0-10_2.13:{version('pyspark')}"


def say(msg: str) -> None:
    print(f"[demo {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def start_broker(log_dir: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [str(Path(sys.executable).parent / "josefk"), "broker", str(ROOT / "config/server.properties"),
           "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}", "--override", f"log.dirs={log_dir}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("josefk broker did not start")


def chart(offline: list, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for page in pipeline.PAGES:
        pts = sorted((r.window_start, r["count"]) for r in offline if r.page == page)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=page)
    ax.set_title("Page views per minute (event time), from josefk topic page_views")
    ax.set_xlabel("window start (UTC)")
    ax.set_ylabel("views")
    ax.legend(ncol=3, fontsize=8)
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="demo-out")
    parser.add_argument("--minutes", type=int, default=8, help="minutes of event time to generate")
    parser.add_argument("--per-minute", type=int, default=600)
    parser.add_argument("--source", choices=["kafka", "josefk"], default="kafka",
                        help="kafka: Spark's official connector (default); josefk: josefk's Python data source")
    args = parser.parse_args()
    os.environ["TZ"] = "UTC"
    time.tzset()
    os.environ["PYSPARK_PYTHON"] = sys.executable
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        say("starting a josefk broker")
        broker, bootstrap = start_broker(os.path.join(tmp, "logs"))
        try:
            from kafka.admin import KafkaAdminClient, NewTopic
            admin = KafkaAdminClient(bootstrap_servers=bootstrap)
            admin.create_topics([NewTopic(pipeline.TOPIC, pipeline.PARTITIONS, 1),
                                 NewTopic(pipeline.COUNTS_TOPIC, 1, 1)])
            admin.close()
            say(f"broker on {bootstrap}; topics {pipeline.TOPIC} (6 partitions), {pipeline.COUNTS_TOPIC}")
            from pyspark.sql import SparkSession

            builder = (SparkSession.builder.master("local[2]").appName("activity-stream")
                       .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                       .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                       .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC"))
            fmt = args.source
            if fmt == "kafka":
                say(f"Spark with the official connector {CONNECTOR}")
                builder = builder.config("spark.jars.packages", CONNECTOR)
            spark = builder.getOrCreate()
            spark.sparkContext.setLogLevel("ERROR")
            if fmt == "josefk":
                from josefk.spark import register
                register(spark)
                say("Spark with josefk's Python data source, format('josefk')")
            parquet_dir = str(out / "page_view_counts.parquet")
            query = pipeline.start_stream(spark, bootstrap, parquet_dir, os.path.join(tmp, "checkpoint"), fmt)
            say("streaming job started (1-minute windows, 1-minute watermark)")
            t = pipeline.START
            for minute in range(args.minutes):
                t = pipeline.generate(bootstrap, 1, args.per_minute, t, seed=minute)
                query.processAllAvailable()
                p = query.lastProgress or {}
                say(f"generated event minute {minute + 1}/{args.minutes} (event time {t:%H:%M}); "
                    f"stream batch {p.get('batchId', '-')}, watermark {p.get('eventTime', {}).get('watermark', '-')}")
            query.processAllAvailable()
            time.sleep(6)  # the no-data batch that emits windows closed by the last watermark
            query.processAllAvailable()
            query.stop()
            say("streaming job stopped; running the offline batch job over the topic's offset range")
            offline, watermark = pipeline.offline_counts(spark, bootstrap, fmt)
            online = spark.read.parquet(parquet_dir)
            agree, rows = pipeline.closed_windows_agree(online, offline, watermark)
            kafka_rows = (spark.read.format(fmt).option("kafka.bootstrap.servers", bootstrap)
                          .option("subscribe", pipeline.COUNTS_TOPIC).load().count())
            off = offline.collect()
            on = online.collect()
            closed_end = watermark.replace(tzinfo=None)
            print()
            print(f"{'page':<10} {'online (closed windows)':>24} {'offline (same windows)':>23} {'offline (all)':>14}")
            for page in pipeline.PAGES:
                o = sum(r["count"] for r in on if r.page == page)
                c = sum(r["count"] for r in off if r.page == page and r.window_end <= closed_end)
                a = sum(r["count"] for r in off if r.page == page)
                print(f"{page:<10} {o:>24} {c:>23} {a:>14}")
            print(f"\nwatermark {closed_end:%H:%M:%S}; {rows} closed (window, page) rows; "
                  f"{kafka_rows} records in topic {pipeline.COUNTS_TOPIC}; "
                  f"online == offline: {'YES' if agree else 'NO'}")
            png = out / "views_per_page.png"
            chart(off, png)
            say(f"chart: {png}; Parquet: {parquet_dir}")
            spark.stop()
            return 0 if agree and kafka_rows == rows else 1
        finally:
            broker.terminate()
            broker.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
