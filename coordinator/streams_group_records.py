"""A KIP-1071 streams group's records in __consumer_offsets, in Kafka 4.4's layouts (the
group-coordinator module's StreamsGroup*Key/Value specs and StreamsCoordinatorRecordHelpers):
the group epoch (key version 17), each member's metadata (19), the target assignment's epoch
(20) and per-member tasks (21), each member's current assignment (22) and the topology (23).
Kafka 4.0's StreamsGroupPartitionMetadata (18) is gone from 4.4; a record of it is skipped.

Keys are non-flexible (int16 key version, group id, and the member id for the per-member
records); values are a version-0 flexible body; a null value is a tombstone. Tasks are
written as Kafka does, one entry per subtopology in id order with its partitions sorted.
Each active task of a member's current assignment carries the epoch it was assigned at
(AssignmentEpochs), as Kafka 4.4 writes it, and the group record the assignment configs its
target was computed with (LastAssignmentConfigs), so that a load does not take them for a
change. josefk writes the other tagged fields at their defaults (no MetadataHash,
ValidatedTopologyEpoch or AssignmentTimestamp) and reads past those Kafka writes; on load it
configures the topology against the topics it sees then.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from josefk.coordinator.modern_group import INITIAL_EPOCH
from josefk.coordinator.record_io import (
    RecordFormatError,
    RecordReader,
    RecordWriter,
    flexible_value,
    member_key,
    read_flexible_value,
)
from josefk.coordinator.streams_group import EMPTY, MemberState, StreamsGroup, StreamsGroupMember, Tasks
from josefk.coordinator.streams_topology import Subtopology, TopicInfo, Topology

VALUE_VERSION = 0


class RecordType(enum.IntEnum):
    """The key version of each record, Kafka's CoordinatorRecordType."""

    GROUP_METADATA = 17
    PARTITION_METADATA = 18  # Kafka 4.0 only; read and ignored
    MEMBER_METADATA = 19
    TARGET_ASSIGNMENT_METADATA = 20
    TARGET_ASSIGNMENT_MEMBER = 21
    CURRENT_MEMBER_ASSIGNMENT = 22
    TOPOLOGY = 23


KEY_VERSIONS = frozenset(t.value for t in RecordType)
_GROUP_LEVEL = (RecordType.GROUP_METADATA, RecordType.PARTITION_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA,
                RecordType.TOPOLOGY)

# Kafka's streams MemberState values (streams/MemberState.java; UNKNOWN is 127).
_STATE_CODES = {MemberState.STABLE: 1, MemberState.UNREVOKED_TASKS: 2, MemberState.UNRELEASED_TASKS: 3}
_STATES = {code: state for state, code in _STATE_CODES.items()}


@dataclass(frozen=True)
class StreamsGroupKey:
    type: RecordType
    group: str
    member_id: str | None = None  # for the per-member records


def encode_key(key: StreamsGroupKey) -> bytes:
    return member_key(key.type, key.group, None if key.type in _GROUP_LEVEL else key.member_id or "")


def decode_key(version: int, r: RecordReader) -> StreamsGroupKey:
    """The rest of a key whose int16 version `r` has just read."""
    kind = RecordType(version)
    group = r.string() or ""
    return StreamsGroupKey(kind, group, None if kind in _GROUP_LEVEL else r.string() or "")


def _value() -> RecordWriter:
    return flexible_value(VALUE_VERSION)


def _reader(data: bytes) -> RecordReader:
    return read_flexible_value(data, "streams group", VALUE_VERSION)


def _count(r: RecordReader) -> int:
    return max(r.compact_array_length(), 0)


def _strings(w: RecordWriter, values: tuple[str, ...] | list[str]) -> None:
    w.compact_array_length(len(values))
    for v in values:
        w.compact_string(v)


def _read_strings(r: RecordReader) -> tuple[str, ...]:
    return tuple(r.compact_string() or "" for _ in range(_count(r)))


