"""Delayed operations (Kafka's purgatory): requests that wait for data or a timeout.

An operation watches keys (topic-partitions). Whoever changes a key (an append, a
high-watermark move) calls check(key); the operation completes as soon as its condition
holds, or when its timer fires. No polling, no busy waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any


class DelayedOperation:
    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.completed = False
        self._timer: asyncio.TimerHandle | None = None

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
        self.on_complete()
        return True


class DelayedOperationPurgatory:
    def __init__(self, name: str) -> None:
        self.name = name
        self.watchers: dict[Hashable, set[DelayedOperation]] = {}

    def try_complete_else_watch(self, op: DelayedOperation, keys: list[Any]) -> None:
        if op.try_complete():
            return
        for key in keys:
            self.watchers.setdefault(key, set()).add(op)
        loop = asyncio.get_running_loop()
        op._timer = loop.call_later(op.timeout_ms / 1000, self._expire, op, keys)

    def _expire(self, op: DelayedOperation, keys: list[Any]) -> None:
        self._unwatch(op, keys)
        op.force_complete()

    def _unwatch(self, op: DelayedOperation, keys: list[Any]) -> None:
        for key in keys:
            ops = self.watchers.get(key)
            if ops is not None:
                ops.discard(op)
                if not ops:
                    del self.watchers[key]

    def check(self, key: Any) -> None:
        ops = self.watchers.get(key)
        if not ops:
            return
        for op in list(ops):
            if op.completed or op.try_complete():
                ops.discard(op)
        if not ops:
            self.watchers.pop(key, None)

    def cancel_all(self) -> None:
        for ops in list(self.watchers.values()):
            for op in list(ops):
                op.force_complete()
        self.watchers.clear()

    def __len__(self) -> int:
        return len({op for ops in self.watchers.values() for op in ops})
