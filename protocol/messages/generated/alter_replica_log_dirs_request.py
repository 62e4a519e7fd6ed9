"""AlterReplicaLogDirsRequest: generated from Kafka 3.9.2 and 4.4.0's AlterReplicaLogDirsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import pack, unpack_from
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

__all__ = ["AlterReplicaLogDirsRequest", "AlterReplicaLogDir", "AlterReplicaLogDirTopic"]



@dataclass(slots=True)
class AlterReplicaLogDirTopic:
    """The topics to add to the directory."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partition indexes.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterReplicaLogDir:
    """The alterations to make for each directory."""

    path: str = ''
    # versions 0+. The absolute directory path.
    topics: list[AlterReplicaLogDirTopic] = field(default_factory=list)
    # versions 0+. The topics to add to the directory.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AlterReplicaLogDirsRequest(ApiMessage):
    """AlterReplicaLogDirsRequest request"""

    API_KEY: ClassVar[int] = 34
    NAME: ClassVar[str] = "AlterReplicaLogDirsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    dirs: list[AlterReplicaLogDir] = field(default_factory=list)
    # versions 0+. The alterations to make for each directory.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterReplicaLogDirsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AlterReplicaLogDirsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AlterReplicaLogDirsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AlterReplicaLogDirsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AlterReplicaLogDirsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alter_replica_log_dir_topic_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirTopic, int]:
    f_name: str
    f_partitions: list[int]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    return AlterReplicaLogDirTopic(f_name, f_partitions, []), pos


def _decode_alter_replica_log_dir_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDir, int]:
    f_path: str
    f_topics: list[AlterReplicaLogDirTopic]
    f_path, pos = read_string(buf, pos, "path")
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_alter_replica_log_dir_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return AlterReplicaLogDir(f_path, f_topics, []), pos


def _decode_alter_replica_log_dirs_request_v0(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirsRequest, int]:
    f_dirs: list[AlterReplicaLogDir]
    n_dirs, pos = read_array_length(buf, pos)
    if n_dirs < 0:
        raise null_field("dirs")
    else:
        f_dirs = []
        for _ in range(n_dirs):
            e_dirs, pos = _decode_alter_replica_log_dir_v0(buf, pos)
            f_dirs.append(e_dirs)
    return AlterReplicaLogDirsRequest(f_dirs, []), pos


def _decode_alter_replica_log_dir_topic_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirTopic, int]:
    f_name: str
    f_partitions: list[int]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDirTopic(f_name, f_partitions, _unknown), pos


def _decode_alter_replica_log_dir_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDir, int]:
    f_path: str
    f_topics: list[AlterReplicaLogDirTopic]
    f_path, pos = read_compact_string(buf, pos, "path")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_alter_replica_log_dir_topic_v2(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDir(f_path, f_topics, _unknown), pos


def _decode_alter_replica_log_dirs_request_v2(buf: memoryview, pos: int) -> tuple[AlterReplicaLogDirsRequest, int]:
    f_dirs: list[AlterReplicaLogDir]
    n_dirs, pos = read_compact_array_length(buf, pos)
    if n_dirs < 0:
        raise null_field("dirs")
    else:
        f_dirs = []
        for _ in range(n_dirs):
            e_dirs, pos = _decode_alter_replica_log_dir_v2(buf, pos)
            f_dirs.append(e_dirs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterReplicaLogDirsRequest(f_dirs, _unknown), pos


def _encode_alter_replica_log_dir_topic_v0(m: AlterReplicaLogDirTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    out += pack(f">{len(m.partitions)}i", *m.partitions)


def _encode_alter_replica_log_dir_v0(m: AlterReplicaLogDir, out: bytearray) -> None:
    write_string(out, m.path)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_alter_replica_log_dir_topic_v0(e_topics, out)


def _encode_alter_replica_log_dirs_request_v0(m: AlterReplicaLogDirsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.dirs))
    for e_dirs in m.dirs:
        _encode_alter_replica_log_dir_v0(e_dirs, out)


def _encode_alter_replica_log_dir_topic_v2(m: AlterReplicaLogDirTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_replica_log_dir_v2(m: AlterReplicaLogDir, out: bytearray) -> None:
    write_compact_string(out, m.path)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_alter_replica_log_dir_topic_v2(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_alter_replica_log_dirs_request_v2(m: AlterReplicaLogDirsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.dirs) + 1)
    for e_dirs in m.dirs:
        _encode_alter_replica_log_dir_v2(e_dirs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AlterReplicaLogDirsRequest, int]]] = {
    0: _decode_alter_replica_log_dirs_request_v0,
    1: _decode_alter_replica_log_dirs_request_v0,
    2: _decode_alter_replica_log_dirs_request_v2,
}
_ENCODERS: dict[int, Callable[[AlterReplicaLogDirsRequest, bytearray], None]] = {
    0: _encode_alter_replica_log_dirs_request_v0,
    1: _encode_alter_replica_log_dirs_request_v0,
    2: _encode_alter_replica_log_dirs_request_v2,
}
