"""Series Confluent's dashboards query that josefk serves as Kafka 3.9 does: connections by
client software, ErrorsPerSec by request and error, message format conversions and
ResponseSendTimeMs. A real client makes the traffic; a scrape of /metrics on the live broker
must show the series, its labels and a value that moved."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import confluent_kafka
import pytest
from confluent_kafka.admin import AdminClient
from prometheus_client.parser import text_string_to_metric_families

from harness.net import free_port
from harness.wire import wait_until
from tests.conftest import RunningBroker
from tests.test_metrics import _get

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBroker, int]]:
    port = free_port()
    running = RunningBroker(tmp_path_factory.mktemp("series") / "logs", {"metrics.http.listener": f"127.0.0.1:{port}"})
    try:
        yield running, port
    finally:
        running.stop()


def _series(port: int, name: str) -> dict[frozenset, float]:
    status, text = _get(port, "/metrics")
    assert status == 200
    return {frozenset(s.labels.items()): s.value for family in text_string_to_metric_families(text)
            for s in family.samples if s.name == name}


def test_connections_by_client_software(broker: tuple[RunningBroker, int]) -> None:
    """A connection counts as unknown/unknown until its ApiVersions v3+ names the client
    (KIP-511); it leaves the gauge when it closes."""
    running, port = broker
    software = ("confluent-kafka-python", f"{confluent_kafka.__version__}-rdkafka-{confluent_kafka.libversion()[0]}")

    def by_software(name: str = "kafka_server_socketservermetrics_connections",
                    labels: tuple[str, ...] = ("client_software_name", "client_software_version", "listener",
                                               "network_processor")) -> dict[tuple[str, ...], float]:
        return {tuple(dict(key)[label] for label in labels): value for key, value in _series(port, name).items()}

    raw = socket.create_connection(("127.0.0.1", running.server.port))
    try:
        wait_until(lambda: sum(v for k, v in by_software().items() if k[:2] == ("unknown", "unknown")) == 1,
                   "the raw connection counted")
        admin = AdminClient({"bootstrap.servers": running.bootstrap})
        try:
            admin.list_topics(timeout=10)
            named = by_software()
            assert sum(v for k, v in named.items() if k[:3] == (*software, "PLAINTEXT")) >= 1
            assert sum(v for k, v in named.items() if k[:3] == ("unknown", "unknown", "PLAINTEXT")) == 1
            strimzi = by_software("kafka_server_socket_server_metrics_connections_software",
                                  ("clientSoftwareName", "clientSoftwareVersion", "listener", "networkProcessor"))
            assert strimzi == named
        finally:
            del admin  # librdkafka closes its connections when the handle goes
    finally:
        raw.close()
    wait_until(lambda: not by_software(), "every connection gone")
