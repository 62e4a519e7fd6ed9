"""Brokers on the JKS stores keytool writes, with a server.properties as Kafka's docs write it
(no store type: JKS): stock clients over mutual TLS, the principal from the client certificate,
start-up refused with the key named when a store cannot be read, Kafka 3.9 on the same files."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from confluent_kafka import Producer
from kafka import KafkaConsumer, KafkaProducer

from harness.kafka import KAFKA_LIB, KafkaBroker
from harness.net import free_port
from harness.zookeeper import ZooKeeperServer
from josefk.clients.network_client import BrokerConnection, ClientSecurity
from josefk.protocol.messages.generated.metadata_request import MetadataRequest
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.server.network.security.principal import KafkaPrincipal
from tests.conftest import RunningBroker
from tests.prerequisites import require_files
from tests.security_certs import Certs, KeytoolStores, keytool_ssl_props, keytool_stores, make_certs

ALICE = KafkaPrincipal("User", "CN=alice,OU=Clients,O=josefk")  # the DEFAULT mapping: the whole DN


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def jks(certs: Certs, tmp_path_factory: pytest.TempPathFactory) -> KeytoolStores:
    return keytool_stores(certs, tmp_path_factory.mktemp("jks"), "JKS")


def _kafka_python(certs: Certs) -> dict:
    return {"security_protocol": "SSL", "ssl_cafile": str(certs.ca), "ssl_certfile": str(certs.client.cert),
            "ssl_keyfile": str(certs.client.key)}


def _round_trip(bootstrap: str, certs: Certs, topic: str) -> list[bytes]:
    """Produce one record with kafka-python over mutual TLS and read it back."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", **_kafka_python(certs))
    try:
        producer.send(topic, b"over JKS").get(timeout=60)
    finally:
        producer.close()
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                             consumer_timeout_ms=30_000, **_kafka_python(certs))
    try:
        return [next(iter(consumer)).value]
    finally:
        consumer.close()


async def _metadata_without_a_certificate(port: int, certs: Certs) -> None:
    connection = BrokerConnection("127.0.0.1", port, "test",
                                  ClientSecurity("SSL", ssl.create_default_context(cafile=str(certs.ca))))
    try:
        await connection.request(ApiKey.Metadata, 12, MetadataRequest(
            topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False))
    finally:
        connection.close()


@pytest.mark.integration
def test_a_broker_on_jks_stores_serves_clients_named_by_their_certificate(tmp_path: Path, certs: Certs,
                                                                         jks: KeytoolStores) -> None:
    broker = RunningBroker(tmp_path / "logs", {"listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
                                               **keytool_ssl_props(jks)})
    try:
        port = next(a.port for a in broker.server.acceptors if a.name == "SSL")
        apis = broker.server.apis
        seen: list[KafkaPrincipal] = []
        original = apis.handlers[ApiKey.Produce]

        def produce(request):
            seen.append(request.principal)
            return original(request)

        apis.handlers[ApiKey.Produce] = produce
        assert _round_trip(f"127.0.0.1:{port}", certs, "jks") == [b"over JKS"]
        assert seen and set(seen) == {ALICE}
        conf = {"bootstrap.servers": f"127.0.0.1:{port}", "security.protocol": "SSL",
                "ssl.ca.location": str(certs.ca), "ssl.certificate.location": str(certs.client.cert),
                "ssl.key.location": str(certs.client.key)}
        producer = Producer(conf)
        producer.produce("jks", b"librdkafka")
        assert producer.flush(30) == 0
        assert seen[-1] == ALICE
        # ssl.client.auth=required: no certificate, no connection (with TLS 1.3 the handshake may
        # finish on the client first; then the first read finds the connection closed).
        with pytest.raises((ssl.SSLError, ConnectionError, OSError, asyncio.IncompleteReadError)):
            asyncio.run(_metadata_without_a_certificate(port, certs))
    finally:
        broker.stop()


CLI_ERRORS = [
    ({"ssl.keystore.password": "wrong"}, "ssl.keystore.password: wrong password for the JKS keystore"),
    ({"ssl.key.password": "wrong"}, "ssl.key.password: wrong password for the key entry 'broker'"),
    ({"ssl.keystore.location": "empty"}, "ssl.keystore.location: the JKS keystore holds no private key entry"),
    ({"ssl.truststore.location": "empty-trust"}, "ssl.truststore.location: the JKS truststore holds no certificates"),
    ({"ssl.keystore.location": "ca.crt"}, "ssl.keystore.location: the file is neither a JKS nor a PKCS12 keystore"),
]


@pytest.mark.integration
@pytest.mark.parametrize(("change", "message"), CLI_ERRORS,
                         ids=["store-password", "key-password", "no-key", "no-certificates", "not-a-store"])
def test_josefk_broker_exits_naming_the_key(tmp_path: Path, certs: Certs, jks: KeytoolStores,
                                            change: dict[str, str], message: str) -> None:
    from tests.security_certs import PASSWORD, keytool
    files = {"empty": str(jks.empty_keystore), "ca.crt": str(certs.ca), "empty-trust": str(tmp_path / "e.jks")}
    if "empty-trust" in change.values():
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", str(certs.ca), "-keystore", files["empty-trust"],
                "-storetype", "JKS", "-storepass", PASSWORD)
        keytool("-delete", "-alias", "ca", "-keystore", files["empty-trust"], "-storetype", "JKS",
                "-storepass", PASSWORD)
    props = {"listeners": f"SSL://127.0.0.1:{free_port()}", "security.inter.broker.protocol": "SSL",
             "log.dirs": str(tmp_path / "logs"), **keytool_ssl_props(jks),
             **{k: files.get(v, v) for k, v in change.items()}}
    config = tmp_path / "server.properties"
    config.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    done = subprocess.run([sys.executable, "-m", "josefk", "broker", str(config)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"Invalid value for configuration {message}" in done.stderr


@pytest.mark.cluster
def test_kafka_and_josefk_serve_the_same_jks_stores(tmp_path: Path, certs: Certs, jks: KeytoolStores,
                                                    zookeeper: ZooKeeperServer) -> None:
    """Kafka 3.9 reads the same keytool files under the same keys: the client finds both alike."""
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar", "kafka-clients-3.9.2.jar"], "make kafka-jars")
    plain, tls = free_port(), free_port()
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1, port=plain, overrides={
        "listeners": f"PLAINTEXT://127.0.0.1:{plain},SSL://127.0.0.1:{tls}", **keytool_ssl_props(jks)})
    try:
        assert _round_trip(f"127.0.0.1:{tls}", certs, "jks") == [b"over JKS"]
    finally:
        kafka.stop()
    broker = RunningBroker(tmp_path / "josefk", {"listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
                                                 **keytool_ssl_props(jks)})
    try:
        port = next(a.port for a in broker.server.acceptors if a.name == "SSL")
        assert _round_trip(f"127.0.0.1:{port}", certs, "jks") == [b"over JKS"]
    finally:
        broker.stop()
