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
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric, SummaryMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample

from josefk.coordinator.group_metadata import GroupMetadata, GroupState
from josefk.log.log import Log
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.replication.fetch_session import FetchSessionCache
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import Partition
from josefk.replication.purgatory import DelayedOperationPurgatory
from josefk.replication.replication_quota import ReplicationQuotas
from josefk.server.os_metrics import OsCollector
from josefk.server.quotas.client_quota_manager import QuotaManagers
from josefk.utils.metrics import LATENCY_BUCKETS_MS, REQUEST_PHASES, BrokerMetrics, LatencyHistogram
from josefk.utils.quantiles import RecentQuantiles

log = logging.getLogger(__name__)


@dataclass
class BrokerGauges:
    """What the gauges read at scrape time, from the components that own the state."""

    partitions: Callable[[], Iterable[Partition]]  # the partitions this broker hosts
    logs: Callable[[], Mapping[tuple[str, int], Log]]
    active_controller: Callable[[], bool]
    metadata: Callable[[], MetadataCache | None] = lambda: None  # the cluster, as UpdateMetadata told it
    groups: Callable[[], Iterable[GroupMetadata]] = lambda: ()  # the groups this broker coordinates
    fetch_sessions: Callable[[], FetchSessionCache | None] = lambda: None  # KIP-227 sessions this broker holds
    quotas: Callable[[], QuotaManagers | None] = lambda: None  # the client quota managers, once started
    replication_quotas: Callable[[], ReplicationQuotas | None] = lambda: None  # the replication throttles
    listener_connections: Callable[[], Mapping[str, int]] = dict  # open connections by listener name
    # open connections by (listener, network processor, client software name, version)
    client_connections: Callable[[], Mapping[tuple[str, int, str, str], int]] = dict
    purgatories: Callable[[], Iterable[DelayedOperationPurgatory]] = lambda: ()  # Produce and Fetch
    broker_state: Callable[[], int] = lambda: 3  # Kafka's BrokerState: 1 STARTING, 3 RUNNING, 7 SHUTTING_DOWN
    unclean_elections: Callable[[], int] = lambda: 0  # leaders this broker's controller elected outside the ISR


def _per_topic(name: str, doc: str, counts: dict[str, int]) -> Metric:
    """A counter with one series per topic and the all-topics series (no topic label), as
    the JMX exporter makes of BrokerTopicMetrics' topic and all-topics MBeans."""
    family = Metric(name, doc, "counter")
    family.add_sample(name + "_total", {}, float(sum(counts.values())))
    for topic, value in sorted(counts.items()):
        family.add_sample(name + "_total", {"topic": topic}, float(value))
    return family


# Confluent's jmx-monitoring-stacks rules name a meter by its Count attribute, with no
# suffix (kafka_server_brokertopicmetrics_messagesinpersec{topic=}); its dashboards query
# those names. The counters are also served under them, untyped, as that exporter does.
_CONFLUENT_NAMES = {f"kafka_{name}": f"kafka_{confluent}" for name, confluent in (
    ("server_brokertopicmetrics_messagesin", "server_brokertopicmetrics_messagesinpersec"),
    ("server_brokertopicmetrics_bytesin", "server_brokertopicmetrics_bytesinpersec"),
    ("server_brokertopicmetrics_bytesout", "server_brokertopicmetrics_bytesoutpersec"),
    ("server_brokertopicmetrics_totalproducerequests", "server_brokertopicmetrics_totalproducerequestspersec"),
    ("server_brokertopicmetrics_failedproducerequests", "server_brokertopicmetrics_failedproducerequestspersec"),
    ("server_brokertopicmetrics_totalfetchrequests", "server_brokertopicmetrics_totalfetchrequestspersec"),
    ("server_brokertopicmetrics_failedfetchrequests", "server_brokertopicmetrics_failedfetchrequestspersec"),
    ("server_brokertopicmetrics_producemessageconversions",
     "server_brokertopicmetrics_producemessageconversionspersec"),
    ("server_brokertopicmetrics_fetchmessageconversions", "server_brokertopicmetrics_fetchmessageconversionspersec"),
    ("network_requestmetrics_requests", "network_requestmetrics_requestspersec"),
    ("network_requestmetrics_errors", "network_requestmetrics_errorspersec"),
    ("server_replicamanager_isrshrinks", "server_replicamanager_isrshrinkspersec"),
    ("server_replicamanager_isrexpands", "server_replicamanager_isrexpandspersec"),
    ("controller_controllerstats_uncleanleaderelections", "controller_controllerstats_uncleanleaderelectionspersec"),
    *((f"server_sessionexpirelistener_{event}", f"server_sessionexpirelistener_{event}persec")
      for event in ("zookeepersyncconnects", "zookeeperdisconnects", "zookeeperexpires")))}


