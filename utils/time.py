"""Kafka's Time (org.apache.kafka.common.utils.Time): every clock the broker reads.

Components take a Time instead of calling the time module, so tests can drive group
timeouts, ISR lag and retention with MockTime in milliseconds instead of sleeping.
"""

from __future__ import annotations

import time
from typing import Protocol


class Time(Protocol):
    def milliseconds(self) -> int:
        """Wall-clock time in ms since the epoch: record timestamps, retention, expiry."""
        ...

    def nanoseconds(self) -> int:
        """A monotonic clock in ns, for measuring intervals; its origin is arbitrary."""
        ...

    def hi_res_clock_ms(self) -> int:
        """nanoseconds() in ms: deadlines and lags that must not jump with the wall clock."""
        ...


class SystemTime:
    """The real clocks."""

    def milliseconds(self) -> int:
        return time.time_ns() // 1_000_000

    def nanoseconds(self) -> int:
        return time.monotonic_ns()

    def hi_res_clock_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


SYSTEM_TIME: Time = SystemTime()
