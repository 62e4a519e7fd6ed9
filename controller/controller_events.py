"""ControllerEventManager: the controller's events run one at a time, in order, on one
thread of their own (Kafka's controller-event-thread).

Every controller input (a store watch firing, a broker asking for controlled shutdown,
an admin's leader election, the session being lost) is queued here. The controller's
store round trips then never run on the broker's event loop, so a slow or unreachable
ZooKeeper delays controller decisions but never produce or fetch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Protocol, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class ControllerMovedError(Exception):
    """The controller resigned (its session expired, or a newer controller epoch exists)
    before or while it ran this event."""


class ControllerEventKind(Enum):
    """Everything the controller reacts to, named as Kafka's ControllerEvent classes."""

    STARTUP = "Startup"  # this broker's store session began: try to become controller
    EXPIRE = "Expire"  # the session ended: resign, dropping what is queued
    CONTROLLER_CHANGE = "ControllerChange"  # /controller changed
    BROKER_CHANGE = "BrokerChange"  # /brokers/ids children: registrations, epochs (KIP-380)
    BROKER_MODIFICATIONS = "BrokerModifications"  # a registered broker's data: new endpoints
    TOPIC_CHANGE = "TopicChange"  # /brokers/topics children: new topics
    PARTITION_MODIFICATIONS = "PartitionModifications"  # a topic's assignment changed
    TOPIC_DELETION = "TopicDeletion"  # /admin/delete_topics
    ISR_CHANGE_NOTIFICATION = "IsrChangeNotification"  # leaders changed ISRs
    LOG_DIR_EVENT_NOTIFICATION = "LogDirEventNotification"  # a broker's log dir failed
    LEADER_AND_ISR_RESPONSE_RECEIVED = "LeaderAndIsrResponseReceived"  # replicas on offline dirs
    CONTROLLED_SHUTDOWN = "ControlledShutdown"  # a broker asks to leave
    ALTER_PARTITION = "AlterPartitionReceived"  # a leader asks for a new ISR (KIP-497)
    ALLOCATE_PRODUCER_IDS = "AllocateProducerIds"  # a broker asks for a producer id block (KIP-730)
    REPLICA_LEADER_ELECTION = "ReplicaLeaderElection"  # ElectLeaders
    API_PARTITION_REASSIGNMENT = "ApiPartitionReassignment"  # AlterPartitionReassignments
    LIST_PARTITION_REASSIGNMENTS = "ListPartitionReassignments"
    UPDATE_FEATURES = "UpdateFeatures"  # UpdateFeatures (KIP-584)
    AUTO_PREFERRED_REPLICA_LEADER_ELECTION = "AutoPreferredReplicaLeaderElection"  # the periodic check
    SHUTDOWN_EVENT_THREAD = "ShutdownEventThread"  # the broker stops


@dataclass
class ControllerEvent(Generic[T]):
    kind: ControllerEventKind
    run: Callable[[], T]
    done: Future[T] = field(default_factory=Future)

    def execute(self) -> None:
        """Run the event and settle its future. It runs even if its caller gave up waiting
        (a shutdown cancels the awaiting task, and with it the future): its result then
        goes nowhere."""
        try:
            result = self.run()
        except ControllerMovedError as e:
            log.info("Controller event %s ended: %s", self.kind.value, e)
            self.fail(e)
        except Exception as e:  # noqa: BLE001 - one failed event must not stop the controller
            log.exception("Controller event %s failed", self.kind.value)
            self.fail(e)
        else:
            with contextlib.suppress(InvalidStateError):
                self.done.set_result(result)

    def fail(self, error: BaseException) -> None:
        with contextlib.suppress(InvalidStateError):
            self.done.set_exception(error)


class QueuedEvent(Protocol):
    """What the event thread needs of an event, whatever its result type."""

    kind: ControllerEventKind

    def execute(self) -> None: ...
    def fail(self, error: BaseException) -> None: ...


class ControllerEventManager:
    def __init__(self) -> None:
        self._queue: queue.Queue[QueuedEvent | None] = queue.Queue()
        self._thread = threading.Thread(target=self._process, name="controller-event-thread", daemon=True)
        self._thread.start()

    def put(self, kind: ControllerEventKind, run: Callable[[], T]) -> Future[T]:
        """Queue an event from any thread; the future holds its result."""
        event = ControllerEvent(kind, run)
        self._queue.put(event)
        return event.done

    def clear_and_put(self, kind: ControllerEventKind, run: Callable[[], T]) -> Future[T]:
        """Drop what is queued, then queue this event (Kafka's clearAndPut, for Expire): a
        controller whose session expired must not act on events it queued as controller,
        now that another broker may be controller. Each dropped event fails with
        ControllerMovedError, so its caller hears back."""
        while True:
            try:
                dropped = self._queue.get_nowait()
            except queue.Empty:
                break
            if dropped is None:  # close() asked to stop: keep that last
                self._queue.put(None)
                break
            dropped.fail(ControllerMovedError(f"{dropped.kind.value} dropped: the controller resigned"))
        return self.put(kind, run)

    async def call(self, kind: ControllerEventKind, run: Callable[[], T]) -> T:
        """Queue an event and await its result on the event loop."""
        return await asyncio.wrap_future(self.put(kind, run))

    def _process(self) -> None:
        while (event := self._queue.get()) is not None:
            event.execute()

    def close(self) -> None:
        """Process what is queued, then stop the thread (blocks: call it off the loop)."""
        self._queue.put(None)
        self._thread.join()
