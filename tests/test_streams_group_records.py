"""KIP-1071 streams groups in __consumer_offsets: the record layouts worked out by hand from
Kafka 4.4's group-coordinator specs (StreamsGroup*Key/Value.json), Kafka 4.4's own generated
classes reading josefk's bytes (and josefk reading Kafka's), and, under MockTime on a real
log, a coordinator failover that brings the group back from the log alone."""

from __future__ import annotations

import os
import struct
import subprocess
import uuid
from dataclasses import replace
from pathlib import Path

from josefk.coordinator.group_metadata import OffsetAndMetadata
from josefk.coordinator.group_records import read_key
from josefk.coordinator.streams_group import (
    MemberState,
    StreamsGroup,
    StreamsGroupMember,
    StreamsGroupState,
    Tasks,
    task_list,
)
from josefk.coordinator.streams_group_coordinator import StreamsHeartbeatRequest, StreamsHeartbeatResult
from josefk.coordinator.streams_group_records import (
    RecordType,
    StoredRecords,
    StreamsGroupKey,
    current_assignment_value,
    encode_key,
    group_metadata_value,
    group_records,
    group_tombstones,
    member_metadata_value,
    read_current_assignment_value,
    read_group_metadata_value,
    read_member_metadata_value,
    read_target_assignment_member_value,
    read_target_assignment_metadata_value,
    read_topology_value,
    target_assignment_member_value,
    topology_value,
    write_changes,
)
from josefk.coordinator.streams_topology import Subtopology, TopicInfo, Topology
from josefk.protocol.errors import ErrorCode
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.prerequisites import require_files, require_tools
from tests.test_group_timeouts import GROUP
from tests.test_streams_group import (
    ALL,
    CHANGELOG,
    REBALANCE_MS,
    REPARTITION,
    SESSION_MS,
    WORD_COUNT,
    Harness,
    h,
    stable_one,
)

__all__ = ["h"]  # the fixture, used by name

ROOT = Path(__file__).resolve().parent.parent
KAFKA4_LIB = ROOT / "compat" / ".envs" / "kafka4" / "lib"
JOIN = Topology(3, (Subtopology("0", source_topics=("a", "b"), copartition_groups=(((0, 1), ()),)),
                    Subtopology("1", repartition_source_topics=(TopicInfo("r", 6, 3, (("k", "v"),)),),
                                state_changelog_topics=(TopicInfo("c"),), repartition_sink_topics=("x",),
                                copartition_groups=(((), (0,)),))))


def streams_key(data: bytes) -> StreamsGroupKey:
    key = read_key(data)
    assert isinstance(key, StreamsGroupKey), key
    return key


def s16(text: str) -> bytes:  # a non-flexible string: int16 length
    return struct.pack(">h", len(text)) + text.encode()


def tasks(active: dict[str, tuple[int, ...]] | None = None, standby: dict[str, tuple[int, ...]] | None = None,
          warmup: dict[str, tuple[int, ...]] | None = None) -> Tasks:
    def one(d: dict[str, tuple[int, ...]] | None) -> dict[str, frozenset[int]]:
        return {s: frozenset(ps) for s, ps in (d or {}).items()}
    return Tasks(one(active), one(standby), one(warmup))


def member(mid: str, **kw: object) -> StreamsGroupMember:
    defaults: dict[str, object] = dict(process_id=f"p-{mid}", client_id="c", client_host="/h",
                                       rebalance_timeout_ms=300, member_epoch=3, previous_member_epoch=2)
    return StreamsGroupMember(mid, **(defaults | kw))  # type: ignore[arg-type]


def test_keys_are_an_int16_key_version_and_non_flexible_strings() -> None:
    assert encode_key(StreamsGroupKey(RecordType.GROUP_METADATA, "g")) == b"\x00\x11" + s16("g")
    assert encode_key(StreamsGroupKey(RecordType.TOPOLOGY, "g")) == b"\x00\x17" + s16("g")
    assert encode_key(StreamsGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m1")) == (
        b"\x00\x16" + s16("g") + s16("m1"))
    for kind in RecordType:
        key = StreamsGroupKey(kind, "grp", None if kind in (17, 18, 20, 23) else "mem")
        assert read_key(encode_key(key)) == key


