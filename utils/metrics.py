"""The broker's metrics, under Kafka's MBean names: plain counters the request path bumps.

Kafka keeps Yammer meters (BrokerTopicStats, RequestMetrics, ReplicaManager's ISR rates).
Here the hot path only adds to ints in dicts, on the event loop's thread, with no lock;
server/metrics_http.py turns them into Prometheus families (named as the Prometheus JMX
exporter's Kafka rules name them) when /metrics is scraped, on the same loop. Gauges
(partition and leader counts, log sizes, the active controller) are not kept at all: they
are read from the components at scrape time.

utils/ imports nothing of josefk, so every layer may take one of these objects.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping

# Upper bounds (ms) of the TotalTimeMs histogram's buckets; +Inf is implied.
LATENCY_BUCKETS_MS: tuple[float, ...] = (0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)


class BrokerTopicStats:
    """Kafka's BrokerTopicStats (kafka.server:type=BrokerTopicMetrics): MessagesInPerSec and
    BytesInPerSec per topic (a leader's appends from producers), BytesOutPerSec per topic
    (what consumers' fetches return; followers' fetches are replication traffic, not counted),
    and Total/FailedProduceRequestsPerSec and Total/FailedFetchRequestsPerSec: one per
    partition of a produce or fetch (consumers' and followers'), failed when the partition's
    error is not one Kafka's ReplicaManager expects (appendToLocalLog, readFromLog).
    The all-topics series is the sum, computed when scraped."""

    __slots__ = ("messages_in", "bytes_in", "bytes_out", "produce_requests", "failed_produce_requests",
                 "fetch_requests", "failed_fetch_requests", "produce_conversions", "fetch_conversions")

    def __init__(self) -> None:
        self.messages_in: dict[str, int] = {}
        self.bytes_in: dict[str, int] = {}
        self.bytes_out: dict[str, int] = {}
        self.produce_requests: dict[str, int] = {}
        self.failed_produce_requests: dict[str, int] = {}
        self.fetch_requests: dict[str, int] = {}
        self.failed_fetch_requests: dict[str, int] = {}
        # Records converted between message formats: v0/v1 message sets produced, up-converted to
        # v2, and v2 batches down-converted for Fetch v0-v3 (Produce/FetchMessageConversionsPerSec).
        self.produce_conversions: dict[str, int] = {}
        self.fetch_conversions: dict[str, int] = {}

    def record_append(self, topic: str, messages: int, size: int) -> None:
        """One partition's batch of `messages` records, `size` bytes, appended as leader."""
        self.messages_in[topic] = self.messages_in.get(topic, 0) + messages
        self.bytes_in[topic] = self.bytes_in.get(topic, 0) + size

    def record_bytes_out(self, topic: str, size: int) -> None:
        self.bytes_out[topic] = self.bytes_out.get(topic, 0) + size

    def record_conversions(self, counts: dict[str, int], topic: str, records: int) -> None:
        """`records` converted; Kafka marks the meter only when some were, so a topic's series
        appears with its first conversion."""
        if records > 0:
            counts[topic] = counts.get(topic, 0) + records

    def remove_topic(self, topic: str) -> None:
        """A deleted topic's series go, as Kafka's BrokerTopicStats.removeMetrics."""
        for counts in (self.messages_in, self.bytes_in, self.bytes_out, self.produce_requests,
                       self.failed_produce_requests, self.fetch_requests, self.failed_fetch_requests,
                       self.produce_conversions, self.fetch_conversions):
            counts.pop(topic, None)


# The phases of a request Kafka times (RequestMetrics), in the order they are recorded.
REQUEST_PHASES: tuple[str, ...] = ("totaltimems", "requestqueuetimems", "localtimems", "remotetimems",
                                   "responsequeuetimems")


class LatencyHistogram:
    """Sum and per-bucket counts (not cumulative, +Inf's last) of one duration, in ms."""

    __slots__ = ("total", "counts")

    def __init__(self) -> None:
        self.total = 0.0
        self.counts = [0] * (len(LATENCY_BUCKETS_MS) + 1)

    def record(self, ms: float) -> None:
        self.total += ms
        self.counts[bisect_left(LATENCY_BUCKETS_MS, ms)] += 1


class RequestMetrics:
    """Kafka's RequestMetrics (kafka.network:type=RequestMetrics): ErrorsPerSec per API key and
    error code (each error code in each response, NONE too), RequestsPerSec per request
    name and version, and per name the time of each phase: TotalTimeMs (read to written),
    RequestQueueTimeMs (waiting for a handler), LocalTimeMs (the handler's own work),
    RemoteTimeMs (parked, e.g. acks=all or a long-poll fetch) and ResponseQueueTimeMs (the
    response waiting for the connection: responses go out in request order). Names are
    Kafka's: Fetch is FetchConsumer or FetchFollower."""

    __slots__ = ("counts", "phases", "errors", "send")

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], int] = {}
        self.errors: dict[tuple[int, int], int] = {}  # (API key, error code): occurrences
        # ResponseSendTimeMs per name: from leaving the response queue to the last byte on the
        # socket (0 for acks=0). Not part of TotalTimeMs, which ends when the response is written.
        self.send: dict[str, LatencyHistogram] = {}
        self.phases: dict[str, tuple[LatencyHistogram, ...]] = {}

    def record(self, name: str, version: int, times_ms: tuple[float, ...]) -> None:
        """`times_ms` in REQUEST_PHASES order."""
        key = (name, version)
        self.counts[key] = self.counts.get(key, 0) + 1
        histograms = self.phases.get(name)
        if histograms is None:
            histograms = self.phases[name] = tuple(LatencyHistogram() for _ in REQUEST_PHASES)
        # LatencyHistogram.record inlined: five of them per request, on every request's path
        for histogram, ms in zip(histograms, times_ms, strict=True):
            histogram.total += ms
            histogram.counts[bisect_left(LATENCY_BUCKETS_MS, ms)] += 1

    def record_send(self, name: str, ms: float) -> None:
        histogram = self.send.get(name)
        if histogram is None:
            histogram = self.send[name] = LatencyHistogram()
        histogram.total += ms
        histogram.counts[bisect_left(LATENCY_BUCKETS_MS, ms)] += 1

    def record_errors(self, api_key: int, error_counts: Mapping[int, int]) -> None:
        errors = self.errors
        for code, n in error_counts.items():
            key = (api_key, code)
            errors[key] = errors.get(key, 0) + n


