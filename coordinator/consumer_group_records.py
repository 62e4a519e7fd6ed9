"""Key and value layouts of a KIP-848 consumer group's records in __consumer_offsets, as
Kafka 4.x writes them (the group-coordinator module's ConsumerGroup*Key/Value specs): the
group epoch (key version 3), each member's subscription (5), the target assignment's
epoch (6) and per-member partitions (7), and each member's current assignment (8).

Keys are non-flexible (an int16 key version, then the fields); values are a version-0
flexible body. The codecs are written by hand, as group_records.py's are: josefk's
generated message layer covers request and response APIs, these are five small records.
A null value is a tombstone. Kafka 4.1+ keeps topic metadata in the group record's
MetadataHash instead of ConsumerGroupPartitionMetadata (4), whose records are read and
ignored; josefk writes no hash (its default, 0) and recomputes the metadata on load.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from josefk.coordinator.consumer_assignors import Assignment
from josefk.coordinator.consumer_group import ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember, MemberState
from josefk.coordinator.modern_group import INITIAL_EPOCH
from josefk.coordinator.record_io import (
    RecordFormatError,
    RecordReader,
    RecordWriter,
    flexible_value,
    member_key,
    read_flexible_value,
)

VALUE_VERSION = 0
CLASSIC_MEMBER_METADATA_TAG = 0  # ConsumerGroupMemberMetadataValue's tagged ClassicMemberMetadata


class RecordType(enum.IntEnum):
    """The key version of each record, Kafka's coordinator record apiKey."""

    GROUP_METADATA = 3
    PARTITION_METADATA = 4
    MEMBER_METADATA = 5
    TARGET_ASSIGNMENT_METADATA = 6
    TARGET_ASSIGNMENT_MEMBER = 7
    CURRENT_MEMBER_ASSIGNMENT = 8


GROUP_LEVEL = (RecordType.GROUP_METADATA, RecordType.PARTITION_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA)

# Kafka's MemberState values (modern/MemberState.java).
_STATE_CODES = {MemberState.STABLE: 0, MemberState.UNREVOKED_PARTITIONS: 1, MemberState.UNRELEASED_PARTITIONS: 2}
_STATES = {code: state for state, code in _STATE_CODES.items()}


@dataclass(frozen=True)
class ConsumerGroupKey:
    type: RecordType
    group: str
    member_id: str | None = None  # for the per-member records


def encode_key(key: ConsumerGroupKey) -> bytes:
    return member_key(key.type, key.group, None if key.type in GROUP_LEVEL else key.member_id or "")


def decode_key(version: int, r: RecordReader) -> ConsumerGroupKey:
    """The rest of a key whose int16 version (a RecordType) `r` has just read."""
    kind = RecordType(version)
    group = r.string() or ""
    return ConsumerGroupKey(kind, group, None if kind in GROUP_LEVEL else r.string() or "")


# -- values ------------------------------------------------------------------------------


def _value() -> RecordWriter:
    return flexible_value(VALUE_VERSION)


def _reader(data: bytes) -> RecordReader:
    return read_flexible_value(data, "consumer group", VALUE_VERSION)


def _epoch_value(epoch: int) -> bytes:
    return bytes(_value().int32(epoch).no_tagged_fields().buf)


def _read_epoch(data: bytes) -> int:
    r = _reader(data)
    epoch = r.int32()
    r.skip_tagged_fields()  # MetadataHash, AssignmentTimestamp
    return epoch


def group_metadata_value(epoch: int) -> bytes:
    """ConsumerGroupMetadataValue: the group epoch."""
    return _epoch_value(epoch)


read_group_metadata_value = _read_epoch


def target_assignment_metadata_value(assignment_epoch: int) -> bytes:
    """ConsumerGroupTargetAssignmentMetadataValue: the epoch of the target assignment."""
    return _epoch_value(assignment_epoch)


read_target_assignment_metadata_value = _read_epoch


def member_metadata_value(member: ConsumerGroupMember) -> bytes:
    """ConsumerGroupMemberMetadataValue: who the member is and what it subscribes to."""
    w = _value().compact_string(member.instance_id).compact_string(member.rack_id)
    w.compact_string(member.client_id).compact_string(member.client_host)
    w.compact_array_length(len(member.subscribed_topic_names))
    for name in member.subscribed_topic_names:
        w.compact_string(name)
    w.compact_string(member.subscribed_topic_regex).int32(member.rebalance_timeout_ms)
    w.compact_string(member.server_assignor)
    if member.classic is None:
        return bytes(w.no_tagged_fields().buf)
    classic = _classic_member_metadata(member.classic)
    return bytes(w.uvarint(1).uvarint(CLASSIC_MEMBER_METADATA_TAG).uvarint(len(classic)).buf + classic)


