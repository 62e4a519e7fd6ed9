"""`josefk producer-perf-test` and `josefk consumer-perf-test`, like Kafka's perf tools.

kafka-python is too slow to load a broker, so confluent-kafka (librdkafka) is used
when it is installed; kafka-python is the fallback. Set JOSEFK_PERF_CLIENT=kafka-python
to force the fallback. Both take Kafka's Java property names (linger.ms, acks, ...).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from josefk.cli.tools import common
from josefk.cli.tools.common import ToolError

MB = 1024 * 1024
JAVA_ONLY = {"key.serializer", "value.serializer", "key.deserializer", "value.deserializer",
             "buffer.memory", "max.block.ms", "default.api.timeout.ms"}
"""Java client properties librdkafka doesn't know; they are accepted and ignored."""


def use_confluent() -> bool:
    """True when confluent-kafka is importable and not disabled by JOSEFK_PERF_CLIENT."""
    if os.environ.get("JOSEFK_PERF_CLIENT", "").lower() in ("kafka-python", "kafka_python"):
        return False
    try:
        import confluent_kafka  # noqa: F401
    except ImportError:
        return False
    return True


class Series:
    """Half-second samples for --csv and --plot, plus a live progress line on a terminal."""

    def __init__(self, total: int, unit: str) -> None:
        self.start = time.monotonic()
        self.rows: list[tuple[float, int, float, float]] = []  # elapsed s, count, records/s, MB/s
        self._mark, self._count, self._bytes = self.start, 0, 0
        self.total, self.unit = total, unit
        self.tty = sys.stdout.isatty()
        self._drawn = 0.0

    def add(self, count: int, nbytes: int) -> None:
        self._count += count
        self._bytes += nbytes
        now = time.monotonic()
        if now - self._mark >= 0.5:
            self.flush(now)
        if self.tty and now - self._drawn >= 0.2:
            self._drawn = now
            self.draw()

    def flush(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        span = now - self._mark
        if span > 0 and self._count:
            prev = self.rows[-1][1] if self.rows else 0
            self.rows.append((now - self.start, prev + self._count, self._count / span, self._bytes / MB / span))
        self._mark, self._count, self._bytes = now, 0, 0

    def done(self) -> int:
        return (self.rows[-1][1] if self.rows else 0) + self._count

    def draw(self) -> None:
        done = self.done()
        frac = min(1.0, done / self.total) if self.total else 0.0
        rate = self.rows[-1][2] if self.rows else 0.0
        bar = "#" * int(frac * 30)
        sys.stdout.write(f"\r\x1b[K[{bar:<30}] {done}/{self.total} {self.unit} {rate:,.0f} {self.unit}/sec")
        sys.stdout.flush()

    def clear(self) -> None:
        if self.tty:
            sys.stdout.write("\r\x1b[K")
            sys.stdout.flush()

    def write_csv(self, path: str) -> None:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["elapsed_s", self.unit, f"{self.unit}_per_sec", "mb_per_sec"])
            for elapsed, count, rate, mbs in self.rows:
                w.writerow([f"{elapsed:.3f}", count, f"{rate:.1f}", f"{mbs:.4f}"])

    def plot(self, path: str, title: str) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 4.5))
        xs = [r[0] for r in self.rows]
        ax.plot(xs, [r[2] for r in self.rows], marker=".", label=f"{self.unit}/sec")
        ax.set_xlabel("elapsed time (s)")
        ax.set_ylabel(f"{self.unit}/sec")
        ax2 = ax.twinx()
        ax2.plot(xs, [r[3] for r in self.rows], color="tab:orange", linestyle="--", label="MB/sec")
        ax2.set_ylabel("MB/sec")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        lines = ax.get_lines() + ax2.get_lines()
        ax.legend(handles=lines, loc="lower left")  # each line's label
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)


def _check_plot(path: str | None) -> None:
    """Fail before the run, not after it, when --plot can't be honoured."""
    if not path:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ToolError("--plot needs matplotlib, which is not installed. Install it with: "
                        "pip install matplotlib") from None


