"""A consumer's incremental fetch session skips the partitions with nothing new (NOTHING_NEW,
nothing read or built for them): on the real ReplicaManager and logs, a partition is only
skipped while a full read would tell the consumer exactly what its session last told it,
and every change that must reach it (records under the high watermark, a truncation, a
moved log start, a new leader epoch, a lost leadership, a deleted topic, an earlier error)
makes the read a real one again. Over the wire, data arriving during a long poll of an
incremental session over quiet partitions completes it."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.wire import connect, create_topic
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.partition import FetchIsolation, Partition
from josefk.replication.replica_manager import (
    NOTHING_NEW,
    FetchPartition,
    FetchResult,
    ReplicaManager,
    ReplicationSettings,
)
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState, partition_state_path
from tests.test_fetch_many import _fetch, _listed, _produce, _topic_id

TOPIC = "t"
HW = FetchIsolation.HIGH_WATERMARK


def _batch(n: int) -> bytes:
    return build_batch([Record(i, 0, None, b"x" * 50) for i in range(n)])


class Leader:
    """A ReplicaManager leading partition 0 of TOPIC alone (ISR of one), 5 records committed."""

    def __init__(self, tmp_path: Path) -> None:
        self.store = EmbeddedStore(tmp_path / "store.json")
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig())
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.manager = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _t: LogConfig(), self.store,
                                      ReplicationSettings(), self.executor, MockTime())
        self.lead(0)
        self.append(5)

    @property
    def partition(self) -> Partition:
        return self.manager.partitions[(TOPIC, 0)]

    def lead(self, epoch: int, leader: int = 1) -> None:
        state = PartitionState(TOPIC, 0, leader, epoch, [1], [1], 0)
        path = partition_state_path(TOPIC, 0)
        if self.store.exists(path):
            self.store.set(path, json.dumps(state.state_json()).encode())
        else:
            self.store.create(path, json.dumps(state.state_json()).encode())
        brokers = [BrokerInfo(1, "127.0.0.1", 1)]
        assert self.manager.leader_and_isr(0, 1, [state], brokers).error == ErrorCode.NONE

    def append(self, n: int) -> None:
        self.partition.log.append_as_leader(_batch(n), self.partition.leader_epoch)
        self.partition.maybe_increment_high_watermark()

    def read(self, offset: int, told: FetchResult | None = None, epoch: int = -1,
             isolation: FetchIsolation = HW) -> FetchResult:
        """A consumer's read at `offset`; with `told`, as its session's partition last told that."""
        fetch = FetchPartition(TOPIC, 0, offset, 1 << 20, current_leader_epoch=epoch)
        if told is not None:
            assert told.read is not None or told.error != ErrorCode.NONE
            fetch.session_high_watermark = told.read.high_watermark if told.read is not None else -1
            fetch.session_log_start_offset = told.read.log_start_offset if told.read is not None else -1
        [result] = self.manager.read_from_local_log([fetch], 1 << 20, isolation)
        return result

    def close(self) -> None:
        self.manager.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()


@pytest.fixture
def leader(tmp_path: Path) -> Iterator[Leader]:
    b = Leader(tmp_path)
    yield b
    b.close()


@pytest.mark.unit
def test_a_quiet_partition_is_skipped_and_its_full_read_agrees(leader: Leader) -> None:
    for isolation in (HW, FetchIsolation.TXN_COMMITTED):
        full = leader.read(5, isolation=isolation)  # what the session was told
        assert full.error == ErrorCode.NONE and full.read is not None and full.read.regions == []
        assert (full.read.high_watermark, full.read.log_start_offset) == (5, 0)
        assert leader.read(5, told=full, isolation=isolation) is NOTHING_NEW
        assert leader.read(5, told=full, epoch=leader.partition.leader_epoch, isolation=isolation) is NOTHING_NEW
    # records past the high watermark are not the consumer's yet: still nothing new
    told = leader.read(5)
    leader.partition.log.append_as_leader(_batch(2), leader.partition.leader_epoch)
    assert leader.read(5, told=told) is NOTHING_NEW


@pytest.mark.unit
def test_committed_records_are_read(leader: Leader) -> None:
    told = leader.read(5)
    leader.append(3)
    result = leader.read(5, told=told)
    assert result is not NOTHING_NEW and result.read is not None
    assert result.read.high_watermark == 8 and result.read.size > 0


@pytest.mark.unit
def test_a_fetch_offset_behind_the_high_watermark_is_read(leader: Leader) -> None:
    told = leader.read(5)
    result = leader.read(2, told=told)  # the consumer seeked back: the same offsets, records to send
    assert result is not NOTHING_NEW and result.read is not None and result.read.size > 0


@pytest.mark.unit
def test_a_truncated_log_is_read_and_answers_out_of_range(leader: Leader) -> None:
    told = leader.read(5)
    leader.partition.log.truncate_to(2)
    result = leader.read(5, told=told)
    assert result is not NOTHING_NEW and result.error == ErrorCode.OFFSET_OUT_OF_RANGE


@pytest.mark.unit
def test_a_moved_log_start_is_told(leader: Leader) -> None:
    told = leader.read(5)
    leader.partition.delete_records_before(3)
    result = leader.read(5, told=told)
    assert result is not NOTHING_NEW and result.read is not None and result.read.log_start_offset > 0


@pytest.mark.unit
def test_a_new_leader_epoch_fences_the_consumer(leader: Leader) -> None:
    told = leader.read(5, epoch=0)
    leader.lead(1)
    result = leader.read(5, told=told, epoch=0)
    assert result is not NOTHING_NEW and result.error == ErrorCode.FENCED_LEADER_EPOCH
    assert leader.read(5, told=told, epoch=1) is NOTHING_NEW  # the consumer caught up with the epoch


@pytest.mark.unit
def test_a_lost_leadership_is_told(leader: Leader) -> None:
    told = leader.read(5)
    leader.partition.leader_id = 2  # what becoming a follower sets, without starting a fetcher
    result = leader.read(5, told=told)
    assert result is not NOTHING_NEW and result.error == ErrorCode.NOT_LEADER_OR_FOLLOWER


@pytest.mark.unit
def test_a_deleted_topic_is_told(leader: Leader) -> None:
    told = leader.read(5)
    assert leader.manager.stop_replica(1, [(TOPIC, 0)], delete=True) == ErrorCode.NONE
    result = leader.read(5, told=told)
    assert result is not NOTHING_NEW and result.error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


@pytest.mark.unit
def test_a_partition_told_an_error_is_read_again(leader: Leader) -> None:
    errored = FetchResult(TOPIC, 0, ErrorCode.NOT_LEADER_OR_FOLLOWER)  # the session cached hw -1
    result = leader.read(5, told=errored)
    assert result is not NOTHING_NEW and result.read is not None and result.read.high_watermark == 5


def test_records_arriving_during_a_long_poll_of_quiet_partitions_complete_it(broker) -> None:
    sock, producer = connect(broker.bootstrap), connect(broker.bootstrap)
    create_topic(sock, "quiet", 50)
    topic_id = _topic_id(sock, "quiet")
    session = _fetch(sock, topic_id, {p: 0 for p in range(50)}, epoch=0).session_id
    assert session != 0
    assert _fetch(sock, topic_id, {}, session, 1).responses == []  # every partition quiet
    answered: list = []
    poll = threading.Thread(target=lambda: answered.append(_fetch(sock, topic_id, {}, session, 2,
                                                                   max_wait_ms=30_000)))
    t0 = time.monotonic()
    poll.start()
    _produce(producer, "quiet", 37, 2)
    poll.join(60)
    assert not poll.is_alive() and time.monotonic() - t0 < 30  # completed by the records, not the wait
    listed = _listed(answered[0])
    assert list(listed) == [37] and listed[37][1] == 2 and listed[37][5]
    sock.close()
    producer.close()
