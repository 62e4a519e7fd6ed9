"""CreateTopics, CreatePartitions and DeleteTopics wait for the metadata cache in a
purgatory (Kafka's DelayedCreatePartitions / DelayedDeleteTopics), woken by UpdateMetadata,
not by polling: with fake time nothing answers until the cache says so or the timeout."""

from __future__ import annotations

import pytest

from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.purgatory import DelayedOperationPurgatory
from josefk.server.admin_apis import DelayedTopicChange
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.zk.zk_data import LEADER_DURING_DELETE, BrokerInfo, PartitionState

pytestmark = pytest.mark.unit


def _state(topic: str, partition: int, leader: int) -> PartitionState:
    return PartitionState(topic, partition, leader, 0, [1], [1], 1)


def _watch(cache: MetadataCache, partitions: dict[str, int], timeout_ms: int = 30_000
           ) -> tuple[DelayedOperationPurgatory, MockTime, MockScheduler, list[str]]:
    time = MockTime()
    scheduler = MockScheduler(time)
    purgatory = DelayedOperationPurgatory("topic", scheduler)
    answered: list[str] = []
    purgatory.try_complete_else_watch(DelayedTopicChange(cache, partitions, timeout_ms, lambda: answered.append("x")),
                                      list(partitions))
    return purgatory, time, scheduler, answered


def test_creation_is_answered_when_every_partition_has_a_leader():
    cache = MetadataCache(1)
    purgatory, _time, scheduler, answered = _watch(cache, {"t": 2})
    cache.update(1, [BrokerInfo(1, "h", 1)], [_state("t", 0, 1), _state("t", 1, -1)])
    purgatory.check("t")
    assert answered == []  # partition 1 has no leader yet
    cache.update(1, [BrokerInfo(1, "h", 1)], [_state("t", 1, 1)])
    purgatory.check("t")
    assert answered == ["x"]
    assert len(purgatory) == 0 and scheduler.pending == 0  # the timeout was cancelled


def test_deletion_is_answered_when_the_topic_left_the_cache():
    cache = MetadataCache(1)
    cache.update(1, [BrokerInfo(1, "h", 1)], [_state("t", 0, 1)])
    purgatory, _time, _scheduler, answered = _watch(cache, {"t": 0})
    assert answered == []
    cache.update(1, [BrokerInfo(1, "h", 1)], [_state("t", 0, LEADER_DURING_DELETE)])
    purgatory.check("t")
    assert answered == ["x"]


def test_the_timeout_answers_what_never_showed_up():
    cache = MetadataCache(1)
    _purgatory, time, scheduler, answered = _watch(cache, {"t": 1}, timeout_ms=500)
    time.sleep(499)
    assert answered == []
    time.sleep(1)
    assert answered == ["x"]
    assert scheduler.pending == 0


def test_nothing_to_wait_for_is_answered_at_once():
    _purgatory, _time, _scheduler, answered = _watch(MetadataCache(1), {})
    assert answered == ["x"]
