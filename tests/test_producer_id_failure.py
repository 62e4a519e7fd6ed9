"""Idempotent producers of three client libraries against a broker that cannot reserve a
producer id block in ZooKeeper (josefk issue 27): InitProducerId is answered
COORDINATOR_LOAD_IN_PROGRESS, as Kafka 3.9 answers while it has no block, and each producer
retries it and delivers once ZooKeeper takes the write again.

Before the fix the answer was COORDINATOR_NOT_AVAILABLE: kafka-python then looked up the
transaction coordinator of its null transactional id, the broker closed that FindCoordinator
as malformed (as Kafka does), and the producer looped on it forever.

The faults are real: ZooKeeper itself refuses the write (an ACL on /latest_producer_id_block
allowing no writes), or the broker's session expires while the reservation waits (a proxy
between broker and ZooKeeper, cut). The broker is fresh, so its first InitProducerId needs
a block.
"""

from __future__ import annotations

import json
import logging
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from confluent_kafka import Producer
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kazoo.client import KazooClient
from kazoo.security import OPEN_ACL_UNSAFE, make_acl

from harness.tcp_proxy import TcpProxy
from harness.wire import call, connect
from harness.zookeeper import ZooKeeperServer
from josefk.controller.state import PRODUCER_ID_BLOCK
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.prerequisites import require_files, require_tools

pytestmark = [pytest.mark.cluster]

TOPIC = "pid-alloc"
COUNT = 5
KAFKA_PYTHON, LIBRDKAFKA, JAVA = "pid-kafka-python", "pid-librdkafka", "pid-java"
ROOT = Path(__file__).resolve().parent.parent
JAVA_LIB = ROOT / "compat" / ".envs" / "java" / "lib"
JAVA_JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]
DELIVERY_TIMEOUT_MS = 180_000
NO_WRITES = [make_acl("world", "anyone", read=True, admin=True)]  # admin: the test can lift it


def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


def answered_init_producer_ids(caplog: pytest.LogCaptureFixture) -> Counter[str]:
    """InitProducerId requests the broker answered, by client id (its request log)."""
    answered: Counter[str] = Counter()
    for record in list(caplog.records):
        if record.name == "kafka.request.logger":
            header = json.loads(record.getMessage().split(":", 1)[1])["requestHeader"]
            if header["requestApiKeyName"] == "INIT_PRODUCER_ID":
                answered[header["clientId"]] += 1
    return answered


def refuse_block_writes(kazoo: KazooClient) -> None:
    """/latest_producer_id_block readable but not writable (empty: no block reserved yet)."""
    if kazoo.exists(PRODUCER_ID_BLOCK):
        kazoo.set_acls(PRODUCER_ID_BLOCK, NO_WRITES)
    else:
        kazoo.create(PRODUCER_ID_BLOCK, b"", acl=NO_WRITES, makepath=True)


@pytest.fixture
def zk_broker(tmp_path: Path, zookeeper: ZooKeeperServer) -> Iterator[RunningBroker]:
    broker = RunningBroker(tmp_path / "logs", {"broker.id": "1", "zookeeper.connect": zookeeper.connect})
    yield broker
    broker.stop()


