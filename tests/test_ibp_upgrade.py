"""An inter.broker.protocol.version upgrade by rolling restart, 2.6 to 3.9, in mixed
josefk/Kafka 3.9.2 clusters under one real ZooKeeper, as Kafka's upgrade notes tell an
operator to do it: every broker at 2.6, then each one in turn shut down (controlled) and
started again at 3.9, the next only once every ISR is full again and a preferred leader
election has given the restarted broker its partition back (as the default
auto.leader.rebalance.enable would); josefk brokers first, the controller last.

The topic is created at 2.6, so its /brokers/topics znode has no topic id. Brokers still at
2.6 and at 3.9 lead partitions side by side meanwhile: a 3.9 leader of a topic without an
id asks the controller with AlterPartition v1, by name (Kafka's AlterPartitionManager),
not v2+ by id. The controller is restarted last; its successor, at 3.9, gives the topic
an id, writes it into the znode and sends it in LeaderAndIsr v7. Under an idempotent
acks=all producer throughout, nothing acknowledged is lost, every broker's Metadata
answers the znode's id, which every replica's partition.metadata file holds, and, after
one more controller election, the josefk broker is sent only 3.9's controller requests
(LeaderAndIsr v7, UpdateMetadata v8) and fetched from with Fetch v12 or later (its
/metrics count requests by version).
"""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from confluent_kafka import Consumer, ElectionType, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from harness.mixed import MixedCluster, Producing, read_all, wait_for
from harness.zookeeper import ZooKeeperServer
from josefk.log.partition_metadata import read_topic_id
from josefk.zk.zk_data import decode_topic_id

pytestmark = pytest.mark.cluster

TOPIC = "upgraded"
# Each broker leads one partition: josefk and Kafka both lead, at either IBP.
ASSIGNMENT = [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
COMMON = {"zookeeper.session.timeout.ms": "6000", "replica.lag.time.max.ms": "1000",
          "auto.leader.rebalance.enable": "false", "offsets.topic.replication.factor": "3",
          "offsets.topic.num.partitions": "1", "inter.broker.protocol.version": "2.6"}
# (the Kafka brokers, the controller); the others are josefk.
SHAPES = [({1, 2}, 1), ({1}, 3)]
REQUEST_COUNT = re.compile(r'^kafka_network_requestmetrics_requests_total\{request="(\w+)",version="(\d+)"\} (\S+)$',
                           re.MULTILINE)


@pytest.fixture(params=SHAPES, ids=["2-kafka-1-josefk-kafka-controller", "1-kafka-2-josefk-josefk-controller"])
def cluster(request: pytest.FixtureRequest, zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[MixedCluster]:
    kafka_ids, controller = request.param
    mixed = MixedCluster(zookeeper, tmp_path, kafka_ids, dict(COMMON))
    try:
        mixed.start(controller)  # the first broker up is the controller
        wait_for(lambda: (mixed.controller() or (0,))[0] == controller, 30, f"broker {controller} to be controller")
        mixed.start_all(sorted({1, 2, 3} - {controller}))
        yield mixed
    finally:
        mixed.close()


def in_sync(cluster: MixedCluster) -> bool:
    """Every ISR is every replica in ZooKeeper, and every broker's Metadata agrees with it."""
    states = cluster.partition_states(TOPIC)
    if {p: isr for p, (_leader, isr) in states.items()} != {p: sorted(r) for p, r in enumerate(ASSIGNMENT)}:
        return False
    return all((cluster.metadata(b, TOPIC) or (0, {}))[1] == states for b in cluster.brokers)


def preferred_leaders_lead(cluster: MixedCluster) -> bool:
    """Ask for a preferred leader election (again, when the controller refuses it or the
    connection to it breaks) unless each partition's first replica leads it."""
    leaders = {p: leader for p, (leader, _isr) in cluster.partition_states(TOPIC).items()}
    if leaders == {p: r[0] for p, r in enumerate(ASSIGNMENT)}:
        return True
    admin = AdminClient({"bootstrap.servers": cluster.bootstraps()})
    try:
        admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(TOPIC, p) for p in range(len(ASSIGNMENT))]
                            ).result(30)
    except KafkaException:
        pass  # asked again on the next call
    return False


def high_watermarks_past(cluster: MixedCluster, producing: Producing) -> bool:
    """Every partition's high watermark is past its last acknowledged offset. A leader just
    elected answers OFFSET_NOT_AVAILABLE until its followers' fetches have moved its high
    watermark to the start of its epoch (KIP-207)."""
    last = {p: max(o for q, o in producing.acked if q == p) for p in range(len(ASSIGNMENT))}
    consumer = Consumer({"bootstrap.servers": cluster.bootstraps(), "group.id": "watermarks"})
    try:
        return all(consumer.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=10)[1] > offset
                   for p, offset in last.items())
    except KafkaException:
        return False
    finally:
        consumer.close()


