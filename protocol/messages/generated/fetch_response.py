"""FetchResponse: generated from Kafka 3.9.2 and 4.4.0's FetchResponse.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_records,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_records,
    read_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    version_error,
    write_compact_nullable_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_bytes,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["FetchResponse", "FetchableTopicResponse", "PartitionData", "EpochEndOffset", "LeaderIdAndEpoch", "SnapshotId", "AbortedTransaction", "NodeEndpoint"]

_S0 = Struct(">ihq")
_S1 = Struct(">i")
_S2 = Struct(">ihqq")
_S3 = Struct(">qq")
_S4 = Struct(">ihqqq")
_S5 = Struct(">ihi")
_S6 = Struct(">iq")
_S7 = Struct(">ii")
_S8 = Struct(">qi")


@dataclass(slots=True)
class EpochEndOffset:
    """In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge."""

    epoch: int = -1
    # versions 12+. The largest epoch.
    end_offset: int = -1
    # versions 12+. The end offset of the epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """The current leader of the partition."""

    leader_id: int = -1
    # versions 12+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = -1
    # versions 12+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class SnapshotId:
    """In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request."""

    end_offset: int = -1
    # versions 0+. The end offset of the epoch.
    epoch: int = -1
    # versions 0+. The largest epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AbortedTransaction:
    """The aborted transactions."""

    producer_id: int = 0
    # versions 4+; entity producerId. The producer id associated with the aborted transaction.
    first_offset: int = 0
    # versions 4+. The first offset in the aborted transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionData:
    """The topic partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no fetch error.
    high_watermark: int = 0
    # versions 0+. The current high water mark.
    last_stable_offset: int = -1
    # versions 4+; ignorable. The last stable offset (or LSO) of the partition. This is the last offset such that the state of all transactional records prior to this offset have been decided (ABORTED or COMMITTED).
    log_start_offset: int = -1
    # versions 5+; ignorable. The current log start offset.
    diverging_epoch: EpochEndOffset = field(default_factory=EpochEndOffset)
    # versions 12+; tag 0 in 12+. In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request, this field indicates the largest epoch and its end offset such that subsequent records are known to diverge.
    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    # versions 12+; tag 1 in 12+. The current leader of the partition.
    snapshot_id: SnapshotId = field(default_factory=SnapshotId)
    # versions 12+; tag 2 in 12+. In the case of fetching an offset less than the LogStartOffset, this is the end offset and epoch that should be used in the FetchSnapshot request.
    aborted_transactions: list[AbortedTransaction] | None = field(default_factory=list)
    # versions 4+; nullable 4+; ignorable. The aborted transactions.
    preferred_read_replica: int = -1
    # versions 11+; entity brokerId. The preferred read replica for the consumer to use on its next fetch request.
    records: bytes | memoryview | None = b""
    # versions 0+; nullable 0+. The record data.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchableTopicResponse:
    """The response topics."""

    topic: str = ''
    # versions 0-12; ignorable; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 13+; ignorable. The unique topic ID.
    partitions: list[PartitionData] = field(default_factory=list)
    # versions 0+. The topic partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH."""

    node_id: int = 0
    # versions 16+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 16+. The node's hostname.
    port: int = 0
    # versions 16+. The node's port.
    rack: str | None = None
    # versions 16+; nullable 16+. The rack of the node, or null if it has not been assigned to a rack.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchResponse(ApiMessage):
    """FetchResponse response"""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = "FetchResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 18
    FLEXIBLE_MIN: ClassVar[int | None] = 12

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 7+; ignorable. The top level response error code.
    session_id: int = 0
    # versions 7+. The fetch session ID, or 0 if this is not part of a fetch session.
    responses: list[FetchableTopicResponse] = field(default_factory=list)
    # versions 0+. The response topics.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 16+; tag 0 in 16+. Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER & FENCED_LEADER_EPOCH.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FetchResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FetchResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FetchResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


