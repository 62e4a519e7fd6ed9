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

# Upper bounds (ms) of the TotalTimeMs histogram's buckets; +Inf is implied.
LATENCY_BUCKETS_MS: tuple[float, ...] = (0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)


class BrokerTopicStats:
    """Kafka's BrokerTopicStats (kafka.server:type=BrokerTopicMetrics): MessagesInPerSec and
    BytesInPerSec per topic (a leader's appends from producers), BytesOutPerSec per topic
    (what consumers' fetches return; followers' fetches are replication traffic, not counted).
    The all-topics series is the sum, computed when scraped."""

    __slots__ = ("messages_in", "bytes_in", "bytes_out")

    def __init__(self) -> None:
        self.messages_in: dict[str, int] = {}
        self.bytes_in: dict[str, int] = {}
        self.bytes_out: dict[str, int] = {}

    def record_append(self, topic: str, messages: int, size: int) -> None:
        """One partition's batch of `messages` records, `size` bytes, appended as leader."""
        self.messages_in[topic] = self.messages_in.get(topic, 0) + messages
        self.bytes_in[topic] = self.bytes_in.get(topic, 0) + size

    def record_bytes_out(self, topic: str, size: int) -> None:
        self.bytes_out[topic] = self.bytes_out.get(topic, 0) + size

    def remove_topic(self, topic: str) -> None:
        """A deleted topic's series go, as Kafka's BrokerTopicStats.removeMetrics."""
        for counts in (self.messages_in, self.bytes_in, self.bytes_out):
            counts.pop(topic, None)


class RequestMetrics:
    """Kafka's RequestMetrics (kafka.network:type=RequestMetrics): RequestsPerSec per request
    name and version, and TotalTimeMs (from the frame being read to its response being handed
    to the connection) per request name, as a histogram."""

    __slots__ = ("by_version",)

    def __init__(self) -> None:
        # (api key, version) -> [sum ms, then a count per bucket (not cumulative), +Inf's last]:
        # one dict look-up per request; the scrape adds the buckets up (count, cumulative, per name).
        self.by_version: dict[tuple[int, int], list] = {}

    def record(self, api_key: int, version: int, total_ms: float) -> None:
        entry = self.by_version.get((api_key, version))
        if entry is None:
            entry = self.by_version[(api_key, version)] = [0.0] + [0] * (len(LATENCY_BUCKETS_MS) + 1)
        entry[0] += total_ms
        entry[1 + bisect_left(LATENCY_BUCKETS_MS, total_ms)] += 1

    def requests(self) -> dict[tuple[int, int], int]:
        """(api key, version) -> requests answered."""
        return {key: sum(entry[1:]) for key, entry in self.by_version.items()}

    def latency(self) -> dict[int, tuple[list[int], float]]:
        """api key -> (count per bucket, not cumulative, +Inf's last; sum ms), over its versions."""
        merged: dict[int, tuple[list[int], float]] = {}
        for (api_key, _version), entry in self.by_version.items():
            counts, total = merged.get(api_key, ([0] * (len(LATENCY_BUCKETS_MS) + 1), 0.0))
            merged[api_key] = ([a + b for a, b in zip(counts, entry[1:], strict=True)], total + entry[0])
        return merged


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


class BrokerMetrics:
    """Every counter of one broker, handed to the components that bump them."""

    __slots__ = ("topics", "requests", "replica_manager")

    def __init__(self) -> None:
        self.topics = BrokerTopicStats()
        self.requests = RequestMetrics()
        self.replica_manager = ReplicaManagerStats()
