"""CreateTopicsResponse: generated from Kafka 3.9.2 and 4.4.0's CreateTopicsResponse.json by
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
    read_nullable_string,
    read_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["CreateTopicsResponse", "CreatableTopicResult", "CreatableTopicConfigs"]

_S0 = Struct(">h")
_S1 = Struct(">i")
_S2 = Struct(">ih")
_S3 = Struct(">?b?")


@dataclass(slots=True)
class CreatableTopicConfigs:
    """Configuration of the topic."""

    name: str = ''
    # versions 5+. The configuration name.
    value: str | None = ''
    # versions 5+; nullable 5+. The configuration value.
    read_only: bool = False
    # versions 5+. True if the configuration is read-only.
    config_source: int = -1
    # versions 5+; ignorable. The configuration source.
    is_sensitive: bool = False
    # versions 5+. True if this configuration is sensitive.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreatableTopicResult:
    """Results for each topic we tried to create."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    topic_id: UUID = ZERO_UUID
    # versions 7+; ignorable. The unique topic ID.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 1+; nullable 0+; ignorable. The error message, or null if there was no error.
    topic_config_error_code: int = 0
    # versions 5+; tag 0 in 5+; ignorable. Optional topic config error returned if configs are not returned in the response.
    num_partitions: int = -1
    # versions 5+; ignorable. Number of partitions of the topic.
    replication_factor: int = -1
    # versions 5+; ignorable. Replication factor of the topic.
    configs: list[CreatableTopicConfigs] | None = field(default_factory=list)
    # versions 5+; nullable 5+; ignorable. Configuration of the topic.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreateTopicsResponse(ApiMessage):
    """CreateTopicsResponse response"""

    API_KEY: ClassVar[int] = 19
    NAME: ClassVar[str] = "CreateTopicsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 5

    throttle_time_ms: int = 0
    # versions 2+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    topics: list[CreatableTopicResult] = field(default_factory=list)
    # versions 0+. Results for each topic we tried to create.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateTopicsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreateTopicsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateTopicsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreateTopicsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreateTopicsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_creatable_topic_result_v0(buf: memoryview, pos: int) -> tuple[CreatableTopicResult, int]:
    f_name: str
    f_name, pos = read_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    return CreatableTopicResult(f_name, ZERO_UUID, f_error_code, '', 0, -1, -1, [], []), pos


def _decode_create_topics_response_v0(buf: memoryview, pos: int) -> tuple[CreateTopicsResponse, int]:
    f_topics: list[CreatableTopicResult]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_result_v0(buf, pos)
            f_topics.append(e_topics)
    return CreateTopicsResponse(0, f_topics, []), pos


def _decode_creatable_topic_result_v1(buf: memoryview, pos: int) -> tuple[CreatableTopicResult, int]:
    f_name: str
    f_error_message: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    return CreatableTopicResult(f_name, ZERO_UUID, f_error_code, f_error_message, 0, -1, -1, [], []), pos


def _decode_create_topics_response_v1(buf: memoryview, pos: int) -> tuple[CreateTopicsResponse, int]:
    f_topics: list[CreatableTopicResult]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_result_v1(buf, pos)
            f_topics.append(e_topics)
    return CreateTopicsResponse(0, f_topics, []), pos