def _classic_member_metadata(classic: ClassicMemberMetadata) -> bytes:
    """The nullable struct as a tagged field carries it: a presence byte (1), then the fields."""
    w = RecordWriter().int8(1).int32(classic.session_timeout_ms).compact_array_length(len(classic.protocols))
    for name, metadata in classic.protocols:
        w.compact_string(name).compact_bytes(metadata).no_tagged_fields()
    return bytes(w.no_tagged_fields().buf)


def _read_classic_member_metadata(data: bytes) -> ClassicMemberMetadata | None:
    r = RecordReader(data)
    if r.int8() < 0:
        return None
    session_timeout = r.int32()
    protocols = []
    for _ in range(max(r.compact_array_length(), 0)):
        name, metadata = r.compact_string() or "", r.compact_bytes()
        r.skip_tagged_fields()
        protocols.append((name, metadata))
    r.skip_tagged_fields()
    return ClassicMemberMetadata(session_timeout, tuple(protocols))


def read_member_metadata_value(member_id: str, data: bytes) -> ConsumerGroupMember:
    """The member as its metadata record has it, its epochs and assignment not yet known."""
    r = _reader(data)
    instance_id, rack_id = r.compact_string(), r.compact_string()
    client_id, client_host = r.compact_string() or "", r.compact_string() or ""
    names = tuple(r.compact_string() or "" for _ in range(max(r.compact_array_length(), 0)))
    regex, rebalance_timeout = r.compact_string(), r.int32()
    assignor = r.compact_string()
    raw = r.tagged_fields().get(CLASSIC_MEMBER_METADATA_TAG)
    classic = None if raw is None else _read_classic_member_metadata(raw)
    return ConsumerGroupMember(member_id, instance_id=instance_id, rack_id=rack_id, client_id=client_id,
                               client_host=client_host, subscribed_topic_names=names,
                               subscribed_topic_regex=regex, server_assignor=assignor,
                               rebalance_timeout_ms=rebalance_timeout, classic=classic)


PartitionEpochs = Mapping[tuple[uuid.UUID, int], int]
ASSIGNMENT_EPOCHS_TAG = 0  # TopicPartitions' tagged AssignmentEpochs (Kafka 4.4, KIP-1251)


def _write_partitions(w: RecordWriter, assignment: Mapping[uuid.UUID, frozenset[int]],
                      epochs: PartitionEpochs | None = None) -> None:
    """An array of (TopicId, Partitions) in topic id order; with `epochs`, each topic's
    AssignmentEpochs tag, one epoch per partition in the same order, as Kafka 4.4 writes
    the current assignment."""
    topics = sorted((t, ps) for t, ps in assignment.items() if ps)
    w.compact_array_length(len(topics))
    for topic_id, partitions in topics:
        ordered = sorted(partitions)
        w.uuid(topic_id).compact_array_length(len(ordered))
        for p in ordered:
            w.int32(p)
        if epochs is None:
            w.no_tagged_fields()
            continue
        tag = RecordWriter().compact_array_length(len(ordered))
        for p in ordered:
            tag.int32(epochs[(topic_id, p)])
        w.uvarint(1).uvarint(ASSIGNMENT_EPOCHS_TAG).uvarint(len(tag.buf))
        w.buf += tag.buf


def _read_partitions(r: RecordReader) -> tuple[Assignment, dict[tuple[uuid.UUID, int], int]]:
    """The partitions and the assignment epochs the record carries; a topic without
    them, or with a list of another length, has none (Kafka then uses its default)."""
    out: Assignment = {}
    epochs: dict[tuple[uuid.UUID, int], int] = {}
    for _ in range(max(r.compact_array_length(), 0)):
        topic_id = r.uuid()
        partitions = [r.int32() for _ in range(max(r.compact_array_length(), 0))]
        raw = r.tagged_fields().get(ASSIGNMENT_EPOCHS_TAG)
        if raw is not None:
            tag = RecordReader(raw)
            topic_epochs = [tag.int32() for _ in range(max(tag.compact_array_length(), 0))]
            if len(topic_epochs) == len(partitions):
                epochs.update(((topic_id, p), e) for p, e in zip(partitions, topic_epochs, strict=True))
        if partitions:
            out[topic_id] = frozenset(partitions)
    return out, epochs


