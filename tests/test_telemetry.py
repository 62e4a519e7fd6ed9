"""KIP-714 on the wire: GetTelemetrySubscriptions and PushTelemetry answered as Kafka's
ClientMetricsManager answers them, client-metrics resources through DescribeConfigs and
IncrementalAlterConfigs, kept in /config/client-metrics/<name>. (Kafka 3.9.2 in ZooKeeper
mode serves none of this: its ApiVersions lacks APIs 71 and 72 and it refuses client-metrics
resources, so these cases are checked against Kafka's source, not a reference broker.)"""

from __future__ import annotations

import gzip
import socket
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import (
    AggregationTemporality,
    Gauge,
    Metric,
    MetricsData,
    NumberDataPoint,
    ResourceMetrics,
    ScopeMetrics,
    Sum,
)
from prometheus_client.parser import text_string_to_metric_families

from harness import wire
from harness.net import free_port
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.api_versions_request import ApiVersionsRequest
from josefk.protocol.messages.generated.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from josefk.protocol.messages.generated.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
from josefk.protocol.messages.generated.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from josefk.protocol.messages.generated.push_telemetry_request import PushTelemetryRequest
from josefk.server.client_metrics import kafka_uuid_string
from tests.conftest import RunningBroker

pytestmark = pytest.mark.integration
GZIP = 1
JOSEFK = str(Path(sys.executable).with_name("josefk"))
ZERO = uuid.UUID(int=0)
SET, DELETE = 0, 1


@pytest.fixture(scope="module")
def tbroker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBroker, int]]:
    port = free_port()
    broker = RunningBroker(tmp_path_factory.mktemp("telemetry") / "logs",
                           {"metrics.http.listener": f"127.0.0.1:{port}", "telemetry.max.bytes": "2000"})
    yield broker, port
    broker.stop()


class Client:
    """One connection that introduces itself as a software name and version (ApiVersions v3)."""

    def __init__(self, bootstrap: str, software: str = "wire-test", version: str = "1.0") -> None:
        self.sock: socket.socket = wire.connect(bootstrap)
        self.call(ApiKey.ApiVersions, 3, ApiVersionsRequest(client_software_name=software,
                                                            client_software_version=version))

    def call(self, api: int, version: int, body):  # noqa: ANN001, ANN201 - any generated message
        return wire.send(self.sock, api, version, body)[1]

    def get(self, instance: uuid.UUID = ZERO):  # noqa: ANN201
        return self.call(ApiKey.GetTelemetrySubscriptions, 0, GetTelemetrySubscriptionsRequest(
            client_instance_id=instance))

    def push(self, instance: uuid.UUID, subscription: int, payload: bytes = b"", compression: int = 0,
             terminating: bool = False) -> int:
        return self.call(ApiKey.PushTelemetry, 0, PushTelemetryRequest(
            client_instance_id=instance, subscription_id=subscription, terminating=terminating,
            compression_type=compression, metrics=payload)).error_code

    def alter(self, name: str, *configs: tuple[str, int, str | None], validate_only: bool = False):  # noqa: ANN201
        resource = AlterConfigsResource(resource_type=16, resource_name=name, configs=[
            AlterableConfig(name=key, config_operation=op, value=value) for key, op, value in configs])
        (answer,) = self.call(ApiKey.IncrementalAlterConfigs, 1, IncrementalAlterConfigsRequest(
            resources=[resource], validate_only=validate_only)).responses
        return answer

    def describe(self, name: str):  # noqa: ANN201
        (result,) = self.call(ApiKey.DescribeConfigs, 4, DescribeConfigsRequest(resources=[
            DescribeConfigsResource(resource_type=16, resource_name=name, configuration_keys=None)],
            include_synonyms=True, include_documentation=False)).results
        return result

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def client(tbroker: tuple[RunningBroker, int]) -> Iterator[Client]:
    c = Client(tbroker[0].bootstrap)
    yield c
    c.close()


def applied(broker: RunningBroker, name: str, present: bool = True) -> None:
    """Every broker applies a subscription from its change notification, asynchronously."""
    wait_until(lambda: (name in broker.server.client_metrics.subscriptions) == present,
               f"the broker applied subscription {name}")


