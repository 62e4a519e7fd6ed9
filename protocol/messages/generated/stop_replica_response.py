"""StopReplicaResponse: generated from Kafka 3.9.2's StopReplicaResponse.json by
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

__all__ = ["StopReplicaResponse", "StopReplicaPartitionError"]

_S0 = Struct(">h")
_S1 = Struct(">ih")


@dataclass(slots=True)
class StopReplicaPartitionError:
    """The responses for each partition."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The partition error code, or 0 if there was no partition error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StopReplicaResponse(ApiMessage):
    """StopReplicaResponse response"""

    API_KEY: ClassVar[int] = 5
    NAME: ClassVar[str] = "StopReplicaResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    error_code: int = 0
    # versions 0+. The top-level error code, or 0 if there was no top-level error.
    partition_errors: list[StopReplicaPartitionError] = field(default_factory=list)
    # versions 0+. The responses for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StopReplicaResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StopReplicaResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StopReplicaResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StopReplicaResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StopReplicaResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_stop_replica_partition_error_v0(buf: memoryview, pos: int) -> tuple[StopReplicaPartitionError, int]:
    f_topic_name: str
    f_topic_name, pos = read_string(buf, pos, "topicName")
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return StopReplicaPartitionError(f_topic_name, f_partition_index, f_error_code, []), pos


def _decode_stop_replica_response_v0(buf: memoryview, pos: int) -> tuple[StopReplicaResponse, int]:
    f_partition_errors: list[StopReplicaPartitionError]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_partition_errors, pos = read_array_length(buf, pos)
    if n_partition_errors < 0:
        raise null_field("partitionErrors")
    else:
        f_partition_errors = []
        for _ in range(n_partition_errors):
            e_partition_errors, pos = _decode_stop_replica_partition_error_v0(buf, pos)
            f_partition_errors.append(e_partition_errors)
    return StopReplicaResponse(f_error_code, f_partition_errors, []), pos


def _decode_stop_replica_partition_error_v2(buf: memoryview, pos: int) -> tuple[StopReplicaPartitionError, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaPartitionError(f_topic_name, f_partition_index, f_error_code, _unknown), pos


def _decode_stop_replica_response_v2(buf: memoryview, pos: int) -> tuple[StopReplicaResponse, int]:
    f_partition_errors: list[StopReplicaPartitionError]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_partition_errors, pos = read_compact_array_length(buf, pos)
    if n_partition_errors < 0:
        raise null_field("partitionErrors")
    else:
        f_partition_errors = []
        for _ in range(n_partition_errors):
            e_partition_errors, pos = _decode_stop_replica_partition_error_v2(buf, pos)
            f_partition_errors.append(e_partition_errors)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StopReplicaResponse(f_error_code, f_partition_errors, _unknown), pos


def _encode_stop_replica_partition_error_v0(m: StopReplicaPartitionError, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.error_code)


def _encode_stop_replica_response_v0(m: StopReplicaResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.partition_errors))
    for e_partition_errors in m.partition_errors:
        _encode_stop_replica_partition_error_v0(e_partition_errors, out)


def _encode_stop_replica_partition_error_v2(m: StopReplicaPartitionError, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    out += _S1.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_stop_replica_response_v2(m: StopReplicaResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.partition_errors) + 1)
    for e_partition_errors in m.partition_errors:
        _encode_stop_replica_partition_error_v2(e_partition_errors, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StopReplicaResponse, int]]] = {
    0: _decode_stop_replica_response_v0,
    1: _decode_stop_replica_response_v0,
    2: _decode_stop_replica_response_v2,
    3: _decode_stop_replica_response_v2,
    4: _decode_stop_replica_response_v2,
}
_ENCODERS: dict[int, Callable[[StopReplicaResponse, bytearray], None]] = {
    0: _encode_stop_replica_response_v0,
    1: _encode_stop_replica_response_v0,
    2: _encode_stop_replica_response_v2,
    3: _encode_stop_replica_response_v2,
    4: _encode_stop_replica_response_v2,
}