def target_assignment_member_value(assignment: Mapping[uuid.UUID, frozenset[int]]) -> bytes:
    """ConsumerGroupTargetAssignmentMemberValue: the partitions the member is to own."""
    w = _value()
    _write_partitions(w, assignment)
    return bytes(w.no_tagged_fields().buf)


def read_target_assignment_member_value(data: bytes) -> Assignment:
    r = _reader(data)
    out, _ = _read_partitions(r)
    r.skip_tagged_fields()
    return out


@dataclass(frozen=True)
class CurrentAssignment:
    member_epoch: int
    previous_member_epoch: int
    state: MemberState
    assigned: Assignment
    pending_revocation: Assignment
    partition_epochs: dict[tuple[uuid.UUID, int], int] = field(default_factory=dict)


def current_assignment_value(member: ConsumerGroupMember) -> bytes:
    """ConsumerGroupCurrentMemberAssignmentValue: the member's epochs, reconciliation
    state, the partitions it owns and those it must revoke, each with its assignment epoch."""
    w = _value().int32(member.member_epoch).int32(member.previous_member_epoch).int8(_STATE_CODES[member.state])
    epochs = member.epochs_of(member.assigned, member.pending_revocation)
    _write_partitions(w, member.assigned, epochs)
    _write_partitions(w, member.pending_revocation, epochs)
    return bytes(w.no_tagged_fields().buf)


def read_current_assignment_value(data: bytes) -> CurrentAssignment:
    r = _reader(data)
    epoch, previous, code = r.int32(), r.int32(), r.int8()
    if code not in _STATES:
        raise RecordFormatError(f"unknown consumer group member state {code}")
    (assigned, assigned_epochs), (pending, pending_epochs) = _read_partitions(r), _read_partitions(r)
    r.skip_tagged_fields()
    return CurrentAssignment(epoch, previous, _STATES[code], assigned, pending, assigned_epochs | pending_epochs)


# -- a whole group -------------------------------------------------------------------------


# Tombstones go member by member (current assignment, target, subscription), then the
# group-level records, the group epoch last: Kafka's order when it removes a member or group.
_TOMBSTONE_ORDER = (RecordType.CURRENT_MEMBER_ASSIGNMENT, RecordType.TARGET_ASSIGNMENT_MEMBER,
                    RecordType.MEMBER_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA,
                    RecordType.PARTITION_METADATA, RecordType.GROUP_METADATA)
# Other records in Kafka's order after a heartbeat: subscriptions, group epoch, target
# assignment, then current assignments.
_WRITE_ORDER = (RecordType.MEMBER_METADATA, RecordType.GROUP_METADATA, RecordType.TARGET_ASSIGNMENT_MEMBER,
                RecordType.TARGET_ASSIGNMENT_METADATA, RecordType.CURRENT_MEMBER_ASSIGNMENT)


def _present(group: ConsumerGroup, touched: Iterable[str]) -> Iterator[tuple[RecordType, bytes, bytes | None]]:
    """The group-level records and the touched members' (None: the member has none)."""
    gid = group.group_id
    yield (RecordType.GROUP_METADATA, encode_key(ConsumerGroupKey(RecordType.GROUP_METADATA, gid)),
           group_metadata_value(group.group_epoch))
    yield (RecordType.TARGET_ASSIGNMENT_METADATA, encode_key(ConsumerGroupKey(RecordType.TARGET_ASSIGNMENT_METADATA,
                                                                              gid)),
           target_assignment_metadata_value(group.assignment_epoch))
    for mid in sorted(touched):
        member, target = group.members.get(mid), group.target.get(mid)
        yield (RecordType.MEMBER_METADATA, encode_key(ConsumerGroupKey(RecordType.MEMBER_METADATA, gid, mid)),
               None if member is None else member_metadata_value(member))
        yield (RecordType.TARGET_ASSIGNMENT_MEMBER,
               encode_key(ConsumerGroupKey(RecordType.TARGET_ASSIGNMENT_MEMBER, gid, mid)),
               None if target is None else target_assignment_member_value(target))
        yield (RecordType.CURRENT_MEMBER_ASSIGNMENT,
               encode_key(ConsumerGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, gid, mid)),
               None if member is None else current_assignment_value(member))


