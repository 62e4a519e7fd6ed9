"""Apache Kafka 3.9's own admin tools against a mixed cluster (issue 12): kafka-topics
--alter (partitions added) and --delete, kafka-reassign-partitions --execute --throttle
and --cancel, kafka-configs on topics and brokers, kafka-consumer-groups --describe and
--reset-offsets. One Kafka 3.9 broker (1) and two josefk brokers (2, 3) under one real
ZooKeeper, started once for the module; every tool is given a josefk broker alone as
its bootstrap. The topic and reassignment tools run twice, once under a Kafka controller
and once under a josefk one (the controller handles CreatePartitions, DeleteTopics and
AlterPartitionReassignments); each tool's effect is checked in ZooKeeper's znodes, in
every broker's own Metadata answer and in the brokers' log dirs. The other way round,
josefk's own topics, configs and consumer-groups tools given the Kafka broker alone
print what Kafka's print.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

from harness.josefk import BrokerProcess
from harness.mixed import MixedCluster, wait_for
from harness.wire import call, connect
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from tests.test_migration import LEADER_ELECTION, REASSIGN, TOPICS, kafka_tool

pytestmark = pytest.mark.cluster


KAFKA_ID, JOSEFK_IDS = 1, (2, 3)
ALL_IDS = (KAFKA_ID, *JOSEFK_IDS)
CONFIGS = "kafka.admin.ConfigCommand"  # kafka-configs.sh: still in core (Scala) in 3.9
GROUPS = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"
# --timeout (ms) as an operator on a busy host passes it: the default 5000 is less than a cold JVM
# on a loaded machine can need for its first answers.
GROUPS_TIMEOUT = ("--timeout", "60000")
OFFSETS_PARTITIONS = 3
# A deleted topic's (and a cancelled replica's) files go a second after the rename, not a
# minute (Kafka's log.segment.delete.delay.ms default), so the tests can wait for them.
# The topic defaults josefk's config/server.properties sets are given to Kafka too: a topic's
# configs from server.properties are not defaults (STATIC_BROKER_CONFIG), and
# kafka-topics --describe lists them from whichever broker its admin client asks.
# A replication quota lets a throttled replica take a whole fetch (replica.fetch.max.bytes,
# 1 MB) whenever its measured rate is under the bound, and forgets a sample after
# replication.quota.window.num (11) windows: with 1 s windows, a throttle of 10 KB/s moves
# 1 MB every 11 s, and the reassignment test's 3 MB arrived in 23 s, less than its Kafka
# tools take at load 25. 10 s windows (110 s) make 10 KB/s hold for a few fetches too.
COMMON = {"zookeeper.session.timeout.ms": "6000", "auto.leader.rebalance.enable": "false",
          "offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": str(OFFSETS_PARTITIONS),
          "log.segment.delete.delay.ms": "1000", "group.initial.rebalance.delay.ms": "0",
          "message.max.bytes": "1048588", "log.retention.hours": "168", "log.segment.bytes": "1073741824",
          "log.index.interval.bytes": "4096", "replication.quota.window.size.seconds": "10"}
JOSEFK = str(Path(sys.executable).with_name("josefk"))
THROTTLE = 10000  # B/s: with 110 s quota windows, a fetch of 1 MB every 100 s or so
PRESET = THROTTLE // 2  # B/s: the throttle in force before the tool sets its own
TOPIC, BROKER = 2, 4  # ConfigResource types


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MixedCluster]:
    """Kafka starts first and so is the first controller."""
    zookeeper = ZooKeeperServer()
    mixed = None
    try:
        mixed = MixedCluster(zookeeper, tmp_path_factory.mktemp("mixed-tools"), {KAFKA_ID}, COMMON)
        mixed.start_all(list(ALL_IDS))
        wait_for(mixed.controller_known_everywhere, 60, "every broker to know the controller")
        yield mixed
    finally:
        if mixed is not None:
            mixed.close()
        zookeeper.stop()


@pytest.fixture(scope="module", params=["kafka", "josefk"])
def controller(request: pytest.FixtureRequest, cluster: MixedCluster) -> int:
    """The controller is of the wanted kind: the brokers of the other kind are shut down
    until one of the wanted kind holds /controller, then started again."""
    wanted = request.param
    found = wait_for(cluster.controller, 30, "a controller")
    if cluster.kind(found[0]) != wanted:
        others = [b for b in ALL_IDS if cluster.kind(b) != wanted]
        for broker_id in others:
            assert cluster.shutdown(broker_id), f"broker {broker_id} did not shut down cleanly"
        wait_for(lambda: (c := cluster.controller()) is not None and cluster.kind(c[0]) == wanted, 60,
                 f"a {wanted} controller")
        for broker_id in others:
            cluster.restart(broker_id)
    wait_for(cluster.controller_known_everywhere, 60, "every broker to know the controller")
    holder = cluster.controller()
    assert holder is not None and cluster.kind(holder[0]) == wanted
    return holder[0]


def wait_equal(get: Callable[[], object], wanted: object, timeout: float, what: str) -> None:
    """Wait until `get()` answers `wanted`; a timeout names the last answer."""
    last: list[object] = []

    def answered() -> bool:
        last.append(get())
        return last[-1] == wanted
    try:
        wait_for(answered, timeout, what)
    except AssertionError as e:
        raise AssertionError(f"{e}: last {last[-1:]}, wanted {wanted}") from None


def josefk_bootstrap(cluster: MixedCluster) -> str:
    """A josefk broker that is not the controller: the admin client finds the controller,
    coordinators and brokers it sends to through that broker's answers."""
    holder = cluster.controller()
    broker_id = next(b for b in JOSEFK_IDS if holder is None or b != holder[0])
    broker = cluster.brokers[broker_id]
    assert isinstance(broker, BrokerProcess)
    return broker.bootstrap


