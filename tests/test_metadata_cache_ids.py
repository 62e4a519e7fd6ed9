"""MetadataCache.topic_by_id follows every update (its reverse map is made per generation)."""

from __future__ import annotations

import uuid

from josefk.replication.metadata_cache import MetadataCache
from josefk.zk.zk_data import LEADER_DURING_DELETE, PartitionState

A, B = uuid.UUID(int=1), uuid.UUID(int=2)


def state(topic: str, topic_id: uuid.UUID, leader: int = 0) -> PartitionState:
    return PartitionState(topic, 0, leader, 0, [0], [0], 0, topic_id=topic_id)


def test_topic_by_id_sees_topics_created_deleted_and_recreated() -> None:
    cache = MetadataCache(0)
    assert cache.topic_by_id(A) is None
    cache.update(0, [], [state("a", A)])
    assert cache.topic_by_id(A) == "a" and cache.topic_by_id(B) is None
    cache.update(0, [], [state("a", A, LEADER_DURING_DELETE)])
    assert cache.topic_by_id(A) is None
    cache.update(0, [], [state("a", B)])  # the name again, with a new id
    assert (cache.topic_by_id(A), cache.topic_by_id(B)) == (None, "a")
