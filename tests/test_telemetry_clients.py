"""KIP-714 and KIP-966 with real clients: librdkafka (confluent-kafka) and the Java 4.4.0
producer push their metrics to josefk under a client-metrics subscription, and the broker's
/metrics shows them labelled by client instance id; the Java 4.4.0 admin client describes
topics with DescribeTopicPartitions, paging through them."""

from __future__ import annotations

import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from harness import wire
from harness.net import free_port
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from tests.conftest import RunningBroker
from tests.prerequisites import require_files, require_module, require_tools

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
JAVA4_LIB = ROOT / "compat" / ".envs" / "java-4" / "lib"
JAVA4_JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]
PROGRAM = ROOT / "compat" / "java" / "TelemetryClients.java"


@pytest.fixture
def tbroker(tmp_path: Path) -> Iterator[tuple[RunningBroker, int]]:
    port = free_port()
    broker = RunningBroker(tmp_path / "logs", {"metrics.http.listener": f"127.0.0.1:{port}"})
    yield broker, port
    broker.stop()


def subscribe(bootstrap: str, name: str, **configs: str) -> None:
    sock = wire.connect(bootstrap)
    try:
        resource = AlterConfigsResource(resource_type=16, resource_name=name, configs=[
            AlterableConfig(name=key.replace("_", "."), config_operation=0, value=value)
            for key, value in configs.items()])
        _cid, response = wire.send(sock, ApiKey.IncrementalAlterConfigs, 1,
                                   IncrementalAlterConfigsRequest(resources=[resource], validate_only=False))
        assert [r.error_code for r in response.responses] == [0], response
    finally:
        sock.close()


def client_samples(port: int, name: str) -> dict[str, float]:
    """The series of one pushed metric, by client instance id."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {s.labels["client_instance_id"]: s.value for family in text_string_to_metric_families(text)
            for s in family.samples if s.name == name}


def java(*args: str, **kwargs) -> subprocess.Popen:  # noqa: ANN003
    require_tools("java")
    require_files(JAVA4_LIB, JAVA4_JARS, ".venv/bin/python compat/setup_envs.py --only java-4 (mvn)")
    classpath = ":".join(str(JAVA4_LIB / j) for j in JAVA4_JARS)
    return subprocess.Popen(["java", "-cp", classpath, str(PROGRAM), *args], text=True, **kwargs)


def test_librdkafka_pushes_its_metrics_to_metrics_endpoint(tbroker: tuple[RunningBroker, int]) -> None:
    broker, port = tbroker
    confluent_kafka = require_module("confluent_kafka")
    subscribe(broker.bootstrap, "producers", metrics="org.apache.kafka.producer.", interval_ms="500",
              match="client_id=rdk-.*")
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap, "client.id": "rdk-telemetry"})
    try:
        for _ in range(50):
            producer.produce("rdk-telemetry", b"x" * 100)
        assert producer.flush(30) == 0

        def pushed() -> bool:
            producer.poll(0.1)
            return bool(client_samples(port, "org_apache_kafka_producer_record_queue_time_avg"))

        wait_until(pushed, "librdkafka pushed org.apache.kafka.producer.record.queue.time.avg")
        (instance,) = client_samples(port, "org_apache_kafka_producer_record_queue_time_avg")
        latency = client_samples(port, "org_apache_kafka_producer_node_request_latency_avg")
        assert set(latency) == {instance}
        assert broker.server.client_metrics.instances  # the broker knows the instance it labelled
        # Only the subscribed prefix is pushed: no consumer metrics from a producer.
        assert not client_samples(port, "org_apache_kafka_consumer_fetch_manager_fetch_latency_avg")
    finally:
        producer.close()


def test_java_producer_pushes_its_metrics_to_metrics_endpoint(tbroker: tuple[RunningBroker, int]) -> None:
    broker, port = tbroker
    subscribe(broker.bootstrap, "java", metrics="org.apache.kafka.producer.", interval_ms="500",
              match="client_software_name=apache-kafka-java,client_id=java-.*")
    process = java("produce", broker.bootstrap, "java-telemetry", "java-telemetry",
                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stdin is not None
        line = process.stdout.readline()
        assert line.startswith("instance "), line + (process.stderr.read() if process.stderr else "")
        instance = line.split()[1]
        wait_until(lambda: instance in client_samples(port, "org_apache_kafka_producer_record_queue_time_avg"),
                   "the Java producer pushed org.apache.kafka.producer.record.queue.time.avg", timeout=60)
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_java_admin_describes_topics_with_describe_topic_partitions(tbroker: tuple[RunningBroker, int]) -> None:
    """describeTopics with partitionSizeLimitPerResponse(3) pages a 7-partition topic in 3 requests
    and the next topic in one more; the broker answered API 75, never Metadata for the topics."""
    broker, _port = tbroker
    sock = wire.connect(broker.bootstrap)
    try:
        wire.create_topic(sock, "dtp-a", 7)
        wire.create_topic(sock, "dtp-b", 2)
    finally:
        sock.close()
    counts = broker.server.broker_metrics.requests.counts
    before = counts.get(("DescribeTopicPartitions", 0), 0)
    result = java("describe", broker.bootstrap, "dtp-a", "dtp-b", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = result.communicate(timeout=180)
    assert result.returncode == 0, out[-2000:] + err[-3000:]
    lines = sorted(out.splitlines(), key=lambda line: (line.split()[0], int(line.split()[1])))
    assert [line.split()[:2] for line in lines] == [["dtp-a", str(p)] for p in range(7)] + \
        [["dtp-b", str(p)] for p in range(2)]
    assert all(line.endswith("leader=0 replicas=1 isr=1 elr=[] ops=8") for line in lines), lines
    assert counts.get(("DescribeTopicPartitions", 0), 0) - before == 3  # a,a,a(+b's first page), b