def tool(main_class: str, *args: str) -> str:
    """A Kafka tool that must succeed; its stdout."""
    result = kafka_tool(main_class, *args)
    assert result.returncode == 0, f"{main_class} {args}: {result.stdout}{result.stderr}"
    return result.stdout


def zk_json(cluster: MixedCluster, path: str) -> dict | None:
    found = cluster.zk.exists(path)
    return json.loads(cluster.zk.get(path)[0]) if found else None


def assignment(cluster: MixedCluster, topic: str) -> dict[int, list[int]]:
    data = zk_json(cluster, f"/brokers/topics/{topic}")
    assert data is not None, f"/brokers/topics/{topic} is missing"
    return {int(p): replicas for p, replicas in data["partitions"].items()}


def in_sync_everywhere(cluster: MixedCluster, topic: str, replicas: dict[int, list[int]]) -> bool:
    """ZooKeeper's partition states have every replica in the ISR and the first one
    (the preferred replica) leading, and every broker's Metadata says the same."""
    try:
        states = cluster.partition_states(topic)
    except Exception:  # noqa: BLE001 - a state znode not written yet: ask again
        return False
    wanted = {p: (r[0], sorted(r)) for p, r in replicas.items()}
    if states != wanted:
        return False
    return all(cluster.metadata(b, topic) == (cluster.controller()[0], wanted) for b in ALL_IDS)  # type: ignore[index]


def produce(bootstrap: str, topic: str, per_partition: dict[int, int], size: int = 100) -> None:
    """`per_partition[p]` records of `size` bytes to partition p, acks=all."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 20,
                         "enable.idempotence": True})
    failures: list[KafkaError] = []

    def delivered(err: KafkaError | None, _msg: Message) -> None:
        if err is not None:
            failures.append(err)
    for partition, count in per_partition.items():
        for i in range(count):
            while True:
                try:
                    producer.produce(topic, b"%08d" % i + b"x" * (size - 8), partition=partition,
                                     on_delivery=delivered)
                    break
                except BufferError:
                    producer.poll(0.1)
    assert producer.flush(60) == 0 and not failures, failures[:3]


def replica_dirs(cluster: MixedCluster, topic: str) -> dict[int, set[str]]:
    """By broker, its partition directories of `topic`. Kafka renames a deleted replica's
    to <topic>-<p>.<id>-delete at once and removes it on its delete-logs schedule (seconds
    later), so a renamed one counts as gone."""
    found: dict[int, set[str]] = {}
    for broker_id in ALL_IDS:
        names = {p.name for p in cluster.log_dir(broker_id).iterdir()} if cluster.log_dir(broker_id).exists() else set()
        found[broker_id] = {n for n in names if re.fullmatch(rf"{re.escape(topic)}-\d+", n)}
    return found


def joined(consumer: Consumer, partitions: int) -> bool:
    """A poll came back and the member holds `partitions` partitions."""
    return consumer.poll(0.2) is not None and len(consumer.assignment()) == partitions


def same_log_on_replicas(cluster: MixedCluster, topic: str, partition: int, replicas: list[int]) -> bool:
    """Every replica's active segment of the partition holds the same non-empty bytes."""
    contents = []
    for broker_id in replicas:
        logs = sorted((cluster.log_dir(broker_id) / f"{topic}-{partition}").glob("*.log"))
        if not logs:
            return False
        contents.append(b"".join(p.read_bytes() for p in logs))
    return bool(contents[0]) and all(c == contents[0] for c in contents)


