"""The differential comparison with the authorizer on: Apache Kafka 3.9.2 and josefk both run
kafka.security.authorizer.AclAuthorizer with the same ACLs, and the same raw requests from
User:ANONYMOUS (a PLAINTEXT connection) must be answered alike, field by field (with
tests/differential.py's normalisation): which APIs refuse, with which error, where.

The ACLs, seeded into each broker's store before it starts, grant User:ANONYMOUS
ClusterAction (Kafka's controller talks to its own broker as ANONYMOUS) and Create on the
cluster, All on topics prefixed "open-" but Write denied on "open-ro", and Read on group
"g-open". The first case shows what ANONYMOUS is refused (a topic and group it has no ACL
for), the second what it is granted and where a DENY or a missing ACL still refuses.

Both brokers also have a SASL_PLAINTEXT listener (PLAIN: admin, alice, bob) with User:admin
a super user. The authorized-operations cases (KIP-430) ask Metadata, DescribeGroups and
DescribeCluster for the operations each of admin, alice (some ACLs, among them a wildcard
topic, prefixes, DENYs and a `User:*` DENY), bob (none) and ANONYMOUS may do.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from josefk.protocol.apis import ApiKey
from tests.differential import SHARED_SETTINGS, Case, Side, Step, run_case, sasl_pair, tree
from tests.differential_cases import (
    batch,
    creatable,
    create_token,
    create_topics,
    describe_tokens,
    expire_token,
    fetch_request,
    list_offsets,
    produce,
    renew_token,
    wait_for,
    wait_leaders,
)

pytestmark = [pytest.mark.cluster]

TOPIC = "guarded"
ANONYMOUS, ALICE = "User:ANONYMOUS", "User:alice"
PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret" user_bob="bob-secret";')
SASL_USERS = {"admin": "admin-secret", "alice": "alice-secret", "bob": "bob-secret"}


def _acl(principal: str, operation: str, permission: str = "Allow", host: str = "*") -> dict[str, str]:
    return {"principal": principal, "permissionType": permission, "operation": operation, "host": host}


ACL_ENTRIES = {
    "/kafka-acl/Cluster/kafka-cluster": [_acl(ANONYMOUS, "ClusterAction"), _acl(ANONYMOUS, "Create"),
                                         _acl(ALICE, "Alter"), _acl(ALICE, "AlterConfigs")],
    "/kafka-acl-extended/prefixed/Topic/open-": [_acl(ANONYMOUS, "All"), _acl(ALICE, "Read"),
                                                 _acl(ALICE, "DescribeConfigs")],
    "/kafka-acl/Topic/open-ro": [_acl(ANONYMOUS, "Write", "Deny")],
    "/kafka-acl/Topic/open-ops": [_acl("User:*", "AlterConfigs", "Deny")],
    "/kafka-acl/Topic/open-denied": [_acl(ALICE, "Read", "Deny")],
    "/kafka-acl/Topic/*": [_acl(ALICE, "Write", host="127.0.0.1")],
    "/kafka-acl/Group/g-open": [_acl(ANONYMOUS, "Read"), _acl(ALICE, "Describe")],
    "/kafka-acl-extended/prefixed/Group/g-": [_acl(ALICE, "Delete")],
}
ACLS = {path: json.dumps({"version": 1, "acls": entries}).encode() for path, entries in ACL_ENTRIES.items()}
SETTINGS = {**SHARED_SETTINGS, "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer",
            "super.users": "User:admin", "sasl.enabled.mechanisms": "PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS}
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


def authorized_operations(side: Side, _v: int) -> Iterator[Step]:
    """KIP-430's fields, asked for and not, on topics, groups and the cluster."""
    topics = [{"name": n, "topic_id": None} for n in ("open-ops", "open-denied", TOPIC, "open-missing")]
    yield "metadata v12 by name", side.call(ApiKey.Metadata, 12, topics=topics, allow_auto_topic_creation=False,
                                            include_topic_authorized_operations=True)
    yield "metadata v10, all topics", side.call(ApiKey.Metadata, 10, topics=None, allow_auto_topic_creation=False,
                                                include_cluster_authorized_operations=True,
                                                include_topic_authorized_operations=True)
    yield "metadata v8, cluster only", side.call(ApiKey.Metadata, 8, topics=topics[:1],
                                                 allow_auto_topic_creation=False,
                                                 include_cluster_authorized_operations=True,
                                                 include_topic_authorized_operations=False)
    yield "metadata v11, not asked", side.call(ApiKey.Metadata, 11, topics=topics[:2],
                                               allow_auto_topic_creation=False,
                                               include_topic_authorized_operations=False)
    yield "describe groups v5", side.call(ApiKey.DescribeGroups, 5, groups=["g-open", "g-other", "g"],
                                          include_authorized_operations=True)
    yield "describe groups v3, not asked", side.call(ApiKey.DescribeGroups, 3, groups=["g-open", "g-other"],
                                                     include_authorized_operations=False)
    yield "describe cluster v1", side.call(ApiKey.DescribeCluster, 1, include_cluster_authorized_operations=True,
                                           endpoint_type=1, include_fenced_brokers=False)
    yield "describe cluster v0, not asked", side.call(ApiKey.DescribeCluster, 0,
                                                      include_cluster_authorized_operations=False)


