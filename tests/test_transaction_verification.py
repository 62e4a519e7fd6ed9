"""Which transactional batches a leader asks the coordinator about (KIP-890 part 1), and
how an unreachable coordinator is answered. The coordinator's own answers are checked
against a real Kafka leader in tests/test_mixed_transactions.py."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from josefk.controller.coordination_store import EmbeddedStore
from josefk.controller.state import BrokerInfo, PartitionState
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import AppendResult, ReplicaManager, ReplicationSettings
from josefk.server.transaction_verification import TransactionVerifier
from josefk.utils.mock_time import MockScheduler, MockTime

pytestmark = pytest.mark.unit


@pytest.fixture
def replicas(tmp_path: Path) -> Iterator[ReplicaManager]:
    time = MockTime()
    log_manager = LogManager([tmp_path / "logs"], LogConfig(), time=time)
    log_manager.startup()
    executor = ThreadPoolExecutor(1)
    manager = ReplicaManager(1, log_manager, MetadataCache(1), lambda _topic: LogConfig(),
                             EmbeddedStore(tmp_path / "store.json"), ReplicationSettings(), executor, time,
                             MockScheduler(time))
    state = PartitionState("t", 0, 1, 1, [1], [1], 1)
    assert manager.leader_and_isr(0, 1, [state], [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE
    yield manager
    manager.shutdown()
    executor.shutdown()
    log_manager.shutdown()


def test_only_a_batch_opening_a_transaction_is_verified(replicas: ReplicaManager) -> None:
    assert replicas.needs_verification(("t", 0), 7, 0)
    batch = build_batch([Record(0, 1000, None, b"v")], producer_id=7, producer_epoch=0, base_sequence=0,
                        is_transactional=True)
    answers: list[dict[tuple[str, int], AppendResult]] = []
    replicas.append_records({("t", 0): batch}, 1, 1000, 1000, answers.append)
    assert answers[0][("t", 0)].error == ErrorCode.NONE
    assert not replicas.needs_verification(("t", 0), 7, 0)  # its transaction is open here
    assert replicas.needs_verification(("t", 0), 7, 1)  # a newer epoch opens a new one
    assert replicas.needs_verification(("t", 0), 8, 0)
    assert not replicas.needs_verification(("t", 1), 7, 0)  # not led here: the append fails anyway


def test_unknown_coordinator_is_a_retriable_produce_error() -> None:
    """No __transaction_state leader known: NOT_ENOUGH_REPLICAS, which producers retry
    (Kafka's ReplicaManager maps COORDINATOR_NOT_AVAILABLE so)."""
    verifier = TransactionVerifier(1, MetadataCache(1), lambda: 50)
    answers = asyncio.run(verifier.verify("tid", 7, 0, [("t", 0), ("t", 1)]))
    assert answers == {("t", 0): ErrorCode.NOT_ENOUGH_REPLICAS, ("t", 1): ErrorCode.NOT_ENOUGH_REPLICAS}