def test_each_client_retries_a_failed_producer_id_allocation_and_delivers(
        zk_broker: RunningBroker, zookeeper: ZooKeeperServer, caplog: pytest.LogCaptureFixture) -> None:
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    caplog.set_level(logging.DEBUG, logger="kafka.request.logger")
    admin = KafkaAdminClient(bootstrap_servers=zk_broker.bootstrap, request_timeout_ms=30000)
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start()
    kafka_python: KafkaProducer | None = None
    confluent: Producer | None = None
    java: subprocess.Popen[str] | None = None
    librdkafka_stop = threading.Event()
    librdkafka_poller: threading.Thread | None = None
    try:
        admin.create_topics([NewTopic(TOPIC, 1, 1)])
        wait_until(lambda: admin.describe_topics([TOPIC])[0]["partitions"][0]["leader_id"] == 1,
                   "the topic has a leader", 30)
        refuse_block_writes(kazoo)

        kafka_python = KafkaProducer(bootstrap_servers=zk_broker.bootstrap, client_id=KAFKA_PYTHON,
                                     enable_idempotence=True, acks="all", max_block_ms=DELIVERY_TIMEOUT_MS,
                                     delivery_timeout_ms=DELIVERY_TIMEOUT_MS)
        sent = [kafka_python.send(TOPIC, value=b"%s-%d" % (KAFKA_PYTHON.encode(), i), partition=0)
                for i in range(COUNT)]

        delivered: list[str] = []
        failed: list[str] = []

        def on_delivery(error: object, _message: object) -> None:
            (failed if error is not None else delivered).append(str(error))

        confluent = Producer({"bootstrap.servers": zk_broker.bootstrap, "client.id": LIBRDKAFKA,
                              "enable.idempotence": True, "message.timeout.ms": DELIVERY_TIMEOUT_MS})
        for i in range(COUNT):
            confluent.produce(TOPIC, value=f"{LIBRDKAFKA}-{i}".encode(), partition=0, on_delivery=on_delivery)
        producer = confluent

        def poll() -> None:
            while not librdkafka_stop.is_set():
                producer.poll(0.1)
        librdkafka_poller = threading.Thread(target=poll, name="librdkafka-poll")
        librdkafka_poller.start()

        classpath = ":".join(str(JAVA_LIB / j) for j in JAVA_JARS)
        java = subprocess.Popen(["java", "-cp", classpath, str(ROOT / "compat" / "java" / "IdempotentProducer.java"),
                                 zk_broker.bootstrap, TOPIC, str(COUNT), JAVA, str(DELIVERY_TIMEOUT_MS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        # Every InitProducerId answered while ZooKeeper refuses the block is a failed allocation.
        wait_until(lambda: all(answered_init_producer_ids(caplog)[c] >= 2 for c in (KAFKA_PYTHON, LIBRDKAFKA, JAVA)),
                   f"each producer retried InitProducerId: {answered_init_producer_ids(caplog)}", 120)
        assert not any(f.is_done for f in sent) and not delivered and not failed and java.poll() is None
        malformed = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
        assert not malformed  # no FindCoordinator for a null transactional id

        kazoo.set_acls(PRODUCER_ID_BLOCK, OPEN_ACL_UNSAFE)
        offsets = [f.get(timeout=60).offset for f in sent]
        wait_until(lambda: len(delivered) + len(failed) == COUNT, f"librdkafka's deliveries ({delivered})", 60)
        assert not failed
        out, err = java.communicate(timeout=120)
        assert java.returncode == 0 and out.splitlines()[-1] == f"OK {COUNT}", out[-2000:] + err[-3000:]
        assert offsets == sorted(offsets)

        consumer = KafkaConsumer(bootstrap_servers=zk_broker.bootstrap, enable_auto_commit=False)
        try:
            partition = TopicPartition(TOPIC, 0)
            consumer.assign([partition])
            consumer.seek_to_beginning(partition)
            values: list[bytes] = []
            deadline = time.monotonic() + 30
            while len(values) < 3 * COUNT and time.monotonic() < deadline:
                for records in consumer.poll(timeout_ms=500).values():
                    values += [r.value for r in records]
        finally:
            consumer.close()
        assert sorted(values) == sorted(f"{client}-{i}".encode() for client in (KAFKA_PYTHON, LIBRDKAFKA, JAVA)
                                        for i in range(COUNT))
    finally:
        librdkafka_stop.set()
        if librdkafka_poller is not None:
            librdkafka_poller.join(10)
        if confluent is not None:
            confluent.flush(5)
        if kafka_python is not None:
            kafka_python.close(timeout=5)
        if java is not None and java.poll() is None:
            java.kill()
            java.communicate()
        kazoo.stop()
        kazoo.close()
        admin.close()


def test_allocate_producer_ids_the_controller_cannot_reserve_is_unknown_server_error(
        zk_broker: RunningBroker, zookeeper: ZooKeeperServer) -> None:
    """A Kafka broker asks the (josefk) controller for a block with AllocateProducerIds; when
    ZooKeeper refuses the write, Kafka's controller answers Errors.forException of the
    failure, UNKNOWN_SERVER_ERROR (its broker retries), where josefk closed the connection."""
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start()
    try:
        wait_until(lambda: kazoo.exists("/brokers/ids/1") is not None, "the broker is registered", 30)
        broker_epoch = kazoo.get("/brokers/ids/1")[1].czxid

        def allocate() -> tuple[int, int, int]:
            with connect(zk_broker.bootstrap) as sock:
                _cid, response = call(sock, ApiKey.AllocateProducerIds, 0, broker_id=1, broker_epoch=broker_epoch)
            return response.error_code, response.producer_id_start, response.producer_id_len

        refuse_block_writes(kazoo)
        assert allocate() == (ErrorCode.UNKNOWN_SERVER_ERROR, -1, 0)
        kazoo.set_acls(PRODUCER_ID_BLOCK, OPEN_ACL_UNSAFE)
        assert allocate() == (ErrorCode.NONE, 0, 1000)
    finally:
        kazoo.stop()
        kazoo.close()


def test_a_session_that_expires_while_init_producer_id_waits_for_a_block_is_retried(
        tmp_path: Path, zookeeper: ZooKeeperServer, caplog: pytest.LogCaptureFixture) -> None:
    """The issue's own fault: the broker is cut off from ZooKeeper (a proxy between them)
    until its session expired; a new idempotent producer's InitProducerId then waits for a
    producer id block, and when ZooKeeper is reachable again the reservation fails with the
    expired session. kafka-python hears COORDINATOR_LOAD_IN_PROGRESS, asks again (the broker
    has a new session by then) and delivers; before the fix it heard COORDINATOR_NOT_AVAILABLE
    and looped on FindCoordinator for its null transactional id."""
    caplog.set_level(logging.DEBUG, logger="kafka.producer")
    proxy = TcpProxy(zookeeper.host, zookeeper.port)
    broker: RunningBroker | None = None
    admin: KafkaAdminClient | None = None
    producer: KafkaProducer | None = None
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start()
    try:
        broker = RunningBroker(tmp_path / "logs", {"broker.id": "1", "zookeeper.connect": proxy.address,
                                                   "zookeeper.session.timeout.ms": "3000"})
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=30000)
        admin.create_topics([NewTopic(TOPIC, 1, 1)])
        wait_until(lambda: admin.describe_topics([TOPIC])[0]["partitions"][0]["leader_id"] == 1,
                   "the topic has a leader", 30)
        proxy.cut()
        wait_until(lambda: kazoo.exists("/brokers/ids/1") is None, "ZooKeeper expired the broker's session", 60)

        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, client_id=KAFKA_PYTHON, enable_idempotence=True,
                                 acks="all", max_block_ms=60000, delivery_timeout_ms=60000)

        def messages() -> list[str]:
            return [r.getMessage() for r in caplog.records]
        wait_until(lambda: any("Sending transactional request InitProducerIdRequest" in m for m in messages()),
                   "kafka-python sent InitProducerId", 30)
        proxy.restore()
        assert producer.send(TOPIC, value=b"after the expiry", partition=0).get(timeout=60).offset == 0
        answers = [m for m in messages() if m.startswith("Received transactional response InitProducerIdResponse")]
        assert "error_code=14" in answers[0] and "error_code=0" in answers[-1], answers
        assert any("Could not reserve a producer id block: SessionExpiredError" in m for m in messages())
        assert not [m for m in messages() if "malformed" in m]
    finally:
        if producer is not None:
            producer.close(timeout=5)
        if admin is not None:
            admin.close()
        if broker is not None:
            broker.stop()
        kazoo.stop()
        kazoo.close()
        proxy.close()
