"""How a fetch shares its size limit among partitions, on the real ReplicaManager, fetch
session and logs (no sockets): Kafka's readFromLog reads partitions in the order asked, the
first batch read may exceed the limits (KIP-74) but none after it, and an incremental
session moves each partition that returned records to the end of its order
(FetchSession.scala), so a limit that fits k partitions serves every one of n within
ceil(n / k) fetches."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.fetch_session import (
    INITIAL_EPOCH,
    INVALID_SESSION_ID,
    FetchContext,
    FetchManager,
    FetchSessionCache,
    IncrementalFetchContext,
    Key,
    PartitionRequest,
    PartitionResponse,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import FetchIsolation
from josefk.replication.replica_manager import FetchPartition, FetchResult, ReplicaManager, ReplicationSettings
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState, partition_state_path

TOPIC = "t"
PARTITIONS = 12
PER_PARTITION_MAX = 1 << 20


class Broker:
    """A ReplicaManager leading PARTITIONS partitions of TOPIC, one batch of records in each."""

    def __init__(self, tmp_path: Path) -> None:
        self.store = EmbeddedStore(tmp_path / "store.json")
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig())
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.manager = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _t: LogConfig(), self.store,
                                      ReplicationSettings(), self.executor, MockTime())
        states = []
        for p in range(PARTITIONS):
            state = PartitionState(TOPIC, p, 1, 0, [1], [1], 0)
            self.store.create(partition_state_path(TOPIC, p), json.dumps(state.state_json()).encode())
            states.append(state)
        assert self.manager.leader_and_isr(0, 1, states, [BrokerInfo(1, "127.0.0.1", 1)]).error == ErrorCode.NONE
        self.batch = build_batch([Record(i, 0, None, b"x" * 200) for i in range(5)])
        for p in range(PARTITIONS):
            self.manager.partitions[(TOPIC, p)].log.append_as_leader(self.batch, 0)

    def read(self, fetches: list[tuple[int, int]], max_bytes: int) -> list[FetchResult]:
        """(partition, partition max bytes) from offset 0, read as a follower would (to the log end)."""
        return self.manager.read_from_local_log([FetchPartition(TOPIC, p, 0, limit) for p, limit in fetches],
                                                max_bytes, FetchIsolation.LOG_END)

    def close(self) -> None:
        self.manager.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    yield b
    b.close()


def partition_of(key: Key) -> int:
    """The partition of a session key: these tests name partitions (topic, partition)."""
    assert isinstance(key, tuple)
    return key[1]


def served(results: list[FetchResult]) -> list[int]:
    return [r.partition for r in results if r.read is not None and r.read.size > 0]


def test_the_limit_goes_to_partitions_in_request_order_and_the_first_may_exceed_it(broker: Broker) -> None:
    size = len(broker.batch)
    everything = [(p, PER_PARTITION_MAX) for p in range(PARTITIONS)]
    assert served(broker.read(everything, 3 * size)) == [0, 1, 2]
    assert served(broker.read(list(reversed(everything)), 3 * size)) == [11, 10, 9]
    # KIP-74: the first partition with data is served even past both limits, none after it
    assert served(broker.read([(4, 10), (5, 10)], 1)) == [4]
    assert served(broker.read([(4, PER_PARTITION_MAX), (5, PER_PARTITION_MAX)], size + 1)) == [4]


@pytest.mark.parametrize("fits", [1, 3, 5])
def test_an_incremental_session_serves_every_partition_within_n_over_k_fetches(broker: Broker, fits: int) -> None:
    """The fetcher never moves its offsets (every partition keeps data to return): without
    the session's rotation the first `fits` partitions would get every fetch."""
    max_bytes = fits * len(broker.batch)
    manager = FetchManager(FetchSessionCache(time=MockTime()))
    wanted: dict[Key, PartitionRequest] = {(TOPIC, p): PartitionRequest(0, PER_PARTITION_MAX)
                                           for p in range(PARTITIONS)}

    def fetch(context: FetchContext) -> tuple[list[int], int]:
        parts = context.partitions()
        results = broker.read([(partition_of(key), req.max_bytes) for key, req in parts], max_bytes)
        error, session_id, _ = context.respond({
            key: PartitionResponse(ErrorCode.NONE, 0, 0, r.read.size if r.read else 0)
            for (key, _), r in zip(parts, results, strict=True)})
        assert error == ErrorCode.NONE
        return served(results), session_id

    first, session_id = fetch(manager.new_context(12, INVALID_SESSION_ID, INITIAL_EPOCH, False, wanted, []))
    assert first == list(range(fits)) and session_id != INVALID_SESSION_ID
    # The full fetch creating the session keeps the request's order (Kafka's createNewSession
    # does not rotate); from then on the incremental fetches go round.
    order: list[int] = []
    for epoch in range(1, math.ceil(PARTITIONS / fits) + 1):
        context = manager.new_context(12, session_id, epoch, False, {}, [])
        assert isinstance(context, IncrementalFetchContext)
        order.extend(fetch(context)[0])
    # every partition once, each in its place in the session, before any is served again
    assert order[:PARTITIONS] == list(range(PARTITIONS))


def test_the_full_fetch_order_is_kept_by_the_session() -> None:
    """The session remembers the partitions in the order of the fetch that created it; a
    partition that returned records goes to the end, one that did not keeps its place."""
    manager = FetchManager(FetchSessionCache(time=MockTime()))
    order = [(TOPIC, p) for p in (5, 2, 9, 0)]
    context = manager.new_context(12, INVALID_SESSION_ID, INITIAL_EPOCH, False,
                                  {key: PartitionRequest(0, PER_PARTITION_MAX) for key in order}, [])
    responses: dict[Key, PartitionResponse] = {
        key: PartitionResponse(ErrorCode.NONE, 1, 0, 100 if key[1] == 5 else 0) for key in order}
    _, session_id, _ = context.respond(responses)
    incremental = manager.new_context(12, session_id, 1, False, {}, [])
    assert [key for key, _ in incremental.partitions()] == order
    incremental.respond({key: PartitionResponse(ErrorCode.NONE, 1, 0, 100 if key[1] in (5, 2) else 0)
                         for key in order})
    again = manager.new_context(12, session_id, 2, False, {}, [])
    assert [partition_of(key) for key, _ in again.partitions()] == [9, 0, 5, 2]
