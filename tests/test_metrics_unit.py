"""utils/metrics.py's counters and their Prometheus rendering (server/metrics_http.py), without a broker."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from josefk.coordinator.group_metadata import GroupState
from josefk.replication.replication_quota import ReplicationQuotas
from josefk.server.metrics_http import BrokerGauges, registry_for
from josefk.utils.metrics import BrokerMetrics
from josefk.utils.mock_time import MockTime
from josefk.utils.rate import MetricConfig


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
        metrics.requests.record("Produce", 9, (total_ms, 0.1, 0.1, total_ms - 0.3, 0.1))
    metrics.requests.record("FetchFollower", 12, (1, 0, 0, 1, 0))
    metrics.log_flush.flushes.record(4)
    metrics.network.created["PLAINTEXT"] += 3
    metrics.network.closed["PLAINTEXT"] += 2
    metrics.network.acceptor_blocked_ns["PLAINTEXT"] += 5_000
    metrics.replica_manager.record_isr_change([1, 2, 3], [1, 2])
    metrics.replica_manager.record_isr_change([1, 2], [1, 2, 3])
    metrics.replica_manager.record_isr_change([1, 2], [1, 2, 3])
    metrics.replica_manager.record_isr_change([1, 2], [2, 1])
    min_isr_2 = SimpleNamespace(config=SimpleNamespace(min_insync_replicas=2))
    leader = SimpleNamespace(is_leader=True, isr=[0], replicas=[0, 1], log=min_isr_2, key=("a", 0), high_watermark=40)
    follower = SimpleNamespace(is_leader=False, isr=[1], replicas=[0, 1], log=min_isr_2, key=("b", 0),
                               high_watermark=5)
    logs = {("a", 0): SimpleNamespace(size_in_bytes=1500, log_end_offset=42, log_start_offset=3, segments=[1, 2])}
    offsets = {("a", 0): SimpleNamespace(offset=30), ("elsewhere", 0): SimpleNamespace(offset=1)}
    group = SimpleNamespace(group_id="g", state=GroupState.STABLE, offsets=offsets)
    samples = _scrape(metrics, BrokerGauges(lambda: [leader, follower], lambda: logs, lambda: False,  # type: ignore
                                            listener_connections=lambda: {"PLAINTEXT": 7, "INTERNAL": 1},
                                            groups=lambda: [group]))  # type: ignore

    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset({("topic", "a")}))] == 15
    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == 16
    assert samples[("kafka_server_brokertopicmetrics_bytesin_total", frozenset())] == 1570
    assert samples[("kafka_server_brokertopicmetrics_bytesout_total", frozenset({("topic", "a")}))] == 1500
    produce = frozenset({("request", "Produce"), ("version", "9")})
    assert samples[("kafka_network_requestmetrics_requests_total", produce)] == 4
    assert samples[("kafka_network_requestmetrics_totaltimems_count", frozenset({("request", "Produce")}))] == 4
    assert samples[("kafka_network_requestmetrics_totaltimems_sum", frozenset({("request", "Produce")}))] == 20_006.2
    # Kafka's percentiles as the JMX exporter shows them, interpolated within the buckets:
    # 0.2 in (0, 0.5], 3 and 3 in (2.5, 5], 20 s past the last bound.
    quantiles = {q: samples[("kafka_network_requestmetrics_totaltimems",
                             frozenset({("request", "Produce"), ("quantile", q)}))]
                 for q in ("0.50", "0.75", "0.95", "0.98", "0.99", "0.999")}
    assert quantiles == {"0.50": 3.75, "0.75": 5.0, "0.95": 10_000, "0.98": 10_000, "0.99": 10_000, "0.999": 10_000}
    assert samples[("kafka_server_replicamanager_isrshrinks_total", frozenset())] == 1
    assert samples[("kafka_server_replicamanager_isrexpands_total", frozenset())] == 2
    assert samples[("kafka_server_replicamanager_partitioncount", frozenset())] == 2
    assert samples[("kafka_server_replicamanager_leadercount", frozenset())] == 1
    assert samples[("kafka_server_replicamanager_underreplicatedpartitions", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] == 0
    assert samples[("kafka_log_log_size", frozenset({("topic", "a"), ("partition", "0")}))] == 1500
    assert samples[("kafka_log_log_logendoffset", frozenset({("topic", "a"), ("partition", "0")}))] == 42
    assert samples[("kafka_log_log_logstartoffset", frozenset({("topic", "a"), ("partition", "0")}))] == 3
    assert samples[("kafka_log_log_numlogsegments", frozenset({("topic", "a"), ("partition", "0")}))] == 2
    # Each phase of a request is its own histogram; Fetch from a replica is FetchFollower.
    produce_name = frozenset({("request", "Produce")})
    assert samples[("kafka_network_requestmetrics_remotetimems_sum", produce_name)] == pytest.approx(20_005)
    assert samples[("kafka_network_requestmetrics_requestqueuetimems_count", produce_name)] == 4
    assert samples[("kafka_network_requestmetrics_requests_total",
                    frozenset({("request", "FetchFollower"), ("version", "12")}))] == 1
    assert samples[("kafka_server_replicamanager_underminisrpartitioncount", frozenset())] == 1
    assert samples[("kafka_server_replicamanager_atminisrpartitioncount", frozenset())] == 0
    assert samples[("kafka_log_logflushstats_logflushrateandtimems_count", frozenset())] == 1
    assert samples[("kafka_server_socketservermetrics_connection_count",
                    frozenset({("listener", "PLAINTEXT"), ("network_processor", "0")}))] == 7
    assert samples[("kafka_server_socket_server_metrics_connection_count",
                    frozenset({("listener", "INTERNAL"), ("networkProcessor", "0")}))] == 1
    # Kafka's Partition gauges: a follower's read 0.
    assert samples[("kafka_cluster_partition_underminisr", frozenset({("topic", "a"), ("partition", "0")}))] == 1
    assert samples[("kafka_cluster_partition_underminisr", frozenset({("topic", "b"), ("partition", "0")}))] == 0
    assert samples[("kafka_cluster_partition_replicascount", frozenset({("topic", "a"), ("partition", "0")}))] == 2
    assert samples[("kafka_cluster_partition_insyncreplicascount",
                    frozenset({("topic", "b"), ("partition", "0")}))] == 0
    plaintext = frozenset({("listener", "PLAINTEXT")})
    assert samples[("kafka_server_socketservermetrics_connection_creation_total", plaintext)] == 3
    assert samples[("kafka_server_socketservermetrics_connection_close_total", plaintext)] == 2
    rates = frozenset({("listener", "PLAINTEXT"), ("network_processor", "0")})
    assert samples[("kafka_server_socketservermetrics_connection_creation_rate", rates)] > 0  # 3 since start
    assert samples[("kafka_network_acceptor_acceptorblockedpercent_total", plaintext)] == 5_000
    assert samples[("kafka_coordinator_group_groupmetadatamanager_numgroupsstable", frozenset())] == 1
    assert samples[("kafka_coordinator_group_groupmetadatamanager_numoffsets", frozenset())] == 2
    # Lag only where this broker knows the high watermark.
    assert samples[("kafka_consumergroup_lag",
                    frozenset({("consumergroup", "g"), ("topic", "a"), ("partition", "0")}))] == 10
    assert not any(name == "kafka_consumergroup_lag" and ("topic", "elsewhere") in labels
                   for name, labels in samples)

    metrics.topics.remove_topic("a")
    metrics.topics.produce_requests["b"] = 3
    metrics.topics.failed_produce_requests["b"] = 1
    offline = SimpleNamespace(leader=-1, replicas=[1, 2])
    cache = SimpleNamespace(topics={"t": {0: offline, 1: SimpleNamespace(leader=2, replicas=[2, 1]),
                                          2: SimpleNamespace(leader=2, replicas=[1, 2])}})
    samples = _scrape(metrics, BrokerGauges(lambda: [], lambda: {}, lambda: True, metadata=lambda: cache,  # type: ignore
                                            unclean_elections=lambda: 2))
    assert ("kafka_server_brokertopicmetrics_messagesin_total", frozenset({("topic", "a")})) not in samples
    assert samples[("kafka_server_brokertopicmetrics_messagesin_total", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_activecontrollercount", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_offlinepartitionscount", frozenset())] == 1
    assert samples[("kafka_controller_kafkacontroller_globalpartitioncount", frozenset())] == 3
    assert samples[("kafka_controller_kafkacontroller_preferredreplicaimbalancecount", frozenset())] == 2
    assert samples[("kafka_controller_controllerstats_uncleanleaderelections_total", frozenset())] == 2
    # Confluent's rules' names for the same counters (no _total), beside the exporter's.
    assert samples[("kafka_controller_controllerstats_uncleanleaderelectionspersec", frozenset())] == 2
    assert samples[("kafka_server_brokertopicmetrics_messagesinpersec", frozenset({("topic", "b")}))] == 1
    assert samples[("kafka_server_brokertopicmetrics_totalproducerequests_total", frozenset({("topic", "b")}))] == 3
    assert samples[("kafka_server_brokertopicmetrics_failedproducerequestspersec", frozenset())] == 1


def test_replication_byte_rates_render_under_kafka_names() -> None:
    """kafka.server:type=LeaderReplication|FollowerReplication,name=byte-rate: the quotas' own measure."""
    time = MockTime()
    quotas = ReplicationQuotas.create(MetricConfig(), MetricConfig(), time)
    quotas.leader.record(3000)
    samples = _scrape(BrokerMetrics(), BrokerGauges(lambda: [], lambda: {}, lambda: False,
                                                    replication_quotas=lambda: quotas))
    assert samples[("kafka_server_leaderreplication_byte_rate", frozenset())] == 3000  # over one window
    assert samples[("kafka_server_followerreplication_byte_rate", frozenset())] == 0
    assert samples[("kafka_server_alterlogdirsreplication_byte_rate", frozenset())] == 0


def test_zookeeper_client_metrics_render_under_kafka_names() -> None:
    metrics = BrokerMetrics()
    metrics.zookeeper.latency.record(3)
    metrics.zookeeper.sync_connects = 2
    metrics.zookeeper.disconnects = 1
    samples = _scrape(metrics, BrokerGauges(lambda: [], lambda: {}, lambda: False))
    name = "kafka_server_zookeeperclientmetrics_zookeeperrequestlatencyms"
    assert samples[(f"{name}_count", frozenset())] == 1
    assert samples[(name, frozenset({("quantile", "0.99")}))] == pytest.approx(4.975)  # within (2.5, 5]
    assert samples[("kafka_server_sessionexpirelistener_zookeepersyncconnects_total", frozenset())] == 2
    assert samples[("kafka_server_sessionexpirelistener_zookeeperdisconnectspersec", frozenset())] == 1
    assert samples[("kafka_server_sessionexpirelistener_zookeeperexpires_total", frozenset())] == 0
