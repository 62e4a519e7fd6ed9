"""ShareAcknowledgeRequest: generated from Kafka 3.9.2's ShareAcknowledgeRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_array_length,
    read_compact_nullable_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ShareAcknowledgeRequest", "AcknowledgeTopic", "AcknowledgePartition", "AcknowledgementBatch"]

_S0 = Struct(">i")
_S1 = Struct(">qq")


@dataclass(slots=True)
class AcknowledgementBatch:
    """Record batches to acknowledge."""

    first_offset: int = 0
    # versions 0+. First offset of batch of records to acknowledge.
    last_offset: int = 0
    # versions 0+. Last offset (inclusive) of batch of records to acknowledge.
    acknowledge_types: list[int] = field(default_factory=list)
    # versions 0+. Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject.
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
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str | None = None
    # versions 0+; nullable 0+. The group identifier.
    member_id: str | None = ''
    # versions 0+; nullable 0+. The member ID.
    share_session_epoch: int = 0
    # versions 0+. The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments for consecutive requests.
    topics: list[AcknowledgeTopic] = field(default_factory=list)
    # versions 0+. The topics containing records to acknowledge.
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
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ShareAcknowledgeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_acknowledgement_batch_v0(buf: memoryview, pos: int) -> tuple[AcknowledgementBatch, int]:
    _acknowledge_types: list[int]
    _first_offset, _last_offset = _S1.unpack_from(buf, pos)
    pos += 16
    _n_acknowledge_types, pos = read_compact_array_length(buf, pos)
    if _n_acknowledge_types < 0:
        raise MessageDecodeError("non-nullable field AcknowledgeTypes was null")
    else:
        _acknowledge_types = list(unpack_from(f">{_n_acknowledge_types}b", buf, pos))
        pos += 1 * _n_acknowledge_types
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcknowledgementBatch(_first_offset, _last_offset, _acknowledge_types, _unknown), pos


def _decode_acknowledge_partition_v0(buf: memoryview, pos: int) -> tuple[AcknowledgePartition, int]:
    _acknowledgement_batches: list[AcknowledgementBatch]
    _partition_index, = _S0.unpack_from(buf, pos)
    pos += 4
    _n_acknowledgement_batches, pos = read_compact_array_length(buf, pos)
    if _n_acknowledgement_batches < 0:
        raise MessageDecodeError("non-nullable field AcknowledgementBatches was null")
    else:
        _acknowledgement_batches = []
        for _ in range(_n_acknowledgement_batches):
            _e_acknowledgement_batches, pos = _decode_acknowledgement_batch_v0(buf, pos)
            _acknowledgement_batches.append(_e_acknowledgement_batches)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcknowledgePartition(_partition_index, _acknowledgement_batches, _unknown), pos


def _decode_acknowledge_topic_v0(buf: memoryview, pos: int) -> tuple[AcknowledgeTopic, int]:
    _topic_id: UUID
    _partitions: list[AcknowledgePartition]
    _topic_id, pos = read_uuid(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = []
        for _ in range(_n_partitions):
            _e_partitions, pos = _decode_acknowledge_partition_v0(buf, pos)
            _partitions.append(_e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AcknowledgeTopic(_topic_id, _partitions, _unknown), pos


def _decode_share_acknowledge_request_v0(buf: memoryview, pos: int) -> tuple[ShareAcknowledgeRequest, int]:
    _group_id: str | None
    _member_id: str | None
    _topics: list[AcknowledgeTopic]
    _group_id, pos = read_compact_nullable_string(buf, pos)
    _member_id, pos = read_compact_nullable_string(buf, pos)
    _share_session_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    _n_topics, pos = read_compact_array_length(buf, pos)
    if _n_topics < 0:
        raise MessageDecodeError("non-nullable field Topics was null")
    else:
        _topics = []
        for _ in range(_n_topics):
            _e_topics, pos = _decode_acknowledge_topic_v0(buf, pos)
            _topics.append(_e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ShareAcknowledgeRequest(_group_id, _member_id, _share_session_epoch, _topics, _unknown), pos


def _encode_acknowledgement_batch_v0(m: AcknowledgementBatch, out: bytearray) -> None:
    out += _S1.pack(m.first_offset, m.last_offset)
    write_uvarint(out, len(m.acknowledge_types) + 1)
    out += pack(f">{len(m.acknowledge_types)}b", *m.acknowledge_types)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_acknowledge_partition_v0(m: AcknowledgePartition, out: bytearray) -> None:
    out += _S0.pack(m.partition_index)
    write_uvarint(out, len(m.acknowledgement_batches) + 1)
    for _e_acknowledgement_batches in m.acknowledgement_batches:
        _encode_acknowledgement_batch_v0(_e_acknowledgement_batches, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_acknowledge_topic_v0(m: AcknowledgeTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partitions) + 1)
    for _e_partitions in m.partitions:
        _encode_acknowledge_partition_v0(_e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_share_acknowledge_request_v0(m: ShareAcknowledgeRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.group_id)
    write_compact_nullable_string(out, m.member_id)
    out += _S0.pack(m.share_session_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for _e_topics in m.topics:
        _encode_acknowledge_topic_v0(_e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ShareAcknowledgeRequest, int]]] = {
    0: _decode_share_acknowledge_request_v0,
}
_ENCODERS: dict[int, Callable[[ShareAcknowledgeRequest, bytearray], None]] = {
    0: _encode_share_acknowledge_request_v0,
}
