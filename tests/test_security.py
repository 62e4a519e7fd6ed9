"""Listeners, TLS and SASL with real clients: kafka-python 3, confluent-kafka (librdkafka)
and kcat produce, consume and join a group over SSL, SASL_PLAINTEXT and SASL_SSL with PLAIN,
SCRAM-SHA-256 and SCRAM-SHA-512; mutual TLS; Kafka's answers to a wrong password and to a
request before authentication; Metadata answering each listener with its own addresses."""

from __future__ import annotations

import asyncio
import shutil
import socket
import ssl
import struct
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import ScramMechanism, UserScramCredentialUpsertion

from harness.wire import call, encode_request, read_frame
from josefk.cli.kafka_messages import request_class, response_class
from josefk.clients.network_client import AuthenticationFailed, BrokerConnection, ClientSecurity
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.describe_cluster_request import DescribeClusterRequest
from josefk.protocol.messages.generated.describe_cluster_response import DescribeClusterResponse
from josefk.protocol.messages.generated.find_coordinator_request import FindCoordinatorRequest
from josefk.protocol.messages.generated.find_coordinator_response import FindCoordinatorResponse
from josefk.protocol.messages.generated.metadata_request import MetadataRequest
from josefk.protocol.messages.generated.metadata_response import MetadataResponse
from josefk.server.network.request_channel import Request
from josefk.server.network.security.principal import KafkaPrincipal
from tests.conftest import RunningBroker
from tests.security_certs import PASSWORD, Certs, make_certs

pytestmark = pytest.mark.integration

PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";')
USER, SECRET = "alice", "alice-secret"
CASES = [("SSL", None), ("SASL_PLAINTEXT", "PLAIN"), ("SASL_PLAINTEXT", "SCRAM-SHA-256"),
         ("SASL_PLAINTEXT", "SCRAM-SHA-512"), ("SASL_SSL", "PLAIN"), ("SASL_SSL", "SCRAM-SHA-256"),
         ("SASL_SSL", "SCRAM-SHA-512")]
IDS = [f"{p}-{m}" if m else p for p, m in CASES]


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


class SecureBroker:
    """A broker with PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL listeners; alice has
    SCRAM credentials (made over PLAINTEXT with AlterUserScramCredentials)."""

    def __init__(self, log_dir: Path, certs: Certs, overrides: dict[str, str] | None = None) -> None:
        self.certs = certs
        self.broker = RunningBroker(log_dir, {
            "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,"
                         "SASL_SSL://127.0.0.1:0",
            "ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
            "ssl.keystore.password": PASSWORD, "ssl.key.password": PASSWORD,
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS,
            "listener.name.sasl_ssl.plain.sasl.jaas.config": PLAIN_JAAS, **(overrides or {})})
        self.ports = {a.name: a.port for a in self.broker.server.acceptors}
        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap("PLAINTEXT"))
        try:
            result = admin.alter_user_scram_credentials([
                UserScramCredentialUpsertion(USER, ScramMechanism.SCRAM_SHA_256, SECRET),
                UserScramCredentialUpsertion("bob", ScramMechanism.SCRAM_SHA_512, SECRET)])
            assert result == {USER: None, "bob": None}
            assert admin.alter_user_scram_credentials([
                UserScramCredentialUpsertion(USER, ScramMechanism.SCRAM_SHA_512, SECRET)]) == {USER: None}
        finally:
            admin.close()

    def bootstrap(self, listener: str) -> str:
        return f"127.0.0.1:{self.ports[listener]}"

    def stop(self) -> None:
        self.broker.stop()


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory, certs: Certs) -> Iterator[SecureBroker]:
    broker = SecureBroker(tmp_path_factory.mktemp("secure") / "logs", certs)
    yield broker
    broker.stop()


def _kafka_python(protocol: str, mechanism: str | None, certs: Certs) -> dict:
    opts: dict = {"security_protocol": protocol}
    if "SSL" in protocol:
        opts["ssl_cafile"] = str(certs.ca)
    if mechanism:
        opts.update(sasl_mechanism=mechanism, sasl_plain_username=USER, sasl_plain_password=SECRET)
    return opts