# -- kafka-topics -----------------------------------------------------------------------


def test_kafka_topics_alter_adds_partitions_led_and_replicated_on_both_kinds(cluster: MixedCluster,
                                                                          controller: int) -> None:
    topic, bootstrap = f"grown-by-{cluster.kind(controller)}", josefk_bootstrap(cluster)
    out = tool(TOPICS, "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--replica-assignment", "1:2,2:3")
    assert f"Created topic {topic}." in out
    # Three more with their replicas given (only the new partitions' part is used), led by
    # josefk, Kafka and josefk; then one more the controller places itself.
    tool(TOPICS, "--bootstrap-server", bootstrap, "--alter", "--topic", topic, "--partitions", "5",
         "--replica-assignment", "1:2,2:3,3:1,1:3,2:1")
    tool(TOPICS, "--bootstrap-server", bootstrap, "--alter", "--topic", topic, "--partitions", "6")
    replicas = assignment(cluster, topic)
    assert {p: replicas[p] for p in range(5)} == {0: [1, 2], 1: [2, 3], 2: [3, 1], 3: [1, 3], 4: [2, 1]}
    assert len(replicas) == 6 and len(set(replicas[5])) == 2 and set(replicas[5]) <= set(ALL_IDS), replicas
    wait_for(lambda: in_sync_everywhere(cluster, topic, replicas), 60,
             "every new partition led by its preferred replica with a full ISR, on every broker")
    produce(bootstrap, topic, dict.fromkeys(range(6), 20))
    for partition, brokers in replicas.items():
        assert all((cluster.log_dir(b) / f"{topic}-{partition}").is_dir() for b in brokers)
        wait_for(partial(same_log_on_replicas, cluster, topic, partition, brokers), 30,
                 f"{topic}-{partition}'s replicas to hold the same bytes")
    header = next(line for line in tool(TOPICS, "--bootstrap-server", bootstrap, "--describe", "--topic", topic)
                  .splitlines() if line.startswith("Topic:"))
    assert "\tPartitionCount: 6\t" in header and "\tReplicationFactor: 2\t" in header, header


def test_kafka_topics_delete_removes_the_topic_everywhere(cluster: MixedCluster, controller: int) -> None:
    topic, bootstrap = f"deleted-by-{cluster.kind(controller)}", josefk_bootstrap(cluster)
    tool(TOPICS, "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--replica-assignment",
         "1:2:3,2:3:1,3:1:2", "--config", "retention.ms=86400000")
    replicas = assignment(cluster, topic)
    wait_for(lambda: in_sync_everywhere(cluster, topic, replicas), 60, f"{topic} in sync")
    produce(bootstrap, topic, dict.fromkeys(range(3), 50))
    assert all(len(dirs) == 3 for dirs in replica_dirs(cluster, topic).values())
    assert zk_json(cluster, f"/config/topics/{topic}")["config"] == {"retention.ms": "86400000"}  # type: ignore[index]

    tool(TOPICS, "--bootstrap-server", bootstrap, "--delete", "--topic", topic)
    wait_for(lambda: not any(cluster.zk.exists(p) for p in (
        f"/brokers/topics/{topic}", f"/admin/delete_topics/{topic}", f"/config/topics/{topic}")), 60,
        f"{topic}'s znodes and its deletion marker to go")
    wait_for(lambda: all(cluster.metadata(b, topic) == (controller, {}) for b in ALL_IDS), 30,
             f"every broker to answer {topic} unknown")
    wait_for(lambda: not any(replica_dirs(cluster, topic).values()), 60,
             f"{topic}'s partition directories to go from every log dir")
    listed = tool(TOPICS, "--bootstrap-server", bootstrap, "--list").split()
    assert topic not in listed, listed


# -- kafka-reassign-partitions ----------------------------------------------------------


def throttle_configs(cluster: MixedCluster, topic: str) -> tuple[dict[str, str], dict[int, dict[str, str]]]:
    """The throttle keys in /config/topics/<topic> and /config/brokers/<id>."""
    def throttles(path: str) -> dict[str, str]:
        data = zk_json(cluster, path) or {"config": {}}
        return {k: v for k, v in data["config"].items() if "replication.throttled" in k}

    return throttles(f"/config/topics/{topic}"), {b: throttles(f"/config/brokers/{b}") for b in ALL_IDS}


