"""broker.rack on a ZooKeeper cluster: registered, answered in metadata, used to place replicas."""

from __future__ import annotations

from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from harness.wire import wait_until

pytestmark = pytest.mark.cluster

RACKS = {1: "host-a", 2: "host-a", 3: "host-b"}  # two brokers on one host, one on another


def test_replicas_of_a_partition_go_to_different_racks(zookeeper, tmp_path: Path) -> None:
    brokers = [BrokerProcess(tmp_path / f"b{i}", overrides={"broker.id": str(i), "broker.rack": rack,
                                                            "zookeeper.connect": zookeeper.connect})
               for i, rack in RACKS.items()]
    try:
        admin = KafkaAdminClient(bootstrap_servers=",".join(b.bootstrap for b in brokers))

        def racks() -> dict[int, str]:
            return {b["broker_id"]: b["rack"] for b in admin.describe_cluster()["brokers"]}

        wait_until(lambda: len(racks()) == 3, "three brokers in the metadata")
        assert racks() == RACKS
        admin.create_topics([NewTopic("placed", 12, 2)])

        # Each describe may ask another broker, one the controller's UpdateMetadata has not
        # reached yet: keep the answer that had all twelve partitions.
        partitions: list[dict] = []

        def all_described() -> bool:
            partitions[:] = admin.describe_topics(["placed"])[0]["partitions"]
            return len(partitions) == 12

        wait_until(all_described, "the topic's partitions in the metadata")
        admin.close()
        placements = [[RACKS[r] for r in p["replica_nodes"]] for p in partitions]
        assert len(placements) == 12
        assert all(sorted(racks) == ["host-a", "host-b"] for racks in placements), placements
    finally:
        for broker in brokers:
            broker.stop()
