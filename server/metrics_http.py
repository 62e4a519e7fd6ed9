"""metrics.http.listener: Prometheus' /metrics, and /healthz and /readyz, on the broker's loop.

Kafka exposes JMX only; operators scrape it with the Prometheus JMX exporter. josefk serves
the same series itself, named as the exporter's common Kafka rules name them
(kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t ->
kafka_server_brokertopicmetrics_messagesin_total{topic="t"}), so dashboards and alerts
written for Kafka work. A scrape runs on the event loop, so it reads the counters (and the
replica manager's partitions, the log sizes, the controller) with no lock and never sees a
half-made change; the text is small (one series per topic, partition and request name).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from josefk.log.log import Log
from josefk.protocol.apis import ApiKey
from josefk.replication.partition import Partition
from josefk.utils.metrics import LATENCY_BUCKETS_MS, BrokerMetrics

log = logging.getLogger(__name__)


@dataclass
class BrokerGauges:
    """What the gauges read at scrape time, from the components that own the state."""

    partitions: Callable[[], Iterable[Partition]]  # the partitions this broker hosts
    logs: Callable[[], Mapping[tuple[str, int], Log]]
    active_controller: Callable[[], bool]


def _api_name(api_key: int) -> str:
    try:
        return ApiKey(api_key).name
    except ValueError:
        return str(api_key)


def _per_topic(name: str, doc: str, counts: dict[str, int]) -> Metric:
    """A counter with one series per topic and the all-topics series (no topic label), as
    the JMX exporter makes of BrokerTopicMetrics' topic and all-topics MBeans."""
    family = Metric(name, doc, "counter")
    family.add_sample(name + "_total", {}, float(sum(counts.values())))
    for topic, value in sorted(counts.items()):
        family.add_sample(name + "_total", {"topic": topic}, float(value))
    return family


class BrokerCollector(Collector):
    def __init__(self, metrics: BrokerMetrics, gauges: BrokerGauges) -> None:
        self.metrics = metrics
        self.gauges = gauges

    def collect(self) -> Iterator[Metric]:
        topics = self.metrics.topics
        yield _per_topic("kafka_server_brokertopicmetrics_messagesin",
                         "Records appended as leader (kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec)",
                         topics.messages_in)
        yield _per_topic("kafka_server_brokertopicmetrics_bytesin",
                         "Bytes produced (kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec)", topics.bytes_in)
        yield _per_topic("kafka_server_brokertopicmetrics_bytesout",
                         "Bytes fetched by consumers (kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec)",
                         topics.bytes_out)

        requests = self.metrics.requests
        counter = CounterMetricFamily(
            "kafka_network_requestmetrics_requests",
            "Requests answered (kafka.network:type=RequestMetrics,name=RequestsPerSec,request=,version=)",
            labels=["request", "version"])
        for (api_key, version), value in sorted(requests.requests().items()):
            counter.add_metric([_api_name(api_key), str(version)], float(value))
        yield counter
        histogram = HistogramMetricFamily(
            "kafka_network_requestmetrics_totaltimems",
            "Time from a request's read to its response, ms (kafka.network:type=RequestMetrics,name=TotalTimeMs)",
            labels=["request"])
        for api_key, (counts, total) in sorted(requests.latency().items()):
            cumulative = 0
            buckets = []
            for bound, count in zip((*LATENCY_BUCKETS_MS, float("inf")), counts, strict=True):
                cumulative += count
                buckets.append(("+Inf" if bound == float("inf") else repr(float(bound)), float(cumulative)))
            histogram.add_metric([_api_name(api_key)], buckets, total)
        yield histogram

        partitions = list(self.gauges.partitions())
        leaders = [p for p in partitions if p.is_leader]
        yield GaugeMetricFamily("kafka_server_replicamanager_partitioncount",
                                "Partitions hosted (kafka.server:type=ReplicaManager,name=PartitionCount)",
                                value=len(partitions))
        yield GaugeMetricFamily("kafka_server_replicamanager_leadercount",
                                "Partitions led (kafka.server:type=ReplicaManager,name=LeaderCount)",
                                value=len(leaders))
        yield GaugeMetricFamily(
            "kafka_server_replicamanager_underreplicatedpartitions",
            "Led partitions whose ISR is smaller than their replicas "
            "(kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions)",
            value=sum(1 for p in leaders if len(p.isr) < len(p.replicas)))
        isr = self.metrics.replica_manager
        yield CounterMetricFamily("kafka_server_replicamanager_isrshrinks",
                                  "ISR shrinks (kafka.server:type=ReplicaManager,name=IsrShrinksPerSec)",
                                  value=isr.isr_shrinks)
        yield CounterMetricFamily("kafka_server_replicamanager_isrexpands",
                                  "ISR expansions (kafka.server:type=ReplicaManager,name=IsrExpandsPerSec)",
                                  value=isr.isr_expands)
        yield GaugeMetricFamily(
            "kafka_controller_kafkacontroller_activecontrollercount",
            "1 on the active controller (kafka.controller:type=KafkaController,name=ActiveControllerCount)",
            value=1 if self.gauges.active_controller() else 0)
        sizes = GaugeMetricFamily("kafka_log_log_size", "Bytes of a partition's log (kafka.log:type=Log,name=Size)",
                                  labels=["topic", "partition"])
        for (topic, partition), log_ in sorted(self.gauges.logs().items()):
            try:
                size = log_.size_in_bytes
            except OSError:  # a failed log dir: its logs are going offline
                continue
            sizes.add_metric([topic, str(partition)], float(size))
        yield sizes


class MetricsHttpServer:
    """A minimal HTTP/1.0 server for GET /metrics, /healthz and /readyz (one request per
    connection); enough for Prometheus and for a kubelet's probes."""

    def __init__(self, host: str, port: int, registry: CollectorRegistry, ready: Callable[[], bool]) -> None:
        self.host = host
        self.port = port
        self.registry = registry
        self.ready = ready
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, self.host, self.port, reuse_address=True)
        self.port = self.server.sockets[0].getsockname()[1]
        log.info("Serving /metrics, /healthz and /readyz on %s:%d", self.host, self.port)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def _answer(self, path: str) -> tuple[str, str, bytes]:
        if path == "/metrics":
            return "200 OK", CONTENT_TYPE_LATEST, generate_latest(self.registry)
        if path == "/healthz":
            return "200 OK", "text/plain", b"ok\n"
        if path == "/readyz":
            if self.ready():
                return "200 OK", "text/plain", b"ready\n"
            return "503 Service Unavailable", "text/plain", b"not ready\n"
        return "404 Not Found", "text/plain", b"not found\n"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request_line = await asyncio.wait_for(reader.readline(), 10)
            while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                pass
            parts = request_line.decode("latin-1").split()
            if len(parts) < 2 or parts[0] not in ("GET", "HEAD"):
                status, content_type, body = "405 Method Not Allowed", "text/plain", b"GET only\n"
            else:
                status, content_type, body = self._answer(parts[1].split("?", 1)[0])
            head = (f"HTTP/1.0 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                    "Connection: close\r\n\r\n").encode()
            writer.write(head if parts and parts[0] == "HEAD" else head + body)
            await writer.drain()
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        except Exception:  # noqa: BLE001 - a scrape must never take the broker down
            log.exception("Error answering a metrics request")
        finally:
            writer.close()


def registry_for(metrics: BrokerMetrics, gauges: BrokerGauges) -> CollectorRegistry:
    """A registry of this broker's series only (not the process-wide default one: tests run
    several brokers in one process)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(BrokerCollector(metrics, gauges))
    return registry
