"""Replica assignment as Kafka's AdminUtils.assignReplicasToBrokers, with and without racks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.zk.admin_zk_client import assign_replicas

pytestmark = pytest.mark.unit


class Fixed(random.Random):
    """Kafka's fixedStartIndex: the start and the first shift both at this index."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def randrange(self, *_args: object, **_kwargs: object) -> int:
        return self.index


def test_rack_aware_assignment_follows_kafkas_worked_example() -> None:
    """AdminUtils' own example: racks 0:rack1, 1:rack3, 2:rack3, 3:rack2, 4:rack2, 5:rack1
    alternate as 0, 3, 1, 5, 4, 2; 7 partitions of RF 3 from index 0."""
    racks = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
    assert assign_replicas(racks, 7, 3, rng=Fixed(0)) == {
        0: [0, 3, 1], 1: [3, 1, 5], 2: [1, 5, 4], 3: [5, 4, 2], 4: [4, 2, 0], 5: [2, 0, 3], 6: [0, 4, 2]}


def test_without_racks_the_assignment_is_kafkas_round_robin() -> None:
    """AdminUtils' rack-unaware table: 5 brokers, 10 partitions, RF 3, start and shift 0."""
    result = assign_replicas([0, 1, 2, 3, 4], 10, 3, rng=Fixed(0))
    assert result[0] == [0, 1, 2] and result[4] == [4, 0, 1]
    assert result[5] == [0, 2, 3] and result[9] == [4, 1, 2]


@pytest.mark.parametrize("seed", range(20))
def test_two_brokers_per_host_never_share_a_partition_across_its_replicas(seed: int) -> None:
    """Several brokers per host with broker.rack = the host: with RF up to the number of
    hosts, no partition has two replicas on one host, and leaders spread evenly."""
    racks = {b: f"host{b // 2}" for b in range(6)}  # 3 hosts, 2 brokers each
    result = assign_replicas(racks, 60, 3, rng=random.Random(seed))
    for replicas in result.values():
        assert len({racks[b] for b in replicas}) == 3
    assert set(Counter(r[0] for r in result.values()).values()) == {10}


def test_racks_on_some_brokers_only_is_refused() -> None:
    with pytest.raises(KafkaError) as e:
        assign_replicas({1: "a", 2: None, 3: "b"}, 3, 2)
    assert e.value.code == ErrorCode.UNKNOWN_SERVER_ERROR
    with pytest.raises(KafkaError) as e:
        assign_replicas({1: "a"}, 3, 2)
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
