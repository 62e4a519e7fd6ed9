"""DescribeClusterRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeClusterRequest.json by
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
    read_unknown_tags,
    version_error,
    write_tagged_fields,
)

__all__ = ["DescribeClusterRequest"]

_S0 = Struct(">?")
_S1 = Struct(">?b")
_S2 = Struct(">?b?")


@dataclass(slots=True)
class DescribeClusterRequest(ApiMessage):
    """DescribeClusterRequest request"""

    API_KEY: ClassVar[int] = 60
    NAME: ClassVar[str] = "DescribeClusterRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    include_cluster_authorized_operations: bool = False
    # versions 0+. Whether to include cluster authorized operations.
    endpoint_type: int = 1
    # versions 1+. The endpoint type to describe. 1=brokers, 2=controllers.
    include_fenced_brokers: bool = False
    # versions 2+. Whether to include fenced brokers when listing brokers.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClusterRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeClusterRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeClusterRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeClusterRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeClusterRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_cluster_request_v0(buf: memoryview, pos: int) -> tuple[DescribeClusterRequest, int]:
    f_include_cluster_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterRequest(f_include_cluster_authorized_operations, 1, False, _unknown), pos


def _decode_describe_cluster_request_v1(buf: memoryview, pos: int) -> tuple[DescribeClusterRequest, int]:
    f_include_cluster_authorized_operations, f_endpoint_type = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterRequest(f_include_cluster_authorized_operations, f_endpoint_type, False, _unknown), pos


def _decode_describe_cluster_request_v2(buf: memoryview, pos: int) -> tuple[DescribeClusterRequest, int]:
    f_include_cluster_authorized_operations, f_endpoint_type, f_include_fenced_brokers = _S2.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeClusterRequest(f_include_cluster_authorized_operations, f_endpoint_type, f_include_fenced_brokers, _unknown), pos


def _encode_describe_cluster_request_v0(m: DescribeClusterRequest, out: bytearray) -> None:
    if m.endpoint_type != 1:
        raise version_error("DescribeClusterRequest", "EndpointType", 0)
    if m.include_fenced_brokers:
        raise version_error("DescribeClusterRequest", "IncludeFencedBrokers", 0)
    out += _S0.pack(m.include_cluster_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_request_v1(m: DescribeClusterRequest, out: bytearray) -> None:
    if m.include_fenced_brokers:
        raise version_error("DescribeClusterRequest", "IncludeFencedBrokers", 1)
    out += _S1.pack(m.include_cluster_authorized_operations, m.endpoint_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_cluster_request_v2(m: DescribeClusterRequest, out: bytearray) -> None:
    out += _S2.pack(m.include_cluster_authorized_operations, m.endpoint_type, m.include_fenced_brokers)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeClusterRequest, int]]] = {
    0: _decode_describe_cluster_request_v0,
    1: _decode_describe_cluster_request_v1,
    2: _decode_describe_cluster_request_v2,
}
_ENCODERS: dict[int, Callable[[DescribeClusterRequest, bytearray], None]] = {
    0: _encode_describe_cluster_request_v0,
    1: _encode_describe_cluster_request_v1,
    2: _encode_describe_cluster_request_v2,
}
