"""Kafka's metrics Rate and quota arithmetic (clients' common.metrics: SampledStat, Rate,
SimpleRate, Quota; server's QuotaUtils), which client and replication quotas are measured with.

A rate is the sum of the values recorded in the last `samples` windows of `window_ms`,
divided by the time they span; while fewer than samples - 1 whole windows have elapsed the
span is taken as samples - 1 windows, so a first burst is not measured over a few
milliseconds. Throttle time is how long the client must stay quiet for the rate, measured
over the same span, to come back down to the bound: (rate - bound) / bound * span.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class MetricConfig:
    """Kafka's MetricConfig for one quota sensor: quota.window.num samples of quota.window.size.seconds."""

    samples: int = 11
    window_ms: int = 1000


@dataclass(slots=True)
class _Sample:
    start_ms: int
    value: float = 0.0
    event_count: int = 0


@dataclass
class SampledStat:
    """Kafka's SampledStat: a ring of samples, each one window long, reset when obsolete.
    `average` picks Avg's combine (mean per event) over WindowedSum's (the sum)."""

    config: MetricConfig = field(default_factory=MetricConfig)
    average: bool = False
    _samples: list[_Sample] = field(default_factory=list)
    _current: int = 0

    def record(self, value: float, now_ms: int) -> None:
        sample = self._current_sample(now_ms)
        if now_ms - sample.start_ms >= self.config.window_ms:
            sample = self._advance(now_ms)
        sample.value += value
        sample.event_count += 1

    def _current_sample(self, now_ms: int) -> _Sample:
        if not self._samples:
            self._samples.append(_Sample(now_ms))
        return self._samples[self._current]

    def _advance(self, now_ms: int) -> _Sample:
        self._current = (self._current + 1) % self.config.samples
        if self._current >= len(self._samples):
            self._samples.append(_Sample(now_ms))
        else:
            self._samples[self._current] = _Sample(now_ms)
        return self._samples[self._current]

    def purge_obsolete(self, now_ms: int) -> None:
        expire_age = self.config.samples * self.config.window_ms
        for i, sample in enumerate(self._samples):
            if now_ms - sample.start_ms >= expire_age:
                self._samples[i] = _Sample(now_ms)

    def oldest_start_ms(self, now_ms: int) -> int:
        if not self._samples:
            self._samples.append(_Sample(now_ms))
        return min(s.start_ms for s in self._samples)

    def measure(self, now_ms: int) -> float:
        self.purge_obsolete(now_ms)
        total = sum(s.value for s in self._samples)
        if not self.average:
            return total
        count = sum(s.event_count for s in self._samples)
        return total / count if count else 0.0


@dataclass
class Rate:
    """Kafka's Rate (per second) over a WindowedSum."""

    stat: SampledStat = field(default_factory=SampledStat)

    def record(self, value: float, now_ms: int) -> None:
        self.stat.record(value, now_ms)

    def window_size_ms(self, now_ms: int) -> int:
        """Rate.windowSize: the time the samples span, at least samples - 1 whole windows, at least 1 ms."""
        config = self.stat.config
        self.stat.purge_obsolete(now_ms)
        elapsed = now_ms - self.stat.oldest_start_ms(now_ms)
        full_windows = elapsed // config.window_ms
        min_full_windows = config.samples - 1
        if full_windows < min_full_windows:
            elapsed += (min_full_windows - full_windows) * config.window_ms
        return max(elapsed, 1)

    def measure(self, now_ms: int) -> float:
        value = self.stat.measure(now_ms)
        return value / (self.window_size_ms(now_ms) / 1000.0)


class SimpleRate(Rate):
    """Kafka's SimpleRate, the replication quotas' stat: measured over the time the samples
    actually span (at least one window), so a first burst counts in full at once."""

    def window_size_ms(self, now_ms: int) -> int:
        self.stat.purge_obsolete(now_ms)
        return max(now_ms - self.stat.oldest_start_ms(now_ms), self.stat.config.window_ms)


def throttle_time_ms(value: float, bound: float, window_ms: int) -> int:
    """QuotaUtils.throttleTime: with O the observed rate and T the bound over a window W,
    the delay X such that O * W / (W + X) = T, that is X = (O - T) / T * W (rounded)."""
    return _java_round((value - bound) / bound * window_ms)


def bounded_throttle_time_ms(value: float, bound: float, window_ms: int, max_throttle_ms: int) -> int:
    """QuotaUtils.boundedThrottleTime."""
    return min(throttle_time_ms(value, bound, window_ms), max_throttle_ms)


def _java_round(x: float) -> int:
    """Java's Math.round: halves round up (Python's round() goes to even)."""
    return math.floor(x + 0.5)


@dataclass
class TokenBucket:
    """Kafka's TokenBucket (KIP-599), the controller mutation quota's stat: tokens refill at the
    quota's rate up to a burst of (samples - 1) windows' worth and a record takes its value out,
    so the balance may go below zero; a negative balance is the violation. It starts empty at
    time 0, so the first look fills it to the burst."""

    config: MetricConfig = field(default_factory=MetricConfig)
    tokens: float = 0.0
    last_update_ms: int = 0

    def _burst(self, quota: float) -> float:
        return (self.config.samples - 1) * self.config.window_ms / 1000 * quota

    def _refill(self, quota: float, now_ms: int) -> None:
        self.tokens = min(self._burst(quota), self.tokens + quota * (now_ms - self.last_update_ms) / 1000)
        self.last_update_ms = now_ms

    def measure(self, quota: float, now_ms: int) -> float:
        self._refill(quota, now_ms)
        return self.tokens

    def record(self, value: float, quota: float, now_ms: int) -> None:
        self._refill(quota, now_ms)
        self.tokens = min(self._burst(quota), self.tokens - value)


def token_bucket_throttle_time_ms(tokens: float, quota: float) -> int:
    """ControllerMutationQuotaManager.throttleTimeMs: how long the bucket takes to refill to zero."""
    return _java_round(-tokens / quota * 1000)
