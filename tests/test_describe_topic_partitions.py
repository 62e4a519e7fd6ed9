"""DescribeTopicPartitions (KIP-966) over a real socket, as Kafka's handler pages it: topics in
name order from the cursor, at most min(response_partition_limit,
max.request.partition.size.limit) partitions (and at least one) an answer, next_cursor at the
first partition left out; unknown and invalid names answered in place when named; a cursor
outside the named topics refused. (Kafka 3.9.2 in ZooKeeper mode does not serve API 75; the
Java 4.4.0 admin client's use of it is tests/test_telemetry_clients.py.)"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import wire
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID
from josefk.protocol.messages.generated.describe_topic_partitions_request import (
    Cursor,
    DescribeTopicPartitionsRequest,
    TopicRequest,
)
from tests.conftest import RunningBroker
from tests.differential import Side
from tests.test_acl_broker import ACL_AUTHORIZER, AdminSide, _principal_hook, create_topic

pytestmark = pytest.mark.integration
# READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS: all a topic has,
# which no authorizer allows.
ALL_TOPIC_OPERATIONS = sum(1 << code for code in (3, 4, 5, 6, 7, 8, 10, 11))


@pytest.fixture(scope="module")
def topics(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningBroker, socket.socket]]:
    broker = RunningBroker(tmp_path_factory.mktemp("dtp") / "logs")
    sock = wire.connect(broker.bootstrap)
    for name, partitions in (("dtp-c", 2), ("dtp-a", 4), ("dtp-b", 1)):
        wire.create_topic(sock, name, partitions)
    yield broker, sock
    sock.close()
    broker.stop()


def describe(sock: socket.socket, names: list[str] | None, limit: int = 2000, cursor: tuple[str, int] | None = None):  # noqa: ANN201
    request = DescribeTopicPartitionsRequest(topics=[TopicRequest(name=n) for n in names or []],
                                             response_partition_limit=limit,
                                             cursor=Cursor(topic_name=cursor[0], partition_index=cursor[1])
                                             if cursor else None)
    return wire.send(sock, ApiKey.DescribeTopicPartitions, 0, request)[1]


def pages(response) -> tuple[list[tuple[str, list[int]]], tuple[str, int] | None]:  # noqa: ANN001
    cursor = response.next_cursor
    return ([(t.name, [p.partition_index for p in t.partitions]) for t in response.topics],
            (cursor.topic_name, cursor.partition_index) if cursor else None)


def test_all_topics_are_paged_by_the_cursor(topics: tuple[RunningBroker, socket.socket]) -> None:
    _broker, sock = topics
    assert pages(describe(sock, None, 3)) == ([("dtp-a", [0, 1, 2])], ("dtp-a", 3))
    assert pages(describe(sock, None, 3, ("dtp-a", 3))) == ([("dtp-a", [3]), ("dtp-b", [0]), ("dtp-c", [0])],
                                                            ("dtp-c", 1))
    assert pages(describe(sock, None, 3, ("dtp-c", 1))) == ([("dtp-c", [1])], None)
    # A page that ends exactly at a topic's end points at the next topic's start.
    assert pages(describe(sock, None, 4)) == ([("dtp-a", [0, 1, 2, 3])], ("dtp-b", 0))
    assert pages(describe(sock, None, 0)) == ([("dtp-a", [0])], ("dtp-a", 1))  # at least one partition
    # The cursor's topic need not exist in an all-topics request: names from it on.
    assert pages(describe(sock, None, 10, ("dtp-bb", 0))) == ([("dtp-c", [0, 1])], None)


def test_named_topics_answer_partitions_and_errors(topics: tuple[RunningBroker, socket.socket]) -> None:
    broker, sock = topics
    response = describe(sock, ["dtp-b", "nope", "dtp-a", "bad name!", "dtp-b"])
    assert [(t.name, t.error_code) for t in response.topics] == [
        ("bad name!", ErrorCode.INVALID_TOPIC_EXCEPTION), ("dtp-a", 0), ("dtp-b", 0),
        ("nope", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]
    by_name = {t.name: t for t in response.topics}
    assert by_name["nope"].topic_id in (None, ZERO_UUID) and by_name["nope"].partitions == []  # kafka-python: None
    a = by_name["dtp-a"]
    assert a.topic_id == broker.server.metadata_cache.topic_ids["dtp-a"] and not a.is_internal
    assert a.topic_authorized_operations == ALL_TOPIC_OPERATIONS
    first = a.partitions[0]
    assert (first.error_code, first.leader_id, first.leader_epoch, first.replica_nodes, first.isr_nodes,
            first.eligible_leader_replicas, first.last_known_elr, first.offline_replicas) == (
        0, 0, 0, [0], [0], [], [], [])
    assert response.next_cursor is None


def test_a_bad_cursor_or_an_empty_name_is_refused(topics: tuple[RunningBroker, socket.socket]) -> None:
    _broker, sock = topics
    for cursor in [("dtp-c", 0), ("dtp-a", -1)]:
        response = describe(sock, ["dtp-a", "dtp-b"], 10, cursor)
        assert [(t.name, t.error_code, t.partitions) for t in response.topics] == [
            ("dtp-a", ErrorCode.INVALID_REQUEST, []), ("dtp-b", ErrorCode.INVALID_REQUEST, [])]
    # An empty name fails the request whole in Kafka 4.4.0 (its authorizer refuses a nameless
    # resource): UNKNOWN_SERVER_ERROR for every topic, no operations.
    response = describe(sock, ["dtp-a", ""])
    assert [(t.name, t.error_code, t.topic_authorized_operations) for t in response.topics] == [
        ("dtp-a", ErrorCode.UNKNOWN_SERVER_ERROR, -2**31), ("", ErrorCode.UNKNOWN_SERVER_ERROR, -2**31)]
    # Named topics before the cursor's are left out.
    assert pages(describe(sock, ["dtp-a", "dtp-c", "dtp-b"], 10, ("dtp-b", 0))) == (
        [("dtp-b", [0]), ("dtp-c", [0, 1])], None)


def test_the_broker_caps_the_page(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", {"max.request.partition.size.limit": "2"})
    sock = wire.connect(broker.bootstrap)
    try:
        wire.create_topic(sock, "capped", 5)
        assert pages(describe(sock, ["capped"], 2000)) == ([("capped", [0, 1])], ("capped", 2))
    finally:
        sock.close()
        broker.stop()


def test_topics_the_principal_may_not_describe(tmp_path: Path) -> None:
    """As Kafka's handler: a named topic the principal may not DESCRIBE is refused without its id,
    whether it exists or not; an all-topics request leaves it out; the operations are the
    principal's."""
    running = RunningBroker(tmp_path / "logs", {"authorizer.class.name": ACL_AUTHORIZER, "super.users": "User:admin"})
    _principal_hook(running)
    admin, anon = AdminSide("admin", running.bootstrap), Side("anonymous", running.bootstrap)
    try:
        create_topic(admin, "hidden")
        create_topic(admin, "seen")
        created = admin.call(ApiKey.CreateAcls, 1, creations=[{
            "resource_type": 2, "resource_name": "seen", "resource_pattern_type": 3, "principal": "User:ANONYMOUS",
            "host": "*", "operation": 8, "permission_type": 3}])  # TOPIC seen, LITERAL, DESCRIBE, ALLOW
        assert [r.error_code for r in created.results] == [0]

        def ask(names: list[str] | None):  # noqa: ANN202
            return anon.call(ApiKey.DescribeTopicPartitions, 0, topics=[{"name": n} for n in names or []],
                             response_partition_limit=2000, cursor=None).topics

        wait_until(lambda: [t.error_code for t in ask(["seen"])] == [0], "the ACL is in force")
        answer = ask(["hidden", "seen", "nope"])
        assert [(t.name, t.error_code, t.topic_authorized_operations, len(t.partitions)) for t in answer] == [
            ("seen", 0, 1 << 8, 1),  # DESCRIBE only
            ("hidden", ErrorCode.TOPIC_AUTHORIZATION_FAILED, -2**31, 0),
            ("nope", ErrorCode.TOPIC_AUTHORIZATION_FAILED, -2**31, 0)]
        assert all(t.topic_id in (None, ZERO_UUID) for t in answer[1:])
        assert [t.name for t in ask(None)] == ["seen"]
    finally:
        admin.close()
        anon.close()
        running.stop()
