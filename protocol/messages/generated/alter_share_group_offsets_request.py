"""AlterShareGroupOffsetsRequest: generated from Kafka 4.4.0's AlterShareGroupOffsetsRequest.json by
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
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterShareGroupOffsetsRequest", "AlterShareGroupOffsetsRequestTopic", "AlterShareGroupOffsetsRequestPartition"]

_S0 = Struct(">iq")


@dataclass(slots=True)
class AlterShareGroupOffsetsRequestPartition:
    """Each partition to alter offsets for."""

    partition_index: int = 0
    # versions 0+. The partition index.
    start_offset: int = 0
    # versions 0+. The share-partition start offset.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterShareGroupOffsetsRequestTopic:
    """The topics to alter offsets for."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[AlterShareGroupOffsetsRequestPartition] = field(default_factory=list)
    # versions 0+. Each partition to alter offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterShareGroupOffsetsRequest(ApiMessage):
    """AlterShareGroupOffsetsRequest request"""

    API_KEY: ClassVar[int] = 91
    NAME: ClassVar[str] = "AlterShareGroupOffsetsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    topics: list[AlterShareGroupOffsetsRequestTopic] = field(default_factory=list)
    # versions 0+. The topics to alter offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterShareGroupOffsetsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterShareGroupOffsetsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterShareGroupOffsetsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterShareGroupOffsetsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterShareGroupOffsetsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alter_share_group_offsets_request_partition_v0(buf: memoryview, pos: int) -> tuple[AlterShareGroupOffsetsRequestPartition, int]:
    f_partition_index, f_start_offset = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterShareGroupOffsetsRequestPartition(f_partition_index, f_start_offset, _unknown), pos


def _decode_alter_share_group_offsets_request_topic_v0(buf: memoryview, pos: int) -> tuple[AlterShareGroupOffsetsRequestTopic, int]:
    f_topic_name: str
    f_partitions: list[AlterShareGroupOffsetsRequestPartition]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_alter_share_group_offsets_request_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterShareGroupOffsetsRequestTopic(f_topic_name, f_partitions, _unknown), pos


def _decode_alter_share_group_offsets_request_v0(buf: memoryview, pos: int) -> tuple[AlterShareGroupOffsetsRequest, int]:
    f_group_id: str
    f_topics: list[AlterShareGroupOffsetsRequestTopic]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_alter_share_group_offsets_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterShareGroupOffsetsRequest(f_group_id, f_topics, _unknown), pos


def _encode_alter_share_group_offsets_request_partition_v0(m: AlterShareGroupOffsetsRequestPartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.start_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_share_group_offsets_request_topic_v0(m: AlterShareGroupOffsetsRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_alter_share_group_offsets_request_partition_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_share_group_offsets_request_v0(m: AlterShareGroupOffsetsRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_alter_share_group_offsets_request_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterShareGroupOffsetsRequest, int]]] = {
    0: _decode_alter_share_group_offsets_request_v0,
}
_ENCODERS: dict[int, Callable[[AlterShareGroupOffsetsRequest, bytearray], None]] = {
    0: _encode_alter_share_group_offsets_request_v0,
}
