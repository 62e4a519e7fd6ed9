"""AlterPartitionReassignmentsRequest: generated from Kafka 3.9.2 and 4.4.0's AlterPartitionReassignmentsRequest.json by
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
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AlterPartitionReassignmentsRequest", "ReassignableTopic", "ReassignablePartition"]

_S0 = Struct(">i")
_S1 = Struct(">i?")


@dataclass(slots=True)
class ReassignablePartition:
    """The partitions to reassign."""

    partition_index: int = 0
    # versions 0+. The partition index.
    replicas: list[int] | None = None
    # versions 0+; nullable 0+; entity brokerId. The replicas to place the partitions on, or null to cancel a pending reassignment for this partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReassignableTopic:
    """The topics to reassign."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[ReassignablePartition] = field(default_factory=list)
    # versions 0+. The partitions to reassign.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterPartitionReassignmentsRequest(ApiMessage):
    """AlterPartitionReassignmentsRequest request"""

    API_KEY: ClassVar[int] = 45
    NAME: ClassVar[str] = "AlterPartitionReassignmentsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    timeout_ms: int = 60000
    # versions 0+. The time in ms to wait for the request to complete.
    topics: list[ReassignableTopic] = field(default_factory=list)
    # versions 0+. The topics to reassign.
    allow_replication_factor_change: bool = True
    # versions 1+. The option indicating whether changing the replication factor of any given partition as part of this request is a valid move.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionReassignmentsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterPartitionReassignmentsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterPartitionReassignmentsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterPartitionReassignmentsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterPartitionReassignmentsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_reassignable_partition_v0(buf: memoryview, pos: int) -> tuple[ReassignablePartition, int]:
    f_replicas: list[int] | None
    f_partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    n_replicas, pos = read_compact_array_length(buf, pos)
    if n_replicas < 0:
        f_replicas = None
    else:
        f_replicas = list(unpack_from(f">{n_replicas}i", buf, pos))
        pos += 4 * n_replicas
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReassignablePartition(f_partition_index, f_replicas, _unknown), pos


def _decode_reassignable_topic_v0(buf: memoryview, pos: int) -> tuple[ReassignableTopic, int]:
    f_name: str
    f_partitions: list[ReassignablePartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_reassignable_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReassignableTopic(f_name, f_partitions, _unknown), pos


def _decode_alter_partition_reassignments_request_v0(buf: memoryview, pos: int) -> tuple[AlterPartitionReassignmentsRequest, int]:
    f_topics: list[ReassignableTopic]
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_reassignable_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionReassignmentsRequest(f_timeout_ms, f_topics, True, _unknown), pos


def _decode_alter_partition_reassignments_request_v1(buf: memoryview, pos: int) -> tuple[AlterPartitionReassignmentsRequest, int]:
    f_topics: list[ReassignableTopic]
    f_timeout_ms, f_allow_replication_factor_change = _S1.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_reassignable_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterPartitionReassignmentsRequest(f_timeout_ms, f_topics, f_allow_replication_factor_change, _unknown), pos


def _encode_reassignable_partition_v0(m: ReassignablePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index)
    if m.replicas is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.replicas) + 1)
        out += pack(f">{len(m.replicas)}i", *m.replicas)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_reassignable_topic_v0(m: ReassignableTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_reassignable_partition_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_reassignments_request_v0(m: AlterPartitionReassignmentsRequest, out: bytearray) -> None:
    if not m.allow_replication_factor_change:
        raise version_error("AlterPartitionReassignmentsRequest", "AllowReplicationFactorChange", 0)
    out += _S0.pack(m.timeout_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_reassignable_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_partition_reassignments_request_v1(m: AlterPartitionReassignmentsRequest, out: bytearray) -> None:
    out += _S1.pack(m.timeout_ms, m.allow_replication_factor_change)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_reassignable_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterPartitionReassignmentsRequest, int]]] = {
    0: _decode_alter_partition_reassignments_request_v0,
    1: _decode_alter_partition_reassignments_request_v1,
}
_ENCODERS: dict[int, Callable[[AlterPartitionReassignmentsRequest, bytearray], None]] = {
    0: _encode_alter_partition_reassignments_request_v0,
    1: _encode_alter_partition_reassignments_request_v1,
}
