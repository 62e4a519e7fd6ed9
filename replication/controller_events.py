"""ControllerEventManager: the controller's events run one at a time, in order, on one
thread of their own (Kafka's controller-event-thread).

Every controller input (a store watch firing, a broker asking for controlled shutdown,
an admin's leader election, the session being lost) is queued here. The controller's
store round trips then never run on the broker's event loop, so a slow or unreachable
ZooKeeper delays controller decisions but never produce or fetch.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class ControllerEvent:
    name: str  # Kafka's ControllerState names: BrokerChange, TopicChange, IsrChange, ...
    run: Callable[[], Any]
    done: Future = field(default_factory=Future)


class ControllerEventManager:
    def __init__(self) -> None:
        self._queue: queue.Queue[ControllerEvent | None] = queue.Queue()
        self._thread = threading.Thread(target=self._process, name="controller-event-thread", daemon=True)
        self._thread.start()

    def put(self, name: str, run: Callable[[], Any]) -> Future:
        """Queue an event from any thread; the future holds its result."""
        event = ControllerEvent(name, run)
        self._queue.put(event)
        return event.done

    async def call(self, name: str, run: Callable[[], Any]) -> Any:
        """Queue an event and await its result on the event loop."""
        return await asyncio.wrap_future(self.put(name, run))

    def _process(self) -> None:
        while (event := self._queue.get()) is not None:
            try:
                event.done.set_result(event.run())
            except Exception as e:  # noqa: BLE001 - one failed event must not stop the controller
                log.exception("Controller event %s failed", event.name)
                event.done.set_exception(e)

    def close(self) -> None:
        """Process what is queued, then stop the thread (blocks: call it off the loop)."""
        self._queue.put(None)
        self._thread.join()
