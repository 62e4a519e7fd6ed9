"""Client-metrics subscriptions and instances (server/client_metrics.py) on fake time, the OTLP
decoding of pushes (server/otlp_export.py), and the subscription id against Kafka's own
Uuid and HashSet (compat/java/SubscriptionId.java)."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest
from opentelemetry.proto.metrics.v1.metrics_pb2 import (
    AggregationTemporality,
    Histogram,
    HistogramDataPoint,
    Metric,
    MetricsData,
    NumberDataPoint,
    ResourceMetrics,
    ScopeMetrics,
    Sum,
)

from josefk.protocol import compression
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.server.client_metrics import (
    ClientInfo,
    ClientMetricsManager,
    kafka_uuid_string,
    parse_match,
    subscription_id,
    validate,
)
from josefk.server.otlp_export import (
    COUNTER,
    ClientTelemetryCollector,
    ClientTelemetryStore,
    InvalidTelemetry,
    TelemetryTooLarge,
    decode,
)
from josefk.utils.java_format import hashed_map_order, java_string_hash
from josefk.utils.mock_time import MockTime
from tests.prerequisites import require_files, require_tools

ROOT = Path(__file__).resolve().parent.parent
JAVA4_LIB = ROOT / "compat" / ".envs" / "java-4" / "lib"
INSTANCE = uuid.UUID("1e08f09e-92b7-4110-a28e-10c41956d431")
JAVA_APP = ClientInfo("app-1", "apache-kafka-java", "4.4.0", "127.0.0.1", "50000")


def manager(**subscriptions: dict[str, str]) -> ClientMetricsManager:
    m = ClientMetricsManager(MockTime())
    for name, props in subscriptions.items():
        m.update_subscription(name, props)
    return m


@pytest.mark.unit
def test_an_instance_gets_every_matching_subscription_at_the_shortest_interval() -> None:
    m = manager(java={"metrics": "org.apache.kafka.producer.", "interval.ms": "2000",
                      "match": "client_software_name=apache-kafka-java, client_id=app-.*"},
                any={"metrics": "org.apache.kafka.client.", "interval.ms": "30000"},
                rdk={"metrics": "org.apache.kafka.consumer.", "interval.ms": "100",
                     "match": "client_software_name=librdkafka"},
                partial={"metrics": "x.", "match": "client_id=app"})  # a regex matches the whole value only
    instance = m.instance(INSTANCE, JAVA_APP)
    assert sorted(instance.metrics) == ["org.apache.kafka.client.", "org.apache.kafka.producer."]
    assert instance.push_interval_ms == 2000
    m.update_subscription("all", {"metrics": "*", "match": f"client_instance_id={kafka_uuid_string(INSTANCE)}"})
    assert m.instance(INSTANCE, JAVA_APP).metrics == ["*"]
    assert manager().instance(INSTANCE, JAVA_APP).push_interval_ms == 300_000  # Kafka's default, no metrics
    assert manager().instance(INSTANCE, JAVA_APP).metrics == []


@pytest.mark.unit
def test_get_and_push_are_throttled_to_the_push_interval() -> None:
    m = manager(s={"metrics": "a.", "interval.ms": "1000"})
    time = m.time
    assert isinstance(time, MockTime)
    instance = m.instance(INSTANCE, JAVA_APP)
    assert instance.may_get(time.milliseconds())
    assert not instance.may_get(time.milliseconds() + 999)
    time.sleep(10)
    assert instance.may_push(time.milliseconds())  # the first push after a Get, whatever the jitter
    assert not instance.may_push(time.milliseconds() + 999)
    time.sleep(1000)
    assert instance.may_push(time.milliseconds())
    assert not instance.may_get(time.milliseconds() + 999)  # counted from the last push too
    assert instance.may_get(time.milliseconds() + 1000)


@pytest.mark.unit
def test_instances_expire_after_three_intervals_or_a_minute() -> None:
    m = manager(s={"metrics": "a.", "interval.ms": "30000"})
    time = m.time
    assert isinstance(time, MockTime)
    m.instance(INSTANCE, JAVA_APP)
    time.sleep(89_999)
    assert m.expire(time.milliseconds()) == []
    time.sleep(1)
    assert m.expire(time.milliseconds()) == [INSTANCE]
    m.update_subscription("s", {"metrics": "a.", "interval.ms": "100"})
    m.instance(INSTANCE, JAVA_APP)
    time.sleep(59_999)
    assert m.expire(time.milliseconds()) == []
    time.sleep(1)
    assert m.expire(time.milliseconds()) == [INSTANCE]


@pytest.mark.unit
def test_a_subscription_change_remakes_the_instance() -> None:
    m = manager(s={"metrics": "a."})
    first = m.instance(INSTANCE, JAVA_APP)
    assert first.may_get(m.time.milliseconds())
    assert m.instance(INSTANCE, JAVA_APP) is first
    m.update_subscription("s", {"metrics": "b."})
    second = m.instance(INSTANCE, ClientInfo("other", "x", "y", "10.0.0.1", "1"))
    assert (second.metrics, second.info) == (["b."], JAVA_APP)  # matched on the first client's data still
    assert second.subscription_id != first.subscription_id
    assert second.may_get(m.time.milliseconds())
    m.update_subscription("s", {})
    assert "s" not in m.subscriptions and m.instance(INSTANCE, JAVA_APP).metrics == []


@pytest.mark.unit
def test_configs_are_validated_as_kafka_does() -> None:
    validate("s", {"metrics": "a.,b.", "interval.ms": "100", "match": "client_source_port=5.*"})
    problems = []
    for name, props in [("s", {"interval.ms": "3600001"}), ("s", {"interval.ms": "ten"}),
                        ("s", {"Metrics": "a."}), ("", {}), ("s", {"match": "client_id"}),
                        ("s", {"match": "client_id=a=b"}), ("s", {"match": "client_id=("})]:
        with pytest.raises(KafkaError) as e:
            validate(name, props)
        problems.append((e.value.code, e.value.message))
    assert problems == [
        (ErrorCode.INVALID_REQUEST, "Invalid value 3600001 for interval.ms, interval must be between 100 and 3600000 "
                                    "(1 hour)"),
        (ErrorCode.INVALID_CONFIG, "Invalid value ten for configuration interval.ms: Not a number of type INT"),
        (ErrorCode.INVALID_REQUEST, "Unknown client metrics configuration: Metrics"),
        (ErrorCode.INVALID_REQUEST, "Subscription name can't be empty"),
        (ErrorCode.INVALID_CONFIG, "Illegal client matching pattern: client_id"),
        (ErrorCode.INVALID_CONFIG, "Illegal client matching pattern: client_id=a=b"),
        (ErrorCode.INVALID_CONFIG, "Illegal client matching pattern: client_id=(")]
    assert set(parse_match(["client_id = a.* ", "client_software_version=1\\..*"])) == {
        "client_id", "client_software_version"}


def test_subscription_id_is_kafkas() -> None:
    """The id is Kafka's CRC32C of the metric set as a java.util.HashSet prints it, xor
    Kafka's Uuid.hashCode: compared with Kafka 4.4.0's own classes."""
    require_tools("java")
    require_files(JAVA4_LIB, ["kafka-clients.jar"], ".venv/bin/python compat/setup_envs.py --only java-4 (mvn)")
    cases = [(INSTANCE, 60000, ["org.apache.kafka.producer.", "org.apache.kafka.consumer.", "b.", "zz.a", "x"]),
             (uuid.UUID(int=2**127 + 12345), 300000, []), (uuid.UUID(int=7), 100, ["*"])]
    for instance, interval, metrics in cases:
        out = subprocess.run(["java", "-cp", str(JAVA4_LIB / "kafka-clients.jar"),
                              str(ROOT / "compat" / "java" / "SubscriptionId.java"), kafka_uuid_string(instance),
                              str(interval), *metrics], capture_output=True, text=True, timeout=120, check=True)
        ordered = hashed_map_order(sorted(metrics), java_string_hash)
        mine = f"{subscription_id(ordered, interval, instance)} [{', '.join(ordered)}] {kafka_uuid_string(instance)}"
        assert out.stdout.strip() == mine


def _payload() -> bytes:
    delta = AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA
    metrics = [Metric(name="org.apache.kafka.consumer.fetch.manager.bytes.consumed.total", sum=Sum(
                   data_points=[NumberDataPoint(as_double=10.0)], is_monotonic=True, aggregation_temporality=delta)),
               Metric(name="org.apache.kafka.client.up.down", sum=Sum(
                   data_points=[NumberDataPoint(as_int=-3)], is_monotonic=False, aggregation_temporality=delta)),
               Metric(name="2xx.latency", histogram=Histogram(
                   data_points=[HistogramDataPoint(count=4, sum=8.0)], aggregation_temporality=delta))]
    return MetricsData(resource_metrics=[ResourceMetrics(scope_metrics=[ScopeMetrics(metrics=metrics)])]
                       ).SerializeToString()


@pytest.mark.unit
@pytest.mark.parametrize("codec", [compression.NONE, compression.GZIP, compression.SNAPPY, compression.LZ4,
                                   compression.ZSTD])
def test_pushes_decode_in_every_codec_and_deltas_add_up(codec: int) -> None:
    raw = _payload()
    payload = compression.compress(codec, raw) if codec else raw
    points = decode(payload, codec, 10_000)
    assert [(p.name, p.kind, p.value, p.accumulate) for p in points] == [
        ("org_apache_kafka_consumer_fetch_manager_bytes_consumed_total", COUNTER, 10.0, True),
        ("org_apache_kafka_client_up_down", "gauge", -3.0, True),
        ("_2xx_latency_count_total", COUNTER, 4.0, True), ("_2xx_latency_sum_total", COUNTER, 8.0, True)]
    store = ClientTelemetryStore()
    store.record("i", (("client_instance_id", "i"),), points)
    store.record("i", (("client_instance_id", "i"),), points)
    families = {f.name: f for f in ClientTelemetryCollector(store).collect()}
    assert families["org_apache_kafka_consumer_fetch_manager_bytes_consumed"].samples[0].value == 20.0
    assert families["_2xx_latency_count"].samples[0].value == 8.0
    store.forget("i")
    assert list(ClientTelemetryCollector(store).collect()) == []
    with pytest.raises(TelemetryTooLarge):
        decode(payload, codec, len(raw) - 1)


@pytest.mark.unit
def test_a_payload_that_is_no_otlp_is_invalid() -> None:
    with pytest.raises(InvalidTelemetry):
        decode(b"\x0a\xff\xff", compression.NONE, 100)
    with pytest.raises(InvalidTelemetry):
        decode(b"not gzip", compression.GZIP, 100)