def _outputs(series: Series, args: argparse.Namespace, title: str) -> None:
    if args.csv:
        series.write_csv(args.csv)
    if args.plot:
        series.plot(args.plot, title)


def _add_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--csv", metavar="FILE", help="write throughput samples (every 0.5 s) to FILE as CSV")
    p.add_argument("--plot", metavar="FILE.png", help="draw throughput over time to FILE.png (needs matplotlib)")


# ---------------------------------------------------------------- producer


def producer_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-producer-perf-test.sh options, plus --csv and --plot."""
    p = common.parser("producer-perf-test", "A tool to measure producer throughput and latency.")
    p.add_argument("--topic", required=True, help="topic to produce to")
    p.add_argument("--num-records", type=int, required=True, help="number of records to produce")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--record-size", type=int, help="record size in bytes")
    size.add_argument("--payload-file", help="file of payloads to pick from at random (see --payload-delimiter)")
    size.add_argument("--payload-monotonic", action="store_true", help="payload is the record number as text")
    p.add_argument("--payload-delimiter", default="\\n", help="delimiter between payloads in --payload-file")
    p.add_argument("--throughput", type=float, required=True,
                   help="maximum records/sec to send; -1 for no throttling")
    p.add_argument("--producer-props", nargs="+", default=[], type=common.key_value, metavar="PROP=VALUE",
                   help="producer properties, e.g. bootstrap.servers=localhost:9092 acks=1 linger.ms=5")
    p.add_argument("--producer.config", dest="producer_config", metavar="FILE", help="producer properties file")
    p.add_argument("--bootstrap-server", metavar="HOST:PORT", help="the server(s) to connect to "
                   "(or bootstrap.servers in --producer-props)")
    p.add_argument("--transactional-id", help="produce in transactions with this id")
    p.add_argument("--transaction-duration-ms", type=int, default=3000, help="commit a transaction this often")
    p.add_argument("--print-metrics", action="store_true", help="print client statistics at the end")
    p.add_argument("--reporting-interval", type=int, default=5000, help="ms between window lines (default 5000)")
    _add_output_args(p)
    return p


class Stats:
    """Kafka's ProducerPerformance.Stats: window lines while running, the summary at the end."""

    def __init__(self, interval_ms: int) -> None:
        self.latencies: list[int] = []
        self.bytes = 0
        self.max_latency = 0
        self.total_latency = 0
        self.start = self.window_start = time.monotonic()
        self.interval = interval_ms / 1000
        self.w_count = self.w_bytes = self.w_latency = self.w_max = 0

    def record(self, latency_ms: int, nbytes: int) -> None:
        self.latencies.append(latency_ms)
        self.bytes += nbytes
        self.total_latency += latency_ms
        self.max_latency = max(self.max_latency, latency_ms)
        self.w_count += 1
        self.w_bytes += nbytes
        self.w_latency += latency_ms
        self.w_max = max(self.w_max, latency_ms)

    def window_due(self) -> bool:
        return time.monotonic() - self.window_start >= self.interval

    def window_line(self) -> str:
        now = time.monotonic()
        span = max(now - self.window_start, 1e-9)
        line = (f"{self.w_count} records sent, {self.w_count / span:.1f} records/sec "
                f"({self.w_bytes / MB / span:.2f} MB/sec), {self.w_latency / max(self.w_count, 1):.1f} ms avg "
                f"latency, {float(self.w_max):.1f} ms max latency.")
        self.window_start = now
        self.w_count = self.w_bytes = self.w_latency = self.w_max = 0
        return line

    def summary(self) -> str:
        n = len(self.latencies)
        span = max(time.monotonic() - self.start, 1e-9)
        ordered = sorted(self.latencies)

        def pct(q: float) -> int:
            return ordered[min(n - 1, int(q * n))] if n else 0

        return (f"{n} records sent, {n / span:f} records/sec ({self.bytes / MB / span:.2f} MB/sec), "
                f"{self.total_latency / max(n, 1):.2f} ms avg latency, {float(self.max_latency):.2f} ms max latency, "
                f"{pct(0.5)} ms 50th, {pct(0.95)} ms 95th, {pct(0.99)} ms 99th, {pct(0.999)} ms 99.9th.")