def _librdkafka(protocol: str, mechanism: str | None, certs: Certs, bootstrap: str) -> dict:
    conf = {"bootstrap.servers": bootstrap, "security.protocol": protocol}
    if "SSL" in protocol:
        conf["ssl.ca.location"] = str(certs.ca)
    if mechanism:
        conf.update({"sasl.mechanism": mechanism, "sasl.username": USER, "sasl.password": SECRET})
    return conf


@pytest.mark.parametrize(("protocol", "mechanism"), CASES, ids=IDS)
def test_kafka_python_produces_consumes_and_joins_a_group(secure: SecureBroker, protocol: str,
                                                         mechanism: str | None) -> None:
    topic, bootstrap = f"kp-{uuid.uuid4().hex[:8]}", secure.bootstrap(protocol)
    opts = _kafka_python(protocol, mechanism, secure.certs)
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", **opts)
    for i in range(20):
        producer.send(topic, f"v{i}".encode())
    producer.flush()
    producer.close()
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=f"g-{topic}", auto_offset_reset="earliest",
                             consumer_timeout_ms=15000, **opts)
    values = []
    for record in consumer:
        values.append(record.value)
        if len(values) == 20:
            break
    assert consumer.assignment(), "the consumer joined the group and got the partition"
    consumer.commit()
    consumer.close()
    assert values == [f"v{i}".encode() for i in range(20)]


@pytest.mark.parametrize(("protocol", "mechanism"), CASES, ids=IDS)
def test_librdkafka_produces_consumes_and_joins_a_group(secure: SecureBroker, protocol: str,
                                                       mechanism: str | None) -> None:
    topic = f"rd-{uuid.uuid4().hex[:8]}"
    conf = _librdkafka(protocol, mechanism, secure.certs, secure.bootstrap(protocol))
    producer = Producer({**conf, "acks": "all"})
    for i in range(20):
        producer.produce(topic, f"v{i}".encode())
    assert producer.flush(30) == 0
    consumer = Consumer({**conf, "group.id": f"g-{topic}", "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    values: list[bytes | None] = []
    for _ in range(300):
        if len(values) == 20:
            break
        msg = consumer.poll(0.1)
        if msg is not None and not msg.error():
            values.append(msg.value())
    consumer.commit(asynchronous=False)
    committed = consumer.committed(consumer.assignment(), timeout=10)
    consumer.close()
    assert values == [f"v{i}".encode() for i in range(20)]
    assert [tp.offset for tp in committed] == [20]


@pytest.mark.parametrize(("protocol", "mechanism"), [("SSL", None), ("SASL_SSL", "SCRAM-SHA-512"),
                                                     ("SASL_PLAINTEXT", "PLAIN")], ids=["SSL", "SASL_SSL-SCRAM",
                                                                                         "SASL_PLAINTEXT-PLAIN"])
def test_kcat_produces_and_consumes_in_a_group(secure: SecureBroker, protocol: str, mechanism: str | None) -> None:
    kcat = shutil.which("kcat") or shutil.which("kafkacat")
    if kcat is None:
        pytest.fail("kcat not found: apt-get install kcat", pytrace=False)
    topic = f"kc-{uuid.uuid4().hex[:8]}"
    conf = _librdkafka(protocol, mechanism, secure.certs, secure.bootstrap(protocol))
    flags = [f"-X{k}={v}" for k, v in conf.items() if k != "bootstrap.servers"]
    base = [kcat, "-b", conf["bootstrap.servers"], *flags]
    subprocess.run([*base, "-P", "-t", topic], input=b"one\ntwo\nthree\n", check=True, timeout=60)
    out = subprocess.run([*base, "-G", f"g-{topic}", "-o", "beginning", "-c", "3", "-e", "-X",
                          "auto.offset.reset=earliest", topic], capture_output=True, check=True, timeout=60)
    assert out.stdout.split() == [b"one", b"two", b"three"]


def _sasl_socket(secure: SecureBroker, listener: str = "SASL_PLAINTEXT") -> socket.socket:
    return socket.create_connection(("127.0.0.1", secure.ports[listener]), timeout=10)


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
def test_wrong_password_gets_sasl_authentication_failed_then_the_connection_closes(
        secure: SecureBroker, mechanism: str) -> None:
    with _sasl_socket(secure) as sock:
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 1, mechanism=mechanism)
        assert handshake.error_code == 0
        if mechanism == "PLAIN":
            _cid, response = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=b"\0alice\0wrong")
            message = "Authentication failed: Invalid username or password"
        else:
            import scramp
            client = scramp.ScramClient([mechanism], USER, "wrong")
            _cid, first = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=client.get_client_first().encode())
            assert first.error_code == 0
            client.set_server_first(bytes(first.auth_bytes).decode())
            _cid, response = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=client.get_client_final().encode())
            message = ("Authentication failed during authentication due to invalid credentials with SASL "
                       f"mechanism {mechanism}")
        assert response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED == 58
        assert response.error_message == message
        assert _closed(sock)