def alter_configs(address: str, resource_type: int, name: str, configs: dict[str, str]) -> None:
    """IncrementalAlterConfigs v0 (each config SET) of one resource, sent to `address`."""
    cls = request_class(ApiKey.IncrementalAlterConfigs)
    resource = cls.AlterConfigsResource(resource_type=resource_type, resource_name=name, configs=[
        cls.AlterConfigsResource.AlterableConfig(name=k, config_operation=0, value=v) for k, v in configs.items()])
    with connect(address) as sock:
        _cid, response = call(sock, ApiKey.IncrementalAlterConfigs, 0, resources=[resource], validate_only=False)
    assert all(r.error_code == 0 for r in response.responses), response


def applied_rates(cluster: MixedCluster, broker_id: int) -> dict[str, str]:
    """The replication throttle rates the broker applied: its DescribeConfigs of itself."""
    return {name: value for name, value, *_ in dynamic_entries(cluster, broker_id, BROKER, str(broker_id))
            if name.endswith(".replication.throttled.rate")}


def rates(rate: int) -> dict[str, str]:
    return {"leader.replication.throttled.rate": str(rate), "follower.replication.throttled.rate": str(rate)}


def throttle_before_the_move(cluster: MixedCluster, topic: str) -> None:
    """Throttle every replica of `topic` at PRESET on every broker, and wait until each has
    applied it. kafka-reassign-partitions --throttle writes its lists and rates just before
    it starts the move, and a broker applies them when it reads their change notifications,
    which under load can come after the new replicas' first fetches: unthrottled, those
    take the whole partition. A broker reads /config/changes in order, so one that describes
    its new rate has applied the topic's lists, written before."""
    alter_configs(josefk_bootstrap(cluster), TOPIC, topic, {"leader.replication.throttled.replicas": "*",
                                                            "follower.replication.throttled.replicas": "*"})
    for broker_id in ALL_IDS:  # a broker's own configs go to that broker
        alter_configs(cluster.brokers[broker_id].bootstrap, BROKER, str(broker_id), rates(PRESET))
    wait_for(lambda: all(applied_rates(cluster, b) == rates(PRESET) for b in ALL_IDS), 60,
             "every broker to apply the throttle")


def test_kafka_reassign_partitions_throttle_then_cancel_restores_the_replicas(
        cluster: MixedCluster, controller: int, tmp_path: Path) -> None:
    """Partition 0 led by josefk gains a Kafka replica, partition 1 led by Kafka a josefk
    one, each losing another. The throttle holds both back, on both kinds: Kafka's
    follower and josefk's leader hold partition 0's move, Kafka's leader and josefk's
    follower partition 1's, so both stay in progress (a throttle on every replica is in
    force before the tool replaces it with its own). --cancel puts the old replicas back
    and clears the throttles."""
    topic, bootstrap = f"moved-by-{cluster.kind(controller)}", josefk_bootstrap(cluster)
    tool(TOPICS, "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--replica-assignment", "2:3,1:2")
    original = assignment(cluster, topic)
    wait_for(lambda: in_sync_everywhere(cluster, topic, original), 60, f"{topic} in sync")
    produce(bootstrap, topic, {0: 3000, 1: 3000}, size=1000)  # 3 MB a partition: 4 fetches, 300 s at the throttle
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": topic, "partition": 0, "replicas": [2, 1]}, {"topic": topic, "partition": 1, "replicas": [1, 3]}]}))
    reassign = ["--bootstrap-server", bootstrap, "--reassignment-json-file", str(plan)]
    throttle_before_the_move(cluster, topic)

    out = tool(REASSIGN, *reassign, "--execute", "--throttle", str(THROTTLE))
    assert f"The inter-broker throttle limit was set to {THROTTLE} B/s" in out, out
    assert f"Successfully started partition reassignments for {topic}-0,{topic}-1" in out, out
    # the tool's own lists and rate, in place of the ones set before
    topic_throttles, broker_throttles = throttle_configs(cluster, topic)
    assert topic_throttles == {"leader.replication.throttled.replicas": "0:2,0:3,1:1,1:2",
                               "follower.replication.throttled.replicas": "0:1,1:3"}, topic_throttles
    assert broker_throttles == dict.fromkeys(ALL_IDS, rates(THROTTLE)), broker_throttles
    # Each broker answers its own throttle rates (once it applied them) and the topic's
    # throttled replicas alike.
    wait_for(lambda: all(applied_rates(cluster, b) == rates(THROTTLE) for b in ALL_IDS), 60,
             "every broker to apply the tool's rates")
    for broker_id in ALL_IDS:
        described = tool(CONFIGS, "--bootstrap-server", bootstrap, "--describe", "--entity-type", "brokers",
                         "--entity-name", str(broker_id))
        for key, value in rates(THROTTLE).items():
            assert f"{key}={value} sensitive=false synonyms={{DYNAMIC_BROKER_CONFIG:{key}={value}}}" in described, (
                cluster.kind(broker_id), described)
    assert dynamic_entries(cluster, KAFKA_ID, 2, topic) == dynamic_entries(cluster, JOSEFK_IDS[0], 2, topic)

    data = zk_json(cluster, f"/brokers/topics/{topic}")
    assert data is not None and data["partitions"] == {"0": [2, 1, 3], "1": [1, 3, 2]}, data
    assert data["adding_replicas"] == {"0": [1], "1": [3]} and data["removing_replicas"] == {"0": [3], "1": [2]}
    listed = tool(REASSIGN, "--bootstrap-server", bootstrap, "--list")
    assert f"{topic}-0: replicas: 2,1,3. adding: 1. removing: 3." in listed, listed
    assert f"{topic}-1: replicas: 1,3,2. adding: 3. removing: 2." in listed, listed

    out = tool(REASSIGN, *reassign, "--cancel")
    assert f"Successfully cancelled partition reassignments for: {topic}-0,{topic}-1" in out, out
    wait_for(lambda: in_sync_everywhere(cluster, topic, original), 60,
             "the original replicas back, in sync and leading, on every broker")
    data = zk_json(cluster, f"/brokers/topics/{topic}")
    assert data is not None and assignment(cluster, topic) == {0: [2, 3], 1: [1, 2]}, data
    assert data.get("adding_replicas", {}) == {} and data.get("removing_replicas", {}) == {}, data
    assert not cluster.zk.exists("/admin/reassign_partitions")
    # The replicas the cancelled moves had started are deleted (Kafka's 1 of partition 0,
    # josefk's 3 of partition 1); the original ones stay.
    kept = {1: {f"{topic}-1"}, 2: {f"{topic}-0", f"{topic}-1"}, 3: {f"{topic}-0"}}
    wait_equal(lambda: replica_dirs(cluster, topic), kept, 60, "the cancelled replicas' directories to go")
    assert throttle_configs(cluster, topic) == ({}, dict.fromkeys(ALL_IDS, {}))
    assert "No partition reassignments found." in tool(REASSIGN, "--bootstrap-server", bootstrap, "--list")


