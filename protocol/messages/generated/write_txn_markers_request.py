"""WriteTxnMarkersRequest: generated from Kafka 3.9.2 and 4.4.0's WriteTxnMarkersRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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

__all__ = ["WriteTxnMarkersRequest", "WritableTxnMarker", "WritableTxnMarkerTopic"]

_S0 = Struct(">qh?")
_S1 = Struct(">i")
_S2 = Struct(">ib")


@dataclass(slots=True)
class WritableTxnMarkerTopic:
    """Each topic that we want to write transaction marker(s) for."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partition_indexes: list[int] = field(default_factory=list)
    # versions 0+. The indexes of the partitions to write transaction markers for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WritableTxnMarker:
    """The transaction markers to be written."""

    producer_id: int = 0
    # versions 0+; entity producerId. The current producer ID.
    producer_epoch: int = 0
    # versions 0+. The current epoch associated with the producer ID.
    transaction_result: bool = False
    # versions 0+. The result of the transaction to write to the partitions (false = ABORT, true = COMMIT).
    topics: list[WritableTxnMarkerTopic] = field(default_factory=list)
    # versions 0+. Each topic that we want to write transaction marker(s) for.
    coordinator_epoch: int = 0
    # versions 0+. Epoch associated with the transaction state partition hosted by this transaction coordinator.
    transaction_version: int = 0
    # versions 2+; ignorable. Transaction version of the marker. Ex: 0/1 = legacy (TV0/TV1), 2 = TV2 etc.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class WriteTxnMarkersRequest(ApiMessage):
    """WriteTxnMarkersRequest request"""

    API_KEY: ClassVar[int] = 27
    NAME: ClassVar[str] = "WriteTxnMarkersRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    markers: list[WritableTxnMarker] = field(default_factory=list)
    # versions 0+. The transaction markers to be written.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteTxnMarkersRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[WriteTxnMarkersRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"WriteTxnMarkersRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"WriteTxnMarkersRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> WriteTxnMarkersRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_writable_txn_marker_topic_v0(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerTopic, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_indexes, pos = read_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    return WritableTxnMarkerTopic(f_name, f_partition_indexes, []), pos


def _decode_writable_txn_marker_v0(buf: memoryview, pos: int) -> tuple[WritableTxnMarker, int]:
    f_topics: list[WritableTxnMarkerTopic]
    f_producer_id, f_producer_epoch, f_transaction_result = _S0.unpack_from(buf, pos)
    pos += 11
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_writable_txn_marker_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_coordinator_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    return WritableTxnMarker(f_producer_id, f_producer_epoch, f_transaction_result, f_topics, f_coordinator_epoch, 0, []), pos


def _decode_write_txn_markers_request_v0(buf: memoryview, pos: int) -> tuple[WriteTxnMarkersRequest, int]:
    f_markers: list[WritableTxnMarker]
    n_markers, pos = read_array_length(buf, pos)
    if n_markers < 0:
        raise null_field("markers")
    else:
        f_markers = []
        for _ in range(n_markers):
            e_markers, pos = _decode_writable_txn_marker_v0(buf, pos)
            f_markers.append(e_markers)
    return WriteTxnMarkersRequest(f_markers, []), pos


def _decode_writable_txn_marker_topic_v1(buf: memoryview, pos: int) -> tuple[WritableTxnMarkerTopic, int]:
    f_name: str
    f_partition_indexes: list[int]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_indexes, pos = read_compact_array_length(buf, pos)
    if n_partition_indexes < 0:
        raise null_field("partitionIndexes")
    else:
        f_partition_indexes = list(unpack_from(f">{n_partition_indexes}i", buf, pos))
        pos += 4 * n_partition_indexes
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarkerTopic(f_name, f_partition_indexes, _unknown), pos


def _decode_writable_txn_marker_v1(buf: memoryview, pos: int) -> tuple[WritableTxnMarker, int]:
    f_topics: list[WritableTxnMarkerTopic]
    f_producer_id, f_producer_epoch, f_transaction_result = _S0.unpack_from(buf, pos)
    pos += 11
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_writable_txn_marker_topic_v1(buf, pos)
            f_topics.append(e_topics)
    f_coordinator_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarker(f_producer_id, f_producer_epoch, f_transaction_result, f_topics, f_coordinator_epoch, 0, _unknown), pos


