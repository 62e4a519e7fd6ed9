"""ShareFetchRequest: generated from Kafka 3.9.2 and 4.4.0's ShareFetchRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ShareFetchRequest", "FetchTopic", "FetchPartition", "AcknowledgementBatch", "ForgottenTopic"]

_S0 = Struct(">iiii")
_S1 = Struct(">ii")
_S2 = Struct(">qq")
_S3 = Struct(">iiiiii")
_S4 = Struct(">i")
_S5 = Struct(">iiiiiib?")


@dataclass(slots=True)
class AcknowledgementBatch:
    """Record batches to acknowledge."""

    first_offset: int = 0
    # versions 0+. First offset of batch of records to acknowledge.
    last_offset: int = 0
    # versions 0+. Last offset (inclusive) of batch of records to acknowledge.
    acknowledge_types: list[int] = field(default_factory=list)
    # versions 0+. Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject,4:Renew.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchPartition:
    """The partitions to fetch."""

    partition_index: int = 0
    # versions 0+. The partition index.
    partition_max_bytes: int = 0
    # versions 0. The maximum bytes to fetch from this partition. 0 when only acknowledgement with no fetching is required. See KIP-74 for cases where this limit may not be honored.
    acknowledgement_batches: list[AcknowledgementBatch] = field(default_factory=list)
    # versions 0+. Record batches to acknowledge.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchTopic:
    """The topics to fetch."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    partitions: list[FetchPartition] = field(default_factory=list)
    # versions 0+. The partitions to fetch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ForgottenTopic:
    """The partitions to remove from this share session."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions indexes to forget.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ShareFetchRequest(ApiMessage):
    """ShareFetchRequest request"""

    API_KEY: ClassVar[int] = 78
    NAME: ClassVar[str] = "ShareFetchRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str | None = None
    # versions 0+; nullable 0+; entity groupId. The group identifier.
    member_id: str | None = ''
    # versions 0+; nullable 0+. The member ID.
    share_session_epoch: int = 0
    # versions 0+. The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests.
    max_wait_ms: int = 0
    # versions 0+. The maximum time in milliseconds to wait for the response.
    min_bytes: int = 0
    # versions 0+. The minimum bytes to accumulate in the response.
    max_bytes: int = 2147483647
    # versions 0+. The maximum bytes to fetch. See KIP-74 for cases where this limit may not be honored.
    topics: list[FetchTopic] = field(default_factory=list)
    # versions 0+. The topics to fetch.
    forgotten_topics_data: list[ForgottenTopic] = field(default_factory=list)
    # versions 0+. The partitions to remove from this share session.
    max_records: int = 0
    # versions 1+. The maximum number of records to fetch. This limit can be exceeded for alignment of batch boundaries.
    batch_size: int = 0
    # versions 1+. The optimal number of records for batches of acquired records and acknowledgements.
    share_acquire_mode: int = 0
    # versions 2+; ignorable. The acquire mode to control the fetch behavior - 0:batch-optimized,1:record-limit.
    is_renew_ack: bool = False
    # versions 2+. Whether Renew type acknowledgements present in AcknowledgementBatches.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareFetchRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ShareFetchRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareFetchRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ShareFetchRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ShareFetchRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_acknowledgement_batch_v0(buf: memoryview, pos: int) -> tuple[AcknowledgementBatch, int]:
    f_acknowledge_types: list[int]
    f_first_offset, f_last_offset = _S2.unpack_from(buf, pos)
    pos += 16
    n_acknowledge_types, pos = read_compact_array_length(buf, pos)
    if n_acknowledge_types < 0:
        raise null_field("acknowledgeTypes")
    else:
        f_acknowledge_types = list(unpack_from(f">{n_acknowledge_types}b", buf, pos))
        pos += 1 * n_acknowledge_types
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcknowledgementBatch(f_first_offset, f_last_offset, f_acknowledge_types, _unknown), pos


def _decode_fetch_partition_v0(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_acknowledgement_batches: list[AcknowledgementBatch]
    f_partition_index, f_partition_max_bytes = _S1.unpack_from(buf, pos)
    pos += 8
    n_acknowledgement_batches, pos = read_compact_array_length(buf, pos)
    if n_acknowledgement_batches < 0:
        raise null_field("acknowledgementBatches")
    else:
        f_acknowledgement_batches = []
        for _ in range(n_acknowledgement_batches):
            e_acknowledgement_batches, pos = _decode_acknowledgement_batch_v0(buf, pos)
            f_acknowledgement_batches.append(e_acknowledgement_batches)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchPartition(f_partition_index, f_partition_max_bytes, f_acknowledgement_batches, _unknown), pos


def _decode_fetch_topic_v0(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic_id: UUID
    f_partitions: list[FetchPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic(f_topic_id, f_partitions, _unknown), pos


def _decode_forgotten_topic_v0(buf: memoryview, pos: int) -> tuple[ForgottenTopic, int]:
    f_topic_id: UUID
    f_partitions: list[int]
    f_topic_id, pos = read_uuid(buf, pos)
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
    return ForgottenTopic(f_topic_id, f_partitions, _unknown), pos


def _decode_share_fetch_request_v0(buf: memoryview, pos: int) -> tuple[ShareFetchRequest, int]:
    f_group_id: str | None
    f_member_id: str | None
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes = _S0.unpack_from(buf, pos)
    pos += 16
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v0(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v0(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareFetchRequest(f_group_id, f_member_id, f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_topics, f_forgotten_topics_data, 0, 0, 0, False, _unknown), pos


def _decode_fetch_partition_v1(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_acknowledgement_batches: list[AcknowledgementBatch]
    f_partition_index, = _S4.unpack_from(buf, pos)
    pos += 4
    n_acknowledgement_batches, pos = read_compact_array_length(buf, pos)
    if n_acknowledgement_batches < 0:
        raise null_field("acknowledgementBatches")
    else:
        f_acknowledgement_batches = []
        for _ in range(n_acknowledgement_batches):
            e_acknowledgement_batches, pos = _decode_acknowledgement_batch_v0(buf, pos)
            f_acknowledgement_batches.append(e_acknowledgement_batches)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchPartition(f_partition_index, 0, f_acknowledgement_batches, _unknown), pos


def _decode_fetch_topic_v1(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic_id: UUID
    f_partitions: list[FetchPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic(f_topic_id, f_partitions, _unknown), pos


def _decode_share_fetch_request_v1(buf: memoryview, pos: int) -> tuple[ShareFetchRequest, int]:
    f_group_id: str | None
    f_member_id: str | None
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size = _S3.unpack_from(buf, pos)
    pos += 24
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v1(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v0(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareFetchRequest(f_group_id, f_member_id, f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_topics, f_forgotten_topics_data, f_max_records, f_batch_size, 0, False, _unknown), pos


def _decode_share_fetch_request_v2(buf: memoryview, pos: int) -> tuple[ShareFetchRequest, int]:
    f_group_id: str | None
    f_member_id: str | None
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size, f_share_acquire_mode, f_is_renew_ack = _S5.unpack_from(buf, pos)
    pos += 26
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v1(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v0(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareFetchRequest(f_group_id, f_member_id, f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_topics, f_forgotten_topics_data, f_max_records, f_batch_size, f_share_acquire_mode, f_is_renew_ack, _unknown), pos


def _encode_acknowledgement_batch_v0(m: AcknowledgementBatch, out: bytearray) -> None:
    out += _S2.pack(m.first_offset, m.last_offset)
    write_uvarint(out, len(m.acknowledge_types) + 1)
    out += pack(f">{len(m.acknowledge_types)}b", *m.acknowledge_types)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_partition_v0(m: FetchPartition, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.partition_max_bytes)
    write_uvarint(out, len(m.acknowledgement_batches) + 1)
    for e_acknowledgement_batches in m.acknowledgement_batches:
        _encode_acknowledgement_batch_v0(e_acknowledgement_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_topic_v0(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_forgotten_topic_v0(m: ForgottenTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_request_v0(m: ShareFetchRequest, out: bytearray) -> None:
    if m.max_records != 0:
        raise version_error("ShareFetchRequest", "MaxRecords", 0)
    if m.batch_size != 0:
        raise version_error("ShareFetchRequest", "BatchSize", 0)
    if m.is_renew_ack:
        raise version_error("ShareFetchRequest", "IsRenewAck", 0)
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S0.pack(m.share_session_epoch, m.max_wait_ms, m.min_bytes, m.max_bytes)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v0(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v0(e_forgotten_topics_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_partition_v1(m: FetchPartition, out: bytearray) -> None:
    if m.partition_max_bytes != 0:
        raise version_error("FetchPartition", "PartitionMaxBytes", 1)
    out += _S4.pack(m.partition_index)
    write_uvarint(out, len(m.acknowledgement_batches) + 1)
    for e_acknowledgement_batches in m.acknowledgement_batches:
        _encode_acknowledgement_batch_v0(e_acknowledgement_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_topic_v1(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_request_v1(m: ShareFetchRequest, out: bytearray) -> None:
    if m.is_renew_ack:
        raise version_error("ShareFetchRequest", "IsRenewAck", 1)
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S3.pack(m.share_session_epoch, m.max_wait_ms, m.min_bytes, m.max_bytes, m.max_records, m.batch_size)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v1(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v0(e_forgotten_topics_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_partition_v2(m: FetchPartition, out: bytearray) -> None:
    if m.partition_max_bytes != 0:
        raise version_error("FetchPartition", "PartitionMaxBytes", 2)
    out += _S4.pack(m.partition_index)
    write_uvarint(out, len(m.acknowledgement_batches) + 1)
    for e_acknowledgement_batches in m.acknowledgement_batches:
        _encode_acknowledgement_batch_v0(e_acknowledgement_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_topic_v2(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_fetch_request_v2(m: ShareFetchRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S5.pack(m.share_session_epoch, m.max_wait_ms, m.min_bytes, m.max_bytes, m.max_records, m.batch_size, m.share_acquire_mode, m.is_renew_ack)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v2(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v0(e_forgotten_topics_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ShareFetchRequest, int]]] = {
    0: _decode_share_fetch_request_v0,
    1: _decode_share_fetch_request_v1,
    2: _decode_share_fetch_request_v2,
}
_ENCODERS: dict[int, Callable[[ShareFetchRequest, bytearray], None]] = {
    0: _encode_share_fetch_request_v0,
    1: _encode_share_fetch_request_v1,
    2: _encode_share_fetch_request_v2,
}