def dynamic_entries(cluster: MixedCluster, broker_id: int, resource_type: int, name: str) -> list[tuple]:
    """DescribeConfigs (v4, sent to that broker alone, synonyms included) of a resource:
    the entries not from defaults, as (name, value, read_only, source, sensitive, synonyms).
    Synonyms from server.properties are left out: the two kinds' files differ beyond
    COMMON (josefk's config/server.properties)."""
    cls = request_class(ApiKey.DescribeConfigs)
    with connect(cluster.brokers[broker_id].bootstrap) as sock:
        _cid, response = call(sock, ApiKey.DescribeConfigs, 4, resources=[cls.DescribeConfigsResource(
            resource_type=resource_type, resource_name=name, configuration_keys=None)],
            include_synonyms=True, include_documentation=False)
    (result,) = response.results
    assert result.error_code == 0, result
    return sorted((c.name, c.value, c.read_only, c.config_source, c.is_sensitive,
                   [(y.name, y.value, y.source) for y in c.synonyms if y.source != 4])
                  for c in result.configs if c.config_source in (1, 2, 3))


# -- kafka-configs ----------------------------------------------------------------------

TOPIC_RESOURCE, BROKER_RESOURCE = 2, 4


def configs_tool(bootstrap: str, entity: list[str], *args: str) -> str:
    return tool(CONFIGS, "--bootstrap-server", bootstrap, *entity, *args)


