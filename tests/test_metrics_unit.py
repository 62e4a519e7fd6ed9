"""utils/metrics.py's counters and their Prometheus rendering (server/metrics_http.py), without a broker."""

from __future__ import annotations

from types import SimpleNamespace

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from josefk.protocol.apis import ApiKey
from josefk.server.metrics_http import BrokerGauges, registry_for
from josefk.utils.metrics import BrokerMetrics


def _scrape(metrics: BrokerMetrics, gauges: BrokerGauges) -> dict[tuple[str, frozenset], float]:
    text = generate_latest(registry_for(metrics, gauges)).decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_counters_render_under_kafka_names() -> None:
    metrics = BrokerMetrics()
    metrics.topics.record_append("a", 10, 1000)
    metrics.topics.record_append("a", 5, 500)
    metrics.topics.record_append("b", 1, 70)
    metrics.topics.record_bytes_out("a", 1500)
    for total_ms in (0.2, 3, 3, 20_000):
        metrics.requests.record(ApiKey.Produce, 9, total_ms)
    metrics.requests.record(ApiKey.Fetch, 12, 1)
    metrics.replica_manager.record_isr_change([1, 2, 3], [1, 2])
    metrics.replica_manager.record_isr_change([1, 2], [1, 2, 3])
    metrics.replica_manager.record_isr_change([1, 2], [1, 2, 3])
    metrics.replica_manager.record_isr_change([1, 2], [2, 1])
    leader = SimpleNamespace(is_leader=True, isr=[0], replicas=[0, 1])
    follower = SimpleNamespace(is_leader=False, isr=[1], replicas=[0, 1])
    logs = {("a", 0): SimpleNamespace(size_in_bytes=1500)}
    samples = _scrape(metrics, BrokerGauges(lambda: [leader, follower], lambda: logs, lambda: False))  # type: ignore

    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset({("topic", "a")}))] == 15
    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == 16
    assert samples[("kafka_server_brokertopicmetrics_bytesin_total", frozenset())] == 1570
    assert samples[("kafka_server_brokertopicmetrics_bytesout_total", frozenset({("topic", "a")}))] == 1500
    produce = frozenset({("request", "Produce"), ("version", "9")})
    assert samples[("kafka_network_requestmetrics_requests_total", produce)] == 4
    assert samples[("kafka_network_requestmetrics_totaltimems_count", frozenset({("request", "Produce")}))] == 4
    assert samples[("kafka_network_requestmetrics_totaltimems_sum", frozenset({("request", "Produce")}))] == 20_006.2
    bucket = {le: samples[("kafka_network_requestmetrics_totaltimems_bucket",
                           frozenset({("request", "Produce"), ("le", le)}))] for le in ("0.5", "2.5", "5.0", "+Inf")}
    assert bucket == {"0.5": 1, "2.5": 1, "5.0": 3, "+Inf": 4}
    assert samples[("kafka_server_replicamanager_isrshrinks_total", frozenset())] == 1
    assert samples[("kafka_server_replicamanager_isrexpands_total", frozenset())] == 2
    assert samples[("kafka_server_replicamanager_partitioncount", frozenset())] == 2
    assert samples[("kafka_server_replicamanager_leadercount", frozenset())] == 1
    assert samples[("kafka_server_replicamanager_underreplicatedpartitions", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] == 0
    assert samples[("kafka_log_log_size", frozenset({("topic", "a"), ("partition", "0")}))] == 1500

    metrics.topics.remove_topic("a")
    samples = _scrape(metrics, BrokerGauges(lambda: [], lambda: {}, lambda: True))
    assert ("kafka_server_brokertopicmetrics_messagesin_total", frozenset({("topic", "a")})) not in samples
    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] == 1
