"""AlterPartitionResponse: generated from Kafka 3.9.2's AlterPartitionResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterPartitionResponse", "TopicData", "PartitionData"]

_S0 = Struct(">ih")
_S1 = Struct(">ihii")
_S2 = Struct(">i")
_S3 = Struct(">bi")


@dataclass(slots=True)
class PartitionData:
    """A PartitionData in AlterPartitionResponse."""

    partition_index: int = 0
    # versions 0+. The partition index
    error_code: int = 0
    # versions 0+. The partition level error code
    leader_id: int = 0
    # versions 0+. The broker ID of the leader.
    leader_epoch: int = 0
    # versions 0+. The leader epoch.
    isr: list[int] = field(default_factory=list)
    # versions 0+. The in-sync replica IDs.
    leader_recovery_state: int = 0
    # versions 1+; ignorable. 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    partition_epoch: int = 0
    # versions 0+. The current epoch for the partition for KRaft controllers. The current ZK version for the legacy controllers.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """A TopicData in AlterPartitionResponse."""

    topic_name: str = ''
    # versions 0-1; ignorable. The name of the topic
    topic_id: UUID = ZERO_UUID
    # versions 2+; ignorable. The ID of the topic
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterPartitionResponse(ApiMessage):
    """AlterPartitionResponse response"""

    API_KEY: ClassVar[int] = 56
    NAME: ClassVar[str] = "AlterPartitionResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top level response error code
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterPartitionResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionResponse has no version {version}") from None
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _isr: list[int]
    _partition_index, _error_code, _leader_id, _leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    _n_isr, pos = read_compact_array_length(buf, pos)
    if _n_isr < 0:
        raise MessageDecodeError("non-nullable field Isr was null")
    else:
        _isr = list(unpack_from(f">{_n_isr}i", buf, pos))
        pos += 4 * _n_isr
    _partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _error_code, _leader_id, _leader_epoch, _isr, 0, _partition_epoch, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_name: str
    _partitions: list[PartitionData]
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v0(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(_topic_name, ZERO_UUID, _partitions, _unknown), pos


def _decode_alter_partition_response_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    _topics: list[TopicData]
    _throttle_time_ms, _error_code = _S0.unpack_from(buf, pos)
    pos += 6
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v0(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(_throttle_time_ms, _error_code, _topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _isr: list[int]
    _partition_index, _error_code, _leader_id, _leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    _n_isr, pos = read_compact_array_length(buf, pos)
    if _n_isr < 0:
        raise MessageDecodeError("non-nullable field Isr was null")
    else:
        _isr = list(unpack_from(f">{_n_isr}i", buf, pos))
        pos += 4 * _n_isr
    _leader_recovery_state, _partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _error_code, _leader_id, _leader_epoch, _isr, _leader_recovery_state, _partition_epoch, _unknown), pos


def _decode_topic_data_v1(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_name: str
    _partitions: list[PartitionData]
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v1(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(_topic_name, ZERO_UUID, _partitions, _unknown), pos


def _decode_alter_partition_response_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    _topics: list[TopicData]
    _throttle_time_ms, _error_code = _S0.unpack_from(buf, pos)
    pos += 6
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v1(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(_throttle_time_ms, _error_code, _topics, _unknown), pos


def _decode_topic_data_v2(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_id: UUID
    _partitions: list[PartitionData]
    _topic_id, pos = read_uuid(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v1(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData('', _topic_id, _partitions, _unknown), pos


def _decode_alter_partition_response_v2(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    _topics: list[TopicData]
    _throttle_time_ms, _error_code = _S0.unpack_from(buf, pos)
    pos += 6
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v2(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(_throttle_time_ms, _error_code, _topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v0(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_alter_partition_response_v0(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v0(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S3.pack(m.leader_recovery_state, m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v1(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v1(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_alter_partition_response_v1(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v1(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v1(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_alter_partition_response_v2(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v2(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterPartitionResponse, int]]] = {
    0: _decode_alter_partition_response_v0,
    1: _decode_alter_partition_response_v1,
    2: _decode_alter_partition_response_v2,
    3: _decode_alter_partition_response_v2,
}
_ENCODERS: dict[int, Callable[[AlterPartitionResponse, bytearray], None]] = {
    0: _encode_alter_partition_response_v0,
    1: _encode_alter_partition_response_v1,
    2: _encode_alter_partition_response_v2,
    3: _encode_alter_partition_response_v2,
}
