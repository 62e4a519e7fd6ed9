"""DeleteShareGroupOffsetsRequest: generated from Kafka 4.4.0's DeleteShareGroupOffsetsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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

__all__ = ["DeleteShareGroupOffsetsRequest", "DeleteShareGroupOffsetsRequestTopic"]



@dataclass(slots=True)
class DeleteShareGroupOffsetsRequestTopic:
    """The topics to delete offsets for."""

    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DeleteShareGroupOffsetsRequest(ApiMessage):
    """DeleteShareGroupOffsetsRequest request"""

    API_KEY: ClassVar[int] = 92
    NAME: ClassVar[str] = "DeleteShareGroupOffsetsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    topics: list[DeleteShareGroupOffsetsRequestTopic] = field(default_factory=list)
    # versions 0+. The topics to delete offsets for.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteShareGroupOffsetsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DeleteShareGroupOffsetsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DeleteShareGroupOffsetsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DeleteShareGroupOffsetsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DeleteShareGroupOffsetsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_delete_share_group_offsets_request_topic_v0(buf: memoryview, pos: int) -> tuple[DeleteShareGroupOffsetsRequestTopic, int]:
    f_topic_name: str
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteShareGroupOffsetsRequestTopic(f_topic_name, _unknown), pos


def _decode_delete_share_group_offsets_request_v0(buf: memoryview, pos: int) -> tuple[DeleteShareGroupOffsetsRequest, int]:
    f_group_id: str
    f_topics: list[DeleteShareGroupOffsetsRequestTopic]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_delete_share_group_offsets_request_topic_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DeleteShareGroupOffsetsRequest(f_group_id, f_topics, _unknown), pos


def _encode_delete_share_group_offsets_request_topic_v0(m: DeleteShareGroupOffsetsRequestTopic, out: bytearray) -> None:
    write_compact_string(out, m.topic_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_delete_share_group_offsets_request_v0(m: DeleteShareGroupOffsetsRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_delete_share_group_offsets_request_topic_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DeleteShareGroupOffsetsRequest, int]]] = {
    0: _decode_delete_share_group_offsets_request_v0,
}
_ENCODERS: dict[int, Callable[[DeleteShareGroupOffsetsRequest, bytearray], None]] = {
    0: _encode_delete_share_group_offsets_request_v0,
}
