"""Creates a streams group's missing internal topics (repartition and changelog topics) in
the background, as Kafka 4.x's AutoTopicCreationManager does for StreamsGroupHeartbeat: the
heartbeat is answered at once, reporting them missing, until they exist."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Protocol

from josefk.coordinator.streams_topology import TopicInfo
from josefk.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)


class TopicWriter(Protocol):
    def create_topic(self, topic: str, partitions: int, replication_factor: int,
                     assignment: dict[int, list[int]] | None, configs: dict[str, str]) -> object: ...


class InternalTopicCreator:
    def __init__(self, admin: TopicWriter, executor: Executor, default_replication_factor: Callable[[], int]) -> None:
        self.admin = admin
        self.executor = executor
        self.default_replication_factor = default_replication_factor
        self._pending: set[str] = set()  # asked for and not yet done: one creation each
        self._lock = threading.Lock()  # handlers ask, the executor's thread finishes

    def create_internal_topics(self, topics: list[TopicInfo]) -> None:
        with self._lock:
            wanted = [t for t in topics if t.name not in self._pending]
            self._pending.update(t.name for t in wanted)
        for topic in wanted:
            self.executor.submit(self._create, topic)

    def _create(self, topic: TopicInfo) -> None:
        rf = topic.replication_factor if topic.replication_factor > 0 else self.default_replication_factor()
        try:
            self.admin.create_topic(topic.name, topic.partitions, rf, None, dict(topic.configs))
            log.info("Created internal topic %s of a streams group with %d partitions", topic.name, topic.partitions)
        except KafkaError as e:
            if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                log.warning("Creating internal topic %s of a streams group failed: %s", topic.name, e)
        finally:
            with self._lock:
                self._pending.discard(topic.name)
