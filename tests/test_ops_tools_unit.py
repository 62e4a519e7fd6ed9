"""Pieces of the operator tools that need no broker: Java's hash order, offset specs, offset files."""

from __future__ import annotations

import pytest
from kafka import TopicPartition

from josefk.cli.tools.common import ToolError
from josefk.cli.tools.delete_records import parse_offsets
from josefk.cli.tools.get_offsets import offset_spec
from josefk.utils.java_format import hashed_map_order, java_string_hash

pytestmark = pytest.mark.unit


def test_java_string_hash_is_java_hashcode() -> None:
    # values java.lang.String.hashCode() returns (Java 17), as unsigned 32-bit numbers
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("min.insync.replicas") == 268940301
    assert java_string_hash("\u00e9t\u00e9") == 227742
    assert java_string_hash("\U0001F600") == 1772899  # a surrogate pair: Java hashes UTF-16 units


def test_java_hash_order_matches_kafka_tools_output() -> None:
    # the key orders Kafka 3.9's kafka-log-dirs prints (Jackson over HashMaps)
    assert hashed_map_order(["version", "brokers"], java_string_hash) == ["brokers", "version"]
    assert hashed_map_order(["logDir", "error", "partitions"], java_string_hash) == ["partitions", "error", "logDir"]
    assert hashed_map_order(["partition", "size", "offsetLag", "isFuture"], java_string_hash) == [
        "partition", "size", "offsetLag", "isFuture"]
    # a bigger map is laid out in a bigger table: 13 keys stay in 16 buckets, 13 + 1 go to 32
    keys = [f"k{i}" for i in range(14)]
    assert sorted(hashed_map_order(keys, java_string_hash)) == sorted(keys)


def test_java_hash_order_follows_the_initial_capacity() -> None:
    # Kafka 3.9's kafka-log-dirs printed d1 first for these two dirs (a CI run): the admin
    # client's new HashMap<>(2) has 4 buckets, where d1 falls in 0 and d2 in 3; in a default
    # map of 16 buckets d2 (7) would come before d1 (8)
    d1, d2 = "/tmp/pytest-of-root/pytest-462/ops0/d1", "/tmp/pytest-of-root/pytest-462/ops0/d2"
    assert hashed_map_order([d2, d1], java_string_hash, initial_capacity=2) == [d1, d2]
    assert hashed_map_order([d1, d2], java_string_hash) == [d2, d1]


def test_offset_spec() -> None:
    assert [offset_spec(t) for t in ("latest", "earliest", "max-timestamp", "-1", "-2", "-3", "1700000000000")] == [
        -1, -2, -3, -1, -2, -3, 1700000000000]
    with pytest.raises(ToolError, match="Malformed time argument soon"):
        offset_spec("soon")


def test_parse_offsets() -> None:
    assert parse_offsets('{"partitions": [{"topic": "a", "partition": 1, "offset": 5}]}') == {
        TopicPartition("a", 1): 5}
    with pytest.raises(ToolError, match="duplicate topic partitions: a-1"):
        parse_offsets('{"partitions": [{"topic": "a", "partition": 1, "offset": 5}, '
                      '{"topic": "a", "partition": 1, "offset": 6}]}')
    with pytest.raises(ToolError, match="Invalid partition entry"):
        parse_offsets('{"partitions": [{"topic": "a", "offset": 5}]}')


class _ReassignAdmin:
    """The admin calls reassign-partitions --throttle makes: one move in progress, configs recorded."""

    def __init__(self) -> None:
        self.altered: dict[tuple[int, str], dict] = {}

    def list_partition_reassignments(self) -> dict:
        return {TopicPartition("m", 1): {"replicas": [1, 2, 3], "adding_replicas": [3], "removing_replicas": [2]}}

    def alter_configs(self, resources: list, raise_on_unknown: bool, incremental: bool) -> dict:
        assert incremental and not raise_on_unknown
        for r in resources:
            self.altered[(int(r.resource_type), r.name)] = r.configs
        return {"topic": {r.name: "OK" for r in resources}}


def test_reassign_throttle_lists_sources_as_leaders_and_new_replicas_as_followers(capsys) -> None:
    """Kafka's calculateLeader/FollowerThrottles over the moves in progress and the plan:
    sorted as strings (a TreeSet), every broker of a move given both rates."""
    from josefk.cli.tools.reassign_partitions import _set_throttles

    admin = _ReassignAdmin()
    _set_throttles(admin, {("m", 0): [2, 1], ("m", 10): [4]}, {("m", 0): [2, 3], ("m", 10): [3]}, 1000)
    topic, broker = 2, 4  # ConfigResourceType
    assert admin.altered[(topic, "m")] == {"leader.replication.throttled.replicas": "0:2,0:3,10:3,1:1,1:2",
                                           "follower.replication.throttled.replicas": "0:1,10:4,1:3"}
    rates = {"leader.replication.throttled.rate": "1000", "follower.replication.throttled.rate": "1000"}
    assert {name for (kind, name) in admin.altered if kind == broker} == {"1", "2", "3", "4"}
    assert all(configs == rates for (kind, _), configs in admin.altered.items() if kind == broker)
    assert capsys.readouterr().out == "The inter-broker throttle limit was set to 1000 B/s\n"


@pytest.mark.parametrize("action", ["--verify", "--cancel", "--list"])
def test_reassign_additional_is_for_execute_only(action: str, capsys) -> None:
    """Kafka's validateAndParseArgs: --additional is permitted with --execute alone (checked
    before any broker is asked)."""
    from josefk.cli.tools.reassign_partitions import main

    with pytest.raises(SystemExit) as exited:
        main(["--bootstrap-server", "127.0.0.1:1", action, "--reassignment-json-file", "r.json", "--additional"])
    assert exited.value.code == 2
    assert f'Option "[additional]" can\'t be used with action "[{action[2:]}]"' in capsys.readouterr().err