def _decode_create_topics_response_v2(buf: memoryview, pos: int) -> tuple[CreateTopicsResponse, int]:
    f_topics: list[CreatableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_result_v1(buf, pos)
            f_topics.append(e_topics)
    return CreateTopicsResponse(f_throttle_time_ms, f_topics, []), pos


def _decode_creatable_topic_configs_v5(buf: memoryview, pos: int) -> tuple[CreatableTopicConfigs, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S3.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatableTopicConfigs(f_name, f_value, f_read_only, f_config_source, f_is_sensitive, _unknown), pos


def _decode_creatable_topic_result_v5(buf: memoryview, pos: int) -> tuple[CreatableTopicResult, int]:
    f_name: str
    f_error_message: str | None
    f_configs: list[CreatableTopicConfigs] | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_num_partitions, f_replication_factor = _S2.unpack_from(buf, pos)
    pos += 6
    n_configs, pos = read_compact_array_length(buf, pos)
    if n_configs < 0:
        f_configs = None
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_creatable_topic_configs_v5(buf, pos)
            f_configs.append(e_configs)
    f_topic_config_error_code: int = 0
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_topic_config_error_code, = _S0.unpack_from(buf, pos)
                pos += 2
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return CreatableTopicResult(f_name, ZERO_UUID, f_error_code, f_error_message, f_topic_config_error_code, f_num_partitions, f_replication_factor, f_configs, _unknown), pos


def _decode_create_topics_response_v5(buf: memoryview, pos: int) -> tuple[CreateTopicsResponse, int]:
    f_topics: list[CreatableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_result_v5(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateTopicsResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _decode_creatable_topic_result_v7(buf: memoryview, pos: int) -> tuple[CreatableTopicResult, int]:
    f_name: str
    f_topic_id: UUID
    f_error_message: str | None
    f_configs: list[CreatableTopicConfigs] | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_num_partitions, f_replication_factor = _S2.unpack_from(buf, pos)
    pos += 6
    n_configs, pos = read_compact_array_length(buf, pos)
    if n_configs < 0:
        f_configs = None
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_creatable_topic_configs_v5(buf, pos)
            f_configs.append(e_configs)
    f_topic_config_error_code: int = 0
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_topic_config_error_code, = _S0.unpack_from(buf, pos)
                pos += 2
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return CreatableTopicResult(f_name, f_topic_id, f_error_code, f_error_message, f_topic_config_error_code, f_num_partitions, f_replication_factor, f_configs, _unknown), pos


def _decode_create_topics_response_v7(buf: memoryview, pos: int) -> tuple[CreateTopicsResponse, int]:
    f_topics: list[CreatableTopicResult]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_result_v7(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateTopicsResponse(f_throttle_time_ms, f_topics, _unknown), pos


def _encode_creatable_topic_result_v0(m: CreatableTopicResult, out: bytearray) -> None:
    write_string(out, m.name)
    out += _S0.pack(m.error_code)


def _encode_create_topics_response_v0(m: CreateTopicsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_creatable_topic_result_v0(e_topics, out)


def _encode_creatable_topic_result_v1(m: CreatableTopicResult, out: bytearray) -> None:
    write_string(out, m.name)
    out += _S0.pack(m.error_code)
    write_nullable_string(out, m.error_message)


def _encode_create_topics_response_v1(m: CreateTopicsResponse, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_creatable_topic_result_v1(e_topics, out)


def _encode_create_topics_response_v2(m: CreateTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_creatable_topic_result_v1(e_topics, out)


def _encode_creatable_topic_configs_v5(m: CreatableTopicConfigs, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_nullable_string(out, m.value)
    out += _S3.pack(m.read_only, m.config_source, m.is_sensitive)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_creatable_topic_result_v5(m: CreatableTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.num_partitions, m.replication_factor)
    if m.configs is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.configs) + 1)
        for e_configs in m.configs:
            _encode_creatable_topic_configs_v5(e_configs, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.topic_config_error_code != 0:
        _t = bytearray()
        _t += _S0.pack(m.topic_config_error_code)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_create_topics_response_v5(m: CreateTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_creatable_topic_result_v5(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_creatable_topic_result_v7(m: CreatableTopicResult, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += m.topic_id.bytes
    out += _S0.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.num_partitions, m.replication_factor)
    if m.configs is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.configs) + 1)
        for e_configs in m.configs:
            _encode_creatable_topic_configs_v5(e_configs, out)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.topic_config_error_code != 0:
        _t = bytearray()
        _t += _S0.pack(m.topic_config_error_code)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_create_topics_response_v7(m: CreateTopicsResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_creatable_topic_result_v7(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreateTopicsResponse, int]]] = {
    0: _decode_create_topics_response_v0,
    1: _decode_create_topics_response_v1,
    2: _decode_create_topics_response_v2,
    3: _decode_create_topics_response_v2,
    4: _decode_create_topics_response_v2,
    5: _decode_create_topics_response_v5,
    6: _decode_create_topics_response_v5,
    7: _decode_create_topics_response_v7,
}
_ENCODERS: dict[int, Callable[[CreateTopicsResponse, bytearray], None]] = {
    0: _encode_create_topics_response_v0,
    1: _encode_create_topics_response_v1,
    2: _encode_create_topics_response_v2,
    3: _encode_create_topics_response_v2,
    4: _encode_create_topics_response_v2,
    5: _encode_create_topics_response_v5,
    6: _encode_create_topics_response_v5,
    7: _encode_create_topics_response_v7,
}
