"""FetchSnapshotResponse: generated from Kafka 3.9.2 and 4.4.0's FetchSnapshotResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_records,
    read_compact_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uvarint,
    version_error,
    write_compact_bytes,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["FetchSnapshotResponse", "TopicSnapshot", "PartitionSnapshot", "SnapshotId", "LeaderIdAndEpoch", "NodeEndpoint"]

_S0 = Struct(">ih")
_S1 = Struct(">qi")
_S2 = Struct(">qq")
_S3 = Struct(">ii")
_S4 = Struct(">i")
_S5 = Struct(">H")


@dataclass(slots=True)
class SnapshotId:
    """The snapshot endOffset and epoch fetched."""

    end_offset: int = 0
    # versions 0+. The snapshot end offset.
    epoch: int = 0
    # versions 0+. The snapshot epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """The leader of the partition at the time of the snapshot."""

    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionSnapshot:
    """The partitions to fetch."""

    index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no fetch error.
    snapshot_id: SnapshotId = field(default_factory=SnapshotId)
    # versions 0+. The snapshot endOffset and epoch fetched.
    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    # versions 0+; tag 0 in 0+. The leader of the partition at the time of the snapshot.
    size: int = 0
    # versions 0+. The total size of the snapshot.
    position: int = 0
    # versions 0+. The starting byte position within the snapshot included in the Bytes field.
    unaligned_records: bytes | memoryview = b""
    # versions 0+. Snapshot data in records format which may not be aligned on an offset boundary.
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
class NodeEndpoint:
    """Endpoints for all current-leaders enumerated in PartitionSnapshot."""

    node_id: int = 0
    # versions 1+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 1+. The node's hostname.
    port: int = 0
    # versions 1+. The node's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchSnapshotResponse(ApiMessage):
    """FetchSnapshotResponse response"""

    API_KEY: ClassVar[int] = 59
    NAME: ClassVar[str] = "FetchSnapshotResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top level response error code.
    topics: list[TopicSnapshot] = field(default_factory=list)
    # versions 0+. The topics to fetch.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 1+; tag 0 in 1+. Endpoints for all current-leaders enumerated in PartitionSnapshot.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchSnapshotResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FetchSnapshotResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchSnapshotResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FetchSnapshotResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FetchSnapshotResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


# What tagged and version-gated struct fields are compared with; never handed out.
_DEFAULT_LeaderIdAndEpoch = LeaderIdAndEpoch()


def _decode_snapshot_id_v0(buf: memoryview, pos: int) -> tuple[SnapshotId, int]:
    f_end_offset, f_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SnapshotId(f_end_offset, f_epoch, _unknown), pos


def _decode_leader_id_and_epoch_v0(buf: memoryview, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    f_leader_id, f_leader_epoch = _S3.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, _unknown), pos


def _decode_partition_snapshot_v0(buf: memoryview, pos: int) -> tuple[PartitionSnapshot, int]:
    f_snapshot_id: SnapshotId
    f_unaligned_records: bytes | memoryview
    f_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_snapshot_id, pos = _decode_snapshot_id_v0(buf, pos)
    f_size, f_position = _S2.unpack_from(buf, pos)
    pos += 16
    f_unaligned_records, pos = read_compact_records(buf, pos, "unalignedRecords")
    f_current_leader: LeaderIdAndEpoch = LeaderIdAndEpoch()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_current_leader, pos = _decode_leader_id_and_epoch_v0(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return PartitionSnapshot(f_index, f_error_code, f_snapshot_id, f_current_leader, f_size, f_position, f_unaligned_records, _unknown), pos


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


def _decode_fetch_snapshot_response_v0(buf: memoryview, pos: int) -> tuple[FetchSnapshotResponse, int]:
    f_topics: list[TopicSnapshot]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_snapshot_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchSnapshotResponse(f_throttle_time_ms, f_error_code, f_topics, [], _unknown), pos


def _decode_node_endpoint_v1(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_node_id, = _S4.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S5.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, _unknown), pos


def _decode_fetch_snapshot_response_v1(buf: memoryview, pos: int) -> tuple[FetchSnapshotResponse, int]:
    f_topics: list[TopicSnapshot]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_snapshot_v0(buf, pos)
            f_topics.append(e_topics)
    f_node_endpoints: list[NodeEndpoint] = []
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_node_endpoints, pos = read_compact_array_length(buf, pos)
                if n_node_endpoints < 0:
                    raise null_field("nodeEndpoints")
                else:
                    f_node_endpoints = []
                    for _ in range(n_node_endpoints):
                        e_node_endpoints, pos = _decode_node_endpoint_v1(buf, pos)
                        f_node_endpoints.append(e_node_endpoints)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchSnapshotResponse(f_throttle_time_ms, f_error_code, f_topics, f_node_endpoints, _unknown), pos


def _encode_snapshot_id_v0(m: SnapshotId, out: bytearray) -> None:
    out += _S1.pack(m.end_offset, m.epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_id_and_epoch_v0(m: LeaderIdAndEpoch, out: bytearray) -> None:
    out += _S3.pack(m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_snapshot_v0(m: PartitionSnapshot, out: bytearray) -> None:
    out += _S0.pack(m.index, m.error_code)
    _encode_snapshot_id_v0(m.snapshot_id, out)
    out += _S2.pack(m.size, m.position)
    write_compact_bytes(out, m.unaligned_records)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        _t = bytearray()
        _encode_leader_id_and_epoch_v0(m.current_leader, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_topic_snapshot_v0(m: TopicSnapshot, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_snapshot_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_snapshot_response_v0(m: FetchSnapshotResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchSnapshotResponse", "NodeEndpoints", 0)
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_snapshot_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v1(m: NodeEndpoint, out: bytearray) -> None:
    out += _S4.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S5.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_snapshot_response_v1(m: FetchSnapshotResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_snapshot_v0(e_topics, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v1(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FetchSnapshotResponse, int]]] = {
    0: _decode_fetch_snapshot_response_v0,
    1: _decode_fetch_snapshot_response_v1,
}
_ENCODERS: dict[int, Callable[[FetchSnapshotResponse, bytearray], None]] = {
    0: _encode_fetch_snapshot_response_v0,
    1: _encode_fetch_snapshot_response_v1,
}
