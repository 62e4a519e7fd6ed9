"""AssignReplicasToDirsRequest: generated from Kafka 3.9.2's AssignReplicasToDirsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_array_length,
    read_unknown_tags,
    read_uuid,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AssignReplicasToDirsRequest", "DirectoryData", "TopicData", "PartitionData"]

_S0 = Struct(">iq")
_S1 = Struct(">i")


@dataclass(slots=True)
class PartitionData:
    """A PartitionData in AssignReplicasToDirsRequest."""

    partition_index: int = 0
    # versions 0+. The partition index
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """A TopicData in AssignReplicasToDirsRequest."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The ID of the assigned topic
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DirectoryData:
    """A DirectoryData in AssignReplicasToDirsRequest."""

    id: UUID = ZERO_UUID
    # versions 0+. The ID of the directory
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AssignReplicasToDirsRequest(ApiMessage):
    """AssignReplicasToDirsRequest request"""

    API_KEY: ClassVar[int] = 73
    NAME: ClassVar[str] = "AssignReplicasToDirsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    broker_id: int = 0
    # versions 0+. The ID of the requesting broker
    broker_epoch: int = -1
    # versions 0+. The epoch of the requesting broker
    directories: list[DirectoryData] = field(default_factory=list)
    # versions 0+
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AssignReplicasToDirsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AssignReplicasToDirsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AssignReplicasToDirsRequest has no version {version}") from None
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AssignReplicasToDirsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    _partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(_partition_index, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    _topic_id: UUID
    _partitions: list[PartitionData]
    _topic_id, pos = read_uuid(buf, pos)
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
    return TopicData(_topic_id, _partitions, _unknown), pos


def _decode_directory_data_v0(buf: memoryview, pos: int) -> tuple[DirectoryData, int]:
    _id: UUID
    _topics: list[TopicData]
    _id, pos = read_uuid(buf, pos)
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
    return DirectoryData(_id, _topics, _unknown), pos


def _decode_assign_replicas_to_dirs_request_v0(buf: memoryview, pos: int) -> tuple[AssignReplicasToDirsRequest, int]:
    _directories: list[DirectoryData]
    _broker_id, _broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    _n_directories, pos = read_compact_array_length(buf, pos)
    if _n_directories < 0:
        raise MessageDecodeError("non-nullable field Directories was null")
    else:
        _directories = []
        for _ in range(_n_directories):
            _e_directories, pos = _decode_directory_data_v0(buf, pos)
            _directories.append(_e_directories)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AssignReplicasToDirsRequest(_broker_id, _broker_epoch, _directories, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_partition_data_v0(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_directory_data_v0(m: DirectoryData, out: bytearray) -> None:
    out += m.id.bytes
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_topic_data_v0(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_assign_replicas_to_dirs_request_v0(m: AssignReplicasToDirsRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.directories) + 1)
    for _e_directories in m.directories:
        _encode_directory_data_v0(_e_directories, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AssignReplicasToDirsRequest, int]]] = {
    0: _decode_assign_replicas_to_dirs_request_v0,
}
_ENCODERS: dict[int, Callable[[AssignReplicasToDirsRequest, bytearray], None]] = {
    0: _encode_assign_replicas_to_dirs_request_v0,
}
