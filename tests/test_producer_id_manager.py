"""Producer id blocks in /latest_producer_id_block, as Kafka's ZkProducerIdManager keeps them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kazoo.exceptions import SessionExpiredError

from josefk.controller.coordination_store import EmbeddedStore
from josefk.controller.state import PRODUCER_ID_BLOCK
from josefk.coordinator.producer_id_manager import BLOCK_SIZE, ProducerIdManager
from josefk.protocol.errors import ErrorCode, KafkaError


def test_an_empty_block_znode_as_kafka_creates_it_starts_the_first_block(tmp_path: Path) -> None:
    """Kafka creates /latest_producer_id_block with no data among its top-level paths; a
    josefk broker in the same cluster must read that as "no block yet", not fail."""
    store = EmbeddedStore(tmp_path / "store.json")
    store.create(PRODUCER_ID_BLOCK, b"")
    manager = ProducerIdManager(2, store)
    assert [manager.generate_producer_id() for _ in range(2)] == [0, 1]
    assert store.get_json(PRODUCER_ID_BLOCK) == {"version": 1, "broker": 2, "block_start": "0",
                                                 "block_end": str(BLOCK_SIZE - 1)}


def test_the_next_block_follows_the_one_another_broker_reserved(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    store.create(PRODUCER_ID_BLOCK, json.dumps({"version": 1, "broker": 1, "block_start": "0",
                                                "block_end": "999"}).encode())
    assert ProducerIdManager(2, store).generate_producer_id() == 1000


class ExpiringStore(EmbeddedStore):
    """The store as a broker sees it when its ZooKeeper session expired mid-call: reads fail
    with kazoo's SessionExpiredError until `expired` is cleared (a new session)."""

    expired = True

    def get(self, path: str) -> tuple[bytes, int] | None:
        if self.expired:
            raise SessionExpiredError()
        return super().get(path)


def test_a_block_that_cannot_be_reserved_is_coordinator_load_in_progress_until_it_can(tmp_path: Path) -> None:
    """Kafka 3.9's RPCProducerIdManager answers COORDINATOR_LOAD_IN_PROGRESS while it has no
    block; the next call after the store is back reserves one."""
    store = ExpiringStore(tmp_path / "store.json")
    manager = ProducerIdManager(2, store)
    with pytest.raises(KafkaError) as failed:
        manager.generate_producer_id()
    assert failed.value.code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
    store.expired = False
    assert [manager.generate_producer_id() for _ in range(2)] == [0, 1]
