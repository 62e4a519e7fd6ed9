"""AlterReplicaLogDirsResponse: generated from Kafka 3.9.2 and 4.4.0's AlterReplicaLogDirsResponse.json by
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

__all__ = ["AlterReplicaLogDirsResponse", "AlterReplicaLogDirTopicResult", "AlterReplicaLogDirPartitionResult"]

_S0 = Struct(">i")
_S1 = Struct(">ih")


@dataclass(slots=True)
class AlterReplicaLogDirPartitionResult:
    """The results for each partition."""

    partition_index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterReplicaLogDirTopicResult:
    """The results for each topic."""

    topic_name: str = ''
    # versions 0+; entity topicName. The name of the topic.
    partitions: list[AlterReplicaLogDirPartitionResult] = field(default_factory=list)
    # versions 0+. The results for each partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterReplicaLogDirsResponse(ApiMessage):
    """AlterReplicaLogDirsResponse response"""

    API_KEY: ClassVar[int] = 34
    NAME: ClassVar[str] = "AlterReplicaLogDirsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    results: list[AlterReplicaLogDirTopicResult] = field(default_factory=list)
    # versions 0+. The results for each topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterReplicaLogDirsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterReplicaLogDirsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterReplicaLogDirsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterReplicaLogDirsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterReplicaLogDirsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alter_replica_log_dir_partition_result_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirPartitionResult, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    return AlterReplicaLogDirPartitionResult(f_partition_index, f_error_code, []), pos


def _decode_alter_replica_log_dir_topic_result_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirTopicResult, int]:
    f_topic_name: str
    f_partitions: list[AlterReplicaLogDirPartitionResult]
    f_topic_name, pos = read_string(buf, pos, "topicName")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_alter_replica_log_dir_partition_result_v0(buf, pos)
            f_partitions.append(e_partitions)
    return AlterReplicaLogDirTopicResult(f_topic_name, f_partitions, []), pos


def _decode_alter_replica_log_dirs_response_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirsResponse, int]:
    f_results: list[AlterReplicaLogDirTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_alter_replica_log_dir_topic_result_v0(buf, pos)
            f_results.append(e_results)
    return AlterReplicaLogDirsResponse(f_throttle_time_ms, f_results, []), pos


def _decode_alter_replica_log_dir_partition_result_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirPartitionResult, int]:
    f_partition_index, f_error_code = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDirPartitionResult(f_partition_index, f_error_code, _unknown), pos


def _decode_alter_replica_log_dir_topic_result_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirTopicResult, int]:
    f_topic_name: str
    f_partitions: list[AlterReplicaLogDirPartitionResult]
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_alter_replica_log_dir_partition_result_v2(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDirTopicResult(f_topic_name, f_partitions, _unknown), pos


def _decode_alter_replica_log_dirs_response_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirsResponse, int]:
    f_results: list[AlterReplicaLogDirTopicResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_alter_replica_log_dir_topic_result_v2(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDirsResponse(f_throttle_time_ms, f_results, _unknown), pos


def _encode_alter_replica_log_dir_partition_result_v0(m: AlterReplicaLogDirPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)


def _encode_alter_replica_log_dir_topic_result_v0(m: AlterReplicaLogDirTopicResult, out: bytearray) -> None:
    write_string(out, m.topic_name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_alter_replica_log_dir_partition_result_v0(e_partitions, out)


def _encode_alter_replica_log_dirs_response_v0(m: AlterReplicaLogDirsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_alter_replica_log_dir_topic_result_v0(e_results, out)


def _encode_alter_replica_log_dir_partition_result_v2(m: AlterReplicaLogDirPartitionResult, out: bytearray) -> None:
    out += _S1.pack(m.partition_index, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_replica_log_dir_topic_result_v2(m: AlterReplicaLogDirTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_alter_replica_log_dir_partition_result_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_replica_log_dirs_response_v2(m: AlterReplicaLogDirsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_alter_replica_log_dir_topic_result_v2(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterReplicaLogDirsResponse, int]]] = {
    0: _decode_alter_replica_log_dirs_response_v0,
    1: _decode_alter_replica_log_dirs_response_v0,
    2: _decode_alter_replica_log_dirs_response_v2,
}
_ENCODERS: dict[int, Callable[[AlterReplicaLogDirsResponse, bytearray], None]] = {
    0: _encode_alter_replica_log_dirs_response_v0,
    1: _encode_alter_replica_log_dirs_response_v0,
    2: _encode_alter_replica_log_dirs_response_v2,
}