def write_changes(group: ConsumerGroup, stored: dict[bytes, bytes],
                  touched: Iterable[str]) -> list[tuple[bytes, bytes | None]]:
    """The records that take the log from `stored` (key -> value as last written, updated
    here) to the group's present state, given the members `touched` since: tombstones for
    what is gone, then what is new or changed, in Kafka's order. Only the touched members
    are encoded, so a heartbeat that changes nothing costs two small records' encoding."""
    tombstones: list[tuple[RecordType, bytes]] = []
    upserts: dict[RecordType, list[tuple[bytes, bytes | None]]] = {kind: [] for kind in _WRITE_ORDER}
    for kind, key, value in _present(group, touched):
        old = stored.get(key)
        if value is None:
            if old is not None:
                tombstones.append((kind, key))
                del stored[key]
        elif old != value:
            upserts[kind].append((key, value))
            stored[key] = value
    tombstones.sort(key=lambda t: _TOMBSTONE_ORDER.index(t[0]))
    return [(key, None) for _, key in tombstones] + [r for kind in _WRITE_ORDER for r in upserts[kind]]


def group_records(group: ConsumerGroup) -> list[tuple[bytes, bytes | None]]:
    """Every record of the group's present state, as the first write of a group has them."""
    return write_changes(group, {}, set(group.members) | set(group.target))


def group_tombstones(group_id: str, stored: Mapping[bytes, bytes]) -> list[tuple[bytes, bytes | None]]:
    """Every record of a deleted group, the group epoch last."""
    keys = set(stored)
    keys.update(encode_key(ConsumerGroupKey(kind, group_id))
                for kind in (RecordType.TARGET_ASSIGNMENT_METADATA, RecordType.GROUP_METADATA))
    return [(key, None) for key in sorted(keys, key=lambda k: _TOMBSTONE_ORDER.index(
        RecordType(int.from_bytes(k[:2], "big"))))]


# -- loading -------------------------------------------------------------------------------


@dataclass
class StoredConsumerGroup:
    """A consumer group as replayed from the log so far, last record per key winning."""

    group_id: str
    epoch: int = 0
    assignment_epoch: int = INITIAL_EPOCH  # a group's until its first target assignment record
    members: dict[str, ConsumerGroupMember] = field(default_factory=dict)
    targets: dict[str, Assignment] = field(default_factory=dict)
    current: dict[str, CurrentAssignment] = field(default_factory=dict)

    def apply(self, key: ConsumerGroupKey, value: bytes | None) -> None:
        mid = key.member_id or ""
        if key.type == RecordType.GROUP_METADATA:
            self.epoch = 0 if value is None else read_group_metadata_value(value)
        elif key.type == RecordType.TARGET_ASSIGNMENT_METADATA:
            self.assignment_epoch = 0 if value is None else read_target_assignment_metadata_value(value)
        elif key.type == RecordType.MEMBER_METADATA:
            if value is None:
                self.members.pop(mid, None)
            else:
                self.members[mid] = read_member_metadata_value(mid, value)
        elif key.type == RecordType.TARGET_ASSIGNMENT_MEMBER:
            if value is None:
                self.targets.pop(mid, None)
            else:
                self.targets[mid] = read_target_assignment_member_value(value)
        elif key.type == RecordType.CURRENT_MEMBER_ASSIGNMENT:
            if value is None:
                self.current.pop(mid, None)
            else:
                self.current[mid] = read_current_assignment_value(value)

    def rebuild(self, group: ConsumerGroup) -> None:
        """Fill a fresh ConsumerGroup with this state: epochs, target, members with the
        epochs and partitions of their current assignment."""
        group.group_epoch = self.epoch
        group.assignment_epoch = self.assignment_epoch
        group.target = {mid: dict(t) for mid, t in self.targets.items() if mid in self.members}
        for mid, member in self.members.items():
            current = self.current.get(mid)
            if current is not None:
                member = replace(member, member_epoch=current.member_epoch,
                                 previous_member_epoch=current.previous_member_epoch, state=current.state,
                                 assigned=dict(current.assigned), pending_revocation=dict(current.pending_revocation),
                                 partition_epochs=dict(current.partition_epochs))
            group.update_member(member)
        group.update_state()
