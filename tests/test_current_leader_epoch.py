"""KIP-320 on the leader: a fetcher that names the leader epoch it knows is refused when
the leader's differs, before anything is read or any follower state moves (Kafka's
Partition.checkCurrentLeaderEpoch): FENCED_LEADER_EPOCH when the fetcher is behind,
UNKNOWN_LEADER_EPOCH when it is ahead of this broker. On the real ReplicaManager and logs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.partition import FetchIsolation
from josefk.replication.replica_manager import FetchPartition, FetchResult, ReplicaManager
from josefk.zk.zk_data import BrokerInfo, PartitionState, partition_state_path
from tests.disk_replica_manager import replica_manager

EPOCH = 3


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[ReplicaManager]:
    """Broker 1 leading t-0 (replicas 1 and 2) at leader epoch 3, five records in it."""
    with replica_manager(tmp_path) as manager:
        state = PartitionState("t", 0, 1, EPOCH, [1, 2], [1, 2], 0)
        manager.store.create(partition_state_path("t", 0), json.dumps(state.state_json()).encode())
        brokers = [BrokerInfo(1, "127.0.0.1", 1), BrokerInfo(2, "127.0.0.1", 2)]
        assert manager.leader_and_isr(0, 1, [state], brokers).error == ErrorCode.NONE
        records = build_batch([Record(i, 0, None, b"x") for i in range(5)])
        manager.partitions[("t", 0)].log.append_as_leader(records, EPOCH)
        yield manager


def fetch(manager: ReplicaManager, current_leader_epoch: int, replica_id: int = -1) -> FetchResult:
    answers: list[list[FetchResult]] = []
    manager.fetch_messages([FetchPartition("t", 0, 5 if replica_id >= 0 else 0, 1 << 20,
                                           current_leader_epoch=current_leader_epoch)],
                           1 << 20, 1, 0, replica_id, answers.append)
    [[result]] = answers
    return result


@pytest.mark.unit
@pytest.mark.parametrize(("epoch", "error"), [(-1, ErrorCode.NONE), (EPOCH, ErrorCode.NONE),
                                              (EPOCH - 1, ErrorCode.FENCED_LEADER_EPOCH),
                                              (EPOCH + 1, ErrorCode.UNKNOWN_LEADER_EPOCH)])
def test_a_consumer_fetch_is_checked_against_the_leader_epoch(manager: ReplicaManager, epoch: int,
                                                              error: ErrorCode) -> None:
    result = fetch(manager, epoch)
    assert result.error == error
    assert (result.read is not None) == (error == ErrorCode.NONE)  # a refused partition is not read


@pytest.mark.unit
def test_a_fenced_follower_fetch_moves_no_follower_state(manager: ReplicaManager) -> None:
    partition = manager.partitions[("t", 0)]
    assert fetch(manager, EPOCH - 1, replica_id=2).error == ErrorCode.FENCED_LEADER_EPOCH
    assert partition.followers[2].log_end_offset == -1 and partition.high_watermark == 0
    assert fetch(manager, EPOCH, replica_id=2).error == ErrorCode.NONE
    assert partition.followers[2].log_end_offset == 5 and partition.high_watermark == 5


@pytest.mark.unit
def test_list_offsets_and_offset_for_leader_epoch_check_it_too(manager: ReplicaManager) -> None:
    found = manager.fetch_offset_for_timestamp("t", 0, -1, FetchIsolation.HIGH_WATERMARK, EPOCH)
    assert found is None or found.offset >= 0
    for epoch, error in ((EPOCH - 1, ErrorCode.FENCED_LEADER_EPOCH), (EPOCH + 1, ErrorCode.UNKNOWN_LEADER_EPOCH)):
        with pytest.raises(KafkaError) as refused:
            manager.fetch_offset_for_timestamp("t", 0, -1, FetchIsolation.HIGH_WATERMARK, epoch)
        assert refused.value.code == error
        with pytest.raises(KafkaError) as refused:
            manager.leader_partition("t", 0, epoch)
        assert refused.value.code == error


@pytest.mark.unit
def test_a_new_leader_behind_its_epoch_start_answers_offset_not_available(manager: ReplicaManager) -> None:
    """Kafka's fetchOffsetForTimestamp (KIP-207): leading again at a new epoch with five
    records past its high watermark, the leader does not answer a client the latest offset
    until a follower's fetch moves the high watermark to the epoch start; a follower's
    ListOffsets (to the log end) is answered all along."""
    state = PartitionState("t", 0, 1, EPOCH + 1, [1, 2], [1, 2], 0)
    assert manager.leader_and_isr(0, 1, [state], [BrokerInfo(1, "127.0.0.1", 1), BrokerInfo(2, "127.0.0.1", 2)]
                                  ).error == ErrorCode.NONE
    with pytest.raises(KafkaError) as refused:
        manager.fetch_offset_for_timestamp("t", 0, -1, FetchIsolation.HIGH_WATERMARK, EPOCH + 1)
    assert refused.value.code == ErrorCode.OFFSET_NOT_AVAILABLE
    found = manager.fetch_offset_for_timestamp("t", 0, -1, FetchIsolation.LOG_END)
    assert found is not None and found.offset == 5
    assert fetch(manager, EPOCH + 1, replica_id=2).error == ErrorCode.NONE  # at offset 5: the high watermark is 5
    found = manager.fetch_offset_for_timestamp("t", 0, -1, FetchIsolation.HIGH_WATERMARK, EPOCH + 1)
    assert found is not None and found.offset == 5
