"""OffsetForLeaderEpochRequest: generated from Kafka 3.9.2 and 4.4.0's OffsetForLeaderEpochRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["OffsetForLeaderEpochRequest", "OffsetForLeaderTopic", "OffsetForLeaderPartition"]

_S0 = Struct(">ii")
_S1 = Struct(">iii")
_S2 = Struct(">i")


@dataclass(slots=True)
class OffsetForLeaderPartition:
    """Each partition to get offsets for."""

    partition: int = 0
    # versions 0+. The partition index.
    current_leader_epoch: int = -1
    # versions 2+; ignorable. An epoch used to fence consumers/replicas with old metadata. If the epoch provided by the client is larger than the current epoch known to the broker, then the UNKNOWN_LEADER_EPOCH error code will be returned. If the provided epoch is smaller, then the FENCED_LEADER_EPOCH error code will be returned.
    leader_epoch: int = 0
    # versions 0+. The epoch to look up an offset for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetForLeaderTopic:
    """Each topic to get offsets for."""

    topic: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[OffsetForLeaderPartition] = field(default_factory=list)
    # versions 0+. Each partition to get offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class OffsetForLeaderEpochRequest(ApiMessage):
    """OffsetForLeaderEpochRequest request"""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = "OffsetForLeaderEpochRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    replica_id: int = -2
    # versions 3+; ignorable; entity brokerId. The broker ID of the follower, of -1 if this request is from a consumer.
    topics: list[OffsetForLeaderTopic] = field(default_factory=list)
    # versions 0+. Each topic to get offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetForLeaderEpochRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[OffsetForLeaderEpochRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"OffsetForLeaderEpochRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"OffsetForLeaderEpochRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> OffsetForLeaderEpochRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_offset_for_leader_partition_v0(buf: memoryview, pos: int) -> tuple[OffsetForLeaderPartition, int]:
    f_partition, f_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    return OffsetForLeaderPartition(f_partition, -1, f_leader_epoch, []), pos


def _decode_offset_for_leader_topic_v0(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopic, int]:
    f_topic: str
    f_partitions: list[OffsetForLeaderPartition]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_for_leader_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetForLeaderTopic(f_topic, f_partitions, []), pos


def _decode_offset_for_leader_epoch_request_v0(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    f_topics: list[OffsetForLeaderTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochRequest(-2, f_topics, []), pos


def _decode_offset_for_leader_partition_v2(buf: memoryview, pos: int) -> tuple[OffsetForLeaderPartition, int]:
    f_partition, f_current_leader_epoch, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    return OffsetForLeaderPartition(f_partition, f_current_leader_epoch, f_leader_epoch, []), pos


def _decode_offset_for_leader_topic_v2(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopic, int]:
    f_topic: str
    f_partitions: list[OffsetForLeaderPartition]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_for_leader_partition_v2(buf, pos)
            f_partitions.append(e_partitions)
    return OffsetForLeaderTopic(f_topic, f_partitions, []), pos


def _decode_offset_for_leader_epoch_request_v2(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    f_topics: list[OffsetForLeaderTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_v2(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochRequest(-2, f_topics, []), pos


def _decode_offset_for_leader_epoch_request_v3(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    f_topics: list[OffsetForLeaderTopic]
    f_replica_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_v2(buf, pos)
            f_topics.append(e_topics)
    return OffsetForLeaderEpochRequest(f_replica_id, f_topics, []), pos


def _decode_offset_for_leader_partition_v4(buf: memoryview, pos: int) -> tuple[OffsetForLeaderPartition, int]:
    f_partition, f_current_leader_epoch, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetForLeaderPartition(f_partition, f_current_leader_epoch, f_leader_epoch, _unknown), pos


def _decode_offset_for_leader_topic_v4(buf: memoryview, pos: int) -> tuple[OffsetForLeaderTopic, int]:
    f_topic: str
    f_partitions: list[OffsetForLeaderPartition]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_offset_for_leader_partition_v4(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetForLeaderTopic(f_topic, f_partitions, _unknown), pos


def _decode_offset_for_leader_epoch_request_v4(buf: memoryview, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    f_topics: list[OffsetForLeaderTopic]
    f_replica_id, = _S2.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_offset_for_leader_topic_v4(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return OffsetForLeaderEpochRequest(f_replica_id, f_topics, _unknown), pos


def _encode_offset_for_leader_partition_v0(m: OffsetForLeaderPartition, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.leader_epoch)


def _encode_offset_for_leader_topic_v0(m: OffsetForLeaderTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_for_leader_partition_v0(e_partitions, out)


def _encode_offset_for_leader_epoch_request_v0(m: OffsetForLeaderEpochRequest, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_v0(e_topics, out)


def _encode_offset_for_leader_partition_v2(m: OffsetForLeaderPartition, out: bytearray) -> None:
    out += _S1.pack(m.partition, m.current_leader_epoch, m.leader_epoch)


def _encode_offset_for_leader_topic_v2(m: OffsetForLeaderTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_offset_for_leader_partition_v2(e_partitions, out)


def _encode_offset_for_leader_epoch_request_v2(m: OffsetForLeaderEpochRequest, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_v2(e_topics, out)


def _encode_offset_for_leader_epoch_request_v3(m: OffsetForLeaderEpochRequest, out: bytearray) -> None:
    out += _S2.pack(m.replica_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_v2(e_topics, out)


def _encode_offset_for_leader_partition_v4(m: OffsetForLeaderPartition, out: bytearray) -> None:
    out += _S1.pack(m.partition, m.current_leader_epoch, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_for_leader_topic_v4(m: OffsetForLeaderTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_offset_for_leader_partition_v4(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_offset_for_leader_epoch_request_v4(m: OffsetForLeaderEpochRequest, out: bytearray) -> None:
    out += _S2.pack(m.replica_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_offset_for_leader_topic_v4(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[OffsetForLeaderEpochRequest, int]]] = {
    0: _decode_offset_for_leader_epoch_request_v0,
    1: _decode_offset_for_leader_epoch_request_v0,
    2: _decode_offset_for_leader_epoch_request_v2,
    3: _decode_offset_for_leader_epoch_request_v3,
    4: _decode_offset_for_leader_epoch_request_v4,
}
_ENCODERS: dict[int, Callable[[OffsetForLeaderEpochRequest, bytearray], None]] = {
    0: _encode_offset_for_leader_epoch_request_v0,
    1: _encode_offset_for_leader_epoch_request_v0,
    2: _encode_offset_for_leader_epoch_request_v2,
    3: _encode_offset_for_leader_epoch_request_v3,
    4: _encode_offset_for_leader_epoch_request_v4,
}