# -- epochs ------------------------------------------------------------------------------


LAST_ASSIGNMENT_CONFIGS_TAG = 1  # StreamsGroupMetadataValue's tagged LastAssignmentConfigs


def group_metadata_value(epoch: int, assignment_configs: Mapping[str, str] | None = None) -> bytes:
    """StreamsGroupMetadataValue: the group epoch, MetadataHash 0 (josefk keeps no hash), and
    the configs of the last assignment (none: the field's default, null, left out)."""
    w = _value().int32(epoch).int64(0)
    if not assignment_configs:
        return bytes(w.no_tagged_fields().buf)
    configs = RecordWriter().compact_array_length(len(assignment_configs))
    for key, value in assignment_configs.items():
        configs.compact_string(key).compact_string(value).no_tagged_fields()
    return bytes(w.uvarint(1).uvarint(LAST_ASSIGNMENT_CONFIGS_TAG).uvarint(len(configs.buf)).buf + configs.buf)


def read_group_metadata_value(data: bytes) -> tuple[int, dict[str, str]]:
    """The group epoch and the last assignment's configs, past the fields josefk does not keep."""
    r = _reader(data)
    epoch = r.int32()
    r.int64()  # MetadataHash
    raw = r.tagged_fields().get(LAST_ASSIGNMENT_CONFIGS_TAG)  # besides ValidatedTopologyEpoch, the description's
    configs: dict[str, str] = {}
    if raw is not None:
        c = RecordReader(raw)
        for _ in range(max(c.compact_array_length(), 0)):
            key, value = c.compact_string() or "", c.compact_string() or ""
            c.skip_tagged_fields()
            configs[key] = value
    return epoch, configs


def target_assignment_metadata_value(assignment_epoch: int) -> bytes:
    """StreamsGroupTargetAssignmentMetadataValue: the epoch of the target assignment."""
    return bytes(_value().int32(assignment_epoch).no_tagged_fields().buf)


def read_target_assignment_metadata_value(data: bytes) -> int:
    r = _reader(data)
    epoch = r.int32()
    r.skip_tagged_fields()  # AssignmentTimestamp
    return epoch


# -- tasks -------------------------------------------------------------------------------


ASSIGNMENT_EPOCHS_TAG = 0  # TaskIds' tagged AssignmentEpochs (Kafka 4.4), for active tasks only
TaskEpochs = Mapping[tuple[str, int], int]


def _write_tasks(w: RecordWriter, tasks: Mapping[str, frozenset[int]], epochs: TaskEpochs | None = None) -> None:
    """A []TaskIds: (SubtopologyId, Partitions) per subtopology, in id order; with `epochs`,
    each entry's AssignmentEpochs tag, one epoch per partition in the same order, as Kafka
    4.4 writes a member's active tasks."""
    entries = sorted((s, ps) for s, ps in tasks.items() if ps)
    w.compact_array_length(len(entries))
    for subtopology, partitions in entries:
        ordered = sorted(partitions)
        w.compact_string(subtopology).compact_array_length(len(ordered))
        for p in ordered:
            w.int32(p)
        if epochs is None:
            w.no_tagged_fields()
            continue
        tag = RecordWriter().compact_array_length(len(ordered))
        for p in ordered:
            tag.int32(epochs[(subtopology, p)])
        w.uvarint(1).uvarint(ASSIGNMENT_EPOCHS_TAG).uvarint(len(tag.buf))
        w.buf += tag.buf


def _read_tasks(r: RecordReader, epochs: dict[tuple[str, int], int] | None = None) -> dict[str, frozenset[int]]:
    """The tasks, and into `epochs` the assignment epochs the entries carry; an entry
    without them, or with a list of another length, has none (Kafka then uses its default)."""
    out: dict[str, frozenset[int]] = {}
    for _ in range(_count(r)):
        subtopology = r.compact_string() or ""
        partitions = [r.int32() for _ in range(_count(r))]
        raw = r.tagged_fields().get(ASSIGNMENT_EPOCHS_TAG)
        if raw is not None and epochs is not None:
            tag = RecordReader(raw)
            task_epochs = [tag.int32() for _ in range(max(tag.compact_array_length(), 0))]
            if len(task_epochs) == len(partitions):
                epochs.update(((subtopology, p), e) for p, e in zip(partitions, task_epochs, strict=True))
        if partitions:
            out[subtopology] = frozenset(partitions)
    return out


