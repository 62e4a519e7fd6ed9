"""TxnOffsetCommitRequest: generated from Kafka 3.9.2 and 4.4.0's TxnOffsetCommitRequest.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["TxnOffsetCommitRequest", "TxnOffsetCommitRequestTopic", "TxnOffsetCommitRequestPartition"]

_S0 = Struct(">qh")
_S1 = Struct(">iq")
_S2 = Struct(">iqi")
_S3 = Struct(">qhi")


@dataclass(slots=True)
class TxnOffsetCommitRequestPartition:
    """The partitions inside the topic that we want to commit offsets for."""

    partition_index: int = 0
    # versions 0+. The index of the partition within the topic.
    committed_offset: int = 0
    # versions 0+. The message offset to be committed.
    committed_leader_epoch: int = -1
    # versions 2+; ignorable. The leader epoch of the last consumed record.
    committed_metadata: str | None = ''
    # versions 0+; nullable 0+. Any associated metadata the client wants to keep.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TxnOffsetCommitRequestTopic:
    """Each topic that we want to commit offsets for."""

    name: str = ''
    # versions 0-5; ignorable; entity topicName. The topic name.
    partitions: list[TxnOffsetCommitRequestPartition] = field(default_factory=list)
    # versions 0+. The partitions inside the topic that we want to commit offsets for.
    topic_id: UUID = ZERO_UUID
    # versions 6+; ignorable. The topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TxnOffsetCommitRequest(ApiMessage):
    """TxnOffsetCommitRequest request"""

    API_KEY: ClassVar[int] = 28
    NAME: ClassVar[str] = "TxnOffsetCommitRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    transactional_id: str = ''
    # versions 0+; entity transactionalId. The ID of the transaction.
    group_id: str = ''
    # versions 0+; entity groupId. The ID of the group.
    producer_id: int = 0
    # versions 0+; entity producerId. The current producer ID in use by the transactional ID.
    producer_epoch: int = 0
    # versions 0+. The current epoch associated with the producer ID.
    generation_id_or_member_epoch: int = -1
    # versions 3+. The generation of the group if using the classic group protocol or the member epoch if using the consumer protocol.
    member_id: str = ''
    # versions 3+. The member ID assigned by the group coordinator.
    group_instance_id: str | None = None
    # versions 3+; nullable 3+. The unique identifier of the consumer instance provided by end user.
    topics: list[TxnOffsetCommitRequestTopic] = field(default_factory=list)
    # versions 0+. Each topic that we want to commit offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"TxnOffsetCommitRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[TxnOffsetCommitRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"TxnOffsetCommitRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"TxnOffsetCommitRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> TxnOffsetCommitRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_txn_offset_commit_request_partition_v0(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset = _S1.unpack_from(buf, pos)
    pos += 12
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, -1, f_committed_metadata, []), pos


def _decode_txn_offset_commit_request_topic_v0(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[TxnOffsetCommitRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_txn_offset_commit_request_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return TxnOffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_txn_offset_commit_request_v0(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_topics: list[TxnOffsetCommitRequestTopic]
    f_transactional_id, pos = read_string(buf, pos, "transactionalId")
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_txn_offset_commit_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, -1, '', None, f_topics, []), pos


def _decode_txn_offset_commit_request_partition_v2(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S2.unpack_from(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata, []), pos


def _decode_txn_offset_commit_request_topic_v2(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[TxnOffsetCommitRequestPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_txn_offset_commit_request_partition_v2(buf, pos)
            f_partitions.append(e_partitions)
    return TxnOffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, []), pos


def _decode_txn_offset_commit_request_v2(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_topics: list[TxnOffsetCommitRequestTopic]
    f_transactional_id, pos = read_string(buf, pos, "transactionalId")
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_txn_offset_commit_request_topic_v2(buf, pos)
            f_topics.append(e_topics)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, -1, '', None, f_topics, []), pos


def _decode_txn_offset_commit_request_partition_v3(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    f_committed_metadata: str | None
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S2.unpack_from(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata, _unknown), pos


def _decode_txn_offset_commit_request_topic_v3(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    f_name: str
    f_partitions: list[TxnOffsetCommitRequestPartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_txn_offset_commit_request_partition_v3(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TxnOffsetCommitRequestTopic(f_name, f_partitions, ZERO_UUID, _unknown), pos


def _decode_txn_offset_commit_request_v3(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_topics: list[TxnOffsetCommitRequestTopic]
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch = _S3.unpack_from(buf, pos)
    pos += 14
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_txn_offset_commit_request_topic_v3(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, f_topics, _unknown), pos


def _decode_txn_offset_commit_request_topic_v6(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    f_topic_id: UUID
    f_partitions: list[TxnOffsetCommitRequestPartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_txn_offset_commit_request_partition_v3(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TxnOffsetCommitRequestTopic('', f_partitions, f_topic_id, _unknown), pos


def _decode_txn_offset_commit_request_v6(buf: memoryview, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_topics: list[TxnOffsetCommitRequestTopic]
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch = _S3.unpack_from(buf, pos)
    pos += 14
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_txn_offset_commit_request_topic_v6(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, f_topics, _unknown), pos


def _encode_txn_offset_commit_request_partition_v0(m: TxnOffsetCommitRequestPartition, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.committed_offset)
    write_nullable_string(out, m.committed_metadata)


def _encode_txn_offset_commit_request_topic_v0(m: TxnOffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_txn_offset_commit_request_partition_v0(e_partitions, out)


def _encode_txn_offset_commit_request_v0(m: TxnOffsetCommitRequest, out: bytearray) -> None:
    if m.generation_id_or_member_epoch != -1:
        raise version_error("TxnOffsetCommitRequest", "GenerationIdOrMemberEpoch", 0)
    if m.member_id != '':
        raise version_error("TxnOffsetCommitRequest", "MemberId", 0)
    if m.group_instance_id is not None:
        raise version_error("TxnOffsetCommitRequest", "GroupInstanceId", 0)
    write_string(out, m.transactional_id)
    write_string(out, m.group_id)
    out += _S0.pack(m.producer_id, m.producer_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_txn_offset_commit_request_topic_v0(e_topics, out)


def _encode_txn_offset_commit_request_v1(m: TxnOffsetCommitRequest, out: bytearray) -> None:
    if m.generation_id_or_member_epoch != -1:
        raise version_error("TxnOffsetCommitRequest", "GenerationIdOrMemberEpoch", 1)
    if m.member_id != '':
        raise version_error("TxnOffsetCommitRequest", "MemberId", 1)
    if m.group_instance_id is not None:
        raise version_error("TxnOffsetCommitRequest", "GroupInstanceId", 1)
    write_string(out, m.transactional_id)
    write_string(out, m.group_id)
    out += _S0.pack(m.producer_id, m.producer_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_txn_offset_commit_request_topic_v0(e_topics, out)


def _encode_txn_offset_commit_request_partition_v2(m: TxnOffsetCommitRequestPartition, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_nullable_string(out, m.committed_metadata)


def _encode_txn_offset_commit_request_topic_v2(m: TxnOffsetCommitRequestTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_txn_offset_commit_request_partition_v2(e_partitions, out)


def _encode_txn_offset_commit_request_v2(m: TxnOffsetCommitRequest, out: bytearray) -> None:
    if m.generation_id_or_member_epoch != -1:
        raise version_error("TxnOffsetCommitRequest", "GenerationIdOrMemberEpoch", 2)
    if m.member_id != '':
        raise version_error("TxnOffsetCommitRequest", "MemberId", 2)
    if m.group_instance_id is not None:
        raise version_error("TxnOffsetCommitRequest", "GroupInstanceId", 2)
    write_string(out, m.transactional_id)
    write_string(out, m.group_id)
    out += _S0.pack(m.producer_id, m.producer_epoch)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_txn_offset_commit_request_topic_v2(e_topics, out)


def _encode_txn_offset_commit_request_partition_v3(m: TxnOffsetCommitRequestPartition, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.committed_offset, m.committed_leader_epoch)
    write_compact_nullable_string(out, m.committed_metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_txn_offset_commit_request_topic_v3(m: TxnOffsetCommitRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_txn_offset_commit_request_partition_v3(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_txn_offset_commit_request_v3(m: TxnOffsetCommitRequest, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    write_compact_string(out, m.group_id)
    out += _S3.pack(m.producer_id, m.producer_epoch, m.generation_id_or_member_epoch)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_txn_offset_commit_request_topic_v3(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_txn_offset_commit_request_topic_v6(m: TxnOffsetCommitRequestTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_txn_offset_commit_request_partition_v3(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_txn_offset_commit_request_v6(m: TxnOffsetCommitRequest, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    write_compact_string(out, m.group_id)
    out += _S3.pack(m.producer_id, m.producer_epoch, m.generation_id_or_member_epoch)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_txn_offset_commit_request_topic_v6(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[TxnOffsetCommitRequest, int]]] = {
    0: _decode_txn_offset_commit_request_v0,
    1: _decode_txn_offset_commit_request_v0,
    2: _decode_txn_offset_commit_request_v2,
    3: _decode_txn_offset_commit_request_v3,
    4: _decode_txn_offset_commit_request_v3,
    5: _decode_txn_offset_commit_request_v3,
    6: _decode_txn_offset_commit_request_v6,
}
_ENCODERS: dict[int, Callable[[TxnOffsetCommitRequest, bytearray], None]] = {
    0: _encode_txn_offset_commit_request_v0,
    1: _encode_txn_offset_commit_request_v1,
    2: _encode_txn_offset_commit_request_v2,
    3: _encode_txn_offset_commit_request_v3,
    4: _encode_txn_offset_commit_request_v3,
    5: _encode_txn_offset_commit_request_v3,
    6: _encode_txn_offset_commit_request_v6,
}
