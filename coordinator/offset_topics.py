"""How the offset APIs name topics: OffsetCommit and OffsetFetch by name, or by topic id
from v10 (KIP-848), an id no topic has standing in for a name that cannot exist; and their
responses, grouped by topic."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Protocol, TypeVar

V = TypeVar("V")

# OffsetCommit and OffsetFetch name topics by id from v10 (KIP-848).
TOPIC_IDS_VERSION = 10
UNKNOWN_ID = "<unknown topic id {}>"  # not a legal topic name: stands for an id no topic has


@dataclass(frozen=True)
class NamedTopic:
    """A requested topic by name, for a request that named it by id."""

    name: str
    partition_indexes: list[int]


class TopicRef(Protocol):
    """A requested topic as OffsetCommit and OffsetFetch (v8+) name it: by name, or by id (v10+)."""

    @property
    def name(self) -> str: ...

    @property
    def topic_id(self) -> uuid.UUID: ...


class RequestedPartitions(Protocol):
    """A requested topic's name and partitions: OffsetFetch's topics, or a NamedTopic."""

    @property
    def name(self) -> str: ...

    @property
    def partition_indexes(self) -> list[int]: ...


def is_unknown_id(name: str) -> bool:
    return name.startswith("<")


def by_topic(pairs: list[tuple[tuple[str, int], V]]) -> dict[str, list[tuple[int, V]]]:
    out: dict[str, list[tuple[int, V]]] = {}
    for (topic, partition), value in pairs:
        out.setdefault(topic, []).append((partition, value))
    return out