def test_kafka_configs_on_topics_and_brokers_of_both_kinds(cluster: MixedCluster) -> None:
    """Topic overrides set and deleted through a josefk broker land in /config/topics and
    every broker describes them alike; per-broker configs of a Kafka and a josefk broker and
    a cluster default land in /config/brokers and each broker describes its own alike."""
    topic, bootstrap = "configured", josefk_bootstrap(cluster)
    tool(TOPICS, "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--replica-assignment", "1:2,2:3")
    entity = ["--entity-type", "topics", "--entity-name", topic]
    out = configs_tool(bootstrap, entity, "--alter", "--add-config",
                       "retention.ms=3600000,cleanup.policy=[compact,delete],max.message.bytes=200000")
    assert f"Completed updating config for topic {topic}." in out, out
    overrides = {"retention.ms": "3600000", "cleanup.policy": "compact,delete", "max.message.bytes": "200000"}
    assert zk_json(cluster, f"/config/topics/{topic}") == {"version": 1, "config": overrides}
    kafka_view = dynamic_entries(cluster, KAFKA_ID, TOPIC_RESOURCE, topic)
    assert {e[0]: (e[1], e[3]) for e in kafka_view} == {k: (v, 1) for k, v in overrides.items()}, kafka_view
    for broker_id in JOSEFK_IDS:
        assert dynamic_entries(cluster, broker_id, TOPIC_RESOURCE, topic) == kafka_view
    configs_tool(bootstrap, entity, "--alter", "--delete-config", "retention.ms")
    assert zk_json(cluster, f"/config/topics/{topic}") == {"version": 1, "config": {
        k: v for k, v in overrides.items() if k != "retention.ms"}}
    kafka_view = dynamic_entries(cluster, KAFKA_ID, TOPIC_RESOURCE, topic)
    assert [e[0] for e in kafka_view] == ["cleanup.policy", "max.message.bytes"]
    assert all(dynamic_entries(cluster, b, TOPIC_RESOURCE, topic) == kafka_view for b in JOSEFK_IDS)

    # Per broker: each request goes to the broker named, Kafka's or josefk's.
    for broker_id in (KAFKA_ID, JOSEFK_IDS[0]):
        out = configs_tool(bootstrap, ["--entity-type", "brokers", "--entity-name", str(broker_id)], "--alter",
                           "--add-config", "log.retention.ms=7200000")
        assert f"Completed updating config for broker {broker_id}." in out, out
        assert zk_json(cluster, f"/config/brokers/{broker_id}") == {
            "version": 1, "config": {"log.retention.ms": "7200000"}}
    out = configs_tool(bootstrap, ["--entity-type", "brokers", "--entity-default"], "--alter", "--add-config",
                       "log.retention.bytes=1073741824")
    assert "Completed updating default config for brokers in the cluster." in out, out
    assert zk_json(cluster, "/config/brokers/<default>") == {"version": 1, "config": {
        "log.retention.bytes": "1073741824"}}

    def own(broker_id: int) -> list[tuple]:
        return [e for e in dynamic_entries(cluster, broker_id, BROKER_RESOURCE, str(broker_id))
                if e[0] in ("log.retention.ms", "log.retention.bytes")]

    wanted = [("log.retention.bytes", "1073741824", False, 3, False,
               [("log.retention.bytes", "1073741824", 3), ("log.retention.bytes", "-1", 5)]),
              ("log.retention.ms", "7200000", False, 2, False,
               [("log.retention.ms", "7200000", 2), ("log.retention.hours", "168", 5)])]
    for broker_id in (KAFKA_ID, JOSEFK_IDS[0]):
        wait_equal(partial(own, broker_id), wanted, 30, f"broker {broker_id} to describe its dynamic configs")
    wait_equal(lambda: own(JOSEFK_IDS[1]), wanted[:1], 30, "the other josefk broker to take the default")
    configs_tool(bootstrap, ["--entity-type", "brokers", "--entity-default"], "--alter", "--delete-config",
                 "log.retention.bytes")
    assert zk_json(cluster, "/config/brokers/<default>") == {"version": 1, "config": {}}
    wait_equal(lambda: own(KAFKA_ID), wanted[1:], 30, "Kafka to drop the deleted default")
    # A topic's config synonyms include the answering broker's own dynamic settings, and
    # the admin clients ask any broker: later tests compare such answers, so none is left.
    for broker_id in (KAFKA_ID, JOSEFK_IDS[0]):
        configs_tool(bootstrap, ["--entity-type", "brokers", "--entity-name", str(broker_id)], "--alter",
                     "--delete-config", "log.retention.ms")
        wait_equal(partial(own, broker_id), [], 30, f"broker {broker_id} to drop its log.retention.ms")


# -- kafka-consumer-groups --------------------------------------------------------------


def java_partition(group: str, partitions: int) -> int:
    """Kafka's partitionFor: Utils.abs(group.hashCode) % partitions."""
    h = 0
    for ch in group.encode("utf-16-be").decode("utf-16-be"):
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    return 0 if h == -(1 << 31) else abs(h) % partitions


def group_led_by(cluster: MixedCluster, kind: str) -> str:
    """A group name whose coordinator (the leader of its __consumer_offsets partition) is a
    broker of `kind`."""
    leaders = {p: leader for p, (leader, _isr) in cluster.partition_states("__consumer_offsets").items()}
    return next(g for g in (f"{kind}-group-{i}" for i in range(1000))
                if cluster.kind(leaders[java_partition(g, OFFSETS_PARTITIONS)]) == kind)


def group_rows(output: str, group: str) -> list[list[str]]:
    """kafka-consumer-groups' table rows of `group` (GROUP TOPIC PARTITION ...), by partition."""
    return sorted((line.split() for line in output.splitlines() if line.split()[:1] == [group]),
                  key=lambda row: int(row[2]))


