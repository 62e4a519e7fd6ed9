"""AlterPartitionRequest: generated from Kafka 3.9.2 and 4.4.0's AlterPartitionRequest.json by
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
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterPartitionRequest", "TopicData", "PartitionData", "BrokerState"]

_S0 = Struct(">iq")
_S1 = Struct(">ii")
_S2 = Struct(">i")
_S3 = Struct(">bi")


@dataclass(slots=True)
class BrokerState:
    """The ISR for this partition."""

    broker_id: int = 0
    # versions 3+; entity brokerId. The ID of the broker.
    broker_epoch: int = -1
    # versions 3+. The epoch of the broker. It will be -1 if the epoch check is not supported.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The partitions to alter ISRs for."""

    partition_index: int = 0
    # versions 0+. The partition index.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of this partition.
    new_isr: list[int] = field(default_factory=list)
    # versions 0-2; entity brokerId. The ISR for this partition. Deprecated since version 3.
    new_isr_with_epochs: list[BrokerState] = field(default_factory=list)
    # versions 3+. The ISR for this partition.
    leader_recovery_state: int = 0
    # versions 1+. 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    partition_epoch: int = 0
    # versions 0+. The expected epoch of the partition which is being updated.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topics to alter ISRs for."""

    topic_name: str = ''
    # versions 0-1; ignorable; entity topicName. The name of the topic to alter ISRs for
    topic_id: UUID = ZERO_UUID
    # versions 2+; ignorable. The ID of the topic to alter ISRs for.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partitions to alter ISRs for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterPartitionRequest(ApiMessage):
    """AlterPartitionRequest request"""

    API_KEY: ClassVar[int] = 56
    NAME: ClassVar[str] = "AlterPartitionRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    broker_id: int = 0
    # versions 0+; entity brokerId. The ID of the requesting broker.
    broker_epoch: int = -1
    # versions 0+. The epoch of the requesting broker.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topics to alter ISRs for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterPartitionRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterPartitionRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_new_isr: list[int]
    f_partition_index, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    n_new_isr, pos = read_compact_array_length(buf, pos)
    if n_new_isr < 0:
        raise null_field("newIsr")
    else:
        f_new_isr = list(unpack_from(f">{n_new_isr}i", buf, pos))
        pos += 4 * n_new_isr
    f_partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_leader_epoch, f_new_isr, [], 0, f_partition_epoch, _unknown), pos


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


def _decode_alter_partition_request_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    f_topics: list[TopicData]
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(f_broker_id, f_broker_epoch, f_topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_new_isr: list[int]
    f_partition_index, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    n_new_isr, pos = read_compact_array_length(buf, pos)
    if n_new_isr < 0:
        raise null_field("newIsr")
    else:
        f_new_isr = list(unpack_from(f">{n_new_isr}i", buf, pos))
        pos += 4 * n_new_isr
    f_leader_recovery_state, f_partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_leader_epoch, f_new_isr, [], f_leader_recovery_state, f_partition_epoch, _unknown), pos


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


def _decode_alter_partition_request_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    f_topics: list[TopicData]
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(f_broker_id, f_broker_epoch, f_topics, _unknown), pos


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


def _decode_alter_partition_request_v2(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    f_topics: list[TopicData]
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(f_broker_id, f_broker_epoch, f_topics, _unknown), pos


def _decode_broker_state_v3(buf: memoryview, pos: int) -> tuple[BrokerState, int]:
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerState(f_broker_id, f_broker_epoch, _unknown), pos


def _decode_partition_data_v3(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_new_isr_with_epochs: list[BrokerState]
    f_partition_index, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    n_new_isr_with_epochs, pos = read_compact_array_length(buf, pos)
    if n_new_isr_with_epochs < 0:
        raise null_field("newIsrWithEpochs")
    else:
        f_new_isr_with_epochs = []
        for _ in range(n_new_isr_with_epochs):
            e_new_isr_with_epochs, pos = _decode_broker_state_v3(buf, pos)
            f_new_isr_with_epochs.append(e_new_isr_with_epochs)
    f_leader_recovery_state, f_partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_leader_epoch, [], f_new_isr_with_epochs, f_leader_recovery_state, f_partition_epoch, _unknown), pos


def _decode_topic_data_v3(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionData]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v3(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData('', f_topic_id, f_partitions, _unknown), pos


def _decode_alter_partition_request_v3(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    f_topics: list[TopicData]
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v3(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionRequest(f_broker_id, f_broker_epoch, f_topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    if len(m.new_isr_with_epochs) > 0:
        raise version_error("PartitionData", "NewIsrWithEpochs", 0)
    if m.leader_recovery_state != 0:
        raise version_error("PartitionData", "LeaderRecoveryState", 0)
    out += _S1.pack(m.partition_index, m.leader_epoch)
    write_uvarint(out, len(m.new_isr) + 1)
    out += pack(f">{len(m.new_isr)}i", *m.new_isr)
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


def _encode_alter_partition_request_v0(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    if len(m.new_isr_with_epochs) > 0:
        raise version_error("PartitionData", "NewIsrWithEpochs", 1)
    out += _S1.pack(m.partition_index, m.leader_epoch)
    write_uvarint(out, len(m.new_isr) + 1)
    out += pack(f">{len(m.new_isr)}i", *m.new_isr)
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


def _encode_alter_partition_request_v1(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    if len(m.new_isr_with_epochs) > 0:
        raise version_error("PartitionData", "NewIsrWithEpochs", 2)
    out += _S1.pack(m.partition_index, m.leader_epoch)
    write_uvarint(out, len(m.new_isr) + 1)
    out += pack(f">{len(m.new_isr)}i", *m.new_isr)
    out += _S3.pack(m.leader_recovery_state, m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_request_v2(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_state_v3(m: BrokerState, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v3(m: PartitionData, out: bytearray) -> None:
    if len(m.new_isr) > 0:
        raise version_error("PartitionData", "NewIsr", 3)
    out += _S1.pack(m.partition_index, m.leader_epoch)
    write_uvarint(out, len(m.new_isr_with_epochs) + 1)
    for e_new_isr_with_epochs in m.new_isr_with_epochs:
        _encode_broker_state_v3(e_new_isr_with_epochs, out)
    out += _S3.pack(m.leader_recovery_state, m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v3(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v3(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_request_v3(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v3(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterPartitionRequest, int]]] = {
    0: _decode_alter_partition_request_v0,
    1: _decode_alter_partition_request_v1,
    2: _decode_alter_partition_request_v2,
    3: _decode_alter_partition_request_v3,
}
_ENCODERS: dict[int, Callable[[AlterPartitionRequest, bytearray], None]] = {
    0: _encode_alter_partition_request_v0,
    1: _encode_alter_partition_request_v1,
    2: _encode_alter_partition_request_v2,
    3: _encode_alter_partition_request_v3,
}
