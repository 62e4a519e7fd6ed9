"""The pushed client metrics on the broker's /metrics: what Kafka leaves to a
ClientTelemetryReceiver plugin, josefk does itself.

A PushTelemetry payload is an OTLP MetricsData protobuf (compressed as the client chose).
Each metric becomes a Prometheus series named after it (dots to underscores:
org.apache.kafka.producer.record.queue.time.avg ->
org_apache_kafka_producer_record_queue_time_avg), labelled with the pushing client's
instance id (Kafka's base64 form) and client id, and with the data point's attributes.
The broker asks for delta temporality (as Kafka does), so a monotonic sum's pushes are
added up into the counter's total; gauges keep their last value; a histogram's count and
sum are counters too. An instance's series go when the instance expires.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import AggregationTemporality, MetricsData
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from josefk.protocol import compression
from josefk.protocol.compression import DecompressedSizeError

COUNTER, GAUGE = "counter", "gauge"
_INVALID = re.compile(r"[^a-zA-Z0-9_:]")
_INVALID_LABEL = re.compile(r"[^a-zA-Z0-9_]")
_DELTA = AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA


class TelemetryTooLarge(Exception):
    """The payload decompresses to more than telemetry.max.bytes."""


class InvalidTelemetry(Exception):
    """The payload is not OTLP metrics (Kafka answers INVALID_RECORD: the client stops pushing)."""


@dataclass(frozen=True)
class Point:
    name: str  # the Prometheus family name
    kind: str  # COUNTER or GAUGE
    labels: tuple[tuple[str, str], ...]
    value: float
    accumulate: bool  # a delta to add to what came before


def prometheus_name(name: str) -> str:
    cleaned = _INVALID.sub("_", name)
    return "_" + cleaned if cleaned[:1].isdigit() else cleaned


def _label(key: str) -> str:
    cleaned = _INVALID_LABEL.sub("_", key)
    return "_" + cleaned if cleaned[:1].isdigit() else cleaned


def _text(value: AnyValue) -> str:
    kind = value.WhichOneof("value")
    return "" if kind is None else str(getattr(value, kind))


def _labels(attributes: list[KeyValue]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((_label(a.key), _text(a.value)) for a in attributes))


def decode(payload: bytes, compression_type: int, max_bytes: int) -> list[Point]:
    """The data points of a pushed payload (Kafka's ClientTelemetryUtils.deserializeRequest)."""
    try:
        raw = compression.decompress(compression_type, payload, max_size=max_bytes) if compression_type \
            else payload
    except DecompressedSizeError:
        raise TelemetryTooLarge from None
    except Exception as e:  # noqa: BLE001 - any codec failure is a malformed payload
        raise InvalidTelemetry(str(e)) from e
    if len(raw) > max_bytes:
        raise TelemetryTooLarge
    data = MetricsData()
    try:
        data.ParseFromString(raw)
    except DecodeError as e:
        raise InvalidTelemetry(str(e)) from e
    points: list[Point] = []
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points.extend(_points(metric))
    return points


def _points(metric) -> Iterator[Point]:  # noqa: ANN001 - a generated protobuf Metric
    name = prometheus_name(metric.name)
    kind = metric.WhichOneof("data")
    if kind == "gauge":
        for p in metric.gauge.data_points:
            yield Point(name, GAUGE, _labels(p.attributes), _number(p), False)
    elif kind == "sum":
        delta = metric.sum.aggregation_temporality == _DELTA
        counter = metric.sum.is_monotonic
        for p in metric.sum.data_points:
            yield Point(name.removesuffix("_total") + "_total" if counter else name, COUNTER if counter else GAUGE,
                        _labels(p.attributes), _number(p), delta)
    elif kind == "histogram":
        delta = metric.histogram.aggregation_temporality == _DELTA
        for p in metric.histogram.data_points:
            labels = _labels(p.attributes)
            yield Point(name + "_count_total", COUNTER, labels, float(p.count), delta)
            yield Point(name + "_sum_total", COUNTER, labels, p.sum, delta)


def _number(point) -> float:  # noqa: ANN001 - a generated NumberDataPoint
    return float(point.as_double if point.WhichOneof("value") == "as_double" else point.as_int)


@dataclass
class ClientTelemetryStore:
    """The latest value of every pushed series, by client instance (its Kafka id string)."""

    series: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], tuple[str, float]]] = field(default_factory=dict)

    def record(self, instance: str, client_labels: tuple[tuple[str, str], ...], points: list[Point]) -> None:
        mine = self.series.setdefault(instance, {})
        for p in points:
            key = (p.name, tuple(sorted({*client_labels, *p.labels})))
            previous = mine.get(key, (p.kind, 0.0))[1]
            mine[key] = (p.kind, previous + p.value if p.accumulate else p.value)

    def forget(self, instance: str) -> None:
        self.series.pop(instance, None)


class ClientTelemetryCollector(Collector):
    def __init__(self, store: ClientTelemetryStore) -> None:
        self.store = store

    def collect(self) -> Iterator[Metric]:
        families: dict[str, Metric] = {}
        for series in list(self.store.series.values()):
            for (name, labels), (kind, value) in sorted(series.items()):
                family_name = name.removesuffix("_total") if kind == COUNTER else name
                family = families.get(family_name)
                if family is None:
                    family = families[family_name] = Metric(family_name, "Client metric pushed by KIP-714 telemetry",
                                                            kind)
                if family.type != kind:
                    continue  # two clients disagree on a metric's type: the first seen wins
                family.add_sample(name, dict(labels), value)
        yield from families.values()
