"""The differential comparison with the authorizer on: Apache Kafka 3.9.2 and josefk both run
kafka.security.authorizer.AclAuthorizer with the same ACLs, and the same raw requests from
User:ANONYMOUS (a PLAINTEXT connection) must be answered alike, field by field (with
tests/differential.py's normalisation): which APIs refuse, with which error, where.

The ACLs, seeded into each broker's store before it starts, grant User:ANONYMOUS
ClusterAction (Kafka's controller talks to its own broker as ANONYMOUS) and Create on the
cluster, All on topics prefixed "open-" but Write denied on "open-ro", and Read on group
"g-open". The first case shows what ANONYMOUS is refused (a topic and group it has no ACL
for), the second what it is granted and where a DENY or a missing ACL still refuses.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kazoo.client import KazooClient

from harness.kafka import KafkaBroker
from harness.zookeeper import ZooKeeperServer
from josefk.controller.coordination_store import EmbeddedStore
from josefk.protocol.apis import ApiKey
from josefk.server.broker import STORE_FILE
from tests.conftest import RunningBroker
from tests.differential import SHARED_SETTINGS, Case, Side, Step, run_case
from tests.differential_cases import (
    batch,
    creatable,
    create_topics,
    fetch_request,
    list_offsets,
    produce,
    wait_leaders,
)

pytestmark = [pytest.mark.cluster]

TOPIC = "guarded"
CLUSTER_ACL_PATH = "/kafka-acl/Cluster/kafka-cluster"
CLUSTER_ACLS = json.dumps({"version": 1, "acls": [
    {"principal": "User:ANONYMOUS", "permissionType": "Allow", "operation": op, "host": "*"}
    for op in ("ClusterAction", "Create")]}).encode()
ACLS = {
    CLUSTER_ACL_PATH: CLUSTER_ACLS,
    "/kafka-acl-extended/prefixed/Topic/open-": json.dumps({"version": 1, "acls": [
        {"principal": "User:ANONYMOUS", "permissionType": "Allow", "operation": "All", "host": "*"}]}).encode(),
    "/kafka-acl/Topic/open-ro": json.dumps({"version": 1, "acls": [
        {"principal": "User:ANONYMOUS", "permissionType": "Deny", "operation": "Write", "host": "*"}]}).encode(),
    "/kafka-acl/Group/g-open": json.dumps({"version": 1, "acls": [
        {"principal": "User:ANONYMOUS", "permissionType": "Allow", "operation": "Read", "host": "*"}]}).encode(),
}
SETTINGS = {**SHARED_SETTINGS, "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"}
ANY_ACL = {"principal_filter": None, "host_filter": None, "operation": 1, "permission_type": 1}


def refused(side: Side, _v: int) -> Iterator[Step]:
    yield "create topic", create_topics(side, 7, [creatable(TOPIC)])
    yield "metadata by name", side.call(ApiKey.Metadata, 12, topics=[{"name": TOPIC, "topic_id": None}],
                                        allow_auto_topic_creation=True, include_topic_authorized_operations=False)
    yield "metadata, all topics", side.call(ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                                            include_topic_authorized_operations=False)
    yield "produce", produce(side, TOPIC, 0, batch(1))
    yield "fetch", fetch_request(side, 12, TOPIC, 0, 0)
    yield "list offsets", list_offsets(side, 7, [(0, -1)], topic=TOPIC)
    yield "describe configs", side.call(ApiKey.DescribeConfigs, 4, include_synonyms=False,
                                        include_documentation=False, resources=[
                                            {"resource_type": 2, "resource_name": TOPIC, "configuration_keys": None},
                                            {"resource_type": 4, "resource_name": "0", "configuration_keys": None}])
    yield "alter configs", side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[
        {"resource_type": 2, "resource_name": TOPIC, "configs": [
            {"name": "retention.ms", "config_operation": 0, "value": "1000"}]}])
    yield "create partitions", side.call(ApiKey.CreatePartitions, 3, timeout_ms=5000, validate_only=False,
                                         topics=[{"name": TOPIC, "count": 2, "assignments": None}])
    yield "delete records", side.call(ApiKey.DeleteRecords, 2, timeout_ms=5000, topics=[
        {"name": TOPIC, "partitions": [{"partition_index": 0, "offset": 0}]}])
    yield "find coordinator", side.call(ApiKey.FindCoordinator, 4, key_type=0, coordinator_keys=["g"])
    yield "join group", side.call(ApiKey.JoinGroup, 9, group_id="g", session_timeout_ms=10000,
                                  rebalance_timeout_ms=10000, member_id="", group_instance_id=None,
                                  protocol_type="consumer", protocols=[{"name": "range", "metadata": b""}],
                                  reason=None)
    yield "offset commit", side.call(ApiKey.OffsetCommit, 8, group_id="g", generation_id_or_member_epoch=-1,
                                     member_id="", group_instance_id=None, topics=[{"name": TOPIC, "partitions": [
                                         {"partition_index": 0, "committed_offset": 1, "committed_leader_epoch": -1,
                                          "committed_metadata": ""}]}])
    yield "offset fetch", side.call(ApiKey.OffsetFetch, 7, group_id="g", require_stable=False,
                                    topics=[{"name": TOPIC, "partition_indexes": [0]}])
    yield "describe groups", side.call(ApiKey.DescribeGroups, 5, groups=["g"], include_authorized_operations=False)
    yield "list groups", side.call(ApiKey.ListGroups, 4, states_filter=[])
    yield "delete groups", side.call(ApiKey.DeleteGroups, 2, groups_names=["g"])
    yield "transactional producer id", side.call(ApiKey.InitProducerId, 4, transactional_id="tx",
                                                 transaction_timeout_ms=60000, producer_id=-1, producer_epoch=-1)
    yield "end txn", side.call(ApiKey.EndTxn, 3, transactional_id="tx", producer_id=1, producer_epoch=0,
                               committed=True)
    yield "describe transactions", side.call(ApiKey.DescribeTransactions, 0, transactional_ids=["tx"])
    yield "elect leaders", side.call(ApiKey.ElectLeaders, 2, election_type=0, timeout_ms=5000,
                                     topic_partitions=[{"topic": TOPIC, "partitions": [0]}])
    yield "list reassignments", side.call(ApiKey.ListPartitionReassignments, 0, timeout_ms=5000, topics=None)
    yield "describe acls", side.call(ApiKey.DescribeAcls, 3, resource_type_filter=1, resource_name_filter=None,
                                     pattern_type_filter=1, **ANY_ACL)
    yield "create acls", side.call(ApiKey.CreateAcls, 3, creations=[
        {"resource_type": 2, "resource_name": TOPIC, "resource_pattern_type": 3, "principal": "User:ANONYMOUS",
         "host": "*", "operation": 3, "permission_type": 3}])
    yield "delete acls", side.call(ApiKey.DeleteAcls, 3, filters=[
        {"resource_type_filter": 1, "resource_name_filter": None, "pattern_type_filter": 1, **ANY_ACL}])
    yield "delete topic", side.call(ApiKey.DeleteTopics, 6, timeout_ms=5000, topics=[
        {"name": TOPIC, "topic_id": None}])


def granted(side: Side, _v: int) -> Iterator[Step]:
    yield "create topics", create_topics(side, 7, [creatable("open-1"), creatable("open-ro")])
    wait_leaders(side, "open-1", 1)
    wait_leaders(side, "open-ro", 1)
    yield "metadata, all topics", side.call(ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                                            include_topic_authorized_operations=False)
    yield "produce", produce(side, "open-1", 0, batch(2))
    yield "produce, write denied", produce(side, "open-ro", 0, batch(1))
    yield "fetch", fetch_request(side, 12, "open-1", 0, 0)
    yield "fetch, describe implied", fetch_request(side, 12, "open-ro", 0, 0)
    yield "join group", side.call(ApiKey.JoinGroup, 3, group_id="g-open", session_timeout_ms=10000,
                                  rebalance_timeout_ms=10000, member_id="", protocol_type="consumer",
                                  protocols=[{"name": "range", "metadata": b""}])
    yield "commit", side.call(ApiKey.OffsetCommit, 7, group_id="g-open", generation_id_or_member_epoch=-1,
                              member_id="", group_instance_id=None, topics=[
                                  {"name": n, "partitions": [{"partition_index": 0, "committed_offset": 1,
                                                              "committed_leader_epoch": -1,
                                                              "committed_metadata": ""}]}
                                  for n in ("open-1", TOPIC)])
    yield "offset fetch, all topics", side.call(ApiKey.OffsetFetch, 7, group_id="g-open", require_stable=False,
                                                topics=None)
    yield "idempotent producer id", producer_id(side)
    yield "describe configs", side.call(ApiKey.DescribeConfigs, 4, include_synonyms=False,
                                        include_documentation=False, resources=[
                                            {"resource_type": 2, "resource_name": "open-1",
                                             "configuration_keys": ["retention.ms", "cleanup.policy"]}])
    yield "delete topics", side.call(ApiKey.DeleteTopics, 5, timeout_ms=5000, topic_names=["open-ro", TOPIC])


def refused_more(side: Side, _v: int) -> Iterator[Step]:
    """Group, transaction and admin APIs on resources ANONYMOUS has no ACL for."""
    member = {"member_id": "m", "group_instance_id": None}
    yield "heartbeat", side.call(ApiKey.Heartbeat, 4, group_id="g", generation_id=1, **member)
    yield "sync group", side.call(ApiKey.SyncGroup, 5, group_id="g", generation_id=1, protocol_type="consumer",
                                  protocol_name="range", assignments=[], **member)
    yield "leave group", side.call(ApiKey.LeaveGroup, 5, group_id="g", members=[{**member, "reason": None}])
    yield "offset delete", side.call(ApiKey.OffsetDelete, 0, group_id="g", topics=[
        {"name": "open-1", "partitions": [{"partition_index": 0}]}])
    yield "offset fetch v8", side.call(ApiKey.OffsetFetch, 8, require_stable=False, groups=[
        {"group_id": "g", "topics": None}, {"group_id": "g-open", "topics": [
            {"name": TOPIC, "partition_indexes": [0]}, {"name": "open-1", "partition_indexes": [0]}]}])
    yield "find transaction coordinator", side.call(ApiKey.FindCoordinator, 4, key_type=1, coordinator_keys=["tx"])
    yield "add partitions to txn", side.call(ApiKey.AddPartitionsToTxn, 3, v3_and_below_transactional_id="tx",
                                             v3_and_below_producer_id=1, v3_and_below_producer_epoch=0,
                                             v3_and_below_topics=[{"name": TOPIC, "partitions": [0]}])
    yield "add offsets to txn", side.call(ApiKey.AddOffsetsToTxn, 3, transactional_id="tx", producer_id=1,
                                          producer_epoch=0, group_id="g")
    yield "txn offset commit", side.call(ApiKey.TxnOffsetCommit, 3, transactional_id="tx", group_id="g",
                                         producer_id=1, producer_epoch=0, generation_id=-1, member_id="",
                                         group_instance_id=None, topics=[{"name": TOPIC, "partitions": [
                                             {"partition_index": 0, "committed_offset": 1,
                                              "committed_leader_epoch": -1, "committed_metadata": ""}]}])
    yield "list transactions", side.call(ApiKey.ListTransactions, 1, state_filters=[], producer_id_filters=[],
                                         duration_filter=-1)
    yield "offset for leader epoch", side.call(ApiKey.OffsetForLeaderEpoch, 4, replica_id=-1, topics=[
        {"topic": TOPIC, "partitions": [{"partition": 0, "current_leader_epoch": -1, "leader_epoch": 0}]}])
    yield "alter broker configs", side.call(ApiKey.AlterConfigs, 2, validate_only=True, resources=[
        {"resource_type": 4, "resource_name": "0", "configs": [{"name": "log.cleaner.threads", "value": "2"}]}])
    yield "alter reassignments", side.call(ApiKey.AlterPartitionReassignments, 0, timeout_ms=5000, topics=[
        {"name": TOPIC, "partitions": [{"partition_index": 0, "replicas": [0]}]}])
    yield "describe cluster", side.call(ApiKey.DescribeCluster, 1, include_cluster_authorized_operations=False,
                                        endpoint_type=1, include_fenced_brokers=False)
    yield "metadata v0, all topics", side.call(ApiKey.Metadata, 0, topics=[])


def producer_id(side: Side) -> Any:
    """An idempotent producer's InitProducerId (allowed by Write on the open- topics), once the
    broker has its first producer id block (Kafka answers COORDINATOR_LOAD_IN_PROGRESS until then)."""
    for _ in range(100):
        response = side.call(ApiKey.InitProducerId, 4, transactional_id=None, transaction_timeout_ms=60000,
                             producer_id=-1, producer_epoch=-1)
        if response.error_code != 14:
            return response
        time.sleep(0.1)
    return response


@pytest.fixture(scope="module")
def sides() -> Iterator[tuple[Side, Side]]:
    work = Path(tempfile.mkdtemp(prefix="josefk-differential-acl-"))
    zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
    kafka: KafkaBroker | None = None
    josefk: RunningBroker | None = None
    opened: list[Side] = []
    try:
        kazoo = KazooClient(hosts=zookeeper.connect)
        kazoo.start(timeout=10)
        for path, data in ACLS.items():
            kazoo.create(path, data, makepath=True)
        kazoo.stop()
        kazoo.close()
        (work / "josefk").mkdir()
        store = EmbeddedStore(work / "josefk" / STORE_FILE)
        for path, data in ACLS.items():
            store.create(path, data)
        store.close()
        kafka = KafkaBroker(work / "kafka", zookeeper.connect, broker_id=0, overrides=SETTINGS)
        josefk = RunningBroker(work / "josefk", SETTINGS)
        opened = [Side("josefk", josefk.bootstrap), Side("Kafka", kafka.bootstrap)]
        yield opened[0], opened[1]
    finally:
        for side in opened:
            side.close()
        if josefk is not None:
            josefk.stop()
        if kafka is not None:
            kafka.stop()
        zookeeper.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_anonymous_is_refused_as_by_kafka(sides: tuple[Side, Side]):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "authorizer on", refused), josefk, kafka)
    outcomes: dict[str, Any] = {k: v for k, v in result.kafka.items() if k == "outcome"}
    assert not outcomes, outcomes
    assert len(result.josefk) == len(result.kafka) == 26
    assert not result.differences, "\n".join(d.show() for d in result.differences)


def test_what_acls_grant_is_granted_as_by_kafka(sides: tuple[Side, Side]):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "acls granted", granted), josefk, kafka)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert result.josefk["produce"] == result.kafka["produce"]
    assert not result.differences, "\n".join(d.show() for d in result.differences)


def test_group_transaction_and_admin_apis_refuse_as_kafka(sides: tuple[Side, Side]):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "more refused", refused_more), josefk, kafka)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert not result.differences, "\n".join(d.show() for d in result.differences)