def _write_tuple(w: RecordWriter, tasks: Tasks, epochs: TaskEpochs | None = None) -> None:
    _write_tasks(w, tasks.active, epochs)
    _write_tasks(w, tasks.standby)
    _write_tasks(w, tasks.warmup)


def _read_tuple(r: RecordReader, epochs: dict[tuple[str, int], int] | None = None) -> Tasks:
    return Tasks(_read_tasks(r, epochs), _read_tasks(r), _read_tasks(r))


def target_assignment_member_value(target: Tasks) -> bytes:
    """StreamsGroupTargetAssignmentMemberValue: the active, standby and warm-up tasks the
    member is to own."""
    w = _value()
    _write_tuple(w, target)
    return bytes(w.no_tagged_fields().buf)


def read_target_assignment_member_value(data: bytes) -> Tasks:
    r = _reader(data)
    tasks = _read_tuple(r)
    r.skip_tagged_fields()
    return tasks


@dataclass(frozen=True)
class CurrentAssignment:
    member_epoch: int
    previous_member_epoch: int
    state: MemberState
    assigned: Tasks
    pending_revocation: Tasks
    task_epochs: dict[tuple[str, int], int] = field(default_factory=dict)


def current_assignment_value(member: StreamsGroupMember) -> bytes:
    """StreamsGroupCurrentMemberAssignmentValue: the member's epochs, reconciliation state,
    the tasks it owns and those it must revoke, each active task with its assignment epoch."""
    w = _value().int32(member.member_epoch).int32(member.previous_member_epoch).int8(_STATE_CODES[member.state])
    epochs = member.epochs_of(member.assigned.active, member.pending_revocation.active)
    _write_tuple(w, member.assigned, epochs)
    _write_tuple(w, member.pending_revocation, epochs)
    return bytes(w.no_tagged_fields().buf)


def read_current_assignment_value(data: bytes) -> CurrentAssignment:
    r = _reader(data)
    epoch, previous, code = r.int32(), r.int32(), r.int8()
    if code not in _STATES:
        raise RecordFormatError(f"unknown streams group member state {code}")
    epochs: dict[tuple[str, int], int] = {}
    assigned, pending = _read_tuple(r, epochs), _read_tuple(r, epochs)
    r.skip_tagged_fields()
    return CurrentAssignment(epoch, previous, _STATES[code], assigned, pending, epochs)


# -- member metadata ---------------------------------------------------------------------


def member_metadata_value(member: StreamsGroupMember) -> bytes:
    """StreamsGroupMemberMetadataValue: who the member is, its process, endpoint and tags
    (sorted by key, as Kafka writes them)."""
    w = _value().compact_string(member.instance_id).compact_string(member.rack_id)
    w.compact_string(member.client_id).compact_string(member.client_host)
    w.int32(member.rebalance_timeout_ms).int32(member.topology_epoch).compact_string(member.process_id)
    if member.user_endpoint is None:
        w.int8(-1)
    else:
        host, port = member.user_endpoint
        w.int8(1).compact_string(host)
        w.buf += port.to_bytes(2, "big")  # uint16
        w.no_tagged_fields()
    tags = sorted(member.client_tags)
    w.compact_array_length(len(tags))
    for key, value in tags:
        w.compact_string(key).compact_string(value).no_tagged_fields()
    return bytes(w.no_tagged_fields().buf)