# What tagged and version-gated struct fields are compared with; never handed out.
_DEFAULT_EpochEndOffset = EpochEndOffset()
_DEFAULT_LeaderIdAndEpoch = LeaderIdAndEpoch()
_DEFAULT_SnapshotId = SnapshotId()


def _decode_partition_data_v0(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_records: bytes | memoryview | None
    f_partition_index, f_error_code, f_high_watermark = _S0.unpack_from(buf, pos)
    pos += 14
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, -1, -1, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), [], -1, f_records, []), pos


def _decode_fetchable_topic_response_v0(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic: str
    f_partitions: list[PartitionData]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v0(buf, pos)
            f_partitions.append(e_partitions)
    return FetchableTopicResponse(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_response_v0(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(0, 0, 0, f_responses, [], []), pos


def _decode_fetch_response_v1(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v0(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(f_throttle_time_ms, 0, 0, f_responses, [], []), pos


def _decode_aborted_transaction_v4(buf: memoryview, pos: int) -> tuple[AbortedTransaction, int]:
    f_producer_id, f_first_offset = _S3.unpack_from(buf, pos)
    pos += 16
    return AbortedTransaction(f_producer_id, f_first_offset, []), pos


def _decode_partition_data_v4(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_aborted_transactions: list[AbortedTransaction] | None
    f_records: bytes | memoryview | None
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset = _S2.unpack_from(buf, pos)
    pos += 22
    n_aborted_transactions, pos = read_array_length(buf, pos)
    if n_aborted_transactions < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        for _ in range(n_aborted_transactions):
            e_aborted_transactions, pos = _decode_aborted_transaction_v4(buf, pos)
            f_aborted_transactions.append(e_aborted_transactions)
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, -1, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, -1, f_records, []), pos


def _decode_fetchable_topic_response_v4(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic: str
    f_partitions: list[PartitionData]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v4(buf, pos)
            f_partitions.append(e_partitions)
    return FetchableTopicResponse(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_response_v4(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v4(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(f_throttle_time_ms, 0, 0, f_responses, [], []), pos


def _decode_partition_data_v5(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_aborted_transactions: list[AbortedTransaction] | None
    f_records: bytes | memoryview | None
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S4.unpack_from(buf, pos)
    pos += 30
    n_aborted_transactions, pos = read_array_length(buf, pos)
    if n_aborted_transactions < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        for _ in range(n_aborted_transactions):
            e_aborted_transactions, pos = _decode_aborted_transaction_v4(buf, pos)
            f_aborted_transactions.append(e_aborted_transactions)
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, -1, f_records, []), pos


def _decode_fetchable_topic_response_v5(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic: str
    f_partitions: list[PartitionData]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v5(buf, pos)
            f_partitions.append(e_partitions)
    return FetchableTopicResponse(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_response_v5(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v5(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(f_throttle_time_ms, 0, 0, f_responses, [], []), pos


def _decode_fetch_response_v7(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, f_error_code, f_session_id = _S5.unpack_from(buf, pos)
    pos += 10
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v5(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], []), pos


def _decode_partition_data_v11(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_aborted_transactions: list[AbortedTransaction] | None
    f_records: bytes | memoryview | None
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S4.unpack_from(buf, pos)
    pos += 30
    n_aborted_transactions, pos = read_array_length(buf, pos)
    if n_aborted_transactions < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        for _ in range(n_aborted_transactions):
            e_aborted_transactions, pos = _decode_aborted_transaction_v4(buf, pos)
            f_aborted_transactions.append(e_aborted_transactions)
    f_preferred_read_replica, = _S1.unpack_from(buf, pos)
    pos += 4
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, f_preferred_read_replica, f_records, []), pos


def _decode_fetchable_topic_response_v11(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic: str
    f_partitions: list[PartitionData]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v11(buf, pos)
            f_partitions.append(e_partitions)
    return FetchableTopicResponse(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_response_v11(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, f_error_code, f_session_id = _S5.unpack_from(buf, pos)
    pos += 10
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v11(buf, pos)
            f_responses.append(e_responses)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], []), pos


def _decode_aborted_transaction_v12(buf: memoryview, pos: int) -> tuple[AbortedTransaction, int]:
    f_producer_id, f_first_offset = _S3.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AbortedTransaction(f_producer_id, f_first_offset, _unknown), pos


def _decode_epoch_end_offset_v12(buf: memoryview, pos: int) -> tuple[EpochEndOffset, int]:
    f_epoch, f_end_offset = _S6.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EpochEndOffset(f_epoch, f_end_offset, _unknown), pos


def _decode_leader_id_and_epoch_v12(buf: memoryview, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    f_leader_id, f_leader_epoch = _S7.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, _unknown), pos


def _decode_snapshot_id_v12(buf: memoryview, pos: int) -> tuple[SnapshotId, int]:
    f_end_offset, f_epoch = _S8.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SnapshotId(f_end_offset, f_epoch, _unknown), pos


def _decode_partition_data_v12(buf: memoryview, pos: int) -> tuple[PartitionData, int]:
    f_aborted_transactions: list[AbortedTransaction] | None
    f_records: bytes | memoryview | None
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S4.unpack_from(buf, pos)
    pos += 30
    n_aborted_transactions, pos = read_compact_array_length(buf, pos)
    if n_aborted_transactions < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        for _ in range(n_aborted_transactions):
            e_aborted_transactions, pos = _decode_aborted_transaction_v12(buf, pos)
            f_aborted_transactions.append(e_aborted_transactions)
    f_preferred_read_replica, = _S1.unpack_from(buf, pos)
    pos += 4
    f_records, pos = read_compact_nullable_records(buf, pos)
    f_diverging_epoch: EpochEndOffset = EpochEndOffset()
    f_current_leader: LeaderIdAndEpoch = LeaderIdAndEpoch()
    f_snapshot_id: SnapshotId = SnapshotId()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_diverging_epoch, pos = _decode_epoch_end_offset_v12(buf, pos)
            elif _tag == 1:
                f_current_leader, pos = _decode_leader_id_and_epoch_v12(buf, pos)
            elif _tag == 2:
                f_snapshot_id, pos = _decode_snapshot_id_v12(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, f_diverging_epoch, f_current_leader, f_snapshot_id, f_aborted_transactions, f_preferred_read_replica, f_records, _unknown), pos


def _decode_fetchable_topic_response_v12(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic: str
    f_partitions: list[PartitionData]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v12(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchableTopicResponse(f_topic, ZERO_UUID, f_partitions, _unknown), pos


def _decode_fetch_response_v12(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, f_error_code, f_session_id = _S5.unpack_from(buf, pos)
    pos += 10
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v12(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], _unknown), pos


def _decode_fetchable_topic_response_v13(buf: memoryview, pos: int) -> tuple[FetchableTopicResponse, int]:
    f_topic_id: UUID
    f_partitions: list[PartitionData]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_data_v12(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchableTopicResponse('', f_topic_id, f_partitions, _unknown), pos


def _decode_fetch_response_v13(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, f_error_code, f_session_id = _S5.unpack_from(buf, pos)
    pos += 10
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v13(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], _unknown), pos


def _decode_node_endpoint_v16(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, _unknown), pos


def _decode_fetch_response_v16(buf: memoryview, pos: int) -> tuple[FetchResponse, int]:
    f_responses: list[FetchableTopicResponse]
    f_throttle_time_ms, f_error_code, f_session_id = _S5.unpack_from(buf, pos)
    pos += 10
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_fetchable_topic_response_v13(buf, pos)
            f_responses.append(e_responses)
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
                        e_node_endpoints, pos = _decode_node_endpoint_v16(buf, pos)
                        f_node_endpoints.append(e_node_endpoints)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, f_node_endpoints, _unknown), pos


def _encode_partition_data_v0(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 0)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 0)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 0)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 0)
    out += _S0.pack(m.partition_index, m.error_code, m.high_watermark)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v0(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v0(e_partitions, out)


def _encode_fetch_response_v0(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 0)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 0)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v0(e_responses, out)


def _encode_partition_data_v1(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 1)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 1)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 1)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 1)
    out += _S0.pack(m.partition_index, m.error_code, m.high_watermark)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v1(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v1(e_partitions, out)


def _encode_fetch_response_v1(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 1)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 1)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v1(e_responses, out)


def _encode_partition_data_v2(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 2)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 2)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 2)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 2)
    out += _S0.pack(m.partition_index, m.error_code, m.high_watermark)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v2(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v2(e_partitions, out)


def _encode_fetch_response_v2(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 2)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 2)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v2(e_responses, out)


def _encode_partition_data_v3(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 3)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 3)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 3)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 3)
    out += _S0.pack(m.partition_index, m.error_code, m.high_watermark)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v3(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v3(e_partitions, out)


def _encode_fetch_response_v3(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 3)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 3)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v3(e_responses, out)


def _encode_aborted_transaction_v4(m: AbortedTransaction, out: bytearray) -> None:
    out += _S3.pack(m.producer_id, m.first_offset)


def _encode_partition_data_v4(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 4)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 4)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 4)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 4)
    out += _S2.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v4(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v4(e_partitions, out)


def _encode_fetch_response_v4(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 4)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 4)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v4(e_responses, out)


def _encode_partition_data_v5(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 5)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 5)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 5)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 5)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v5(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v5(e_partitions, out)


def _encode_fetch_response_v5(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 5)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 5)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v5(e_responses, out)


