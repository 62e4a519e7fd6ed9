"""WriteShareGroupStateRequest: generated from Kafka 3.9.2 and 4.4.0's WriteShareGroupStateRequest.json by
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
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["WriteShareGroupStateRequest", "WriteStateData", "PartitionData", "StateBatch"]

_S0 = Struct(">iiiq")
_S1 = Struct(">qqbh")
_S2 = Struct(">iiiqi")


@dataclass(slots=True)
class StateBatch:
    """The state batches for the share-partition."""

    first_offset: int = 0
    # versions 0+. The first offset of this state batch.
    last_offset: int = 0
    # versions 0+. The last offset of this state batch.
    delivery_state: int = 0
    # versions 0+. The delivery state - 0:Available,2:Acked,4:Archived.
    delivery_count: int = 0
    # versions 0+. The delivery count.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The data for the partitions."""

    partition: int = 0
    # versions 0+. The partition index.
    state_epoch: int = 0
    # versions 0+. The state epoch of the share-partition.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of the share-partition.
    start_offset: int = 0
    # versions 0+. The share-partition start offset, or -1 if the start offset is not being written.
    state_batches: list[StateBatch] = field(default_factory=list)
    # versions 0+. The state batches for the share-partition.
    delivery_complete_count: int = -1
    # versions 1+; ignorable. The number of offsets greater than or equal to share-partition start offset for which delivery has been completed.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WriteStateData:
    """The data for the topics."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The topic identifier.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The data for the partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WriteShareGroupStateRequest(ApiMessage):
    """WriteShareGroupStateRequest request"""

    API_KEY: ClassVar[int] = 85
    NAME: ClassVar[str] = "WriteShareGroupStateRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+. The group identifier.
    topics: list[WriteStateData] = field(default_factory=list)
    # versions 0+. The data for the topics.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteShareGroupStateRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[WriteShareGroupStateRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteShareGroupStateRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"WriteShareGroupStateRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> WriteShareGroupStateRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_state_batch_v0(buf: memoryview, pos: int) -> tuple[StateBatch, int]:
    f_first_offset, f_last_offset, f_delivery_state, f_delivery_count = _S1.unpack_from(buf, pos)
    pos += 19
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, _unknown), pos


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_state_batches: list[StateBatch]
    f_partition, f_state_epoch, f_leader_epoch, f_start_offset = _S0.unpack_from(buf, pos)
    pos += 20
    n_state_batches, pos = read_compact_array_length(buf, pos)
    if n_state_batches < 0:
        raise null_field("stateBatches")
    else:
        f_state_batches = []
        for _ in range(n_state_batches):
            e_state_batches, pos = _decode_state_batch_v0(buf, pos)
            f_state_batches.append(e_state_batches)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition, f_state_epoch, f_leader_epoch, f_start_offset, f_state_batches, -1, _unknown), pos


def _decode_write_state_data_v0(buf: memoryview, pos: int) -> tuple[WriteStateData, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionData]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteStateData(f_topic_id, f_partitions, _unknown), pos


def _decode_write_share_group_state_request_v0(buf: memoryview, pos: int) -> tuple[WriteShareGroupStateRequest, int]:
    f_group_id: str
    f_topics: list[WriteStateData]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_write_state_data_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteShareGroupStateRequest(f_group_id, f_topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_state_batches: list[StateBatch]
    f_partition, f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count = _S2.unpack_from(buf, pos)
    pos += 24
    n_state_batches, pos = read_compact_array_length(buf, pos)
    if n_state_batches < 0:
        raise null_field("stateBatches")
    else:
        f_state_batches = []
        for _ in range(n_state_batches):
            e_state_batches, pos = _decode_state_batch_v0(buf, pos)
            f_state_batches.append(e_state_batches)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition, f_state_epoch, f_leader_epoch, f_start_offset, f_state_batches, f_delivery_complete_count, _unknown), pos


def _decode_write_state_data_v1(buf: memoryview, pos: int) -> tuple[WriteStateData, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionData]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteStateData(f_topic_id, f_partitions, _unknown), pos


def _decode_write_share_group_state_request_v1(buf: memoryview, pos: int) -> tuple[WriteShareGroupStateRequest, int]:
    f_group_id: str
    f_topics: list[WriteStateData]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_write_state_data_v1(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteShareGroupStateRequest(f_group_id, f_topics, _unknown), pos


def _encode_state_batch_v0(m: StateBatch, out: bytearray) -> None:
    out += _S1.pack(m.first_offset, m.last_offset, m.delivery_state, m.delivery_count)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.state_epoch, m.leader_epoch, m.start_offset)
    write_uvarint(out, len(m.state_batches) + 1)
    for e_state_batches in m.state_batches:
        _encode_state_batch_v0(e_state_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_state_data_v0(m: WriteStateData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_share_group_state_request_v0(m: WriteShareGroupStateRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_write_state_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S2.pack(m.partition, m.state_epoch, m.leader_epoch, m.start_offset, m.delivery_complete_count)
    write_uvarint(out, len(m.state_batches) + 1)
    for e_state_batches in m.state_batches:
        _encode_state_batch_v0(e_state_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_state_data_v1(m: WriteStateData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_share_group_state_request_v1(m: WriteShareGroupStateRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_write_state_data_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[WriteShareGroupStateRequest, int]]] = {
    0: _decode_write_share_group_state_request_v0,
    1: _decode_write_share_group_state_request_v1,
}
_ENCODERS: dict[int, Callable[[WriteShareGroupStateRequest, bytearray], None]] = {
    0: _encode_write_share_group_state_request_v0,
    1: _encode_write_share_group_state_request_v1,
}
