"""Series Confluent's dashboards query that josefk serves as Kafka 3.9 does: connections by
client software, ErrorsPerSec by request and error, message format conversions and
ResponseSendTimeMs. A real client makes the traffic; a scrape of /metrics on the live broker
must show the series, its labels and a value that moved."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import confluent_kafka
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from prometheus_client.parser import text_string_to_metric_families

from harness.net import free_port
from harness.wire import encode_request, read_frame, wait_until
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
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


def _scrape(port: int) -> dict[str, dict[frozenset, float]]:
    status, text = _get(port, "/metrics")
    assert status == 200
    series: dict[str, dict[frozenset, float]] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            series.setdefault(s.name, {})[frozenset(s.labels.items())] = s.value
    return series


def _series(port: int, name: str) -> dict[frozenset, float]:
    return _scrape(port).get(name, {})


def test_connections_by_client_software(broker: tuple[RunningBroker, int]) -> None:
    """A connection counts as unknown/unknown until its ApiVersions v3+ names the client
    (KIP-511); it leaves the gauge when it closes."""
    running, port = broker
    software = ("confluent-kafka-python", f"{confluent_kafka.__version__}-rdkafka-{confluent_kafka.libversion()[0]}")

    def by_software() -> dict[tuple[str, ...], float]:
        """(name, version, listener, processor): connections, the same under Strimzi's name."""
        scraped = _scrape(port)
        series = [{tuple(dict(key)[label] for label in labels): value
                   for key, value in scraped.get(name, {}).items()} for name, labels in (
            ("kafka_server_socketservermetrics_connections",
             ("client_software_name", "client_software_version", "listener", "network_processor")),
            ("kafka_server_socket_server_metrics_connections_software",
             ("clientSoftwareName", "clientSoftwareVersion", "listener", "networkProcessor")))]
        assert series[0] == series[1]
        return series[0]

    raw = socket.create_connection(("127.0.0.1", running.server.port))
    try:
        wait_until(lambda: sum(v for k, v in by_software().items() if k[:2] == ("unknown", "unknown")) == 1,
                   "the raw connection counted")
        admin = AdminClient({"bootstrap.servers": running.bootstrap})
        try:
            admin.list_topics(timeout=10)

            def settled() -> bool:  # librdkafka may still be opening its connection to the broker it learned
                named = by_software()
                return (sum(v for k, v in named.items() if k[:3] == (*software, "PLAINTEXT")) >= 1
                        and sum(v for k, v in named.items() if k[:3] == ("unknown", "unknown", "PLAINTEXT")) == 1)

            wait_until(settled, "the client's connections counted under its software, the raw one as unknown")
        finally:
            del admin  # librdkafka closes its connections when the handle goes
    finally:
        raw.close()
    wait_until(lambda: not by_software(), "every connection gone")


def test_errors_by_request_and_error(broker: tuple[RunningBroker, int]) -> None:
    """ErrorsPerSec counts every error code of every response, NONE too, per API (a Fetch
    is Fetch here, not FetchConsumer, as in Kafka's RequestChannel.updateErrorMetrics)."""
    running, port = broker

    def errors() -> dict[tuple[str, str], float]:
        return {(dict(k)["request"], dict(k)["error"]): v
                for k, v in _series(port, "kafka_network_requestmetrics_errors_total").items()}

    before = errors()
    admin = AdminClient({"bootstrap.servers": running.bootstrap})
    admin.create_topics([NewTopic("erring", 2, 1)])["erring"].result(timeout=30)
    with pytest.raises(confluent_kafka.KafkaException, match="UNKNOWN_TOPIC_OR_PART"):
        admin.delete_topics(["never-made"], operation_timeout=10)["never-made"].result(timeout=30)
    del admin
    producer = confluent_kafka.Producer({"bootstrap.servers": running.bootstrap, "linger.ms": 0})
    for i in range(10):
        producer.produce("erring", b"v", partition=i % 2)
        producer.flush(10)  # one Produce per record: each answers one partition
    del producer
    consumer = confluent_kafka.Consumer({"bootstrap.servers": running.bootstrap, "group.id": "erring",
                                         "auto.offset.reset": "earliest"})
    try:
        consumer.subscribe(["erring"])
        got = 0
        while got < 10:
            message = consumer.poll(10)
            assert message is not None and message.error() is None
            got += 1
    finally:
        consumer.close()
    after = errors()
    moved = {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}
    assert moved[("DeleteTopics", "UNKNOWN_TOPIC_OR_PARTITION")] == 1
    assert moved[("CreateTopics", "NONE")] == 1
    assert moved[("Produce", "NONE")] >= 10
    assert not any(request == "Produce" and error != "NONE" for request, error in moved)
    assert moved[("Fetch", "NONE")] >= 2  # the top level and a partition, at least
    assert moved[("ApiVersions", "NONE")] >= 1
    assert not any(request.startswith("Fetch") and request != "Fetch" for request, _ in after)
    confluent = {(dict(k)["request"], dict(k)["error"]): v
                 for k, v in _series(port, "kafka_network_requestmetrics_errorspersec").items()}
    assert confluent[("DeleteTopics", "UNKNOWN_TOPIC_OR_PARTITION")] == 1


