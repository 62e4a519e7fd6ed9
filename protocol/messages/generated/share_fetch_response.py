"""ShareFetchResponse: generated from Kafka 3.9.2 and 4.4.0's ShareFetchResponse.json by
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
    null_error,
    null_field,
    read_compact_array_length,
    read_compact_nullable_records,
    read_compact_nullable_string,
    read_compact_records,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_bytes,
    write_compact_nullable_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ShareFetchResponse", "ShareFetchableTopicResponse", "PartitionData", "LeaderIdAndEpoch", "AcquiredRecords", "NodeEndpoint"]

_S0 = Struct(">ih")
_S1 = Struct(">h")
_S2 = Struct(">ii")
_S3 = Struct(">qqh")
_S4 = Struct(">i")


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """The current leader of the partition."""

    leader_id: int = 0
    # versions 0+. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = 0
    # versions 0+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AcquiredRecords:
    """The acquired records."""

    first_offset: int = 0
    # versions 0+. The earliest offset in this batch of acquired records.
    last_offset: int = 0
    # versions 0+. The last offset of this batch of acquired records.
    delivery_count: int = 0
    # versions 0+. The delivery count of this batch of acquired records.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The topic partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The fetch error code, or 0 if there was no fetch error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The fetch error message, or null if there was no fetch error.
    acknowledge_error_code: int = 0
    # versions 0+. The acknowledge error code, or 0 if there was no acknowledge error.
    acknowledge_error_message: str | None = None
    # versions 0+; nullable 0+. The acknowledge error message, or null if there was no acknowledge error.
    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    # versions 0+. The current leader of the partition.
    records: bytes | memoryview | None = b""
    # versions 0+; nullable 0. The record data.
    acquired_records: list[AcquiredRecords] = field(default_factory=list)
    # versions 0+. The acquired records.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ShareFetchableTopicResponse:
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
class ShareFetchResponse(ApiMessage):
    """ShareFetchResponse response"""

    API_KEY: ClassVar[int] = 78
    NAME: ClassVar[str] = "ShareFetchResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level response error code.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    responses: list[ShareFetchableTopicResponse] = field(default_factory=list)
    # versions 0+. The response topics.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 0+. Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
    acquisition_lock_timeout_ms: int = 0
    # versions 1+. The time in milliseconds for which the acquired records are locked.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareFetchResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ShareFetchResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareFetchResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ShareFetchResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ShareFetchResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_leader_id_and_epoch_v0(buf: memoryview, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    f_leader_id, f_leader_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, _unknown), pos


def _decode_acquired_records_v0(buf: memoryview, pos: int) -> tuple[AcquiredRecords, int]:
    f_first_offset, f_last_offset, f_delivery_count = _S3.unpack_from(buf, pos)
    pos += 18
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcquiredRecords(f_first_offset, f_last_offset, f_delivery_count, _unknown), pos


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_error_message: str | None
    f_acknowledge_error_message: str | None
    f_current_leader: LeaderIdAndEpoch
    f_records: bytes | memoryview | None
    f_acquired_records: list[AcquiredRecords]
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acknowledge_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_acknowledge_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader, pos = _decode_leader_id_and_epoch_v0(buf, pos)
    f_records, pos = read_compact_nullable_records(buf, pos)
    n_acquired_records, pos = read_compact_array_length(buf, pos)
    if n_acquired_records < 0:
        raise null_field("acquiredRecords")
    else:
        f_acquired_records = []
        for _ in range(n_acquired_records):
            e_acquired_records, pos = _decode_acquired_records_v0(buf, pos)
            f_acquired_records.append(e_acquired_records)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_acknowledge_error_code, f_acknowledge_error_message, f_current_leader, f_records, f_acquired_records, _unknown), pos


def _decode_share_fetchable_topic_response_v0(buf: memoryview, pos: int) -> tuple[ShareFetchableTopicResponse, int]:
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
    return ShareFetchableTopicResponse(f_topic_id, f_partitions, _unknown), pos


def _decode_node_endpoint_v0(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S4.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S4.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, _unknown), pos


def _decode_share_fetch_response_v0(buf: memoryview, pos: int) -> tuple[ShareFetchResponse, int]:
    f_error_message: str | None
    f_responses: list[ShareFetchableTopicResponse]
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
            e_responses, pos = _decode_share_fetchable_topic_response_v0(buf, pos)
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
    return ShareFetchResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, f_node_endpoints, 0, _unknown), pos


def _decode_partition_data_v1(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_error_message: str | None
    f_acknowledge_error_message: str | None
    f_current_leader: LeaderIdAndEpoch
    f_records: bytes | memoryview | None
    f_acquired_records: list[AcquiredRecords]
    f_partition_index, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acknowledge_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_acknowledge_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader, pos = _decode_leader_id_and_epoch_v0(buf, pos)
    f_records, pos = read_compact_records(buf, pos, "records")
    n_acquired_records, pos = read_compact_array_length(buf, pos)
    if n_acquired_records < 0:
        raise null_field("acquiredRecords")
    else:
        f_acquired_records = []
        for _ in range(n_acquired_records):
            e_acquired_records, pos = _decode_acquired_records_v0(buf, pos)
            f_acquired_records.append(e_acquired_records)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_acknowledge_error_code, f_acknowledge_error_message, f_current_leader, f_records, f_acquired_records, _unknown), pos


def _decode_share_fetchable_topic_response_v1(buf: memoryview, pos: int) -> tuple[ShareFetchableTopicResponse, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionData]
    f_topic_id, pos = read_uuid(buf, pos)
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
    return ShareFetchableTopicResponse(f_topic_id, f_partitions, _unknown), pos


def _decode_share_fetch_response_v1(buf: memoryview, pos: int) -> tuple[ShareFetchResponse, int]:
    f_error_message: str | None
    f_responses: list[ShareFetchableTopicResponse]
    f_node_endpoints: list[NodeEndpoint]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acquisition_lock_timeout_ms, = _S4.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_share_fetchable_topic_response_v1(buf, pos)
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
    return ShareFetchResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, f_node_endpoints, f_acquisition_lock_timeout_ms, _unknown), pos


def _encode_leader_id_and_epoch_v0(m: LeaderIdAndEpoch, out: bytearray) -> None:
    out += _S2.pack(m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_acquired_records_v0(m: AcquiredRecords, out: bytearray) -> None:
    out += _S3.pack(m.first_offset, m.last_offset, m.delivery_count)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S1.pack(m.acknowledge_error_code)
    write_compact_nullable_string(out, m.acknowledge_error_message)
    _encode_leader_id_and_epoch_v0(m.current_leader, out)
    write_compact_nullable_bytes(out, m.records)
    write_uvarint(out, len(m.acquired_records) + 1)
    for e_acquired_records in m.acquired_records:
        _encode_acquired_records_v0(e_acquired_records, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetchable_topic_response_v0(m: ShareFetchableTopicResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v0(m: NodeEndpoint, out: bytearray) -> None:
    out += _S4.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S4.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_response_v0(m: ShareFetchResponse, out: bytearray) -> None:
    if m.acquisition_lock_timeout_ms != 0:
        raise version_error("ShareFetchResponse", "AcquisitionLockTimeoutMs", 0)
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_share_fetchable_topic_response_v0(e_responses, out)
    write_uvarint(out, len(m.node_endpoints) + 1)
    for e_node_endpoints in m.node_endpoints:
        _encode_node_endpoint_v0(e_node_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S1.pack(m.acknowledge_error_code)
    write_compact_nullable_string(out, m.acknowledge_error_message)
    _encode_leader_id_and_epoch_v0(m.current_leader, out)
    if m.records is None:
        raise null_error("PartitionData", "Records", 1)
    write_compact_bytes(out, m.records)
    write_uvarint(out, len(m.acquired_records) + 1)
    for e_acquired_records in m.acquired_records:
        _encode_acquired_records_v0(e_acquired_records, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetchable_topic_response_v1(m: ShareFetchableTopicResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_response_v1(m: ShareFetchResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S4.pack(m.acquisition_lock_timeout_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_share_fetchable_topic_response_v1(e_responses, out)
    write_uvarint(out, len(m.node_endpoints) + 1)
    for e_node_endpoints in m.node_endpoints:
        _encode_node_endpoint_v0(e_node_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    out += _S0.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S1.pack(m.acknowledge_error_code)
    write_compact_nullable_string(out, m.acknowledge_error_message)
    _encode_leader_id_and_epoch_v0(m.current_leader, out)
    if m.records is None:
        raise null_error("PartitionData", "Records", 2)
    write_compact_bytes(out, m.records)
    write_uvarint(out, len(m.acquired_records) + 1)
    for e_acquired_records in m.acquired_records:
        _encode_acquired_records_v0(e_acquired_records, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetchable_topic_response_v2(m: ShareFetchableTopicResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_response_v2(m: ShareFetchResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S4.pack(m.acquisition_lock_timeout_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_share_fetchable_topic_response_v2(e_responses, out)
    write_uvarint(out, len(m.node_endpoints) + 1)
    for e_node_endpoints in m.node_endpoints:
        _encode_node_endpoint_v0(e_node_endpoints, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ShareFetchResponse, int]]] = {
    0: _decode_share_fetch_response_v0,
    1: _decode_share_fetch_response_v1,
    2: _decode_share_fetch_response_v1,
}
_ENCODERS: dict[int, Callable[[ShareFetchResponse, bytearray], None]] = {
    0: _encode_share_fetch_response_v0,
    1: _encode_share_fetch_response_v1,
    2: _encode_share_fetch_response_v2,
}
