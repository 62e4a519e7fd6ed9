"""ShareAcknowledgeResponse: generated from Kafka 3.9.2 and 4.4.0's ShareAcknowledgeResponse.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ShareAcknowledgeResponse", "ShareAcknowledgeTopicResponse", "PartitionData", "LeaderIdAndEpoch", "NodeEndpoint"]

_S0 = Struct(">ih")
_S1 = Struct(">ii")
_S2 = Struct(">i")


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """The current leader of the partition."""

    leader_id: int = 0
    # versions 0+. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The topic partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The error message, or null if there was no error.
    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    # versions 0+. The current leader of the partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ShareAcknowledgeTopicResponse:
    """The response topics."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The topic partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER."""

    node_id: int = 0
    # versions 0+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 0+. The node's hostname.
    port: int = 0
    # versions 0+. The node's port.
    rack: str | None = None
    # versions 0+; nullable 0+. The rack of the node, or null if it has not been assigned to a rack.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ShareAcknowledgeResponse(ApiMessage):
    """ShareAcknowledgeResponse response"""

    API_KEY: ClassVar[int] = 79
    NAME: ClassVar[str] = "ShareAcknowledgeResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top level response error code.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    responses: list[ShareAcknowledgeTopicResponse] = field(default_factory=list)
    # versions 0+. The response topics.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 0+. Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
    acquisition_lock_timeout_ms: int = 0
    # versions 2+; ignorable. The time in milliseconds for which the acquired records are locked.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareAcknowledgeResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ShareAcknowledgeResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareAcknowledgeResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ShareAcknowledgeResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ShareAcknowledgeResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leader_id_and_epoch_v0(buf: memoryview, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, _unknown), pos


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_error_message: str | None
    f_current_leader: LeaderIdAndEpoch
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader, pos = _decode_leader_id_and_epoch_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_current_leader, _unknown), pos


def _decode_share_acknowledge_topic_response_v0(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeTopicResponse, int]:
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
    return ShareAcknowledgeTopicResponse(f_topic_id, f_partitions, _unknown), pos


def _decode_node_endpoint_v0(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S2.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, _unknown), pos


def _decode_share_acknowledge_response_v0(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeResponse, int]:
    f_error_message: str | None
    f_responses: list[ShareAcknowledgeTopicResponse]
    f_node_endpoints: list[NodeEndpoint]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_share_acknowledge_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    n_node_endpoints, pos = read_compact_array_length(buf, pos)
    if n_node_endpoints < 0:
        raise null_field("nodeEndpoints")
    else:
        f_node_endpoints = []
        for _ in range(n_node_endpoints):
            e_node_endpoints, pos = _decode_node_endpoint_v0(buf, pos)
            f_node_endpoints.append(e_node_endpoints)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareAcknowledgeResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, f_node_endpoints, 0, _unknown), pos


def _decode_share_acknowledge_response_v2(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeResponse, int]:
    f_error_message: str | None
    f_responses: list[ShareAcknowledgeTopicResponse]
    f_node_endpoints: list[NodeEndpoint]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acquisition_lock_timeout_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_share_acknowledge_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    n_node_endpoints, pos = read_compact_array_length(buf, pos)
    if n_node_endpoints < 0:
        raise null_field("nodeEndpoints")
    else:
        f_node_endpoints = []
        for _ in range(n_node_endpoints):
            e_node_endpoints, pos = _decode_node_endpoint_v0(buf, pos)
            f_node_endpoints.append(e_node_endpoints)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareAcknowledgeResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, f_node_endpoints, f_acquisition_lock_timeout_ms, _unknown), pos


def _encode_leader_id_and_epoch_v0(m: LeaderIdAndEpoch, out: bytearray) -> None:
    out += _S1.pack(m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    _encode_leader_id_and_epoch_v0(m.current_leader, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_topic_response_v0(m: ShareAcknowledgeTopicResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v0(m: NodeEndpoint, out: bytearray) -> None:
    out += _S2.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S2.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_response_v0(m: ShareAcknowledgeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_share_acknowledge_topic_response_v0(e_responses, out)
    write_uvarint(out, len(m.node_endpoints) + 1)
    for e_node_endpoints in m.node_endpoints:
        _encode_node_endpoint_v0(e_node_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_response_v2(m: ShareAcknowledgeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.acquisition_lock_timeout_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_share_acknowledge_topic_response_v0(e_responses, out)
    write_uvarint(out, len(m.node_endpoints) + 1)
    for e_node_endpoints in m.node_endpoints:
        _encode_node_endpoint_v0(e_node_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ShareAcknowledgeResponse, int]]] = {
    0: _decode_share_acknowledge_response_v0,
    1: _decode_share_acknowledge_response_v0,
    2: _decode_share_acknowledge_response_v2,
}
_ENCODERS: dict[int, Callable[[ShareAcknowledgeResponse, bytearray], None]] = {
    0: _encode_share_acknowledge_response_v0,
    1: _encode_share_acknowledge_response_v0,
    2: _encode_share_acknowledge_response_v2,
}
