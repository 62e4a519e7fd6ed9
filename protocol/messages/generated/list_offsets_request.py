"""ListOffsetsRequest: generated from Kafka 3.9.2 and 4.4.0's ListOffsetsRequest.json by
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
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListOffsetsRequest", "ListOffsetsTopic", "ListOffsetsPartition"]

_S0 = Struct(">i")
_S1 = Struct(">iqi")
_S2 = Struct(">iq")
_S3 = Struct(">ib")
_S4 = Struct(">iiq")


@dataclass(slots=True)
class ListOffsetsPartition:
    """Each partition in the request."""

    partition_index: int = 0
    # versions 0+. The partition index.
    current_leader_epoch: int = -1
    # versions 4+; ignorable. The current leader epoch.
    timestamp: int = 0
    # versions 0+. The current timestamp.
    max_num_offsets: int = 1
    # versions 0. The maximum number of offsets to report.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListOffsetsTopic:
    """Each topic in the request."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[ListOffsetsPartition] = field(default_factory=list)
    # versions 0+. Each partition in the request.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListOffsetsRequest(ApiMessage):
    """ListOffsetsRequest request"""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = "ListOffsetsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 11
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    replica_id: int = 0
    # versions 0+; entity brokerId. The broker ID of the requester, or -1 if this request is being made by a normal consumer.
    isolation_level: int = 0
    # versions 2+. This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records.
    topics: list[ListOffsetsTopic] = field(default_factory=list)
    # versions 0+. Each topic in the request.
    timeout_ms: int = 0
    # versions 10+; ignorable. The timeout to await a response in milliseconds for requests that require reading from remote storage for topics enabled with tiered storage.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListOffsetsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListOffsetsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListOffsetsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListOffsetsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListOffsetsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_offsets_partition_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsPartition, int]:
    f_partition_index, f_timestamp, f_max_num_offsets = _S1.unpack_from(buf, pos)
    pos += 16
    return ListOffsetsPartition(f_partition_index, -1, f_timestamp, f_max_num_offsets, []), pos


def _decode_list_offsets_topic_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsTopic, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopic(f_name, f_partitions, []), pos


def _decode_list_offsets_request_v0(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsRequest(f_replica_id, 0, f_topics, 0, []), pos


def _decode_list_offsets_partition_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsPartition, int]:
    f_partition_index, f_timestamp = _S2.unpack_from(buf, pos)
    pos += 12
    return ListOffsetsPartition(f_partition_index, -1, f_timestamp, 1, []), pos