def test_message_conversions(broker: tuple[RunningBroker, int]) -> None:
    """A client of Kafka 0.10 produces v1 message sets (up-converted to v2 on append) and
    fetches with Fetch v3 (the v2 batches down-converted to v1): each record counts once per
    conversion, per topic and for all topics."""
    running, port = broker
    n = 20

    def conversions() -> dict[str, float]:
        values = {}
        for kind in ("produce", "fetch"):
            counter = f"kafka_server_brokertopicmetrics_{kind}messageconversions_total"
            for labels, value in _series(port, counter).items():
                values[f"{kind} {dict(labels).get('topic', '*')}"] = value
            confluent = _series(port, f"kafka_server_brokertopicmetrics_{kind}messageconversionspersec")
            assert confluent[frozenset()] == values[f"{kind} *"]
        return values

    assert conversions() == {"produce *": 0, "fetch *": 0}
    producer = KafkaProducer(bootstrap_servers=running.bootstrap, api_version=(0, 10, 1))
    for i in range(n):
        producer.send("converted", str(i).encode(), partition=0)
    producer.flush()
    producer.close()
    assert conversions() == {"produce *": n, "produce converted": n, "fetch *": 0}
    consumer = KafkaConsumer(bootstrap_servers=running.bootstrap, api_version=(0, 10, 1),
                             auto_offset_reset="earliest", consumer_timeout_ms=10_000)
    try:
        consumer.assign([TopicPartition("converted", 0)])
        assert [m.value for m, _ in zip(consumer, range(n), strict=False)] == [str(i).encode() for i in range(n)]
    finally:
        consumer.close()
    after = conversions()
    assert after["fetch converted"] >= n and after["fetch *"] == after["fetch converted"]
    assert after["produce *"] == n


def test_response_send_time(broker: tuple[RunningBroker, int]) -> None:
    """ResponseSendTimeMs runs until the response's last byte is on the socket: a consumer
    that reads a large Fetch response only after a pause makes its send last that long.
    Every response is timed, so its count follows RequestsPerSec."""
    running, port = broker
    pause_s = 1.0
    producer = confluent_kafka.Producer({"bootstrap.servers": running.bootstrap, "linger.ms": 5})
    for _ in range(40):
        producer.produce("slow", b"x" * 100_000, partition=0)
    assert producer.flush(30) == 0
    del producer  # librdkafka's handle closes its connections when it goes

    def fetches() -> float:
        return _series(port, "kafka_network_requestmetrics_totaltimems_count").get(
            frozenset({("request", "FetchConsumer")}), 0)

    def sends() -> tuple[float, float]:
        scraped = _scrape(port)
        key = frozenset({("request", "FetchConsumer")})
        return (scraped["kafka_network_requestmetrics_responsesendtimems_count"].get(key, 0),
                scraped["kafka_network_requestmetrics_responsesendtimems_sum"].get(key, 0))

    before, (sent_before, sum_before) = fetches(), sends()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the response cannot all fit in flight
    sock.settimeout(30)
    sock.connect(("127.0.0.1", running.server.port))
    try:
        fetch = request_class(ApiKey.Fetch)
        sock.sendall(encode_request(ApiKey.Fetch, 4, fetch(
            replica_id=-1, max_wait_ms=100, min_bytes=1, max_bytes=1 << 24, isolation_level=0,
            topics=[fetch.FetchTopic(topic="slow", partitions=[fetch.FetchTopic.FetchPartition(
                partition=0, fetch_offset=0, partition_max_bytes=1 << 24)])])))
        wait_until(lambda: fetches() > before, "the fetch answered")
        assert sends()[0] == sent_before  # its bytes are still on their way
        time.sleep(pause_s)  # the slow reader this test measures, not a wait for the broker
        assert len(read_frame(sock)) > 4_000_000
    finally:
        sock.close()
    wait_until(lambda: sends()[0] == sent_before + 1, "the send timed")
    assert sends()[1] - sum_before >= pause_s * 1000
    scraped = _scrape(port)
    produce = frozenset({("request", "Produce")})
    assert scraped["kafka_network_requestmetrics_responsesendtimems_count"][produce] == \
        scraped["kafka_network_requestmetrics_totaltimems_count"][produce]
    quantiles = {dict(k)["quantile"] for k in scraped["kafka_network_requestmetrics_responsesendtimems"]}
    assert {"0.50", "0.99"} <= quantiles
