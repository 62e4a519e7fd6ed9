"""ElectLeadersResponse: generated from Kafka 3.9.2 and 4.4.0's ElectLeadersResponse.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ElectLeadersResponse", "ReplicaElectionResult", "PartitionResult"]

_S0 = Struct(">i")
_S1 = Struct(">ih")


@dataclass(slots=True)
class PartitionResult:
    """The results for each partition."""

    partition_id: int = 0
    # versions 0+. The partition id.
    error_code: int = 0
    # versions 0+. The result error, or zero if there was no error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The result message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ReplicaElectionResult:
    """The election results, or an empty array if the requester did not have permission and the request asks for all partitions."""

    topic: str = ''
    # versions 0+; entity topicName. The topic name.
    partition_result: list[PartitionResult] = field(default_factory=list)
    # versions 0+. The results for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ElectLeadersResponse(ApiMessage):
    """ElectLeadersResponse response"""

    API_KEY: ClassVar[int] = 43
    NAME: ClassVar[str] = "ElectLeadersResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 1+. The top level response error code.
    replica_election_results: list[ReplicaElectionResult] = field(default_factory=list)
    # versions 0+. The election results, or an empty array if the requester did not have permission and the request asks for all partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ElectLeadersResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ElectLeadersResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ElectLeadersResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ElectLeadersResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ElectLeadersResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_partition_result_v0(buf: memoryview, pos: int) -> tuple[PartitionResult, int]:
    f_error_message: str | None
    f_partition_id, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    return PartitionResult(f_partition_id, f_error_code, f_error_message, []), pos


def _decode_replica_election_result_v0(buf: memoryview, pos: int) -> tuple[ReplicaElectionResult, int]:
    f_topic: str
    f_partition_result: list[PartitionResult]
    f_topic, pos = read_string(buf, pos, "topic")
    n_partition_result, pos = read_array_length(buf, pos)
    if n_partition_result < 0:
        raise null_field("partitionResult")
    else:
        f_partition_result = []
        for _ in range(n_partition_result):
            e_partition_result, pos = _decode_partition_result_v0(buf, pos)
            f_partition_result.append(e_partition_result)
    return ReplicaElectionResult(f_topic, f_partition_result, []), pos


def _decode_elect_leaders_response_v0(buf: memoryview, pos: int) -> tuple[ElectLeadersResponse, int]:
    f_replica_election_results: list[ReplicaElectionResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_replica_election_results, pos = read_array_length(buf, pos)
    if n_replica_election_results < 0:
        raise null_field("replicaElectionResults")
    else:
        f_replica_election_results = []
        for _ in range(n_replica_election_results):
            e_replica_election_results, pos = _decode_replica_election_result_v0(buf, pos)
            f_replica_election_results.append(e_replica_election_results)
    return ElectLeadersResponse(f_throttle_time_ms, 0, f_replica_election_results, []), pos


def _decode_elect_leaders_response_v1(buf: memoryview, pos: int) -> tuple[ElectLeadersResponse, int]:
    f_replica_election_results: list[ReplicaElectionResult]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_replica_election_results, pos = read_array_length(buf, pos)
    if n_replica_election_results < 0:
        raise null_field("replicaElectionResults")
    else:
        f_replica_election_results = []
        for _ in range(n_replica_election_results):
            e_replica_election_results, pos = _decode_replica_election_result_v0(buf, pos)
            f_replica_election_results.append(e_replica_election_results)
    return ElectLeadersResponse(f_throttle_time_ms, f_error_code, f_replica_election_results, []), pos


def _decode_partition_result_v2(buf: memoryview, pos: int) -> tuple[PartitionResult, int]:
    f_error_message: str | None
    f_partition_id, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionResult(f_partition_id, f_error_code, f_error_message, _unknown), pos


def _decode_replica_election_result_v2(buf: memoryview, pos: int) -> tuple[ReplicaElectionResult, int]:
    f_topic: str
    f_partition_result: list[PartitionResult]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partition_result, pos = read_compact_array_length(buf, pos)
    if n_partition_result < 0:
        raise null_field("partitionResult")
    else:
        f_partition_result = []
        for _ in range(n_partition_result):
            e_partition_result, pos = _decode_partition_result_v2(buf, pos)
            f_partition_result.append(e_partition_result)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ReplicaElectionResult(f_topic, f_partition_result, _unknown), pos


def _decode_elect_leaders_response_v2(buf: memoryview, pos: int) -> tuple[ElectLeadersResponse, int]:
    f_replica_election_results: list[ReplicaElectionResult]
    f_throttle_time_ms, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    n_replica_election_results, pos = read_compact_array_length(buf, pos)
    if n_replica_election_results < 0:
        raise null_field("replicaElectionResults")
    else:
        f_replica_election_results = []
        for _ in range(n_replica_election_results):
            e_replica_election_results, pos = _decode_replica_election_result_v2(buf, pos)
            f_replica_election_results.append(e_replica_election_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ElectLeadersResponse(f_throttle_time_ms, f_error_code, f_replica_election_results, _unknown), pos


def _encode_partition_result_v0(m: PartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_id, m.error_code)
    write_nullable_string(out, m.error_message)


def _encode_replica_election_result_v0(m: ReplicaElectionResult, out: bytearray) -> None:
    write_string(out, m.topic)
    out += pack_int32(len(m.partition_result))
    for e_partition_result in m.partition_result:
        _encode_partition_result_v0(e_partition_result, out)


def _encode_elect_leaders_response_v0(m: ElectLeadersResponse, out: bytearray) -> None:
    if m.error_code != 0:
        raise version_error("ElectLeadersResponse", "ErrorCode", 0)
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.replica_election_results))
    for e_replica_election_results in m.replica_election_results:
        _encode_replica_election_result_v0(e_replica_election_results, out)


def _encode_elect_leaders_response_v1(m: ElectLeadersResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    out += pack_int32(len(m.replica_election_results))
    for e_replica_election_results in m.replica_election_results:
        _encode_replica_election_result_v0(e_replica_election_results, out)


def _encode_partition_result_v2(m: PartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_id, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_replica_election_result_v2(m: ReplicaElectionResult, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partition_result) + 1)
    for e_partition_result in m.partition_result:
        _encode_partition_result_v2(e_partition_result, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_elect_leaders_response_v2(m: ElectLeadersResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.replica_election_results) + 1)
    for e_replica_election_results in m.replica_election_results:
        _encode_replica_election_result_v2(e_replica_election_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ElectLeadersResponse, int]]] = {
    0: _decode_elect_leaders_response_v0,
    1: _decode_elect_leaders_response_v1,
    2: _decode_elect_leaders_response_v2,
}
_ENCODERS: dict[int, Callable[[ElectLeadersResponse, bytearray], None]] = {
    0: _encode_elect_leaders_response_v0,
    1: _encode_elect_leaders_response_v1,
    2: _encode_elect_leaders_response_v2,
}