def read_member_metadata_value(member_id: str, data: bytes) -> StreamsGroupMember:
    """The member as its metadata record has it, its epochs and tasks not yet known."""
    r = _reader(data)
    instance_id, rack_id = r.compact_string(), r.compact_string()
    client_id, client_host = r.compact_string() or "", r.compact_string() or ""
    rebalance_timeout, topology_epoch, process_id = r.int32(), r.int32(), r.compact_string() or ""
    endpoint = None
    if r.int8() >= 0:
        host = r.compact_string() or ""
        endpoint = (host, r.int16() & 0xFFFF)
        r.skip_tagged_fields()
    tags = []
    for _ in range(_count(r)):
        key, value = r.compact_string() or "", r.compact_string() or ""
        r.skip_tagged_fields()
        tags.append((key, value))
    r.skip_tagged_fields()
    return StreamsGroupMember(member_id, process_id=process_id, instance_id=instance_id, rack_id=rack_id,
                              client_id=client_id, client_host=client_host, rebalance_timeout_ms=rebalance_timeout,
                              topology_epoch=topology_epoch, user_endpoint=endpoint, client_tags=tuple(tags))


# -- topology ----------------------------------------------------------------------------


def _write_topic_infos(w: RecordWriter, infos: tuple[TopicInfo, ...]) -> None:
    w.compact_array_length(len(infos))
    for t in infos:
        w.compact_string(t.name).int32(t.partitions).int16(t.replication_factor)
        w.compact_array_length(len(t.configs))
        for key, value in t.configs:
            w.compact_string(key).compact_string(value).no_tagged_fields()
        w.no_tagged_fields()


def _read_topic_infos(r: RecordReader) -> tuple[TopicInfo, ...]:
    out = []
    for _ in range(_count(r)):
        name, partitions, replication = r.compact_string() or "", r.int32(), r.int16()
        configs = []
        for _ in range(_count(r)):
            key, value = r.compact_string() or "", r.compact_string() or ""
            r.skip_tagged_fields()
            configs.append((key, value))
        r.skip_tagged_fields()
        out.append(TopicInfo(name, partitions, replication, tuple(configs)))
    return tuple(out)


def _int16s(w: RecordWriter, values: tuple[int, ...]) -> None:
    w.compact_array_length(len(values))
    for v in values:
        w.int16(v)


def topology_value(topology: Topology) -> bytes:
    """StreamsGroupTopologyValue: the topology as the first member sent it (josefk takes no
    source topic regular expressions, so those lists are empty)."""
    w = _value().int32(topology.epoch).compact_array_length(len(topology.subtopologies))
    for s in topology.subtopologies:
        w.compact_string(s.subtopology_id)
        _strings(w, s.source_topics)
        _strings(w, ())  # SourceTopicRegex
        _write_topic_infos(w, s.state_changelog_topics)
        _strings(w, s.repartition_sink_topics)
        _write_topic_infos(w, s.repartition_source_topics)
        w.compact_array_length(len(s.copartition_groups))
        for sources, repartitions in s.copartition_groups:
            _int16s(w, sources)
            _int16s(w, ())  # SourceTopicRegex
            _int16s(w, repartitions)
            w.no_tagged_fields()
        w.no_tagged_fields()
    return bytes(w.no_tagged_fields().buf)


def read_topology_value(data: bytes) -> Topology:
    r = _reader(data)
    epoch = r.int32()
    subtopologies = []
    for _ in range(_count(r)):
        subtopology_id, sources, regexes = r.compact_string() or "", _read_strings(r), _read_strings(r)
        if regexes:
            raise RecordFormatError("source topic regular expressions are not supported")
        changelogs, sinks, repartitions = _read_topic_infos(r), _read_strings(r), _read_topic_infos(r)
        groups = []
        for _ in range(_count(r)):
            source_idx = tuple(r.int16() for _ in range(_count(r)))
            tuple(r.int16() for _ in range(_count(r)))  # SourceTopicRegex indexes: none without regexes
            repartition_idx = tuple(r.int16() for _ in range(_count(r)))
            r.skip_tagged_fields()
            groups.append((source_idx, repartition_idx))
        r.skip_tagged_fields()
        subtopologies.append(Subtopology(subtopology_id, sources, sinks, changelogs, repartitions, tuple(groups)))
    r.skip_tagged_fields()
    return Topology(epoch, tuple(subtopologies))