def test_a_request_before_authentication_closes_the_connection(secure: SecureBroker) -> None:
    with _sasl_socket(secure) as sock:
        _cid, versions = call(sock, ApiKey.ApiVersions, 3, client_software_name="t", client_software_version="1")
        assert versions.error_code == 0  # ApiVersions is allowed before authentication
        body = request_class(ApiKey.Metadata)(topics=None)
        sock.sendall(encode_request(ApiKey.Metadata, 1, body))
        assert _closed(sock)


def test_unsupported_mechanism_lists_the_enabled_ones(secure: SecureBroker) -> None:
    with _sasl_socket(secure) as sock:
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 1, mechanism="GSSAPI")
        assert handshake.error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM
        assert handshake.mechanisms == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
        assert _closed(sock)


def test_old_framing_handshake_v0_then_raw_tokens(secure: SecureBroker) -> None:
    with _sasl_socket(secure) as sock:
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 0, mechanism="PLAIN")
        assert handshake.error_code == 0
        token = b"\0alice\0alice-secret"
        sock.sendall(struct.pack(">i", len(token)) + token)
        assert read_frame(sock) == b""
        _cid, metadata = call(sock, ApiKey.Metadata, 1, topics=[])
        assert [b.port for b in metadata.brokers] == [secure.ports["SASL_PLAINTEXT"]]


def test_sasl_apis_on_a_plaintext_listener_are_illegal_sasl_state(secure: SecureBroker) -> None:
    with socket.create_connection(("127.0.0.1", secure.ports["PLAINTEXT"]), timeout=10) as sock:
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 1, mechanism="PLAIN")
        assert handshake.error_code == ErrorCode.ILLEGAL_SASL_STATE


def _security(secure: SecureBroker, protocol: str, mechanism: str | None = None, password: str = SECRET,
              client_cert: bool = False) -> ClientSecurity:
    ctx = None
    if "SSL" in protocol:
        ctx = ssl.create_default_context(cafile=str(secure.certs.ca))
        if client_cert:
            ctx.load_cert_chain(str(secure.certs.client.cert), str(secure.certs.client.key))
    return ClientSecurity(protocol, ctx, mechanism, USER if mechanism else None, password if mechanism else None)


async def _metadata(port: int, security: ClientSecurity):
    connection = BrokerConnection("127.0.0.1", port, "test", security)
    try:
        return await connection.request(ApiKey.Metadata, 12, MetadataRequest(
            topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False))
    finally:
        connection.close()


def test_metadata_answers_with_the_addresses_of_the_listener_the_request_came_in_on(secure: SecureBroker) -> None:
    for listener, security in [("PLAINTEXT", ClientSecurity()), ("SSL", _security(secure, "SSL")),
                               ("SASL_PLAINTEXT", _security(secure, "SASL_PLAINTEXT", "SCRAM-SHA-256")),
                               ("SASL_SSL", _security(secure, "SASL_SSL", "SCRAM-SHA-512"))]:
        response = asyncio.run(_metadata(secure.ports[listener], security))
        assert [(b.host, b.port) for b in response.brokers] == [("127.0.0.1", secure.ports[listener])], listener