def _payloads(args: argparse.Namespace) -> Callable[[int], bytes]:
    """The payload generator Kafka's tool offers: fixed-size random, from a file, or the record number."""
    if args.payload_monotonic:
        return lambda i: str(i).encode()
    if args.payload_file:
        try:
            text = open(args.payload_file, encoding="utf-8").read()
        except OSError as e:
            raise ToolError(f"Cannot read payload file {args.payload_file}: {e.strerror}") from e
        items = [s.encode() for s in text.split(common.unescape(args.payload_delimiter)) if s]
        if not items:
            raise ToolError(f"File {args.payload_file} contains no payloads")
        print(f"Number of messages read: {len(items)}")
        return lambda i: random.choice(items)
    payload = bytes(random.choice(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(args.record_size))
    return lambda i: payload


class Throttler:
    """Kafka's ThroughputThrottler: sleep so the send rate stays at --throughput."""

    def __init__(self, rate: float) -> None:
        self.rate, self.start = rate, time.monotonic()

    def wait(self, sent: int) -> None:
        if self.rate <= 0:
            return
        ahead = sent / self.rate - (time.monotonic() - self.start)
        if ahead > 0.001:
            time.sleep(ahead)


def producer_main(argv: list[str]) -> int:
    p = producer_parser()
    args = p.parse_args(argv)
    if args.num_records < 0 or (args.record_size is not None and args.record_size < 0):
        p.error("--num-records and --record-size must not be negative")
    props = {**common.load_properties(args.producer_config), **dict(args.producer_props)}
    if args.bootstrap_server:
        props["bootstrap.servers"] = args.bootstrap_server
    if not props.get("bootstrap.servers"):
        p.error("Missing required argument: --bootstrap-server or bootstrap.servers in --producer-props")
    if args.transactional_id:
        props["transactional.id"] = args.transactional_id
    common.quiet_client_logs()
    try:
        _check_plot(args.plot)
        payload = _payloads(args)
        run = _produce_confluent if use_confluent() else _produce_kafka_python
        stats, series = run(args, props, payload)
        series.clear()
        print(stats.summary())
        _outputs(series, args, f"producer-perf-test: {args.topic}")
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - one line a person can act on
        return common.fail("ERROR ", e)


def _report(stats: Stats, series: Series) -> None:
    if stats.window_due():
        series.clear()
        print(stats.window_line(), flush=True)


def _produce_confluent(args: argparse.Namespace, props: dict[str, str],
                       payload: Callable[[int], bytes]) -> tuple[Stats, Series]:
    from confluent_kafka import KafkaException, Producer

    conf: dict[str, Any] = {k: v for k, v in props.items() if k not in JAVA_ONLY}
    conf.setdefault("acks", "all")
    conf["error_cb"] = lambda err: None  # connection errors surface through the bounded checks below
    try:
        producer = Producer(conf)
    except KafkaException as e:
        raise ToolError(f"Invalid producer configuration: {e.args[0].str()}") from None
    _confluent_reachable(producer, props["bootstrap.servers"], props)
    if args.transactional_id:
        producer.init_transactions(common.DEFAULT_TIMEOUT_MS / 1000)
        producer.begin_transaction()
    stats, series = Stats(args.reporting_interval), Series(args.num_records, "records")
    errors: list[str] = []
    throttler = Throttler(args.throughput)
    tx_start = time.monotonic()

    def callback(sent_at: float, size: int) -> Callable[[Any, Any], None]:
        def done(err: Any, _msg: Any) -> None:
            if err is not None:
                errors.append(err.str())
                return
            stats.record(int((time.monotonic() - sent_at) * 1000), size)
            series.add(1, size)
        return done

    for i in range(args.num_records):
        value = payload(i)
        while True:
            try:
                producer.produce(args.topic, value, on_delivery=callback(time.monotonic(), len(value)))
                break
            except BufferError:
                producer.poll(0.05)
        producer.poll(0)
        if errors:
            raise ToolError(f"Error when sending message to topic {args.topic}: {errors[0]}")
        if args.transactional_id and (time.monotonic() - tx_start) * 1000 >= args.transaction_duration_ms:
            producer.commit_transaction()
            producer.begin_transaction()
            tx_start = time.monotonic()
        _report(stats, series)
        throttler.wait(i + 1)
    if args.transactional_id:
        producer.commit_transaction()
    while producer.flush(0.2):
        _report(stats, series)
    if errors:
        raise ToolError(f"Error when sending message to topic {args.topic}: {errors[0]}")
    series.flush()
    return stats, series


def _confluent_reachable(client: Any, bootstrap: str, props: dict[str, str]) -> None:
    """librdkafka retries forever; ask for metadata once so a dead broker fails in bounded time."""
    from confluent_kafka import KafkaException

    timeout_ms = int(props.get("max.block.ms") or props.get("default.api.timeout.ms") or common.DEFAULT_TIMEOUT_MS)
    try:
        client.list_topics(timeout=timeout_ms / 1000)
    except KafkaException:
        raise common.unreachable(bootstrap, timeout_ms) from None


def _acked(stats: Stats, series: Series, sent_at: float, size: int) -> Callable[[Any], None]:
    def done(_metadata: Any) -> None:
        stats.record(int((time.monotonic() - sent_at) * 1000), size)
        series.add(1, size)
    return done


def _produce_kafka_python(args: argparse.Namespace, props: dict[str, str],
                          payload: Callable[[int], bytes]) -> tuple[Stats, Series]:
    from kafka import KafkaProducer

    bootstrap = props.pop("bootstrap.servers")
    for key in ("key.serializer", "value.serializer"):
        props.pop(key, None)
    producer = common.kafka_client(KafkaProducer, bootstrap, props, acks="all",
                                   max_block_ms=common.DEFAULT_TIMEOUT_MS)
    if args.transactional_id:
        producer.init_transactions()
        producer.begin_transaction()
    stats, series = Stats(args.reporting_interval), Series(args.num_records, "records")
    errors: list[str] = []
    throttler = Throttler(args.throughput)
    tx_start = time.monotonic()
    for i in range(args.num_records):
        value, sent_at = payload(i), time.monotonic()
        future = producer.send(args.topic, value)
        future.add_callback(_acked(stats, series, sent_at, len(value)))
        future.add_errback(lambda e: errors.append(common.error_text(e)))
        if errors:
            raise ToolError(f"Error when sending message to topic {args.topic}: {errors[0]}")
        if args.transactional_id and (time.monotonic() - tx_start) * 1000 >= args.transaction_duration_ms:
            producer.commit_transaction()
            producer.begin_transaction()
            tx_start = time.monotonic()
        _report(stats, series)
        throttler.wait(i + 1)
    if args.transactional_id:
        producer.commit_transaction()
    producer.flush()
    producer.close()
    if errors:
        raise ToolError(f"Error when sending message to topic {args.topic}: {errors[0]}")
    series.flush()
    return stats, series


# ---------------------------------------------------------------- consumer

HEADER = ("start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
          "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec")
DETAILED_HEADER = ("time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
                   "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec")


def consumer_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-consumer-perf-test.sh options, plus --csv and --plot."""
    p = common.parser("consumer-perf-test", "A tool to measure consumer throughput.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--topic", required=True, help="topic to consume from")
    p.add_argument("--messages", type=int, required=True, help="number of messages to consume")
    p.add_argument("--group", help="consumer group id (without it, partitions are assigned directly)")
    p.add_argument("--fetch-size", type=int, default=1024 * 1024, help="bytes to fetch per partition per request")
    p.add_argument("--from-latest", action="store_true", help="start at the end of the log, not the beginning")
    p.add_argument("--hide-header", action="store_true", help="don't print the header line")
    p.add_argument("--show-detailed-stats", action="store_true", help="print a row every --reporting-interval")
    p.add_argument("--reporting-interval", type=int, default=5000, help="ms between detailed rows (default 5000)")
    p.add_argument("--timeout", type=int, default=10000, help="ms allowed between returned records (default 10000)")
    p.add_argument("--consumer.config", dest="consumer_config", metavar="FILE", help="consumer properties file")
    p.add_argument("--date-format", default="yyyy-MM-dd HH:mm:ss:SSS", help="Java date format for times")
    p.add_argument("--print-metrics", action="store_true", help="print client statistics at the end")
    _add_output_args(p)
    return p


def _java_date(ts: float, fmt: str) -> str:
    """Format a time with the common Java SimpleDateFormat tokens Kafka's tool uses."""
    dt = datetime.fromtimestamp(ts)
    for java, value in (("yyyy", f"{dt.year:04d}"), ("SSS", f"{dt.microsecond // 1000:03d}"),
                        ("MM", f"{dt.month:02d}"), ("dd", f"{dt.day:02d}"), ("HH", f"{dt.hour:02d}"),
                        ("mm", f"{dt.minute:02d}"), ("ss", f"{dt.second:02d}")):
        fmt = fmt.replace(java, value)
    return fmt


class ConsumerStats:
    """Totals and the detailed-stats window for Kafka's consumer-perf-test rows."""

    def __init__(self, args: argparse.Namespace, series: Series) -> None:
        self.args, self.series = args, series
        self.messages = self.bytes = 0
        self.start_wall = time.time()
        self.start = time.monotonic()
        self.rebalance_ms = 0
        self.fetch_start: float | None = None
        self.last_record = self.start
        self.w_start, self.w_messages, self.w_bytes = self.start, 0, 0

    def add(self, count: int, nbytes: int) -> None:
        now = time.monotonic()
        if self.fetch_start is None:
            self.fetch_start = now
        self.messages += count
        self.bytes += nbytes
        self.last_record = now
        self.series.add(count, nbytes)
        if self.args.show_detailed_stats and (now - self.w_start) * 1000 >= self.args.reporting_interval:
            self.series.clear()
            span = now - self.w_start
            mb = (self.bytes - self.w_bytes) / MB
            n = self.messages - self.w_messages
            print(f"{_java_date(time.time(), self.args.date_format)}, 0, {self.bytes / MB:.4f}, {mb / span:.4f}, "
                  f"{self.messages}, {n / span:.4f}, {self.rebalance_ms}, {int(span * 1000)}, "
                  f"{mb / span:.4f}, {n / span:.4f}", flush=True)
            self.w_start, self.w_messages, self.w_bytes = now, self.messages, self.bytes

    def row(self) -> str:
        end = self.last_record
        elapsed = max(end - self.start, 1e-9)
        fetch = max(end - (self.fetch_start or end), 1e-9)
        mb = self.bytes / MB
        return (f"{_java_date(self.start_wall, self.args.date_format)}, "
                f"{_java_date(self.start_wall + (end - self.start), self.args.date_format)}, "
                f"{mb:.4f}, {mb / elapsed:.4f}, {self.messages}, {self.messages / elapsed:.4f}, "
                f"{self.rebalance_ms}, {int(fetch * 1000)}, {mb / fetch:.4f}, {self.messages / fetch:.4f}")


def consumer_main(argv: list[str]) -> int:
    p = consumer_parser()
    args = p.parse_args(argv)
    if args.messages < 0:
        p.error("--messages must not be negative")
    props = common.load_properties(args.consumer_config)
    common.quiet_client_logs()
    try:
        _check_plot(args.plot)
        series = Series(args.messages, "messages")
        stats = ConsumerStats(args, series)
        if not args.hide_header:
            print(DETAILED_HEADER if args.show_detailed_stats else HEADER, flush=True)
        run = _consume_confluent if use_confluent() else _consume_kafka_python
        run(args, props, stats)
        series.flush()
        series.clear()
        if stats.messages < args.messages:
            print(f"WARNING: Exiting before consuming the expected number of messages: timeout ({args.timeout} ms) "
                  "exceeded. You can use the --timeout option to increase the timeout.", file=sys.stderr)
        if not args.show_detailed_stats:
            print(stats.row())
        _outputs(series, args, f"consumer-perf-test: {args.topic}")
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 - one line a person can act on
        return common.fail("ERROR ", e)


def _consume_confluent(args: argparse.Namespace, props: dict[str, str], stats: ConsumerStats) -> None:
    from confluent_kafka import OFFSET_BEGINNING, OFFSET_END, Consumer, KafkaException, TopicPartition

    conf: dict[str, Any] = {k: v for k, v in props.items() if k not in JAVA_ONLY}
    conf.update({"bootstrap.servers": args.bootstrap_server,
                 "group.id": args.group or f"perf-consumer-{uuid.uuid4().hex[:8]}",
                 "enable.auto.commit": bool(args.group),
                 "auto.offset.reset": "latest" if args.from_latest else "earliest",
                 "max.partition.fetch.bytes": args.fetch_size,
                 "error_cb": lambda err: None})
    try:
        consumer = Consumer(conf)
    except KafkaException as e:
        raise ToolError(f"Invalid consumer configuration: {e.args[0].str()}") from None
    try:
        _confluent_reachable(consumer, args.bootstrap_server, props)
        if args.group:
            joined = time.monotonic()

            def on_assign(_c: Any, _parts: Any) -> None:
                stats.rebalance_ms = int((time.monotonic() - joined) * 1000)
            consumer.subscribe([args.topic], on_assign=on_assign)
        else:
            meta = consumer.list_topics(args.topic, timeout=common.DEFAULT_TIMEOUT_MS / 1000).topics.get(args.topic)
            if meta is None or meta.error is not None or not meta.partitions:
                raise ToolError(f"Topic {args.topic} does not exist")
            start = OFFSET_END if args.from_latest else OFFSET_BEGINNING
            consumer.assign([TopicPartition(args.topic, p, start) for p in sorted(meta.partitions)])
        stats.last_record = time.monotonic()
        while stats.messages < args.messages:
            batch = consumer.consume(num_messages=min(10_000, args.messages - stats.messages), timeout=0.2)
            good = [m for m in batch if m.error() is None]
            if good:
                stats.add(len(good), sum(len(m.value() or b"") + len(m.key() or b"") for m in good))
            elif (time.monotonic() - stats.last_record) * 1000 >= args.timeout:
                break
    finally:
        consumer.close()


def _consume_kafka_python(args: argparse.Namespace, props: dict[str, str], stats: ConsumerStats) -> None:
    from kafka import KafkaConsumer, TopicPartition

    consumer = common.kafka_client(
        KafkaConsumer, args.bootstrap_server, props, group_id=args.group, enable_auto_commit=bool(args.group),
        auto_offset_reset="latest" if args.from_latest else "earliest", max_partition_fetch_bytes=args.fetch_size)
    try:
        joined = time.monotonic()
        if args.group:
            consumer.subscribe([args.topic])
        else:
            parts = consumer.partitions_for_topic(args.topic)
            if not parts:
                raise ToolError(f"Topic {args.topic} does not exist")
            tps = [TopicPartition(args.topic, p) for p in sorted(parts)]
            consumer.assign(tps)
            (consumer.seek_to_end if args.from_latest else consumer.seek_to_beginning)(*tps)
        stats.last_record = time.monotonic()
        while stats.messages < args.messages:
            batch = consumer.poll(timeout_ms=200, max_records=args.messages - stats.messages)
            records = [r for part in batch.values() for r in part]
            if args.group and not stats.rebalance_ms and consumer.assignment():
                stats.rebalance_ms = int((time.monotonic() - joined) * 1000)
            if records:
                stats.add(len(records), sum(len(r.value or b"") + len(r.key or b"") for r in records))
            elif (time.monotonic() - stats.last_record) * 1000 >= args.timeout:
                break
    finally:
        consumer.close(timeout_ms=5000)