def _encode_partition_data_v6(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 6)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 6)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 6)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 6)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v6(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v6(e_partitions, out)


def _encode_fetch_response_v6(m: FetchResponse, out: bytearray) -> None:
    if m.session_id != 0:
        raise version_error("FetchResponse", "SessionId", 6)
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 6)
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v6(e_responses, out)


def _encode_partition_data_v7(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 7)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 7)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 7)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 7)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v7(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v7(e_partitions, out)


def _encode_fetch_response_v7(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 7)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v7(e_responses, out)


def _encode_partition_data_v8(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 8)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 8)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 8)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 8)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v8(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v8(e_partitions, out)


def _encode_fetch_response_v8(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 8)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v8(e_responses, out)


def _encode_partition_data_v9(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 9)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 9)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 9)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 9)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v9(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v9(e_partitions, out)


def _encode_fetch_response_v9(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 9)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v9(e_responses, out)


def _encode_partition_data_v10(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 10)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 10)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 10)
    if m.preferred_read_replica != -1:
        raise version_error("PartitionData", "PreferredReadReplica", 10)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v10(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v10(e_partitions, out)


def _encode_fetch_response_v10(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 10)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v10(e_responses, out)


def _encode_partition_data_v11(m: PartitionData, out: bytearray) -> None:
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        raise version_error("PartitionData", "DivergingEpoch", 11)
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionData", "CurrentLeader", 11)
    if m.snapshot_id != _DEFAULT_SnapshotId:
        raise version_error("PartitionData", "SnapshotId", 11)
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.aborted_transactions))
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v4(e_aborted_transactions, out)
    out += _S1.pack(m.preferred_read_replica)
    write_nullable_bytes(out, m.records)


