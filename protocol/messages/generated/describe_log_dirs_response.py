"""DescribeLogDirsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeLogDirsResponse.json by
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

__all__ = ["DescribeLogDirsResponse", "DescribeLogDirsResult", "DescribeLogDirsTopic", "DescribeLogDirsPartition"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">iqq?")
_S3 = Struct(">ih")
_S4 = Struct(">qq")
_S5 = Struct(">qq?")


@dataclass(slots=True)
class DescribeLogDirsPartition:
    """The partitions."""

    partition_index: int = 0
    # versions 0+. The partition index.
    partition_size: int = 0
    # versions 0+. The size of the log segments in this partition in bytes.
    offset_lag: int = 0
    # versions 0+. The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition) or current replica's LEO (if it is the future log for the partition).
    is_future_key: bool = False
    # versions 0+. True if this log is created by AlterReplicaLogDirsRequest and will replace the current log of the replica in the future.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeLogDirsTopic:
    """The topics."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[DescribeLogDirsPartition] = field(default_factory=list)
    # versions 0+. The partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeLogDirsResult:
    """The log directories."""

    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    log_dir: str = ''
    # versions 0+. The absolute log directory path.
    topics: list[DescribeLogDirsTopic] = field(default_factory=list)
    # versions 0+. The topics.
    total_bytes: int = -1
    # versions 4+; ignorable. The total size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    usable_bytes: int = -1
    # versions 4+; ignorable. The usable size in bytes of the volume the log directory is in. This value does not include the size of data stored in remote storage.
    is_cordoned: bool = False
    # versions 5+; ignorable. True if this log directory is cordoned.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeLogDirsResponse(ApiMessage):
    """DescribeLogDirsResponse response"""

    API_KEY: ClassVar[int] = 35
    NAME: ClassVar[str] = "DescribeLogDirsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 3+; ignorable. The error code, or 0 if there was no error.
    results: list[DescribeLogDirsResult] = field(default_factory=list)
    # versions 0+. The log directories.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeLogDirsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeLogDirsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeLogDirsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeLogDirsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeLogDirsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_log_dirs_partition_v0(buf: memoryview, pos: int) -> tuple[DescribeLogDirsPartition, int]:
    f_partition_index, f_partition_size, f_offset_lag, f_is_future_key = _S2.unpack_from(buf, pos)
    pos += 21
    return DescribeLogDirsPartition(f_partition_index, f_partition_size, f_offset_lag, f_is_future_key, []), pos


def _decode_describe_log_dirs_topic_v0(buf: memoryview, pos: int) -> tuple[DescribeLogDirsTopic, int]:
    f_name: str
    f_partitions: list[DescribeLogDirsPartition]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_describe_log_dirs_partition_v0(buf, pos)
            f_partitions.append(e_partitions)
    return DescribeLogDirsTopic(f_name, f_partitions, []), pos


def _decode_describe_log_dirs_result_v0(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResult, int]:
    f_log_dir: str
    f_topics: list[DescribeLogDirsTopic]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_log_dir, pos = read_string(buf, pos, "logDir")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_log_dirs_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, -1, -1, False, []), pos