def test_value_layouts() -> None:
    # StreamsGroupMetadataValue: version, Epoch, MetadataHash, no tagged fields.
    assert group_metadata_value(7) == b"\x00\x00" + b"\x00\x00\x00\x07" + b"\x00" * 8 + b"\x00"
    m = member("m", rack_id=None, user_endpoint=("h", 65000), client_tags=(("z", "1"), ("a", "2")),
               topology_epoch=2, state=MemberState.UNRELEASED_TASKS,
               assigned=tasks({"1": (2, 0), "0": (5,)}, standby={"2": (1,)}), pending_revocation=tasks({"3": (4,)}))
    assert member_metadata_value(m) == (
        b"\x00\x00"  # value version 0
        b"\x00" b"\x00"  # InstanceId, RackId: null compact strings
        b"\x02c" b"\x03/h"  # ClientId, ClientHost
        b"\x00\x00\x01\x2c" b"\x00\x00\x00\x02"  # RebalanceTimeoutMs 300, TopologyEpoch 2
        b"\x04p-m"  # ProcessId
        b"\x01" b"\x02h" b"\xfd\xe8" b"\x00"  # UserEndpoint: present, Host, uint16 Port, no tags
        b"\x03" b"\x02a\x022\x00" b"\x02z\x021\x00"  # ClientTags sorted by key
        b"\x00")
    m = replace(m, task_epochs={("1", 0): 1, ("3", 4): 2})  # ("0", 5) and ("1", 2) at the member's epoch, 3
    assert current_assignment_value(m) == (
        b"\x00\x00" b"\x00\x00\x00\x03" b"\x00\x00\x00\x02" b"\x03"  # epochs, UNRELEASED_TASKS = 3
        b"\x03"  # active: two TaskIds, each with AssignmentEpochs (tag 0, size, compact array)
        b"\x020" b"\x02\x00\x00\x00\x05" b"\x01\x00\x05" b"\x02\x00\x00\x00\x03"
        b"\x021" b"\x03\x00\x00\x00\x00\x00\x00\x00\x02" b"\x01\x00\x09" b"\x03\x00\x00\x00\x01\x00\x00\x00\x03"
        b"\x02" b"\x022" b"\x02\x00\x00\x00\x01\x00"  # standby: no epochs
        b"\x01"  # warm-up: none
        b"\x02" b"\x023" b"\x02\x00\x00\x00\x04" b"\x01\x00\x05" b"\x02\x00\x00\x00\x02"  # pending active
        b"\x01" b"\x01"  # pending standby, warm-up
        b"\x00")


def test_values_round_trip() -> None:
    m = member("m", instance_id="i", rack_id="r", user_endpoint=("localhost", 8080), client_tags=(("az", "1"),),
               topology_epoch=4)
    assert read_member_metadata_value("m", member_metadata_value(m)) == member("m", instance_id="i", rack_id="r",
                                                                                user_endpoint=("localhost", 8080),
                                                                                client_tags=(("az", "1"),),
                                                                                topology_epoch=4, member_epoch=0,
                                                                                previous_member_epoch=0)
    for state in MemberState:
        m = member("m", state=state, assigned=tasks({"0": (1, 2)}, {"1": (0,)}, {"2": (3,)}),
                   pending_revocation=tasks({"3": (4,)}, {"4": (5,)}, {"5": (6,)}))
        current = read_current_assignment_value(current_assignment_value(m))
        assert (current.member_epoch, current.previous_member_epoch, current.state, current.assigned,
                current.pending_revocation) == (3, 2, state, m.assigned, m.pending_revocation)
        assert current.task_epochs == {("0", 1): 3, ("0", 2): 3, ("3", 4): 3}  # active tasks only
    target = tasks({"0": (0, 1)}, {"1": (2,)})
    assert read_target_assignment_member_value(target_assignment_member_value(target)) == target
    for topology in (WORD_COUNT, JOIN):
        assert read_topology_value(topology_value(topology)) == topology


def two_member_group() -> StreamsGroup:
    group = StreamsGroup("g")
    group.group_epoch = group.assignment_epoch = 3
    group.last_assignment_configs = {"num.standby.replicas": "0", "acceptable.recovery.lag": "10000"}
    group.topology = JOIN
    group.update_member(member("m1", instance_id="i", rack_id="r", user_endpoint=("h", 1), client_tags=(("k", "v"),),
                               state=MemberState.UNREVOKED_TASKS, assigned=tasks({"0": (0,)}, {"1": (1,)}),
                               pending_revocation=tasks({"0": (2,)}), task_epochs={("0", 0): 1, ("0", 2): 2}))
    group.update_member(member("m2", previous_member_epoch=3, assigned=tasks(warmup={"1": (0,)})))
    group.target = {"m1": tasks({"0": (0,)}, {"1": (1,)}), "m2": tasks({"0": (2,)}, warmup={"1": (0,)})}
    return group


