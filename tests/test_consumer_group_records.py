"""The KIP-848 consumer group records against layouts worked out by hand from Kafka 4.4's
group-coordinator specs (ConsumerGroup*Key/Value.json), their round trips, and Kafka 4.4's
own generated classes reading josefk's bytes (and josefk reading Kafka's)."""

from __future__ import annotations

import os
import struct
import subprocess
import uuid
from pathlib import Path

from josefk.coordinator.consumer_group import ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember, MemberState
from josefk.coordinator.consumer_group_records import (
    ConsumerGroupKey,
    RecordType,
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
    target_assignment_member_value,
    target_assignment_metadata_value,
    write_changes,
)
from josefk.coordinator.group_records import read_key
from tests.prerequisites import require_files, require_tools

ROOT = Path(__file__).resolve().parent.parent
KAFKA4_LIB = ROOT / "compat" / ".envs" / "kafka4" / "lib"
T = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")


def consumer_group_key(data: bytes) -> ConsumerGroupKey:
    """A KIP-848 record key (the records these tests write are all of that kind)."""
    key = read_key(data)
    assert isinstance(key, ConsumerGroupKey), key
    return key


def s16(text: str) -> bytes:  # a non-flexible string: int16 length
    return struct.pack(">h", len(text)) + text.encode()


