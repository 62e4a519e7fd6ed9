"""ListPartitionReassignmentsRequest: generated from Kafka 3.9.2 and 4.4.0's ListPartitionReassignmentsRequest.json by
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
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListPartitionReassignmentsRequest", "ListPartitionReassignmentsTopics"]

_S0 = Struct(">i")


@dataclass(slots=True)
class ListPartitionReassignmentsTopics:
    """The topics to list partition reassignments for, or null to list everything."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 0+. The partitions to list partition reassignments for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListPartitionReassignmentsRequest(ApiMessage):
    """ListPartitionReassignmentsRequest request"""

    API_KEY: ClassVar[int] = 46
    NAME: ClassVar[str] = "ListPartitionReassignmentsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    timeout_ms: int = 60000
    # versions 0+. The time in ms to wait for the request to complete.
    topics: list[ListPartitionReassignmentsTopics] | None = None
    # versions 0+; nullable 0+. The topics to list partition reassignments for, or null to list everything.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListPartitionReassignmentsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListPartitionReassignmentsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListPartitionReassignmentsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListPartitionReassignmentsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListPartitionReassignmentsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_partition_reassignments_topics_v0(buf: memoryview, pos: int) -> tuple[ListPartitionReassignmentsTopics, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_indexes, pos = read_compact_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListPartitionReassignmentsTopics(f_name, f_partition_indexes, _unknown), pos


def _decode_list_partition_reassignments_request_v0(buf: memoryview, pos: int) -> tuple[ListPartitionReassignmentsRequest, int]:
    f_topics: list[ListPartitionReassignmentsTopics] | None
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_list_partition_reassignments_topics_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListPartitionReassignmentsRequest(f_timeout_ms, f_topics, _unknown), pos


def _encode_list_partition_reassignments_topics_v0(m: ListPartitionReassignmentsTopics, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_partition_reassignments_request_v0(m: ListPartitionReassignmentsRequest, out: bytearray) -> None:
    out += _S0.pack(m.timeout_ms)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_list_partition_reassignments_topics_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListPartitionReassignmentsRequest, int]]] = {
    0: _decode_list_partition_reassignments_request_v0,
}
_ENCODERS: dict[int, Callable[[ListPartitionReassignmentsRequest, bytearray], None]] = {
    0: _encode_list_partition_reassignments_request_v0,
}
