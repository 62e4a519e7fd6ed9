"""ControlledShutdownResponse: generated from Kafka 3.9.2's ControlledShutdownResponse.json by
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

__all__ = ["ControlledShutdownResponse", "RemainingPartition"]

_S0 = Struct(">h")
_S1 = Struct(">i")


@dataclass(slots=True)
class RemainingPartition:
    """The partitions that the broker still leads."""

    topic_name: str = ''
    # versions 0+; entity topicName. The name of the topic.
    partition_index: int = 0
    # versions 0+. The index of the partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ControlledShutdownResponse(ApiMessage):
    """ControlledShutdownResponse response"""

    API_KEY: ClassVar[int] = 7
    NAME: ClassVar[str] = "ControlledShutdownResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    error_code: int = 0
    # versions 0+. The top-level error code.
    remaining_partitions: list[RemainingPartition] = field(default_factory=list)
    # versions 0+. The partitions that the broker still leads.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControlledShutdownResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ControlledShutdownResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControlledShutdownResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ControlledShutdownResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ControlledShutdownResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_remaining_partition_v0(buf: memoryview, pos: int) -> tuple[RemainingPartition, int]:
    f_topic_name: str
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    return RemainingPartition(f_topic_name, f_partition_index, []), pos


def _decode_controlled_shutdown_response_v0(buf: memoryview, pos: int) -> tuple[ControlledShutdownResponse, int]:
    f_remaining_partitions: list[RemainingPartition]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_remaining_partitions, pos = read_array_length(buf, pos)
    if n_remaining_partitions < 0:
        raise null_field("remainingPartitions")
    else:
        f_remaining_partitions = []
        for _ in range(n_remaining_partitions):
            e_remaining_partitions, pos = _decode_remaining_partition_v0(buf, pos)
            f_remaining_partitions.append(e_remaining_partitions)
    return ControlledShutdownResponse(f_error_code, f_remaining_partitions, []), pos


def _decode_remaining_partition_v3(buf: memoryview, pos: int) -> tuple[RemainingPartition, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return RemainingPartition(f_topic_name, f_partition_index, _unknown), pos


def _decode_controlled_shutdown_response_v3(buf: memoryview, pos: int) -> tuple[ControlledShutdownResponse, int]:
    f_remaining_partitions: list[RemainingPartition]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_remaining_partitions, pos = read_compact_array_length(buf, pos)
    if n_remaining_partitions < 0:
        raise null_field("remainingPartitions")
    else:
        f_remaining_partitions = []
        for _ in range(n_remaining_partitions):
            e_remaining_partitions, pos = _decode_remaining_partition_v3(buf, pos)
            f_remaining_partitions.append(e_remaining_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ControlledShutdownResponse(f_error_code, f_remaining_partitions, _unknown), pos


def _encode_remaining_partition_v0(m: RemainingPartition, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index)


def _encode_controlled_shutdown_response_v0(m: ControlledShutdownResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.remaining_partitions))
    for e_remaining_partitions in m.remaining_partitions:
        _encode_remaining_partition_v0(e_remaining_partitions, out)


def _encode_remaining_partition_v3(m: RemainingPartition, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += _S1.pack(m.partition_index)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_controlled_shutdown_response_v3(m: ControlledShutdownResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.remaining_partitions) + 1)
    for e_remaining_partitions in m.remaining_partitions:
        _encode_remaining_partition_v3(e_remaining_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ControlledShutdownResponse, int]]] = {
    0: _decode_controlled_shutdown_response_v0,
    1: _decode_controlled_shutdown_response_v0,
    2: _decode_controlled_shutdown_response_v0,
    3: _decode_controlled_shutdown_response_v3,
}
_ENCODERS: dict[int, Callable[[ControlledShutdownResponse, bytearray], None]] = {
    0: _encode_controlled_shutdown_response_v0,
    1: _encode_controlled_shutdown_response_v0,
    2: _encode_controlled_shutdown_response_v0,
    3: _encode_controlled_shutdown_response_v3,
}
