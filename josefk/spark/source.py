"""Kafka's Structured Streaming source contract on PySpark's Python Data Source API.

The driver lists partitions and offsets with kafka-python's KafkaAdminClient (Metadata,
ListOffsets), as Spark's KafkaOffsetReaderAdmin does; each Spark task reads one Kafka
partition's offset range with a KafkaConsumer doing assign + seek + poll, auto-commit off."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from pyspark.sql.datasource import DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    SupportsTriggerAvailableNow,
)
from pyspark.sql.types import StructType

from josefk.spark.options import EARLIEST, LATEST, TP, Offsets, SourceOptions, from_tp_map, to_tp_map

log = logging.getLogger(__name__)

ARROW_CHUNK = 8192


class DataLossError(RuntimeError):
    """Requested offsets are no longer available (retention, deleted topic, reset offsets)."""


def report_data_loss(so: SourceOptions, message: str) -> None:
    """Raise when failOnDataLoss is true (the default), else log and carry on, like Spark."""
    if so.fail_on_data_loss:
        raise DataLossError(message + ". Some data may have been lost because they are not available in Kafka "
                            "any more; either the data was aged out by Kafka or the topic may have been deleted "
                            "before all the data in the topic was processed. If you don't want your streaming "
                            "query to fail on such cases, set the source option \"failOnDataLoss\" to \"false\".")
    log.warning("%s. Some data may have been lost; failOnDataLoss is false, continuing.", message)


class OffsetRange(InputPartition):
    """One Spark input partition: offsets [start, end) of one Kafka partition."""

    def __init__(self, topic: str, partition: int, start: int, end: int) -> None:
        super().__init__((topic, partition, start, end))
        self.topic, self.partition, self.start, self.end = topic, partition, start, end

    def __repr__(self) -> str:
        return f"OffsetRange({self.topic}-{self.partition} [{self.start}, {self.end}))"


class OffsetReader:
    """Driver side: partitions of the subscription and their offsets, through the admin client."""

    def __init__(self, so: SourceOptions) -> None:
        self.so = so
        self._admin: Any = None

    @property
    def admin(self) -> Any:
        if self._admin is None:
            from kafka import KafkaAdminClient
            self._admin = KafkaAdminClient(**self.so.admin)
        return self._admin

    def close(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def partitions(self) -> set[TP]:
        """The subscription's current partitions (describeTopics / listTopics + describe)."""
        so = self.so
        if so.strategy == "assign":
            return set(so.assigned)
        topics = self.admin.describe_topics(so.topics if so.strategy == "subscribe" else None)
        return {(t["name"], p["partition_index"]) for t in topics if t["error_code"] == 0 and so.matches(t["name"])
                for p in t["partitions"]}

    def list_offsets(self, specs: dict[TP, int]) -> dict[TP, int]:
        """ListOffsets for each partition: spec -2 earliest, -1 latest, >= 0 a timestamp
        (result -1 when no record has a timestamp that late)."""
        if not specs:
            return {}
        from kafka import TopicPartition
        from kafka.protocol.consumer.offsets import IsolationLevel

        level = IsolationLevel.READ_COMMITTED if self.so.read_committed else IsolationLevel.READ_UNCOMMITTED
        for attempt in range(10):
            try:
                result = self.admin.list_partition_offsets(
                    {TopicPartition(t, p): spec for (t, p), spec in specs.items()}, isolation_level=level)
                return {(tp.topic, tp.partition): r.offset for tp, r in result.items()}
            except Exception as e:  # a partition just created may not have a leader yet
                if attempt == 9:
                    raise
                log.debug("ListOffsets failed (%s), retrying", e)
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    def earliest(self, tps: set[TP]) -> dict[TP, int]:
        return self.list_offsets(dict.fromkeys(tps, EARLIEST))

    def latest(self, tps: set[TP]) -> dict[TP, int]:
        return self.list_offsets(dict.fromkeys(tps, LATEST))

    def resolve(self, which: str, spec: str | Offsets, ts: int | None, ts_by_partition: Offsets | None
                ) -> dict[TP, int]:
        """Concrete offsets for a startingOffsets / endingOffsets setting. A global timestamp
        wins over per-partition timestamps, which win over offsets (Spark's priority)."""
        tps = self.partitions()
        if ts is not None or ts_by_partition is not None:
            wanted = dict.fromkeys(tps, ts) if ts is not None else to_tp_map(ts_by_partition or {})
            self._check_specified(tps, set(wanted), which)
            found = self.list_offsets(wanted)
            missing = {tp for tp, o in found.items() if o < 0}
            if missing:
                if which == "starting" and self.so.ts_strategy != "latest":
                    raise ValueError(f"No offset matched the timestamp for partitions {sorted(missing)} "
                                     "(startingOffsetsByTimestampStrategy=error)")
                found.update(self.latest(missing))
            return found
        if isinstance(spec, str):
            return self.earliest(tps) if spec == "earliest" else self.latest(tps)
        wanted = to_tp_map(spec)
        self._check_specified(tps, set(wanted), which)
        symbolic = {tp: o for tp, o in wanted.items() if o < 0}
        return {**wanted, **self.list_offsets(symbolic)}

    def _check_specified(self, tps: set[TP], given: set[TP], which: str) -> None:
        if self.so.strategy == "assign" or given == tps:
            return
        raise ValueError(f"{which} offsets / timestamps must specify all TopicPartitions: "
                         f"assigned {sorted(tps)}, specified {sorted(given)}")


