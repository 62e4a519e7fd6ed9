"""ConsumerGroupDescribeResponse: generated from Kafka 3.9.2 and 4.4.0's ConsumerGroupDescribeResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
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
_S3 = Struct(">b")


@dataclass(slots=True)
class TopicPartitions:
    """A TopicPartitions in ConsumerGroupDescribeResponse."""

    topic_id: UUID = ZERO_UUID
    # versions 0+. The topic ID.
    topic_name: str = ''
    # versions 0+; entity topicName. The topic name.
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
    # versions 0+; entity topicName. The subscribed topic names.
    subscribed_topic_regex: str | None = None
    # versions 0+; nullable 0+. the subscribed topic regex otherwise or null of not provided.
    assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The current assignment.
    target_assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The target assignment.
    member_type: int = -1
    # versions 1+; ignorable. -1 for unknown. 0 for classic member. +1 for consumer member.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribedGroup:
    """Each described group."""

    error_code: int = 0
    # versions 0+. The describe error, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    group_id: str = ''
    # versions 0+; entity groupId. The group ID string.
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
    MAX_VERSION: ClassVar[int] = 1
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
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ConsumerGroupDescribeResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ConsumerGroupDescribeResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_partitions_v0(buf: memoryview, pos: int) -> tuple[TopicPartitions, int]:
    f_topic_id: UUID
    f_topic_name: str
    f_partitions: list[int]
    f_topic_id, pos = read_uuid(buf, pos)
    f_topic_name, pos = read_compact_string(buf, pos, "topicName")
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
    return TopicPartitions(f_topic_id, f_topic_name, f_partitions, _unknown), pos


def _decode_assignment_v0(buf: memoryview, pos: int) -> tuple[Assignment, int]:
    f_topic_partitions: list[TopicPartitions]
    n_topic_partitions, pos = read_compact_array_length(buf, pos)
    if n_topic_partitions < 0:
        raise null_field("topicPartitions")
    else:
        f_topic_partitions = []
        for _ in range(n_topic_partitions):
            e_topic_partitions, pos = _decode_topic_partitions_v0(buf, pos)
            f_topic_partitions.append(e_topic_partitions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Assignment(f_topic_partitions, _unknown), pos


def _decode_member_v0(buf: memoryview, pos: int) -> tuple[Member, int]:
    f_member_id: str
    f_instance_id: str | None
    f_rack_id: str | None
    f_client_id: str
    f_client_host: str
    f_subscribed_topic_names: list[str]
    f_subscribed_topic_regex: str | None
    f_assignment: Assignment
    f_target_assignment: Assignment
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    f_client_id, pos = read_compact_string(buf, pos, "clientId")
    f_client_host, pos = read_compact_string(buf, pos, "clientHost")
    n_subscribed_topic_names, pos = read_compact_array_length(buf, pos)
    if n_subscribed_topic_names < 0:
        raise null_field("subscribedTopicNames")
    else:
        f_subscribed_topic_names = []
        for _ in range(n_subscribed_topic_names):
            e_subscribed_topic_names, pos = read_compact_string(buf, pos, "subscribedTopicNames element")
            f_subscribed_topic_names.append(e_subscribed_topic_names)
    f_subscribed_topic_regex, pos = read_compact_nullable_string(buf, pos)
    f_assignment, pos = _decode_assignment_v0(buf, pos)
    f_target_assignment, pos = _decode_assignment_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Member(f_member_id, f_instance_id, f_rack_id, f_member_epoch, f_client_id, f_client_host, f_subscribed_topic_names, f_subscribed_topic_regex, f_assignment, f_target_assignment, -1, _unknown), pos


def _decode_described_group_v0(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_error_message: str | None
    f_group_id: str
    f_group_state: str
    f_assignor_name: str
    f_members: list[Member]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_group_epoch, f_assignment_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    f_assignor_name, pos = read_compact_string(buf, pos, "assignorName")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_v0(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_assignor_name, f_members, f_authorized_operations, _unknown), pos


def _decode_consumer_group_describe_response_v0(buf: memoryview, pos: int) -> tuple[ConsumerGroupDescribeResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v0(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ConsumerGroupDescribeResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _decode_member_v1(buf: memoryview, pos: int) -> tuple[Member, int]:
    f_member_id: str
    f_instance_id: str | None
    f_rack_id: str | None
    f_client_id: str
    f_client_host: str
    f_subscribed_topic_names: list[str]
    f_subscribed_topic_regex: str | None
    f_assignment: Assignment
    f_target_assignment: Assignment
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    f_client_id, pos = read_compact_string(buf, pos, "clientId")
    f_client_host, pos = read_compact_string(buf, pos, "clientHost")
    n_subscribed_topic_names, pos = read_compact_array_length(buf, pos)
    if n_subscribed_topic_names < 0:
        raise null_field("subscribedTopicNames")
    else:
        f_subscribed_topic_names = []
        for _ in range(n_subscribed_topic_names):
            e_subscribed_topic_names, pos = read_compact_string(buf, pos, "subscribedTopicNames element")
            f_subscribed_topic_names.append(e_subscribed_topic_names)
    f_subscribed_topic_regex, pos = read_compact_nullable_string(buf, pos)
    f_assignment, pos = _decode_assignment_v0(buf, pos)
    f_target_assignment, pos = _decode_assignment_v0(buf, pos)
    f_member_type, = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Member(f_member_id, f_instance_id, f_rack_id, f_member_epoch, f_client_id, f_client_host, f_subscribed_topic_names, f_subscribed_topic_regex, f_assignment, f_target_assignment, f_member_type, _unknown), pos


def _decode_described_group_v1(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_error_message: str | None
    f_group_id: str
    f_group_state: str
    f_assignor_name: str
    f_members: list[Member]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_group_epoch, f_assignment_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    f_assignor_name, pos = read_compact_string(buf, pos, "assignorName")
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_v1(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_assignor_name, f_members, f_authorized_operations, _unknown), pos


def _decode_consumer_group_describe_response_v1(buf: memoryview, pos: int) -> tuple[ConsumerGroupDescribeResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v1(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ConsumerGroupDescribeResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _encode_topic_partitions_v0(m: TopicPartitions, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_compact_string(out, m.topic_name)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_assignment_v0(m: Assignment, out: bytearray) -> None:
    write_uvarint(out, len(m.topic_partitions) + 1)
    for e_topic_partitions in m.topic_partitions:
        _encode_topic_partitions_v0(e_topic_partitions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
    for e_subscribed_topic_names in m.subscribed_topic_names:
        write_compact_string(out, e_subscribed_topic_names)
    write_compact_nullable_string(out, m.subscribed_topic_regex)
    _encode_assignment_v0(m.assignment, out)
    _encode_assignment_v0(m.target_assignment, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
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
    for e_members in m.members:
        _encode_member_v0(e_members, out)
    out += _S0.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_consumer_group_describe_response_v0(m: ConsumerGroupDescribeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v0(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_member_v1(m: Member, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.instance_id)
    write_compact_nullable_string(out, m.rack_id)
    out += _S0.pack(m.member_epoch)
    write_compact_string(out, m.client_id)
    write_compact_string(out, m.client_host)
    write_uvarint(out, len(m.subscribed_topic_names) + 1)
    for e_subscribed_topic_names in m.subscribed_topic_names:
        write_compact_string(out, e_subscribed_topic_names)
    write_compact_nullable_string(out, m.subscribed_topic_regex)
    _encode_assignment_v0(m.assignment, out)
    _encode_assignment_v0(m.target_assignment, out)
    out += _S3.pack(m.member_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_described_group_v1(m: DescribedGroup, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    out += _S2.pack(m.group_epoch, m.assignment_epoch)
    write_compact_string(out, m.assignor_name)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_v1(e_members, out)
    out += _S0.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_consumer_group_describe_response_v1(m: ConsumerGroupDescribeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v1(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ConsumerGroupDescribeResponse, int]]] = {
    0: _decode_consumer_group_describe_response_v0,
    1: _decode_consumer_group_describe_response_v1,
}
_ENCODERS: dict[int, Callable[[ConsumerGroupDescribeResponse, bytearray], None]] = {
    0: _encode_consumer_group_describe_response_v0,
    1: _encode_consumer_group_describe_response_v1,
}
