"""DeleteRecordsRequest: generated from Kafka 3.9.2 and 4.4.0's DeleteRecordsRequest.json by
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

__all__ = ["DeleteRecordsRequest", "DeleteRecordsTopic", "DeleteRecordsPartition"]

_S0 = Struct(">iq")
_S1 = Struct(">i")


@dataclass(slots=True)
class DeleteRecordsPartition:
    """Each partition that we want to delete records from."""

    partition_index: int = 0
    # versions 0+. The partition index.
    offset: int = 0
    # versions 0+. The deletion offset. -1 means that records should be truncated to the high watermark.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteRecordsTopic:
    """Each topic that we want to delete records from."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[DeleteRecordsPartition] = field(default_factory=list)
    # versions 0+. Each partition that we want to delete records from.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteRecordsRequest(ApiMessage):
    """DeleteRecordsRequest request"""

    API_KEY: ClassVar[int] = 21
    NAME: ClassVar[str] = "DeleteRecordsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    topics: list[DeleteRecordsTopic] = field(default_factory=list)
    # versions 0+. Each topic that we want to delete records from.
    timeout_ms: int = 0
    # versions 0+. How long to wait for the deletion to complete, in milliseconds.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteRecordsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteRecordsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteRecordsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteRecordsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteRecordsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_records_partition_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsPartition, int]:
    f_partition_index, f_offset = _S0.unpack_from(buf, pos)
    pos += 12
    return DeleteRecordsPartition(f_partition_index, f_offset, []), pos


def _decode_delete_records_topic_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsTopic, int]:
    f_name: str
    f_partitions: list[DeleteRecordsPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_delete_records_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return DeleteRecordsTopic(f_name, f_partitions, []), pos


def _decode_delete_records_request_v0(buf: memoryview, pos: int) -> tuple[DeleteRecordsRequest, int]:
    f_topics: list[DeleteRecordsTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_records_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return DeleteRecordsRequest(f_topics, f_timeout_ms, []), pos


def _decode_delete_records_partition_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsPartition, int]:
    f_partition_index, f_offset = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsPartition(f_partition_index, f_offset, _unknown), pos


def _decode_delete_records_topic_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsTopic, int]:
    f_name: str
    f_partitions: list[DeleteRecordsPartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_delete_records_partition_v2(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsTopic(f_name, f_partitions, _unknown), pos


def _decode_delete_records_request_v2(buf: memoryview, pos: int) -> tuple[DeleteRecordsRequest, int]:
    f_topics: list[DeleteRecordsTopic]
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_records_topic_v2(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteRecordsRequest(f_topics, f_timeout_ms, _unknown), pos


def _encode_delete_records_partition_v0(m: DeleteRecordsPartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.offset)


def _encode_delete_records_topic_v0(m: DeleteRecordsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_delete_records_partition_v0(e_partitions, out)


def _encode_delete_records_request_v0(m: DeleteRecordsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_delete_records_topic_v0(e_topics, out)
    out += _S1.pack(m.timeout_ms)


def _encode_delete_records_partition_v2(m: DeleteRecordsPartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_records_topic_v2(m: DeleteRecordsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_delete_records_partition_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_records_request_v2(m: DeleteRecordsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_delete_records_topic_v2(e_topics, out)
    out += _S1.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteRecordsRequest, int]]] = {
    0: _decode_delete_records_request_v0,
    1: _decode_delete_records_request_v0,
    2: _decode_delete_records_request_v2,
}
_ENCODERS: dict[int, Callable[[DeleteRecordsRequest, bytearray], None]] = {
    0: _encode_delete_records_request_v0,
    1: _encode_delete_records_request_v0,
    2: _encode_delete_records_request_v2,
}
