"""BeginQuorumEpochResponse: generated from Kafka 3.9.2 and 4.4.0's BeginQuorumEpochResponse.json by
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
    read_unknown_tag,
    read_unknown_tags,
    read_uvarint,
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["BeginQuorumEpochResponse", "TopicData", "PartitionData", "NodeEndpoint"]

_S0 = Struct(">h")
_S1 = Struct(">ihii")
_S2 = Struct(">i")
_S3 = Struct(">H")


@dataclass(slots=True)
class PartitionData:
    """The partition data."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code for this partition.
    leader_id: int = 0
    # versions 0+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicData:
    """The topic data."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The partition data.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints for all leaders enumerated in PartitionData."""

    node_id: int = 0
    # versions 1+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 1+. The node's hostname.
    port: int = 0
    # versions 1+. The node's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class BeginQuorumEpochResponse(ApiMessage):
    """BeginQuorumEpochResponse response"""

    API_KEY: ClassVar[int] = 53
    NAME: ClassVar[str] = "BeginQuorumEpochResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    error_code: int = 0
    # versions 0+. The top level error code.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The topic data.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 1+; tag 0 in 1+. Endpoints for all leaders enumerated in PartitionData.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BeginQuorumEpochResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[BeginQuorumEpochResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BeginQuorumEpochResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"BeginQuorumEpochResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> BeginQuorumEpochResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    return PartitionData(f_partition_index, f_error_code, f_leader_id, f_leader_epoch, []), pos


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v0(buf, pos)
            f_partitions.append(e_partitions)
    return TopicData(f_topic_name, f_partitions, []), pos


def _decode_begin_quorum_epoch_response_v0(buf: memoryview, pos: int) -> tuple[BeginQuorumEpochResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    return BeginQuorumEpochResponse(f_error_code, f_topics, [], []), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_partition_index, f_error_code, f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_leader_id, f_leader_epoch, _unknown), pos


def _decode_topic_data_v1(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic_name: str
    f_partitions: list[PartitionData]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(f_topic_name, f_partitions, _unknown), pos


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


def _decode_begin_quorum_epoch_response_v1(buf: memoryview, pos: int) -> tuple[BeginQuorumEpochResponse, int]:
    f_topics: list[TopicData]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v1(buf, pos)
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
    return BeginQuorumEpochResponse(f_error_code, f_topics, f_node_endpoints, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)


def _encode_begin_quorum_epoch_response_v0(m: BeginQuorumEpochResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("BeginQuorumEpochResponse", "NodeEndpoints", 0)
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code, m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_data_v1(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
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


def _encode_begin_quorum_epoch_response_v1(m: BeginQuorumEpochResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v1(e_topics, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v1(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[BeginQuorumEpochResponse, int]]] = {
    0: _decode_begin_quorum_epoch_response_v0,
    1: _decode_begin_quorum_epoch_response_v1,
}
_ENCODERS: dict[int, Callable[[BeginQuorumEpochResponse, bytearray], None]] = {
    0: _encode_begin_quorum_epoch_response_v0,
    1: _encode_begin_quorum_epoch_response_v1,
}