class LogFlushStats:
    """Kafka's LogFlushStats (kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs): every
    fsync of a log's segments, and how long it took. Flushes run in worker threads; a lost
    increment between two of them would only undercount."""

    __slots__ = ("flushes",)

    def __init__(self) -> None:
        self.flushes = LatencyHistogram()


class HandlerIdleStats:
    """Time the request handlers spent busy (Kafka's RequestHandlerAvgIdlePercent). Handlers
    are coroutines on one event loop, so at most one is busy at a time: idle is the share of
    wall time no handler was running."""

    __slots__ = ("busy_ns",)

    def __init__(self) -> None:
        self.busy_ns = 0


class ReplicaManagerStats:
    """ReplicaManager's IsrShrinksPerSec and IsrExpandsPerSec (kafka.server:type=ReplicaManager):
    ISR changes this broker made as leader and got committed."""

    __slots__ = ("isr_shrinks", "isr_expands")

    def __init__(self) -> None:
        self.isr_shrinks = 0
        self.isr_expands = 0

    def record_isr_change(self, old_isr: list[int], new_isr: list[int]) -> None:
        if len(new_isr) < len(old_isr):
            self.isr_shrinks += 1
        elif len(new_isr) > len(old_isr):
            self.isr_expands += 1


class NetworkStats:
    """The socket server's connection counters, by listener: Kafka's socket-server-metrics
    connection-creation-total and connection-close-total, and the nanoseconds each Acceptor
    waited for a connection slot or the creation rate (the count behind its
    kafka.network:type=Acceptor,name=AcceptorBlockedPercent meter)."""

    __slots__ = ("created", "closed", "acceptor_blocked_ns")

    def __init__(self) -> None:
        self.created: Counter[str] = Counter()
        self.closed: Counter[str] = Counter()
        self.acceptor_blocked_ns: Counter[str] = Counter()


class ZooKeeperClientStats:
    """The ZooKeeper client's: ZooKeeperClientMetrics' ZooKeeperRequestLatencyMs (each call's
    round trips, retries included) and SessionExpireListener's ZooKeeperSyncConnectsPerSec,
    ZooKeeperDisconnectsPerSec and ZooKeeperExpiresPerSec. Calls run in the store's worker
    threads and state changes on kazoo's: a lost increment would only undercount."""

    __slots__ = ("latency", "sync_connects", "disconnects", "expires")

    def __init__(self) -> None:
        self.latency = LatencyHistogram()
        self.sync_connects = 0
        self.disconnects = 0
        self.expires = 0


class BrokerMetrics:
    """Every counter of one broker, handed to the components that bump them."""

    __slots__ = ("topics", "requests", "replica_manager", "log_flush", "handlers", "network", "zookeeper")

    def __init__(self) -> None:
        self.topics = BrokerTopicStats()
        self.requests = RequestMetrics()
        self.replica_manager = ReplicaManagerStats()
        self.log_flush = LogFlushStats()
        self.handlers = HandlerIdleStats()
        self.network = NetworkStats()
        self.zookeeper = ZooKeeperClientStats()
