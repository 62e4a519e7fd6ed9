"""WriteTxnMarkersResponse: generated from Kafka 3.9.2 and 4.4.0's WriteTxnMarkersResponse.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["WriteTxnMarkersResponse", "WritableTxnMarkerResult", "WritableTxnMarkerTopicResult", "WritableTxnMarkerPartitionResult"]

_S0 = Struct(">q")
_S1 = Struct(">ih")


@dataclass(slots=True)
class WritableTxnMarkerPartitionResult:
    """The results by partition."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WritableTxnMarkerTopicResult:
    """The results by topic."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[WritableTxnMarkerPartitionResult] = field(default_factory=list)
    # versions 0+. The results by partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WritableTxnMarkerResult:
    """The results for writing makers."""

    producer_id: int = 0
    # versions 0+; entity producerId. The current producer ID in use by the transactional ID.
    topics: list[WritableTxnMarkerTopicResult] = field(default_factory=list)
    # versions 0+. The results by topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WriteTxnMarkersResponse(ApiMessage):
    """WriteTxnMarkersResponse response"""

    API_KEY: ClassVar[int] = 27
    NAME: ClassVar[str] = "WriteTxnMarkersResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    markers: list[WritableTxnMarkerResult] = field(default_factory=list)
    # versions 0+. The results for writing makers.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteTxnMarkersResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[WriteTxnMarkersResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteTxnMarkersResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"WriteTxnMarkersResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> WriteTxnMarkersResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_writable_txn_marker_partition_result_v0(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerPartitionResult, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return WritableTxnMarkerPartitionResult(f_partition_index, f_error_code, []), pos


def _decode_writable_txn_marker_topic_result_v0(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerTopicResult, int]:
    f_name: str
    f_partitions: list[WritableTxnMarkerPartitionResult]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_writable_txn_marker_partition_result_v0(buf, pos)
            f_partitions.append(e_partitions)
    return WritableTxnMarkerTopicResult(f_name, f_partitions, []), pos


def _decode_writable_txn_marker_result_v0(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerResult, int]:
    f_topics: list[WritableTxnMarkerTopicResult]
    f_producer_id, = _S0.unpack_from(buf, pos)
    pos += 8
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_writable_txn_marker_topic_result_v0(buf, pos)
            f_topics.append(e_topics)
    return WritableTxnMarkerResult(f_producer_id, f_topics, []), pos


def _decode_write_txn_markers_response_v0(buf: memoryview, pos: int) -> tuple[WriteTxnMarkersResponse, int]:
    f_markers: list[WritableTxnMarkerResult]
    n_markers, pos = read_array_length(buf, pos)
    if n_markers < 0:
        raise null_field("markers")
    else:
        f_markers = []
        for _ in range(n_markers):
            e_markers, pos = _decode_writable_txn_marker_result_v0(buf, pos)
            f_markers.append(e_markers)
    return WriteTxnMarkersResponse(f_markers, []), pos


def _decode_writable_txn_marker_partition_result_v1(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerPartitionResult, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarkerPartitionResult(f_partition_index, f_error_code, _unknown), pos


def _decode_writable_txn_marker_topic_result_v1(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerTopicResult, int]:
    f_name: str
    f_partitions: list[WritableTxnMarkerPartitionResult]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_writable_txn_marker_partition_result_v1(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarkerTopicResult(f_name, f_partitions, _unknown), pos


def _decode_writable_txn_marker_result_v1(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerResult, int]:
    f_topics: list[WritableTxnMarkerTopicResult]
    f_producer_id, = _S0.unpack_from(buf, pos)
    pos += 8
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_writable_txn_marker_topic_result_v1(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarkerResult(f_producer_id, f_topics, _unknown), pos


def _decode_write_txn_markers_response_v1(buf: memoryview, pos: int) -> tuple[WriteTxnMarkersResponse, int]:
    f_markers: list[WritableTxnMarkerResult]
    n_markers, pos = read_compact_array_length(buf, pos)
    if n_markers < 0:
        raise null_field("markers")
    else:
        f_markers = []
        for _ in range(n_markers):
            e_markers, pos = _decode_writable_txn_marker_result_v1(buf, pos)
            f_markers.append(e_markers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteTxnMarkersResponse(f_markers, _unknown), pos


def _encode_writable_txn_marker_partition_result_v0(m: WritableTxnMarkerPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)


def _encode_writable_txn_marker_topic_result_v0(m: WritableTxnMarkerTopicResult, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_writable_txn_marker_partition_result_v0(e_partitions, out)


def _encode_writable_txn_marker_result_v0(m: WritableTxnMarkerResult, out: bytearray) -> None:
    out += _S0.pack(m.producer_id)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_writable_txn_marker_topic_result_v0(e_topics, out)


def _encode_write_txn_markers_response_v0(m: WriteTxnMarkersResponse, out: bytearray) -> None:
    out += pack_int32(len(m.markers))
    for e_markers in m.markers:
        _encode_writable_txn_marker_result_v0(e_markers, out)


def _encode_writable_txn_marker_partition_result_v1(m: WritableTxnMarkerPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_writable_txn_marker_topic_result_v1(m: WritableTxnMarkerTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_writable_txn_marker_partition_result_v1(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_writable_txn_marker_result_v1(m: WritableTxnMarkerResult, out: bytearray) -> None:
    out += _S0.pack(m.producer_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_writable_txn_marker_topic_result_v1(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_txn_markers_response_v1(m: WriteTxnMarkersResponse, out: bytearray) -> None:
    write_uvarint(out, len(m.markers) + 1)
    for e_markers in m.markers:
        _encode_writable_txn_marker_result_v1(e_markers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[WriteTxnMarkersResponse, int]]] = {
    0: _decode_write_txn_markers_response_v0,
    1: _decode_write_txn_markers_response_v1,
    2: _decode_write_txn_markers_response_v1,
}
_ENCODERS: dict[int, Callable[[WriteTxnMarkersResponse, bytearray], None]] = {
    0: _encode_write_txn_markers_response_v0,
    1: _encode_write_txn_markers_response_v1,
    2: _encode_write_txn_markers_response_v1,
}