def test_keys_are_an_int16_key_version_and_non_flexible_strings() -> None:
    group_key = encode_key(ConsumerGroupKey(RecordType.GROUP_METADATA, "g"))
    assert group_key == b"\x00\x03" + s16("g")
    member_key = encode_key(ConsumerGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m1"))
    assert member_key == b"\x00\x08" + s16("g") + s16("m1")
    for kind in RecordType:
        key = ConsumerGroupKey(kind, "grp", None if kind in (3, 4, 6) else "mem")
        assert read_key(encode_key(key)) == key


def test_epoch_values_are_version_0_an_int32_and_no_tagged_fields() -> None:
    assert group_metadata_value(7) == b"\x00\x00" + b"\x00\x00\x00\x07" + b"\x00"
    assert target_assignment_metadata_value(7) == group_metadata_value(7)
    # Kafka 4.1+ writes MetadataHash as tagged field 0 (a uvarint tag, size, int64): read past it.
    with_hash = b"\x00\x00\x00\x00\x00\x09" + b"\x01" + b"\x00\x08" + struct.pack(">q", 1234)
    assert read_group_metadata_value(with_hash) == 9


def test_member_metadata_value_layout() -> None:
    member = ConsumerGroupMember("m1", instance_id=None, rack_id="r", client_id="c", client_host="/h",
                                 subscribed_topic_names=("a", "bb"), subscribed_topic_regex=None,
                                 server_assignor="uniform", rebalance_timeout_ms=300)
    expected = (b"\x00\x00"  # value version 0
                b"\x00"  # InstanceId: null compact string
                b"\x02r"  # RackId: length + 1, bytes
                b"\x02c" b"\x03/h"  # ClientId, ClientHost
                b"\x03" b"\x02a" b"\x03bb"  # SubscribedTopicNames: compact array of 2
                b"\x00"  # SubscribedTopicRegex: null
                b"\x00\x00\x01\x2c"  # RebalanceTimeoutMs 300
                b"\x08uniform"  # ServerAssignor
                b"\x00")  # no tagged fields
    assert member_metadata_value(member) == expected
    assert read_member_metadata_value("m1", expected) == member


def test_assignment_values_layout() -> None:
    target = {T: frozenset({2, 0})}
    partitions = b"\x02" + T.bytes + b"\x03" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x02" + b"\x00"
    assert target_assignment_member_value(target) == b"\x00\x00" + partitions + b"\x00"
    assert read_target_assignment_member_value(target_assignment_member_value(target)) == target
    member = ConsumerGroupMember("m1", member_epoch=5, previous_member_epoch=4,
                                 state=MemberState.UNREVOKED_PARTITIONS, assigned=target,
                                 pending_revocation={T: frozenset({1})},
                                 partition_epochs={(T, 0): 3, (T, 2): 5, (T, 1): 2})

    def with_epochs(*epochs: int) -> bytes:  # TopicPartitions' tagged AssignmentEpochs (tag 0)
        body = bytes([len(epochs) + 1]) + b"".join(struct.pack(">i", e) for e in epochs)
        return b"\x01" + b"\x00" + bytes([len(body)]) + body

    assigned = b"\x02" + T.bytes + b"\x03" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x02" + with_epochs(3, 5)
    pending = b"\x02" + T.bytes + b"\x02" + b"\x00\x00\x00\x01" + with_epochs(2)
    expected = (b"\x00\x00" + b"\x00\x00\x00\x05" + b"\x00\x00\x00\x04" + b"\x01"  # Kafka's UNREVOKED_PARTITIONS
                + assigned + pending + b"\x00")
    assert current_assignment_value(member) == expected
    current = read_current_assignment_value(expected)
    assert (current.member_epoch, current.previous_member_epoch, current.state) == (5, 4, member.state)
    assert current.partition_epochs == member.partition_epochs
    # A record without epochs (Kafka before 4.4) reads as none: the member's epoch stands in.
    assert read_current_assignment_value(b"\x00\x00" + b"\x00\x00\x00\x05" + b"\x00\x00\x00\x04" + b"\x00"
                                         + partitions + b"\x01" + b"\x00").partition_epochs == {}
    assert (current.assigned, current.pending_revocation) == (target, member.pending_revocation)


def test_a_removed_member_is_written_as_tombstones_in_kafkas_order() -> None:
    group = ConsumerGroup("g")
    group.group_epoch = group.assignment_epoch = 1
    for mid in ("m1", "m2"):
        group.update_member(ConsumerGroupMember(mid, member_epoch=1, previous_member_epoch=0))
        group.target[mid] = {T: frozenset({0})}
    stored: dict[bytes, bytes] = {}
    first = write_changes(group, stored, group.touched)
    assert [consumer_group_key(k).type for k, _ in first] == [5, 5, 3, 7, 7, 6, 8, 8]
    assert write_changes(group, stored, {"m1"}) == []  # nothing changed, nothing written
    group.touched.clear()
    group.remove_member("m2")
    group.group_epoch = 2
    records = write_changes(group, stored, group.touched)
    kinds = [(read_key(k), v is None) for k, v in records]
    assert kinds == [(ConsumerGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m2"), True),
                     (ConsumerGroupKey(RecordType.TARGET_ASSIGNMENT_MEMBER, "g", "m2"), True),
                     (ConsumerGroupKey(RecordType.MEMBER_METADATA, "g", "m2"), True),
                     (ConsumerGroupKey(RecordType.GROUP_METADATA, "g"), False)]
    assert stored == {k: v for k, v in group_records(group)}
    deleted = [consumer_group_key(k) for k, v in group_tombstones("g", stored)]
    assert [k.type for k in deleted] == [RecordType.CURRENT_MEMBER_ASSIGNMENT, RecordType.TARGET_ASSIGNMENT_MEMBER,
                                         RecordType.MEMBER_METADATA, RecordType.TARGET_ASSIGNMENT_METADATA,
                                         RecordType.GROUP_METADATA]


def test_kafka_4_4_reads_and_rewrites_josefks_records_byte_for_byte_and_josefk_reads_kafkas(
        tmp_path: Path) -> None:
    """compat/java/ConsumerGroupRecords.java decodes josefk's records with Kafka 4.4.0's
    generated classes and writes them again: the bytes must come back unchanged. Records
    Kafka writes itself, tagged fields and all, must read back in josefk."""
    require_tools("java", "javac")
    require_files(KAFKA4_LIB, ["kafka-group-coordinator-4.4.0.jar", "kafka-clients-4.4.0.jar"],
                  "make kafka4-jars")
    classpath = f"{tmp_path}{os.pathsep}{KAFKA4_LIB}/*"
    subprocess.run(["javac", "-nowarn", "-d", str(tmp_path), "-cp", classpath,
                    str(ROOT / "compat" / "java" / "ConsumerGroupRecords.java")], check=True, timeout=120)
    group = ConsumerGroup("g")
    group.group_epoch = group.assignment_epoch = 3
    group.update_member(ConsumerGroupMember(
        "m1", instance_id="i", rack_id="r", client_id="c", client_host="/h", subscribed_topic_names=("a", "b"),
        subscribed_topic_regex="x.*", server_assignor="range", rebalance_timeout_ms=300, member_epoch=3,
        previous_member_epoch=2, state=MemberState.UNREVOKED_PARTITIONS, assigned={T: frozenset({0, 2})},
        pending_revocation={T: frozenset({1})}, partition_epochs={(T, 0): 1, (T, 2): 3, (T, 1): 2}))
    group.update_member(ConsumerGroupMember("m2", member_epoch=3, previous_member_epoch=3))
    group.update_member(ConsumerGroupMember(  # a classic member of a mixed group
        "m3", subscribed_topic_names=("a",), rebalance_timeout_ms=60_000, member_epoch=3, previous_member_epoch=3,
        classic=ClassicMemberMetadata(10_000, (("range", b"\x00\x01sub"), ("cooperative-sticky", b"")))))
    group.target = {"m1": {T: frozenset({0, 2})}, "m2": {T: frozenset({1, 3})}}
    ours = [f"{k.hex()} {v.hex()}" for k, v in group_records(group) if v is not None]
    res = subprocess.run(["java", "-cp", classpath, "ConsumerGroupRecords"], input="\n".join(ours) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[:len(ours)] == ours
    [m3] = [v for k, v in group_records(group) if v is not None and read_key(k) == ConsumerGroupKey(
        RecordType.MEMBER_METADATA, "g", "m3")]
    assert read_member_metadata_value("m3", m3).classic == group.members["m3"].classic
    kafkas = [tuple(bytes.fromhex(h) for h in line.split()[1:]) for line in lines[len(ours):]]
    assert [read_key(k) for k, _ in kafkas] == [ConsumerGroupKey(RecordType.GROUP_METADATA, "g"),
                                                ConsumerGroupKey(RecordType.TARGET_ASSIGNMENT_METADATA, "g"),
                                                ConsumerGroupKey(RecordType.CURRENT_MEMBER_ASSIGNMENT, "g", "m")]
    assert read_group_metadata_value(kafkas[0][1]) == 9  # past its MetadataHash
    assert read_group_metadata_value(kafkas[1][1]) == 9  # past its AssignmentTimestamp
    current = read_current_assignment_value(kafkas[2][1])
    assert (current.member_epoch, current.previous_member_epoch, current.state) == (
        9, 8, MemberState.UNRELEASED_PARTITIONS)
    assert (current.assigned, current.pending_revocation) == ({T: frozenset({0, 3})}, {})
    assert current.partition_epochs == {(T, 0): 7, (T, 3): 9}
