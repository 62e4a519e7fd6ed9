"""DescribeClusterResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeClusterResponse.json by
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
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeClusterResponse", "DescribeClusterBroker"]

_S0 = Struct(">ih")
_S1 = Struct(">i")
_S2 = Struct(">b")
_S3 = Struct(">?")


@dataclass(slots=True)
class DescribeClusterBroker:
    """Each broker in the response."""

    broker_id: int = 0
    # versions 0+; entity brokerId. The broker ID.
    host: str = ''
    # versions 0+. The broker hostname.
    port: int = 0
    # versions 0+. The broker port.
    rack: str | None = None
    # versions 0+; nullable 0+. The rack of the broker, or null if it has not been assigned to a rack.
    is_fenced: bool = False
    # versions 2+. Whether the broker is fenced
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeClusterResponse(ApiMessage):
    """DescribeClusterResponse response"""

    API_KEY: ClassVar[int] = 60
    NAME: ClassVar[str] = "DescribeClusterResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    endpoint_type: int = 1
    # versions 1+. The endpoint type that was described. 1=brokers, 2=controllers.
    cluster_id: str = ''
    # versions 0+. The cluster ID that responding broker belongs to.
    controller_id: int = -1
    # versions 0+; entity brokerId. The ID of the controller. When handled by a controller, returns the current voter leader ID. When handled by a broker, returns a random alive broker ID as a fallback.
    brokers: list[DescribeClusterBroker] = field(default_factory=list)
    # versions 0+. Each broker in the response.
    cluster_authorized_operations: int = -2147483648
    # versions 0+. 32-bit bitfield to represent authorized operations for this cluster.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClusterResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeClusterResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClusterResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeClusterResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeClusterResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_cluster_broker_v0(buf: memoryview, pos: int) -> tuple[DescribeClusterBroker, int]:
    f_host: str
    f_rack: str | None
    f_broker_id, = _S1.unpack_from(buf, pos)
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
    return DescribeClusterBroker(f_broker_id, f_host, f_port, f_rack, False, _unknown), pos


def _decode_describe_cluster_response_v0(buf: memoryview, pos: int) -> tuple[DescribeClusterResponse, int]:
    f_error_message: str | None
    f_cluster_id: str
    f_brokers: list[DescribeClusterBroker]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_controller_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_describe_cluster_broker_v0(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, 1, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, _unknown), pos


def _decode_describe_cluster_response_v1(buf: memoryview, pos: int) -> tuple[DescribeClusterResponse, int]:
    f_error_message: str | None
    f_cluster_id: str
    f_brokers: list[DescribeClusterBroker]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_endpoint_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_controller_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_describe_cluster_broker_v0(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, f_endpoint_type, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, _unknown), pos


def _decode_describe_cluster_broker_v2(buf: memoryview, pos: int) -> tuple[DescribeClusterBroker, int]:
    f_host: str
    f_rack: str | None
    f_broker_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    f_is_fenced, = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterBroker(f_broker_id, f_host, f_port, f_rack, f_is_fenced, _unknown), pos


def _decode_describe_cluster_response_v2(buf: memoryview, pos: int) -> tuple[DescribeClusterResponse, int]:
    f_error_message: str | None
    f_cluster_id: str
    f_brokers: list[DescribeClusterBroker]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_endpoint_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_controller_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_brokers, pos = read_compact_array_length(buf, pos)
    if n_brokers < 0:
        raise null_field("brokers")
    else:
        f_brokers = []
        for _ in range(n_brokers):
            e_brokers, pos = _decode_describe_cluster_broker_v2(buf, pos)
            f_brokers.append(e_brokers)
    f_cluster_authorized_operations, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, f_endpoint_type, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, _unknown), pos


def _encode_describe_cluster_broker_v0(m: DescribeClusterBroker, out: bytearray) -> None:
    if m.is_fenced:
        raise version_error("DescribeClusterBroker", "IsFenced", 0)
    out += _S1.pack(m.broker_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_response_v0(m: DescribeClusterResponse, out: bytearray) -> None:
    if m.endpoint_type != 1:
        raise version_error("DescribeClusterResponse", "EndpointType", 0)
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.cluster_id)
    out += _S1.pack(m.controller_id)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_describe_cluster_broker_v0(e_brokers, out)
    out += _S1.pack(m.cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_broker_v1(m: DescribeClusterBroker, out: bytearray) -> None:
    if m.is_fenced:
        raise version_error("DescribeClusterBroker", "IsFenced", 1)
    out += _S1.pack(m.broker_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_response_v1(m: DescribeClusterResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.endpoint_type)
    write_compact_string(out, m.cluster_id)
    out += _S1.pack(m.controller_id)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_describe_cluster_broker_v1(e_brokers, out)
    out += _S1.pack(m.cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_broker_v2(m: DescribeClusterBroker, out: bytearray) -> None:
    out += _S1.pack(m.broker_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    out += _S3.pack(m.is_fenced)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_response_v2(m: DescribeClusterResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.endpoint_type)
    write_compact_string(out, m.cluster_id)
    out += _S1.pack(m.controller_id)
    write_uvarint(out, len(m.brokers) + 1)
    for e_brokers in m.brokers:
        _encode_describe_cluster_broker_v2(e_brokers, out)
    out += _S1.pack(m.cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeClusterResponse, int]]] = {
    0: _decode_describe_cluster_response_v0,
    1: _decode_describe_cluster_response_v1,
    2: _decode_describe_cluster_response_v2,
}
_ENCODERS: dict[int, Callable[[DescribeClusterResponse, bytearray], None]] = {
    0: _encode_describe_cluster_response_v0,
    1: _encode_describe_cluster_response_v1,
    2: _encode_describe_cluster_response_v2,
}
