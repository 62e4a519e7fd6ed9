"""CreateTopicsRequest: generated from Kafka 3.9.2 and 4.4.0's CreateTopicsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
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

__all__ = ["CreateTopicsRequest", "CreatableTopic", "CreatableReplicaAssignment", "CreatableTopicConfig"]

_S0 = Struct(">ih")
_S1 = Struct(">i")
_S2 = Struct(">i?")


@dataclass(slots=True)
class CreatableReplicaAssignment:
    """The manual partition assignment, or the empty array if we are using automatic assignment."""

    partition_index: int = 0
    # versions 0+. The partition index.
    broker_ids: list[int] = field(default_factory=list)
    # versions 0+; entity brokerId. The brokers to place the partition on.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreatableTopicConfig:
    """The custom topic configurations to set."""

    name: str = ''
    # versions 0+. The configuration name.
    value: str | None = ''
    # versions 0+; nullable 0+. The configuration value.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreatableTopic:
    """The topics to create."""

    name: str = ''
    # versions 0+; entity topicName. The topic name.
    num_partitions: int = 0
    # versions 0+. The number of partitions to create in the topic, or -1 if we are either specifying a manual partition assignment or using the default partitions.
    replication_factor: int = 0
    # versions 0+. The number of replicas to create for each partition in the topic, or -1 if we are either specifying a manual partition assignment or using the default replication factor.
    assignments: list[CreatableReplicaAssignment] = field(default_factory=list)
    # versions 0+. The manual partition assignment, or the empty array if we are using automatic assignment.
    configs: list[CreatableTopicConfig] = field(default_factory=list)
    # versions 0+. The custom topic configurations to set.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CreateTopicsRequest(ApiMessage):
    """CreateTopicsRequest request"""

    API_KEY: ClassVar[int] = 19
    NAME: ClassVar[str] = "CreateTopicsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 5

    topics: list[CreatableTopic] = field(default_factory=list)
    # versions 0+. The topics to create.
    timeout_ms: int = 60000
    # versions 0+. How long to wait in milliseconds before timing out the request.
    validate_only: bool = False
    # versions 1+. If true, check that the topics can be created as specified, but don't create anything.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateTopicsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[CreateTopicsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"CreateTopicsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"CreateTopicsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> CreateTopicsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_creatable_replica_assignment_v0(buf: memoryview, pos: int) -> tuple[CreatableReplicaAssignment, int]:
    f_broker_ids: list[int]
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    n_broker_ids, pos = read_array_length(buf, pos)
    if n_broker_ids < 0:
        raise null_field("brokerIds")
    else:
        f_broker_ids = list(unpack_from(f">{n_broker_ids}i", buf, pos))
        pos += 4 * n_broker_ids
    return CreatableReplicaAssignment(f_partition_index, f_broker_ids, []), pos


def _decode_creatable_topic_config_v0(buf: memoryview, pos: int) -> tuple[CreatableTopicConfig, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    return CreatableTopicConfig(f_name, f_value, []), pos


def _decode_creatable_topic_v0(buf: memoryview, pos: int) -> tuple[CreatableTopic, int]:
    f_name: str
    f_assignments: list[CreatableReplicaAssignment]
    f_configs: list[CreatableTopicConfig]
    f_name, pos = read_string(buf, pos, "name")
    f_num_partitions, f_replication_factor = _S0.unpack_from(buf, pos)
    pos += 6
    n_assignments, pos = read_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_creatable_replica_assignment_v0(buf, pos)
            f_assignments.append(e_assignments)
    n_configs, pos = read_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_creatable_topic_config_v0(buf, pos)
            f_configs.append(e_configs)
    return CreatableTopic(f_name, f_num_partitions, f_replication_factor, f_assignments, f_configs, []), pos


def _decode_create_topics_request_v0(buf: memoryview, pos: int) -> tuple[CreateTopicsRequest, int]:
    f_topics: list[CreatableTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return CreateTopicsRequest(f_topics, f_timeout_ms, False, []), pos


def _decode_create_topics_request_v1(buf: memoryview, pos: int) -> tuple[CreateTopicsRequest, int]:
    f_topics: list[CreatableTopic]
    n_topics, pos = read_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_v0(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, f_validate_only = _S2.unpack_from(buf, pos)
    pos += 5
    return CreateTopicsRequest(f_topics, f_timeout_ms, f_validate_only, []), pos


def _decode_creatable_replica_assignment_v5(buf: memoryview, pos: int) -> tuple[CreatableReplicaAssignment, int]:
    f_broker_ids: list[int]
    f_partition_index, = _S1.unpack_from(buf, pos)
    pos += 4
    n_broker_ids, pos = read_compact_array_length(buf, pos)
    if n_broker_ids < 0:
        raise null_field("brokerIds")
    else:
        f_broker_ids = list(unpack_from(f">{n_broker_ids}i", buf, pos))
        pos += 4 * n_broker_ids
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatableReplicaAssignment(f_partition_index, f_broker_ids, _unknown), pos


def _decode_creatable_topic_config_v5(buf: memoryview, pos: int) -> tuple[CreatableTopicConfig, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_value, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatableTopicConfig(f_name, f_value, _unknown), pos


def _decode_creatable_topic_v5(buf: memoryview, pos: int) -> tuple[CreatableTopic, int]:
    f_name: str
    f_assignments: list[CreatableReplicaAssignment]
    f_configs: list[CreatableTopicConfig]
    f_name, pos = read_compact_string(buf, pos, "name")
    f_num_partitions, f_replication_factor = _S0.unpack_from(buf, pos)
    pos += 6
    n_assignments, pos = read_compact_array_length(buf, pos)
    if n_assignments < 0:
        raise null_field("assignments")
    else:
        f_assignments = []
        for _ in range(n_assignments):
            e_assignments, pos = _decode_creatable_replica_assignment_v5(buf, pos)
            f_assignments.append(e_assignments)
    n_configs, pos = read_compact_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_creatable_topic_config_v5(buf, pos)
            f_configs.append(e_configs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreatableTopic(f_name, f_num_partitions, f_replication_factor, f_assignments, f_configs, _unknown), pos


def _decode_create_topics_request_v5(buf: memoryview, pos: int) -> tuple[CreateTopicsRequest, int]:
    f_topics: list[CreatableTopic]
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_creatable_topic_v5(buf, pos)
            f_topics.append(e_topics)
    f_timeout_ms, f_validate_only = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CreateTopicsRequest(f_topics, f_timeout_ms, f_validate_only, _unknown), pos


def _encode_creatable_replica_assignment_v0(m: CreatableReplicaAssignment, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    out += pack_int32(len(m.broker_ids))
    out += pack(f">{len(m.broker_ids)}i", *m.broker_ids)


def _encode_creatable_topic_config_v0(m: CreatableTopicConfig, out: bytearray) -> None:
    write_string(out, m.name)
    write_nullable_string(out, m.value)


def _encode_creatable_topic_v0(m: CreatableTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += _S0.pack(m.num_partitions, m.replication_factor)
    out += pack_int32(len(m.assignments))
    for e_assignments in m.assignments:
        _encode_creatable_replica_assignment_v0(e_assignments, out)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_creatable_topic_config_v0(e_configs, out)


def _encode_create_topics_request_v0(m: CreateTopicsRequest, out: bytearray) -> None:
    if m.validate_only:
        raise version_error("CreateTopicsRequest", "validateOnly", 0)
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_creatable_topic_v0(e_topics, out)
    out += _S1.pack(m.timeout_ms)


def _encode_create_topics_request_v1(m: CreateTopicsRequest, out: bytearray) -> None:
    out += pack_int32(len(m.topics))
    for e_topics in m.topics:
        _encode_creatable_topic_v0(e_topics, out)
    out += _S2.pack(m.timeout_ms, m.validate_only)


def _encode_creatable_replica_assignment_v5(m: CreatableReplicaAssignment, out: bytearray) -> None:
    out += _S1.pack(m.partition_index)
    write_uvarint(out, len(m.broker_ids) + 1)
    out += pack(f">{len(m.broker_ids)}i", *m.broker_ids)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_creatable_topic_config_v5(m: CreatableTopicConfig, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_nullable_string(out, m.value)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_creatable_topic_v5(m: CreatableTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S0.pack(m.num_partitions, m.replication_factor)
    write_uvarint(out, len(m.assignments) + 1)
    for e_assignments in m.assignments:
        _encode_creatable_replica_assignment_v5(e_assignments, out)
    write_uvarint(out, len(m.configs) + 1)
    for e_configs in m.configs:
        _encode_creatable_topic_config_v5(e_configs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_create_topics_request_v5(m: CreateTopicsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_creatable_topic_v5(e_topics, out)
    out += _S2.pack(m.timeout_ms, m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[CreateTopicsRequest, int]]] = {
    0: _decode_create_topics_request_v0,
    1: _decode_create_topics_request_v1,
    2: _decode_create_topics_request_v1,
    3: _decode_create_topics_request_v1,
    4: _decode_create_topics_request_v1,
    5: _decode_create_topics_request_v5,
    6: _decode_create_topics_request_v5,
    7: _decode_create_topics_request_v5,
}
_ENCODERS: dict[int, Callable[[CreateTopicsRequest, bytearray], None]] = {
    0: _encode_create_topics_request_v0,
    1: _encode_create_topics_request_v1,
    2: _encode_create_topics_request_v1,
    3: _encode_create_topics_request_v1,
    4: _encode_create_topics_request_v1,
    5: _encode_create_topics_request_v5,
    6: _encode_create_topics_request_v5,
    7: _encode_create_topics_request_v5,
}
