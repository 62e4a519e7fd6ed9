"""A broker with authorizer.class.name=kafka.security.authorizer.AclAuthorizer, as User:ANONYMOUS
(the principal of every PLAINTEXT connection, as in Kafka): with no ACL each API refuses with
its own error and serves no data; `josefk acls --add` opens what a producer and a consumer
need, and real clients then work; Metadata hides the topics they may not describe.

Test-only principal hook: until SASL gives connections other principals, the in-process
broker's KafkaApis.handle is wrapped so that requests whose client id is "admin" or
"josefk-tools" (the tools' client id) run as User:admin, a super user. Nothing in the broker
knows of this; everything else is User:ANONYMOUS.

The authorized-operations tests (KIP-430) authenticate for real instead: SASL PLAIN users
admin (a super user), alice and bob, through kafka-python's and the Java AdminClient.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import ACL, ACLOperation, ACLPermissionType, NewTopic, ResourcePattern, ResourceType
from kafka.errors import CoordinatorNotAvailableError
from kafka.structs import OffsetAndMetadata, TopicPartition

from harness.wire import encode_request, wait_until
from josefk.cli.kafka_messages import response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.record_codec import Record, build_batch
from josefk.server.network.request_channel import Request
from josefk.server.network.security.principal import KafkaPrincipal
from tests.conftest import RunningBroker
from tests.differential import Side

pytestmark = [pytest.mark.integration]

JOSEFK = str(Path(sys.executable).with_name("josefk"))
ADMIN = KafkaPrincipal("User", "admin")
ADMIN_CLIENTS = {"admin", "josefk-tools"}
ACL_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"


class AdminSide(Side):
    """Raw requests with client id "admin": User:admin through the test hook."""

    def request(self, api_key: int, version: int, body: Any) -> Any:
        framed = encode_request(api_key, version, body, correlation_id=self._correlation + 1, client_id="admin")
        return response_class(api_key).decode(self.send(api_key, version, framed[4:]), version=version)


def _principal_hook(running: RunningBroker) -> None:
    handle = running.server.apis.handle

    def as_principal(request: Request[ApiMessage]) -> None:
        if request.header.client_id in ADMIN_CLIENTS:
            request.principal = ADMIN
        handle(request)

    running.server.apis.handle = as_principal  # type: ignore[method-assign]


@pytest.fixture
def abroker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", {"authorizer.class.name": ACL_AUTHORIZER, "super.users": "User:admin"})
    _principal_hook(running)
    yield running
    running.stop()


def acls(bootstrap: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, "acls", "--bootstrap-server", bootstrap, *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def create_topic(admin: Side, name: str) -> None:
    r = admin.call(ApiKey.CreateTopics, 4, timeout_ms=10000, validate_only=False, topics=[{
        "name": name, "num_partitions": 1, "replication_factor": 1, "assignments": [], "configs": []}])
    assert r.topics[0].error_code == 0, r


def metadata(side: Side, topics: list[str] | None, version: int = 9) -> dict[str, int]:
    r = side.call(ApiKey.Metadata, version, topics=None if topics is None else [{"name": t} for t in topics],
                  allow_auto_topic_creation=True, include_topic_authorized_operations=False)
    return {t.name: t.error_code for t in r.topics}


def test_every_api_refuses_anonymous_without_acls(abroker: RunningBroker):
    admin, anon = AdminSide("admin", abroker.bootstrap), Side("anonymous", abroker.bootstrap)
    try:
        create_topic(admin, "secret")
        records = build_batch([Record(0, 1_764_000_000_000, b"k", b"v")])
        r = anon.call(ApiKey.Produce, 9, transactional_id=None, acks=-1, timeout_ms=5000, topic_data=[
            {"name": "secret", "partition_data": [{"index": 0, "records": records}]}])
        assert r.responses[0].partition_responses[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        # the transactional id is checked only for transactional records, as Kafka checks it
        r = anon.call(ApiKey.Produce, 9, transactional_id="tx", acks=-1, timeout_ms=5000, topic_data=[
            {"name": "secret", "partition_data": [{"index": 0, "records": records}]}])
        assert r.responses[0].partition_responses[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        txn_records = build_batch([Record(0, 1_764_000_000_000, b"k", b"v")], producer_id=1, producer_epoch=0,
                                  base_sequence=0, is_transactional=True)
        r = anon.call(ApiKey.Produce, 9, transactional_id="tx", acks=-1, timeout_ms=5000, topic_data=[
            {"name": "secret", "partition_data": [{"index": 0, "records": txn_records}]}])
        assert r.responses[0].partition_responses[0].error_code == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        r = admin.call(ApiKey.Produce, 9, transactional_id=None, acks=-1, timeout_ms=5000, topic_data=[
            {"name": "secret", "partition_data": [{"index": 0, "records": records}]}])
        assert r.responses[0].partition_responses[0].error_code == ErrorCode.NONE  # the data is there

        fetch = {"replica_id": -1, "max_wait_ms": 0, "min_bytes": 1, "max_bytes": 1 << 20, "isolation_level": 0,
                 "session_id": 0, "session_epoch": -1, "forgotten_topics_data": [], "rack_id": "", "topics": [
                     {"topic": "secret", "partitions": [{"partition": 0, "current_leader_epoch": -1,
                                                         "fetch_offset": 0, "log_start_offset": -1,
                                                         "partition_max_bytes": 1 << 20}]}]}
        part = anon.call(ApiKey.Fetch, 11, **fetch).responses[0].partitions[0]
        assert part.error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED and not part.records
        assert admin.call(ApiKey.Fetch, 11, **fetch).responses[0].partitions[0].records  # the admin reads it
        r = anon.call(ApiKey.ListOffsets, 5, replica_id=-1, isolation_level=0, topics=[
            {"name": "secret", "partitions": [{"partition_index": 0, "current_leader_epoch": -1, "timestamp": -1}]}])
        assert r.topics[0].partitions[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED

        assert "secret" not in metadata(anon, None)  # hidden from all-topics
        assert metadata(anon, ["secret"]) == {"secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED}
        assert metadata(anon, ["brand-new"]) == {"brand-new": ErrorCode.TOPIC_AUTHORIZATION_FAILED}
        assert metadata(admin, None) == {"secret": ErrorCode.NONE}  # and not auto-created

        r = anon.call(ApiKey.CreateTopics, 4, timeout_ms=5000, validate_only=False, topics=[{
            "name": "mine", "num_partitions": 1, "replication_factor": 1, "assignments": [], "configs": []}])
        assert r.topics[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.DeleteTopics, 4, topic_names=["secret"], timeout_ms=5000)
        assert r.responses[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.CreatePartitions, 1, timeout_ms=5000, validate_only=False, topics=[
            {"name": "secret", "count": 2, "assignments": None}])
        assert r.results[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.DescribeConfigs, 2, include_synonyms=False, resources=[
            {"resource_type": 2, "resource_name": "secret", "configuration_keys": None},
            {"resource_type": 4, "resource_name": "0", "configuration_keys": None}])
        assert [x.error_code for x in r.results] == [ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                     ErrorCode.CLUSTER_AUTHORIZATION_FAILED]
        r = anon.call(ApiKey.DeleteRecords, 1, timeout_ms=5000, topics=[
            {"name": "secret", "partitions": [{"partition_index": 0, "offset": 1}]}])
        assert r.topics[0].partitions[0].error_code == ErrorCode.TOPIC_AUTHORIZATION_FAILED

        r = anon.call(ApiKey.FindCoordinator, 2, key="g", key_type=0)
        assert r.error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.JoinGroup, 5, group_id="g", session_timeout_ms=10000, rebalance_timeout_ms=10000,
                      member_id="", group_instance_id=None, protocol_type="consumer",
                      protocols=[{"name": "range", "metadata": b""}])
        assert r.error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.OffsetCommit, 2, group_id="g", generation_id_or_member_epoch=-1, member_id="",
                      retention_time_ms=-1, topics=[{"name": "secret", "partitions": [
                          {"partition_index": 0, "committed_offset": 1, "committed_metadata": ""}]}])
        assert r.topics[0].partitions[0].error_code == ErrorCode.GROUP_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.InitProducerId, 1, transactional_id=None, transaction_timeout_ms=60000)
        assert r.error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.InitProducerId, 1, transactional_id="tx", transaction_timeout_ms=60000)
        assert r.error_code == ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.ElectLeaders, 1, election_type=0, timeout_ms=5000, topic_partitions=[
            {"topic": "secret", "partitions": [0]}])
        assert r.error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        r = anon.call(ApiKey.DescribeAcls, 1, resource_type_filter=1, resource_name_filter=None,
                      pattern_type_filter=1, principal_filter=None, host_filter=None, operation=1, permission_type=1)
        assert r.error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    finally:
        admin.close()
        anon.close()


def test_acls_added_with_the_tool_let_real_clients_in(abroker: RunningBroker):
    admin = AdminSide("admin", abroker.bootstrap)
    try:
        create_topic(admin, "orders")
        create_topic(admin, "hidden")
    finally:
        admin.close()
    added = acls(abroker.bootstrap, "--add", "--allow-principal", "User:ANONYMOUS", "--producer", "--consumer",
                 "--topic", "orders", "--group", "billing")
    assert added.returncode == 0, added.stderr
    assert ("Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: \n"
            " \t(principal=User:ANONYMOUS, host=*, operation=READ, permissionType=ALLOW)") in added.stdout
    assert "Current ACLs for resource `ResourcePattern(resourceType=GROUP, name=billing, patternType=LITERAL)`" \
        in added.stdout

    producer = KafkaProducer(bootstrap_servers=abroker.bootstrap, acks="all")
    try:
        for i in range(5):
            producer.send("orders", b"order-%d" % i).get(timeout=30)
    finally:
        producer.close()
    consumer = KafkaConsumer("orders", bootstrap_servers=abroker.bootstrap, group_id="billing",
                             auto_offset_reset="earliest", consumer_timeout_ms=20000)
    try:
        seen: list[bytes] = []

        def five_consumed() -> bool:
            seen.extend(r.value for r in _poll(consumer))
            return len(seen) >= 5
        wait_until(five_consumed, "5 records consumed")
        consumer.commit()
    finally:
        consumer.close()
    assert seen[:5] == [b"order-%d" % i for i in range(5)]
    anon = Side("anonymous", abroker.bootstrap)
    try:
        assert metadata(anon, None) == {"orders": ErrorCode.NONE}  # "hidden" is not described to ANONYMOUS
    finally:
        anon.close()

    listed = acls(abroker.bootstrap, "--list", "--topic", "orders")
    assert "operation=WRITE, permissionType=ALLOW" in listed.stdout
    removed = acls(abroker.bootstrap, "--remove", "--topic", "orders", "--force")
    assert removed.returncode == 0, removed.stderr
    assert "orders" not in acls(abroker.bootstrap, "--list").stdout
    anon = Side("anonymous", abroker.bootstrap)
    try:
        assert metadata(anon, ["orders"]) == {"orders": ErrorCode.TOPIC_AUTHORIZATION_FAILED}
    finally:
        anon.close()


def _poll(consumer: KafkaConsumer) -> list:
    return [r for records in consumer.poll(timeout_ms=500).values() for r in records]


def test_acls_tool_bad_input_and_security_disabled(broker: RunningBroker):
    for args, message in (
            ((), "Command must include exactly one action"),
            (("--add", "--topic", "t"), "You must specify one of: --allow-principal, --deny-principal"),
            (("--add", "--consumer", "--topic", "t", "--allow-principal", "User:a"), "With --consumer you must"),
            (("--add", "--topic", "t", "--allow-principal", "alice"), "Could not parse principal from `alice`"),
            (("--add", "--topic", "t", "--allow-principal", "User:a", "--operation", "Fly"), "invalid operation")):
        result = acls(broker.bootstrap, *args)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr, result
    wrong_op = acls(broker.bootstrap, "--add", "--group", "g", "--allow-principal", "User:a", "--operation", "Write")
    assert wrong_op.returncode == 1 and "ResourceType GROUP only supports operations" in wrong_op.stderr
    disabled = acls(broker.bootstrap, "--list")  # no authorizer configured: Kafka's SecurityDisabledException
    assert disabled.returncode == 1
    assert disabled.stderr.strip() == ("Error while executing ACL command: "
                                       "org.apache.kafka.common.errors.SecurityDisabledException: "
                                       "No Authorizer is configured.")


PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret" user_bob="bob-secret";')


@pytest.fixture
def ops_broker(tmp_path: Path) -> Iterator[RunningBroker]:
    """The authorizer on, User:admin a super user, PLAIN users admin, alice and bob; topic
    ops-t, and ACLs for alice: Read and AlterConfigs on ops-t, Describe on the cluster, Read
    on group ops-g (which admin's committed offset makes: DescribeGroups v6 answers an unknown
    group GROUP_ID_NOT_FOUND, without its authorized operations, as Kafka 4)."""
    running = RunningBroker(tmp_path / "logs", {
        "authorizer.class.name": ACL_AUTHORIZER, "super.users": "User:admin",
        "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0", "sasl.enabled.mechanisms": "PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS})
    admin = _admin(running, "admin")
    try:
        admin.create_topics([NewTopic("ops-t", 1, 1)])
        alice = "User:alice"
        created = admin.create_acls([
            ACL(alice, "*", ACLOperation.READ, ACLPermissionType.ALLOW,
                ResourcePattern(ResourceType.TOPIC, "ops-t")),
            ACL(alice, "*", ACLOperation.ALTER_CONFIGS, ACLPermissionType.ALLOW,
                ResourcePattern(ResourceType.TOPIC, "ops-t")),
            ACL(alice, "*", ACLOperation.DESCRIBE, ACLPermissionType.ALLOW,
                ResourcePattern(ResourceType.CLUSTER, "kafka-cluster")),
            ACL(alice, "*", ACLOperation.READ, ACLPermissionType.ALLOW, ResourcePattern(ResourceType.GROUP, "ops-g"))])
        assert not created["failed"], created
        wait_until(lambda: admin.describe_topics(["ops-t"])[0]["error_code"] == 0, "ops-t has a leader")
        wait_until(lambda: _coordinator_up(admin, "ops-g"), "__consumer_offsets is made and loaded")
        committer = KafkaConsumer(bootstrap_servers=_sasl_bootstrap(running), group_id="ops-g",
                                  enable_auto_commit=False, security_protocol="SASL_PLAINTEXT", sasl_mechanism="PLAIN",
                                  sasl_plain_username="admin", sasl_plain_password="admin-secret")
        try:
            committer.commit({TopicPartition("ops-t", 0): OffsetAndMetadata(0, "", -1)})
        finally:
            committer.close()
    finally:
        admin.close()
    yield running
    running.stop()


def _sasl_bootstrap(running: RunningBroker) -> str:
    return f"127.0.0.1:{next(a.port for a in running.server.acceptors if a.name == 'SASL_PLAINTEXT')}"


def _admin(running: RunningBroker, user: str) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=_sasl_bootstrap(running), security_protocol="SASL_PLAINTEXT",
                            sasl_mechanism="PLAIN", sasl_plain_username=user, sasl_plain_password=f"{user}-secret")


ALL_TOPIC_OPS = ["ALTER", "ALTER_CONFIGS", "CREATE", "DELETE", "DESCRIBE", "DESCRIBE_CONFIGS", "READ", "WRITE"]
ALL_CLUSTER_OPS = ["ALTER", "ALTER_CONFIGS", "CLUSTER_ACTION", "CREATE", "DESCRIBE", "DESCRIBE_CONFIGS",
                   "IDEMPOTENT_WRITE"]


def test_kafka_python_admin_sees_the_operations_its_acls_allow(ops_broker: RunningBroker):
    """KIP-430 through a real client: kafka-python's describe_topics, describe_cluster and
    describe_groups(include_authorized_operations=True) as admin (super user), alice and bob."""
    client = _admin(ops_broker, "admin")
    try:
        assert sorted(client.describe_topics(["ops-t"])[0]["authorized_operations"]) == ALL_TOPIC_OPS
        assert sorted(client.describe_cluster()["authorized_operations"]) == ALL_CLUSTER_OPS
    finally:
        client.close()
    client = _admin(ops_broker, "alice")
    try:
        assert sorted(client.describe_topics(["ops-t"])[0]["authorized_operations"]) == [
            "ALTER_CONFIGS", "DESCRIBE", "DESCRIBE_CONFIGS", "READ"]
        assert client.describe_cluster()["authorized_operations"] == ["DESCRIBE"]
        group = client.describe_groups(["ops-g"], include_authorized_operations=True)["ops-g"]
        assert sorted(group["authorized_operations"]) == ["DESCRIBE", "READ"]
    finally:
        client.close()
    client = _admin(ops_broker, "bob")
    try:
        assert client.describe_cluster()["authorized_operations"] == []  # may not Describe the cluster: 0
        assert client.describe_topics(["ops-t"])[0]["error_code"] == ErrorCode.TOPIC_AUTHORIZATION_FAILED
    finally:
        client.close()


JAVA_LIB = Path(__file__).resolve().parent.parent / "compat" / ".envs" / "java" / "lib"
JAVA_JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]


def test_java_admin_client_sees_the_operations_its_acls_allow(ops_broker: RunningBroker):
    """The same through Kafka's Java AdminClient 3.9 (compat/java/AuthorizedOperations.java):
    describeTopics, describeConsumerGroups and describeCluster with includeAuthorizedOperations."""
    from tests.prerequisites import require_files, require_tools
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    source = Path(__file__).resolve().parent.parent / "compat" / "java" / "AuthorizedOperations.java"
    classpath = ":".join(str(JAVA_LIB / j) for j in JAVA_JARS)
    expected = {"admin": [f"topic ops-t {','.join(ALL_TOPIC_OPS)}", "group ops-g DELETE,DESCRIBE,READ",
                          f"cluster {','.join(ALL_CLUSTER_OPS)}"],
                "alice": ["topic ops-t ALTER_CONFIGS,DESCRIBE,DESCRIBE_CONFIGS,READ", "group ops-g DESCRIBE,READ",
                          "cluster DESCRIBE"]}
    for user, lines in expected.items():
        result = subprocess.run(["java", "-cp", classpath, str(source), _sasl_bootstrap(ops_broker), user,
                                 f"{user}-secret", "ops-t", "ops-g"], capture_output=True, text=True, timeout=180)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
        assert result.stdout.splitlines()[-3:] == lines, result.stdout


def _coordinator_up(client: KafkaAdminClient, group: str) -> bool:
    """The first FindCoordinator creates __consumer_offsets: COORDINATOR_NOT_AVAILABLE until it leads."""
    try:
        client.describe_groups([group])
    except CoordinatorNotAvailableError:
        return False
    return True


def test_all_topics_metadata_hides_topics_without_logging_denials(abroker: RunningBroker,
                                                                   caplog: pytest.LogCaptureFixture):
    """Kafka's handleTopicMetadataRequest authorizes DESCRIBE with logIfDenied = !isAllTopics,
    and probes CREATE on the cluster with logIfDenied = false: hiding a topic from an
    all-topics request is no denial to log; refusing a topic named in the request is."""
    admin, anon = AdminSide("admin", abroker.bootstrap), Side("anonymous", abroker.bootstrap)
    try:
        create_topic(admin, "hidden")
        with caplog.at_level(logging.INFO, logger="kafka.authorizer.logger"):
            assert "hidden" not in metadata(anon, None)
            assert not [r for r in caplog.records if r.name == "kafka.authorizer.logger"]
            assert metadata(anon, ["hidden"]) == {"hidden": ErrorCode.TOPIC_AUTHORIZATION_FAILED}
        denials = [r.getMessage() for r in caplog.records if r.name == "kafka.authorizer.logger"]
        assert denials == ["Principal = User:ANONYMOUS is Denied Operation = Describe from host = 127.0.0.1 on "
                           "resource = ResourcePattern(resourceType=TOPIC, name=hidden, patternType=LITERAL)"]
    finally:
        admin.close()
        anon.close()
