"""ConsumerGroupDescribeResponse: generated from Kafka 3.9.2's ConsumerGroupDescribeResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ConsumerGroupDescribeResponse", "DescribedGroup", "Member", "Assignment", "TopicPartitions"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">ii")


@dataclass(slots=True)
class TopicPartitions:
    """A TopicPartitions in ConsumerGroupDescribeResponse."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The topic ID.
    topic_name: str = ''
    # versions 0+. The topic name.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Assignment:
    """A Assignment in ConsumerGroupDescribeResponse."""

    topic_partitions: list[TopicPartitions] = field(default_factory=list)
    # versions 0+. The assigned topic-partitions to the member.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Member:
    """The members."""

    member_id: str = ''
    # versions 0+. The member ID.
    instance_id: str | None = None
    # versions 0+; nullable 0+. The member instance ID.
    rack_id: str | None = None
    # versions 0+; nullable 0+. The member rack ID.
    member_epoch: int = 0
    # versions 0+. The current member epoch.
    client_id: str = ''
    # versions 0+. The client ID.
    client_host: str = ''
    # versions 0+. The client host.
    subscribed_topic_names: list[str] = field(default_factory=list)
    # versions 0+. The subscribed topic names.
    subscribed_topic_regex: str | None = None
    # versions 0+; nullable 0+. the subscribed topic regex otherwise or null of not provided.
    assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The current assignment.
    target_assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The target assignment.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribedGroup:
    """Each described group."""

    error_code: int = 0
    # versions 0+. The describe error, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    group_id: str = ''
    # versions 0+. The group ID string.
    group_state: str = ''
    # versions 0+. The group state string, or the empty string.
    group_epoch: int = 0
    # versions 0+. The group epoch.
    assignment_epoch: int = 0
    # versions 0+. The assignment epoch.
    assignor_name: str = ''
    # versions 0+. The selected assignor.
    members: list[Member] = field(default_factory=list)
    # versions 0+. The members.
    authorized_operations: int = -2147483648
    # versions 0+. 32-bit bitfield to represent authorized operations for this group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ConsumerGroupDescribeResponse(ApiMessage):
    """ConsumerGroupDescribeResponse response"""

    API_KEY: ClassVar[int] = 69
    NAME: ClassVar[str] = "ConsumerGroupDescribeResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    groups: list[DescribedGroup] = field(default_factory=list)
    # versions 0+. Each described group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ConsumerGroupDescribeResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ConsumerGroupDescribeResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ConsumerGroupDescribeResponse has no version {version}") from None
        return decoder(buf, pos)

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ConsumerGroupDescribeResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_partitions_v0(buf: memoryview, pos: int) -> tuple[TopicPartitions, int]:
    _topic_id: UUID
    _topic_name: str
    _partitions: list[int]
    _topic_id, pos = read_uuid(buf, pos)
    _topic_name, pos = read_compact_string(buf, pos)
    _n_partitions, pos = read_compact_array_length(buf, pos)
    if _n_partitions < 0:
        raise MessageDecodeError("non-nullable field Partitions was null")
    else:
        _partitions = list(unpack_from(f">{_n_partitions}i", buf, pos))
        pos += 4 * _n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicPartitions(_topic_id, _topic_name, _partitions, _unknown), pos