def test_inter_broker_client_fails_with_a_wrong_scram_password(secure: SecureBroker) -> None:
    with pytest.raises(AuthenticationFailed, match="invalid credentials with SASL mechanism SCRAM-SHA-256"):
        asyncio.run(_metadata(secure.ports["SASL_PLAINTEXT"],
                              _security(secure, "SASL_PLAINTEXT", "SCRAM-SHA-256", password="nope")))


def test_principals_reach_the_handlers(secure: SecureBroker) -> None:
    seen: list[tuple[str, KafkaPrincipal]] = []
    apis = secure.broker.server.apis
    original = apis.handlers[ApiKey.Metadata]

    def spy(request) -> None:
        seen.append((request.listener_name, request.principal))
        original(request)

    apis.handlers[ApiKey.Metadata] = spy
    try:
        asyncio.run(_metadata(secure.ports["PLAINTEXT"], ClientSecurity()))
        asyncio.run(_metadata(secure.ports["SASL_SSL"], _security(secure, "SASL_SSL", "SCRAM-SHA-512")))
        asyncio.run(_metadata(secure.ports["SSL"], _security(secure, "SSL")))
    finally:
        apis.handlers[ApiKey.Metadata] = original
    assert seen == [("PLAINTEXT", KafkaPrincipal("User", "ANONYMOUS")), ("SASL_SSL", KafkaPrincipal("User", USER)),
                    ("SSL", KafkaPrincipal("User", "ANONYMOUS"))]


def test_describe_user_scram_credentials(secure: SecureBroker) -> None:
    admin = KafkaAdminClient(bootstrap_servers=secure.bootstrap("PLAINTEXT"))
    try:
        described = admin.describe_user_scram_credentials([USER])
    finally:
        admin.close()
    infos = described[USER]["credential_infos"]
    assert [(i["mechanism"], i["iterations"]) for i in infos] == [(ScramMechanism.SCRAM_SHA_256, 4096),
                                                                  (ScramMechanism.SCRAM_SHA_512, 4096)]


def test_mutual_tls_refuses_a_client_without_a_certificate(tmp_path: Path, certs: Certs) -> None:
    broker = RunningBroker(tmp_path / "logs", {
        "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0", "ssl.client.auth": "required",
        "ssl.keystore.type": "PEM", "ssl.keystore.location": str(certs.broker.pem), "ssl.key.password": PASSWORD,
        "ssl.truststore.type": "PKCS12", "ssl.truststore.location": str(certs.ca_p12),
        "ssl.truststore.password": PASSWORD,
        "ssl.principal.mapping.rules": "RULE:^CN=([^,]*),OU=Clients.*$/$1/,DEFAULT"})
    try:
        port = next(a.port for a in broker.server.acceptors if a.name == "SSL")
        secure = type("S", (), {"certs": certs})()
        # TLS 1.3: the client's handshake may finish before the broker rejects it; then the
        # first read finds the connection closed.
        with pytest.raises((ssl.SSLError, ConnectionError, OSError, asyncio.IncompleteReadError)):
            asyncio.run(_metadata(port, _security(secure, "SSL")))
        seen: list[KafkaPrincipal] = []
        apis = broker.server.apis
        original = apis.handlers[ApiKey.Metadata]

        def recording(request: Request[ApiMessage]) -> None:
            seen.append(request.principal)
            original(request)
        apis.handlers[ApiKey.Metadata] = recording
        response = asyncio.run(_metadata(port, _security(secure, "SSL", client_cert=True)))
        assert [b.port for b in response.brokers] == [port]
        assert seen == [KafkaPrincipal("User", "alice")]  # CN=alice,OU=Clients,O=josefk mapped by the rule
        conf = {"bootstrap.servers": f"127.0.0.1:{port}", "security.protocol": "SSL",
                "ssl.ca.location": str(certs.ca), "ssl.certificate.location": str(certs.client.cert),
                "ssl.key.location": str(certs.client.key)}
        producer = Producer(conf)
        producer.produce("mtls", b"x")
        assert producer.flush(30) == 0
    finally:
        broker.stop()


