"""FetchSnapshotRequest: generated from Kafka 3.9.2 and 4.4.0's FetchSnapshotRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["FetchSnapshotRequest", "TopicSnapshot", "PartitionSnapshot", "SnapshotId"]

_S0 = Struct(">ii")
_S1 = Struct(">qi")
_S2 = Struct(">q")


@dataclass(slots=True)
class SnapshotId:
    """The snapshot endOffset and epoch to fetch."""

    end_offset: int = 0
    # versions 0+. The end offset of the snapshot.
    epoch: int = 0
    # versions 0+. The epoch of the snapshot.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionSnapshot:
    """The partitions to fetch."""

    partition: int = 0
    # versions 0+. The partition index.
    current_leader_epoch: int = 0
    # versions 0+. The current leader epoch of the partition, -1 for unknown leader epoch.
    snapshot_id: SnapshotId = field(default_factory=SnapshotId)
    # versions 0+. The snapshot endOffset and epoch to fetch.
    position: int = 0
    # versions 0+. The byte position within the snapshot to start fetching from.
    replica_directory_id: UUID = ZERO_UUID
    # versions 1+; tag 0 in 1+; ignorable. The directory id of the follower fetching.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicSnapshot:
    """The topics to fetch."""

    name: str = ''
    # versions 0+; entity topicName. The name of the topic to fetch.
    partitions: list[PartitionSnapshot] = field(default_factory=list)
    # versions 0+. The partitions to fetch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchSnapshotRequest(ApiMessage):
    """FetchSnapshotRequest request"""

    API_KEY: ClassVar[int] = 59
    NAME: ClassVar[str] = "FetchSnapshotRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    cluster_id: str | None = None
    # versions 0+; nullable 0+; tag 0 in 0+. The clusterId if known, this is used to validate metadata fetches prior to broker registration.
    replica_id: int = -1
    # versions 0+; entity brokerId. The broker ID of the follower.
    max_bytes: int = 2147483647
    # versions 0+. The maximum bytes to fetch from all of the snapshots.
    topics: list[TopicSnapshot] = field(default_factory=list)
    # versions 0+. The topics to fetch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchSnapshotRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FetchSnapshotRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchSnapshotRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FetchSnapshotRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FetchSnapshotRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_snapshot_id_v0(buf: memoryview, pos: int) -> tuple[SnapshotId, int]:
    f_end_offset, f_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SnapshotId(f_end_offset, f_epoch, _unknown), pos


def _decode_partition_snapshot_v0(buf: memoryview, pos: int) -> tuple[PartitionSnapshot, int]:
    f_snapshot_id: SnapshotId
    f_partition, f_current_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    f_snapshot_id, pos = _decode_snapshot_id_v0(buf, pos)
    f_position, = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionSnapshot(f_partition, f_current_leader_epoch, f_snapshot_id, f_position, ZERO_UUID, _unknown), pos


def _decode_topic_snapshot_v0(buf: memoryview, pos: int) -> tuple[TopicSnapshot, int]:
    f_name: str
    f_partitions: list[PartitionSnapshot]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_snapshot_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicSnapshot(f_name, f_partitions, _unknown), pos


def _decode_fetch_snapshot_request_v0(buf: memoryview, pos: int) -> tuple[FetchSnapshotRequest, int]:
    f_topics: list[TopicSnapshot]
    f_replica_id, f_max_bytes = _S0.unpack_from(buf, pos)
    pos += 8
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_snapshot_v0(buf, pos)
            f_topics.append(e_topics)
    f_cluster_id: str | None = None
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchSnapshotRequest(f_cluster_id, f_replica_id, f_max_bytes, f_topics, _unknown), pos


def _decode_partition_snapshot_v1(buf: memoryview, pos: int) -> tuple[PartitionSnapshot, int]:
    f_snapshot_id: SnapshotId
    f_partition, f_current_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    f_snapshot_id, pos = _decode_snapshot_id_v0(buf, pos)
    f_position, = _S2.unpack_from(buf, pos)
    pos += 8
    f_replica_directory_id: UUID = ZERO_UUID
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_replica_directory_id, pos = read_uuid(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return PartitionSnapshot(f_partition, f_current_leader_epoch, f_snapshot_id, f_position, f_replica_directory_id, _unknown), pos


def _decode_topic_snapshot_v1(buf: memoryview, pos: int) -> tuple[TopicSnapshot, int]:
    f_name: str
    f_partitions: list[PartitionSnapshot]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_snapshot_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicSnapshot(f_name, f_partitions, _unknown), pos


def _decode_fetch_snapshot_request_v1(buf: memoryview, pos: int) -> tuple[FetchSnapshotRequest, int]:
    f_topics: list[TopicSnapshot]
    f_replica_id, f_max_bytes = _S0.unpack_from(buf, pos)
    pos += 8
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_snapshot_v1(buf, pos)
            f_topics.append(e_topics)
    f_cluster_id: str | None = None
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchSnapshotRequest(f_cluster_id, f_replica_id, f_max_bytes, f_topics, _unknown), pos


def _encode_snapshot_id_v0(m: SnapshotId, out: bytearray) -> None:
    out += _S1.pack(m.end_offset, m.epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_snapshot_v0(m: PartitionSnapshot, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.current_leader_epoch)
    _encode_snapshot_id_v0(m.snapshot_id, out)
    out += _S2.pack(m.position)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_snapshot_v0(m: TopicSnapshot, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_snapshot_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_snapshot_request_v0(m: FetchSnapshotRequest, out: bytearray) -> None:
    out += _S0.pack(m.replica_id, m.max_bytes)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_snapshot_v0(e_topics, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_partition_snapshot_v1(m: PartitionSnapshot, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.current_leader_epoch)
    _encode_snapshot_id_v0(m.snapshot_id, out)
    out += _S2.pack(m.position)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.replica_directory_id != ZERO_UUID:
        _t = bytearray()
        _t += m.replica_directory_id.bytes
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_topic_snapshot_v1(m: TopicSnapshot, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_snapshot_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_snapshot_request_v1(m: FetchSnapshotRequest, out: bytearray) -> None:
    out += _S0.pack(m.replica_id, m.max_bytes)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_snapshot_v1(e_topics, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FetchSnapshotRequest, int]]] = {
    0: _decode_fetch_snapshot_request_v0,
    1: _decode_fetch_snapshot_request_v1,
}
_ENCODERS: dict[int, Callable[[FetchSnapshotRequest, bytearray], None]] = {
    0: _encode_fetch_snapshot_request_v0,
    1: _encode_fetch_snapshot_request_v1,
}