@dataclass
class Brokers:
    """Each broker's PLAINTEXT side (User:ANONYMOUS) and SASL_PLAINTEXT address."""

    josefk: Side
    kafka: Side
    josefk_sasl: str
    kafka_sasl: str

    def __iter__(self) -> Iterator[Side]:  # `josefk, kafka = brokers`
        return iter((self.josefk, self.kafka))

    def as_user(self, user: str | None) -> tuple[Side, Side]:
        """(josefk, Kafka) sides authenticated as `user`; PLAINTEXT's ANONYMOUS for None."""
        if user is None:
            return self.josefk, self.kafka
        return (Side("josefk", self.josefk_sasl, (user, SASL_USERS[user])),
                Side("Kafka", self.kafka_sasl, (user, SASL_USERS[user])))


@pytest.fixture(scope="module")
def sides() -> Iterator[Brokers]:
    with sasl_pair("josefk-differential-acl-", SETTINGS, ACLS) as pair:
        opened = [Side("josefk", pair.josefk_bootstrap), Side("Kafka", pair.kafka_bootstrap)]
        try:
            yield Brokers(opened[0], opened[1], pair.josefk_sasl, pair.kafka_sasl)
        finally:
            for side in opened:
                side.close()


def test_anonymous_is_refused_as_by_kafka(sides: Brokers):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "authorizer on", refused), josefk, kafka)
    outcomes: dict[str, Any] = {k: v for k, v in result.kafka.items() if k == "outcome"}
    assert not outcomes, outcomes
    assert len(result.josefk) == len(result.kafka) == 26
    assert not result.differences, "\n".join(d.show() for d in result.differences)


def test_what_acls_grant_is_granted_as_by_kafka(sides: Brokers):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "acls granted", granted), josefk, kafka)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert result.josefk["produce"] == result.kafka["produce"]
    assert not result.differences, "\n".join(d.show() for d in result.differences)


def tokens_disabled(side: Side, v: int) -> Iterator[Step]:
    """No delegation.token.secret.key: a SASL connection's token requests are refused as disabled."""
    yield "create", tree(create_token(side, v, renewers=("User:bob",)))
    yield "renew", tree(renew_token(side, min(v, 2), b"x", 1))
    yield "expire", tree(expire_token(side, min(v, 2), b"x", -1))
    yield "describe", tree(describe_tokens(side, v, None))
    yield "describe, no owners", tree(describe_tokens(side, v, []))


@pytest.mark.parametrize("v", [0, 3])
def test_delegation_tokens_are_disabled_without_a_secret_as_in_kafka(sides: Brokers, v: int):
    josefk, kafka = sides.as_user("alice")
    result = run_case(Case(ApiKey.CreateDelegationToken, v, "tokens disabled", tokens_disabled), josefk, kafka)
    assert {step["error_code"] for step in result.kafka.values()} == {61}  # DELEGATION_TOKEN_AUTH_DISABLED
    assert not result.differences, "\n".join(d.show() for d in result.differences)


