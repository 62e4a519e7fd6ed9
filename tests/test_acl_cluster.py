"""ACLs on a two-broker ZooKeeper cluster: an ACL added through one broker is in ZooKeeper
where Kafka keeps it and takes effect on the other broker within seconds (the change
notification), removal too; an ACL written straight to ZooKeeper the way Kafka's own
AclAuthorizer writes it is applied as well.

The brokers run with allow.everyone.if.no.acl.found=true: controller and replica traffic
(User:ANONYMOUS, as every PLAINTEXT connection) is allowed while the cluster has no ACL,
and a topic with an ACL is closed to everyone the ACL does not name.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.differential import Side
from tests.test_acl_broker import ACL_AUTHORIZER, acls, metadata

pytestmark = [pytest.mark.cluster]


@pytest.fixture
def cluster(tmp_path: Path, zookeeper: ZooKeeperServer) -> Iterator[list[BrokerProcess]]:
    brokers: list[BrokerProcess] = []
    try:
        for broker_id in (1, 2):
            brokers.append(BrokerProcess(tmp_path / f"broker-{broker_id}", overrides={
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect,
                "authorizer.class.name": ACL_AUTHORIZER, "allow.everyone.if.no.acl.found": "true",
                "offsets.topic.replication.factor": "1", "zookeeper.session.timeout.ms": "6000"}))
        yield brokers
    finally:
        for broker in brokers:
            broker.stop()


def wait_for_error(side: Side, topic: str, error: ErrorCode, timeout: float = 15) -> float:
    """Seconds until the broker answers Metadata for `topic` with `error`."""
    started = time.monotonic()
    while metadata(side, [topic]) != {topic: error}:
        assert time.monotonic() - started < timeout, f"{side.name} never answered {error.name} for {topic}"
        time.sleep(0.05)
    return time.monotonic() - started


def test_acl_change_reaches_the_other_broker(cluster: list[BrokerProcess], zookeeper: ZooKeeperServer):
    first, second = cluster
    admin = KafkaAdminClient(bootstrap_servers=first.bootstrap, request_timeout_ms=30000)
    try:
        admin.create_topics([NewTopic("guarded", 1, 2)])
    finally:
        admin.close()
    one, other = Side("broker 1", first.bootstrap), Side("broker 2", second.bootstrap)
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    try:
        wait_for_error(other, "guarded", ErrorCode.NONE, timeout=30)
        added = acls(first.bootstrap, "--add", "--allow-principal", "User:alice", "--operation", "Read",
                     "--topic", "guarded")
        assert added.returncode == 0, added.stderr
        seconds = wait_for_error(other, "guarded", ErrorCode.TOPIC_AUTHORIZATION_FAILED)
        print(f"ACL added via broker 1 applied on broker 2 after {seconds:.2f} s")
        data, _ = kazoo.get("/kafka-acl/Topic/guarded")
        assert json.loads(data) == {"version": 1, "acls": [
            {"principal": "User:alice", "permissionType": "Allow", "operation": "Read", "host": "*"}]}
        notes = kazoo.get_children("/kafka-acl-changes")
        assert any(kazoo.get(f"/kafka-acl-changes/{n}")[0] == b"TOPIC:guarded" for n in notes)

        removed = acls(second.bootstrap, "--remove", "--topic", "guarded", "--force")
        assert removed.returncode == 0, removed.stderr
        wait_for_error(one, "guarded", ErrorCode.NONE)
        assert not kazoo.exists("/kafka-acl/Topic/guarded")

        # As Kafka's AclAuthorizer (or kafka-acls --authorizer-properties) writes it, straight to ZooKeeper.
        kazoo.create("/kafka-acl-extended/prefixed/Topic/guar", json.dumps({"version": 1, "acls": [
            {"principal": "User:ANONYMOUS", "permissionType": "Deny", "operation": "Describe", "host": "*"}]}).encode(),
            makepath=True)
        kazoo.create("/kafka-acl-extended-changes/acl_changes_", json.dumps(
            {"version": 1, "resourceType": "TOPIC", "name": "guar", "patternType": "PREFIXED"}).encode(),
            sequence=True)
        for side in (other, one):
            wait_for_error(side, "guarded", ErrorCode.TOPIC_AUTHORIZATION_FAILED)
        described = other.call(ApiKey.DescribeAcls, 1, resource_type_filter=2, resource_name_filter="guarded",
                               pattern_type_filter=2, principal_filter=None, host_filter=None, operation=1,
                               permission_type=1)
        assert [(r.resource_name, r.pattern_type, [a.permission_type for a in r.acls]) for r in described.resources] \
            == [("guar", 4, [2])]
    finally:
        one.close()
        other.close()
        kazoo.stop()
        kazoo.close()