class BrokerCollector(Collector):
    def __init__(self, metrics: BrokerMetrics, gauges: BrokerGauges) -> None:
        self.metrics = metrics
        self.gauges = gauges
        # (when, handlers' busy ns, the event loop thread's CPU ns) at the previous scrape
        self._last_scrape = (time.monotonic_ns(), 0, time.thread_time_ns())
        self._quantiles = RecentQuantiles(LATENCY_BUCKETS_MS)
        # (when, connections created and closed by listener) at the previous scrape
        self._last_connections: tuple[int, dict[str, int], dict[str, int]] = (time.monotonic_ns(), {}, {})

    def collect(self) -> Iterator[Metric]:
        for family in self._families():
            yield family
            alias = _CONFLUENT_NAMES.get(family.name)
            if alias is not None:
                renamed = Metric(alias, f"{family.documentation} (the name Confluent's exporter rules give it)",
                                 "untyped")
                renamed.samples = [Sample(alias, s.labels, s.value) for s in family.samples]
                yield renamed

    def _families(self) -> Iterator[Metric]:
        topics = self.metrics.topics
        yield _per_topic("kafka_server_brokertopicmetrics_messagesin",
                         "Records appended as leader (kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec)",
                         topics.messages_in)
        yield _per_topic("kafka_server_brokertopicmetrics_bytesin",
                         "Bytes produced (kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec)", topics.bytes_in)
        yield _per_topic("kafka_server_brokertopicmetrics_bytesout",
                         "Bytes fetched by consumers (kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec)",
                         topics.bytes_out)
        for name, mbean, what, counts in (
                ("totalproducerequests", "TotalProduceRequestsPerSec", "Produce requests, one per partition",
                 topics.produce_requests),
                ("failedproducerequests", "FailedProduceRequestsPerSec", "Produce requests failed, one per partition",
                 topics.failed_produce_requests),
                ("totalfetchrequests", "TotalFetchRequestsPerSec",
                 "Fetch requests (consumers' and followers'), one per partition", topics.fetch_requests),
                ("producemessageconversions", "ProduceMessageConversionsPerSec",
                 "Records produced in a v0/v1 message set, up-converted to v2", topics.produce_conversions),
                ("fetchmessageconversions", "FetchMessageConversionsPerSec",
                 "Records down-converted to a v0/v1 message set for Fetch v0-v3", topics.fetch_conversions),
                ("failedfetchrequests", "FailedFetchRequestsPerSec", "Fetch requests failed, one per partition",
                 topics.failed_fetch_requests)):
            yield _per_topic(f"kafka_server_brokertopicmetrics_{name}",
                             f"{what} (kafka.server:type=BrokerTopicMetrics,name={mbean})", counts)

        yield from self._request_metrics()
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
        yield from self._min_isr(leaders)
        yield from self._partitions(partitions)
        yield from self._controller()
        yield from self._logs()
        yield self._summary("kafka_log_logflushstats_logflushrateandtimems",
                            "Log fsyncs and their time, ms (kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs)",
                            [([], self.metrics.log_flush.flushes)])
        yield from self._purgatories()
        yield from self._zookeeper()
        yield GaugeMetricFamily("kafka_server_kafkaserver_brokerstate",
                                "1 starting, 3 running, 7 shutting down "
                                "(kafka.server:type=KafkaServer,name=BrokerState)",
                                value=self.gauges.broker_state())
        yield from self._network()
        yield from self._groups(partitions)
        yield from self._fetch_sessions()
        yield from self._quotas()
        yield from self._replication_quotas()

    def _replication_quotas(self) -> Iterator[Metric]:
        """Kafka's kafka.server:type=LeaderReplication|FollowerReplication|AlterLogDirsReplication,
        name=byte-rate: the bytes per second of throttled replicas each quota measures."""
        quotas = self.gauges.replication_quotas()
        if quotas is None:
            return
        for manager in (quotas.leader, quotas.follower, quotas.alter_log_dirs):
            kind = manager.replication_type
            yield GaugeMetricFamily(f"kafka_server_{kind.lower()}_byte_rate", "Throttled replication bytes/s "
                                    f"(kafka.server:type={kind},name=byte-rate)", value=manager.byte_rate())

    def _fetch_sessions(self) -> Iterator[Metric]:
        cache = self.gauges.fetch_sessions()
        yield GaugeMetricFamily(
            "kafka_server_fetchsessioncache_numincrementalfetchsessions",
            "Fetch sessions held (kafka.server:type=FetchSessionCache,name=NumIncrementalFetchSessions)",
            value=len(cache) if cache is not None else 0)
        yield GaugeMetricFamily(
            "kafka_server_fetchsessioncache_numincrementalfetchpartitionscached",
            "Partitions in all fetch sessions (kafka.server:type=FetchSessionCache,"
            "name=NumIncrementalFetchPartitionsCached)",
            value=cache.num_partitions if cache is not None else 0)
        yield CounterMetricFamily(
            "kafka_server_fetchsessioncache_incrementalfetchsessionevictions",
            "Fetch sessions evicted to make room (kafka.server:type=FetchSessionCache,"
            "name=IncrementalFetchSessionEvictionsPerSec)",
            value=cache.evictions if cache is not None else 0)

    def _quotas(self) -> Iterator[Metric]:
        """Kafka's per-entity quota sensors (kafka.server:type=Produce|Fetch|Request|ControllerMutation,
        user=,client-id=): byte-rate (request-time for Request, mutation-rate for ControllerMutation)
        and throttle-time, and each type's delay queue size.
        An entity appears once a quota of its type is set and it sent a request."""
        quotas = self.gauges.quotas()
        if quotas is None:
            return
        for manager in (quotas.produce, quotas.fetch, quotas.request, quotas.controller_mutation):
            kind = manager.quota_type.value
            prefix = f"kafka_server_{kind.lower()}"
            metric = manager.metric_name.replace("-", "_")
            rate = GaugeMetricFamily(f"{prefix}_{metric}", f"{manager.metric_name} per user/client-id "
                                     f"(kafka.server:type={kind},user=,client-id=)", labels=["user", "client_id"])
            throttle = GaugeMetricFamily(f"{prefix}_throttle_time", "Average throttle time, ms "
                                         f"(kafka.server:type={kind},user=,client-id=)", labels=["user", "client_id"])
            for (user, client_id), value, throttle_ms in manager.metrics(manager.time.milliseconds()):
                rate.add_metric([user, client_id], value)
                throttle.add_metric([user, client_id], throttle_ms)
            yield rate
            yield throttle
            yield GaugeMetricFamily(f"{prefix}_queue_size", f"Throttled channels (kafka.server:type={kind},"
                                    "name=queue-size)", value=manager.throttled_channels)

    def _request_metrics(self) -> Iterator[Metric]:
        requests = self.metrics.requests
        counter = CounterMetricFamily(
            "kafka_network_requestmetrics_requests",
            "Requests answered (kafka.network:type=RequestMetrics,name=RequestsPerSec,request=,version=)",
            labels=["request", "version"])
        for (name, version), value in sorted(requests.counts.items()):
            counter.add_metric([name, str(version)], float(value))
        yield counter
        errors = CounterMetricFamily(
            "kafka_network_requestmetrics_errors",
            "Error codes in responses, NONE too (kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=,error=)",
            labels=["request", "error"])
        by_name: Counter[tuple[str, str]] = Counter()
        for (api_key, code), value in requests.errors.items():
            by_name[(_api_name(api_key), _error_name(code))] += value
        for labels, value in sorted(by_name.items()):
            errors.add_metric(list(labels), float(value))
        yield errors
        yield self._summary("kafka_network_requestmetrics_responsesendtimems",
                            "Time from a response leaving the response queue to its last byte on the socket, ms "
                            "(name=ResponseSendTimeMs)",
                            [([name], histogram) for name, histogram in sorted(requests.send.items())],
                            labels=["request"])
        for i, phase in enumerate(REQUEST_PHASES):
            yield self._summary(f"kafka_network_requestmetrics_{phase}", _PHASE_DOCS[phase],
                                [([name], histograms[i]) for name, histograms in sorted(requests.phases.items())],
                                labels=["request"])

    def _summary(self, name: str, doc: str, series: list[tuple[list[str], LatencyHistogram]],
                 labels: list[str] | None = None) -> SummaryMetricFamily:
        """A duration as the JMX exporter shows a Yammer histogram: Kafka's percentiles as
        `name{quantile=}` (of the last minutes: utils.quantiles), with `_count` and `_sum`."""
        labels = labels or []
        family = SummaryMetricFamily(name, doc, labels=labels)
        for values, histogram in series:
            family.add_metric(values, sum(histogram.counts), histogram.total)
            base = dict(zip(labels, values, strict=True))
            for label, value in self._quantiles.percentiles((name, *values), histogram.counts):
                family.samples.append(Sample(name, {**base, "quantile": label}, value))
        return family

    def _partitions(self, partitions: list[Partition]) -> Iterator[Metric]:
        """Kafka's per-partition gauges (kafka.cluster:type=Partition,name=,topic=,partition=), as
        the JMX exporter names them; like Kafka's, they read 0 on a follower."""
        labels = ["topic", "partition"]
        families = {name: GaugeMetricFamily(f"kafka_cluster_partition_{name.lower()}",
                                            f"{doc} (kafka.cluster:type=Partition,name={name})", labels=labels)
                    for name, doc in (("UnderReplicated", "1 if led and the ISR is smaller than the replicas"),
                                      ("UnderMinIsr", "1 if led and the ISR is below min.insync.replicas"),
                                      ("AtMinIsr", "1 if led and the ISR is exactly min.insync.replicas"),
                                      ("InSyncReplicasCount", "The ISR's size, when led"),
                                      ("ReplicasCount", "The replicas, when led"))}
        for p in sorted(partitions, key=lambda p: p.key):
            key = [p.key[0], str(p.key[1])]
            isr, replicas = (len(p.isr), len(p.replicas)) if p.is_leader else (0, 0)
            min_isr = p.log.config.min_insync_replicas
            for name, value in (("UnderReplicated", isr < replicas), ("UnderMinIsr", p.is_leader and isr < min_isr),
                                ("AtMinIsr", p.is_leader and isr == min_isr), ("InSyncReplicasCount", isr),
                                ("ReplicasCount", replicas)):
                families[name].add_metric(key, float(value))
        yield from families.values()

    def _zookeeper(self) -> Iterator[Metric]:
        """The ZooKeeper client's request latency and session events (zeros on a broker
        without ZooKeeper)."""
        zk = self.metrics.zookeeper
        yield self._summary("kafka_server_zookeeperclientmetrics_zookeeperrequestlatencyms",
                            "ZooKeeper calls' time, ms (kafka.server:type=ZooKeeperClientMetrics,"
                            "name=ZooKeeperRequestLatencyMs)", [([], zk.latency)])
        for mbean, value, what in (("ZooKeeperSyncConnects", zk.sync_connects, "Connections made (SyncConnected)"),
                                   ("ZooKeeperDisconnects", zk.disconnects, "Connections lost (Disconnected)"),
                                   ("ZooKeeperExpires", zk.expires, "Sessions expired (Expired)")):
            yield CounterMetricFamily(f"kafka_server_sessionexpirelistener_{mbean.lower()}",
                                      f"{what} (kafka.server:type=SessionExpireListener,name={mbean}PerSec)",
                                      value=value)

    def _purgatories(self) -> Iterator[Metric]:
        """DelayedOperationPurgatory's gauges (kafka.server:type=DelayedOperationPurgatory,
        name=PurgatorySize|NumDelayedOperations,delayedOperation=): watches (an operation
        counts once per partition it waits on) and distinct operations."""
        labels = ["delayedOperation"]
        size = GaugeMetricFamily("kafka_server_delayedoperationpurgatory_purgatorysize",
                                 "Operations watched, once per key (name=PurgatorySize)", labels=labels)
        delayed = GaugeMetricFamily("kafka_server_delayedoperationpurgatory_numdelayedoperations",
                                    "Operations waiting (name=NumDelayedOperations)", labels=labels)
        for purgatory in self.gauges.purgatories():
            size.add_metric([purgatory.name], float(purgatory.watched))
            delayed.add_metric([purgatory.name], float(len(purgatory)))
        yield size
        yield delayed

    def _min_isr(self, leaders: list[Partition]) -> Iterator[Metric]:
        below = at = 0
        for p in leaders:
            min_isr = p.log.config.min_insync_replicas
            below += len(p.isr) < min_isr
            at += len(p.isr) == min_isr
        yield GaugeMetricFamily("kafka_server_replicamanager_underminisrpartitioncount",
                                "Led partitions whose ISR is below min.insync.replicas "
                                "(kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount)", value=below)
        yield GaugeMetricFamily("kafka_server_replicamanager_atminisrpartitioncount",
                                "Led partitions whose ISR is exactly min.insync.replicas "
                                "(kafka.server:type=ReplicaManager,name=AtMinIsrPartitionCount)", value=at)

    def _controller(self) -> Iterator[Metric]:
        """The controller's gauges: on the active controller the cluster's, elsewhere 0 (as
        Kafka's, which only the active controller reports), from the metadata it sent."""
        active = self.gauges.active_controller()
        cache = self.gauges.metadata() if active else None
        topics = cache.topics if cache is not None else {}
        yield GaugeMetricFamily(
            "kafka_controller_kafkacontroller_activecontrollercount",
            "1 on the active controller (kafka.controller:type=KafkaController,name=ActiveControllerCount)",
            value=1 if active else 0)
        yield GaugeMetricFamily(
            "kafka_controller_kafkacontroller_offlinepartitionscount",
            "Partitions without a live leader (kafka.controller:type=KafkaController,name=OfflinePartitionsCount)",
            value=sum(1 for parts in topics.values() for state in parts.values() if state.leader < 0))
        yield GaugeMetricFamily(
            "kafka_controller_kafkacontroller_preferredreplicaimbalancecount",
            "Partitions led by another replica than the first assigned "
            "(kafka.controller:type=KafkaController,name=PreferredReplicaImbalanceCount)",
            value=sum(1 for parts in topics.values() for state in parts.values()
                      if state.replicas and state.leader != state.replicas[0]))
        yield CounterMetricFamily(
            "kafka_controller_controllerstats_uncleanleaderelections",
            "Leaders this broker's controller elected from outside the ISR "
            "(kafka.controller:type=ControllerStats,name=UncleanLeaderElectionsPerSec)",
            value=self.gauges.unclean_elections())
        yield GaugeMetricFamily("kafka_controller_kafkacontroller_globaltopiccount",
                                "Topics (kafka.controller:type=KafkaController,name=GlobalTopicCount)",
                                value=len(topics))
        yield GaugeMetricFamily("kafka_controller_kafkacontroller_globalpartitioncount",
                                "Partitions (kafka.controller:type=KafkaController,name=GlobalPartitionCount)",
                                value=sum(len(parts) for parts in topics.values()))

    def _logs(self) -> Iterator[Metric]:
        labels = ["topic", "partition"]
        sizes = GaugeMetricFamily("kafka_log_log_size", "Bytes of a partition's log (kafka.log:type=Log,name=Size)",
                                  labels=labels)
        ends = GaugeMetricFamily("kafka_log_log_logendoffset",
                                 "A partition's log end offset (kafka.log:type=Log,name=LogEndOffset)", labels=labels)
        starts = GaugeMetricFamily("kafka_log_log_logstartoffset",
                                   "A partition's log start offset (kafka.log:type=Log,name=LogStartOffset)",
                                   labels=labels)
        segments = GaugeMetricFamily("kafka_log_log_numlogsegments",
                                     "A partition's segments (kafka.log:type=Log,name=NumLogSegments)", labels=labels)
        for (topic, partition), log_ in sorted(self.gauges.logs().items()):
            try:
                size = log_.size_in_bytes
            except OSError:  # a failed log dir: its logs are going offline
                continue
            key = [topic, str(partition)]
            sizes.add_metric(key, float(size))
            ends.add_metric(key, float(log_.log_end_offset))
            starts.add_metric(key, float(log_.log_start_offset))
            segments.add_metric(key, float(len(log_.segments)))
        yield from (sizes, ends, starts, segments)

    def _network(self) -> Iterator[Metric]:
        """Open connections by listener (one event loop: its networkProcessor is 0), under the
        JMX exporter's name (Confluent's rules) and Strimzi's rules' name."""
        open_by_listener = sorted(self.gauges.listener_connections().items())
        for name, processor in (("kafka_server_socketservermetrics_connection_count", "network_processor"),
                                ("kafka_server_socket_server_metrics_connection_count", "networkProcessor")):
            gauge = GaugeMetricFamily(name, "Open connections (kafka.server:type=socket-server-metrics,"
                                       "listener=,networkProcessor=, attribute connection-count)",
                                       labels=["listener", processor])
            for listener, count in open_by_listener:
                gauge.add_metric([listener, "0"], float(count))
            yield gauge
        yield from self._client_connections()
        network = self.metrics.network
        for name, doc, counts in (
                ("connection_creation", "Connections accepted, by listener "
                 "(socket-server-metrics connection-creation-total)", network.created),
                ("connection_close", "Connections closed, by listener: by the client, idle (connections.max.idle.ms), "
                 "over max.connections or for bad input (socket-server-metrics connection-close-total)",
                 network.closed)):
            family = CounterMetricFamily(f"kafka_server_socketservermetrics_{name}", doc, labels=["listener"])
            for listener, count in sorted(counts.items()):
                family.add_metric([listener], float(count))
            yield family
        blocked = CounterMetricFamily(
            "kafka_network_acceptor_acceptorblockedpercent",
            "Nanoseconds the listener's Acceptor waited with a connection in hand, for a slot under max.connections or "
            "for max.connection.creation.rate; its rate / 1e9 is the blocked share "
            "(kafka.network:type=Acceptor,name=AcceptorBlockedPercent)", labels=["listener"])
        for listener, ns in sorted(network.acceptor_blocked_ns.items()):
            blocked.add_metric([listener], float(ns))
        yield blocked
        yield from self._connection_rates()
        yield from self._idle()

    def _client_connections(self) -> Iterator[Metric]:
        """socket-server-metrics' `connections` gauge (KIP-511): open connections by the client
        software their ApiVersions v3+ named ("unknown" before), under Confluent's rules' name
        and Strimzi's."""
        by_client = sorted(self.gauges.client_connections().items())
        for name, labels in (("kafka_server_socketservermetrics_connections",
                              ["client_software_name", "client_software_version", "listener", "network_processor"]),
                             ("kafka_server_socket_server_metrics_connections_software",
                              ["clientSoftwareName", "clientSoftwareVersion", "listener", "networkProcessor"])):
            gauge = GaugeMetricFamily(name, "Open connections by client software (kafka.server:type=socket-server-"
                                      "metrics,clientSoftwareName=,clientSoftwareVersion=,listener=,networkProcessor=,"
                                      " attribute connections)", labels=labels)
            for (listener, processor, software, version), count in by_client:
                gauge.add_metric([software, version, listener, str(processor)], float(count))
            yield gauge

    def _connection_rates(self) -> Iterator[Metric]:
        """socket-server-metrics' connection-creation-rate and connection-close-rate, as
        Confluent's rules name them: per second, since the previous scrape (Kafka's are over
        its metrics' sample window, 2 x 30 s)."""
        network = self.metrics.network
        now, created, closed = time.monotonic_ns(), dict(network.created), dict(network.closed)
        then, created_then, closed_then = self._last_connections
        self._last_connections = (now, created, closed)
        seconds = (now - then) / 1e9
        for name, counts, before in (("connection_creation_rate", created, created_then),
                                     ("connection_close_rate", closed, closed_then)):
            gauge = GaugeMetricFamily(f"kafka_server_socketservermetrics_{name}",
                                      f"Per second since the previous scrape (socket-server-metrics "
                                      f"{name.replace('_', '-')})", labels=["listener", "network_processor"])
            for listener, count in sorted(counts.items()):
                rate = (count - before.get(listener, 0)) / seconds if seconds > 0 else 0.0
                gauge.add_metric([listener, "0"], rate)
            yield gauge

    def _idle(self) -> Iterator[Metric]:
        """The share of the time since the previous scrape the request handlers, and the event
        loop that is josefk's network processor, were idle (0-1), under each name the JMX
        exporter's rules give Kafka's RequestHandlerAvgIdlePercent and
        NetworkProcessorAvgIdlePercent. The loop's busy time is its thread's CPU time: the
        scrape runs on that thread."""
        now, cpu = time.monotonic_ns(), time.thread_time_ns()
        busy = self.metrics.handlers.busy_ns
        then, busy_then, cpu_then = self._last_scrape
        self._last_scrape = (now, busy, cpu)
        elapsed = now - then
        handlers = max(0.0, 1 - (busy - busy_then) / elapsed) if elapsed > 0 else 1.0
        loop = min(1.0, max(0.0, 1 - (cpu - cpu_then) / elapsed)) if elapsed > 0 else 1.0
        for names, value, mbean in (
                (("kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent",
                  "kafka_server_kafkarequesthandlerpool_requesthandleravgidle_percent",
                  "kafka_server_kafkarequesthandlerpool_requesthandleravgidlepercent_total"), handlers,
                 "kafka.server:type=KafkaRequestHandlerPool,name=RequestHandlerAvgIdlePercent"),
                (("kafka_network_socketserver_networkprocessoravgidlepercent",
                  "kafka_network_socketserver_networkprocessoravgidle_percent"), loop,
                 "kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent")):
            for name in names:
                yield GaugeMetricFamily(name, f"Idle share since the previous scrape, 0-1 ({mbean})", value=value)

    def _groups(self, partitions: list[Partition]) -> Iterator[Metric]:
        """GroupMetadataManager's counts, and consumer lag as kafka_exporter names it
        (kafka_consumergroup_lag): committed offset to high watermark, for the partitions this
        broker has a replica of."""
        groups = list(self.gauges.groups())
        by_state = Counter(g.state.value for g in groups)
        prefix = "kafka_coordinator_group_groupmetadatamanager_"
        yield GaugeMetricFamily(prefix + "numgroups", "Groups (kafka.coordinator.group:type=GroupMetadataManager,"
                                "name=NumGroups)", value=len(groups))
        for state in GroupState:
            name = state.value.lower()
            yield GaugeMetricFamily(prefix + f"numgroups{name}", f"Groups in state {state.value} "
                                    f"(kafka.coordinator.group:type=GroupMetadataManager,name=NumGroups{state.value})",
                                    value=by_state.get(state.value, 0))
        yield GaugeMetricFamily(prefix + "numoffsets", "Committed offsets (kafka.coordinator.group:"
                                "type=GroupMetadataManager,name=NumOffsets)",
                                value=sum(len(g.offsets) for g in groups))
        watermarks = {p.key: p.high_watermark for p in partitions}
        lag = GaugeMetricFamily("kafka_consumergroup_lag", "High watermark minus the group's committed offset",
                                labels=["consumergroup", "topic", "partition"])
        for group in sorted(groups, key=lambda g: g.group_id):
            for (topic, partition), committed in sorted(group.offsets.items()):
                hw = watermarks.get((topic, partition))
                if hw is not None:
                    lag.add_metric([group.group_id, topic, str(partition)], float(max(hw - committed.offset, 0)))
        yield lag


