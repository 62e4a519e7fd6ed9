"""A share group's records in __consumer_offsets, in Kafka 4.4's layouts (the
group-coordinator module's ShareGroup*Key/Value): each member's metadata (key version 10),
the group epoch (11), the target assignment's epoch (12) and per-member partitions (13), and
each member's current assignment (14), and the ShareGroupStatePartitionMetadata (15) that
tracks which topics' share state the share coordinator is initializing, has initialized or is
deleting. The retired ShareGroupPartitionMetadata (9) is read and ignored.

Keys are non-flexible (int16 key version, group id, and the member id for the per-member
records); values are a version-0 flexible body; a null value is a tombstone. The coordinator
keeps the records it last wrote for a group and writes only what changed.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace

from josefk.coordinator.consumer_assignors import Assignment
from josefk.coordinator.record_io import RecordReader, RecordWriter
from josefk.coordinator.share_group import InitTopic, ShareGroup, ShareGroupMember

MEMBER_METADATA, GROUP_METADATA, TARGET_METADATA, TARGET_MEMBER, CURRENT_ASSIGNMENT = 10, 11, 12, 13, 14
STATE_PARTITION_METADATA = 15
IGNORED = (9,)
KEY_VERSIONS = (9, 10, 11, 12, 13, 14, 15)
_PER_MEMBER = (MEMBER_METADATA, TARGET_MEMBER, CURRENT_ASSIGNMENT)


@dataclass(frozen=True)
class ShareGroupKey:
    type: int
    group: str
    member_id: str | None = None


def encode_key(key: ShareGroupKey) -> bytes:
    w = RecordWriter().int16(key.type).string(key.group)
    if key.type in _PER_MEMBER:
        w.string(key.member_id or "")
    return bytes(w.buf)


def decode_key(version: int, r: RecordReader) -> ShareGroupKey:
    """The rest of a key whose int16 version `r` has just read."""
    group = r.string() or ""
    return ShareGroupKey(version, group, r.string() or "" if version in _PER_MEMBER else None)


def _value() -> RecordWriter:
    return RecordWriter().int16(0)


def _write_assignment(w: RecordWriter, assignment: Mapping[uuid.UUID, frozenset[int]]) -> None:
    w.compact_array_length(len(assignment))
    for topic_id, partitions in sorted(assignment.items(), key=lambda kv: str(kv[0])):
        w.uuid(topic_id).compact_array_length(len(partitions))
        for p in sorted(partitions):
            w.int32(p)
        w.no_tagged_fields()


def _read_assignment(r: RecordReader) -> Assignment:
    out: Assignment = {}
    for _ in range(r.compact_array_length()):
        topic_id = r.uuid()
        out[topic_id] = frozenset(r.int32() for _ in range(r.compact_array_length()))
        r.skip_tagged_fields()
    return out


def _write_init_topics(w: RecordWriter, topics: Mapping[uuid.UUID, InitTopic]) -> None:
    w.compact_array_length(len(topics))
    for topic_id, topic in sorted(topics.items(), key=lambda kv: str(kv[0])):
        w.uuid(topic_id).compact_string(topic.name).compact_array_length(len(topic.partitions))
        for p in sorted(topic.partitions):
            w.int32(p)
        w.no_tagged_fields()


def _read_init_topics(r: RecordReader, now_ms: int) -> dict[uuid.UUID, InitTopic]:
    out: dict[uuid.UUID, InitTopic] = {}
    for _ in range(r.compact_array_length()):
        topic_id, name = r.uuid(), r.compact_string() or ""
        out[topic_id] = InitTopic(name, frozenset(r.int32() for _ in range(r.compact_array_length())), now_ms)
        r.skip_tagged_fields()
    return out


def state_partition_metadata(group: ShareGroup) -> bytes:
    """The ShareGroupStatePartitionMetadataValue v0 of the group's share-state bookkeeping."""
    w = _value()
    _write_init_topics(w, group.initializing)
    _write_init_topics(w, group.initialized)
    w.compact_array_length(len(group.deleting))
    for topic_id, name in sorted(group.deleting.items(), key=lambda kv: str(kv[0])):
        w.uuid(topic_id).compact_string(name).no_tagged_fields()
    return bytes(w.no_tagged_fields().buf)