def requests_seen(cluster: MixedCluster, broker_id: int) -> Counter[tuple[str, int]]:
    """The requests a josefk broker answered since it started, by (name, version)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{cluster.metrics_ports[broker_id]}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return Counter({(name, int(version)): int(float(n)) for name, version, n in REQUEST_COUNT.findall(text)})


def znode_topic_id(cluster: MixedCluster) -> uuid.UUID | None:
    text = json.loads(cluster.zk.get(f"/brokers/topics/{TOPIC}")[0]).get("topic_id")
    return decode_topic_id(text) if text else None


def test_a_rolling_upgrade_from_2_6_to_3_9(cluster: MixedCluster):
    all_ids = {1, 2, 3}
    wait_for(lambda: cluster.registered() == all_ids, 30, "every broker registered")
    wait_for(cluster.controller_known_everywhere, 30, "every broker to know the controller")
    admin = AdminClient({"bootstrap.servers": cluster.bootstraps()})
    for future in admin.create_topics([NewTopic(TOPIC, num_partitions=len(ASSIGNMENT), replica_assignment=ASSIGNMENT,
                                                config={"min.insync.replicas": "2"})]).values():
        future.result(30)
    wait_for(lambda: in_sync(cluster), 60, "every replica in sync")
    assert znode_topic_id(cluster) is None
    assert {cluster.topic_id(b, TOPIC) for b in all_ids} == {uuid.UUID(int=0)}

    controller = cluster.controller()
    assert controller is not None
    producing = Producing(cluster.bootstraps(), TOPIC, len(ASSIGNMENT))
    try:
        wait_for(lambda: min(producing.acked_per_partition().values()) > 50, 60, "records acknowledged")
        cluster.common["inter.broker.protocol.version"] = "3.9"  # for every broker started from now on
        # josefk first, so that it leads at 3.9 while a Kafka broker restarts; the controller last.
        for broker_id in sorted(all_ids - {controller[0]}, key=lambda b: (cluster.is_kafka(b), b)) + [controller[0]]:
            assert cluster.shutdown(broker_id), f"broker {broker_id}'s controlled shutdown"
            cluster.restart(broker_id)
            wait_for(lambda: in_sync(cluster), 60, f"every ISR full again after broker {broker_id}'s restart")
            # Leadership back to the restarted broker (as auto.leader.rebalance.enable would):
            # at 3.9 under a 2.6 controller it leads a topic without an id.
            wait_for(lambda: preferred_leaders_lead(cluster), 60, "the preferred leaders to lead again")
            wait_for(lambda: in_sync(cluster), 60, "every ISR full after the preferred leader election")
            acked = producing.acked_per_partition()
            wait_for(partial(producing.acked_beyond, acked, 20),
                     60,
                     f"records acknowledged on every partition after broker {broker_id}'s restart")
    finally:
        producing.stop()

    topic_id = wait_for(lambda: znode_topic_id(cluster), 30, "the controller to give the topic an id")
    wait_for(lambda: {cluster.topic_id(b, TOPIC) for b in all_ids} == {topic_id}, 30,
             "every broker's Metadata to answer the topic's id")
    assert cluster.controller() != controller  # its successor, at 3.9, gave the id

    # A controller election at the end: the new controller sends every other broker
    # LeaderAndIsr and UpdateMetadata at the versions of its IBP; then a preferred leader
    # election, so that a josefk broker leads a partition and is fetched from.
    josefks = sorted(b for b in all_ids if not cluster.is_kafka(b))
    before, upgraded = {b: requests_seen(cluster, b) for b in josefks}, cluster.controller()
    assert upgraded is not None
    cluster.zk.delete("/controller")
    wait_for(lambda: (cluster.controller() or (0, 0))[1] > upgraded[1], 30, "a controller to be elected again")
    wait_for(cluster.controller_known_everywhere, 30, "every broker to know the new controller")
    wait_for(lambda: in_sync(cluster), 60, "every ISR full after the controller election")
    wait_for(lambda: preferred_leaders_lead(cluster), 60, "the preferred leaders to lead again")
    wait_for(lambda: in_sync(cluster), 60, "every ISR full after the preferred leader election")
    elected = cluster.controller()
    # A josefk broker that is not the controller, whose controller requests come by wire;
    # the first one, which leads a partition, when the only josefk broker is the controller.
    josefk = next((b for b in josefks if elected is None or b != elected[0]), josefks[0])
    expected = {("FetchFollower", 17)} | ({("LeaderAndIsr", 7)} if elected and elected[0] != josefk else set())
    wait_for(lambda: expected <= set(requests_seen(cluster, josefk) - before[josefk]), 30,
             f"{sorted(expected)} at josefk broker {josefk}")
    assert {cluster.topic_id(b, TOPIC) for b in all_ids} == {topic_id} == {znode_topic_id(cluster)}
    # Every replica's partition.metadata, Kafka's and josefk's, holds it.
    assert {read_topic_id(cluster.log_dir(b) / f"{TOPIC}-{p}") for b in all_ids for p in range(len(ASSIGNMENT))} \
        == {topic_id}
    sent = requests_seen(cluster, josefk) - before[josefk]
    controller_requests = {k for k in sent if k[0] in ("LeaderAndIsr", "UpdateMetadata", "StopReplica")}
    assert controller_requests <= {("LeaderAndIsr", 7), ("UpdateMetadata", 8)}, sent
    assert all(version >= 12 for name, version in sent if name == "FetchFollower"), sent

    assert not producing.errors, producing.errors[:3]
    wait_for(lambda: high_watermarks_past(cluster, producing), 30,
             "each leader's high watermark past every acknowledged offset")
    served = read_all(cluster.bootstraps(), TOPIC, len(ASSIGNMENT))
    lost = {k: v for k, v in producing.acked.items() if served.get(k) != v}
    assert not lost, f"{len(lost)} of {len(producing.acked)} acknowledged records lost, e.g. {sorted(lost)[:3]}"