REAUTH_SESSION_MS = 10_000


def test_librdkafka_reauthenticates_before_the_session_expires(tmp_path: Path, certs: Certs) -> None:
    """librdkafka re-authenticates at 90% of the session: a 10 s session leaves the 1 s a loaded
    machine's pauses need. The producer runs until a connection outlived its first session."""
    broker = SecureBroker(tmp_path / "logs", certs, {"connections.max.reauth.ms": str(REAUTH_SESSION_MS)})
    try:
        conf = _librdkafka("SASL_PLAINTEXT", "SCRAM-SHA-256", certs, broker.bootstrap("SASL_PLAINTEXT"))
        producer = Producer(conf)
        sessions = _SessionsSeen(broker.broker)
        deadline = time.monotonic() + 6 * REAUTH_SESSION_MS / 1000
        while not sessions.one_outlived_its_first():
            assert time.monotonic() < deadline, "no connection re-authenticated past its first session"
            producer.produce("rd-reauth", b"x")
            assert producer.flush(10) == 0
        assert broker.broker.server.metrics["closed_bad_input"] == 0  # re-authenticated, never cut off
    finally:
        broker.stop()


def test_java_client_reauthenticates_before_the_session_expires(tmp_path: Path, certs: Certs) -> None:
    """The Java client re-authenticates at 85-95% of the session (SaslClientAuthenticator), so
    the session is long enough that the 5% left (1 s) outlasts a loaded machine's pauses. The
    producer runs until a connection re-authenticated and then outlived its first session."""
    from harness.wire import wait_until
    from tests.prerequisites import require_files, require_tools
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    session_ms = 20_000
    broker = SecureBroker(tmp_path / "logs", certs, {"connections.max.reauth.ms": str(session_ms)})
    try:
        source = Path(__file__).resolve().parent.parent / "compat" / "java" / "SecureClient.java"
        classpath = ":".join(str(JAVA_LIB / j) for j in JAVA_JARS)
        with (tmp_path / "out").open("w+") as out, (tmp_path / "err").open("w+") as err:
            java = subprocess.Popen(["java", "-cp", classpath, str(source), broker.bootstrap("SASL_SSL"), "SASL_SSL",
                                     "SCRAM-SHA-512", USER, SECRET, str(certs.ca), "java-reauth", "1", "600"],
                                    stdin=subprocess.PIPE, stdout=out, stderr=err, text=True)
            try:
                sessions = _SessionsSeen(broker.broker)
                wait_until(sessions.one_outlived_its_first, "a connection re-authenticated past its first session",
                           timeout=6 * session_ms / 1000)
                java.communicate("done\n", timeout=180)
            finally:
                if java.poll() is None:
                    java.kill()
                    java.wait()
            out.seek(0)
            err.seek(0)
            output = out.read()
            assert java.returncode == 0 and "OK" in output, output[-2000:] + err.read()[-3000:]
        assert broker.broker.server.metrics["closed_bad_input"] == 0  # re-authenticated, never cut off
    finally:
        broker.stop()


class _SessionsSeen:
    """The SASL session expiries the broker gave each connection, as seen by polling it."""

    def __init__(self, broker: RunningBroker) -> None:
        self.broker = broker
        self.expiries: dict[str, list[int]] = {}

    def one_outlived_its_first(self) -> bool:
        """Whether a connection was seen in a second session (re-authenticated) after its first
        session's end on the broker's clock."""
        now, current = self.broker.call(self._current())
        for connection_id, expiry in current.items():
            seen = self.expiries.setdefault(connection_id, [])
            if not seen or seen[-1] != expiry:
                seen.append(expiry)
        return any(len(seen) > 1 and now > seen[0] for seen in self.expiries.values())

    async def _current(self) -> tuple[int, dict[str, int]]:
        server = self.broker.server
        return server.time.milliseconds(), {
            c.connection_id: c.authenticator.session_expiry_ms for a in server.acceptors for p in a.processors
            for c in p.connections
            if c.authenticator is not None and c.authenticator.complete and c.authenticator.session_expiry_ms}


