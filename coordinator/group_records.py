"""Key and value layouts of the records in __consumer_offsets, as Kafka writes them.

Kafka's own tools (kafka-console-consumer with the offsets formatter, kafka-dump-log
--offsets-decoder) read these bytes, so the layouts follow Kafka's OffsetCommitKey /
OffsetCommitValue / GroupMetadataKey / GroupMetadataValue schemas exactly. A null value
is a tombstone: the offset or group was deleted.
"""

from __future__ import annotations

from dataclasses import dataclass

from josefk.coordinator import share_group_records, streams_group_records
from josefk.coordinator.consumer_group_records import ConsumerGroupKey, RecordType, decode_key
from josefk.coordinator.group_metadata import (
    GroupMetadata,
    GroupState,
    MemberMetadata,
    OffsetAndMetadata,
)
from josefk.coordinator.record_io import RecordFormatError, RecordReader, RecordWriter
from josefk.utils.time import Time

OFFSET_KEY_VERSION = 1
GROUP_KEY_VERSION = 2
OFFSET_VALUE_VERSION = 3
OFFSET_VALUE_VERSION_WITH_EXPIRY = 1
GROUP_VALUE_VERSION = 3
_CONSUMER_GROUP_KEY_VERSIONS = frozenset(t.value for t in RecordType)


# -- keys -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OffsetKey:
    group: str
    topic: str
    partition: int


@dataclass(frozen=True)
class GroupKey:
    group: str


def offset_key(group: str, topic: str, partition: int) -> bytes:
    return bytes(RecordWriter().int16(OFFSET_KEY_VERSION).string(group).string(topic).int32(partition).buf)


def group_key(group: str) -> bytes:
    return bytes(RecordWriter().int16(GROUP_KEY_VERSION).string(group).buf)


def read_key(data: bytes) -> (OffsetKey | GroupKey | ConsumerGroupKey | share_group_records.ShareGroupKey
                              | streams_group_records.StreamsGroupKey):
    r = RecordReader(data)
    version = r.int16()
    if version in (0, 1):
        return OffsetKey(r.string() or "", r.string() or "", r.int32())
    if version == 2:
        return GroupKey(r.string() or "")
    if version in _CONSUMER_GROUP_KEY_VERSIONS:
        return decode_key(version, r)
    if version in share_group_records.KEY_VERSIONS:
        return share_group_records.decode_key(version, r)
    if version in streams_group_records.KEY_VERSIONS:
        return streams_group_records.decode_key(version, r)
    raise RecordFormatError(f"unknown __consumer_offsets key version {version}")


# -- offset values ----------------------------------------------------------------------


def offset_value(om: OffsetAndMetadata) -> bytes:
    """v3 (with leader epoch), or v1 when the commit carried a retention time (v2-v4 requests)."""
    w = RecordWriter()
    if om.expire_timestamp is not None:
        w.int16(OFFSET_VALUE_VERSION_WITH_EXPIRY).int64(om.offset).string(om.metadata or "")
        return bytes(w.int64(om.commit_timestamp).int64(om.expire_timestamp).buf)
    w.int16(OFFSET_VALUE_VERSION).int64(om.offset).int32(om.leader_epoch).string(om.metadata or "")
    return bytes(w.int64(om.commit_timestamp).buf)


def read_offset_value(data: bytes) -> OffsetAndMetadata:
    r = RecordReader(data)
    version = r.int16()
    if version in (0, 2):
        return OffsetAndMetadata(r.int64(), -1, r.string() or "", r.int64())
    if version == 1:
        offset, metadata, commit = r.int64(), r.string() or "", r.int64()
        return OffsetAndMetadata(offset, -1, metadata, commit, r.int64())
    if version == 3:
        return OffsetAndMetadata(r.int64(), r.int32(), r.string() or "", r.int64())
    if version == 4:  # flexible: compact metadata string, then tagged fields we ignore
        offset, epoch, metadata, commit = r.int64(), r.int32(), r.compact_string() or "", r.int64()
        return OffsetAndMetadata(offset, epoch, metadata, commit)
    raise RecordFormatError(f"unknown offset commit value version {version}")


# -- group values -----------------------------------------------------------------------


def group_value(group: GroupMetadata, assignment: dict[str, bytes]) -> bytes:
    """GroupMetadataValue v3: the group after a rebalance, members with their assignments."""
    w = RecordWriter().int16(GROUP_VALUE_VERSION)
    w.string(group.protocol_type or "").int32(group.generation_id)
    w.string(group.protocol_name).string(group.leader_id)
    w.int64(group.current_state_timestamp if group.current_state_timestamp is not None else -1)
    w.int32(len(group.members))
    for member in group.members.values():
        w.string(member.member_id).string(member.group_instance_id)
        w.string(member.client_id).string(member.client_host)
        w.int32(member.rebalance_timeout_ms).int32(member.session_timeout_ms)
        protocol = group.protocol_name
        w.bytes_(member.metadata_for(protocol) if protocol else b"")
        w.bytes_(assignment.get(member.member_id, b""))
    return bytes(w.buf)


def read_group_value(group_id: str, data: bytes, time: Time) -> GroupMetadata:
    """A group as last stored: Empty without members, else Stable (as Kafka loads it)."""
    r = RecordReader(data)
    version = r.int16()
    if version not in (0, 1, 2, 3):
        raise RecordFormatError(f"unknown group metadata value version {version}")
    protocol_type = r.string() or ""
    generation = r.int32()
    protocol = r.string()
    leader = r.string()
    state_ts = r.int64() if version >= 2 else -1
    members = []
    for _ in range(r.int32()):
        member_id = r.string() or ""
        instance_id = r.string() if version >= 3 else None
        client_id, client_host = r.string() or "", r.string() or ""
        rebalance_timeout = r.int32() if version >= 1 else -1
        session_timeout = r.int32()
        if rebalance_timeout < 0:
            rebalance_timeout = session_timeout
        subscription, assignment = r.bytes_() or b"", r.bytes_() or b""
        members.append(MemberMetadata(member_id, instance_id, client_id, client_host, rebalance_timeout,
                                      session_timeout, protocol_type,
                                      [(protocol or "", subscription)], assignment))
    group = GroupMetadata(group_id, GroupState.STABLE if members else GroupState.EMPTY, time)
    group.protocol_type = protocol_type or None
    group.generation_id = generation
    group.protocol_name = protocol
    group.current_state_timestamp = state_ts if state_ts >= 0 else None
    for member in members:
        group.add(member)
    group.leader_id = leader if leader in group.members else group.leader_id
    group.subscribed_topics = group.compute_subscribed_topics()
    return group
