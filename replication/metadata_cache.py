"""MetadataCache: each broker's copy of cluster state, filled only by UpdateMetadata."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from josefk.controller.state import LEADER_DURING_DELETE, BrokerInfo, PartitionState


@dataclass
class MetadataCache:
    broker_id: int
    controller_id: int = -1
    brokers: dict[int, BrokerInfo] = field(default_factory=dict)
    topics: dict[str, dict[int, PartitionState]] = field(default_factory=dict)
    topic_ids: dict[str, uuid.UUID] = field(default_factory=dict)

    def update(self, controller_id: int, live_brokers: list[BrokerInfo], states: list[PartitionState]) -> None:
        self.controller_id = controller_id
        self.brokers = {b.broker_id: b for b in live_brokers}
        for state in states:
            if state.leader == LEADER_DURING_DELETE:
                partitions = self.topics.get(state.topic, {})
                partitions.pop(state.partition, None)
                if not partitions:
                    self.topics.pop(state.topic, None)
                    self.topic_ids.pop(state.topic, None)
                continue
            self.topics.setdefault(state.topic, {})[state.partition] = state
            if state.topic_id is not None:
                self.topic_ids[state.topic] = state.topic_id

    def partition(self, topic: str, partition: int) -> PartitionState | None:
        return self.topics.get(topic, {}).get(partition)

    def topic_by_id(self, topic_id: uuid.UUID) -> str | None:
        for name, tid in self.topic_ids.items():
            if tid == topic_id:
                return name
        return None
