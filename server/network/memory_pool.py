"""The memory pool for request bytes: queued.max.request.bytes (Kafka's SimpleMemoryPool).

A connection reserves a request's declared size before reading it and releases it once
the request is answered (or the connection is gone). When the pool is exhausted a
connection stops reading until memory comes back, so a burst of large requests waits in
the peers' socket buffers instead of in the broker's heap. As in Kafka the pool is not
strict: a reservation succeeds while any memory is left, so one request larger than what
remains never waits forever. A capacity of zero or less means unbounded (Kafka's default -1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable


class MemoryPool:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.available = capacity
        self._waiters: deque[Callable[[], None]] = deque()

    @property
    def bounded(self) -> bool:
        return self.capacity > 0

    def try_allocate(self, size: int) -> bool:
        if not self.bounded:
            return True
        if self.available <= 0:
            return False
        self.available -= size
        return True

    def release(self, size: int) -> None:
        """Give `size` bytes back and wake waiters, oldest first, while memory is left."""
        if not self.bounded:
            return
        self.available += size
        while self.available > 0 and self._waiters:
            self._waiters.popleft()()

    def when_available(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, the next time memory is released while some is left."""
        self._waiters.append(callback)

    def forget(self, callback: Callable[[], None]) -> None:
        """Drop a waiter (its connection closed)."""
        try:
            self._waiters.remove(callback)
        except ValueError:
            pass