def _decode_write_txn_markers_request_v1(buf: memoryview, pos: int) -> tuple[WriteTxnMarkersRequest, int]:
    f_markers: list[WritableTxnMarker]
    n_markers, pos = read_compact_array_length(buf, pos)
    if n_markers < 0:
        raise null_field("markers")
    else:
        f_markers = []
        for _ in range(n_markers):
            e_markers, pos = _decode_writable_txn_marker_v1(buf, pos)
            f_markers.append(e_markers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteTxnMarkersRequest(f_markers, _unknown), pos


def _decode_writable_txn_marker_v2(buf: memoryview, pos: int) -> tuple[WritableTxnMarker, int]:
    f_topics: list[WritableTxnMarkerTopic]
    f_producer_id, f_producer_epoch, f_transaction_result = _S0.unpack_from(buf, pos)
    pos += 11
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_writable_txn_marker_topic_v1(buf, pos)
            f_topics.append(e_topics)
    f_coordinator_epoch, f_transaction_version = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WritableTxnMarker(f_producer_id, f_producer_epoch, f_transaction_result, f_topics, f_coordinator_epoch, f_transaction_version, _unknown), pos


def _decode_write_txn_markers_request_v2(buf: memoryview, pos: int) -> tuple[WriteTxnMarkersRequest, int]:
    f_markers: list[WritableTxnMarker]
    n_markers, pos = read_compact_array_length(buf, pos)
    if n_markers < 0:
        raise null_field("markers")
    else:
        f_markers = []
        for _ in range(n_markers):
            e_markers, pos = _decode_writable_txn_marker_v2(buf, pos)
            f_markers.append(e_markers)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return WriteTxnMarkersRequest(f_markers, _unknown), pos


def _encode_writable_txn_marker_topic_v0(m: WritableTxnMarkerTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_indexes))
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)


def _encode_writable_txn_marker_v0(m: WritableTxnMarker, out: bytearray) -> None:
    out += _S0.pack(m.producer_id, m.producer_epoch, m.transaction_result)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_writable_txn_marker_topic_v0(e_topics, out)
    out += _S1.pack(m.coordinator_epoch)


def _encode_write_txn_markers_request_v0(m: WriteTxnMarkersRequest, out: bytearray) -> None:
    out += pack_int32(len(m.markers))
    for e_markers in m.markers:
        _encode_writable_txn_marker_v0(e_markers, out)


def _encode_writable_txn_marker_topic_v1(m: WritableTxnMarkerTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_indexes) + 1)
    out += pack(f">{len(m.partition_indexes)}i", *m.partition_indexes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_writable_txn_marker_v1(m: WritableTxnMarker, out: bytearray) -> None:
    out += _S0.pack(m.producer_id, m.producer_epoch, m.transaction_result)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_writable_txn_marker_topic_v1(e_topics, out)
    out += _S1.pack(m.coordinator_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_txn_markers_request_v1(m: WriteTxnMarkersRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.markers) + 1)
    for e_markers in m.markers:
        _encode_writable_txn_marker_v1(e_markers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_writable_txn_marker_v2(m: WritableTxnMarker, out: bytearray) -> None:
    out += _S0.pack(m.producer_id, m.producer_epoch, m.transaction_result)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_writable_txn_marker_topic_v1(e_topics, out)
    out += _S2.pack(m.coordinator_epoch, m.transaction_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_write_txn_markers_request_v2(m: WriteTxnMarkersRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.markers) + 1)
    for e_markers in m.markers:
        _encode_writable_txn_marker_v2(e_markers, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[WriteTxnMarkersRequest, int]]] = {
    0: _decode_write_txn_markers_request_v0,
    1: _decode_write_txn_markers_request_v1,
    2: _decode_write_txn_markers_request_v2,
}
_ENCODERS: dict[int, Callable[[WriteTxnMarkersRequest, bytearray], None]] = {
    0: _encode_write_txn_markers_request_v0,
    1: _encode_write_txn_markers_request_v1,
    2: _encode_write_txn_markers_request_v2,
}
