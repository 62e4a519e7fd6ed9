"""ProduceRequest: generated from Kafka 3.9.2 and 4.4.0's ProduceRequest.json by
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
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_bytes,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ProduceRequest", "TopicProduceData", "PartitionProduceData"]

_S0 = Struct(">hi")
_S1 = Struct(">i")


@dataclass(slots=True)
class PartitionProduceData:
    """Each partition to produce to."""

    index: int = 0
    # versions 0+. The partition index.
    records: bytes | memoryview | None = b""
    # versions 0+; nullable 0+. The record data to be produced.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicProduceData:
    """Each topic to produce to."""

    name: str = ''
    # versions 0-12; ignorable; entity topicName. The topic name.
    partition_data: list[PartitionProduceData] = field(default_factory=list)
    # versions 0+. Each partition to produce to.
    topic_id: UUID = ZERO_UUID
    # versions 13+; ignorable. The unique topic ID
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ProduceRequest(ApiMessage):
    """ProduceRequest request"""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = "ProduceRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9

    transactional_id: str | None = None
    # versions 3+; nullable 3+; entity transactionalId. The transactional ID, or null if the producer is not transactional.
    acks: int = 0
    # versions 0+. The number of acknowledgments the producer requires the leader to have received before considering a request complete. Allowed values: 0 for no acknowledgments, 1 for only the leader and -1 for the full ISR.
    timeout_ms: int = 0
    # versions 0+. The timeout to await a response in milliseconds.
    topic_data: list[TopicProduceData] = field(default_factory=list)
    # versions 0+. Each topic to produce to.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ProduceRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ProduceRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ProduceRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ProduceRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ProduceRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_produce_data_v0(buf: memoryview, pos: int) -> tuple[PartitionProduceData, int]:
    f_records: bytes | memoryview | None
    f_index, = _S1.unpack_from(buf, pos)
    pos += 4
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionProduceData(f_index, f_records, []), pos


def _decode_topic_produce_data_v0(buf: memoryview, pos: int) -> tuple[TopicProduceData, int]:
    f_name: str
    f_partition_data: list[PartitionProduceData]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_data, pos = read_array_length(buf, pos)
    if n_partition_data < 0:
        raise null_field("partitionData")
    else:
        f_partition_data = []
        for _ in range(n_partition_data):
            e_partition_data, pos = _decode_partition_produce_data_v0(buf, pos)
            f_partition_data.append(e_partition_data)
    return TopicProduceData(f_name, f_partition_data, ZERO_UUID, []), pos


def _decode_produce_request_v0(buf: memoryview, pos: int) -> tuple[ProduceRequest, int]:
    f_topic_data: list[TopicProduceData]
    f_acks, f_timeout_ms = _S0.unpack_from(buf, pos)
    pos += 6
    n_topic_data, pos = read_array_length(buf, pos)
    if n_topic_data < 0:
        raise null_field("topicData")
    else:
        f_topic_data = []
        for _ in range(n_topic_data):
            e_topic_data, pos = _decode_topic_produce_data_v0(buf, pos)
            f_topic_data.append(e_topic_data)
    return ProduceRequest(None, f_acks, f_timeout_ms, f_topic_data, []), pos


def _decode_produce_request_v3(buf: memoryview, pos: int) -> tuple[ProduceRequest, int]:
    f_transactional_id: str | None
    f_topic_data: list[TopicProduceData]
    f_transactional_id, pos = read_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0.unpack_from(buf, pos)
    pos += 6
    n_topic_data, pos = read_array_length(buf, pos)
    if n_topic_data < 0:
        raise null_field("topicData")
    else:
        f_topic_data = []
        for _ in range(n_topic_data):
            e_topic_data, pos = _decode_topic_produce_data_v0(buf, pos)
            f_topic_data.append(e_topic_data)
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data, []), pos


def _decode_partition_produce_data_v9(buf: memoryview, pos: int) -> tuple[PartitionProduceData, int]:
    f_records: bytes | memoryview | None
    f_index, = _S1.unpack_from(buf, pos)
    pos += 4
    f_records, pos = read_compact_nullable_records(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionProduceData(f_index, f_records, _unknown), pos


def _decode_topic_produce_data_v9(buf: memoryview, pos: int) -> tuple[TopicProduceData, int]:
    f_name: str
    f_partition_data: list[PartitionProduceData]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_data, pos = read_compact_array_length(buf, pos)
    if n_partition_data < 0:
        raise null_field("partitionData")
    else:
        f_partition_data = []
        for _ in range(n_partition_data):
            e_partition_data, pos = _decode_partition_produce_data_v9(buf, pos)
            f_partition_data.append(e_partition_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicProduceData(f_name, f_partition_data, ZERO_UUID, _unknown), pos


def _decode_produce_request_v9(buf: memoryview, pos: int) -> tuple[ProduceRequest, int]:
    f_transactional_id: str | None
    f_topic_data: list[TopicProduceData]
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0.unpack_from(buf, pos)
    pos += 6
    n_topic_data, pos = read_compact_array_length(buf, pos)
    if n_topic_data < 0:
        raise null_field("topicData")
    else:
        f_topic_data = []
        for _ in range(n_topic_data):
            e_topic_data, pos = _decode_topic_produce_data_v9(buf, pos)
            f_topic_data.append(e_topic_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data, _unknown), pos


def _decode_topic_produce_data_v13(buf: memoryview, pos: int) -> tuple[TopicProduceData, int]:
    f_topic_id: UUID
    f_partition_data: list[PartitionProduceData]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_data, pos = read_compact_array_length(buf, pos)
    if n_partition_data < 0:
        raise null_field("partitionData")
    else:
        f_partition_data = []
        for _ in range(n_partition_data):
            e_partition_data, pos = _decode_partition_produce_data_v9(buf, pos)
            f_partition_data.append(e_partition_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicProduceData('', f_partition_data, f_topic_id, _unknown), pos


def _decode_produce_request_v13(buf: memoryview, pos: int) -> tuple[ProduceRequest, int]:
    f_transactional_id: str | None
    f_topic_data: list[TopicProduceData]
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0.unpack_from(buf, pos)
    pos += 6
    n_topic_data, pos = read_compact_array_length(buf, pos)
    if n_topic_data < 0:
        raise null_field("topicData")
    else:
        f_topic_data = []
        for _ in range(n_topic_data):
            e_topic_data, pos = _decode_topic_produce_data_v13(buf, pos)
            f_topic_data.append(e_topic_data)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data, _unknown), pos


def _encode_partition_produce_data_v0(m: PartitionProduceData, out: bytearray) -> None:
    out += _S1.pack(m.index)
    write_nullable_bytes(out, m.records)


def _encode_topic_produce_data_v0(m: TopicProduceData, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_data))
    for e_partition_data in m.partition_data:
        _encode_partition_produce_data_v0(e_partition_data, out)


def _encode_produce_request_v0(m: ProduceRequest, out: bytearray) -> None:
    if m.transactional_id is not None:
        raise version_error("ProduceRequest", "TransactionalId", 0)
    out += _S0.pack(m.acks, m.timeout_ms)
    out += pack_int32(len(m.topic_data))
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v0(e_topic_data, out)


def _encode_produce_request_v1(m: ProduceRequest, out: bytearray) -> None:
    if m.transactional_id is not None:
        raise version_error("ProduceRequest", "TransactionalId", 1)
    out += _S0.pack(m.acks, m.timeout_ms)
    out += pack_int32(len(m.topic_data))
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v0(e_topic_data, out)


def _encode_produce_request_v2(m: ProduceRequest, out: bytearray) -> None:
    if m.transactional_id is not None:
        raise version_error("ProduceRequest", "TransactionalId", 2)
    out += _S0.pack(m.acks, m.timeout_ms)
    out += pack_int32(len(m.topic_data))
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v0(e_topic_data, out)


def _encode_produce_request_v3(m: ProduceRequest, out: bytearray) -> None:
    write_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.acks, m.timeout_ms)
    out += pack_int32(len(m.topic_data))
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v0(e_topic_data, out)


def _encode_partition_produce_data_v9(m: PartitionProduceData, out: bytearray) -> None:
    out += _S1.pack(m.index)
    write_compact_nullable_bytes(out, m.records)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_produce_data_v9(m: TopicProduceData, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_data) + 1)
    for e_partition_data in m.partition_data:
        _encode_partition_produce_data_v9(e_partition_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_produce_request_v9(m: ProduceRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.acks, m.timeout_ms)
    write_uvarint(out, len(m.topic_data) + 1)
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v9(e_topic_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_produce_data_v13(m: TopicProduceData, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_data) + 1)
    for e_partition_data in m.partition_data:
        _encode_partition_produce_data_v9(e_partition_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_produce_request_v13(m: ProduceRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.acks, m.timeout_ms)
    write_uvarint(out, len(m.topic_data) + 1)
    for e_topic_data in m.topic_data:
        _encode_topic_produce_data_v13(e_topic_data, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ProduceRequest, int]]] = {
    0: _decode_produce_request_v0,
    1: _decode_produce_request_v0,
    2: _decode_produce_request_v0,
    3: _decode_produce_request_v3,
    4: _decode_produce_request_v3,
    5: _decode_produce_request_v3,
    6: _decode_produce_request_v3,
    7: _decode_produce_request_v3,
    8: _decode_produce_request_v3,
    9: _decode_produce_request_v9,
    10: _decode_produce_request_v9,
    11: _decode_produce_request_v9,
    12: _decode_produce_request_v9,
    13: _decode_produce_request_v13,
}
_ENCODERS: dict[int, Callable[[ProduceRequest, bytearray], None]] = {
    0: _encode_produce_request_v0,
    1: _encode_produce_request_v1,
    2: _encode_produce_request_v2,
    3: _encode_produce_request_v3,
    4: _encode_produce_request_v3,
    5: _encode_produce_request_v3,
    6: _encode_produce_request_v3,
    7: _encode_produce_request_v3,
    8: _encode_produce_request_v3,
    9: _encode_produce_request_v9,
    10: _encode_produce_request_v9,
    11: _encode_produce_request_v9,
    12: _encode_produce_request_v9,
    13: _encode_produce_request_v13,
}
