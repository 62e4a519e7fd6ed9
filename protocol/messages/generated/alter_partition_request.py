"""AlterPartitionRequest: generated from Kafka 3.9.2's AlterPartitionRequest.json by
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
    """A BrokerState in AlterPartitionRequest."""

    broker_id: int = 0
    # versions 3+. The ID of the broker.
    broker_epoch: int = -1
    # versions 3+. The epoch of the broker. It will be -1 if the epoch check is not supported.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """A PartitionData in AlterPartitionRequest."""

    partition_index: int = 0
    # versions 0+. The partition index
    leader_epoch: int = 0
    # versions 0+. The leader epoch of this partition
    new_isr: list[int] = field(default_factory=list)
    # versions 0-2. The ISR for this partition. Deprecated since version 3.
    new_isr_with_epochs: list[BrokerState] = field(default_factory=list)
    # versions 3+
    leader_recovery_state: int = 0
    # versions 1+. 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    partition_epoch: int = 0
    # versions 0+. The expected epoch of the partition which is being updated. For legacy cluster this is the ZkVersion in the LeaderAndIsr request.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """A TopicData in AlterPartitionRequest."""

    topic_name: str = ''
    # versions 0-1; ignorable. The name of the topic to alter ISRs for
    topic_id: UUID = ZERO_UUID
    # versions 2+; ignorable. The ID of the topic to alter ISRs for
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+
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
    # versions 0+. The ID of the requesting broker
    broker_epoch: int = -1
    # versions 0+. The epoch of the requesting broker
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+
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
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _new_isr: list[int]
    _partition_index, _leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    _n_new_isr, pos = read_compact_array_length(buf, pos)
    if _n_new_isr < 0:
        raise MessageDecodeError("non-nullable field NewIsr was null")
    else:
        _new_isr = list(unpack_from(f">{_n_new_isr}i", buf, pos))
        pos += 4 * _n_new_isr
    _partition_epoch, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _leader_epoch, _new_isr, [], 0, _partition_epoch, _unknown), pos


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


def _decode_alter_partition_request_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    _topics: list[TopicData]
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(_broker_id, _broker_epoch, _topics, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _new_isr: list[int]
    _partition_index, _leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    _n_new_isr, pos = read_compact_array_length(buf, pos)
    if _n_new_isr < 0:
        raise MessageDecodeError("non-nullable field NewIsr was null")
    else:
        _new_isr = list(unpack_from(f">{_n_new_isr}i", buf, pos))
        pos += 4 * _n_new_isr
    _leader_recovery_state, _partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _leader_epoch, _new_isr, [], _leader_recovery_state, _partition_epoch, _unknown), pos


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


def _decode_alter_partition_request_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    _topics: list[TopicData]
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(_broker_id, _broker_epoch, _topics, _unknown), pos


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


def _decode_alter_partition_request_v2(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    _topics: list[TopicData]
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
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
    return AlterPartitionRequest(_broker_id, _broker_epoch, _topics, _unknown), pos


def _decode_broker_state_v3(buf: memoryview, pos: int) -> tuple[BrokerState, int]:
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerState(_broker_id, _broker_epoch, _unknown), pos


def _decode_partition_data_v3(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _new_isr_with_epochs: list[BrokerState]
    _partition_index, _leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    _n_new_isr_with_epochs, pos = read_compact_array_length(buf, pos)
    if _n_new_isr_with_epochs < 0:
        raise MessageDecodeError("non-nullable field NewIsrWithEpochs was null")
    else:
        _new_isr_with_epochs = []
        for _ in range(_n_new_isr_with_epochs):
            _e_new_isr_with_epochs, pos = _decode_broker_state_v3(buf, pos)
            _new_isr_with_epochs.append(_e_new_isr_with_epochs)
    _leader_recovery_state, _partition_epoch = _S3.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _leader_epoch, [], _new_isr_with_epochs, _leader_recovery_state, _partition_epoch, _unknown), pos


def _decode_topic_data_v3(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_id: UUID
    _partitions: list[PartitionData]
    _topic_id, pos = read_uuid(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_partition_data_v3(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData('', _topic_id, _partitions, _unknown), pos


def _decode_alter_partition_request_v3(buf: memoryview, pos: int) -> tuple[AlterPartitionRequest, int]:
    _topics: list[TopicData]
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_topic_data_v3(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionRequest(_broker_id, _broker_epoch, _topics, _unknown), pos


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


def _encode_alter_partition_request_v0(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v0(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
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


def _encode_alter_partition_request_v1(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v1(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
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
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v2(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v2(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_alter_partition_request_v2(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v2(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_broker_state_v3(m: BrokerState, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_partition_data_v3(m: PartitionData, out: bytearray) -> None:
    if len(m.new_isr) > 0:
        raise version_error("PartitionData", "NewIsr", 3)
    out += _S1.pack(m.partition_index, m.leader_epoch)
    write_uvarint(out, len(m.new_isr_with_epochs) + 1)
    for _e_new_isr_with_epochs in m.new_isr_with_epochs:
        _encode_broker_state_v3(_e_new_isr_with_epochs, out)
    out += _S3.pack(m.leader_recovery_state, m.partition_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v3(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v3(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_alter_partition_request_v3(m: AlterPartitionRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v3(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
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
