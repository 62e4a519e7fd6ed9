"""Delayed operations (Kafka's purgatory): requests that wait for data or a timeout.

An operation watches keys (topic-partitions). Whoever changes a key (an append, a
high-watermark move) calls check(key); the operation completes as soon as its condition
holds, or when its timer fires. No polling, no busy waiting.

An operation runs from other requests' handlers (check) and from timer callbacks, so an
exception in try_complete or on_complete must neither reach those callers nor vanish in
the event loop's handler: it is logged and the operation's own request (the one being
handled when the operation was created) has its connection closed, as KafkaApis.handle
does for a handler that raises. Otherwise responses, written in request order, would
stall that connection for good.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from contextvars import ContextVar
from typing import Protocol

from josefk.utils.scheduler import LOOP_SCHEDULER, ScheduledTask, Scheduler

log = logging.getLogger(__name__)


class PendingRequest(Protocol):
    """What a delayed operation knows of the request it will answer."""

    def describe(self) -> str: ...

    def close_connection(self) -> None: ...


# The request the current handler is working on: the request handler (server/broker.py,
# Kafka's KafkaRequestHandler) sets it before it runs KafkaApis, so an operation created then
# knows whose connection to close. The network layer below knows nothing of it.
current_request: ContextVar[PendingRequest | None] = ContextVar("current_request", default=None)


class DelayedOperation:
    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.completed = False
        self.request = current_request.get()  # whose connection to close if this operation fails
        self._timer: ScheduledTask | None = None
        self._purgatory: DelayedOperationPurgatory | None = None
        self._keys: Sequence[Hashable] = []

    def try_complete(self) -> bool:
        """Return True (after calling force_complete) if the condition now holds."""
        raise NotImplementedError

    def on_complete(self) -> None:
        raise NotImplementedError

    def force_complete(self) -> bool:
        if self.completed:
            return False
        self.completed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._purgatory is not None:  # completed through one key: watched on none
            self._purgatory.unwatch(self, self._keys)
        try:
            self.on_complete()
        except Exception:  # noqa: BLE001 - the request must hear back either way
            self.fail("completing")
        return True

    def safe_try_complete(self) -> bool:
        """try_complete that never raises: a failure completes the operation by fail()."""
        try:
            return self.try_complete()
        except Exception:  # noqa: BLE001 - the request must hear back either way
            self.completed = True
            if self._timer is not None:
                self._timer.cancel()
            self.fail("checking")
            return True

    def fail(self, stage: str) -> None:
        """Log the exception being handled and close the request's connection."""
        request = self.request
        if self._purgatory is not None:
            self._purgatory.unwatch(self, self._keys)
        if request is None:
            log.exception("Error %s delayed %s (no request to answer)", stage, type(self).__name__)
            return
        log.exception("Error %s delayed %s for %s; closing the connection", stage, type(self).__name__,
                      request.describe())
        request.close_connection()


class DelayedOperationPurgatory:
    def __init__(self, name: str, scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        """`scheduler` runs the operations' timeouts (Kafka's purgatory has its own timer)."""
        self.name = name
        self.scheduler = scheduler
        self.watchers: dict[Hashable, set[DelayedOperation]] = {}

    def try_complete_else_watch(self, op: DelayedOperation, keys: Sequence[Hashable]) -> None:
        if op.safe_try_complete():
            return
        op._purgatory, op._keys = self, keys
        for key in keys:
            self.watchers.setdefault(key, set()).add(op)
        op._timer = self.scheduler.schedule(op.timeout_ms, self._expire, op, keys)

    def _expire(self, op: DelayedOperation, keys: Sequence[Hashable]) -> None:
        self.unwatch(op, keys)
        op.force_complete()

    def unwatch(self, op: DelayedOperation, keys: Sequence[Hashable]) -> None:
        for key in keys:
            ops = self.watchers.get(key)
            if ops is not None:
                ops.discard(op)
                if not ops:
                    del self.watchers[key]

    def check(self, key: Hashable) -> None:
        ops = self.watchers.get(key)
        if not ops:
            return
        for op in list(ops):
            if op.completed or op.safe_try_complete():
                ops.discard(op)
        if not ops and self.watchers.get(key) is ops:  # on_complete may have watched the key anew
            del self.watchers[key]

    def cancel_all(self) -> None:
        for ops in list(self.watchers.values()):
            for op in list(ops):
                op.force_complete()
        self.watchers.clear()

    def __len__(self) -> int:
        return len({op for ops in self.watchers.values() for op in ops})

    @property
    def watched(self) -> int:
        """Watches: an operation counts once per key it waits on (Kafka's PurgatorySize)."""
        return sum(len(ops) for ops in self.watchers.values())
