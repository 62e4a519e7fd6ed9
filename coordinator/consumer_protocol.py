"""The consumer embedded protocol (Kafka's ConsumerProtocol): the subscription a classic
member sends in JoinGroup and the assignment it gets in SyncGroup. A KIP-848 consumer
group reads and writes them for its classic members (mixed groups): it takes their
topics and owned partitions from the subscription and hands them the server-side
assignor's partitions as an assignment.

Both start with an int16 version and are not flexible. Subscription: topics
[string], user data (nullable bytes), v1+ owned partitions [(topic, [int32])], v2+
generation id, v3+ rack id (nullable string). Assignment (every version alike):
partitions [(topic, [int32])], user data. A newer version than these is read as the
newest known, as Kafka does.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from josefk.coordinator.record_io import RecordFormatError, RecordReader, RecordWriter

HIGHEST_VERSION = 3

TopicPartitions = dict[str, frozenset[int]]


@dataclass(frozen=True)
class Subscription:
    topics: tuple[str, ...]
    owned: TopicPartitions
    rack_id: str | None = None


def version_of(data: bytes) -> int:
    """The version a member wrote its subscription in (what its assignment is written in)."""
    if len(data) < 2:
        raise RecordFormatError("consumer protocol metadata shorter than its version")
    version = struct.unpack_from(">h", data)[0]
    if version < 0:
        raise RecordFormatError(f"consumer protocol version {version}")
    return min(version, HIGHEST_VERSION)


def _read_partitions(r: RecordReader) -> TopicPartitions:
    out: dict[str, frozenset[int]] = {}
    for _ in range(max(r.int32(), 0)):
        topic = r.string() or ""
        partitions = frozenset(r.int32() for _ in range(max(r.int32(), 0)))
        out[topic] = out.get(topic, frozenset()) | partitions
    return out


def read_subscription(data: bytes) -> Subscription:
    """Raise RecordFormatError (or struct.error) for bytes that are no subscription."""
    version = version_of(data)
    r = RecordReader(data)
    r.int16()
    topics = tuple(r.string() or "" for _ in range(max(r.int32(), 0)))
    r.bytes_()  # user data: the client-side assignors', of no use to the server-side one
    owned = _read_partitions(r) if version >= 1 else {}
    if version >= 2:
        r.int32()  # generation id
    rack_id = r.string() if version >= 3 else None
    return Subscription(topics, owned, rack_id)


def write_assignment(partitions: TopicPartitions, version: int) -> bytes:
    w = RecordWriter().int16(version).int32(sum(1 for ps in partitions.values() if ps))
    for topic in sorted(partitions):
        if partitions[topic]:
            w.string(topic).int32(len(partitions[topic]))
            for p in sorted(partitions[topic]):
                w.int32(p)
    return bytes(w.bytes_(None).buf)


def read_assignment(data: bytes) -> tuple[TopicPartitions, bytes | None]:
    """The partitions and the user data (a custom client-side assignor's) of an
    assignment; an empty byte string is the empty assignment."""
    if not data:
        return {}, None
    version_of(data)
    r = RecordReader(data)
    r.int16()
    partitions = _read_partitions(r)
    return partitions, r.bytes_() if not r.at_end() else None
