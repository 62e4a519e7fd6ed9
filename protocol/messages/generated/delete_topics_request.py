"""DeleteTopicsRequest: generated from Kafka 3.9.2 and 4.4.0's DeleteTopicsRequest.json by
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

__all__ = ["DeleteTopicsRequest", "DeleteTopicState"]

_S0 = Struct(">i")


@dataclass(slots=True)
class DeleteTopicState:
    """The name or topic ID of the topic."""

    name: str | None = None
    # versions 6+; nullable 6+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 6+. The unique topic ID.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteTopicsRequest(ApiMessage):
    """DeleteTopicsRequest request"""

    API_KEY: ClassVar[int] = 20
    NAME: ClassVar[str] = "DeleteTopicsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    topics: list[DeleteTopicState] = field(default_factory=list)
    # versions 6+. The name or topic ID of the topic.
    topic_names: list[str] = field(default_factory=list)
    # versions 0-5; ignorable; entity topicName. The names of the topics to delete.
    timeout_ms: int = 0
    # versions 0+. The length of time in milliseconds to wait for the deletions to complete.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteTopicsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteTopicsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteTopicsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteTopicsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteTopicsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_topics_request_v0(buf: memoryview, pos: int) -> tuple[DeleteTopicsRequest, int]:
    f_topic_names: list[str]
    n_topic_names, pos = read_array_length(buf, pos)
    if n_topic_names < 0:
        raise null_field("topicNames")
    else:
        f_topic_names = []
        for _ in range(n_topic_names):
            e_topic_names, pos = read_string(buf, pos, "topicNames element")
            f_topic_names.append(e_topic_names)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    return DeleteTopicsRequest([], f_topic_names, f_timeout_ms, []), pos


def _decode_delete_topics_request_v4(buf: memoryview, pos: int) -> tuple[DeleteTopicsRequest, int]:
    f_topic_names: list[str]
    n_topic_names, pos = read_compact_array_length(buf, pos)
    if n_topic_names < 0:
        raise null_field("topicNames")
    else:
        f_topic_names = []
        for _ in range(n_topic_names):
            e_topic_names, pos = read_compact_string(buf, pos, "topicNames element")
            f_topic_names.append(e_topic_names)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicsRequest([], f_topic_names, f_timeout_ms, _unknown), pos


def _decode_delete_topic_state_v6(buf: memoryview, pos: int) -> tuple[DeleteTopicState, int]:
    f_name: str | None
    f_topic_id: UUID
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicState(f_name, f_topic_id, _unknown), pos


def _decode_delete_topics_request_v6(buf: memoryview, pos: int) -> tuple[DeleteTopicsRequest, int]:
    f_topics: list[DeleteTopicState]
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_topic_state_v6(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteTopicsRequest(f_topics, [], f_timeout_ms, _unknown), pos


def _encode_delete_topics_request_v0(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 0)
    out += pack_int32(len(m.topic_names))
    for e_topic_names in m.topic_names:
        write_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)


def _encode_delete_topics_request_v1(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 1)
    out += pack_int32(len(m.topic_names))
    for e_topic_names in m.topic_names:
        write_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)


def _encode_delete_topics_request_v2(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 2)
    out += pack_int32(len(m.topic_names))
    for e_topic_names in m.topic_names:
        write_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)


def _encode_delete_topics_request_v3(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 3)
    out += pack_int32(len(m.topic_names))
    for e_topic_names in m.topic_names:
        write_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)


def _encode_delete_topics_request_v4(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 4)
    write_uvarint(out, len(m.topic_names) + 1)
    for e_topic_names in m.topic_names:
        write_compact_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topics_request_v5(m: DeleteTopicsRequest, out: bytearray) -> None:
    if len(m.topics) > 0:
        raise version_error("DeleteTopicsRequest", "Topics", 5)
    write_uvarint(out, len(m.topic_names) + 1)
    for e_topic_names in m.topic_names:
        write_compact_string(out, e_topic_names)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topic_state_v6(m: DeleteTopicState, out: bytearray) -> None:
    write_compact_nullable_string(out, m.name)
    out += m.topic_id.bytes
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_topics_request_v6(m: DeleteTopicsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_delete_topic_state_v6(e_topics, out)
    out += _S0.pack(m.timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteTopicsRequest, int]]] = {
    0: _decode_delete_topics_request_v0,
    1: _decode_delete_topics_request_v0,
    2: _decode_delete_topics_request_v0,
    3: _decode_delete_topics_request_v0,
    4: _decode_delete_topics_request_v4,
    5: _decode_delete_topics_request_v4,
    6: _decode_delete_topics_request_v6,
}
_ENCODERS: dict[int, Callable[[DeleteTopicsRequest, bytearray], None]] = {
    0: _encode_delete_topics_request_v0,
    1: _encode_delete_topics_request_v1,
    2: _encode_delete_topics_request_v2,
    3: _encode_delete_topics_request_v3,
    4: _encode_delete_topics_request_v4,
    5: _encode_delete_topics_request_v5,
    6: _encode_delete_topics_request_v6,
}