def rate_limit(limit: int, start: dict[TP, int], end: dict[TP, int]) -> dict[TP, int]:
    """Spread maxOffsetsPerTrigger over partitions in proportion to their backlog (Spark's rateLimit)."""
    sizes = {tp: e - start.get(tp, e) for tp, e in end.items()}
    total = sum(s for s in sizes.values() if s > 0)
    if total <= limit:
        return dict(end)
    out = {}
    for tp, e in end.items():
        size, begin = sizes[tp], start.get(tp, e)
        if size <= 0:
            out[tp] = e
            continue
        prorate = limit * (size / total)
        step = int(prorate) + (1 if prorate < 1 else 0)  # ceil below one offset, floor above
        out[tp] = min(e, begin + step)
    return out


def plan_ranges(so: SourceOptions, start: dict[TP, int], end: dict[TP, int]) -> list[OffsetRange]:
    """One OffsetRange per partition with data; offsets that went backwards are data loss."""
    ranges = []
    for (t, p), until in sorted(end.items()):
        frm = start.get((t, p), 0)
        if until < frm:
            report_data_loss(so, f"Partition {t}-{p}'s offset was changed from {frm} to {until}")
            continue
        if until > frm:
            ranges.append(OffsetRange(t, p, frm, until))
    return ranges


# -- executor side ---------------------------------------------------------------------------

_pool: dict[tuple, list[Any]] = {}
_pool_lock = threading.Lock()


def _borrow(config: dict[str, Any]) -> tuple[tuple, Any]:
    """A KafkaConsumer for this config, reused across tasks in a reused Python worker."""
    key = tuple(sorted((k, repr(v)) for k, v in config.items()))
    with _pool_lock:
        free = _pool.setdefault(key, [])
        if free:
            return key, free.pop()
    from kafka import KafkaConsumer
    return key, KafkaConsumer(**config)


def _give_back(key: tuple, consumer: Any) -> None:
    with _pool_lock:
        _pool.setdefault(key, []).append(consumer)


def read_range(so: SourceOptions, rng: OffsetRange, schema: StructType) -> Iterator[Any]:
    """Records of one offset range as Arrow record batches in the Kafka source schema."""
    import pyarrow as pa
    from kafka import TopicPartition
    from pyspark.sql.pandas.types import to_arrow_schema

    arrow_schema = to_arrow_schema(schema, timezone="UTC")
    tp = TopicPartition(rng.topic, rng.partition)
    key, consumer = _borrow(so.consumer)
    ok = False
    try:
        consumer.assign([tp])
        start, end = rng.start, rng.end
        earliest = consumer.beginning_offsets([tp])[tp]
        if start < earliest:
            report_data_loss(so, f"Cannot fetch offset {start} of {rng.topic}-{rng.partition}: "
                                 f"the earliest available offset is {earliest}")
            start = earliest
        latest = consumer.end_offsets([tp])[tp]
        if end > latest:
            report_data_loss(so, f"Cannot fetch offsets up to {end} of {rng.topic}-{rng.partition}: "
                                 f"the latest available offset is {latest}")
            end = latest
        cols: list[list[Any]] = [[] for _ in range(8)]
        position = start
        if start < end:
            consumer.seek(tp, start)
        deadline = time.monotonic() + so.poll_timeout_ms / 1000
        while position < end:
            records = consumer.poll(timeout_ms=min(1000, so.poll_timeout_ms)).get(tp, [])
            if not records:
                position = max(position, consumer.position(tp))
                if position < end and time.monotonic() > deadline:
                    raise TimeoutError(f"Cannot fetch records in [{position}, {end}) of {rng.topic}-"
                                       f"{rng.partition} after polling for {so.poll_timeout_ms} ms")
                continue
            deadline = time.monotonic() + so.poll_timeout_ms / 1000
            for r in records:
                if r.offset >= end:
                    break
                cols[0].append(r.key)
                cols[1].append(r.value)
                cols[2].append(r.offset)
                cols[3].append(r.timestamp * 1000)
                cols[4].append(r.timestamp_type)
                if so.include_headers:
                    cols[5].append([{"key": k, "value": v} for k, v in r.headers])
            position = records[-1].offset + 1
            if len(cols[0]) >= ARROW_CHUNK or position >= end:
                yield _batch(pa, arrow_schema, rng, cols, so.include_headers)
                cols = [[] for _ in range(8)]
        if cols[0]:
            yield _batch(pa, arrow_schema, rng, cols, so.include_headers)
        ok = True
    finally:
        if ok:
            _give_back(key, consumer)
        else:
            consumer.close()


