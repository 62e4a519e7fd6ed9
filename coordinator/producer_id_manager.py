"""Producer ids for idempotent producers, handed out in blocks reserved in the store
(/latest_producer_id_block), so ids stay unique across brokers and restarts.

The manager behaves as Kafka 3.9's RPCProducerIdManager: handing out an id never waits on
the store. The next block is reserved in the background (on the store thread) once 90% of
the current one is used; while none is at hand the answer is COORDINATOR_LOAD_IN_PROGRESS
at once, so a ZooKeeper outage delays no InitProducerId and holds no client connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Protocol

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.coordination_store import BadVersionError, CoordinationStore, NodeExistsError
from josefk.zk.zk_data import PRODUCER_ID_BLOCK

log = logging.getLogger(__name__)

BLOCK_SIZE = 1000
PID_PREFETCH_THRESHOLD = 0.90  # Kafka's: the share of a block handed out when the next is requested
RETRY_BACKOFF_MS = 50  # Kafka's RPCProducerIdManager.RETRY_BACKOFF_MS after a failed request

Block = tuple[int, int]  # first and last id, inclusive


def reserve_block(store: CoordinationStore, broker_id: int) -> Block:
    """The next block of BLOCK_SIZE ids (first, last), recorded in the store with a
    conditional write (Kafka's ZkProducerIdManager.getNewProducerIdBlock)."""
    while True:
        found = store.get(PRODUCER_ID_BLOCK)
        # Kafka creates the znode empty with its other top-level paths: no block yet.
        start = int(json.loads(found[0])["block_end"]) + 1 if found and found[0] else 0
        block = {"version": 1, "broker": broker_id, "block_start": str(start),
                 "block_end": str(start + BLOCK_SIZE - 1)}
        data = json.dumps(block).encode()
        try:
            if found is None:
                store.create(PRODUCER_ID_BLOCK, data)
            else:
                store.set(PRODUCER_ID_BLOCK, data, expected_version=found[1])
        except (NodeExistsError, BadVersionError):
            continue
        return start, start + BLOCK_SIZE - 1


class BlockRequests(Protocol):
    """Runs a block reservation away from the caller (it may wait on the store for as long
    as ZooKeeper is unreachable) and hands its outcome to `done` on the caller's thread."""

    def submit(self, reserve: Callable[[], Block], done: Callable[[Future[Block]], None]) -> None: ...


@dataclass(frozen=True)
class ExecutorBlockRequests:
    """Reservations on the broker's store executor, their outcomes posted to its loop."""

    executor: Executor
    loop: asyncio.AbstractEventLoop

    def submit(self, reserve: Callable[[], Block], done: Callable[[Future[Block]], None]) -> None:
        def post(outcome: Future[Block]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the broker is gone, so is the block
                self.loop.call_soon_threadsafe(done, outcome)

        self.executor.submit(reserve).add_done_callback(post)


class ProducerIdManager:
    """Kafka's RPCProducerIdManager over the store. Runs on one thread (the broker's loop):
    generate_producer_id and the reservation outcomes are never concurrent."""

    def __init__(self, broker_id: int, store: CoordinationStore, requests: BlockRequests,
                 time: Time = SYSTEM_TIME) -> None:
        self.broker_id = broker_id
        self.store = store
        self.requests = requests
        self.time = time
        self.next_id = 0
        self.block_end = -1  # no block yet (Kafka's ProducerIdsBlock.EMPTY)
        self.prefetch_at = -1
        self.next_block: Block | None = None
        self.request_in_flight = False
        self.backoff_deadline_ms: int | None = None

    def startup(self) -> None:
        """Request the first block, so the first InitProducerId after start is normally served.
        (Kafka's broker requests it only on its first InitProducerId, which it answers
        COORDINATOR_LOAD_IN_PROGRESS.)"""
        self._maybe_request_next_block()

    def generate_producer_id(self) -> int:
        """The next id, at once. With the block used up and the next one not yet reserved
        (the store unreachable, refusing the write, its session expired), KafkaError
        COORDINATOR_LOAD_IN_PROGRESS: what Kafka 3.9 answers while it has no block, and every
        client backs off and retries it. COORDINATOR_NOT_AVAILABLE would send an idempotent
        producer to look up a coordinator it does not have."""
        if self.next_id > self.block_end:
            if self.next_block is None:
                self._maybe_request_next_block()
                raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                                 "Producer ID block is full. Waiting for next block")
            self._use(self.next_block)
        producer_id = self.next_id
        self.next_id += 1
        if producer_id == self.prefetch_at:
            self._maybe_request_next_block()
        return producer_id

    def _use(self, block: Block) -> None:
        self.next_id, self.block_end = block
        self.prefetch_at = block[0] + int((block[1] - block[0] + 1) * PID_PREFETCH_THRESHOLD)
        self.next_block = None

    def _maybe_request_next_block(self) -> None:
        """One request at a time, none while a block waits, none before the backoff ends."""
        if self.request_in_flight or self.next_block is not None:
            return
        if self.backoff_deadline_ms is not None and self.time.hi_res_clock_ms() < self.backoff_deadline_ms:
            return
        self.request_in_flight = True
        self.backoff_deadline_ms = None
        self.requests.submit(lambda: reserve_block(self.store, self.broker_id), self._reserved)

    def _reserved(self, outcome: Future[Block]) -> None:
        self.request_in_flight = False
        try:
            block = outcome.result()
        except Exception as e:
            log.warning("[ProducerId Manager %d]: Could not reserve a producer id block: %r", self.broker_id, e)
            self.backoff_deadline_ms = self.time.hi_res_clock_ms() + RETRY_BACKOFF_MS
            return
        if block[0] <= self.block_end:  # Kafka's sanity check: blocks only move forward
            log.error("[ProducerId Manager %d]: Producer ID block %s is not monotonic with the current one "
                      "(ending at %d)", self.broker_id, block, self.block_end)
            self.backoff_deadline_ms = self.time.hi_res_clock_ms() + RETRY_BACKOFF_MS
            return
        log.info("[ProducerId Manager %d]: Acquired new producerId block %s", self.broker_id, block)
        self.next_block = block
