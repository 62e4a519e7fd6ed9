"""DescribeProducersResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeProducersResponse.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeProducersResponse", "TopicResponse", "PartitionResponse", "ProducerState"]

_S0 = Struct(">i")
_S1 = Struct(">ih")
_S2 = Struct(">qiiqiq")


@dataclass(slots=True)
class ProducerState:
    """The active producers for the partition."""

    producer_id: int = 0
    # versions 0+; entity producerId. The producer id.
    producer_epoch: int = 0
    # versions 0+. The producer epoch.
    last_sequence: int = -1
    # versions 0+. The last sequence number sent by the producer.
    last_timestamp: int = -1
    # versions 0+. The last timestamp sent by the producer.
    coordinator_epoch: int = 0
    # versions 0+. The current epoch of the producer group.
    current_txn_start_offset: int = -1
    # versions 0+. The current transaction start offset of the producer.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionResponse:
    """Each partition in the response."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The partition error message, which may be null if no additional details are available.
    active_producers: list[ProducerState] = field(default_factory=list)
    # versions 0+. The active producers for the partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicResponse:
    """Each topic in the response."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[PartitionResponse] = field(default_factory=list)
    # versions 0+. Each partition in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeProducersResponse(ApiMessage):
    """DescribeProducersResponse response"""

    API_KEY: ClassVar[int] = 61
    NAME: ClassVar[str] = "DescribeProducersResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[TopicResponse] = field(default_factory=list)
    # versions 0+. Each topic in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeProducersResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeProducersResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeProducersResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeProducersResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeProducersResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_producer_state_v0(buf: memoryview, pos: int) -> tuple[ProducerState, int]:
    f_producer_id, f_producer_epoch, f_last_sequence, f_last_timestamp, f_coordinator_epoch, f_current_txn_start_offset = _S2.unpack_from(buf, pos)
    pos += 36
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ProducerState(f_producer_id, f_producer_epoch, f_last_sequence, f_last_timestamp, f_coordinator_epoch, f_current_txn_start_offset, _unknown), pos


def _decode_partition_response_v0(buf: memoryview, pos: int) -> tuple[PartitionResponse, int]:
    f_error_message: str | None
    f_active_producers: list[ProducerState]
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_active_producers, pos = read_compact_array_length(buf, pos)
    if n_active_producers < 0:
        raise null_field("activeProducers")
    else:
        f_active_producers = []
        for _ in range(n_active_producers):
            e_active_producers, pos = _decode_producer_state_v0(buf, pos)
            f_active_producers.append(e_active_producers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionResponse(f_partition_index, f_error_code, f_error_message, f_active_producers, _unknown), pos


def _decode_topic_response_v0(buf: memoryview, pos: int) -> tuple[TopicResponse, int]:
    f_name: str
    f_partitions: list[PartitionResponse]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_partition_response_v0(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicResponse(f_name, f_partitions, _unknown), pos


def _decode_describe_producers_response_v0(buf: memoryview, pos: int) -> tuple[DescribeProducersResponse, int]:
    f_topics: list[TopicResponse]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_response_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeProducersResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_producer_state_v0(m: ProducerState, out: bytearray) -> None:
    out += _S2.pack(m.producer_id, m.producer_epoch, m.last_sequence, m.last_timestamp, m.coordinator_epoch, m.current_txn_start_offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_response_v0(m: PartitionResponse, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.active_producers) + 1)
    for e_active_producers in m.active_producers:
        _encode_producer_state_v0(e_active_producers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_response_v0(m: TopicResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_partition_response_v0(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_producers_response_v0(m: DescribeProducersResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_response_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeProducersResponse, int]]] = {
    0: _decode_describe_producers_response_v0,
}
_ENCODERS: dict[int, Callable[[DescribeProducersResponse, bytearray], None]] = {
    0: _encode_describe_producers_response_v0,
}
