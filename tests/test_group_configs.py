"""Dynamic group configs (GROUP config resources, type 32): Kafka 4.4's GroupConfig validation
(coordinator/group_config.py), DescribeConfigs and IncrementalAlterConfigs/AlterConfigs on a
broker, the configs kept in /config/groups/<group> and applied by every broker of a cluster
from the /config/changes notification. The answers asserted here are Kafka 4.4.0's, as its
broker gave them (tests/differential_kafka4.py compares the two side by side)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.coordinator.group_config import BROKER_DEFAULTS, GroupConfigManager, evaluate, validate
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode, KafkaError
from tests.conftest import RunningBroker
from tests.differential import Side
from tests.test_acl_broker import ACL_AUTHORIZER, AdminSide, _principal_hook, acls

SET, DELETE, APPEND = 0, 1, 2
JOSEFK = str(Path(sys.executable).with_name("josefk"))
GROUP = 32


def broker_defaults(**overrides: str) -> dict[str, str]:
    return {**BROKER_DEFAULTS, **{k.replace("_", "."): v for k, v in overrides.items()}}


def refusal(overrides: dict[str, str], broker: dict[str, str] | None = None) -> str | None:
    try:
        validate(overrides, (broker or BROKER_DEFAULTS).__getitem__)
    except KafkaError as e:
        assert e.code == ErrorCode.INVALID_CONFIG
        return e.message
    return None


@pytest.mark.unit
def test_validation_gives_kafka_44s_messages() -> None:
    # Each message as Kafka 4.4.0's broker answered the same IncrementalAlterConfigs.
    assert refusal({"nope.key": "1"}) == "Unknown group config name: nope.key"
    assert refusal({"consumer.session.timeout.ms": "abc"}) == \
        "Invalid value abc for configuration consumer.session.timeout.ms: Not a number of type INT"
    assert refusal({"consumer.session.timeout.ms": ""}) == \
        "Invalid value  for configuration consumer.session.timeout.ms: Not a number of type INT"
    assert refusal({"consumer.session.timeout.ms": "0"}) == \
        "Invalid value 0 for configuration consumer.session.timeout.ms: Value must be at least 1"
    assert refusal({"consumer.session.timeout.ms": "1000"}) == \
        "consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive."
    assert refusal({"consumer.session.timeout.ms": "45000", "consumer.heartbeat.interval.ms": "45000"}) == \
        "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive."
    assert refusal({"share.record.lock.duration.ms": "999"}) == \
        "Invalid value 999 for configuration share.record.lock.duration.ms: Value must be at least 1000"
    assert refusal({"share.record.lock.duration.ms": "14000"}) == \
        "share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive."
    assert refusal({"share.delivery.count.limit": "11"}) == \
        "share.delivery.count.limit must be in the range 2 to 10 inclusive."
    assert refusal({"share.partition.max.record.locks": "100000"}) == \
        "share.partition.max.record.locks must be in the range 100 to 4000 inclusive."
    assert refusal({"share.auto.offset.reset": "EARLIEST"}) == (
        "Invalid value EARLIEST for configuration share.auto.offset.reset: Invalid value `EARLIEST` for "
        "configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format "
        "'by_duration:<PnDTnHnMn.nS>'.")
    assert refusal({"share.auto.offset.reset": "by_duration:xx"}) is not None
    assert refusal({"share.isolation.level": "READ_COMMITTED"}) == (
        "Invalid value READ_COMMITTED for configuration share.isolation.level: String must be one of: "
        "read_committed, read_uncommitted")
    assert refusal({"share.renew.acknowledge.enable": "maybe"}) == (
        "Invalid value maybe for configuration share.renew.acknowledge.enable: Expected value to be either true or "
        "false")
    assert refusal({"streams.num.standby.replicas": "3"}) == \
        "streams.num.standby.replicas must be less than or equal to 2"
    assert refusal({"streams.num.standby.replicas": "-1"}) == \
        "Invalid value -1 for configuration streams.num.standby.replicas: Value must be at least 0"
    assert refusal({"streams.assignor.name": "nope"}) == \
        "streams.assignor.name 'nope' is not a registered task assignor. Registered assignors are: [sticky]."
    assert refusal({"streams.rack.aware.assignment.tags": "a,a"}) == \
        "streams.rack.aware.assignment.tags must not contain duplicate tag keys."
    assert refusal({"errors.deadletterqueue.topic.name": "__x"}) == \
        "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'"
    for fine in ({"consumer.session.timeout.ms": "46000", "consumer.heartbeat.interval.ms": "15000"},
                 {"consumer.session.timeout.ms": " 50000 "}, {"share.auto.offset.reset": "by_duration:PT1H"},
                 {"streams.num.standby.replicas": "2"}, {"streams.num.warmup.replicas": "1"},
                 {"streams.acceptable.recovery.lag": "5"}, {"errors.deadletterqueue.topic.name": "dlq"}):
        assert refusal(fine) is None, fine


@pytest.mark.unit
def test_a_session_must_exceed_its_heartbeat_with_the_brokers_value_for_the_one_not_set() -> None:
    wide = broker_defaults(group_consumer_min_heartbeat_interval_ms="1000",
                           group_consumer_max_heartbeat_interval_ms="50000")
    assert refusal({"consumer.heartbeat.interval.ms": "45000"}, wide) == \
        "consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms"
    assert refusal({"consumer.heartbeat.interval.ms": "44999"}, wide) is None


@pytest.mark.unit
def test_stored_values_are_clamped_into_the_brokers_current_bounds() -> None:
    # Kafka 4.4's GroupConfig.evaluate: bounds narrowed after a value was stored cap it.
    narrow = broker_defaults(group_consumer_max_session_timeout_ms="50000")
    assert evaluate("g", {"consumer.session.timeout.ms": "60000", "share.isolation.level": "read_committed"},
                    narrow.__getitem__) == {"consumer.session.timeout.ms": "50000",
                                            "share.isolation.level": "read_committed"}
    manager = GroupConfigManager(narrow.__getitem__)
    manager.update("g", {"consumer.session.timeout.ms": "60000", "share.auto.offset.reset": " earliest "})
    assert manager.int_value("g", "consumer.session.timeout.ms", 45_000) == 50_000
    assert manager.int_value("other", "consumer.session.timeout.ms", 45_000) == 45_000
    assert manager.str_value("g", "share.auto.offset.reset", "latest") == "earliest"
    manager.update("g", {})
    assert manager.int_value("g", "consumer.session.timeout.ms", 45_000) == 45_000


# -- on a broker --------------------------------------------------------------------------------

def alter(side: Side, group: str, *configs: tuple[str, int, str | None], validate_only: bool = False) -> tuple:
    r = side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=validate_only, resources=[{
        "resource_type": GROUP, "resource_name": group,
        "configs": [{"name": n, "config_operation": op, "value": v} for n, op, v in configs]}])
    return r.responses[0].error_code, r.responses[0].error_message


def describe(side: Side, group: str, keys: list[str] | None = None, documentation: bool = False):  # noqa: ANN201
    r = side.call(ApiKey.DescribeConfigs, 4, include_synonyms=True, include_documentation=documentation,
                  resources=[{"resource_type": GROUP, "resource_name": group, "configuration_keys": keys}])
    return r.results[0]


def rows(result) -> list[tuple]:  # noqa: ANN001 - a DescribeConfigs result
    return sorted((c.name, c.value, c.config_source, c.config_type, [(s.name, s.value, s.source) for s in c.synonyms])
                  for c in result.configs)


# Kafka 4.4.0's answer for a group without configs (its broker's defaults; josefk's broker
# default of group.share.partition.max.record.locks is Kafka 3.9's, 200, where 4.4's is 2000).
DEFAULTS_44 = [
    ("consumer.assignment.interval.ms", "1000", 3, "group.consumer.assignment.interval.ms"),
    ("consumer.heartbeat.interval.ms", "5000", 3, "group.consumer.heartbeat.interval.ms"),
    ("consumer.session.timeout.ms", "45000", 3, "group.consumer.session.timeout.ms"),
    ("errors.deadletterqueue.copy.record.enable", "false", 1, "errors.deadletterqueue.copy.record.enable"),
    ("errors.deadletterqueue.topic.name", "", 2, "errors.deadletterqueue.topic.name"),
    ("share.assignment.interval.ms", "1000", 3, "group.share.assignment.interval.ms"),
    ("share.auto.offset.reset", "latest", 2, "share.auto.offset.reset"),
    ("share.delivery.count.limit", "5", 3, "group.share.delivery.count.limit"),
    ("share.heartbeat.interval.ms", "5000", 3, "group.share.heartbeat.interval.ms"),
    ("share.isolation.level", "read_uncommitted", 2, "share.isolation.level"),
    ("share.partition.max.record.locks", "200", 3, "group.share.partition.max.record.locks"),
    ("share.record.lock.duration.ms", "30000", 3, "group.share.record.lock.duration.ms"),
    ("share.renew.acknowledge.enable", "true", 1, "share.renew.acknowledge.enable"),
    ("share.session.timeout.ms", "45000", 3, "group.share.session.timeout.ms"),
    ("streams.assignment.interval.ms", "1000", 3, "group.streams.assignment.interval.ms"),
    ("streams.assignor.name", "sticky", 2, "group.streams.assignors"),
    ("streams.heartbeat.interval.ms", "5000", 3, "group.streams.heartbeat.interval.ms"),
    ("streams.initial.rebalance.delay.ms", "3000", 3, "group.streams.initial.rebalance.delay.ms"),
    ("streams.num.standby.replicas", "0", 3, "group.streams.num.standby.replicas"),
    ("streams.rack.aware.assignment.tags", "", 7, "group.streams.rack.aware.assignment.tags"),
    ("streams.session.timeout.ms", "45000", 3, "group.streams.session.timeout.ms"),
]


@pytest.fixture(scope="module")
def side(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBroker, Side]]:
    broker = RunningBroker(tmp_path_factory.mktemp("group-configs") / "logs")
    s = Side("josefk", broker.bootstrap)
    yield broker, s
    s.close()
    broker.stop()


@pytest.mark.integration
def test_a_group_without_configs_is_described_with_the_brokers_values(side: tuple[RunningBroker, Side]) -> None:
    _broker, s = side
    result = describe(s, "no-such-group")
    assert (result.error_code, result.error_message) == (0, "")
    assert rows(result) == [(n, v, 5, t, [(syn, v, 5)]) for n, v, t, syn in DEFAULTS_44]
    assert all(not c.read_only and not c.is_sensitive and c.documentation is None for c in result.configs)
    documented = describe(s, "no-such-group", ["consumer.heartbeat.interval.ms"], documentation=True).configs
    assert [c.documentation for c in documented] == ["The heartbeat interval given to the members of a consumer group."]
    empty = describe(s, "")
    assert (empty.error_code, empty.error_message, empty.configs) == (
        ErrorCode.INVALID_REQUEST, "Group name must not be empty", [])


@pytest.mark.integration
def test_configs_are_validated_stored_described_and_applied(side: tuple[RunningBroker, Side]) -> None:
    broker, s = side
    manager = broker.server.group_config_manager
    assert alter(s, "gc-1", ("consumer.heartbeat.interval.ms", SET, "6000"),
                 ("share.auto.offset.reset", SET, "earliest"), ("streams.num.warmup.replicas", SET, "3")) == (0, None)
    store = broker.server.store
    assert store is not None
    assert store.get_json("/config/groups/gc-1") == {"version": 1, "config": {
        "consumer.heartbeat.interval.ms": "6000", "share.auto.offset.reset": "earliest",
        "streams.num.warmup.replicas": "3"}}
    wait_until(lambda: manager.int_value("gc-1", "consumer.heartbeat.interval.ms", 0) == 6000,
               "the broker applied the group's configs from the change notification")
    listed = s.call(ApiKey.ListConfigResources, 1, resource_types=[GROUP]).config_resources
    assert [(r.resource_type, r.resource_name) for r in listed] == [(GROUP, "gc-1")]  # groups with configs only
    described = {r[0]: r for r in rows(describe(s, "gc-1"))}
    # As Kafka 4.4.0: set keys from GROUP_CONFIG (8), the group's value then the default as
    # synonyms; an internal key (streams.num.warmup.replicas) is listed once it is set.
    assert described["consumer.heartbeat.interval.ms"] == ("consumer.heartbeat.interval.ms", "6000", 8, 3, [
        ("consumer.heartbeat.interval.ms", "6000", 8), ("group.consumer.heartbeat.interval.ms", "5000", 5)])
    assert described["share.auto.offset.reset"] == ("share.auto.offset.reset", "earliest", 8, 2, [
        ("share.auto.offset.reset", "earliest", 8), ("share.auto.offset.reset", "latest", 5)])
    assert described["streams.num.warmup.replicas"] == ("streams.num.warmup.replicas", "3", 8, 3, [
        ("streams.num.warmup.replicas", "3", 8), ("group.streams.num.warmup.replicas", "2", 5)])
    assert len(described) == len(DEFAULTS_44) + 1

    assert alter(s, "gc-1", ("consumer.session.timeout.ms", SET, "1000")) == (
        ErrorCode.INVALID_CONFIG, "consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive.")
    assert alter(s, "gc-1", ("nope.key", SET, "1")) == (ErrorCode.INVALID_CONFIG, "Unknown group config name: nope.key")
    assert alter(s, "gc-1", ("consumer.session.timeout.ms", APPEND, "1")) == (
        ErrorCode.INVALID_CONFIG, "Can't APPEND to key consumer.session.timeout.ms because its type is not LIST.")
    assert alter(s, "gc-1", ("streams.rack.aware.assignment.tags", APPEND, "a")) == (
        ErrorCode.INVALID_CONFIG,
        "Can't APPEND to key streams.rack.aware.assignment.tags because its type is not LIST.")
    assert alter(s, "", ("consumer.session.timeout.ms", SET, "50000")) == (
        ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")
    assert alter(s, "gc-1", ("consumer.session.timeout.ms", SET, "50000"), validate_only=True) == (0, None)
    assert "consumer.session.timeout.ms" not in (store.get_json("/config/groups/gc-1") or {})["config"]

    # AlterConfigs replaces them all, as Kafka 4.4.0's.
    r = s.call(ApiKey.AlterConfigs, 2, validate_only=False, resources=[{
        "resource_type": GROUP, "resource_name": "gc-1", "configs": [{"name": "consumer.session.timeout.ms",
                                                                       "value": "50000"}]}])
    assert (r.responses[0].error_code, r.responses[0].error_message) == (0, None)
    wait_until(lambda: manager.overrides("gc-1") == {"consumer.session.timeout.ms": "50000"},
               "the replaced configs applied")
    assert alter(s, "gc-1", ("consumer.session.timeout.ms", DELETE, None)) == (0, None)
    assert not store.exists("/config/groups/gc-1")
    wait_until(lambda: manager.overrides("gc-1") == {}, "the deleted configs applied")


@pytest.mark.cluster
def test_a_groups_configs_reach_every_broker_of_a_cluster(tmp_path: Path) -> None:
    zookeeper = ZooKeeperServer()
    brokers: list[RunningBroker] = []
    kazoo = KazooClient(hosts=zookeeper.connect)
    first: Side | None = None
    try:
        for broker_id in (1, 2):
            brokers.append(RunningBroker(tmp_path / f"b{broker_id}", {
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect}))
        first = Side("b1", brokers[0].bootstrap)
        assert alter(first, "spread", ("share.record.lock.duration.ms", SET, "20000")) == (0, None)
        wait_until(lambda: all(b.server.group_config_manager.overrides("spread") ==
                               {"share.record.lock.duration.ms": "20000"} for b in brokers),
                   "both brokers applied the group's configs", timeout=30)
        kazoo.start(timeout=10)
        data, _ = kazoo.get("/config/groups/spread")
        assert json.loads(data) == {"version": 1, "config": {"share.record.lock.duration.ms": "20000"}}
        notes = [json.loads(kazoo.get(f"/config/changes/{n}")[0]) for n in kazoo.get_children("/config/changes")]
        assert {"version": 2, "entity_path": "groups/spread"} in notes
        # A broker that starts later reads every group's configs.
        brokers.append(RunningBroker(tmp_path / "b3", {"broker.id": "3", "zookeeper.connect": zookeeper.connect}))
        wait_until(lambda: brokers[2].server.group_config_manager.int_value(
            "spread", "share.record.lock.duration.ms", 0) == 20000, "the new broker read the group's configs")
    finally:
        if first is not None:
            first.close()
        kazoo.stop()
        kazoo.close()
        for b in brokers:
            b.stop()
        zookeeper.stop()


@pytest.mark.integration
def test_josefk_configs_alters_and_describes_a_groups_configs(side: tuple[RunningBroker, Side]) -> None:
    """Kafka 4.4's kafka-configs (ConfigCommand) flags and output for groups."""
    broker = side[0]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([JOSEFK, "configs", "--bootstrap-server", broker.bootstrap, *args],
                              capture_output=True, text=True, timeout=60)

    done = run("--entity-type", "groups", "--entity-name", "cli-g", "--alter", "--add-config",
               "consumer.session.timeout.ms=50000,consumer.heartbeat.interval.ms=6000")
    assert (done.returncode, done.stdout) == (0, "Completed updating config for group cli-g.\n"), done.stderr
    dynamic = ("Dynamic configs for group cli-g are:\n"
               "  consumer.heartbeat.interval.ms=6000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
               "consumer.heartbeat.interval.ms=6000, DEFAULT_CONFIG:group.consumer.heartbeat.interval.ms=5000}\n"
               "  consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
               "consumer.session.timeout.ms=50000, DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}\n")
    assert run("--entity-type", "groups", "--entity-name", "cli-g", "--describe").stdout == dynamic
    assert run("--group", "cli-g", "--describe").stdout == dynamic
    assert dynamic in run("--entity-type", "groups", "--describe").stdout  # every group with configs
    every = run("--group", "cli-g", "--describe", "--all").stdout.splitlines()
    assert every[0] == "All configs for group cli-g are:" and len(every) == 1 + len(DEFAULTS_44)
    assert "  share.isolation.level=read_uncommitted sensitive=false synonyms={DEFAULT_CONFIG:" \
           "share.isolation.level=read_uncommitted}" in every
    assert run("--group", "nobody", "--describe").stdout == \
        "The group 'nobody' doesn't exist and doesn't have dynamic config.\n"
    refused = run("--group", "cli-g", "--alter", "--add-config", "consumer.session.timeout.ms=1")
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-1] == ("org.apache.kafka.common.errors.InvalidConfigurationException: "
                                               "consumer.session.timeout.ms must be in the range 45000 to 60000 "
                                               "inclusive.")
    not_set = run("--group", "cli-g", "--alter", "--delete-config", "share.isolation.level")
    assert (not_set.returncode, not_set.stderr) == (1, "Invalid config(s): share.isolation.level\n")
    deleted = run("--group", "cli-g", "--alter", "--delete-config",
                  "consumer.session.timeout.ms,consumer.heartbeat.interval.ms")
    assert deleted.returncode == 0, deleted.stderr
    assert run("--group", "cli-g", "--describe").stdout == \
        "The group 'cli-g' doesn't exist and doesn't have dynamic config.\n"


