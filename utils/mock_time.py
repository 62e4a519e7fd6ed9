"""MockTime and MockScheduler (Kafka's test utilities): time that moves only on sleep().

MockTime.sleep(ms) advances both clocks and runs every task a MockScheduler on it has
due by then, in due order, each with the clocks set to its due time: a timer re-armed
from a task fires at the right moment within the same sleep. No event loop, no threads.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

# A start far from zero, so "timestamp 0" and "never" cannot pass for now.
DEFAULT_WALL_MS = 1_700_000_000_000
DEFAULT_HI_RES_MS = 1_000_000


class MockTime:
    def __init__(self, wall_ms: int = DEFAULT_WALL_MS, hi_res_ms: int = DEFAULT_HI_RES_MS) -> None:
        self._wall_ms = wall_ms
        self._hi_res_ms = hi_res_ms
        self._schedulers: list[MockScheduler] = []

    def milliseconds(self) -> int:
        return self._wall_ms

    def nanoseconds(self) -> int:
        return self._hi_res_ms * 1_000_000

    def hi_res_clock_ms(self) -> int:
        return self._hi_res_ms

    def sleep(self, ms: int) -> None:
        """Advance by ms, running the tasks that fall due on the way."""
        if ms < 0:
            raise ValueError(f"cannot sleep {ms} ms")
        target = self._hi_res_ms + ms
        while True:
            due = [(at, i) for i, s in enumerate(self._schedulers)
                   if (at := s.next_due_ms()) is not None and at <= target]
            if not due:
                break
            at, i = min(due)
            self._advance_to(at)
            self._schedulers[i].run_next()
        self._advance_to(target)

    def _advance_to(self, hi_res_ms: int) -> None:
        if hi_res_ms > self._hi_res_ms:
            self._wall_ms += hi_res_ms - self._hi_res_ms
            self._hi_res_ms = hi_res_ms


@dataclass(order=True)
class MockTask:
    due_ms: int
    seq: int
    fn: Callable[..., object] = field(compare=False)
    args: tuple[object, ...] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class MockScheduler:
    """A Scheduler whose tasks run from MockTime.sleep (call_soon ones from sleep(0))."""

    def __init__(self, time: MockTime) -> None:
        self.time = time
        self._tasks: list[MockTask] = []
        self._seq = itertools.count()
        time._schedulers.append(self)

    def schedule(self, delay_ms: int, fn: Callable[..., object], *args: object) -> MockTask:
        task = MockTask(self.time.hi_res_clock_ms() + max(delay_ms, 0), next(self._seq), fn, args)
        heapq.heappush(self._tasks, task)
        return task

    def call_soon(self, fn: Callable[..., object], *args: object) -> None:
        self.schedule(0, fn, *args)

    def next_due_ms(self) -> int | None:
        while self._tasks and self._tasks[0].cancelled:
            heapq.heappop(self._tasks)
        return self._tasks[0].due_ms if self._tasks else None

    def run_next(self) -> None:
        task = heapq.heappop(self._tasks)
        task.fn(*task.args)

    @property
    def pending(self) -> int:
        """Tasks scheduled and not cancelled."""
        return sum(not t.cancelled for t in self._tasks)