def test_group_transaction_and_admin_apis_refuse_as_kafka(sides: Brokers):
    josefk, kafka = sides
    result = run_case(Case(ApiKey.Metadata, 0, "more refused", refused_more), josefk, kafka)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert not result.differences, "\n".join(d.show() for d in result.differences)


# What each principal may do (bit numbers = AclOperation codes: READ 3, WRITE 4, CREATE 5,
# DELETE 6, ALTER 7, DESCRIBE 8, CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11,
# IDEMPOTENT_WRITE 12): open-ops, open-denied, the cluster, g-open. None: the field is
# omitted (INT32_MIN), the topic or group being refused; [] is 0.
EXPECTED_OPERATIONS = {
    "admin": ([3, 4, 5, 6, 7, 8, 10, 11], [3, 4, 5, 6, 7, 8, 10, 11], [5, 7, 8, 9, 10, 11, 12], [3, 6, 8]),
    "alice": ([3, 4, 8, 10], [4, 8, 10], [7, 8, 10, 11], [6, 8]),
    "bob": (None, None, [], None),
    None: ([3, 4, 5, 6, 7, 8, 10], [3, 4, 5, 6, 7, 8, 10, 11], [], [3, 8]),
}


@pytest.fixture(scope="module")
def ops_resources(sides: Brokers) -> Brokers:
    """The topics and a group of the authorized-operations cases, made by the super user."""
    for side in sides.as_user("admin"):
        created = create_topics(side, 7, [creatable("open-ops"), creatable("open-denied")])
        assert all(t.error_code in (0, 36) for t in created.topics), created
        wait_leaders(side, "open-ops", 1)
        wait_leaders(side, "open-denied", 1)
        wait_for(lambda side=side: commit_ops_group(side) == 0,  # type: ignore[misc]
                 f"{side.name} committed g-other's offset (__consumer_offsets made and loaded)")
        side.close()
    return sides


def commit_ops_group(side: Side) -> int:
    """The commit's error; FindCoordinator first, which creates __consumer_offsets if missing."""
    side.call(ApiKey.FindCoordinator, 4, key_type=0, coordinator_keys=["g-other"])
    committed = side.call(ApiKey.OffsetCommit, 8, group_id="g-other", generation_id_or_member_epoch=-1, member_id="",
                          group_instance_id=None, topics=[{"name": "open-ops", "partitions": [
                              {"partition_index": 0, "committed_offset": 1, "committed_leader_epoch": -1,
                               "committed_metadata": ""}]}])
    return int(committed.topics[0].partitions[0].error_code)


@pytest.mark.parametrize("user", ["admin", "alice", "bob", None], ids=["super user", "alice", "no acls", "anonymous"])
def test_authorized_operations_as_kafka(ops_resources: Brokers, user: str | None):
    josefk, kafka = ops_resources.as_user(user)
    try:
        result = run_case(Case(ApiKey.Metadata, 0, f"authorized operations as {user}", authorized_operations),
                          josefk, kafka)
    finally:
        if user is not None:
            josefk.close()
            kafka.close()
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert not result.differences, "\n".join(d.show() for d in result.differences)
    seen = result.josefk
    topic_ops = {t["name"]: t["authorized_operations"] for t in _items(seen["metadata v12 by name"]["topics"])}
    group_ops = {g["group_id"]: g["authorized_operations"] for g in _items(seen["describe groups v5"]["groups"])}
    cluster_ops = result.josefk["describe cluster v1"]["authorized_operations"]
    assert (topic_ops["open-ops"], topic_ops["open-denied"], cluster_ops, group_ops["g-open"]) == (
        EXPECTED_OPERATIONS[user])
    assert result.josefk["metadata v10, all topics"]["authorized_operations"] == cluster_ops
    assert all(t["authorized_operations"] is None for t in _items(result.josefk["metadata v11, not asked"]["topics"]))


def _items(tree: Any) -> list[Any]:
    """A response array's elements, whether compared in order (a list) or keyed (a dict)."""
    return list(tree.values()) if isinstance(tree, dict) else tree
