"""AssignReplicasToDirsRequest: generated from Kafka 3.9.2 and 4.4.0's AssignReplicasToDirsRequest.json by
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
    """The partitions assigned to the directory."""

    partition_index: int = 0
    # versions 0+. The partition index.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topics assigned to the directory."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The ID of the assigned topic.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partitions assigned to the directory.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DirectoryData:
    """The directories to which replicas should be assigned."""

    id: UUID = ZERO_UUID
    # versions 0+. The ID of the directory.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topics assigned to the directory.
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
    # versions 0+; entity brokerId. The ID of the requesting broker.
    broker_epoch: int = -1
    # versions 0+. The epoch of the requesting broker.
    directories: list[DirectoryData] = field(default_factory=list)
    # versions 0+. The directories to which replicas should be assigned.
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
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AssignReplicasToDirsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AssignReplicasToDirsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
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
    return TopicData(f_topic_id, f_partitions, _unknown), pos


def _decode_directory_data_v0(buf: memoryview, pos: int) -> tuple[DirectoryData, int]:
    f_id: UUID
    f_topics: list[TopicData]
    f_id, pos = read_uuid(buf, pos)
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
    return DirectoryData(f_id, f_topics, _unknown), pos


def _decode_assign_replicas_to_dirs_request_v0(buf: memoryview, pos: int) -> tuple[AssignReplicasToDirsRequest, int]:
    f_directories: list[DirectoryData]
    f_broker_id, f_broker_epoch = _S0.unpack_from(buf, pos)
    pos += 12
    n_directories, pos = read_compact_array_length(buf, pos)
    if n_directories < 0:
        raise null_field("directories")
    else:
        f_directories = []
        for _ in range(n_directories):
            e_directories, pos = _decode_directory_data_v0(buf, pos)
            f_directories.append(e_directories)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AssignReplicasToDirsRequest(f_broker_id, f_broker_epoch, f_directories, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_directory_data_v0(m: DirectoryData, out: bytearray) -> None:
    out += m.id.bytes
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_assign_replicas_to_dirs_request_v0(m: AssignReplicasToDirsRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch)
    write_uvarint(out, len(m.directories) + 1)
    for e_directories in m.directories:
        _encode_directory_data_v0(e_directories, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AssignReplicasToDirsRequest, int]]] = {
    0: _decode_assign_replicas_to_dirs_request_v0,
}
_ENCODERS: dict[int, Callable[[AssignReplicasToDirsRequest, bytearray], None]] = {
    0: _encode_assign_replicas_to_dirs_request_v0,
}
