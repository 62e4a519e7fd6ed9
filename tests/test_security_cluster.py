"""Security across brokers: a 3-broker ZooKeeper cluster whose inter-broker listener is
SASL_PLAINTEXT with SCRAM-SHA-256 replicates; and Apache Kafka 3.9.2 with the same SASL
configuration answers a good and a wrong password as josefk does."""

from __future__ import annotations

import json
import socket

import pytest
import scramp
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic, ScramMechanism, UserScramCredentialUpsertion
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.kafka import KafkaBroker
from harness.net import free_port
from harness.wire import call, wait_until
from josefk.protocol.apis import ApiKey
from josefk.server.network.security.scram import make_credential

pytestmark = pytest.mark.cluster

SCRAM_JAAS = ('org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" '
              'password="admin-secret";')
PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";')


def _store_user(kazoo: KazooClient, user: str, password: str) -> None:
    """The credential as `kafka-configs --zookeeper ... --add-config SCRAM-SHA-256=[...]` wrote it."""
    config = {"SCRAM-SHA-256": make_credential("SCRAM-SHA-256", password).to_config()}
    kazoo.create(f"/config/users/{user}", json.dumps({"version": 1, "config": config}).encode(), makepath=True)


def test_cluster_replicates_over_a_sasl_scram_inter_broker_listener(zookeeper, tmp_path) -> None:
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    _store_user(kazoo, "admin", "admin-secret")
    brokers: dict[int, BrokerProcess] = {}
    sasl_ports: dict[int, int] = {}
    try:
        for broker_id in (1, 2, 3):
            port, sasl_ports[broker_id] = free_port(), free_port()
            brokers[broker_id] = BrokerProcess(tmp_path / f"b{broker_id}", port=port, overrides={
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect,
                "listeners": f"PLAINTEXT://127.0.0.1:{port},SASL_PLAINTEXT://127.0.0.1:{sasl_ports[broker_id]}",
                "security.inter.broker.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-256", "sasl.enabled.mechanisms": "SCRAM-SHA-256",
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_JAAS,
                "default.replication.factor": "3", "offsets.topic.replication.factor": "3",
                "zookeeper.session.timeout.ms": "6000"})
        registration = json.loads(kazoo.get("/brokers/ids/2")[0])
        assert registration["endpoints"] == [f"PLAINTEXT://{brokers[2].bootstrap}",
                                             f"SASL_PLAINTEXT://127.0.0.1:{sasl_ports[2]}"]
        assert registration["listener_security_protocol_map"] == {"PLAINTEXT": "PLAINTEXT",
                                                                  "SASL_PLAINTEXT": "SASL_PLAINTEXT"}
        bootstrap = ",".join(b.bootstrap for b in brokers.values())
        admin = KafkaAdminClient(bootstrap_servers=brokers[1].bootstrap)
        admin.create_topics([NewTopic("replicated", 2, 3, topic_configs={"min.insync.replicas": "3"})])
        # A credential made through broker 1 reaches broker 3 by the config change notification.
        assert admin.alter_user_scram_credentials([UserScramCredentialUpsertion(
            "alice", ScramMechanism.SCRAM_SHA_256, "alice-secret")]) == {"alice": None}
        admin.close()
        wait_until(lambda: _authenticate(sasl_ports[3], "SCRAM-SHA-256", "alice-secret")[-1] == (0, "open"),
                   "broker 3 learnt alice's credential", timeout=30)

        def isr_full() -> bool:
            states = [json.loads(kazoo.get(f"/brokers/topics/replicated/partitions/{p}/state")[0]) for p in (0, 1)]
            return all(len(s["isr"]) == 3 for s in states)

        wait_until(isr_full, "followers fetched over SASL and joined the ISRs", timeout=60)
        producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
        for i in range(50):  # min.insync.replicas=3: each write waits for both followers' fetches
            producer.send("replicated", f"r{i}".encode()).get(timeout=30)
        producer.close()
        leader = json.loads(kazoo.get("/brokers/topics/replicated/partitions/0/state")[0])["leader"]
        brokers[leader].kill()
        survivors = ",".join(b.bootstrap for i, b in brokers.items() if i != leader)
        consumer = KafkaConsumer("replicated", bootstrap_servers=survivors, auto_offset_reset="earliest",
                                 consumer_timeout_ms=20000)
        values = {m.value for m in consumer}
        consumer.close()
        assert values == {f"r{i}".encode() for i in range(50)}
    finally:
        for broker in brokers.values():
            broker.stop()
        kazoo.stop()


