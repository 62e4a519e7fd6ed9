"""VoteResponse: generated from Kafka 3.9.2 and 4.4.0's VoteResponse.json by
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
    read_unknown_tag,
    read_unknown_tags,
    read_uvarint,
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["VoteResponse", "TopicData", "PartitionData", "NodeEndpoint"]

_S0 = Struct(">h")
_S1 = Struct(">ihii?")
_S2 = Struct(">i")
_S3 = Struct(">H")


@dataclass(slots=True)
class PartitionData:
    """The results for each partition."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition level error code.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    vote_granted: bool = False
    # versions 0+. True if the vote was granted and false otherwise.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The results for each topic."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The results for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints for all current-leaders enumerated in PartitionData."""

    node_id: int = 0
    # versions 1+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 1+. The node's hostname.
    port: int = 0
    # versions 1+. The node's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class VoteResponse(ApiMessage):
    """VoteResponse response"""

    API_KEY: ClassVar[int] = 52
    NAME: ClassVar[str] = "VoteResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    error_code: int = 0
    # versions 0+. The top level error code.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The results for each topic.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 1+; tag 0 in 1+. Endpoints for all current-leaders enumerated in PartitionData.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"VoteResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[VoteResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"VoteResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"VoteResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> VoteResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_vote_granted = _S1.unpack_from(buf, pos)
    pos += 15
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_leader_id, f_leader_epoch, f_vote_granted, _unknown), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
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
    return TopicData(f_topic_name, f_partitions, _unknown), pos


def _decode_vote_response_v0(buf: memoryview, pos: int) -> tuple[VoteResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
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
    return VoteResponse(f_error_code, f_topics, [], _unknown), pos


def _decode_node_endpoint_v1(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_node_id, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, _unknown), pos


def _decode_vote_response_v1(buf: memoryview, pos: int) -> tuple[VoteResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    f_node_endpoints: list[NodeEndpoint] = []
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_node_endpoints, pos = read_compact_array_length(buf, pos)
                if n_node_endpoints < 0:
                    raise null_field("nodeEndpoints")
                else:
                    f_node_endpoints = []
                    for _ in range(n_node_endpoints):
                        e_node_endpoints, pos = _decode_node_endpoint_v1(buf, pos)
                        f_node_endpoints.append(e_node_endpoints)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return VoteResponse(f_error_code, f_topics, f_node_endpoints, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch, m.vote_granted)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_vote_response_v0(m: VoteResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("VoteResponse", "NodeEndpoints", 0)
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v1(m: NodeEndpoint, out: bytearray) -> None:
    out += _S2.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S3.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_vote_response_v1(m: VoteResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v1(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[VoteResponse, int]]] = {
    0: _decode_vote_response_v0,
    1: _decode_vote_response_v1,
    2: _decode_vote_response_v1,
}
_ENCODERS: dict[int, Callable[[VoteResponse, bytearray], None]] = {
    0: _encode_vote_response_v0,
    1: _encode_vote_response_v1,
    2: _encode_vote_response_v1,
}