def otlp(gauge: float, count: int) -> bytes:
    points = [NumberDataPoint(as_double=gauge, attributes=[KeyValue(key="node.id", value=AnyValue(string_value="0"))])]
    metrics = [Metric(name="org.apache.kafka.producer.record.queue.time.avg", gauge=Gauge(data_points=points)),
               Metric(name="org.apache.kafka.producer.connection.creation.total", sum=Sum(
                   data_points=[NumberDataPoint(as_int=count)], is_monotonic=True,
                   aggregation_temporality=AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA))]
    data = MetricsData(resource_metrics=[ResourceMetrics(scope_metrics=[ScopeMetrics(metrics=metrics)])])
    return data.SerializeToString()


def scrape(port: int) -> dict[tuple[str, frozenset], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_subscription_configs_are_validated_stored_and_described(tbroker: tuple[RunningBroker, int],
                                                                 client: Client) -> None:
    broker, _port = tbroker
    assert client.alter("cfg", ("metrics", SET, "org.apache.kafka.producer."), ("interval.ms", SET, "1000"),
                        ("match", SET, "client_id=app-.*,client_software_name=java")).error_code == 0
    store = broker.server.store
    assert store is not None
    stored = store.get_json("/config/client-metrics/cfg")
    assert stored == {"version": 1, "config": {"metrics": "org.apache.kafka.producer.", "interval.ms": "1000",
                                               "match": "client_id=app-.*,client_software_name=java"}}
    result = client.describe("cfg")
    assert (result.error_code, result.error_message) == (0, "")
    # As Kafka 4.4.0: each key with its type (INT 3, LIST 7), set ones from CLIENT_METRICS_CONFIG (7).
    match = "client_id=app-.*,client_software_name=java"
    assert [(c.name, c.value, c.config_source, c.read_only, c.config_type,
             [(s.name, s.value, s.source) for s in c.synonyms]) for c in result.configs] == [
        ("interval.ms", "1000", 7, False, 3, [("interval.ms", "1000", 7)]),
        ("match", match, 7, False, 7, [("match", match, 7)]),
        ("metrics", "org.apache.kafka.producer.", 7, False, 7, [("metrics", "org.apache.kafka.producer.", 7)])]

    refused = [client.alter("cfg", ("interval.ms", SET, "99")), client.alter("cfg", ("colour", SET, "red")),
               client.alter("cfg", ("match", SET, "client_colour=red")), client.alter("", ("metrics", SET, "x")),
               client.alter("cfg", ("metrics", 2, "org.apache.kafka.consumer."))]
    assert [(r.error_code, r.error_message) for r in refused] == [
        (ErrorCode.INVALID_REQUEST, "Invalid value 99 for interval.ms, interval must be between 100 and 3600000 "
                                    "(1 hour)"),
        (ErrorCode.INVALID_REQUEST, "Unknown client metrics configuration: colour"),
        (ErrorCode.INVALID_CONFIG, "Illegal client matching pattern: client_colour=red"),
        (ErrorCode.INVALID_REQUEST, "Subscription name can't be empty"),
        # Kafka 4.4.0's controller splits no client-metrics key, LIST or not
        (ErrorCode.INVALID_CONFIG, "Can't APPEND to key metrics because its type is not LIST.")]
    assert client.alter("cfg", ("interval.ms", SET, "5"), validate_only=True).error_code == ErrorCode.INVALID_REQUEST

    assert client.alter("cfg", *((k, DELETE, None) for k in ("metrics", "interval.ms", "match"))).error_code == 0
    assert broker.server.store is not None and not broker.server.store.exists("/config/client-metrics/cfg")
    assert [(c.name, c.value, c.config_source, c.synonyms) for c in client.describe("cfg").configs] == [
        ("interval.ms", "300000", 5, []), ("match", "", 5, []), ("metrics", "", 5, [])]  # Kafka's defaults
    applied(broker, "cfg", present=False)


def test_get_matches_the_client_and_push_is_exported(tbroker: tuple[RunningBroker, int], client: Client) -> None:
    broker, port = tbroker
    assert client.alter("wire", ("metrics", SET, "org.apache.kafka.producer."), ("interval.ms", SET, "60000"),
                        ("match", SET, "client_software_name=wire-.*,client_software_version=1\\..*")).error_code == 0
    assert client.alter("other", ("metrics", SET, "org.apache.kafka.consumer."),
                        ("match", SET, "client_software_name=librdkafka")).error_code == 0
    applied(broker, "wire")
    applied(broker, "other")
    first = client.get()
    assert first.error_code == 0
    instance = first.client_instance_id
    assert instance != uuid.UUID(int=0)
    assert (first.requested_metrics, first.push_interval_ms, first.accepted_compression_types,
            first.telemetry_max_bytes, first.delta_temporality) == (
        ["org.apache.kafka.producer."], 60000, [4, 3, 1, 2], 2000, True)  # zstd, lz4, gzip, snappy
    assert client.get(instance).error_code == ErrorCode.THROTTLING_QUOTA_EXCEEDED  # within the push interval

    payload = gzip.compress(otlp(2.5, 3))
    assert client.push(instance, first.subscription_id + 1, payload, GZIP) == ErrorCode.UNKNOWN_SUBSCRIPTION_ID
    again = client.get(instance)  # after UNKNOWN_SUBSCRIPTION_ID a Get is not throttled
    assert (again.error_code, again.subscription_id) == (0, first.subscription_id)
    # As Kafka: the refused push took this interval's slot (the Get above did not renew it).
    assert client.push(instance, again.subscription_id, payload, GZIP) == ErrorCode.THROTTLING_QUOTA_EXCEEDED
    assert client.push(instance, again.subscription_id, payload, GZIP, terminating=True) == 0  # taken when closing
    labels = {"client_instance_id": kafka_uuid_string(instance), "client_id": "test"}
    samples = scrape(port)
    assert samples[("org_apache_kafka_producer_record_queue_time_avg", frozenset({**labels, "node_id": "0"}.items()))] \
        == 2.5
    assert samples[("org_apache_kafka_producer_connection_creation_total", frozenset(labels.items()))] == 3
    assert client.push(instance, again.subscription_id, payload, GZIP, terminating=True) == ErrorCode.INVALID_REQUEST

    other = Client(broker.bootstrap, software="wire-other")
    try:
        answer = other.get()
        assert other.push(answer.client_instance_id, answer.subscription_id, payload, GZIP) == 0  # first after a Get
        assert other.push(answer.client_instance_id, answer.subscription_id, gzip.compress(otlp(1.5, 4)), GZIP,
                          terminating=True) == 0
        labels["client_instance_id"] = kafka_uuid_string(answer.client_instance_id)
        samples = scrape(port)
        assert samples[("org_apache_kafka_producer_connection_creation_total", frozenset(labels.items()))] == 7
        assert samples[("org_apache_kafka_producer_record_queue_time_avg",
                        frozenset({**labels, "node_id": "0"}.items()))] == 1.5  # a gauge keeps the last value
    finally:
        other.close()


def test_push_errors(tbroker: tuple[RunningBroker, int], client: Client) -> None:
    assert client.alter("errors", ("metrics", SET, "*"), ("match", SET, "client_software_name=wire-test")
                        ).error_code == 0
    applied(tbroker[0], "errors")
    answer = client.get()
    instance, subscription = answer.client_instance_id, answer.subscription_id
    assert answer.requested_metrics == ["*"]
    assert client.push(uuid.UUID(int=0), subscription) == ErrorCode.INVALID_REQUEST
    assert client.push(instance, subscription, b"x" * 2001) == ErrorCode.TELEMETRY_TOO_LARGE
    other = Client(tbroker[0].bootstrap)
    try:
        fresh = other.get()
        assert other.push(fresh.client_instance_id, fresh.subscription_id, b"\x0a\xff\xff", 0) == \
            ErrorCode.INVALID_RECORD
        second = Client(tbroker[0].bootstrap)
        try:
            bomb = gzip.compress(b"\x00" * 100_000)  # small on the wire, over telemetry.max.bytes inflated
            nxt = second.get()
            assert second.push(nxt.client_instance_id, nxt.subscription_id, bomb, GZIP) == \
                ErrorCode.TELEMETRY_TOO_LARGE
        finally:
            second.close()
    finally:
        other.close()


def test_a_changed_subscription_reaches_the_client_at_once(tbroker: tuple[RunningBroker, int]) -> None:
    """Kafka re-evaluates a client instance when the subscriptions changed: its next Get is
    answered (not throttled) with the new metrics and a new subscription id."""
    broker = tbroker[0]
    client = Client(broker.bootstrap, software="changer")
    try:
        assert client.alter("change", ("metrics", SET, "a."), ("match", SET, "client_software_name=changer")
                            ).error_code == 0
        applied(broker, "change")
        first = client.get()
        assert first.requested_metrics == ["a."]
        version = broker.server.client_metrics.version
        assert client.alter("change", ("metrics", SET, "b.")).error_code == 0
        wait_until(lambda: broker.server.client_metrics.version > version, "the change was applied")
        second = client.get(first.client_instance_id)
    finally:
        client.close()
    assert (second.error_code, second.requested_metrics) == (0, ["b."])
    assert second.subscription_id != first.subscription_id


def test_the_new_apis_are_advertised_without_a_metrics_listener(tmp_path: Path) -> None:
    """Kafka advertises KIP-714 only with a telemetry receiver plugin; josefk's is built in."""
    broker = RunningBroker(tmp_path / "logs")
    try:
        assert {ApiKey.GetTelemetrySubscriptions, ApiKey.PushTelemetry, ApiKey.ListConfigResources,
                ApiKey.DescribeTopicPartitions} <= set(broker.server.apis.api_versions.ranges)
    finally:
        broker.stop()


def test_josefk_configs_alters_and_describes_client_metrics(tbroker: tuple[RunningBroker, int]) -> None:
    """kafka-configs' flags and output for client-metrics entities (Kafka 3.9's ConfigCommand)."""
    broker = tbroker[0]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([JOSEFK, "configs", "--bootstrap-server", broker.bootstrap, "--entity-type",
                               "client-metrics", *args], capture_output=True, text=True, timeout=60)

    done = run("--entity-name", "cli-sub", "--alter", "--add-config",
               "metrics=[org.apache.kafka.producer.,org.apache.kafka.consumer.],interval.ms=1000,"
               "match=[client_id=app-.*,client_software_name=java]")
    assert (done.returncode, done.stdout) == (0, "Completed updating config for client-metric cli-sub.\n"), done.stderr
    applied(broker, "cli-sub")
    described = run("--entity-name", "cli-sub", "--describe")
    assert described.stdout == (
        "Dynamic configs for client-metric cli-sub are:\n"
        "  interval.ms=1000 sensitive=false synonyms={CLIENT_METRICS_CONFIG:interval.ms=1000}\n"
        "  match=client_id=app-.*,client_software_name=java sensitive=false "
        "synonyms={CLIENT_METRICS_CONFIG:match=client_id=app-.*,client_software_name=java}\n"
        "  metrics=org.apache.kafka.producer.,org.apache.kafka.consumer. sensitive=false "
        "synonyms={CLIENT_METRICS_CONFIG:metrics=org.apache.kafka.producer.,org.apache.kafka.consumer.}\n")
    assert "Dynamic configs for client-metric cli-sub are:\n" in run("--describe").stdout  # every subscription
    refused = run("--entity-name", "cli-sub", "--alter", "--add-config", "interval.ms=5")
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == ("org.apache.kafka.common.errors.InvalidRequestException: Invalid value "
                                               "5 for interval.ms, interval must be between 100 and 3600000 (1 hour)")
    deleted = run("--entity-name", "cli-sub", "--alter", "--delete-config", "metrics,interval.ms,match")
    assert deleted.returncode == 0, deleted.stderr
    applied(broker, "cli-sub", present=False)
    assert "cli-sub" not in run("--describe").stdout
