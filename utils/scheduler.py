"""Kafka's Scheduler: run a function after a delay, on the broker's one event loop.

Timers go through a Scheduler rather than loop.call_later, so the code that arms them
(session timeouts, rebalance deadlines, delayed produce and fetch) runs under
MockScheduler in tests, where time moves only when the test says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol


class ScheduledTask(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    def schedule(self, delay_ms: int, fn: Callable[..., object], *args: object) -> ScheduledTask:
        """Call fn(*args) once, delay_ms from now (a negative delay means now)."""
        ...

    def call_soon(self, fn: Callable[..., object], *args: object) -> None:
        """Call fn(*args) after the current callback, before any timer that is due later."""
        ...


class LoopScheduler:
    """A Scheduler on an asyncio loop: the given one, or else the loop running at each call
    (so a component can be built before the loop starts)."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    def _running(self) -> asyncio.AbstractEventLoop:
        return self._loop if self._loop is not None else asyncio.get_running_loop()

    def schedule(self, delay_ms: int, fn: Callable[..., object], *args: object) -> ScheduledTask:
        return self._running().call_later(max(delay_ms, 0) / 1000, fn, *args)

    def call_soon(self, fn: Callable[..., object], *args: object) -> None:
        self._running().call_soon(fn, *args)


# The default for components not given a scheduler: whichever loop runs them.
LOOP_SCHEDULER: Scheduler = LoopScheduler()
