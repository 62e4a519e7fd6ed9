"""AlterPartitionResponse: generated from Kafka 3.9.2 and 4.4.0's AlterPartitionResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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

__all__ = ["AlterPartitionResponse", "TopicData", "PartitionData"]

_S0 = Struct(">ih")
_S1 = Struct(">ihii")
_S2 = Struct(">i")
_S3 = Struct(">bi")


@dataclass(slots=True)
class PartitionData:
    """The responses for each partition."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition level error code.
    leader_id: int = 0
    # versions 0+; entity brokerId. The broker ID of the leader.
    leader_epoch: int = 0
    # versions 0+. The leader epoch.
    isr: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The in-sync replica IDs.
    leader_recovery_state: int = 0
    # versions 1+; ignorable. 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    partition_epoch: int = 0
    # versions 0+. The current epoch for the partition for KRaft controllers.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The responses for each topic."""

    topic_name: str = ''
    # versions 0-1; ignorable; entity topicName. The name of the topic
    topic_id: UUID = ZERO_UUID
    # versions 2+; ignorable. The ID of the topic.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The responses for each partition.
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
    # versions 0+. The top level response error code.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The responses for each topic.
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
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterPartitionResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_isr: list[int]
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    n_isr, pos = read_compact_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_isr, 0, f_partition_epoch, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
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
    return TopicData(f_topic_name, ZERO_UUID, f_partitions, _unknown), pos


def _decode_alter_partition_response_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    f_topics: list[TopicData]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(f_throttle_time_ms, f_error_code, f_topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_isr: list[int]
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    n_isr, pos = read_compact_array_length(buf, pos)
    if n_isr < 0:
        raise null_field("isr")
    else:
        f_isr = list(unpack_from(f">{n_isr}i", buf, pos))
        pos += 4 * n_isr
    f_leader_recovery_state, f_partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_isr, f_leader_recovery_state, f_partition_epoch, _unknown), pos


def _decode_topic_data_v1(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
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
    return TopicData(f_topic_name, ZERO_UUID, f_partitions, _unknown), pos


def _decode_alter_partition_response_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    f_topics: list[TopicData]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v1(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(f_throttle_time_ms, f_error_code, f_topics, _unknown), pos


def _decode_topic_data_v2(buf: memoryview, pos: int) -> tuple[TopicData, int]:
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
    return TopicData('', f_topic_id, f_partitions, _unknown), pos


def _decode_alter_partition_response_v2(buf: memoryview, pos: int) -> tuple[AlterPartitionResponse, int]:
    f_topics: list[TopicData]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionResponse(f_throttle_time_ms, f_error_code, f_topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S2.pack(m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_response_v0(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)
    write_uvarint(out, len(m.isr) + 1)
    out += pack(f">{len(m.isr)}i", *m.isr)
    out += _S3.pack(m.leader_recovery_state, m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v1(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_response_v1(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_response_v2(m: AlterPartitionResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