def group_records(group: ShareGroup) -> dict[bytes, bytes]:
    """Every record the group's present state is written as, key -> value."""
    out = {
        encode_key(ShareGroupKey(GROUP_METADATA, group.group_id)):
            bytes(_value().int32(group.group_epoch).int64(0).no_tagged_fields().buf),
        encode_key(ShareGroupKey(TARGET_METADATA, group.group_id)):
            bytes(_value().int32(group.assignment_epoch).no_tagged_fields().buf),
    }
    for m in group.members.values():
        w = _value().compact_string(m.rack_id).compact_string(m.client_id).compact_string(m.client_host)
        w.compact_array_length(len(m.subscribed_topic_names))
        for name in m.subscribed_topic_names:
            w.compact_string(name)
        out[encode_key(ShareGroupKey(MEMBER_METADATA, group.group_id, m.member_id))] = bytes(w.no_tagged_fields().buf)
        target = _value()
        _write_assignment(target, group.target.get(m.member_id, {}))
        out[encode_key(ShareGroupKey(TARGET_MEMBER, group.group_id, m.member_id))] = bytes(
            target.no_tagged_fields().buf)
        current = _value().int32(m.member_epoch).int32(m.previous_member_epoch).int8(0)
        _write_assignment(current, m.assigned)
        out[encode_key(ShareGroupKey(CURRENT_ASSIGNMENT, group.group_id, m.member_id))] = bytes(
            current.no_tagged_fields().buf)
    if group.initializing or group.initialized or group.deleting:
        out[encode_key(ShareGroupKey(STATE_PARTITION_METADATA, group.group_id))] = state_partition_metadata(group)
    return out


def changes(stored: dict[bytes, bytes], now: dict[bytes, bytes]) -> list[tuple[bytes, bytes | None]]:
    """What to write to move the log from `stored` to `now` (tombstones for what is gone);
    `stored` becomes `now`."""
    out: list[tuple[bytes, bytes | None]] = [(k, v) for k, v in now.items() if stored.get(k) != v]
    out += [(k, None) for k in stored if k not in now]
    stored.clear()
    stored.update(now)
    return out


def rebuild(group_id: str, records: Mapping[bytes, bytes], now_ms: int = -1) -> ShareGroup:
    """The group its latest records describe (`records`: key -> value, tombstones applied);
    topics being initialized count as asked at `now_ms`."""
    group = ShareGroup(group_id)
    members: dict[str, ShareGroupMember] = {}
    described: set[str] = set()  # members with a metadata record (a lone assignment is a leftover)
    for key_bytes, value in records.items():
        r = RecordReader(key_bytes)
        key = decode_key(r.int16(), r)
        member_id = key.member_id or ""
        v = RecordReader(value)
        v.int16()
        if key.type == GROUP_METADATA:
            group.group_epoch = v.int32()
        elif key.type == TARGET_METADATA:
            group.assignment_epoch = v.int32()
        elif key.type == MEMBER_METADATA:
            rack_id, client_id, client_host = v.compact_string(), v.compact_string() or "", v.compact_string() or ""
            topics = tuple(v.compact_string() or "" for _ in range(v.compact_array_length()))
            members[member_id] = replace(members.get(member_id, ShareGroupMember(member_id)), rack_id=rack_id,
                                         client_id=client_id, client_host=client_host,
                                         subscribed_topic_names=topics)
            described.add(member_id)
        elif key.type == TARGET_MEMBER:
            group.target[member_id] = _read_assignment(v)
        elif key.type == CURRENT_ASSIGNMENT:
            epoch, previous = v.int32(), v.int32()
            v.int8()  # state: a share member is always stable
            members[member_id] = replace(members.get(member_id, ShareGroupMember(member_id)), member_epoch=epoch,
                                         previous_member_epoch=previous, assigned=_read_assignment(v))
        elif key.type == STATE_PARTITION_METADATA:
            group.initializing = _read_init_topics(v, now_ms)
            group.initialized = _read_init_topics(v, now_ms)
            for _ in range(v.compact_array_length()):
                topic_id = v.uuid()
                group.deleting[topic_id] = v.compact_string() or ""
                v.skip_tagged_fields()
    group.members = {m: member for m, member in members.items() if m in described}
    group.target = {m: a for m, a in group.target.items() if m in group.members}
    group.update_state()
    return group
