"""Share records as Kafka 4.4 writes them: josefk's ShareSnapshot and keys in
__share_group_state and a share group's ShareGroup* records in __consumer_offsets, byte for
byte against Kafka's own generated classes (compat/java/ShareStateRecords.java on Kafka
4.4.0's jars), its reading of Kafka's ShareUpdate, and the key's state partition."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest

from josefk.coordinator.share_group import ShareGroup, ShareGroupMember
from josefk.coordinator.share_group_records import group_records, rebuild
from josefk.coordinator.share_state_store import (
    SNAPSHOT,
    UPDATE,
    _apply_update,
    decode_key,
    decode_value,
    encode_key,
    encode_snapshot,
    partition_for,
)
from josefk.replication.share_partition import PersistedState, RecordState, StateBatch
from tests.prerequisites import require_files, require_tools

ROOT = Path(__file__).resolve().parent.parent
KAFKA4_LIB = ROOT / "compat" / ".envs" / "kafka4" / "lib"
TOPIC = uuid.UUID("0123456789abcdef0fedcba987654321")


@pytest.fixture(scope="module")
def kafka_records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    require_tools("java", "javac")
    require_files(KAFKA4_LIB, ["kafka-share-coordinator-4.4.0.jar", "kafka-group-coordinator-4.4.0.jar"],
                  "make kafka4-jars")
    build = tmp_path_factory.mktemp("share-state-java")
    classpath = f"{KAFKA4_LIB}/*"
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", classpath,
                    str(ROOT / "compat" / "java" / "ShareStateRecords.java")], check=True)
    most, least = TOPIC.int >> 64, TOPIC.int & ((1 << 64) - 1)
    signed = [str(v - (1 << 64) if v >= 1 << 63 else v) for v in (most, least)]
    out = subprocess.run(["java", "-cp", f"{build}:{classpath}", "ShareStateRecords", "group-é", *signed, "7"],
                         check=True, capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def test_keys_and_snapshots_match_kafkas_bytes(kafka_records: dict[str, str]) -> None:
    key = ("group-é", TOPIC, 7)
    assert encode_key(SNAPSHOT, key).hex() == kafka_records["snapshot-key"]
    assert encode_key(UPDATE, key).hex() == kafka_records["update-key"]
    state = PersistedState(40, (StateBatch(40, 41, RecordState.AVAILABLE, 2),
                                StateBatch(42, 42, RecordState.ACKNOWLEDGED, 1)), state_epoch=2)
    assert encode_snapshot(state, 1, 3, 5).hex() == kafka_records["snapshot-value"]
    assert decode_key(bytes.fromhex(kafka_records["update-key"])) == (UPDATE, key)
    assert decode_value(SNAPSHOT, bytes.fromhex(kafka_records["snapshot-value"])) == (1, state)
    assert partition_for(key, 50) == int(kafka_records["partition"])


def test_kafkas_updates_apply_over_a_snapshot(kafka_records: dict[str, str]) -> None:
    epoch, update = decode_value(UPDATE, bytes.fromhex(kafka_records["update-value"]))
    assert (epoch, update) == (1, PersistedState(41, (StateBatch(41, 41, RecordState.ARCHIVED, 3),)))
    base = PersistedState(40, (StateBatch(40, 41, RecordState.AVAILABLE, 2),
                               StateBatch(42, 42, RecordState.ACKNOWLEDGED, 1)), state_epoch=2)
    assert _apply_update(base, update) == PersistedState(41, (StateBatch(41, 41, RecordState.ARCHIVED, 3),
                                                               StateBatch(42, 42, RecordState.ACKNOWLEDGED, 1)), 2)


def test_share_group_records_match_kafkas_bytes(kafka_records: dict[str, str]) -> None:
    group = ShareGroup("group-é")
    group.group_epoch = group.assignment_epoch = 5
    group.members["m"] = ShareGroupMember("m", client_id="c", client_host="/h", subscribed_topic_names=("t",),
                                          member_epoch=5, previous_member_epoch=4, assigned={TOPIC: frozenset({0, 1})})
    group.target["m"] = {TOPIC: frozenset({0, 1})}
    ours = {k.hex(): v.hex() for k, v in group_records(group).items()}
    theirs = dict(kafka_records[name].split(":") for name in ("group", "target", "member", "target-member", "current"))
    assert ours == theirs
    back = rebuild("group-é", group_records(group))
    assert (back.group_epoch, back.assignment_epoch, back.members, back.target) == (
        5, 5, group.members, group.target)
