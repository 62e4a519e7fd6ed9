"""ReadShareGroupStateRequest: generated from Kafka 3.9.2 and 4.4.0's ReadShareGroupStateRequest.json by
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

__all__ = ["ReadShareGroupStateRequest", "ReadStateData", "PartitionData"]

_S0 = Struct(">ii")


@dataclass(slots=True)
class PartitionData:
    """The data for the partitions."""

    partition: int = 0
    # versions 0+. The partition index.
    leader_epoch: int = 0
    # versions 0+. The leader epoch of the share-partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReadStateData:
    """The data for the topics."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The topic identifier.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The data for the partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReadShareGroupStateRequest(ApiMessage):
    """ReadShareGroupStateRequest request"""

    API_KEY: ClassVar[int] = 84
    NAME: ClassVar[str] = "ReadShareGroupStateRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+. The group identifier.
    topics: list[ReadStateData] = field(default_factory=list)
    # versions 0+. The data for the topics.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ReadShareGroupStateRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ReadShareGroupStateRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ReadShareGroupStateRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ReadShareGroupStateRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ReadShareGroupStateRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition, f_leader_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition, f_leader_epoch, _unknown), pos


def _decode_read_state_data_v0(buf: memoryview, pos: int) -> tuple[ReadStateData, int]:
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
    return ReadStateData(f_topic_id, f_partitions, _unknown), pos


def _decode_read_share_group_state_request_v0(buf: memoryview, pos: int) -> tuple[ReadShareGroupStateRequest, int]:
    f_group_id: str
    f_topics: list[ReadStateData]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_read_state_data_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReadShareGroupStateRequest(f_group_id, f_topics, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_state_data_v0(m: ReadStateData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_read_share_group_state_request_v0(m: ReadShareGroupStateRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_read_state_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ReadShareGroupStateRequest, int]]] = {
    0: _decode_read_share_group_state_request_v0,
}
_ENCODERS: dict[int, Callable[[ReadShareGroupStateRequest, bytearray], None]] = {
    0: _encode_read_share_group_state_request_v0,
}