# -- a whole group -------------------------------------------------------------------------


# Tombstones go member by member (current assignment, target, metadata), then the
# group-level records, the group epoch before the topology: Kafka's order when it removes
# a member or deletes a group (StreamsGroup.createGroupTombstoneRecords).
_TOMBSTONE_ORDER = (RecordType.CURRENT_MEMBER_ASSIGNMENT, RecordType.TARGET_ASSIGNMENT_MEMBER,
                    RecordType.MEMBER_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA,
                    RecordType.PARTITION_METADATA, RecordType.GROUP_METADATA, RecordType.TOPOLOGY)
# Other records in Kafka's order after a heartbeat: the member, the topology, the group
# epoch, the target assignment, then the current assignments.
_WRITE_ORDER = (RecordType.MEMBER_METADATA, RecordType.TOPOLOGY, RecordType.GROUP_METADATA,
                RecordType.TARGET_ASSIGNMENT_MEMBER, RecordType.TARGET_ASSIGNMENT_METADATA,
                RecordType.CURRENT_MEMBER_ASSIGNMENT)


@dataclass
class StoredRecords:
    """A group's records as last written (key -> value), and the objects they were encoded
    from, so that a heartbeat re-encodes only the members and topology that changed (the
    group's members and topologies are immutable values, replaced on every change)."""

    values: dict[bytes, bytes] = field(default_factory=dict)
    encoded: dict[tuple[RecordType, str], object] = field(default_factory=dict)


def _present(group: StreamsGroup, stored: StoredRecords) -> Iterator[tuple[RecordType, bytes, bytes | None]]:
    """The group's records whose source changed since `stored` was written (None: gone)."""
    gid = group.group_id

    def changed(kind: RecordType, mid: str, source: object) -> bool:
        if stored.encoded.get((kind, mid)) is source and source is not None:
            return False
        if source is None:
            stored.encoded.pop((kind, mid), None)
        else:
            stored.encoded[(kind, mid)] = source
        return True

    yield (RecordType.GROUP_METADATA, encode_key(StreamsGroupKey(RecordType.GROUP_METADATA, gid)),
           group_metadata_value(group.group_epoch, group.last_assignment_configs))
    yield (RecordType.TARGET_ASSIGNMENT_METADATA,
           encode_key(StreamsGroupKey(RecordType.TARGET_ASSIGNMENT_METADATA, gid)),
           target_assignment_metadata_value(group.assignment_epoch))
    if changed(RecordType.TOPOLOGY, "", group.topology):
        yield (RecordType.TOPOLOGY, encode_key(StreamsGroupKey(RecordType.TOPOLOGY, gid)),
               None if group.topology is None else topology_value(group.topology))
    known = {mid for kind, mid in stored.encoded if kind != RecordType.TOPOLOGY}
    for mid in sorted(known | set(group.members) | set(group.target)):
        member, target = group.members.get(mid), group.target.get(mid)
        if changed(RecordType.MEMBER_METADATA, mid, member):
            yield (RecordType.MEMBER_METADATA, encode_key(StreamsGroupKey(RecordType.MEMBER_METADATA, gid, mid)),
                   None if member is None else member_metadata_value(member))
            yield (RecordType.CURRENT_MEMBER_ASSIGNMENT,
                   encode_key(StreamsGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, gid, mid)),
                   None if member is None else current_assignment_value(member))
        if changed(RecordType.TARGET_ASSIGNMENT_MEMBER, mid, target):
            yield (RecordType.TARGET_ASSIGNMENT_MEMBER,
                   encode_key(StreamsGroupKey(RecordType.TARGET_ASSIGNMENT_MEMBER, gid, mid)),
                   None if target is None else target_assignment_member_value(target))