@pytest.mark.integration
def test_group_configs_are_authorized_on_the_group(tmp_path: Path) -> None:
    """As Kafka: DESCRIBE_CONFIGS / ALTER_CONFIGS on the GROUP resource (an ALL ACL on the group
    grants both), GROUP_AUTHORIZATION_FAILED otherwise."""
    broker = RunningBroker(tmp_path / "logs", {"authorizer.class.name": ACL_AUTHORIZER, "super.users": "User:admin"})
    _principal_hook(broker)
    anonymous, admin = Side("anonymous", broker.bootstrap), AdminSide("admin", broker.bootstrap)
    try:
        refused = describe(anonymous, "secret")
        assert (refused.error_code, refused.error_message, refused.configs) == (
            ErrorCode.GROUP_AUTHORIZATION_FAILED, "Group authorization failed.", [])
        assert alter(anonymous, "secret", ("consumer.session.timeout.ms", SET, "50000")) == (
            ErrorCode.GROUP_AUTHORIZATION_FAILED, None)
        assert alter(admin, "secret", ("consumer.session.timeout.ms", SET, "50000")) == (0, None)
        added = acls(broker.bootstrap, "--add", "--allow-principal", "User:ANONYMOUS", "--operation", "All",
                     "--group", "secret")
        assert added.returncode == 0, added.stderr
        wait_until(lambda: describe(anonymous, "secret").error_code == 0, "the ACL let the anonymous user in")
        assert alter(anonymous, "secret", ("consumer.session.timeout.ms", DELETE, None)) == (0, None)
    finally:
        anonymous.close()
        admin.close()
        broker.stop()
