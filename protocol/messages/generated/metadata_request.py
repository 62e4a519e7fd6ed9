"""MetadataRequest: generated from Kafka 3.9.2 and 4.4.0's MetadataRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_error,
    null_field,
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["MetadataRequest", "MetadataRequestTopic"]

_S0 = Struct(">?")
_S1 = Struct(">???")
_S2 = Struct(">??")


@dataclass(slots=True)
class MetadataRequestTopic:
    """The topics to fetch metadata for."""

    topic_id: UUID = ZERO_UUID
    # versions 10+; ignorable. The topic id.
    name: str | None = ''
    # versions 0+; nullable 10+; entity topicName. The topic name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class MetadataRequest(ApiMessage):
    """MetadataRequest request"""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = "MetadataRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9

    topics: list[MetadataRequestTopic] | None = field(default_factory=list)
    # versions 0+; nullable 1+. The topics to fetch metadata for.
    allow_auto_topic_creation: bool = True
    # versions 4+. If this is true, the broker may auto-create topics that we requested which do not already exist, if it is configured to do so.
    include_cluster_authorized_operations: bool = False
    # versions 8-10. Whether to include cluster authorized operations.
    include_topic_authorized_operations: bool = False
    # versions 8+. Whether to include topic authorized operations.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"MetadataRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[MetadataRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"MetadataRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"MetadataRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> MetadataRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_metadata_request_topic_v0(buf: memoryview, pos: int) -> tuple[MetadataRequestTopic, int]:
    f_name: str | None
    f_name, pos = read_string(buf, pos, "name")
    return MetadataRequestTopic(ZERO_UUID, f_name, []), pos


def _decode_metadata_request_v0(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return MetadataRequest(f_topics, True, False, False, []), pos


def _decode_metadata_request_v1(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    return MetadataRequest(f_topics, True, False, False, []), pos


def _decode_metadata_request_v4(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_allow_auto_topic_creation, = _S0.unpack_from(buf, pos)
    pos += 1
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, False, False, []), pos


def _decode_metadata_request_v8(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1.unpack_from(buf, pos)
    pos += 3
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations, []), pos


def _decode_metadata_request_topic_v9(buf: memoryview, pos: int) -> tuple[MetadataRequestTopic, int]:
    f_name: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataRequestTopic(ZERO_UUID, f_name, _unknown), pos


def _decode_metadata_request_v9(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v9(buf, pos)
            f_topics.append(e_topics)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations, _unknown), pos


def _decode_metadata_request_topic_v10(buf: memoryview, pos: int) -> tuple[MetadataRequestTopic, int]:
    f_topic_id: UUID
    f_name: str | None
    f_topic_id, pos = read_uuid(buf, pos)
    f_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataRequestTopic(f_topic_id, f_name, _unknown), pos


def _decode_metadata_request_v10(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v10(buf, pos)
            f_topics.append(e_topics)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations, _unknown), pos


def _decode_metadata_request_v11(buf: memoryview, pos: int) -> tuple[MetadataRequest, int]:
    f_topics: list[MetadataRequestTopic] | None
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        f_topics = None
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_metadata_request_topic_v10(buf, pos)
            f_topics.append(e_topics)
    f_allow_auto_topic_creation, f_include_topic_authorized_operations = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, False, f_include_topic_authorized_operations, _unknown), pos


def _encode_metadata_request_topic_v0(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 0)
    write_string(out, m.name)


def _encode_metadata_request_v0(m: MetadataRequest, out: bytearray) -> None:
    if not m.allow_auto_topic_creation:
        raise version_error("MetadataRequest", "AllowAutoTopicCreation", 0)
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 0)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 0)
    if m.topics is None:
        raise null_error("MetadataRequest", "Topics", 0)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_metadata_request_topic_v0(e_topics, out)


def _encode_metadata_request_topic_v1(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 1)
    write_string(out, m.name)


def _encode_metadata_request_v1(m: MetadataRequest, out: bytearray) -> None:
    if not m.allow_auto_topic_creation:
        raise version_error("MetadataRequest", "AllowAutoTopicCreation", 1)
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 1)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 1)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v1(e_topics, out)


def _encode_metadata_request_topic_v2(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 2)
    write_string(out, m.name)


def _encode_metadata_request_v2(m: MetadataRequest, out: bytearray) -> None:
    if not m.allow_auto_topic_creation:
        raise version_error("MetadataRequest", "AllowAutoTopicCreation", 2)
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 2)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 2)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v2(e_topics, out)


def _encode_metadata_request_topic_v3(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 3)
    write_string(out, m.name)


def _encode_metadata_request_v3(m: MetadataRequest, out: bytearray) -> None:
    if not m.allow_auto_topic_creation:
        raise version_error("MetadataRequest", "AllowAutoTopicCreation", 3)
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 3)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 3)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v3(e_topics, out)


def _encode_metadata_request_topic_v4(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 4)
    write_string(out, m.name)


def _encode_metadata_request_v4(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 4)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 4)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v4(e_topics, out)
    out += _S0.pack(m.allow_auto_topic_creation)


def _encode_metadata_request_topic_v5(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 5)
    write_string(out, m.name)


def _encode_metadata_request_v5(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 5)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 5)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v5(e_topics, out)
    out += _S0.pack(m.allow_auto_topic_creation)


def _encode_metadata_request_topic_v6(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 6)
    write_string(out, m.name)


def _encode_metadata_request_v6(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 6)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 6)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v6(e_topics, out)
    out += _S0.pack(m.allow_auto_topic_creation)


def _encode_metadata_request_topic_v7(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 7)
    write_string(out, m.name)


def _encode_metadata_request_v7(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 7)
    if m.include_topic_authorized_operations:
        raise version_error("MetadataRequest", "IncludeTopicAuthorizedOperations", 7)
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v7(e_topics, out)
    out += _S0.pack(m.allow_auto_topic_creation)


def _encode_metadata_request_topic_v8(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 8)
    write_string(out, m.name)


def _encode_metadata_request_v8(m: MetadataRequest, out: bytearray) -> None:
    if m.topics is None:
        out += b"\xff\xff\xff\xff"
    else:
        out += pack_int32(len(m.topics))
        for e_topics in m.topics:
            _encode_metadata_request_topic_v8(e_topics, out)
    out += _S1.pack(m.allow_auto_topic_creation, m.include_cluster_authorized_operations, m.include_topic_authorized_operations)


def _encode_metadata_request_topic_v9(m: MetadataRequestTopic, out: bytearray) -> None:
    if m.name is None:
        raise null_error("MetadataRequestTopic", "Name", 9)
    write_compact_string(out, m.name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_v9(m: MetadataRequest, out: bytearray) -> None:
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_metadata_request_topic_v9(e_topics, out)
    out += _S1.pack(m.allow_auto_topic_creation, m.include_cluster_authorized_operations, m.include_topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_topic_v10(m: MetadataRequestTopic, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_compact_nullable_string(out, m.name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_v10(m: MetadataRequest, out: bytearray) -> None:
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_metadata_request_topic_v10(e_topics, out)
    out += _S1.pack(m.allow_auto_topic_creation, m.include_cluster_authorized_operations, m.include_topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_v11(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 11)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_metadata_request_topic_v10(e_topics, out)
    out += _S2.pack(m.allow_auto_topic_creation, m.include_topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_v12(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 12)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_metadata_request_topic_v10(e_topics, out)
    out += _S2.pack(m.allow_auto_topic_creation, m.include_topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_metadata_request_v13(m: MetadataRequest, out: bytearray) -> None:
    if m.include_cluster_authorized_operations:
        raise version_error("MetadataRequest", "IncludeClusterAuthorizedOperations", 13)
    if m.topics is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.topics) + 1)
        for e_topics in m.topics:
            _encode_metadata_request_topic_v10(e_topics, out)
    out += _S2.pack(m.allow_auto_topic_creation, m.include_topic_authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[MetadataRequest, int]]] = {
    0: _decode_metadata_request_v0,
    1: _decode_metadata_request_v1,
    2: _decode_metadata_request_v1,
    3: _decode_metadata_request_v1,
    4: _decode_metadata_request_v4,
    5: _decode_metadata_request_v4,
    6: _decode_metadata_request_v4,
    7: _decode_metadata_request_v4,
    8: _decode_metadata_request_v8,
    9: _decode_metadata_request_v9,
    10: _decode_metadata_request_v10,
    11: _decode_metadata_request_v11,
    12: _decode_metadata_request_v11,
    13: _decode_metadata_request_v11,
}
_ENCODERS: dict[int, Callable[[MetadataRequest, bytearray], None]] = {
    0: _encode_metadata_request_v0,
    1: _encode_metadata_request_v1,
    2: _encode_metadata_request_v2,
    3: _encode_metadata_request_v3,
    4: _encode_metadata_request_v4,
    5: _encode_metadata_request_v5,
    6: _encode_metadata_request_v6,
    7: _encode_metadata_request_v7,
    8: _encode_metadata_request_v8,
    9: _encode_metadata_request_v9,
    10: _encode_metadata_request_v10,
    11: _encode_metadata_request_v11,
    12: _encode_metadata_request_v12,
    13: _encode_metadata_request_v13,
}