def write_changes(group: StreamsGroup, stored: StoredRecords) -> list[tuple[bytes, bytes | None]]:
    """The records that take the log from `stored` (updated here) to the group's present
    state: tombstones for what is gone, then what is new or changed, in Kafka's order."""
    tombstones: list[tuple[RecordType, bytes]] = []
    upserts: dict[RecordType, list[tuple[bytes, bytes | None]]] = {kind: [] for kind in _WRITE_ORDER}
    for kind, key, value in _present(group, stored):
        old = stored.values.get(key)
        if value is None:
            if old is not None:
                tombstones.append((kind, key))
                del stored.values[key]
        elif old != value:
            upserts[kind].append((key, value))
            stored.values[key] = value
    tombstones.sort(key=lambda t: _TOMBSTONE_ORDER.index(t[0]))
    return [(key, None) for _, key in tombstones] + [r for kind in _WRITE_ORDER for r in upserts[kind]]


def group_records(group: StreamsGroup) -> list[tuple[bytes, bytes | None]]:
    """Every record of the group's present state, as the first write of a group has them."""
    return write_changes(group, StoredRecords())


def group_tombstones(group_id: str, stored: StoredRecords | None) -> list[tuple[bytes, bytes | None]]:
    """Every record of a deleted group: its members', then the group epoch and topology."""
    keys = set(stored.values) if stored is not None else set()
    keys.update(encode_key(StreamsGroupKey(kind, group_id)) for kind in (
        RecordType.TARGET_ASSIGNMENT_METADATA, RecordType.GROUP_METADATA, RecordType.TOPOLOGY))
    return [(key, None) for key in sorted(keys, key=lambda k: _TOMBSTONE_ORDER.index(
        RecordType(int.from_bytes(k[:2], "big"))))]


# -- loading -------------------------------------------------------------------------------


@dataclass
class StoredStreamsGroup:
    """A streams group as replayed from the log so far, last record per key winning."""

    group_id: str
    epoch: int = 0
    assignment_configs: dict[str, str] = field(default_factory=dict)
    assignment_epoch: int = INITIAL_EPOCH  # a group's until its first target assignment record
    topology: Topology | None = None
    members: dict[str, StreamsGroupMember] = field(default_factory=dict)
    targets: dict[str, Tasks] = field(default_factory=dict)
    current: dict[str, CurrentAssignment] = field(default_factory=dict)

    def apply(self, key: StreamsGroupKey, value: bytes | None) -> None:
        mid = key.member_id or ""
        if key.type == RecordType.GROUP_METADATA:
            self.epoch, self.assignment_configs = (0, {}) if value is None else read_group_metadata_value(value)
        elif key.type == RecordType.TARGET_ASSIGNMENT_METADATA:
            self.assignment_epoch = 0 if value is None else read_target_assignment_metadata_value(value)
        elif key.type == RecordType.TOPOLOGY:
            self.topology = None if value is None else read_topology_value(value)
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

    def rebuild(self, group: StreamsGroup) -> None:
        """Fill a fresh StreamsGroup with this state: epochs, topology, target, and the
        members with the epochs and tasks of their current assignment."""
        group.group_epoch = self.epoch
        group.last_assignment_configs = dict(self.assignment_configs)
        group.assignment_epoch = self.assignment_epoch
        group.topology = self.topology
        group.target = {mid: t for mid, t in self.targets.items() if mid in self.members}
        for mid, member in self.members.items():
            current = self.current.get(mid)
            if current is not None:
                member = replace(member, member_epoch=current.member_epoch,
                                 previous_member_epoch=current.previous_member_epoch, state=current.state,
                                 assigned=current.assigned, pending_revocation=current.pending_revocation,
                                 task_epochs=current.task_epochs)
            else:
                member = replace(member, assigned=EMPTY, pending_revocation=EMPTY)
            group.update_member(member)
        group.update_state()
