"""MetadataCache: each broker's copy of cluster state, filled only by UpdateMetadata."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from josefk.zk.zk_data import LEADER_DURING_DELETE, BrokerInfo, EndPoint, PartitionState


@dataclass
class MetadataCache:
    broker_id: int
    controller_id: int = -1
    brokers: dict[int, BrokerInfo] = field(default_factory=dict)
    topics: dict[str, dict[int, PartitionState]] = field(default_factory=dict)
    topic_ids: dict[str, uuid.UUID] = field(default_factory=dict)
    # Brokers' host/port are kept as this listener's: the one brokers dial each other on.
    inter_broker_listener: str = "PLAINTEXT"
    # Bumped by every update: what a reader derived from the cache (an encoded Metadata
    # response) is current while the generation it was made at is.
    generation: int = 0
    # The generation at which each topic's partition states last changed, and at which the
    # set of live brokers did: what a topic's part of a Metadata response depends on.
    topic_generations: dict[str, int] = field(default_factory=dict)
    brokers_generation: int = 0
    # topic_ids reversed, for the generation it was made at (topic_by_id).
    _names_by_id: dict[uuid.UUID, str] = field(default_factory=dict, repr=False, compare=False)
    _names_generation: int = field(default=-1, repr=False, compare=False)

    def update(self, controller_id: int, live_brokers: list[BrokerInfo], states: list[PartitionState]) -> None:
        self.generation += 1
        self.controller_id = controller_id
        brokers = {b.broker_id: b.for_listener(self.inter_broker_listener) for b in live_brokers}
        if brokers.keys() != self.brokers.keys():
            self.brokers_generation = self.generation
        self.brokers = brokers
        changed = self.topic_generations
        for state in states:
            if state.leader == LEADER_DURING_DELETE:
                partitions = self.topics.get(state.topic, {})
                partitions.pop(state.partition, None)
                changed[state.topic] = self.generation
                if not partitions:
                    self.topics.pop(state.topic, None)
                    self.topic_ids.pop(state.topic, None)
                    changed.pop(state.topic, None)
                continue
            partitions = self.topics.setdefault(state.topic, {})
            old = partitions.get(state.partition)
            if old is state or old != state:  # the controller sends unchanged states too
                partitions[state.partition] = state
                changed[state.topic] = self.generation
            if state.topic_id is not None and self.topic_ids.get(state.topic) != state.topic_id:
                self.topic_ids[state.topic] = state.topic_id
                changed[state.topic] = self.generation

    def brokers_on(self, listener: str) -> list[tuple[BrokerInfo, EndPoint]]:
        """The live brokers that have `listener`, with its endpoint, by id (Kafka answers a
        client with the addresses of the listener its request came in on)."""
        found = [(b, b.endpoint(listener)) for _id, b in sorted(self.brokers.items())]
        return [(b, e) for b, e in found if e is not None]

    def partition(self, topic: str, partition: int) -> PartitionState | None:
        return self.topics.get(topic, {}).get(partition)

    def topic_by_id(self, topic_id: uuid.UUID) -> str | None:
        """The topic with this id: every topic of a Fetch v13+, Produce v13 or OffsetCommit and
        OffsetFetch v10 is looked up, so the reverse map is made once per update, not a scan
        of every topic per lookup."""
        if self._names_generation != self.generation:
            self._names_by_id = {tid: name for name, tid in self.topic_ids.items()}
            self._names_generation = self.generation
        return self._names_by_id.get(topic_id)
