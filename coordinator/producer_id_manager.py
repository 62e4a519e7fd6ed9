"""Producer ids for idempotent producers, handed out in blocks reserved in the store
(/latest_producer_id_block), so ids stay unique across brokers and restarts."""

from __future__ import annotations

import json
import logging

from josefk.controller.coordination_store import BadVersionError, CoordinationStore, NodeExistsError
from josefk.controller.state import PRODUCER_ID_BLOCK
from josefk.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)

BLOCK_SIZE = 1000


def reserve_block(store: CoordinationStore, broker_id: int) -> tuple[int, int]:
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


class ProducerIdManager:
    def __init__(self, broker_id: int, store: CoordinationStore) -> None:
        self.broker_id = broker_id
        self.store = store
        self.next_id = 0
        self.block_end = -1

    def _reserve_block(self) -> None:
        self.next_id, self.block_end = reserve_block(self.store, self.broker_id)

    def generate_producer_id(self) -> int:
        """The next id. When the block is used up and the next one cannot be reserved (the
        store unreachable, its session expired), KafkaError COORDINATOR_LOAD_IN_PROGRESS:
        what a Kafka 3.9 broker (RPCProducerIdManager) answers while it has no block, and
        every client backs off and retries it. COORDINATOR_NOT_AVAILABLE would send an
        idempotent producer to look up a coordinator it does not have."""
        if self.next_id > self.block_end:
            try:
                self._reserve_block()
            except Exception as e:
                log.warning("[ProducerId Manager %d]: Could not reserve a producer id block: %r", self.broker_id, e)
                raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                                 "Producer ID block is full. Waiting for next block") from e
        producer_id = self.next_id
        self.next_id += 1
        return producer_id