def test_only_what_changed_is_written_and_a_member_that_left_is_tombstoned_in_kafkas_order() -> None:
    group = two_member_group()
    stored = StoredRecords()
    first = write_changes(group, stored)
    assert [streams_key(k).type for k, _ in first] == [
        RecordType.MEMBER_METADATA, RecordType.MEMBER_METADATA, RecordType.TOPOLOGY, RecordType.GROUP_METADATA,
        RecordType.TARGET_ASSIGNMENT_MEMBER, RecordType.TARGET_ASSIGNMENT_MEMBER,
        RecordType.TARGET_ASSIGNMENT_METADATA, RecordType.CURRENT_MEMBER_ASSIGNMENT,
        RecordType.CURRENT_MEMBER_ASSIGNMENT]
    assert write_changes(group, stored) == []
    group.remove_member("m2")
    group.group_epoch = 4
    changes = [(streams_key(k), v is not None) for k, v in write_changes(group, stored)]
    assert changes == [(StreamsGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m2"), False),
                       (StreamsGroupKey(RecordType.TARGET_ASSIGNMENT_MEMBER, "g", "m2"), False),
                       (StreamsGroupKey(RecordType.MEMBER_METADATA, "g", "m2"), False),
                       (StreamsGroupKey(RecordType.GROUP_METADATA, "g"), True)]
    assert stored.values == dict(group_records(group))
    deleted = [streams_key(k).type for k, _ in group_tombstones("g", stored)]
    assert deleted == [RecordType.CURRENT_MEMBER_ASSIGNMENT, RecordType.TARGET_ASSIGNMENT_MEMBER,
                       RecordType.MEMBER_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA, RecordType.GROUP_METADATA,
                       RecordType.TOPOLOGY]


def test_kafka_4_4_reads_and_rewrites_josefks_records_byte_for_byte_and_josefk_reads_kafkas(
        tmp_path: Path) -> None:
    """compat/java/StreamsGroupRecords.java decodes josefk's records with Kafka 4.4.0's
    generated classes and writes them again: the bytes must come back unchanged. Records
    Kafka writes itself, tagged fields and all, must read back in josefk."""
    require_tools("java", "javac")
    require_files(KAFKA4_LIB, ["kafka-group-coordinator-4.4.0.jar", "kafka-clients-4.4.0.jar"],
                  "make kafka4-jars")
    classpath = f"{tmp_path}{os.pathsep}{KAFKA4_LIB}/*"
    subprocess.run(["javac", "-nowarn", "-d", str(tmp_path), "-cp", classpath,
                    str(ROOT / "compat" / "java" / "StreamsGroupRecords.java")], check=True, timeout=300)
    ours = [f"{k.hex()} {v.hex()}" for k, v in group_records(two_member_group()) if v is not None]
    res = subprocess.run(["java", "-cp", classpath, "StreamsGroupRecords"], input="\n".join(ours) + "\n",
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[:len(ours)] == ours
    kafkas = [tuple(bytes.fromhex(h) for h in line.split()[1:]) for line in lines[len(ours):]]
    assert [streams_key(k) for k, _ in kafkas] == [
        StreamsGroupKey(RecordType.GROUP_METADATA, "g"), StreamsGroupKey(RecordType.TARGET_ASSIGNMENT_METADATA, "g"),
        StreamsGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m"),
        StreamsGroupKey(RecordType.MEMBER_METADATA, "g", "m")]
    assert read_group_metadata_value(kafkas[0][1]) == (9, {"num.standby.replicas": "1"})  # past its hash
    assert read_target_assignment_metadata_value(kafkas[1][1]) == 9  # past its AssignmentTimestamp
    current = read_current_assignment_value(kafkas[2][1])
    assert (current.member_epoch, current.previous_member_epoch, current.state) == (
        9, 8, MemberState.UNRELEASED_TASKS)
    assert (current.assigned, current.pending_revocation) == (tasks({"0": (0, 3)}, {"1": (2,)}), tasks({"1": (1,)}))
    assert current.task_epochs == {("0", 0): 7, ("0", 3): 9, ("1", 1): 5}
    assert read_member_metadata_value("m", kafkas[3][1]) == member(
        "m", rack_id="r", topology_epoch=2, process_id="p", user_endpoint=("localhost", 65000),
        client_tags=(("az", "1"),), member_epoch=0, previous_member_epoch=0)


# -- failover under MockTime ---------------------------------------------------------------


def failover(h: Harness) -> None:
    """The partition moves away and back: the groups come back from the log alone."""
    gc = h.base.coordinator
    gc.unload_partition(0)
    assert GROUP not in h.sgc.groups
    gc.on_leadership_change()
    h.time.sleep(0)


def stable_pair(h: Harness) -> tuple[Tasks, Tasks]:
    stable_one(h)
    h.join("b")
    kept = h.beat("a", 2, ALL).assignment
    assert kept is not None
    h.beat("a", 2, kept)
    b = h.beat("b", 3, Tasks()).assignment
    assert b is not None and h.group.state == StreamsGroupState.STABLE
    return kept, b


def test_after_a_failover_the_members_carry_on_at_their_epochs_with_their_offsets(h: Harness) -> None:
    a_tasks, b_tasks = stable_pair(h)
    got: list[dict] = []
    om = OffsetAndMetadata(11, -1, "", h.time.milliseconds(), None)
    h.sgc.commit_offsets(GROUP, "a", 3, 9, {("in", 0): om}, got.append)
    h.time.sleep(0)
    assert got == [{("in", 0): ErrorCode.NONE}]
    before = dict(h.group.members)
    state = (h.group.group_epoch, h.group.assignment_epoch, h.group.target, h.group.topology)
    failover(h)
    assert h.group.members == before
    assert (h.group.group_epoch, h.group.assignment_epoch, h.group.target, h.group.topology) == state
    assert h.group.state == StreamsGroupState.STABLE and GROUP not in h.base.coordinator.groups
    a = h.beat("a", 3, a_tasks)
    assert (a.error, a.member_epoch, a.assignment) == (ErrorCode.NONE, 3, None)  # no rebalance
    assert h.group.group_epoch == state[0]
    assert h.sgc.fetch_offsets(GROUP, "a", 3, [("in", 0)]) == (ErrorCode.NONE, {("in", 0): om})
    # The session timers start afresh on load: b, silent since, is fenced a session later.
    h.time.sleep(SESSION_MS - 1)
    h.beat("a", 3, a_tasks)
    assert set(h.group.members) == {"a", "b"}
    h.time.sleep(1)
    assert set(h.group.members) == {"a"}
    assert h.beat("b", 3, b_tasks).error == ErrorCode.UNKNOWN_MEMBER_ID
    failover(h)  # the fencing by the timer was written too
    assert set(h.group.members) == {"a"} and h.group.group_epoch == state[0] + 1


def test_a_member_mid_revocation_goes_on_revoking_after_a_failover(h: Harness) -> None:
    stable_one(h)
    h.join("b")
    h.beat("a", 2, ALL)
    pending = h.group.members["a"]  # a must give up half its tasks before epoch 3
    assert pending.state == MemberState.UNREVOKED_TASKS
    failover(h)
    assert h.group.members["a"] == pending and h.group.state == StreamsGroupState.RECONCILING
    assert h.group.owners.active == {t: ("a", "process-a") for t in h.group.owners.active}
    h.time.sleep(REBALANCE_MS - 1)
    h.beat("b", 3, Tasks())
    assert "a" in h.group.members
    h.time.sleep(1)  # its rebalance timer was restarted on load
    assert "a" not in h.group.members


def test_a_member_that_left_and_a_deleted_group_stay_gone_after_a_failover(h: Harness) -> None:
    stable_pair(h)
    assert h.beat("b", -1).error == ErrorCode.NONE
    failover(h)
    assert set(h.group.members) == {"a"} and set(h.group.target) == {"a"} and h.group.group_epoch == 4
    assert h.beat("a", 3, ALL).assignment == ALL  # the new epoch's target, computed after the load
    assert h.beat("a", -1).error == ErrorCode.NONE
    assert h.sgc.delete_group(GROUP) == ErrorCode.NONE
    failover(h)
    assert GROUP not in h.sgc.groups and GROUP not in h.base.coordinator.groups
    assert h.join("c").member_epoch == 2  # a new group under the same id


def lead(h: Harness, epoch: int, isr: list[int]) -> None:
    """The controller changes the offsets partition's ISR (broker 1 stays leader)."""
    state = PartitionState("__consumer_offsets", 0, 1, epoch, isr, [1, 2], 1)
    brokers = [BrokerInfo(1, "127.0.0.1", 1), BrokerInfo(2, "127.0.0.1", 2)]
    assert h.base.replicas.leader_and_isr(0, 1, [state], brokers).error == ErrorCode.NONE


def test_a_heartbeat_is_answered_once_its_records_are_replicated_or_their_write_failed(h: Harness) -> None:
    stable_pair(h)
    lead(h, 2, [1, 2])  # broker 2, in the ISR, never fetches: acks=-1 writes time out
    got: list[StreamsHeartbeatResult] = []
    h.sgc.heartbeat(StreamsHeartbeatRequest(GROUP, "c", 0, rebalance_timeout_ms=REBALANCE_MS, topology=WORD_COUNT,
                                            owned=Tasks(), process_id="process-c"), got.append)
    assert got == []  # answered only once written
    h.time.sleep(h.base.coordinator.store.commit_timeout_ms)
    assert [r.error for r in got] == [ErrorCode.COORDINATOR_NOT_AVAILABLE]
    lead(h, 3, [1])
    h.sgc.heartbeat(StreamsHeartbeatRequest(GROUP, "a", 3), got.append)
    assert got[1].error == ErrorCode.NONE  # written at once again


def test_an_older_member_epoch_commits_the_partitions_of_tasks_held_since_then(h: Harness) -> None:
    """Kafka 4.4's StreamsGroup.validateOffsetCommit: a commit at an older member epoch is
    taken for the partitions of active tasks the member got at or before that epoch and
    still holds; the epochs survive a failover."""
    stable_one(h)  # a holds every task from epoch 2
    h.join("b")
    kept = h.beat("a", 2, ALL).assignment
    assert kept is not None
    assert h.beat("a", 2, kept).member_epoch == 3
    b_tasks = h.beat("b", 3, Tasks()).assignment
    assert b_tasks is not None
    topic = {"0": "in", "1": REPARTITION}  # each subtopology's input
    a_task, b_task = next(task_list(kept.active)), next(task_list(b_tasks.active))
    a_part, b_part = (topic[a_task[0]], a_task[1]), (topic[b_task[0]], b_task[1])
    assert h.group.members["a"].task_epochs == {t: 2 for t in task_list(kept.active)}
    assert h.group.members["b"].task_epochs == {t: 3 for t in task_list(b_tasks.active)}
    om = OffsetAndMetadata(5, -1, "", h.time.milliseconds(), None)

    def commit(member_id: str, epoch: int, *partitions: tuple[str, int]) -> set[ErrorCode]:
        got: list[dict] = []
        h.sgc.commit_offsets(GROUP, member_id, epoch, 9, dict.fromkeys(partitions, om), got.append)
        h.time.sleep(0)
        return set(got[0].values())

    for _ in range(2):
        assert commit("a", 2, *[(topic[s], p) for s, p in task_list(kept.active)]) == {ErrorCode.NONE}
        assert commit("a", 2, a_part, b_part) == {ErrorCode.STALE_MEMBER_EPOCH}  # b's task now
        assert commit("a", 4, a_part) == {ErrorCode.STALE_MEMBER_EPOCH}  # newer than a's
        assert commit("a", 2, ("other", 0)) == {ErrorCode.STALE_MEMBER_EPOCH}  # not the topology's
        assert commit("b", 2, b_part) == {ErrorCode.STALE_MEMBER_EPOCH}  # b got it at epoch 3
        assert commit("b", 3, b_part) == {ErrorCode.NONE}
        assert h.sgc.txn_member_error(GROUP, "a", 2, [a_part]) == ErrorCode.NONE
        assert h.sgc.txn_member_error(GROUP, "a", 2, [b_part]) == ErrorCode.STALE_MEMBER_EPOCH
        failover(h)


def test_topics_that_changed_while_the_group_was_not_loaded_start_a_new_epoch(h: Harness) -> None:
    """Kafka notices it by the group record's MetadataHash; josefk by a target assignment
    that no longer covers the configured tasks. Topics as they were: no new epoch."""
    a_tasks, _ = stable_pair(h)
    epoch = h.group.group_epoch
    failover(h)
    assert h.group.group_epoch == epoch
    for name, topic_id in (("in", 1), (REPARTITION, 2), (CHANGELOG, 3)):
        h.topics.add(name, uuid.UUID(int=topic_id), 6)
    failover(h)
    assert (h.group.group_epoch, h.group.state) == (epoch + 1, StreamsGroupState.ASSIGNING)
    h.beat("a", 3, a_tasks)
    assert h.group.assignment_epoch == epoch + 1
    assert {t for target in h.group.target.values() for t in task_list(target.active)} == {
        (s, p) for s in ("0", "1") for p in range(6)}
    failover(h)  # the new epoch was written: no second bump
    assert h.group.group_epoch == epoch + 1