def test_session_expiry_closes_the_connection_on_the_next_request(tmp_path: Path, certs: Certs) -> None:
    broker = SecureBroker(tmp_path / "logs", certs, {"connections.max.reauth.ms": "300"})
    try:
        with _sasl_socket(broker) as sock:
            call(sock, ApiKey.SaslHandshake, 1, mechanism="PLAIN")
            _cid, auth = call(sock, ApiKey.SaslAuthenticate, 1, auth_bytes=b"\0alice\0alice-secret")
            assert auth.error_code == 0 and auth.session_lifetime_ms == 300
            clock = broker.broker.server.time
            deadline = clock.milliseconds() + 300
            from harness.wire import wait_until
            wait_until(lambda: clock.milliseconds() > deadline + 1, "the session expired", timeout=5)
            sock.sendall(encode_request(ApiKey.Metadata, 1, request_class(ApiKey.Metadata)(topics=[])))
            assert _closed(sock)
    finally:
        broker.stop()


def test_kafka_python_reauthenticates_before_the_session_expires(tmp_path: Path, certs: Certs) -> None:
    """KIP-368 from the client side: the producer keeps working past its first session, with a
    session long enough (as for librdkafka above) that a loaded machine cannot eat the margin."""
    broker = SecureBroker(tmp_path / "logs", certs, {"connections.max.reauth.ms": str(REAUTH_SESSION_MS)})
    try:
        opts = _kafka_python("SASL_PLAINTEXT", "SCRAM-SHA-256", certs)
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap("SASL_PLAINTEXT"), **opts)
        sessions = _SessionsSeen(broker.broker)
        deadline = time.monotonic() + 6 * REAUTH_SESSION_MS / 1000
        try:
            while not sessions.one_outlived_its_first():
                assert time.monotonic() < deadline, "no connection re-authenticated past its first session"
                producer.send("reauth", b"x").get(timeout=10)
        finally:
            producer.close()
        # Re-authenticated, not reconnected: the broker closed no connection for an expired session.
        assert broker.broker.server.metrics["closed_bad_input"] == 0
    finally:
        broker.stop()


def test_response_class_of_sasl_authenticate_is_flexible_from_v2() -> None:
    assert response_class(ApiKey.SaslAuthenticate).flexible_version_q(2)


JAVA_LIB = Path(__file__).resolve().parent.parent / "compat" / ".envs" / "java" / "lib"
JAVA_JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]


@pytest.mark.parametrize(("protocol", "mechanism"), [("SASL_SSL", "SCRAM-SHA-512"), ("SASL_SSL", "SCRAM-SHA-256"),
                                                     ("SASL_PLAINTEXT", "PLAIN"), ("SSL", "PLAIN")],
                         ids=["SASL_SSL-SCRAM-SHA-512", "SASL_SSL-SCRAM-SHA-256", "SASL_PLAINTEXT-PLAIN", "SSL"])