def _decode_describe_log_dirs_response_v0(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    f_results: list[DescribeLogDirsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_log_dirs_result_v0(buf, pos)
            f_results.append(e_results)
    return DescribeLogDirsResponse(f_throttle_time_ms, 0, f_results, []), pos


def _decode_describe_log_dirs_partition_v2(buf: memoryview, pos: int) -> tuple[DescribeLogDirsPartition, int]:
    f_partition_index, f_partition_size, f_offset_lag, f_is_future_key = _S2.unpack_from(buf, pos)
    pos += 21
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsPartition(f_partition_index, f_partition_size, f_offset_lag, f_is_future_key, _unknown), pos


def _decode_describe_log_dirs_topic_v2(buf: memoryview, pos: int) -> tuple[DescribeLogDirsTopic, int]:
    f_name: str
    f_partitions: list[DescribeLogDirsPartition]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = []
        for _ in range(n_partitions):
            e_partitions, pos = _decode_describe_log_dirs_partition_v2(buf, pos)
            f_partitions.append(e_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsTopic(f_name, f_partitions, _unknown), pos


def _decode_describe_log_dirs_result_v2(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResult, int]:
    f_log_dir: str
    f_topics: list[DescribeLogDirsTopic]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos, "logDir")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_log_dirs_topic_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, -1, -1, False, _unknown), pos


def _decode_describe_log_dirs_response_v2(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    f_results: list[DescribeLogDirsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_log_dirs_result_v2(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResponse(f_throttle_time_ms, 0, f_results, _unknown), pos


def _decode_describe_log_dirs_response_v3(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    f_results: list[DescribeLogDirsResult]
    f_throttle_time_ms, f_error_code = _S3.unpack_from(buf, pos)
    pos += 6
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_log_dirs_result_v2(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, _unknown), pos


def _decode_describe_log_dirs_result_v4(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResult, int]:
    f_log_dir: str
    f_topics: list[DescribeLogDirsTopic]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos, "logDir")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_log_dirs_topic_v2(buf, pos)
            f_topics.append(e_topics)
    f_total_bytes, f_usable_bytes = _S4.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, f_total_bytes, f_usable_bytes, False, _unknown), pos


def _decode_describe_log_dirs_response_v4(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    f_results: list[DescribeLogDirsResult]
    f_throttle_time_ms, f_error_code = _S3.unpack_from(buf, pos)
    pos += 6
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_log_dirs_result_v4(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, _unknown), pos


def _decode_describe_log_dirs_result_v5(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResult, int]:
    f_log_dir: str
    f_topics: list[DescribeLogDirsTopic]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos, "logDir")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_describe_log_dirs_topic_v2(buf, pos)
            f_topics.append(e_topics)
    f_total_bytes, f_usable_bytes, f_is_cordoned = _S5.unpack_from(buf, pos)
    pos += 17
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, f_total_bytes, f_usable_bytes, f_is_cordoned, _unknown), pos


def _decode_describe_log_dirs_response_v5(buf: memoryview, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    f_results: list[DescribeLogDirsResult]
    f_throttle_time_ms, f_error_code = _S3.unpack_from(buf, pos)
    pos += 6
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_log_dirs_result_v5(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, _unknown), pos


def _encode_describe_log_dirs_partition_v0(m: DescribeLogDirsPartition, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.partition_size, m.offset_lag, m.is_future_key)


def _encode_describe_log_dirs_topic_v0(m: DescribeLogDirsTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    for e_partitions in m.partitions:
        _encode_describe_log_dirs_partition_v0(e_partitions, out)


def _encode_describe_log_dirs_result_v0(m: DescribeLogDirsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_string(out, m.log_dir)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_describe_log_dirs_topic_v0(e_topics, out)


def _encode_describe_log_dirs_response_v0(m: DescribeLogDirsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_describe_log_dirs_result_v0(e_results, out)


def _encode_describe_log_dirs_partition_v2(m: DescribeLogDirsPartition, out: bytearray) -> None:
    out += _S2.pack(m.partition_index, m.partition_size, m.offset_lag, m.is_future_key)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_topic_v2(m: DescribeLogDirsTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    for e_partitions in m.partitions:
        _encode_describe_log_dirs_partition_v2(e_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_result_v2(m: DescribeLogDirsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_string(out, m.log_dir)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_log_dirs_topic_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_response_v2(m: DescribeLogDirsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_log_dirs_result_v2(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_response_v3(m: DescribeLogDirsResponse, out: bytearray) -> None:
    out += _S3.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_log_dirs_result_v2(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_result_v4(m: DescribeLogDirsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_string(out, m.log_dir)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_log_dirs_topic_v2(e_topics, out)
    out += _S4.pack(m.total_bytes, m.usable_bytes)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_response_v4(m: DescribeLogDirsResponse, out: bytearray) -> None:
    out += _S3.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_log_dirs_result_v4(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_result_v5(m: DescribeLogDirsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_string(out, m.log_dir)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_describe_log_dirs_topic_v2(e_topics, out)
    out += _S5.pack(m.total_bytes, m.usable_bytes, m.is_cordoned)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_log_dirs_response_v5(m: DescribeLogDirsResponse, out: bytearray) -> None:
    out += _S3.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_log_dirs_result_v5(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeLogDirsResponse, int]]] = {
    0: _decode_describe_log_dirs_response_v0,
    1: _decode_describe_log_dirs_response_v0,
    2: _decode_describe_log_dirs_response_v2,
    3: _decode_describe_log_dirs_response_v3,
    4: _decode_describe_log_dirs_response_v4,
    5: _decode_describe_log_dirs_response_v5,
}
_ENCODERS: dict[int, Callable[[DescribeLogDirsResponse, bytearray], None]] = {
    0: _encode_describe_log_dirs_response_v0,
    1: _encode_describe_log_dirs_response_v0,
    2: _encode_describe_log_dirs_response_v2,
    3: _encode_describe_log_dirs_response_v3,
    4: _encode_describe_log_dirs_response_v4,
    5: _encode_describe_log_dirs_response_v5,
}