def _api_name(api_key: int) -> str:
    try:
        return ApiKey(api_key).name
    except ValueError:
        return str(api_key)


def _error_name(code: int) -> str:
    """Kafka's Errors.forCode: a code it does not know is UNKNOWN_SERVER_ERROR."""
    try:
        return ErrorCode(code).name
    except ValueError:
        return ErrorCode.UNKNOWN_SERVER_ERROR.name


_PHASE_DOCS = {
    "totaltimems": "Time from a request's read to its response written, ms (name=TotalTimeMs)",
    "requestqueuetimems": "Time a request waited for a handler, ms (name=RequestQueueTimeMs)",
    "localtimems": "Time a handler worked on a request, ms (name=LocalTimeMs)",
    "remotetimems": "Time a request was parked (acks=all, long-poll fetch), ms (name=RemoteTimeMs)",
    "responsequeuetimems": "Time a response waited to be written, behind the connection's earlier ones, ms "
                           "(name=ResponseQueueTimeMs)",
}


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


def registry_for(metrics: BrokerMetrics, gauges: BrokerGauges, extra: Iterable[Collector] = ()) -> CollectorRegistry:
    """A registry of this broker's series only (not the process-wide default one: tests run
    several brokers in one process), and `extra` collectors' (the clients' pushed metrics)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(BrokerCollector(metrics, gauges))
    registry.register(OsCollector())
    ProcessCollector(registry=registry)
    for collector in extra:
        registry.register(collector)
    return registry