def _decode_list_offsets_topic_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsTopic, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_v1(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopic(f_name, f_partitions, []), pos


def _decode_list_offsets_request_v1(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsRequest(f_replica_id, 0, f_topics, 0, []), pos


def _decode_list_offsets_request_v2(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v1(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0, []), pos


def _decode_list_offsets_partition_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsPartition, int]:
    f_partition_index, f_current_leader_epoch, f_timestamp = _S4.unpack_from(buf, pos)
    pos += 16
    return ListOffsetsPartition(f_partition_index, f_current_leader_epoch, f_timestamp, 1, []), pos


def _decode_list_offsets_topic_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsTopic, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_v4(buf, pos)
            f_partitions.append(e_partitions)
    return ListOffsetsTopic(f_name, f_partitions, []), pos


def _decode_list_offsets_request_v4(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v4(buf, pos)
            f_topics.append(e_topics)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0, []), pos


def _decode_list_offsets_partition_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsPartition, int]:
    f_partition_index, f_current_leader_epoch, f_timestamp = _S4.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsPartition(f_partition_index, f_current_leader_epoch, f_timestamp, 1, _unknown), pos


def _decode_list_offsets_topic_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsTopic, int]:
    f_name: str
    f_partitions: list[ListOffsetsPartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_list_offsets_partition_v6(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsTopic(f_name, f_partitions, _unknown), pos


def _decode_list_offsets_request_v6(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v6(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0, _unknown), pos


def _decode_list_offsets_request_v10(buf: memoryview, pos: int) -> tuple[ListOffsetsRequest, int]:
    f_topics: list[ListOffsetsTopic]
    f_replica_id, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_offsets_topic_v6(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, f_timeout_ms, _unknown), pos


def _encode_list_offsets_partition_v0(m: ListOffsetsPartition, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.timestamp, m.max_num_offsets)


def _encode_list_offsets_topic_v0(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v0(e_partitions, out)


def _encode_list_offsets_request_v0(m: ListOffsetsRequest, out: bytearray) -> None:
    if m.isolation_level != 0:
        raise version_error("ListOffsetsRequest", "IsolationLevel", 0)
    out += _S0.pack(m.replica_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v0(e_topics, out)


def _encode_list_offsets_partition_v1(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 1)
    out += _S2.pack(m.partition_index, m.timestamp)


def _encode_list_offsets_topic_v1(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v1(e_partitions, out)


def _encode_list_offsets_request_v1(m: ListOffsetsRequest, out: bytearray) -> None:
    if m.isolation_level != 0:
        raise version_error("ListOffsetsRequest", "IsolationLevel", 1)
    out += _S0.pack(m.replica_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v1(e_topics, out)


def _encode_list_offsets_partition_v2(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 2)
    out += _S2.pack(m.partition_index, m.timestamp)


def _encode_list_offsets_topic_v2(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v2(e_partitions, out)


def _encode_list_offsets_request_v2(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v2(e_topics, out)


def _encode_list_offsets_partition_v3(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 3)
    out += _S2.pack(m.partition_index, m.timestamp)


def _encode_list_offsets_topic_v3(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v3(e_partitions, out)


def _encode_list_offsets_request_v3(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v3(e_topics, out)


def _encode_list_offsets_partition_v4(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 4)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)


def _encode_list_offsets_topic_v4(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v4(e_partitions, out)


def _encode_list_offsets_request_v4(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v4(e_topics, out)


def _encode_list_offsets_partition_v5(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 5)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)


def _encode_list_offsets_topic_v5(m: ListOffsetsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v5(e_partitions, out)


def _encode_list_offsets_request_v5(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_list_offsets_topic_v5(e_topics, out)


def _encode_list_offsets_partition_v6(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 6)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v6(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v6(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v6(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v6(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_v7(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 7)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v7(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v7(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v7(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v7(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_v8(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 8)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v8(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v8(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v8(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v8(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_v9(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 9)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v9(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v9(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v9(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v9(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_v10(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 10)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v10(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v10(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v10(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v10(e_topics, out)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_partition_v11(m: ListOffsetsPartition, out: bytearray) -> None:
    if m.max_num_offsets != 1:
        raise version_error("ListOffsetsPartition", "MaxNumOffsets", 11)
    out += _S4.pack(m.partition_index, m.current_leader_epoch, m.timestamp)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_topic_v11(m: ListOffsetsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_list_offsets_partition_v11(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_offsets_request_v11(m: ListOffsetsRequest, out: bytearray) -> None:
    out += _S3.pack(m.replica_id, m.isolation_level)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_list_offsets_topic_v11(e_topics, out)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListOffsetsRequest, int]]] = {
    0: _decode_list_offsets_request_v0,
    1: _decode_list_offsets_request_v1,
    2: _decode_list_offsets_request_v2,
    3: _decode_list_offsets_request_v2,
    4: _decode_list_offsets_request_v4,
    5: _decode_list_offsets_request_v4,
    6: _decode_list_offsets_request_v6,
    7: _decode_list_offsets_request_v6,
    8: _decode_list_offsets_request_v6,
    9: _decode_list_offsets_request_v6,
    10: _decode_list_offsets_request_v10,
    11: _decode_list_offsets_request_v10,
}
_ENCODERS: dict[int, Callable[[ListOffsetsRequest, bytearray], None]] = {
    0: _encode_list_offsets_request_v0,
    1: _encode_list_offsets_request_v1,
    2: _encode_list_offsets_request_v2,
    3: _encode_list_offsets_request_v3,
    4: _encode_list_offsets_request_v4,
    5: _encode_list_offsets_request_v5,
    6: _encode_list_offsets_request_v6,
    7: _encode_list_offsets_request_v7,
    8: _encode_list_offsets_request_v8,
    9: _encode_list_offsets_request_v9,
    10: _encode_list_offsets_request_v10,
    11: _encode_list_offsets_request_v11,
}