def reset_rows(output: str, group: str) -> list[list[str]]:
    """--reset-offsets' table (GROUP TOPIC PARTITION NEW-OFFSET) of `group`, by partition: Kafka
    3.9 prints its rows with no line breaks between them, so it is read as words, four a row."""
    words = output.split()
    start = words.index("NEW-OFFSET") + 1
    rows = [words[i:i + 4] for i in range(start, len(words), 4)]
    assert all(len(row) == 4 and row[0] == group for row in rows), output
    return sorted(rows, key=lambda row: int(row[2]))


COORDINATOR_MOVING = (KafkaError.NOT_COORDINATOR, KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
                      KafkaError.COORDINATOR_NOT_AVAILABLE)


def committed(bootstrap: str, group: str, topic: str, partitions: int) -> dict[int, int]:
    """The group's committed offsets. librdkafka gives up on an OffsetFetch a coordinator
    refuses after a few quick retries (CI saw NOT_COORDINATOR surface right after the test's
    leader elections moved coordinators), so this asks again, as the Java consumer does until
    its timeout; a coordinator that never takes over still fails the test."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    wanted = [TopicPartition(topic, p) for p in range(partitions)]
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                return {tp.partition: tp.offset for tp in consumer.committed(wanted, timeout=20)}
            except KafkaException as e:
                if e.args[0].code() not in COORDINATOR_MOVING or time.monotonic() > deadline:
                    raise
    finally:
        consumer.close()


def test_kafka_consumer_groups_describe_and_reset_with_either_coordinator(cluster: MixedCluster) -> None:
    """One group coordinated by Kafka, one by josefk, the same commits in each: both
    describe the same rows, active and inactive; a reset is refused while a member is
    active and, once it left, moves the committed offsets as asked."""
    topic, bootstrap = "grouped", josefk_bootstrap(cluster)
    tool(TOPICS, "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--replica-assignment",
         "1:2:3,2:3:1,3:1:2")
    ends = {0: 10, 1: 20, 2: 30}
    produce(bootstrap, topic, ends)
    committed(bootstrap, "warm-up", topic, 3)  # FindCoordinator creates __consumer_offsets
    wait_for(lambda: cluster.zk.exists("/brokers/topics/__consumer_offsets") and all(
        len(isr) == 3 for _leader, isr in cluster.partition_states("__consumer_offsets").values()), 60,
        "__consumer_offsets in sync")
    # A broker restarted for a controller change leads nothing until a preferred election.
    tool(LEADER_ELECTION, "--bootstrap-server", bootstrap, "--election-type", "preferred", "--topic",
         "__consumer_offsets", "--partition", "0")
    tool(LEADER_ELECTION, "--bootstrap-server", bootstrap, "--election-type", "preferred", "--all-topic-partitions")
    groups = {kind: group_led_by(cluster, kind) for kind in ("kafka", "josefk")}
    commits = {0: 10, 1: 5, 2: 25}
    members = {}
    for kind, group in groups.items():
        consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False,
                             "auto.offset.reset": "earliest", "client.id": f"{kind}-member"})
        consumer.subscribe([topic])
        wait_for(partial(joined, consumer, 3), 60, f"{group} to join")
        consumer.commit(offsets=[TopicPartition(topic, p, o) for p, o in commits.items()], asynchronous=False)
        members[kind] = consumer
    try:
        active = {kind: group_rows(tool(GROUPS, "--bootstrap-server", bootstrap, "--describe", "--group", group,
                                        *GROUPS_TIMEOUT), group) for kind, group in groups.items()}
        for kind, rows in active.items():
            assert [r[1:6] for r in rows] == [[topic, str(p), str(commits[p]), str(ends[p]), str(ends[p] - commits[p])]
                                              for p in range(3)], rows
            assert all(r[6].startswith(f"{kind}-member-") and r[7] == "/127.0.0.1" and r[8] == f"{kind}-member"
                       for r in rows), rows
        refused = kafka_tool(GROUPS, "--bootstrap-server", bootstrap, "--reset-offsets", "--group", groups["josefk"],
                             "--topic", topic, "--to-earliest", "--execute", *GROUPS_TIMEOUT)
        assert (f"Assignments can only be reset if the group '{groups['josefk']}' is inactive, but the current "
                "state is Stable.") in refused.stdout + refused.stderr, refused.stdout + refused.stderr
        assert committed(bootstrap, groups["josefk"], topic, 3) == commits
    finally:
        for consumer in members.values():
            consumer.close()

    for kind, group in groups.items():
        rows = group_rows(tool(GROUPS, "--bootstrap-server", bootstrap, "--describe", "--group", group,
                               *GROUPS_TIMEOUT), group)
        assert [r[1:] for r in rows] == [[topic, str(p), str(commits[p]), str(ends[p]), str(ends[p] - commits[p]),
                                          "-", "-", "-"] for p in range(3)], (kind, rows)
    for kind, group in groups.items():
        out = tool(GROUPS, "--bootstrap-server", bootstrap, "--reset-offsets", "--group", group, "--topic", topic,
                   "--to-earliest", "--execute", *GROUPS_TIMEOUT)
        assert [r[1:] for r in reset_rows(out, group)] == [[topic, str(p), "0"] for p in range(3)], (kind, out)
        assert committed(bootstrap, group, topic, 3) == dict.fromkeys(range(3), 0)
    out = tool(GROUPS, "--bootstrap-server", bootstrap, "--reset-offsets", "--group", groups["josefk"], "--topic",
               f"{topic}:1,2", "--shift-by", "15", "--execute", *GROUPS_TIMEOUT)
    assert [r[1:] for r in reset_rows(out, groups["josefk"])] == [[topic, "1", "15"], [topic, "2", "15"]], out
    assert committed(bootstrap, groups["josefk"], topic, 3) == {0: 0, 1: 15, 2: 15}


# -- josefk's tools through the Kafka broker ----------------------------------------------


def test_josefk_tools_through_the_kafka_broker_print_what_kafkas_print(cluster: MixedCluster) -> None:
    """josefk's topics, configs and consumer-groups tools given the Kafka broker alone as
    bootstrap print what Kafka's own print against the same mixed cluster."""
    kafka = cluster.brokers[KAFKA_ID].bootstrap
    topic, group = "described-both-ways", "described-group"
    made = josefk_tool("topics", "--bootstrap-server", kafka, "--create", "--topic", topic, "--replica-assignment",
                       "1:2,2:3,3:1", "--config", "retention.ms=3600000")
    assert made.returncode == 0 and f"Created topic {topic}." in made.stdout, made.stdout + made.stderr
    replicas = assignment(cluster, topic)
    wait_for(lambda: in_sync_everywhere(cluster, topic, replicas), 60, f"{topic} in sync")
    produce(kafka, topic, {0: 3, 1: 4, 2: 5})
    consumer = Consumer({"bootstrap.servers": kafka, "group.id": group, "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(topic, p, 2) for p in range(3)], asynchronous=False)
    finally:
        consumer.close()
    same = [
        (("topics", "--describe", "--topic", topic), TOPICS, ("--describe", "--topic", topic)),
        (("configs", "--describe", "--entity-type", "topics", "--entity-name", topic), CONFIGS,
         ("--describe", "--entity-type", "topics", "--entity-name", topic)),
        (("consumer-groups", "--describe", "--group", group), GROUPS, ("--describe", "--group", group,
                                                                        *GROUPS_TIMEOUT)),
    ]
    for ours_args, main_class, theirs_args in same:
        wait_tools_agree(kafka, ours_args, main_class, theirs_args)


# Kafka's admin describes topics with DescribeTopicPartitions when the broker it picks (the least
# loaded, at random among equals) serves it, and with Metadata when not: in a mixed cluster its
# topics tool prints empty Elr fields in one run and N/A in the next. Either form matches either.
ELR_FIELDS = re.compile(r"\tElr: (N/A)?\tLastKnownElr: (N/A)?$", re.MULTILINE)
ELR_EITHER = "\tElr: (empty or N/A)"


def wait_tools_agree(bootstrap: str, ours_args: tuple[str, ...], main_class: str, theirs_args: tuple[str, ...]) -> None:
    """Run josefk's tool and Kafka's until they print the same. Each admin client asks
    whichever broker it likes, and a josefk broker applies a new topic's configs from the
    change notification a moment after the topic exists; a lasting difference still fails,
    naming both outputs."""
    last: list[tuple[subprocess.CompletedProcess[str], str]] = []

    def agree() -> bool:
        last[:] = [(josefk_tool(ours_args[0], "--bootstrap-server", bootstrap, *ours_args[1:]),
                    tool(main_class, "--bootstrap-server", bootstrap, *theirs_args))]
        ours, theirs = last[0]
        return ours.returncode == 0 and ELR_FIELDS.sub(ELR_EITHER, ours.stdout) == ELR_FIELDS.sub(ELR_EITHER, theirs)

    try:
        wait_for(agree, 60, f"josefk {ours_args[0]} to print what Kafka's prints")
    except AssertionError:
        ours, theirs = last[0]
        raise AssertionError((ours_args, ours.stdout, ours.stderr, theirs)) from None


def josefk_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=120)
