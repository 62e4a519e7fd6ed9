"""metrics.http.listener: a broker serves Kafka's metrics (named as the Prometheus JMX
exporter's Kafka rules name them) at /metrics, and /healthz and /readyz. Real clients
produce and fetch; the scrape must count exactly what they did."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from prometheus_client.parser import text_string_to_metric_families

from harness.net import free_port
from tests.conftest import RunningBroker

pytestmark = pytest.mark.integration

N = 500
VALUE = b"v" * 100


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def _samples(text: str) -> dict[tuple[str, frozenset], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_count_what_clients_did(tmp_path: Path) -> None:
    port = free_port()
    broker = RunningBroker(tmp_path / "logs", {"metrics.http.listener": f"127.0.0.1:{port}"})
    try:
        assert _get(port, "/healthz") == (200, "ok\n")
        assert _get(port, "/readyz") == (200, "ready\n")
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("metered", 2, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1)
        for i in range(N):
            producer.send("metered", VALUE, partition=i % 2)
        producer.flush()
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False,
                                 consumer_timeout_ms=10_000)
        consumer.assign([TopicPartition("metered", 0), TopicPartition("metered", 1)])
        consumer.seek_to_beginning()
        got = 0
        for record in consumer:
            assert record.value == VALUE
            got += 1
            if got == N:
                break
        consumer.close()
        assert got == N

        status, text = _get(port, "/metrics")
        assert status == 200
        samples = _samples(text)
        topic = frozenset({("topic", "metered")})
        assert samples[("kafka_server_brokertopicmetrics_messagesin_total", topic)] == N
        assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == N  # all topics
        bytes_in = samples[("kafka_server_brokertopicmetrics_bytesin_total", topic)]
        assert bytes_in > N * len(VALUE)  # the batches as produced: records plus their headers
        assert samples[("kafka_server_brokertopicmetrics_bytesout_total", topic)] >= bytes_in  # read once at least
        produce = {labels: v for (name, labels), v in samples.items()
                   if name == "kafka_network_requestmetrics_requests_total" and ("request", "Produce") in labels}
        assert produce and sum(produce.values()) >= 1
        assert all(dict(labels)["version"].isdigit() for labels in produce)
        produce_count = samples[("kafka_network_requestmetrics_totaltimems_count",
                                 frozenset({("request", "Produce")}))]
        assert produce_count == sum(produce.values())
        assert samples[("kafka_network_requestmetrics_totaltimems_bucket",
                        frozenset({("request", "Produce"), ("le", "+Inf")}))] == produce_count
        assert any(name == "kafka_network_requestmetrics_requests_total" and ("request", "Fetch") in labels
                   for name, labels in samples)
        assert samples[("kafka_server_replicamanager_partitioncount", frozenset())] == 2
        assert samples[("kafka_server_replicamanager_leadercount", frozenset())] == 2
        assert samples[("kafka_server_replicamanager_underreplicatedpartitions", frozenset())] == 0
        assert samples[("kafka_server_replicamanager_isrshrinks_total", frozenset())] == 0
        assert samples[("kafka_server_replicamanager_isrexpands_total", frozenset())] == 0
        assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] == 1
        sizes = [samples[("kafka_log_log_size", frozenset({("topic", "metered"), ("partition", p)}))]
                 for p in ("0", "1")]
        assert sum(sizes) == bytes_in  # v2 batches are written as received
        assert _get(port, "/nothing")[0] == 404
    finally:
        broker.stop()
    assert _get_refused(port)


def _get_refused(port: int) -> bool:
    try:
        _get(port, "/healthz")
    except urllib.error.URLError:
        return True
    return False
