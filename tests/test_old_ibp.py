"""josefk joining a cluster of Kafka brokers that speak an older inter-broker protocol
(issue 12): two Kafka brokers and a josefk broker under one real ZooKeeper, all at one
inter.broker.protocol.version: Kafka 3.9.2 at 2.6, and Kafka 2.8.2 itself at 2.8.

Below 2.7 there is no AlterPartition: a leader writes a new ISR into the partition
state znode itself (conditional on its version) and announces it under
/isr_change_notification, and the controller sends UpdateMetadata for it; controllers
send LeaderAndIsr v4, UpdateMetadata v6 and StopReplica v3, followers fetch with Fetch
v11, and topics have no ids. At 2.8 leaders ask the controller with AlterIsr
(AlterPartition v0, all Kafka 2.8 has), LeaderAndIsr is v5 and UpdateMetadata v7, with
topic ids. With either implementation as controller, a follower (Kafka broker 2) is
killed and restarted under an acks=all producer: the josefk leader and the Kafka leader
each shrink and expand their ISR, visible in ZooKeeper and in every broker's Metadata,
and nothing acknowledged is lost.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from harness.kafka import KAFKA_2_8, KAFKA_3_9
from harness.mixed import MixedCluster, Producing, read_all, wait_for
from harness.zookeeper import ZooKeeperServer

pytestmark = pytest.mark.cluster

KAFKA_IDS, JOSEFK_ID, FOLLOWER = {1, 2}, 3, 2
TOPIC = "old-ibp"
# Partition 0 led by josefk, partition 1 by Kafka; Kafka broker 2 follows both.
ASSIGNMENT = [[3, 1, 2], [1, 3, 2]]
LEADERS = {0: "josefk", 1: "Kafka"}
# replica.lag.time.max.ms well under the ZooKeeper session (5 s with the fixture's
# 250 ms tick): the leaders drop the dead follower before its session expires and the
# controller would.
COMMON = {"zookeeper.session.timeout.ms": "6000", "replica.lag.time.max.ms": "1000",
          "auto.leader.rebalance.enable": "false", "offsets.topic.replication.factor": "3",
          "offsets.topic.num.partitions": "1"}
# (Kafka release, inter.broker.protocol.version of every broker, which implementation is controller)
SHAPES = [(KAFKA_3_9, "2.6", "kafka"), (KAFKA_3_9, "2.6", "josefk"), (KAFKA_2_8, "2.8", "kafka"),
          (KAFKA_2_8, "2.8", "josefk")]


@pytest.fixture(params=SHAPES, ids=[f"kafka-{r.version}-ibp-{ibp}-{c}-controller" for r, ibp, c in SHAPES])
def cluster(request: pytest.FixtureRequest, zookeeper: ZooKeeperServer, tmp_path: Path) -> Iterator[MixedCluster]:
    release, ibp, controller = request.param
    mixed = MixedCluster(zookeeper, tmp_path, KAFKA_IDS, {**COMMON, "inter.broker.protocol.version": ibp},
                         release=release)
    try:
        if controller == "josefk":  # the first broker up is the controller
            mixed.start(JOSEFK_ID)
            wait_for(lambda: (mixed.controller() or (0,))[0] == JOSEFK_ID, 30, "josefk to be the controller")
            mixed.start_all(sorted(KAFKA_IDS))
        else:  # broker 1: the controller is not the follower the test kills
            mixed.start(1)
            wait_for(lambda: (mixed.controller() or (0,))[0] == 1, 30, "Kafka broker 1 to be the controller")
            mixed.start(2)
            mixed.start(JOSEFK_ID)
        yield mixed
    finally:
        mixed.close()


def everywhere(cluster: MixedCluster, isrs: dict[int, list[int]], brokers: set[int]) -> bool:
    """ZooKeeper's partition states have these ISRs with the assigned leaders, and every
    broker in `brokers` answers Metadata with exactly ZooKeeper's leaders and ISRs."""
    states = cluster.partition_states(TOPIC)
    if states != {p: (ASSIGNMENT[p][0], isr) for p, isr in isrs.items()}:
        return False
    return all((cluster.metadata(b, TOPIC) or (0, {}))[1] == states for b in brokers)


def test_isr_changes_at_an_older_inter_broker_protocol(cluster: MixedCluster):
    all_ids = KAFKA_IDS | {JOSEFK_ID}
    controller = cluster.controller()
    assert controller is not None
    admin = AdminClient({"bootstrap.servers": cluster.bootstraps()})
    wait_for(lambda: cluster.registered() == all_ids, 30, "every broker registered")
    wait_for(cluster.controller_known_everywhere, 30, "every broker to know the controller")
    for future in admin.create_topics([NewTopic(TOPIC, num_partitions=len(ASSIGNMENT), replica_assignment=ASSIGNMENT,
                                                config={"min.insync.replicas": "2"})]).values():
        future.result(30)
    full = {p: sorted(r) for p, r in enumerate(ASSIGNMENT)}
    wait_for(lambda: everywhere(cluster, full, all_ids), 60, "every replica in sync, in every broker's Metadata")
    # Every broker answers the same topic id: none (the zero UUID) below 2.8, as Kafka.
    topic_ids = {b: cluster.topic_id(b, TOPIC) for b in sorted(all_ids)}
    assert len(set(topic_ids.values())) == 1, topic_ids
    assert (topic_ids[JOSEFK_ID] == uuid.UUID(int=0)) == (cluster.common["inter.broker.protocol.version"] < "2.8")
    before = {p: cluster.partition_state(TOPIC, p) for p in range(len(ASSIGNMENT))}

    producing = Producing(cluster.bootstraps(), TOPIC, len(ASSIGNMENT))
    try:
        wait_for(lambda: min(producing.acked_per_partition().values()) > 50, 60, "records acknowledged")
        cluster.kill(FOLLOWER)
        shrunk = {p: [r for r in isr if r != FOLLOWER] for p, isr in full.items()}
        wait_for(lambda: everywhere(cluster, shrunk, all_ids - {FOLLOWER}), 30,
                 f"both leaders to drop broker {FOLLOWER} from their ISRs")
        acked = producing.acked_per_partition()
        wait_for(lambda: all(n > acked[p] + 50 for p, n in producing.acked_per_partition().items()), 60,
                 "acks=all records acknowledged by the two replicas left")
        cluster.restart(FOLLOWER)
        wait_for(lambda: everywhere(cluster, full, all_ids), 60, f"both leaders to take broker {FOLLOWER} back")
    finally:
        producing.stop()
    for p, (old, old_version) in before.items():
        state, version = cluster.partition_state(TOPIC, p)
        # Both changes came from the leaders (a controller's own ISR change bumps the leader
        # epoch), each at the next version of the znode: shrink, then expand.
        assert (state["leader"], state["leader_epoch"]) == (old["leader"], old["leader_epoch"]), (LEADERS[p], state)
        assert version >= old_version + 2, (LEADERS[p], version, old_version)
    assert cluster.controller() == controller
    assert not producing.errors, producing.errors[:3]
    served = read_all(cluster.bootstraps(), TOPIC, len(ASSIGNMENT))
    lost = {k: v for k, v in producing.acked.items() if served.get(k) != v}
    assert not lost, f"{len(lost)} of {len(producing.acked)} acknowledged records lost, e.g. {sorted(lost)[:3]}"
