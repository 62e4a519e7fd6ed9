"""Kafka's percentiles of a duration, from the bucket counts the hot path keeps.

Kafka's Yammer histograms (RequestMetrics' TotalTimeMs and the other phases,
LogFlushRateAndTimeMs) report 50th, 75th, 95th, 98th, 99th and 999th percentiles of a
reservoir biased to the last five minutes; the JMX exporter turns them into
`name{quantile="0.99"}`. josefk keeps only per-bucket counts (one list index per request),
so the percentiles are computed when scraped: from the counts added in the last
`window_s` (snapshots taken at most every `snapshot_every_s`), interpolated within a bucket
as Prometheus' histogram_quantile does. A histogram with nothing in the window answers
from all its counts, as an idle reservoir keeps its old samples.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence

# (quantile, the JMX exporter's label for Kafka's <N>thPercentile attribute)
PERCENTILES: tuple[tuple[float, str], ...] = (
    (0.5, "0.50"), (0.75, "0.75"), (0.95, "0.95"), (0.98, "0.98"), (0.99, "0.99"), (0.999, "0.999"))


def quantile(bounds: Sequence[float], counts: Sequence[int], q: float) -> float:
    """The q-quantile of values counted in buckets: counts[i] values in (bounds[i-1],
    bounds[i]], the last count above bounds[-1] (answered as bounds[-1]). 0 when empty."""
    total = sum(counts)
    if total == 0:
        return 0.0
    rank = q * total
    below = 0
    for i, count in enumerate(counts):
        if count and below + count >= rank:
            if i == len(bounds):
                return bounds[-1]
            lower = bounds[i - 1] if i else 0.0
            return lower + (bounds[i] - lower) * (rank - below) / count
        below += count
    return bounds[-1]


class RecentQuantiles:
    """Per series, the bucket counts of the last few minutes and their percentiles."""

    def __init__(self, bounds: Sequence[float], window_s: float = 300.0, snapshot_every_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bounds = tuple(bounds)
        self.window_s = window_s
        self.snapshot_every_s = snapshot_every_s
        self.clock = clock
        self._snapshots: dict[Hashable, deque[tuple[float, tuple[int, ...]]]] = {}

    def percentiles(self, key: Hashable, counts: Sequence[int]) -> list[tuple[str, float]]:
        """(label, value) for each of Kafka's percentiles of series `key`, whose per-bucket
        counts since start are `counts`."""
        now = self.clock()
        current = tuple(counts)
        snapshots = self._snapshots.setdefault(key, deque())
        while len(snapshots) > 1 and snapshots[1][0] <= now - self.window_s:
            snapshots.popleft()
        recent = current
        if snapshots:
            recent = tuple(c - old for c, old in zip(current, snapshots[0][1], strict=True))
            if not any(recent):
                recent = current
        if not snapshots or now - snapshots[-1][0] >= self.snapshot_every_s:
            snapshots.append((now, current))
        return [(label, quantile(self.bounds, recent, q)) for q, label in PERCENTILES]