def _encode_fetchable_topic_response_v11(m: FetchableTopicResponse, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_partition_data_v11(e_partitions, out)


def _encode_fetch_response_v11(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 11)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v11(e_responses, out)


def _encode_aborted_transaction_v12(m: AbortedTransaction, out: bytearray) -> None:
    out += _S3.pack(m.producer_id, m.first_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_epoch_end_offset_v12(m: EpochEndOffset, out: bytearray) -> None:
    out += _S6.pack(m.epoch, m.end_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_id_and_epoch_v12(m: LeaderIdAndEpoch, out: bytearray) -> None:
    out += _S7.pack(m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_snapshot_id_v12(m: SnapshotId, out: bytearray) -> None:
    out += _S8.pack(m.end_offset, m.epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_data_v12(m: PartitionData, out: bytearray) -> None:
    out += _S4.pack(m.partition_index, m.error_code, m.high_watermark, m.last_stable_offset, m.log_start_offset)
    if m.aborted_transactions is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.aborted_transactions) + 1)
        for e_aborted_transactions in m.aborted_transactions:
            _encode_aborted_transaction_v12(e_aborted_transactions, out)
    out += _S1.pack(m.preferred_read_replica)
    write_compact_nullable_bytes(out, m.records)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.diverging_epoch != _DEFAULT_EpochEndOffset:
        _t = bytearray()
        _encode_epoch_end_offset_v12(m.diverging_epoch, _t)
        _tags.append((0, _t))
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        _t = bytearray()
        _encode_leader_id_and_epoch_v12(m.current_leader, _t)
        _tags.append((1, _t))
    if m.snapshot_id != _DEFAULT_SnapshotId:
        _t = bytearray()
        _encode_snapshot_id_v12(m.snapshot_id, _t)
        _tags.append((2, _t))
    write_tagged_fields(out, _tags)


def _encode_fetchable_topic_response_v12(m: FetchableTopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v12(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_response_v12(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 12)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v12(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetchable_topic_response_v13(m: FetchableTopicResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_data_v12(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_response_v13(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 13)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v13(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_response_v14(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 14)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v13(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_response_v15(m: FetchResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("FetchResponse", "NodeEndpoints", 15)
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v13(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v16(m: NodeEndpoint, out: bytearray) -> None:
    out += _S1.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_response_v16(m: FetchResponse, out: bytearray) -> None:
    out += _S5.pack(m.throttle_time_ms, m.error_code, m.session_id)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_fetchable_topic_response_v13(e_responses, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v16(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FetchResponse, int]]] = {
    0: _decode_fetch_response_v0,
    1: _decode_fetch_response_v1,
    2: _decode_fetch_response_v1,
    3: _decode_fetch_response_v1,
    4: _decode_fetch_response_v4,
    5: _decode_fetch_response_v5,
    6: _decode_fetch_response_v5,
    7: _decode_fetch_response_v7,
    8: _decode_fetch_response_v7,
    9: _decode_fetch_response_v7,
    10: _decode_fetch_response_v7,
    11: _decode_fetch_response_v11,
    12: _decode_fetch_response_v12,
    13: _decode_fetch_response_v13,
    14: _decode_fetch_response_v13,
    15: _decode_fetch_response_v13,
    16: _decode_fetch_response_v16,
    17: _decode_fetch_response_v16,
    18: _decode_fetch_response_v16,
}
_ENCODERS: dict[int, Callable[[FetchResponse, bytearray], None]] = {
    0: _encode_fetch_response_v0,
    1: _encode_fetch_response_v1,
    2: _encode_fetch_response_v2,
    3: _encode_fetch_response_v3,
    4: _encode_fetch_response_v4,
    5: _encode_fetch_response_v5,
    6: _encode_fetch_response_v6,
    7: _encode_fetch_response_v7,
    8: _encode_fetch_response_v8,
    9: _encode_fetch_response_v9,
    10: _encode_fetch_response_v10,
    11: _encode_fetch_response_v11,
    12: _encode_fetch_response_v12,
    13: _encode_fetch_response_v13,
    14: _encode_fetch_response_v14,
    15: _encode_fetch_response_v15,
    16: _encode_fetch_response_v16,
    17: _encode_fetch_response_v16,
    18: _encode_fetch_response_v16,
}
