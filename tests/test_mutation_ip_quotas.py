"""Controller mutation quotas (KIP-599) and ip connection quotas (KIP-612) end to end: a real
broker, real clients (kafka-python's admin client, raw sockets from chosen source addresses,
`josefk configs`), quotas set with AlterClientQuotas. A topic beyond the mutation quota is
refused with THROTTLING_QUOTA_EXCEEDED by new request versions and only throttled by old
ones; an address over its connection_creation_rate has its next connection held unanswered,
then closed, while other addresses connect; an ip quota set on one broker of a ZooKeeper
cluster applies on the other."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kafka.admin import KafkaAdminClient, NewPartitions
from kafka.errors import NodeNotReadyError, ThrottlingQuotaExceededError

from harness.josefk import BrokerProcess
from harness.wire import call, connect, encode_request, read_frame, wait_until
from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.test_quotas import alter_quota

THROTTLED = ErrorCode.THROTTLING_QUOTA_EXCEEDED
JOSEFK = str(Path(sys.executable).with_name("josefk"))


def create_topics_v5(bootstrap: str, client_id: str, topics: dict[str, int]) -> tuple[int, dict[str, int]]:
    """CreateTopics v5 (before strict quotas), as client `client_id`: (throttle_time_ms, error per topic)."""
    cls = request_class(ApiKey.CreateTopics)
    body = cls(timeout_ms=10000, validate_only=False, topics=[
        cls.CreatableTopic(name=name, num_partitions=n, replication_factor=1, assignments=[], configs=[])
        for name, n in topics.items()])
    with connect(bootstrap) as sock:
        sock.sendall(encode_request(ApiKey.CreateTopics, 5, body, client_id=client_id))
        frame = read_frame(sock)
    response = response_class(ApiKey.CreateTopics).decode(frame[5:], version=5)
    return response.throttle_time_ms, {t.name: t.error_code for t in response.topics}


def topics(bootstrap: str) -> dict[str, int]:
    """The topics in a Metadata answer, with their partition counts."""
    with connect(bootstrap) as sock:
        _cid, response = call(sock, ApiKey.Metadata, 12, topics=None, allow_auto_topic_creation=False,
                              include_topic_authorized_operations=False)
    return {t.name: len(t.partitions) for t in response.topics}


@pytest.mark.integration
def test_topics_beyond_the_controller_mutation_rate_are_refused_then_taken_again(broker: RunningBroker) -> None:
    """controller_mutation_rate 1 for client-id mut: a token bucket of 10 partitions
    (controller.quota.window.num 11 of 1 s). kafka-python sends the strict versions."""
    alter_quota(broker.bootstrap, [("client-id", "mut")], {"controller_mutation_rate": 1.0})
    mutations = broker.server.quotas.controller_mutation
    wait_until(lambda: mutations.quota("ANONYMOUS", "mut") == 1.0, "the quota reaches the broker")
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="mut", request_timeout_ms=30000)
    try:
        created = admin.create_topics({"m-big": {"num_partitions": 12, "replication_factor": 1}}, raise_errors=False)
        # the bucket had 10 tokens: the topic is taken whole, leaving -2, and not throttled
        assert [(t["name"], t["error_code"]) for t in created["topics"]] == [("m-big", 0)]
        refused = admin.create_topics({"m-next": {"num_partitions": 1, "replication_factor": 1}}, raise_errors=False)
        assert [(t["name"], t["error_code"], t["error_message"]) for t in refused["topics"]] == [
            ("m-next", THROTTLED, None)]  # Kafka leaves out a message that is the error's own
        # kafka-python holds this connection back for the throttle time (KIP-219), and the
        # broker mutes it: another connection of the same client-id meets the same bucket
        with KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="mut") as other:
            with pytest.raises(ThrottlingQuotaExceededError):
                other.create_partitions({"m-big": NewPartitions(total_count=13)})
            with KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="mut") as third:
                with pytest.raises(ThrottlingQuotaExceededError):
                    third.delete_topics(["m-big"])
        assert topics(broker.bootstrap) == {"m-big": 12}  # nothing refused was made

        def taken() -> bool:  # 2 s later the bucket is back at zero
            try:
                result = admin.create_topics({"m-next": {"num_partitions": 1, "replication_factor": 1}},
                                             raise_errors=False)
            except NodeNotReadyError:  # paused for the last throttle time
                return False
            return result["topics"][0]["error_code"] == 0

        wait_until(taken, "m-next created once the bucket has refilled", timeout=15)
        # CreateTopics v5 is permissive: both topics are taken, and the answer carries the throttle
        throttle_ms, errors = create_topics_v5(broker.bootstrap, "mut", {"m-old-1": 8, "m-old-2": 8})
        assert errors == {"m-old-1": 0, "m-old-2": 0}
        assert 10_000 <= throttle_ms <= 17_000, throttle_ms  # 15 to 17 tokens short at 1/s
        with KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="mut") as late:
            refused = late.create_topics({"m-late": {"num_partitions": 1, "replication_factor": 1}},
                                         raise_errors=False)
        assert refused["topics"][0]["error_code"] == THROTTLED
        # another client-id has no quota
        with KafkaAdminClient(bootstrap_servers=broker.bootstrap, client_id="free") as free:
            result = free.create_topics({"m-free": {"num_partitions": 30, "replication_factor": 1}},
                                        raise_errors=False)
        assert result["topics"][0]["error_code"] == 0
    finally:
        admin.close()


def connect_from(bootstrap: str, source: str) -> socket.socket:
    host, port = bootstrap.rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))


def answered(sock: socket.socket) -> bool:
    """ApiVersions gets its answer (True), or the broker closes the connection unanswered (False)."""
    sock.sendall(encode_request(ApiKey.ApiVersions, 0, request_class(ApiKey.ApiVersions)(), 7))
    try:
        return len(read_frame(sock)) > 0
    except (ConnectionError, OSError):
        return False


def first_throttled(bootstrap: str, source: str, most: int) -> tuple[int, float]:
    """Open connections from `source` until one is not answered: (how many were, how long the
    refused one was held before the broker closed it, s)."""
    socks = []
    try:
        for i in range(most):
            sock = connect_from(bootstrap, source)
            socks.append(sock)
            started = time.monotonic()
            if not answered(sock):
                return i, time.monotonic() - started
        raise AssertionError(f"{most} connections from {source}, none throttled")
    finally:
        for sock in socks:
            sock.close()


def configs_tool(bootstrap: str, *args: str) -> str:
    done = subprocess.run([JOSEFK, "configs", "--bootstrap-server", bootstrap, *args], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.integration
def test_an_ip_over_its_connection_creation_rate_is_held_then_closed(broker: RunningBroker) -> None:
    """connection_creation_rate 2 for 127.0.0.2: Kafka's rate reads 20 connections at once as
    2/s over its 10 s minimum window; the 21st is 2.1/s, held (2.1 - 2) / 2 x 10 s = 500 ms
    without an answer, then closed. 127.0.0.1 is not limited meanwhile."""
    quotas = broker.server.connection_quotas
    assert configs_tool(broker.bootstrap, "--alter", "--entity-type", "ips", "--entity-name", "127.0.0.2",
                        "--add-config", "connection_creation_rate=2") == "Completed updating config for ip 127.0.0.2.\n"
    wait_until(lambda: quotas.connection_rate_for_ip("127.0.0.2") == 2, "the ip quota reaches the broker")
    count, held_s = first_throttled(broker.bootstrap, "127.0.0.2", 40)
    assert count == 20
    assert 0.4 <= held_s < 5, held_s  # held for its throttle time, not refused at once
    with connect(broker.bootstrap) as sock:  # another address
        _cid, response = call(sock, ApiKey.ApiVersions, 0)
        assert response.error_code == 0
    assert quotas.count("127.0.0.2") == 0  # the held connection was never counted
    # the default ip entity covers every other address
    configs_tool(broker.bootstrap, "--alter", "--entity-type", "ips", "--entity-default",
                 "--add-config", "connection_creation_rate=1")
    wait_until(lambda: quotas.connection_rate_for_ip("127.0.0.3") == 1, "the default ip quota reaches the broker")
    assert first_throttled(broker.bootstrap, "127.0.0.3", 40)[0] == 10
    assert configs_tool(broker.bootstrap, "--describe", "--entity-type", "ips").splitlines() == [
        "Quota configs for the default ip are connection_creation_rate=1.0",  # the admin client's HashMap order
        "Quota configs for ip '127.0.0.2' are connection_creation_rate=2.0"]
    # removed: back to the default's rate
    configs_tool(broker.bootstrap, "--alter", "--entity-type", "ips", "--entity-name", "127.0.0.2",
                 "--delete-config", "connection_creation_rate")
    wait_until(lambda: quotas.connection_rate_for_ip("127.0.0.2") == 1, "the removal reaches the broker")


@pytest.mark.cluster
def test_an_ip_quota_set_on_one_broker_applies_on_the_other(zookeeper, tmp_path: Path) -> None:
    brokers = []
    try:
        for broker_id in (1, 2):
            brokers.append(BrokerProcess(tmp_path / f"b{broker_id}", overrides={
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect}))
        alter_quota(brokers[0].bootstrap, [("ip", "127.0.0.4")], {"connection_creation_rate": 1})

        def throttled_on_broker_2() -> bool:
            """Once broker 2 has the quota, 11 connections at once from 127.0.0.4 are over it."""
            try:
                first_throttled(brokers[1].bootstrap, "127.0.0.4", 11)
                return True
            except AssertionError:
                return False

        wait_until(throttled_on_broker_2, "broker 2 throttles 127.0.0.4", timeout=30)
    finally:
        for b in brokers:
            b.stop()
