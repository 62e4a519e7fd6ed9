"""ConsumerGroupDescribeRequest: generated from Kafka 3.9.2 and 4.4.0's ConsumerGroupDescribeRequest.json by
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
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ConsumerGroupDescribeRequest"]

_S0 = Struct(">?")


@dataclass(slots=True)
class ConsumerGroupDescribeRequest(ApiMessage):
    """ConsumerGroupDescribeRequest request"""

    API_KEY: ClassVar[int] = 69
    NAME: ClassVar[str] = "ConsumerGroupDescribeRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_ids: list[str] = field(default_factory=list)
    # versions 0+; entity groupId. The ids of the groups to describe.
    include_authorized_operations: bool = False
    # versions 0+. Whether to include authorized operations.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ConsumerGroupDescribeRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ConsumerGroupDescribeRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ConsumerGroupDescribeRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ConsumerGroupDescribeRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ConsumerGroupDescribeRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_consumer_group_describe_request_v0(buf: memoryview, pos: int) -> tuple[ConsumerGroupDescribeRequest, int]:
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
    return ConsumerGroupDescribeRequest(f_group_ids, f_include_authorized_operations, _unknown), pos


def _encode_consumer_group_describe_request_v0(m: ConsumerGroupDescribeRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.group_ids) + 1)
    for e_group_ids in m.group_ids:
        write_compact_string(out, e_group_ids)
    out += _S0.pack(m.include_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ConsumerGroupDescribeRequest, int]]] = {
    0: _decode_consumer_group_describe_request_v0,
    1: _decode_consumer_group_describe_request_v0,
}
_ENCODERS: dict[int, Callable[[ConsumerGroupDescribeRequest, bytearray], None]] = {
    0: _encode_consumer_group_describe_request_v0,
    1: _encode_consumer_group_describe_request_v0,
}
