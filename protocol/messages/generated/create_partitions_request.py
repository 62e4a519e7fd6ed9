"""CreatePartitionsRequest: generated from Kafka 3.9.2 and 4.4.0's CreatePartitionsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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

__all__ = ["CreatePartitionsRequest", "CreatePartitionsTopic", "CreatePartitionsAssignment"]

_S0 = Struct(">i")
_S1 = Struct(">i?")


@dataclass(slots=True)
class CreatePartitionsAssignment:
    """The new partition assignments."""

    broker_ids: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The assigned broker IDs.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreatePartitionsTopic:
    """Each topic that we want to create new partitions inside."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    count: int = 0
    # versions 0+. The new partition count.
    assignments: list[CreatePartitionsAssignment] | None = field(default_factory=list)
    # versions 0+; nullable 0+. The new partition assignments.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreatePartitionsRequest(ApiMessage):
    """CreatePartitionsRequest request"""

    API_KEY: ClassVar[int] = 37
    NAME: ClassVar[str] = "CreatePartitionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    topics: list[CreatePartitionsTopic] = field(default_factory=list)
    # versions 0+. Each topic that we want to create new partitions inside.
    timeout_ms: int = 0
    # versions 0+. The time in ms to wait for the partitions to be created.
    validate_only: bool = False
    # versions 0+. If true, then validate the request, but don't actually increase the number of partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreatePartitionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreatePartitionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreatePartitionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreatePartitionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreatePartitionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_create_partitions_assignment_v0(buf: memoryview, pos: int) -> tuple[CreatePartitionsAssignment, int]:
    f_broker_ids: list[int]
    n_broker_ids, pos = read_array_length(buf, pos)
    if n_broker_ids < 0:
        raise null_field("brokerIds")
    else:
        f_broker_ids = list(unpack_from(f">{n_broker_ids}i", buf, pos))
        pos += 4 * n_broker_ids
    return CreatePartitionsAssignment(f_broker_ids, []), pos


def _decode_create_partitions_topic_v0(buf: memoryview, pos: int) -> tuple[CreatePartitionsTopic, int]:
    f_name: str
    f_assignments: list[CreatePartitionsAssignment] | None
    f_name, pos = read_string(buf, pos, "name")
    f_count, = _S0.unpack_from(buf, pos)
    pos += 4
    n_assignments, pos = read_array_length(buf, pos)
    if n_assignments < 0:
        f_assignments = None
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_create_partitions_assignment_v0(buf, pos)
            f_assignments.append(e_assignments)
    return CreatePartitionsTopic(f_name, f_count, f_assignments, []), pos


def _decode_create_partitions_request_v0(buf: memoryview, pos: int) -> tuple[CreatePartitionsRequest, int]:
    f_topics: list[CreatePartitionsTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_create_partitions_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, f_validate_only = _S1.unpack_from(buf, pos)
    pos += 5
    return CreatePartitionsRequest(f_topics, f_timeout_ms, f_validate_only, []), pos


def _decode_create_partitions_assignment_v2(buf: memoryview, pos: int) -> tuple[CreatePartitionsAssignment, int]:
    f_broker_ids: list[int]
    n_broker_ids, pos = read_compact_array_length(buf, pos)
    if n_broker_ids < 0:
        raise null_field("brokerIds")
    else:
        f_broker_ids = list(unpack_from(f">{n_broker_ids}i", buf, pos))
        pos += 4 * n_broker_ids
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatePartitionsAssignment(f_broker_ids, _unknown), pos


def _decode_create_partitions_topic_v2(buf: memoryview, pos: int) -> tuple[CreatePartitionsTopic, int]:
    f_name: str
    f_assignments: list[CreatePartitionsAssignment] | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_count, = _S0.unpack_from(buf, pos)
    pos += 4
    n_assignments, pos = read_compact_array_length(buf, pos)
    if n_assignments < 0:
        f_assignments = None
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_create_partitions_assignment_v2(buf, pos)
            f_assignments.append(e_assignments)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatePartitionsTopic(f_name, f_count, f_assignments, _unknown), pos


def _decode_create_partitions_request_v2(buf: memoryview, pos: int) -> tuple[CreatePartitionsRequest, int]:
    f_topics: list[CreatePartitionsTopic]
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_create_partitions_topic_v2(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, f_validate_only = _S1.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatePartitionsRequest(f_topics, f_timeout_ms, f_validate_only, _unknown), pos


def _encode_create_partitions_assignment_v0(m: CreatePartitionsAssignment, out: bytearray) -> None:
    out += pack_int32(len(m.broker_ids))
    out += pack(f">{len(m.broker_ids)}i", *m.broker_ids)


def _encode_create_partitions_topic_v0(m: CreatePartitionsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += _S0.pack(m.count)
    if m.assignments is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.assignments))
        for e_assignments in m.assignments:
            _encode_create_partitions_assignment_v0(e_assignments, out)


def _encode_create_partitions_request_v0(m: CreatePartitionsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_create_partitions_topic_v0(e_topics, out)
    out += _S1.pack(m.timeout_ms, m.validate_only)


def _encode_create_partitions_assignment_v2(m: CreatePartitionsAssignment, out: bytearray) -> None:
    write_uvarint(out, len(m.broker_ids) + 1)
    out += pack(f">{len(m.broker_ids)}i", *m.broker_ids)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_partitions_topic_v2(m: CreatePartitionsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S0.pack(m.count)
    if m.assignments is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.assignments) + 1)
        for e_assignments in m.assignments:
            _encode_create_partitions_assignment_v2(e_assignments, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_partitions_request_v2(m: CreatePartitionsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_create_partitions_topic_v2(e_topics, out)
    out += _S1.pack(m.timeout_ms, m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreatePartitionsRequest, int]]] = {
    0: _decode_create_partitions_request_v0,
    1: _decode_create_partitions_request_v0,
    2: _decode_create_partitions_request_v2,
    3: _decode_create_partitions_request_v2,
}
_ENCODERS: dict[int, Callable[[CreatePartitionsRequest, bytearray], None]] = {
    0: _encode_create_partitions_request_v0,
    1: _encode_create_partitions_request_v0,
    2: _encode_create_partitions_request_v2,
    3: _encode_create_partitions_request_v2,
}
