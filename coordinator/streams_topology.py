"""A streams group's topology and its configuration against the cluster's topics (Kafka's
StreamsTopology, topics/InternalTopicManager, RepartitionTopics, ChangelogTopics and
CopartitionedTopicsEnforcer).

The first member to join sends the topology: its subtopologies, each with its source
topics, the repartition topics it reads and writes, and its changelog topics. Configuring
it derives what the broker must know to assign tasks: every source topic must exist; a
repartition topic without a fixed partition count gets the largest task count of the
subtopologies writing into it; a subtopology has as many tasks as its input topic with the
most partitions; a changelog topic has one partition per task of its subtopology; topics in
a copartition group must agree. Internal topics that do not exist yet are reported, to be
created by the broker (Kafka 4.x creates them from the heartbeat), and until they exist the
group is not ready and assigns no task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from josefk.utils.java_format import hash_map_order

# StreamsGroupHeartbeatResponse.Status codes
STALE_TOPOLOGY = 0
MISSING_SOURCE_TOPICS = 1
INCORRECTLY_PARTITIONED_TOPICS = 2
MISSING_INTERNAL_TOPICS = 3
SHUTDOWN_APPLICATION = 4
ASSIGNMENT_DELAYED = 5


@dataclass(frozen=True)
class TopicInfo:
    name: str
    partitions: int = 0  # 0: derived by the broker
    replication_factor: int = 0  # 0: the broker's default.replication.factor
    configs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Subtopology:
    subtopology_id: str
    source_topics: tuple[str, ...] = ()
    repartition_sink_topics: tuple[str, ...] = ()
    state_changelog_topics: tuple[TopicInfo, ...] = ()
    repartition_source_topics: tuple[TopicInfo, ...] = ()
    # Each group: indexes into source_topics and into repartition_source_topics.
    copartition_groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class Topology:
    epoch: int
    subtopologies: tuple[Subtopology, ...]

    def topic_names(self) -> set[str]:
        """Every topic whose partition count the configuration depends on."""
        names: set[str] = set()
        for s in self.subtopologies:
            names.update(s.source_topics)
            names.update(t.name for t in s.repartition_source_topics)
            names.update(t.name for t in s.state_changelog_topics)
        return names


@dataclass(frozen=True)
class Status:
    code: int
    detail: str


@dataclass(frozen=True)
class ConfiguredTopology:
    ready: bool
    task_counts: Mapping[str, int] = field(default_factory=dict)  # subtopology id -> number of tasks
    repartition_partitions: Mapping[str, int] = field(default_factory=dict)
    to_create: tuple[TopicInfo, ...] = ()  # missing internal topics, with their partition counts
    statuses: tuple[Status, ...] = ()


def java_set_order(names: list[str]) -> list[str]:
    """`names` in the order a java.util.HashSet of them iterates: the order Kafka's status
    details list topics in, which clients and operators see."""
    return hash_map_order(list(dict.fromkeys(names)))


def _repartition_counts(topology: Topology, partitions: Mapping[str, int]) -> dict[str, int] | None:
    """Partition counts of the repartition topics; None if some cannot be derived."""
    counts = {t.name: t.partitions for s in topology.subtopologies for t in s.repartition_source_topics
              if t.partitions > 0}
    wanted = {t.name for s in topology.subtopologies for t in s.repartition_source_topics}
    changed = True
    while changed and not wanted <= set(counts):
        changed = False
        for name in sorted(wanted - set(counts)):
            upstream = [s for s in topology.subtopologies if name in s.repartition_sink_topics]
            inputs = [[partitions.get(t) for t in s.source_topics]
                      + [counts.get(t.name) for t in s.repartition_source_topics] for s in upstream]
            known = [max(n for n in ns if n is not None) for ns in inputs if any(n is not None for n in ns)]
            if known:
                counts[name] = max(known)
                changed = True
    return counts if wanted <= set(counts) else None


def _copartition(topology: Topology, partitions: Mapping[str, int], counts: dict[str, int]) -> list[str]:
    """Enforce the copartition groups: the source topics of a group must have one partition
    count, which the group's repartition topics without a fixed count take; the topics of a
    group that disagree are returned."""
    wrong: list[str] = []
    for s in topology.subtopologies:
        for sources, repartitions in s.copartition_groups:
            names = [s.source_topics[i] for i in sources if i < len(s.source_topics)]
            infos = [s.repartition_source_topics[i] for i in repartitions if i < len(s.repartition_source_topics)]
            external = {partitions[n] for n in names if n in partitions}
            fixed = {t.partitions for t in infos if t.partitions > 0}
            if len(external) > 1 or len(fixed) > 1 or (external and fixed and external != fixed):
                wrong.extend(names + [t.name for t in infos])
                continue
            target = next(iter(external or fixed), None)
            if target is None:
                target = max((counts.get(t.name, 0) for t in infos), default=0)
            for t in infos:
                if t.partitions == 0:
                    counts[t.name] = target
    return sorted(set(wrong))


def configure(topology: Topology, partitions: Mapping[str, int]) -> ConfiguredTopology:
    """Configure `topology` against the cluster's topics (name -> partition count)."""
    missing = sorted({t for s in topology.subtopologies for t in s.source_topics if t not in partitions})
    if missing:
        return ConfiguredTopology(False, statuses=(Status(
            MISSING_SOURCE_TOPICS, f"Source topics {', '.join(java_set_order(missing))} are missing."),))
    counts = _repartition_counts(topology, partitions)
    if counts is None:
        return ConfiguredTopology(False, statuses=(Status(
            MISSING_SOURCE_TOPICS, "The partition counts of the repartition topics cannot be derived."),))
    wrong = _copartition(topology, partitions, counts)
    if wrong:
        return ConfiguredTopology(False, statuses=(Status(
            INCORRECTLY_PARTITIONED_TOPICS,
            f"Following topics are not copartitioned as the topology requires: {', '.join(wrong)}."),))
    tasks = {s.subtopology_id: max([partitions[t] for t in s.source_topics]
                                   + [counts[t.name] for t in s.repartition_source_topics], default=0)
             for s in topology.subtopologies}
    internal: dict[str, TopicInfo] = {}  # Kafka's order: the repartition topics, then the changelogs
    for s in topology.subtopologies:
        for t in s.repartition_source_topics:
            internal[t.name] = TopicInfo(t.name, counts[t.name], t.replication_factor, t.configs)
    for s in topology.subtopologies:
        for t in s.state_changelog_topics:
            internal[t.name] = TopicInfo(t.name, tasks[s.subtopology_id], t.replication_factor, t.configs)
    wrong = sorted(n for n, t in internal.items() if n in partitions and partitions[n] != t.partitions)
    if wrong:
        return ConfiguredTopology(False, statuses=(Status(
            INCORRECTLY_PARTITIONED_TOPICS,
            "Existing internal topics have a partition count other than the topology requires: "
            f"{', '.join(f'{n} ({partitions[n]}, not {internal[n].partitions})' for n in wrong)}."),))
    to_create = tuple(t for t in internal.values() if t.name not in partitions)
    if to_create:
        names = ", ".join(java_set_order([t.name for t in to_create]))
        return ConfiguredTopology(False, tasks, counts, to_create, (Status(
            MISSING_INTERNAL_TOPICS, f"Internal topics are missing: {names}"),))
    return ConfiguredTopology(True, tasks, counts)