def _authenticate(port: int, mechanism: str, password: str) -> list[tuple[int, str | None]]:
    """SaslHandshake v1 + SaslAuthenticate v2 over a raw socket: each answer's (error, message)."""
    answers: list[tuple[int, str | None]] = []
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 1, mechanism=mechanism)
        answers.append((handshake.error_code, None))
        if mechanism == "PLAIN":
            _cid, response = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=b"\0alice\0" + password.encode())
            answers.append((response.error_code, response.error_message))
        else:
            client = scramp.ScramClient([mechanism], "alice", password)
            _cid, first = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=client.get_client_first().encode())
            answers.append((first.error_code, first.error_message))
            if first.error_code == 0:  # an unknown user fails at the first message
                client.set_server_first(bytes(first.auth_bytes).decode())
                _cid, final = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=client.get_client_final().encode())
                answers.append((final.error_code, final.error_message))
        answers.append((-1, "closed" if sock.recv(1) == b"" else "open") if answers[-1][0] else (0, "open"))
    return answers


def test_kafka_and_josefk_answer_good_and_wrong_passwords_alike(zookeeper, tmp_path) -> None:
    sasl_props = {"sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
                  "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS,
                  # Kafka wants a login module for every server mechanism; SCRAM's takes no options.
                  "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config":
                      "org.apache.kafka.common.security.scram.ScramLoginModule required;"}
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    _store_user(kazoo, "alice", "alice-secret")
    kazoo.stop()
    kafka_port, kafka_sasl, josefk_sasl = free_port(), free_port(), free_port()
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1, port=kafka_port, overrides={
        "listeners": f"PLAINTEXT://127.0.0.1:{kafka_port},SASL_PLAINTEXT://127.0.0.1:{kafka_sasl}", **sasl_props})
    josefk = None
    try:
        josefk_port = free_port()
        josefk = BrokerProcess(tmp_path / "josefk", port=josefk_port, overrides={
            "listeners": f"PLAINTEXT://127.0.0.1:{josefk_port},SASL_PLAINTEXT://127.0.0.1:{josefk_sasl}",
            **sasl_props})
        admin = KafkaAdminClient(bootstrap_servers=josefk.bootstrap)  # a standalone josefk: its own store
        assert admin.alter_user_scram_credentials([UserScramCredentialUpsertion(
            "alice", ScramMechanism.SCRAM_SHA_256, "alice-secret")]) == {"alice": None}
        admin.close()
        for mechanism in ("PLAIN", "SCRAM-SHA-256"):
            for password in ("alice-secret", "wrong"):
                expected = _authenticate(kafka_sasl, mechanism, password)
                assert _authenticate(josefk_sasl, mechanism, password) == expected, (mechanism, password)
        assert _authenticate(josefk_sasl, "PLAIN", "wrong")[1] == (
            58, "Authentication failed: Invalid username or password")
    finally:
        if josefk is not None:
            josefk.stop()
        kafka.stop()


def test_cluster_replicates_over_a_mutual_tls_inter_broker_listener(zookeeper, tmp_path) -> None:
    """Inter-broker SSL with ssl.client.auth=required: every broker presents its keystore to
    the others and checks theirs (hostname included) against the truststore."""
    from tests.security_certs import PASSWORD, make_certs
    certs = make_certs(tmp_path / "certs")
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    brokers: dict[int, BrokerProcess] = {}
    try:
        for broker_id in (1, 2, 3):
            port, ssl_port = free_port(), free_port()
            brokers[broker_id] = BrokerProcess(tmp_path / f"b{broker_id}", port=port, overrides={
                "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect,
                "listeners": f"PLAINTEXT://127.0.0.1:{port},SSL://127.0.0.1:{ssl_port}",
                "security.inter.broker.protocol": "SSL", "ssl.client.auth": "required",
                "ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
                "ssl.keystore.password": PASSWORD, "ssl.key.password": PASSWORD,
                "ssl.truststore.type": "PEM", "ssl.truststore.location": str(certs.ca),
                "default.replication.factor": "3", "offsets.topic.replication.factor": "3",
                "zookeeper.session.timeout.ms": "6000"})
        bootstrap = ",".join(b.bootstrap for b in brokers.values())
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        admin.create_topics([NewTopic("tls-replicated", 1, 3, topic_configs={"min.insync.replicas": "3"})])
        admin.close()

        def isr_full() -> bool:
            state = json.loads(kazoo.get("/brokers/topics/tls-replicated/partitions/0/state")[0])
            return len(state["isr"]) == 3

        wait_until(isr_full, "followers fetched over mutual TLS and joined the ISR", timeout=60)
        producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
        for i in range(20):
            producer.send("tls-replicated", f"t{i}".encode()).get(timeout=30)
        producer.close()
    finally:
        for broker in brokers.values():
            broker.stop()
        kazoo.stop()
