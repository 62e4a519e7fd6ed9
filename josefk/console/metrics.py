"""Counters for the live charts, scraped from the brokers' Prometheus `/metrics`.

The console returns running totals with the time it read them; the page turns two readings into
rates (messages and bytes per second, mean request latency over the interval), so any number of
open pages can poll without sharing state on the server.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

SCRAPE_TIMEOUT_S = 3.0
TOTALS = {
    "kafka_server_brokertopicmetrics_messagesin_total": "messages_in",
    "kafka_server_brokertopicmetrics_bytesin_total": "bytes_in",
    "kafka_server_brokertopicmetrics_bytesout_total": "bytes_out",
}
LATENCY_SUM = "kafka_network_requestmetrics_totaltimems_sum"
LATENCY_COUNT = "kafka_network_requestmetrics_totaltimems_count"


def parse(text: str) -> dict[str, Any]:
    """One broker's totals: the all-topics BrokerTopicMetrics counters and, per request name,
    the TotalTimeMs histogram's sum (ms) and count."""
    totals: dict[str, Any] = {name: 0.0 for name in TOTALS.values()}
    requests: dict[str, dict[str, float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in TOTALS and "topic" not in sample.labels:
                totals[TOTALS[sample.name]] = sample.value
            elif sample.name in (LATENCY_SUM, LATENCY_COUNT) and "request" in sample.labels:
                entry = requests.setdefault(sample.labels["request"], {"sum_ms": 0.0, "count": 0.0})
                entry["sum_ms" if sample.name == LATENCY_SUM else "count"] += sample.value
    totals["requests"] = requests
    return totals


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=SCRAPE_TIMEOUT_S) as response:
        return response.read().decode("utf-8", "replace")


class MetricsScraper:
    """Reads every configured `/metrics` URL (in parallel: one slow broker delays a poll once)."""

    def __init__(self, urls: Iterable[str], get: Callable[[str], str] = fetch,
                 clock: Callable[[], float] = time.time) -> None:
        self.urls = list(urls)
        self._get = get
        self._clock = clock
        self._pool = ThreadPoolExecutor(max_workers=max(1, min(8, len(self.urls))), thread_name_prefix="scrape")

    def _one(self, url: str) -> dict[str, Any]:
        try:
            return {"url": url, "ok": True, **parse(self._get(url))}
        except (OSError, ValueError, urllib.error.URLError) as e:
            return {"url": url, "ok": False, "error": str(getattr(e, "reason", e))}

    def scrape(self) -> dict[str, Any]:
        now = self._clock()
        return {"time": now, "brokers": list(self._pool.map(self._one, self.urls))}

    def close(self) -> None:
        self._pool.shutdown(wait=False)