def test_java_client_produces_and_consumes_in_a_group(secure: SecureBroker, protocol: str, mechanism: str) -> None:
    from tests.prerequisites import require_files, require_tools
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    source = Path(__file__).resolve().parent.parent / "compat" / "java" / "SecureClient.java"
    classpath = ":".join(str(JAVA_LIB / j) for j in JAVA_JARS)
    result = subprocess.run(["java", "-cp", classpath, str(source), secure.bootstrap(protocol), protocol, mechanism,
                             USER, SECRET, str(secure.certs.ca), f"java-{uuid.uuid4().hex[:8]}", "25"],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0 and result.stdout.strip().endswith("OK 25"), result.stdout[-2000:] + result.stderr[
        -3000:]


def test_named_listeners_each_advertise_their_own_addresses(tmp_path: Path, certs: Certs) -> None:
    """INTERNAL (PLAINTEXT, the inter-broker listener) and EXTERNAL (SASL_SSL): Metadata,
    FindCoordinator and DescribeCluster answer each with its own advertised address."""
    from harness.net import free_port
    internal, external = free_port(), free_port()
    broker = RunningBroker(tmp_path / "logs", {
        "listeners": f"INTERNAL://127.0.0.1:{internal},EXTERNAL://127.0.0.1:{external}",
        "advertised.listeners": f"INTERNAL://127.0.0.1:{internal},EXTERNAL://localhost:{external}",
        "listener.security.protocol.map": "INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL",
        "inter.broker.listener.name": "INTERNAL", "sasl.enabled.mechanisms": "PLAIN",
        "listener.name.external.plain.sasl.jaas.config": PLAIN_JAAS,
        "listener.name.external.ssl.keystore.type": "PEM",
        "listener.name.external.ssl.keystore.certificate.chain": certs.broker.cert.read_text(),
        "listener.name.external.ssl.keystore.key": certs.broker.key.read_text()})
    try:
        ext = ClientSecurity("SASL_SSL", ssl.create_default_context(cafile=str(certs.ca)), "PLAIN", USER, SECRET)

        async def ask(port: int, security: ClientSecurity) -> tuple:
            connection = BrokerConnection("127.0.0.1", port, "test", security)
            try:
                metadata = await connection.request(ApiKey.Metadata, 12, MetadataRequest(
                    topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False))
                assert isinstance(metadata, MetadataResponse)
                cluster = await connection.request(ApiKey.DescribeCluster, 1, DescribeClusterRequest(
                    include_cluster_authorized_operations=False, endpoint_type=1))
                assert isinstance(cluster, DescribeClusterResponse)
                coordinator = None
                for _ in range(100):  # __consumer_offsets is created on the first FindCoordinator
                    found = await connection.request(ApiKey.FindCoordinator, 4, FindCoordinatorRequest(
                        key_type=0, coordinator_keys=["g"]))
                    assert isinstance(found, FindCoordinatorResponse)
                    coordinator = found.coordinators[0]
                    if coordinator.error_code == 0:
                        break
                    await asyncio.sleep(0.1)
                assert coordinator is not None
                return ([(b.host, b.port) for b in metadata.brokers], [(b.host, b.port) for b in cluster.brokers],
                        (coordinator.host, coordinator.port))
            finally:
                connection.close()

        assert asyncio.run(ask(internal, ClientSecurity())) == ([("127.0.0.1", internal)], [("127.0.0.1", internal)],
                                                                ("127.0.0.1", internal))
        assert asyncio.run(ask(external, ext)) == ([("localhost", external)], [("localhost", external)],
                                                   ("localhost", external))
    finally:
        broker.stop()


def test_configs_tool_manages_scram_users(secure: SecureBroker) -> None:
    """`josefk configs --entity-type users` as kafka-configs.sh: add, describe, delete; then
    the new user authenticates with the password it was given."""
    import sys
    tool = [sys.executable, "-m", "josefk", "configs", "--bootstrap-server", secure.bootstrap("PLAINTEXT"),
            "--entity-type", "users", "--entity-name", "carol"]

    def run(*flags: str) -> subprocess.CompletedProcess:
        return subprocess.run([*tool, *flags], capture_output=True, text=True, timeout=60)

    added = run("--alter", "--add-config", "SCRAM-SHA-256=[iterations=8192,password=carol-secret],"
                                           "SCRAM-SHA-512=[password=carol-secret]")
    assert added.returncode == 0 and added.stdout.strip() == "Completed updating config for user carol.", added
    assert run("--describe").stdout.strip() == ("SCRAM credential configs for user-principal 'carol' are "
                                                "SCRAM-SHA-256=iterations=8192, SCRAM-SHA-512=iterations=4096")
    assert run("--alter", "--delete-config", "SCRAM-SHA-512").returncode == 0
    again = run("--alter", "--delete-config", "SCRAM-SHA-512")
    assert again.returncode == 1 and "ResourceNotFoundException: Attempt to delete a user credential that does not " \
                                      "exist" in again.stderr and "Traceback" not in again.stderr
    security = ClientSecurity("SASL_PLAINTEXT", None, "SCRAM-SHA-256", "carol", "carol-secret")
    response = asyncio.run(_metadata(secure.ports["SASL_PLAINTEXT"], security))
    assert [b.port for b in response.brokers] == [secure.ports["SASL_PLAINTEXT"]]


def test_fetch_over_tls_copies_instead_of_sendfile(secure: SecureBroker) -> None:
    """sendfile would write log bytes around the TLS layer: SSL fetches go through the
    transport (and still read correctly), PLAINTEXT fetches keep zero copy."""
    topic = f"zc-{uuid.uuid4().hex[:8]}"
    producer = KafkaProducer(bootstrap_servers=secure.bootstrap("PLAINTEXT"))
    for i in range(200):
        producer.send(topic, (f"{i:04d}" * 250).encode())
    producer.flush()
    producer.close()
    metrics = secure.broker.server.metrics

    def read(listener: str, protocol: str) -> list[bytes]:
        consumer = KafkaConsumer(topic, bootstrap_servers=secure.bootstrap(listener), auto_offset_reset="earliest",
                                 consumer_timeout_ms=10000, **_kafka_python(protocol, None, secure.certs))
        values = []
        for record in consumer:
            values.append(record.value)
            if len(values) == 200:
                break
        consumer.close()
        return values

    before = metrics["sendfile_bytes"]
    assert read("SSL", "SSL") == [(f"{i:04d}" * 250).encode() for i in range(200)]
    assert metrics["sendfile_bytes"] == before
    assert len(read("PLAINTEXT", "PLAINTEXT")) == 200
    assert metrics["sendfile_bytes"] > before


def test_describe_configs_never_shows_keystore_passwords(secure: SecureBroker) -> None:
    from kafka.admin import ConfigResource
    admin = KafkaAdminClient(bootstrap_servers=secure.bootstrap("PLAINTEXT"))
    try:
        result = admin.describe_configs([ConfigResource("broker", "0")], include_synonyms=True, config_filter="all")
    finally:
        admin.close()
    entries = result["broker"]["0"]
    for key in ("ssl.keystore.password", "ssl.key.password"):
        assert entries[key]["is_sensitive"] and entries[key]["value"] is None, entries[key]
        assert all(s["value"] is None for s in entries[key]["synonyms"]), entries[key]
    assert PASSWORD not in repr(result)
    assert entries["ssl.keystore.type"]["value"] == "PKCS12" and not entries["ssl.keystore.type"]["is_sensitive"]


def test_a_second_api_versions_before_authentication_closes_the_connection(secure: SecureBroker) -> None:
    """Kafka's authenticator takes ApiVersions once, before the handshake."""
    with _sasl_socket(secure) as sock:
        call(sock, ApiKey.ApiVersions, 3, client_software_name="t", client_software_version="1")
        sock.sendall(encode_request(ApiKey.ApiVersions, 3, request_class(ApiKey.ApiVersions)(
            client_software_name="t", client_software_version="1")))
        assert _closed(sock)


def test_api_versions_may_be_retried_at_a_lower_version_before_authentication(secure: SecureBroker) -> None:
    """KIP-511: an ApiVersions newer than the broker's gets UNSUPPORTED_VERSION and the
    client retries lower; Kafka's authenticator stays ready for that retry."""
    with _sasl_socket(secure) as sock:
        sock.sendall(encode_request(ApiKey.ApiVersions, 3, request_class(ApiKey.ApiVersions)(
            client_software_name="t", client_software_version="1")).replace(b"\x00\x12\x00\x03", b"\x00\x12\x00\x09",
                                                                            1))
        frame = read_frame(sock)
        assert struct.unpack_from(">h", frame, 4)[0] == ErrorCode.UNSUPPORTED_VERSION
        _cid, versions = call(sock, ApiKey.ApiVersions, 3, client_software_name="t", client_software_version="1")
        assert versions.error_code == 0
        _cid, handshake = call(sock, ApiKey.SaslHandshake, 1, mechanism="PLAIN")
        assert handshake.error_code == 0
