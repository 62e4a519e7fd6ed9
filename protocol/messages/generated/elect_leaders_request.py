"""ElectLeadersRequest: generated from Kafka 3.9.2 and 4.4.0's ElectLeadersRequest.json by
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
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ElectLeadersRequest", "TopicPartitions"]

_S0 = Struct(">i")
_S1 = Struct(">b")


@dataclass(slots=True)
class TopicPartitions:
    """The topic partitions to elect leaders."""

    topic: str = ''
    # versions 0+; entity topicName. The name of a topic.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions of this topic whose leader should be elected.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ElectLeadersRequest(ApiMessage):
    """ElectLeadersRequest request"""

    API_KEY: ClassVar[int] = 43
    NAME: ClassVar[str] = "ElectLeadersRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    election_type: int = 0
    # versions 1+. Type of elections to conduct for the partition. A value of '0' elects the preferred replica. A value of '1' elects the first live replica if there are no in-sync replica.
    topic_partitions: list[TopicPartitions] | None = field(default_factory=list)
    # versions 0+; nullable 0+. The topic partitions to elect leaders.
    timeout_ms: int = 60000
    # versions 0+. The time in ms to wait for the election to complete.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ElectLeadersRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ElectLeadersRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ElectLeadersRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ElectLeadersRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ElectLeadersRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_partitions_v0(buf: memoryview, pos: int) -> tuple[TopicPartitions, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    return TopicPartitions(f_topic, f_partitions, []), pos


def _decode_elect_leaders_request_v0(buf: memoryview, pos: int) -> tuple[ElectLeadersRequest, int]:
    f_topic_partitions: list[TopicPartitions] | None
    n_topic_partitions, pos = read_array_length(buf, pos)
    if n_topic_partitions < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        for _ in range(n_topic_partitions):
            e_topic_partitions, pos = _decode_topic_partitions_v0(buf, pos)
            f_topic_partitions.append(e_topic_partitions)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    return ElectLeadersRequest(0, f_topic_partitions, f_timeout_ms, []), pos


def _decode_elect_leaders_request_v1(buf: memoryview, pos: int) -> tuple[ElectLeadersRequest, int]:
    f_topic_partitions: list[TopicPartitions] | None
    f_election_type, = _S1.unpack_from(buf, pos)
    pos += 1
    n_topic_partitions, pos = read_array_length(buf, pos)
    if n_topic_partitions < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        for _ in range(n_topic_partitions):
            e_topic_partitions, pos = _decode_topic_partitions_v0(buf, pos)
            f_topic_partitions.append(e_topic_partitions)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    return ElectLeadersRequest(f_election_type, f_topic_partitions, f_timeout_ms, []), pos


def _decode_topic_partitions_v2(buf: memoryview, pos: int) -> tuple[TopicPartitions, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicPartitions(f_topic, f_partitions, _unknown), pos


def _decode_elect_leaders_request_v2(buf: memoryview, pos: int) -> tuple[ElectLeadersRequest, int]:
    f_topic_partitions: list[TopicPartitions] | None
    f_election_type, = _S1.unpack_from(buf, pos)
    pos += 1
    n_topic_partitions, pos = read_compact_array_length(buf, pos)
    if n_topic_partitions < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        for _ in range(n_topic_partitions):
            e_topic_partitions, pos = _decode_topic_partitions_v2(buf, pos)
            f_topic_partitions.append(e_topic_partitions)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ElectLeadersRequest(f_election_type, f_topic_partitions, f_timeout_ms, _unknown), pos


def _encode_topic_partitions_v0(m: TopicPartitions, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    out += pack(f">{len(m.partitions)}i", *m.partitions)


def _encode_elect_leaders_request_v0(m: ElectLeadersRequest, out: bytearray) -> None:
    if m.election_type != 0:
        raise version_error("ElectLeadersRequest", "ElectionType", 0)
    if m.topic_partitions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topic_partitions))
        for e_topic_partitions in m.topic_partitions:
            _encode_topic_partitions_v0(e_topic_partitions, out)
    out += _S0.pack(m.timeout_ms)


def _encode_elect_leaders_request_v1(m: ElectLeadersRequest, out: bytearray) -> None:
    out += _S1.pack(m.election_type)
    if m.topic_partitions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topic_partitions))
        for e_topic_partitions in m.topic_partitions:
            _encode_topic_partitions_v0(e_topic_partitions, out)
    out += _S0.pack(m.timeout_ms)


def _encode_topic_partitions_v2(m: TopicPartitions, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_elect_leaders_request_v2(m: ElectLeadersRequest, out: bytearray) -> None:
    out += _S1.pack(m.election_type)
    if m.topic_partitions is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topic_partitions) + 1)
        for e_topic_partitions in m.topic_partitions:
            _encode_topic_partitions_v2(e_topic_partitions, out)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ElectLeadersRequest, int]]] = {
    0: _decode_elect_leaders_request_v0,
    1: _decode_elect_leaders_request_v1,
    2: _decode_elect_leaders_request_v2,
}
_ENCODERS: dict[int, Callable[[ElectLeadersRequest, bytearray], None]] = {
    0: _encode_elect_leaders_request_v0,
    1: _encode_elect_leaders_request_v1,
    2: _encode_elect_leaders_request_v2,
}
