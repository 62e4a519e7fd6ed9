"""ShareAcknowledgeRequest: generated from Kafka 3.9.2 and 4.4.0's ShareAcknowledgeRequest.json by
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

__all__ = ["ShareAcknowledgeRequest", "AcknowledgeTopic", "AcknowledgePartition", "AcknowledgementBatch"]

_S0 = Struct(">i")
_S1 = Struct(">qq")
_S2 = Struct(">i?")


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
class AcknowledgePartition:
    """The partitions containing records to acknowledge."""

    partition_index: int = 0
    # versions 0+. The partition index.
    acknowledgement_batches: list[AcknowledgementBatch] = field(default_factory=list)
    # versions 0+. Record batches to acknowledge.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AcknowledgeTopic:
    """The topics containing records to acknowledge."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The unique topic ID.
    partitions: list[AcknowledgePartition] = field(default_factory=list)
    # versions 0+. The partitions containing records to acknowledge.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ShareAcknowledgeRequest(ApiMessage):
    """ShareAcknowledgeRequest request"""

    API_KEY: ClassVar[int] = 79
    NAME: ClassVar[str] = "ShareAcknowledgeRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str | None = None
    # versions 0+; nullable 0+; entity groupId. The group identifier.
    member_id: str | None = ''
    # versions 0+; nullable 0+. The member ID.
    share_session_epoch: int = 0
    # versions 0+. The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests.
    topics: list[AcknowledgeTopic] = field(default_factory=list)
    # versions 0+. The topics containing records to acknowledge.
    is_renew_ack: bool = False
    # versions 2+. Whether Renew type acknowledgements present in AcknowledgementBatches.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareAcknowledgeRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ShareAcknowledgeRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ShareAcknowledgeRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ShareAcknowledgeRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ShareAcknowledgeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_acknowledgement_batch_v0(buf: memoryview, pos: int) -> tuple[AcknowledgementBatch, int]:
    f_acknowledge_types: list[int]
    f_first_offset, f_last_offset = _S1.unpack_from(buf, pos)
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


def _decode_acknowledge_partition_v0(buf: memoryview, pos: int) -> tuple[AcknowledgePartition, int]:
    f_acknowledgement_batches: list[AcknowledgementBatch]
    f_partition_index, = _S0.unpack_from(buf, pos)
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
    return AcknowledgePartition(f_partition_index, f_acknowledgement_batches, _unknown), pos


def _decode_acknowledge_topic_v0(buf: memoryview, pos: int) -> tuple[AcknowledgeTopic, int]:
    f_topic_id: UUID
    f_partitions: list[AcknowledgePartition]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_acknowledge_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcknowledgeTopic(f_topic_id, f_partitions, _unknown), pos


def _decode_share_acknowledge_request_v0(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeRequest, int]:
    f_group_id: str | None
    f_member_id: str | None
    f_topics: list[AcknowledgeTopic]
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_acknowledge_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareAcknowledgeRequest(f_group_id, f_member_id, f_share_session_epoch, f_topics, False, _unknown), pos


def _decode_share_acknowledge_request_v2(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeRequest, int]:
    f_group_id: str | None
    f_member_id: str | None
    f_topics: list[AcknowledgeTopic]
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_is_renew_ack = _S2.unpack_from(buf, pos)
    pos += 5
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_acknowledge_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareAcknowledgeRequest(f_group_id, f_member_id, f_share_session_epoch, f_topics, f_is_renew_ack, _unknown), pos


def _encode_acknowledgement_batch_v0(m: AcknowledgementBatch, out: bytearray) -> None:
    out += _S1.pack(m.first_offset, m.last_offset)
    write_uvarint(out, len(m.acknowledge_types) + 1)
    out += pack(f">{len(m.acknowledge_types)}b", *m.acknowledge_types)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_acknowledge_partition_v0(m: AcknowledgePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index)
    write_uvarint(out, len(m.acknowledgement_batches) + 1)
    for e_acknowledgement_batches in m.acknowledgement_batches:
        _encode_acknowledgement_batch_v0(e_acknowledgement_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_acknowledge_topic_v0(m: AcknowledgeTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_acknowledge_partition_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_request_v0(m: ShareAcknowledgeRequest, out: bytearray) -> None:
    if m.is_renew_ack:
        raise version_error("ShareAcknowledgeRequest", "IsRenewAck", 0)
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S0.pack(m.share_session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_acknowledge_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_request_v1(m: ShareAcknowledgeRequest, out: bytearray) -> None:
    if m.is_renew_ack:
        raise version_error("ShareAcknowledgeRequest", "IsRenewAck", 1)
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S0.pack(m.share_session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_acknowledge_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_share_acknowledge_request_v2(m: ShareAcknowledgeRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S2.pack(m.share_session_epoch, m.is_renew_ack)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_acknowledge_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ShareAcknowledgeRequest, int]]] = {
    0: _decode_share_acknowledge_request_v0,
    1: _decode_share_acknowledge_request_v0,
    2: _decode_share_acknowledge_request_v2,
}
_ENCODERS: dict[int, Callable[[ShareAcknowledgeRequest, bytearray], None]] = {
    0: _encode_share_acknowledge_request_v0,
    1: _encode_share_acknowledge_request_v1,
    2: _encode_share_acknowledge_request_v2,
}