def _batch(pa: Any, schema: Any, rng: OffsetRange, cols: list[list[Any]], headers: bool) -> Any:
    n = len(cols[0])
    arrays = [pa.array(cols[0], pa.binary()), pa.array(cols[1], pa.binary()),
              pa.array([rng.topic] * n, pa.string()), pa.array([rng.partition] * n, pa.int32()),
              pa.array(cols[2], pa.int64()), pa.array(cols[3], pa.int64()).cast(schema.field("timestamp").type),
              pa.array(cols[4], pa.int32())]
    if headers:
        arrays.append(pa.array(cols[5], schema.field("headers").type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


# -- readers -----------------------------------------------------------------------------------

class KafkaBatchReader(DataSourceReader):
    """spark.read: one input partition per Kafka partition between startingOffsets and endingOffsets."""

    def __init__(self, so: SourceOptions, schema: StructType) -> None:
        self.so, self.schema = so, schema

    def partitions(self) -> Sequence[InputPartition]:
        so = self.so
        offsets = OffsetReader(so)
        try:
            start = offsets.resolve("starting", so.starting, so.starting_ts, so.starting_ts_by_partition)
            end = offsets.resolve("ending", so.ending, so.ending_ts, so.ending_ts_by_partition)
        finally:
            offsets.close()
        for tp in set(start) - set(end):
            end[tp] = start[tp]
        ranges = plan_ranges(so, start, end)
        return ranges or [OffsetRange("", -1, 0, 0)]

    def read(self, partition: InputPartition) -> Iterator[Any]:
        assert isinstance(partition, OffsetRange)
        if partition.end <= partition.start:
            return iter(())
        return read_range(self.so, partition, self.schema)


class KafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """spark.readStream: offsets are Spark's Kafka JSON {"topic": {"partition": offset}}."""

    def __init__(self, so: SourceOptions, schema: StructType) -> None:
        self.so, self.schema = so, schema
        self._offsets: OffsetReader | None = None
        self._available_now: dict[TP, int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"so": self.so, "schema": self.schema, "_offsets": None, "_available_now": None}

    @property
    def offsets(self) -> OffsetReader:
        if self._offsets is None:
            self._offsets = OffsetReader(self.so)
        return self._offsets

    def initialOffset(self) -> dict:
        so = self.so
        return from_tp_map(self.offsets.resolve("starting", so.starting, so.starting_ts, so.starting_ts_by_partition))

    def getDefaultReadLimit(self) -> ReadLimit:
        if self.so.max_offsets_per_trigger:
            return ReadMaxRows(self.so.max_offsets_per_trigger)
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        self._available_now = self._latest()

    def _latest(self) -> dict[TP, int]:
        return self.offsets.latest(self.offsets.partitions())

    def _start_for_new(self, start: dict[TP, int], current: set[TP]) -> dict[TP, int]:
        """Start offsets with partitions that appeared since `start` added at their earliest
        offset (0 unless retention already removed records: that is data loss)."""
        new = current - set(start)
        if not new:
            return dict(start)
        out = dict(start)
        for tp, earliest in self.offsets.earliest(new).items():
            if earliest != 0:
                report_data_loss(self.so, f"Added partition {tp[0]}-{tp[1]} starts from {earliest} instead of 0")
            out[tp] = earliest
            log.info("partition %s-%d added, reading from offset %d", tp[0], tp[1], earliest)
        return out

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        begin = to_tp_map(start)
        if self._available_now is not None:
            latest = dict(self._available_now)
        else:
            latest = self._latest()
        gone = set(begin) - set(latest)
        if gone and self.so.strategy != "assign":
            report_data_loss(self.so, f"Partitions {sorted(gone)} are gone")
        begin = self._start_for_new({tp: o for tp, o in begin.items() if tp in latest}, set(latest))
        end = {tp: latest[tp] for tp in begin}
        if isinstance(limit, ReadMaxRows):
            end = rate_limit(limit.max_rows, begin, end)
        return from_tp_map(end)

    def reportLatestOffset(self) -> dict | None:
        return None

    def partitions(self, start: dict, end: dict) -> Sequence[InputPartition]:
        begin, until = to_tp_map(start), to_tp_map(end)
        missing = set(until) - set(begin)
        if missing:  # partitions added by this batch start at their earliest offset
            begin.update(self.offsets.earliest(missing))
        return plan_ranges(self.so, begin, until)

    def read(self, partition: InputPartition) -> Iterator[Any]:
        assert isinstance(partition, OffsetRange)
        return read_range(self.so, partition, self.schema)

    def commit(self, end: dict) -> None:
        pass

    def stop(self) -> None:
        if self._offsets is not None:
            self._offsets.close()
