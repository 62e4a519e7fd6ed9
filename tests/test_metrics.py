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
from kafka.structs import OffsetAndMetadata
from prometheus_client.parser import text_string_to_metric_families

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.wire import wait_until
from tests.conftest import RunningBroker

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


@pytest.mark.integration
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
                                 consumer_timeout_ms=10_000, group_id="meter")
        consumer.assign([TopicPartition("metered", 0), TopicPartition("metered", 1)])
        consumer.seek_to_beginning()
        got = 0
        for record in consumer:
            assert record.value == VALUE
            got += 1
            if got == N:
                break
        consumer.commit({TopicPartition("metered", p): OffsetAndMetadata(N // 2 - 10, "", -1) for p in (0, 1)})
        consumer.close()
        assert got == N

        status, text = _get(port, "/metrics")
        assert status == 200
        samples = _samples(text)
        topic = frozenset({("topic", "metered")})
        assert samples[("kafka_server_brokertopicmetrics_messagesin_total", topic)] == N
        # all topics: the 2 committed offsets are appended to __consumer_offsets, as in Kafka
        assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == N + 2
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
        assert samples[("kafka_network_requestmetrics_totaltimems",
                        frozenset({("request", "Produce"), ("quantile", "0.99")}))] > 0
        assert any(name == "kafka_network_requestmetrics_requests_total" and ("request", "FetchConsumer") in labels
                   for name, labels in samples)
        # Every phase is timed for every answered request, and the phases add up to the total.
        phases = {phase: samples[(f"kafka_network_requestmetrics_{phase}_sum", frozenset({("request", "Produce")}))]
                  for phase in ("totaltimems", "requestqueuetimems", "localtimems", "remotetimems",
                                "responsequeuetimems")}
        assert samples[("kafka_network_requestmetrics_localtimems_count",
                        frozenset({("request", "Produce")}))] == produce_count
        assert sum(v for k, v in phases.items() if k != "totaltimems") == pytest.approx(phases["totaltimems"],
                                                                                         rel=1e-6)
        ends = [samples[("kafka_log_log_logendoffset", frozenset({("topic", "metered"), ("partition", p)}))]
                for p in ("0", "1")]
        assert ends == [N // 2, N // 2]
        for p in ("0", "1"):  # committed 10 short of the end
            assert samples[("kafka_consumergroup_lag", frozenset({("consumergroup", "meter"), ("topic", "metered"),
                                                                  ("partition", p)}))] == 10
        assert samples[("kafka_coordinator_group_groupmetadatamanager_numgroups", frozenset())] == 1
        assert samples[("kafka_server_socketservermetrics_connection_count",
                        frozenset({("listener", "PLAINTEXT"), ("network_processor", "0")}))] == 0  # clients closed
        # One per partition of each produce and fetch; none failed.
        assert samples[("kafka_server_brokertopicmetrics_totalproducerequests_total", topic)] >= 2
        assert samples[("kafka_server_brokertopicmetrics_totalfetchrequests_total", topic)] >= 2
        assert samples[("kafka_server_brokertopicmetrics_failedproducerequests_total", frozenset())] == 0
        assert samples[("kafka_server_brokertopicmetrics_failedfetchrequests_total", frozenset())] == 0
        assert 0 <= samples[("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent", frozenset())] <= 1
        hosted = 2 + 3  # and __consumer_offsets' 3 partitions (tests/conftest.py)
        assert samples[("kafka_server_replicamanager_partitioncount", frozenset())] == hosted
        assert samples[("kafka_server_replicamanager_leadercount", frozenset())] == hosted
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


@pytest.mark.cluster
def test_metrics_show_a_stopped_follower(zookeeper, tmp_path: Path) -> None:
    """Two brokers on ZooKeeper, RF 2, min.insync.replicas 2: after the follower dies (kill
    -9), the leader's scrape shows every partition under-replicated and under min ISR, and
    the ISR shrinks it made counted; the controller reports no partition offline."""
    port = free_port()
    common = {"zookeeper.connect": zookeeper.connect, "replica.lag.time.max.ms": "2000",
              "zookeeper.session.timeout.ms": "3000", "min.insync.replicas": "2",
              "offsets.topic.replication.factor": "2"}
    leader = BrokerProcess(tmp_path / "b1", overrides={**common, "broker.id": "1",
                                                       "metrics.http.listener": f"127.0.0.1:{port}"})
    follower = BrokerProcess(tmp_path / "b2", overrides={**common, "broker.id": "2"})
    try:
        admin = KafkaAdminClient(bootstrap_servers=leader.bootstrap)
        admin.create_topics([NewTopic("watched", replica_assignments={p: [1, 2] for p in range(3)})])
        admin.close()

        def scrape() -> dict[tuple[str, frozenset], float]:
            return _samples(_get(port, "/metrics")[1])

        def gauge(name: str) -> float:
            return scrape().get((name, frozenset()), -1)

        wait_until(lambda: gauge("kafka_server_replicamanager_leadercount") == 3
                   and gauge("kafka_server_replicamanager_underreplicatedpartitions") == 0, "3 led, in sync")
        assert gauge("kafka_server_replicamanager_atminisrpartitioncount") == 3
        follower.kill()
        wait_until(lambda: gauge("kafka_server_replicamanager_underreplicatedpartitions") == 3,
                   "every partition under-replicated", timeout=60)
        samples = scrape()
        assert samples[("kafka_server_replicamanager_underminisrpartitioncount", frozenset())] == 3
        assert samples[("kafka_server_replicamanager_isrshrinks_total", frozenset())] >= 3
        assert samples[("kafka_controller_kafkacontroller_offlinepartitionscount", frozenset())] == 0
        assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] in (0, 1)
    finally:
        follower.stop()
        leader.stop()
