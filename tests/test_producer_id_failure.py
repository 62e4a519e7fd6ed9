"""Idempotent producers of three client libraries against a broker that cannot reserve a
producer id block in ZooKeeper (josefk issue 27): InitProducerId is answered
COORDINATOR_LOAD_IN_PROGRESS, as Kafka 3.9 answers while it has no block, and each producer
retries it and delivers once ZooKeeper takes the write again.

Before the fix the answer was COORDINATOR_NOT_AVAILABLE: kafka-python then looked up the
transaction coordinator of its null transactional id, the broker closed that FindCoordinator
as malformed (as Kafka does), and the producer looped on it forever.

The faults are real: ZooKeeper itself refuses the write (an ACL on /latest_producer_id_block
allowing no writes, set before the broker starts, so its start-up request for the first
block fails), or ZooKeeper is unreachable (a proxy between broker and ZooKeeper, cut) while
the block runs out and the session expires.
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
from josefk.coordinator.producer_id_manager import BLOCK_SIZE
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.zk.zk_data import PRODUCER_ID_BLOCK
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
def refusing_broker(tmp_path: Path, zookeeper: ZooKeeperServer) -> Iterator[RunningBroker]:
    """A broker started while ZooKeeper refuses producer id block writes: its start-up
    request for the first block fails, so it has none."""
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start()
    try:
        refuse_block_writes(kazoo)
    finally:
        kazoo.stop()
        kazoo.close()
    broker = RunningBroker(tmp_path / "logs", {"broker.id": "1", "zookeeper.connect": zookeeper.connect})
    yield broker
    broker.stop()


def test_each_client_retries_a_failed_producer_id_allocation_and_delivers(
        refusing_broker: RunningBroker, zookeeper: ZooKeeperServer, caplog: pytest.LogCaptureFixture) -> None:
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    caplog.set_level(logging.DEBUG, logger="kafka.request.logger")
    admin = KafkaAdminClient(bootstrap_servers=refusing_broker.bootstrap, request_timeout_ms=30000)
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

        kafka_python = KafkaProducer(bootstrap_servers=refusing_broker.bootstrap, client_id=KAFKA_PYTHON,
                                     enable_idempotence=True, acks="all", max_block_ms=DELIVERY_TIMEOUT_MS,
                                     delivery_timeout_ms=DELIVERY_TIMEOUT_MS)
        sent = [kafka_python.send(TOPIC, value=b"%s-%d" % (KAFKA_PYTHON.encode(), i), partition=0)
                for i in range(COUNT)]

        delivered: list[str] = []
        failed: list[str] = []

        def on_delivery(error: object, _message: object) -> None:
            (failed if error is not None else delivered).append(str(error))

        confluent = Producer({"bootstrap.servers": refusing_broker.bootstrap, "client.id": LIBRDKAFKA,
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
                                 refusing_broker.bootstrap, TOPIC, str(COUNT), JAVA, str(DELIVERY_TIMEOUT_MS)],
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

        consumer = KafkaConsumer(bootstrap_servers=refusing_broker.bootstrap, enable_auto_commit=False)
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
        refusing_broker: RunningBroker, zookeeper: ZooKeeperServer) -> None:
    """A Kafka broker asks the (josefk) controller for a block with AllocateProducerIds; when
    ZooKeeper refuses the write, Kafka's controller answers Errors.forException of the
    failure, UNKNOWN_SERVER_ERROR (its broker retries), where josefk closed the connection."""
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start()
    try:
        wait_until(lambda: kazoo.exists("/brokers/ids/1") is not None, "the broker is registered", 30)
        broker_epoch = kazoo.get("/brokers/ids/1")[1].czxid

        def allocate() -> tuple[int, int, int]:
            with connect(refusing_broker.bootstrap) as sock:
                _cid, response = call(sock, ApiKey.AllocateProducerIds, 0, broker_id=1, broker_epoch=broker_epoch)
            return response.error_code, response.producer_id_start, response.producer_id_len

        assert allocate() == (ErrorCode.UNKNOWN_SERVER_ERROR, -1, 0)
        kazoo.set_acls(PRODUCER_ID_BLOCK, OPEN_ACL_UNSAFE)
        assert allocate() == (ErrorCode.NONE, 0, 1000)
    finally:
        kazoo.stop()
        kazoo.close()


def test_init_producer_id_is_answered_at_once_while_zookeeper_is_unreachable(
        tmp_path: Path, zookeeper: ZooKeeperServer, caplog: pytest.LogCaptureFixture) -> None:
    """The issue's own fault: the broker is cut off from ZooKeeper (a proxy between them) and
    its block of producer ids runs out. The request for the next block (made at 90% of the
    block) waits for ZooKeeper, but InitProducerId does not: it is answered
    COORDINATOR_LOAD_IN_PROGRESS at once, as Kafka 3.9 answers, where josefk used to hold it
    (and the client's connection) until ZooKeeper was back. The session expires meanwhile,
    so the waiting request fails when ZooKeeper is reachable again; the next InitProducerId
    asks anew (after the 50 ms backoff) and ids flow, from the next block. kafka-python,
    started during the outage, retries and delivers."""
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
        wait_until(lambda: kazoo.exists(PRODUCER_ID_BLOCK) is not None and kazoo.get(PRODUCER_ID_BLOCK)[0] != b"",
                   "the broker reserved its first block at start-up", 30)
        proxy.cut()

        with connect(broker.bootstrap) as sock:
            def init_producer_id() -> tuple[int, int]:
                _cid, response = call(sock, ApiKey.InitProducerId, 1, transactional_id=None,
                                      transaction_timeout_ms=60000)
                return response.error_code, response.producer_id

            assert [init_producer_id() for _ in range(BLOCK_SIZE)] == [(ErrorCode.NONE, i) for i in range(BLOCK_SIZE)]
            started = time.monotonic()
            assert init_producer_id() == (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, -1)
            answered_in = time.monotonic() - started
            assert answered_in < 2, f"answered in {answered_in:.1f} s"

            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, client_id=KAFKA_PYTHON,
                                     enable_idempotence=True, acks="all", max_block_ms=60000,
                                     delivery_timeout_ms=60000)
            sent = producer.send(TOPIC, value=b"after the outage", partition=0)
            wait_until(lambda: kazoo.exists("/brokers/ids/1") is None, "ZooKeeper expired the broker's session", 60)
            assert init_producer_id() == (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, -1)
            proxy.restore()
            wait_until(lambda: init_producer_id()[0] == ErrorCode.NONE, "InitProducerId is served again", 60)
        assert sent.get(timeout=60).offset == 0
        messages = [r.getMessage() for r in caplog.records]
        answers = [m for m in messages if m.startswith("Received transactional response InitProducerIdResponse")]
        assert "error_code=14" in answers[0] and "error_code=0" in answers[-1], answers
        assert any("Could not reserve a producer id block: SessionExpiredError" in m for m in messages)
        assert json.loads(kazoo.get(PRODUCER_ID_BLOCK)[0])["block_start"] == str(BLOCK_SIZE)
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
