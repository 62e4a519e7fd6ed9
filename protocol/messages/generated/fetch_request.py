"""FetchRequest: generated from Kafka 3.9.2 and 4.4.0's FetchRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["FetchRequest", "ReplicaState", "FetchTopic", "FetchPartition", "ForgottenTopic"]

_S0 = Struct(">iii")
_S1 = Struct(">iqi")
_S2 = Struct(">iiii")
_S3 = Struct(">iiiib")
_S4 = Struct(">iqqi")
_S5 = Struct(">iiiibii")
_S6 = Struct(">iiqqi")
_S7 = Struct(">iiqiqi")
_S8 = Struct(">iiibii")
_S9 = Struct(">iq")
_S10 = Struct(">q")


@dataclass(slots=True)
class ReplicaState:
    """The state of the replica in the follower."""

    replica_id: int = -1
    # versions 15+; entity brokerId. The replica ID of the follower, or -1 if this request is from a consumer.
    replica_epoch: int = -1
    # versions 15+. The epoch of this follower, or -1 if not available.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchPartition:
    """The partitions to fetch."""

    partition: int = 0
    # versions 0+. The partition index.
    current_leader_epoch: int = -1
    # versions 9+; ignorable. The current leader epoch of the partition.
    fetch_offset: int = 0
    # versions 0+. The message offset.
    last_fetched_epoch: int = -1
    # versions 12+. The epoch of the last fetched record or -1 if there is none.
    log_start_offset: int = -1
    # versions 5+; ignorable. The earliest available offset of the follower replica.  The field is only used when the request is sent by the follower.
    partition_max_bytes: int = 0
    # versions 0+. The maximum bytes to fetch from this partition.  See KIP-74 for cases where this limit may not be honored.
    replica_directory_id: UUID = ZERO_UUID
    # versions 17+; tag 0 in 17+; ignorable. The directory id of the follower fetching.
    high_watermark: int = 9223372036854775807
    # versions 18+; tag 1 in 18+; ignorable. The high-watermark known by the replica. -1 if the high-watermark is not known and 9223372036854775807 if the feature is not supported.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchTopic:
    """The topics to fetch."""

    topic: str = ''
    # versions 0-12; ignorable; entity topicName. The name of the topic to fetch.
    topic_id: UUID = ZERO_UUID
    # versions 13+; ignorable. The unique topic ID.
    partitions: list[FetchPartition] = field(default_factory=list)
    # versions 0+. The partitions to fetch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ForgottenTopic:
    """In an incremental fetch request, the partitions to remove."""

    topic: str = ''
    # versions 7-12; ignorable; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 13+; ignorable. The unique topic ID.
    partitions: list[int] = field(default_factory=list)
    # versions 7+. The partitions indexes to forget.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FetchRequest(ApiMessage):
    """FetchRequest request"""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = "FetchRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 18
    FLEXIBLE_MIN: ClassVar[int | None] = 12

    cluster_id: str | None = None
    # versions 12+; nullable 12+; tag 0 in 12+; ignorable. The clusterId if known. This is used to validate metadata fetches prior to broker registration.
    replica_id: int = -1
    # versions 0-14; entity brokerId. The broker ID of the follower, of -1 if this request is from a consumer.
    replica_state: ReplicaState = field(default_factory=ReplicaState)
    # versions 15+; tag 1 in 15+. The state of the replica in the follower.
    max_wait_ms: int = 0
    # versions 0+. The maximum time in milliseconds to wait for the response.
    min_bytes: int = 0
    # versions 0+. The minimum bytes to accumulate in the response.
    max_bytes: int = 2147483647
    # versions 3+; ignorable. The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored.
    isolation_level: int = 0
    # versions 4+; ignorable. This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted transactions in the result, which allows consumers to discard ABORTED transactional records.
    session_id: int = 0
    # versions 7+; ignorable. The fetch session ID.
    session_epoch: int = -1
    # versions 7+; ignorable. The fetch session epoch, which is used for ordering requests in a session.
    topics: list[FetchTopic] = field(default_factory=list)
    # versions 0+. The topics to fetch.
    forgotten_topics_data: list[ForgottenTopic] = field(default_factory=list)
    # versions 7+. In an incremental fetch request, the partitions to remove.
    rack_id: str = ''
    # versions 11+; ignorable. Rack ID of the consumer making this request.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FetchRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FetchRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FetchRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FetchRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


# What tagged and version-gated struct fields are compared with; never handed out.
_DEFAULT_ReplicaState = ReplicaState()


def _decode_fetch_partition_v0(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_fetch_offset, f_partition_max_bytes = _S1.unpack_from(buf, pos)
    pos += 16
    return FetchPartition(f_partition, -1, f_fetch_offset, -1, -1, f_partition_max_bytes, ZERO_UUID, 9223372036854775807, []), pos


def _decode_fetch_topic_v0(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic: str
    f_partitions: list[FetchPartition]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return FetchTopic(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_request_v0(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes = _S0.unpack_from(buf, pos)
    pos += 12
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, 2147483647, 0, 0, -1, f_topics, [], '', []), pos


def _decode_fetch_request_v3(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes = _S2.unpack_from(buf, pos)
    pos += 16
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, 0, 0, -1, f_topics, [], '', []), pos


def _decode_fetch_request_v4(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 17
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, 0, -1, f_topics, [], '', []), pos


def _decode_fetch_partition_v5(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_fetch_offset, f_log_start_offset, f_partition_max_bytes = _S4.unpack_from(buf, pos)
    pos += 24
    return FetchPartition(f_partition, -1, f_fetch_offset, -1, f_log_start_offset, f_partition_max_bytes, ZERO_UUID, 9223372036854775807, []), pos


def _decode_fetch_topic_v5(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic: str
    f_partitions: list[FetchPartition]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v5(buf, pos)
            f_partitions.append(e_partitions)
    return FetchTopic(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_request_v5(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level = _S3.unpack_from(buf, pos)
    pos += 17
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v5(buf, pos)
            f_topics.append(e_topics)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, 0, -1, f_topics, [], '', []), pos


def _decode_forgotten_topic_v7(buf: memoryview, pos: int) -> tuple[ForgottenTopic, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    return ForgottenTopic(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_request_v7(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S5.unpack_from(buf, pos)
    pos += 25
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v5(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v7(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, '', []), pos


def _decode_fetch_partition_v9(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_current_leader_epoch, f_fetch_offset, f_log_start_offset, f_partition_max_bytes = _S6.unpack_from(buf, pos)
    pos += 28
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, -1, f_log_start_offset, f_partition_max_bytes, ZERO_UUID, 9223372036854775807, []), pos


def _decode_fetch_topic_v9(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic: str
    f_partitions: list[FetchPartition]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v9(buf, pos)
            f_partitions.append(e_partitions)
    return FetchTopic(f_topic, ZERO_UUID, f_partitions, []), pos


def _decode_fetch_request_v9(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S5.unpack_from(buf, pos)
    pos += 25
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v9(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v7(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, '', []), pos


def _decode_fetch_request_v11(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S5.unpack_from(buf, pos)
    pos += 25
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v9(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v7(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_string(buf, pos, "rackId")
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, []), pos


def _decode_fetch_partition_v12(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S7.unpack_from(buf, pos)
    pos += 32
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, ZERO_UUID, 9223372036854775807, _unknown), pos


def _decode_fetch_topic_v12(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic: str
    f_partitions: list[FetchPartition]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v12(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic(f_topic, ZERO_UUID, f_partitions, _unknown), pos


def _decode_forgotten_topic_v12(buf: memoryview, pos: int) -> tuple[ForgottenTopic, int]:
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
    return ForgottenTopic(f_topic, ZERO_UUID, f_partitions, _unknown), pos


def _decode_fetch_request_v12(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S5.unpack_from(buf, pos)
    pos += 25
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v12(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v12(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_compact_string(buf, pos, "rackId")
    f_cluster_id: str | None = None
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchRequest(f_cluster_id, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, _unknown), pos


def _decode_fetch_topic_v13(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic_id: UUID
    f_partitions: list[FetchPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v12(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic('', f_topic_id, f_partitions, _unknown), pos


def _decode_forgotten_topic_v13(buf: memoryview, pos: int) -> tuple[ForgottenTopic, int]:
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
    return ForgottenTopic('', f_topic_id, f_partitions, _unknown), pos


def _decode_fetch_request_v13(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S5.unpack_from(buf, pos)
    pos += 25
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v13(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v13(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_compact_string(buf, pos, "rackId")
    f_cluster_id: str | None = None
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchRequest(f_cluster_id, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, _unknown), pos


def _decode_replica_state_v15(buf: memoryview, pos: int) -> tuple[ReplicaState, int]:
    f_replica_id, f_replica_epoch = _S9.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaState(f_replica_id, f_replica_epoch, _unknown), pos


def _decode_fetch_request_v15(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S8.unpack_from(buf, pos)
    pos += 21
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v13(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v13(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_compact_string(buf, pos, "rackId")
    f_cluster_id: str | None = None
    f_replica_state: ReplicaState = ReplicaState()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            elif _tag == 1:
                f_replica_state, pos = _decode_replica_state_v15(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, _unknown), pos


def _decode_fetch_partition_v17(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S7.unpack_from(buf, pos)
    pos += 32
    f_replica_directory_id: UUID = ZERO_UUID
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_replica_directory_id, pos = read_uuid(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, f_replica_directory_id, 9223372036854775807, _unknown), pos


def _decode_fetch_topic_v17(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic_id: UUID
    f_partitions: list[FetchPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v17(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic('', f_topic_id, f_partitions, _unknown), pos


def _decode_fetch_request_v17(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S8.unpack_from(buf, pos)
    pos += 21
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v17(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v13(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_compact_string(buf, pos, "rackId")
    f_cluster_id: str | None = None
    f_replica_state: ReplicaState = ReplicaState()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            elif _tag == 1:
                f_replica_state, pos = _decode_replica_state_v15(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, _unknown), pos


def _decode_fetch_partition_v18(buf: memoryview, pos: int) -> tuple[FetchPartition, int]:
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S7.unpack_from(buf, pos)
    pos += 32
    f_replica_directory_id: UUID = ZERO_UUID
    f_high_watermark: int = 9223372036854775807
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_replica_directory_id, pos = read_uuid(buf, pos)
            elif _tag == 1:
                f_high_watermark, = _S10.unpack_from(buf, pos)
                pos += 8
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, f_replica_directory_id, f_high_watermark, _unknown), pos


def _decode_fetch_topic_v18(buf: memoryview, pos: int) -> tuple[FetchTopic, int]:
    f_topic_id: UUID
    f_partitions: list[FetchPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_fetch_partition_v18(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FetchTopic('', f_topic_id, f_partitions, _unknown), pos


def _decode_fetch_request_v18(buf: memoryview, pos: int) -> tuple[FetchRequest, int]:
    f_topics: list[FetchTopic]
    f_forgotten_topics_data: list[ForgottenTopic]
    f_rack_id: str
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S8.unpack_from(buf, pos)
    pos += 21
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_fetch_topic_v18(buf, pos)
            f_topics.append(e_topics)
    n_forgotten_topics_data, pos = read_compact_array_length(buf, pos)
    if n_forgotten_topics_data < 0:
        raise null_field("forgottenTopicsData")
    else:
        f_forgotten_topics_data = []
        for _ in range(n_forgotten_topics_data):
            e_forgotten_topics_data, pos = _decode_forgotten_topic_v13(buf, pos)
            f_forgotten_topics_data.append(e_forgotten_topics_data)
    f_rack_id, pos = read_compact_string(buf, pos, "rackId")
    f_cluster_id: str | None = None
    f_replica_state: ReplicaState = ReplicaState()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_cluster_id, pos = read_compact_nullable_string(buf, pos)
            elif _tag == 1:
                f_replica_state, pos = _decode_replica_state_v15(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, _unknown), pos


def _encode_fetch_partition_v0(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 0)
    out += _S1.pack(m.partition, m.fetch_offset, m.partition_max_bytes)


def _encode_fetch_topic_v0(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v0(e_partitions, out)


def _encode_fetch_request_v0(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 0)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 0)
    out += _S0.pack(m.replica_id, m.max_wait_ms, m.min_bytes)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v0(e_topics, out)


def _encode_fetch_partition_v1(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 1)
    out += _S1.pack(m.partition, m.fetch_offset, m.partition_max_bytes)


def _encode_fetch_topic_v1(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v1(e_partitions, out)


def _encode_fetch_request_v1(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 1)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 1)
    out += _S0.pack(m.replica_id, m.max_wait_ms, m.min_bytes)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v1(e_topics, out)


def _encode_fetch_partition_v2(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 2)
    out += _S1.pack(m.partition, m.fetch_offset, m.partition_max_bytes)


def _encode_fetch_topic_v2(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v2(e_partitions, out)


def _encode_fetch_request_v2(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 2)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 2)
    out += _S0.pack(m.replica_id, m.max_wait_ms, m.min_bytes)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v2(e_topics, out)


def _encode_fetch_partition_v3(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 3)
    out += _S1.pack(m.partition, m.fetch_offset, m.partition_max_bytes)


def _encode_fetch_topic_v3(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v3(e_partitions, out)


def _encode_fetch_request_v3(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 3)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 3)
    out += _S2.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v3(e_topics, out)


def _encode_fetch_partition_v4(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 4)
    out += _S1.pack(m.partition, m.fetch_offset, m.partition_max_bytes)


def _encode_fetch_topic_v4(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v4(e_partitions, out)


def _encode_fetch_request_v4(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 4)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 4)
    out += _S3.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v4(e_topics, out)


def _encode_fetch_partition_v5(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 5)
    out += _S4.pack(m.partition, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v5(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v5(e_partitions, out)


def _encode_fetch_request_v5(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 5)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 5)
    out += _S3.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v5(e_topics, out)


def _encode_fetch_partition_v6(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 6)
    out += _S4.pack(m.partition, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v6(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v6(e_partitions, out)


def _encode_fetch_request_v6(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 6)
    if len(m.forgotten_topics_data) > 0:
        raise version_error("FetchRequest", "ForgottenTopicsData", 6)
    out += _S3.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v6(e_topics, out)


def _encode_fetch_partition_v7(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 7)
    out += _S4.pack(m.partition, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v7(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v7(e_partitions, out)


def _encode_forgotten_topic_v7(m: ForgottenTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    out += pack(f">{len(m.partitions)}i", *m.partitions)


def _encode_fetch_request_v7(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 7)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v7(e_topics, out)
    out += pack_int32(len(m.forgotten_topics_data))
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v7(e_forgotten_topics_data, out)


def _encode_fetch_partition_v8(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 8)
    out += _S4.pack(m.partition, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v8(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v8(e_partitions, out)


def _encode_fetch_request_v8(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 8)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v8(e_topics, out)
    out += pack_int32(len(m.forgotten_topics_data))
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v7(e_forgotten_topics_data, out)


def _encode_fetch_partition_v9(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 9)
    out += _S6.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v9(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v9(e_partitions, out)


def _encode_fetch_request_v9(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 9)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v9(e_topics, out)
    out += pack_int32(len(m.forgotten_topics_data))
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v7(e_forgotten_topics_data, out)


def _encode_fetch_partition_v10(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 10)
    out += _S6.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v10(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v10(e_partitions, out)


def _encode_fetch_request_v10(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 10)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v10(e_topics, out)
    out += pack_int32(len(m.forgotten_topics_data))
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v7(e_forgotten_topics_data, out)


def _encode_fetch_partition_v11(m: FetchPartition, out: bytearray) -> None:
    if m.last_fetched_epoch != -1:
        raise version_error("FetchPartition", "LastFetchedEpoch", 11)
    out += _S6.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.log_start_offset, m.partition_max_bytes)


def _encode_fetch_topic_v11(m: FetchTopic, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_fetch_partition_v11(e_partitions, out)


def _encode_fetch_request_v11(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 11)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_fetch_topic_v11(e_topics, out)
    out += pack_int32(len(m.forgotten_topics_data))
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v7(e_forgotten_topics_data, out)
    write_string(out, m.rack_id)


def _encode_fetch_partition_v12(m: FetchPartition, out: bytearray) -> None:
    out += _S7.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.last_fetched_epoch, m.log_start_offset, m.partition_max_bytes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_topic_v12(m: FetchTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v12(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_forgotten_topic_v12(m: ForgottenTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_request_v12(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 12)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v12(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v12(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_topic_v13(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v12(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_forgotten_topic_v13(m: ForgottenTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_request_v13(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 13)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v13(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_request_v14(m: FetchRequest, out: bytearray) -> None:
    if m.replica_state != _DEFAULT_ReplicaState:
        raise version_error("FetchRequest", "ReplicaState", 14)
    out += _S5.pack(m.replica_id, m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v13(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_replica_state_v15(m: ReplicaState, out: bytearray) -> None:
    out += _S9.pack(m.replica_id, m.replica_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_request_v15(m: FetchRequest, out: bytearray) -> None:
    if m.replica_id != -1:
        raise version_error("FetchRequest", "ReplicaId", 15)
    out += _S8.pack(m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v13(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    if m.replica_state != _DEFAULT_ReplicaState:
        _t = bytearray()
        _encode_replica_state_v15(m.replica_state, _t)
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_request_v16(m: FetchRequest, out: bytearray) -> None:
    if m.replica_id != -1:
        raise version_error("FetchRequest", "ReplicaId", 16)
    out += _S8.pack(m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v13(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    if m.replica_state != _DEFAULT_ReplicaState:
        _t = bytearray()
        _encode_replica_state_v15(m.replica_state, _t)
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_partition_v17(m: FetchPartition, out: bytearray) -> None:
    out += _S7.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.last_fetched_epoch, m.log_start_offset, m.partition_max_bytes)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.replica_directory_id != ZERO_UUID:
        _t = bytearray()
        _t += m.replica_directory_id.bytes
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_topic_v17(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v17(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_request_v17(m: FetchRequest, out: bytearray) -> None:
    if m.replica_id != -1:
        raise version_error("FetchRequest", "ReplicaId", 17)
    out += _S8.pack(m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v17(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    if m.replica_state != _DEFAULT_ReplicaState:
        _t = bytearray()
        _encode_replica_state_v15(m.replica_state, _t)
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_partition_v18(m: FetchPartition, out: bytearray) -> None:
    out += _S7.pack(m.partition, m.current_leader_epoch, m.fetch_offset, m.last_fetched_epoch, m.log_start_offset, m.partition_max_bytes)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.replica_directory_id != ZERO_UUID:
        _t = bytearray()
        _t += m.replica_directory_id.bytes
        _tags.append((0, _t))
    if m.high_watermark != 9223372036854775807:
        _t = bytearray()
        _t += _S10.pack(m.high_watermark)
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


def _encode_fetch_topic_v18(m: FetchTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_fetch_partition_v18(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_fetch_request_v18(m: FetchRequest, out: bytearray) -> None:
    if m.replica_id != -1:
        raise version_error("FetchRequest", "ReplicaId", 18)
    out += _S8.pack(m.max_wait_ms, m.min_bytes, m.max_bytes, m.isolation_level, m.session_id, m.session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_fetch_topic_v18(e_topics, out)
    write_uvarint(out, len(m.forgotten_topics_data) + 1)
    for e_forgotten_topics_data in m.forgotten_topics_data:
        _encode_forgotten_topic_v13(e_forgotten_topics_data, out)
    write_compact_string(out, m.rack_id)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.cluster_id is not None:
        _t = bytearray()
        write_compact_nullable_string(_t, m.cluster_id)
        _tags.append((0, _t))
    if m.replica_state != _DEFAULT_ReplicaState:
        _t = bytearray()
        _encode_replica_state_v15(m.replica_state, _t)
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FetchRequest, int]]] = {
    0: _decode_fetch_request_v0,
    1: _decode_fetch_request_v0,
    2: _decode_fetch_request_v0,
    3: _decode_fetch_request_v3,
    4: _decode_fetch_request_v4,
    5: _decode_fetch_request_v5,
    6: _decode_fetch_request_v5,
    7: _decode_fetch_request_v7,
    8: _decode_fetch_request_v7,
    9: _decode_fetch_request_v9,
    10: _decode_fetch_request_v9,
    11: _decode_fetch_request_v11,
    12: _decode_fetch_request_v12,
    13: _decode_fetch_request_v13,
    14: _decode_fetch_request_v13,
    15: _decode_fetch_request_v15,
    16: _decode_fetch_request_v15,
    17: _decode_fetch_request_v17,
    18: _decode_fetch_request_v18,
}
_ENCODERS: dict[int, Callable[[FetchRequest, bytearray], None]] = {
    0: _encode_fetch_request_v0,
    1: _encode_fetch_request_v1,
    2: _encode_fetch_request_v2,
    3: _encode_fetch_request_v3,
    4: _encode_fetch_request_v4,
    5: _encode_fetch_request_v5,
    6: _encode_fetch_request_v6,
    7: _encode_fetch_request_v7,
    8: _encode_fetch_request_v8,
    9: _encode_fetch_request_v9,
    10: _encode_fetch_request_v10,
    11: _encode_fetch_request_v11,
    12: _encode_fetch_request_v12,
    13: _encode_fetch_request_v13,
    14: _encode_fetch_request_v14,
    15: _encode_fetch_request_v15,
    16: _encode_fetch_request_v16,
    17: _encode_fetch_request_v17,
    18: _encode_fetch_request_v18,
}
