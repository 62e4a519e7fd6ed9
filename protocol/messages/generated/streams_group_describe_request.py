"""StreamsGroupDescribeRequest: generated from Kafka 4.4.0's StreamsGroupDescribeRequest.json by
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
    read_compact_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["StreamsGroupDescribeRequest"]

_S0 = Struct(">?")
_S1 = Struct(">??")


@dataclass(slots=True)
class StreamsGroupDescribeRequest(ApiMessage):
    """StreamsGroupDescribeRequest request"""

    API_KEY: ClassVar[int] = 89
    NAME: ClassVar[str] = "StreamsGroupDescribeRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_ids: list[str] = field(default_factory=list)
    # versions 0+; entity groupId. The ids of the groups to describe
    include_authorized_operations: bool = False
    # versions 0+. Whether to include authorized operations.
    include_topology_description: bool = False
    # versions 1+. Whether to include the full topology description from the topology description plugin in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupDescribeRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StreamsGroupDescribeRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupDescribeRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StreamsGroupDescribeRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StreamsGroupDescribeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_streams_group_describe_request_v0(buf: memoryview, pos: int) -> tuple[StreamsGroupDescribeRequest, int]:
    f_group_ids: list[str]
    n_group_ids, pos = read_compact_array_length(buf, pos)
    if n_group_ids < 0:
        raise null_field("groupIds")
    else:
        f_group_ids = []
        for _ in range(n_group_ids):
            e_group_ids, pos = read_compact_string(buf, pos, "groupIds element")
            f_group_ids.append(e_group_ids)
    f_include_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupDescribeRequest(f_group_ids, f_include_authorized_operations, False, _unknown), pos


def _decode_streams_group_describe_request_v1(buf: memoryview, pos: int) -> tuple[StreamsGroupDescribeRequest, int]:
    f_group_ids: list[str]
    n_group_ids, pos = read_compact_array_length(buf, pos)
    if n_group_ids < 0:
        raise null_field("groupIds")
    else:
        f_group_ids = []
        for _ in range(n_group_ids):
            e_group_ids, pos = read_compact_string(buf, pos, "groupIds element")
            f_group_ids.append(e_group_ids)
    f_include_authorized_operations, f_include_topology_description = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupDescribeRequest(f_group_ids, f_include_authorized_operations, f_include_topology_description, _unknown), pos


def _encode_streams_group_describe_request_v0(m: StreamsGroupDescribeRequest, out: bytearray) -> None:
    if m.include_topology_description:
        raise version_error("StreamsGroupDescribeRequest", "IncludeTopologyDescription", 0)
    write_uvarint(out, len(m.group_ids) + 1)
    for e_group_ids in m.group_ids:
        write_compact_string(out, e_group_ids)
    out += _S0.pack(m.include_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_streams_group_describe_request_v1(m: StreamsGroupDescribeRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.group_ids) + 1)
    for e_group_ids in m.group_ids:
        write_compact_string(out, e_group_ids)
    out += _S1.pack(m.include_authorized_operations, m.include_topology_description)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StreamsGroupDescribeRequest, int]]] = {
    0: _decode_streams_group_describe_request_v0,
    1: _decode_streams_group_describe_request_v1,
}
_ENCODERS: dict[int, Callable[[StreamsGroupDescribeRequest, bytearray], None]] = {
    0: _encode_streams_group_describe_request_v0,
    1: _encode_streams_group_describe_request_v1,
}