def _decode_assignment_v0(buf: memoryview, pos: int) -> tuple[Assignment, int]:
    _topic_partitions: list[TopicPartitions]
    _n_topic_partitions, pos = read_compact_array_length(buf, pos)
    if _n_topic_partitions < 0:
        raise MessageDecodeError("non-nullable field TopicPartitions was null")
    else:
        _topic_partitions = []
        for _ in range(_n_topic_partitions):
            _e_topic_partitions, pos = _decode_topic_partitions_v0(buf, pos)
            _topic_partitions.append(_e_topic_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Assignment(_topic_partitions, _unknown), pos


def _decode_member_v0(buf: memoryview, pos: int) -> tuple[Member, int]:
    _member_id: str
    _instance_id: str | None
    _rack_id: str | None
    _client_id: str
    _client_host: str
    _subscribed_topic_names: list[str]
    _subscribed_topic_regex: str | None
    _assignment: Assignment
    _target_assignment: Assignment
    _member_id, pos = read_compact_string(buf, pos)
    _instance_id, pos = read_compact_nullable_string(buf, pos)
    _rack_id, pos = read_compact_nullable_string(buf, pos)
    _member_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    _client_id, pos = read_compact_string(buf, pos)
    _client_host, pos = read_compact_string(buf, pos)
    _n_subscribed_topic_names, pos = read_compact_array_length(buf, pos)
    if _n_subscribed_topic_names < 0:
        raise MessageDecodeError("non-nullable field SubscribedTopicNames was null")
    else:
        _subscribed_topic_names = []
        for _ in range(_n_subscribed_topic_names):
            _e_subscribed_topic_names, pos = read_compact_string(buf, pos)
            _subscribed_topic_names.append(_e_subscribed_topic_names)
    _subscribed_topic_regex, pos = read_compact_nullable_string(buf, pos)
    _assignment, pos = _decode_assignment_v0(buf, pos)
    _target_assignment, pos = _decode_assignment_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Member(_member_id, _instance_id, _rack_id, _member_epoch, _client_id, _client_host, _subscribed_topic_names, _subscribed_topic_regex, _assignment, _target_assignment, _unknown), pos


def _decode_described_group_v0(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    _error_message: str | None
    _group_id: str
    _group_state: str
    _assignor_name: str
    _members: list[Member]
    _error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    _error_message, pos = read_compact_nullable_string(buf, pos)
    _group_id, pos = read_compact_string(buf, pos)
    _group_state, pos = read_compact_string(buf, pos)
    _group_epoch, _assignment_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    _assignor_name, pos = read_compact_string(buf, pos)
    _n_members, pos = read_compact_array_length(buf, pos)
    if _n_members < 0:
        raise MessageDecodeError("non-nullable field Members was null")
    else:
        _members = []
        for _ in range(_n_members):
            _e_members, pos = _decode_member_v0(buf, pos)
            _members.append(_e_members)
    _authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(_error_code, _error_message, _group_id, _group_state, _group_epoch, _assignment_epoch, _assignor_name, _members, _authorized_operations, _unknown), pos


def _decode_consumer_group_describe_response_v0(buf: memoryview, pos: int) -> tuple[ConsumerGroupDescribeResponse, int]:
    _groups: list[DescribedGroup]
    _throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    _n_groups, pos = read_compact_array_length(buf, pos)
    if _n_groups < 0:
        raise MessageDecodeError("non-nullable field Groups was null")
    else:
        _groups = []
        for _ in range(_n_groups):
            _e_groups, pos = _decode_described_group_v0(buf, pos)
            _groups.append(_e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ConsumerGroupDescribeResponse(_throttle_time_ms, _groups, _unknown), pos


def _encode_topic_partitions_v0(m: TopicPartitions, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_assignment_v0(m: Assignment, out: bytearray) -> None:
    write_uvarint(out, len(m.topic_partitions) + 1)
    for _e_topic_partitions in m.topic_partitions:
        _encode_topic_partitions_v0(_e_topic_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_member_v0(m: Member, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.instance_id)
    write_compact_nullable_string(out, m.rack_id)
    out += _S0.pack(m.member_epoch)
    write_compact_string(out, m.client_id)
    write_compact_string(out, m.client_host)
    write_uvarint(out, len(m.subscribed_topic_names) + 1)
    for _e_subscribed_topic_names in m.subscribed_topic_names:
        write_compact_string(out, _e_subscribed_topic_names)
    write_compact_nullable_string(out, m.subscribed_topic_regex)
    _encode_assignment_v0(m.assignment, out)
    _encode_assignment_v0(m.target_assignment, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_described_group_v0(m: DescribedGroup, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    out += _S2.pack(m.group_epoch, m.assignment_epoch)
    write_compact_string(out, m.assignor_name)
    write_uvarint(out, len(m.members) + 1)
    for _e_members in m.members:
        _encode_member_v0(_e_members, out)
    out += _S0.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


def _encode_consumer_group_describe_response_v0(m: ConsumerGroupDescribeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for _e_groups in m.groups:
        _encode_described_group_v0(_e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, list(m.unknown_tagged_fields))
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ConsumerGroupDescribeResponse, int]]] = {
    0: _decode_consumer_group_describe_response_v0,
}
_ENCODERS: dict[int, Callable[[ConsumerGroupDescribeResponse, bytearray], None]] = {
    0: _encode_consumer_group_describe_response_v0,
}
