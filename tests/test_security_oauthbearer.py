"""SASL/OAUTHBEARER with real clients over real sockets: librdkafka (its unsecured JWT
builder, and signed tokens from an oauth_cb) and kafka-python (a token provider) produce and
consume in a group, librdkafka over SASL_SSL too; a bad signature, a wrong audience, an
expired token and a missing scope get SASL_AUTHENTICATION_FAILED and write nothing. The
JWKS comes from an http.server on 127.0.0.1 with keys made here; a token signed by a new
key makes the broker fetch it again."""

from __future__ import annotations

import base64
import json
import logging
import re
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import jwt
import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from cryptography.hazmat.primitives.asymmetric import rsa
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic
from kafka.errors import KafkaTimeoutError
from kafka.net.sasl.oauth import AbstractTokenProvider

from harness.net import free_port
from harness.wire import call, encode_request, wait_until
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.security_certs import PASSWORD, Certs, make_certs
from tests.test_startup_failures import empty_config, start, the_failure

pytestmark = pytest.mark.integration

SECURED = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
ISSUER, AUDIENCE = "https://idp.test", "kafka"


def _public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict:
    return {**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())), "kid": kid, "use": "sig"}


class JwksServer:
    """The issuer's JWKS endpoint: serves `jwks` and counts the fetches."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.jwks = {"keys": [_public_jwk(self.key, "k1")]}
        self.fetches = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                outer.fetches += 1
                body = json.dumps(outer.jwks).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/jwks"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def token(self, key: rsa.RSAPrivateKey | None = None, kid: str = "k1", lifetime_s: int = 300,
              **claims: object) -> str:
        now = int(time.time())
        body = {"sub": "alice", "iat": now, "exp": now + lifetime_s, "aud": AUDIENCE, "iss": ISSUER, **claims}
        return jwt.encode(body, key or self.key, algorithm="RS256", headers={"kid": kid})

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


class OAuthBroker:
    """PLAINTEXT (to look at the data), UNSECURED (Kafka's default validator, scope "kafka"
    required), TLS (the same over SASL_SSL) and SECURED (KIP-768 against the JWKS server)."""

    def __init__(self, log_dir: Path, jwks: JwksServer, certs: Certs) -> None:
        self.certs = certs
        self.broker = RunningBroker(log_dir, {
            "listeners": "PLAINTEXT://127.0.0.1:0,UNSECURED://127.0.0.1:0,TLS://127.0.0.1:0,SECURED://127.0.0.1:0",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,UNSECURED:SASL_PLAINTEXT,TLS:SASL_SSL,"
                                              "SECURED:SASL_PLAINTEXT",
            "inter.broker.listener.name": "PLAINTEXT", "sasl.enabled.mechanisms": "OAUTHBEARER",
            "listener.name.unsecured.oauthbearer.sasl.jaas.config":
                f'{MODULE} required unsecuredValidatorRequiredScope="kafka";',
            "listener.name.tls.oauthbearer.sasl.jaas.config":
                f'{MODULE} required unsecuredValidatorRequiredScope="kafka";',
            "ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
            "ssl.keystore.password": PASSWORD, "ssl.key.password": PASSWORD,
            "listener.name.secured.oauthbearer.sasl.jaas.config": f"{MODULE} required;",
            "listener.name.secured.oauthbearer.sasl.server.callback.handler.class": SECURED,
            "listener.name.secured.oauthbearer.sasl.oauthbearer.jwks.endpoint.url": jwks.url,
            "listener.name.secured.sasl.oauthbearer.expected.audience": AUDIENCE,
            "sasl.oauthbearer.expected.issuer": ISSUER})
        self.ports = {a.name: a.port for a in self.broker.server.acceptors}

    def bootstrap(self, listener: str) -> str:
        return f"127.0.0.1:{self.ports[listener]}"

    def create_topic(self) -> str:
        topic = f"oauth-{uuid.uuid4().hex[:8]}"
        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap("PLAINTEXT"))
        try:
            admin.create_topics([NewTopic(topic, 1, 1)])
        finally:
            admin.close()
        return topic

    def end_offset(self, topic: str) -> int:
        consumer = Consumer({"bootstrap.servers": self.bootstrap("PLAINTEXT"), "group.id": "watermarks"})
        try:
            return consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)[1]
        finally:
            consumer.close()


@pytest.fixture(scope="module")
def jwks() -> Iterator[JwksServer]:
    server = JwksServer()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def oauth(tmp_path_factory: pytest.TempPathFactory, jwks: JwksServer) -> Iterator[OAuthBroker]:
    broker = OAuthBroker(tmp_path_factory.mktemp("oauth") / "logs", jwks, make_certs(tmp_path_factory.mktemp("certs")))
    yield broker
    broker.broker.stop()


def _librdkafka(oauth: OAuthBroker, listener: str, **conf: object) -> dict:
    return {"bootstrap.servers": oauth.bootstrap(listener), "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "OAUTHBEARER", **conf}


def _unsecured_conf(scope: str = "kafka") -> dict:
    return {"enable.sasl.oauthbearer.unsecure.jwt": True,
            "sasl.oauthbearer.config": f"principal=alice scope={scope} extension_traceId=abc"}


def _signed_conf(token: str) -> dict:
    return {"oauth_cb": lambda _config: (token, time.time() + 300)}


def _librdkafka_round_trip(oauth: OAuthBroker, listener: str, conf: dict) -> None:
    topic = oauth.create_topic()
    producer = Producer(_librdkafka(oauth, listener, **conf))
    for i in range(10):
        producer.produce(topic, f"v{i}".encode())
    assert producer.flush(30) == 0
    consumer = Consumer(_librdkafka(oauth, listener, **conf, **{"group.id": f"g-{topic}",
                                                               "auto.offset.reset": "earliest"}))
    consumer.subscribe([topic])
    values: list[bytes | None] = []
    deadline = time.monotonic() + 30
    while len(values) < 10 and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            values.append(msg.value())
    consumer.close()
    assert values == [f"v{i}".encode() for i in range(10)]


def _librdkafka_refused(oauth: OAuthBroker, listener: str, conf: dict) -> str:
    """The producer's authentication error; the topic stays empty."""
    topic = oauth.create_topic()
    errors: list[KafkaError] = []
    producer = Producer(_librdkafka(oauth, listener, **conf, error_cb=errors.append))
    producer.produce(topic, b"must not be written")
    deadline = time.monotonic() + 30
    while not any(e.code() == KafkaError._AUTHENTICATION for e in errors) and time.monotonic() < deadline:
        producer.poll(0.2)
    producer.purge()
    producer.flush(0)
    assert oauth.end_offset(topic) == 0
    failures = [e.str() for e in errors if e.code() == KafkaError._AUTHENTICATION]
    assert failures, errors
    return failures[0]


def test_librdkafka_unsecured_jwt_produces_and_consumes(oauth: OAuthBroker) -> None:
    _librdkafka_round_trip(oauth, "UNSECURED", _unsecured_conf())


def test_librdkafka_over_sasl_ssl_produces_and_consumes(oauth: OAuthBroker) -> None:
    _librdkafka_round_trip(oauth, "TLS", {**_unsecured_conf(), "security.protocol": "SASL_SSL",
                                          "ssl.ca.location": str(oauth.certs.ca)})


def test_librdkafka_unsecured_jwt_without_the_required_scope_is_refused(oauth: OAuthBroker) -> None:
    failure = _librdkafka_refused(oauth, "UNSECURED", _unsecured_conf(scope="other"))
    assert '{"status":"insufficient_scope", "scope":"[kafka]"}' in failure


def test_librdkafka_signed_token_produces_and_consumes(oauth: OAuthBroker, jwks: JwksServer) -> None:
    _librdkafka_round_trip(oauth, "SECURED", _signed_conf(jwks.token()))


@pytest.mark.parametrize("case", ["bad signature", "wrong audience", "expired", "wrong issuer", "unsigned"])
def test_librdkafka_bad_tokens_are_refused(oauth: OAuthBroker, jwks: JwksServer, case: str) -> None:
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token = {"bad signature": lambda: jwks.token(key=stranger),
             "wrong audience": lambda: jwks.token(aud="another-service"),
             "expired": lambda: jwks.token(iat=int(time.time()) - 600, lifetime_s=-300),
             "wrong issuer": lambda: jwks.token(iss="https://evil.test"),
             "unsigned": lambda: _unsigned({"sub": "alice", "exp": int(time.time()) + 300})}[case]()
    failure = _librdkafka_refused(oauth, "SECURED", _signed_conf(token))
    assert '{"status":"invalid_token"}' in failure


def _unsigned(claims: dict) -> str:
    def part(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    return f"{part({'alg': 'none'})}.{part(claims)}."


class _Provider(AbstractTokenProvider):
    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def token(self) -> str:
        return self._token


@pytest.mark.parametrize("listener", ["SECURED", "UNSECURED"])
def test_kafka_python_produces_and_consumes(oauth: OAuthBroker, jwks: JwksServer, listener: str) -> None:
    token = jwks.token() if listener == "SECURED" else _unsigned(
        {"sub": "bob", "exp": int(time.time()) + 300, "scope": ["kafka"]})
    opts = {"bootstrap_servers": oauth.bootstrap(listener), "security_protocol": "SASL_PLAINTEXT",
            "sasl_mechanism": "OAUTHBEARER", "sasl_oauth_token_provider": _Provider(token)}
    topic = oauth.create_topic()
    producer = KafkaProducer(acks="all", **opts)
    for i in range(10):
        producer.send(topic, f"v{i}".encode())
    producer.flush()
    producer.close()
    consumer = KafkaConsumer(topic, group_id=f"g-{topic}", auto_offset_reset="earliest", consumer_timeout_ms=15000,
                             **opts)
    values = []
    for record in consumer:
        values.append(record.value)
        if len(values) == 10:
            break
    consumer.close()
    assert values == [f"v{i}".encode() for i in range(10)]


class _FreshTokens(AbstractTokenProvider):
    """A new 3 s token at each call, as an identity provider would hand them out."""

    def __init__(self, jwks: JwksServer) -> None:
        super().__init__()
        self.jwks = jwks
        self.issued = 0

    def token(self) -> str:
        self.issued += 1
        return self.jwks.token(lifetime_s=3)


def test_kafka_python_reauthenticates_before_its_token_expires(oauth: OAuthBroker, jwks: JwksServer) -> None:
    """KIP-368 bounded by the token's exp (no connections.max.reauth.ms): kafka-python
    re-authenticates with a fresh token within each session, and no connection is cut off."""
    topic = oauth.create_topic()
    server = oauth.broker.server
    closed = server.metrics["closed_bad_input"]
    provider = _FreshTokens(jwks)
    producer = KafkaProducer(bootstrap_servers=oauth.bootstrap("SECURED"), security_protocol="SASL_PLAINTEXT",
                             sasl_mechanism="OAUTHBEARER", sasl_oauth_token_provider=provider)
    end = server.time.milliseconds() + 7000
    sent = 0
    while server.time.milliseconds() < end:
        producer.send(topic, b"x").get(timeout=10)
        sent += 1
    producer.close()
    assert oauth.end_offset(topic) == sent > 0
    assert provider.issued >= 4  # bootstrap, the leader's connection, then re-authentications
    assert server.metrics["closed_bad_input"] == closed


_ABORT = re.compile(r"<-(\d+)\]>: Abort \((.*)\)$")
_REFUSED = '[Error 58] SaslAuthenticationFailedError: SaslAuthenticationFailedError: {"status":"invalid_token"}'


def test_kafka_python_with_a_bad_token_writes_nothing(oauth: OAuthBroker, jwks: JwksServer,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """kafka-python reads the invalid_token challenge, answers %x01 and each of its connections
    is refused with SASL_AUTHENTICATION_FAILED: it never bootstraps. The refusal is followed at
    once by the close (as on Kafka), and kafka-python 3.0.12 drops the bytes it reads in the same
    pass as the end of the stream (kafka/net/transport.py _read_from_sock), as a slow client on a
    loaded machine mostly does: that connection ends in "socket disconnected", and the broker's
    log says why. test_the_error_challenge_then_x01_is_sasl_authentication_failed checks the
    bytes sent."""
    caplog.set_level(logging.INFO, logger="josefk.server.network.socket_server")
    caplog.set_level(logging.DEBUG, logger="kafka.net.sasl.oauth")  # last: the handler takes this level
    topic = oauth.create_topic()
    with pytest.raises(KafkaTimeoutError, match="Unable to bootstrap"):
        KafkaProducer(bootstrap_servers=oauth.bootstrap("SECURED"), security_protocol="SASL_PLAINTEXT",
                      sasl_mechanism="OAUTHBEARER", sasl_oauth_token_provider=_Provider(jwks.token(aud="nobody")),
                      bootstrap_timeout_ms=3000)
    assert 'Sending x01 response to server after receiving SASL OAuth error: {"status":"invalid_token"}' in caplog.text
    # the text, formatted as logged: a closed transport no longer names its ports
    aborts = [m.groups() for line in caplog.text.splitlines() if (m := _ABORT.search(line))]
    assert aborts, caplog.text
    for port, reason in aborts:
        assert f'Failed authentication with 127.0.0.1:{port} ({{"status":"invalid_token"}})' in caplog.text
        assert reason in (_REFUSED, "KafkaConnectionError: socket disconnected"), reason
    assert oauth.end_offset(topic) == 0


def test_java_client_produces_and_consumes_with_an_unsecured_token(oauth: OAuthBroker) -> None:
    """Kafka's own client 3.9.2 and its OAuthBearerUnsecuredLoginCallbackHandler (which needs
    Jackson: the classpath is Kafka's lib directory)."""
    from harness.kafka import kafka_classpath
    from tests.prerequisites import require_tools
    require_tools("java")
    source = Path(__file__).resolve().parent.parent / "compat" / "java" / "SecureClient.java"
    classpath = kafka_classpath()
    topic = oauth.create_topic()
    result = subprocess.run(["java", "-cp", classpath, str(source), oauth.bootstrap("UNSECURED"), "SASL_PLAINTEXT",
                             "OAUTHBEARER", "carol", ",kafka", "", topic, "25"], capture_output=True, text=True,
                            timeout=180)
    assert result.returncode == 0 and result.stdout.strip().endswith("OK 25"), (
        result.stdout[-2000:] + result.stderr[-3000:])
    assert oauth.end_offset(topic) == 25


def _socket(oauth: OAuthBroker, listener: str = "SECURED"):
    import socket
    return socket.create_connection(("127.0.0.1", oauth.ports[listener]), timeout=10)


def _closed(sock) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _first(token: str) -> bytes:
    return f"n,,\x01auth=Bearer {token}\x01\x01".encode()


def test_the_error_challenge_then_x01_is_sasl_authentication_failed(oauth: OAuthBroker, jwks: JwksServer) -> None:
    with _socket(oauth) as sock:
        assert call(sock, ApiKey.SaslHandshake, 1, mechanism="OAUTHBEARER")[1].error_code == 0
        _cid, challenge = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=_first(jwks.token(aud="x")))
        assert challenge.error_code == 0 and bytes(challenge.auth_bytes) == b'{"status":"invalid_token"}'
        _cid, failed = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=b"\x01")
        assert failed.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED == 58
        assert failed.error_message == '{"status":"invalid_token"}'
        assert _closed(sock)


def test_the_session_ends_when_the_token_expires(oauth: OAuthBroker, jwks: JwksServer) -> None:
    """KIP-368 with no connections.max.reauth.ms: the token's exp bounds the session."""
    with _socket(oauth) as sock:
        call(sock, ApiKey.SaslHandshake, 1, mechanism="OAUTHBEARER")
        exp = int(time.time()) + 2
        _cid, auth = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=_first(jwks.token(exp=exp)))
        assert auth.error_code == 0 and 0 < auth.session_lifetime_ms <= 2000
        _cid, metadata = call(sock, ApiKey.Metadata, 1, topics=[])
        assert [b.port for b in metadata.brokers] == [oauth.ports["SECURED"]]
        clock = oauth.broker.server.time
        wait_until(lambda: clock.milliseconds() > exp * 1000 + 1, "the token expired", timeout=10)
        sock.sendall(encode_request(ApiKey.Metadata, 1, request_class(ApiKey.Metadata)(topics=[])))
        assert _closed(sock)


def test_a_token_signed_by_a_new_key_makes_the_broker_fetch_the_jwks(oauth: OAuthBroker, jwks: JwksServer) -> None:
    """Key rotation: a token whose kid the broker has not seen is refused and expedites a
    refresh (RefreshingHttpsJwks.maybeExpediteRefresh); once fetched, the token is good."""
    rotated = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token = jwks.token(key=rotated, kid="k2")

    def authenticates() -> bool:
        with _socket(oauth) as sock:
            call(sock, ApiKey.SaslHandshake, 1, mechanism="OAUTHBEARER")
            return bytes(call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=_first(token))[1].auth_bytes) == b""

    original = jwks.jwks
    jwks.jwks = {"keys": [*original["keys"], _public_jwk(rotated, "k2")]}
    try:
        fetches = jwks.fetches
        assert not authenticates()
        wait_until(lambda: jwks.fetches > fetches, "the expedited JWKS fetch", timeout=10)
        wait_until(authenticates, "the new key in use", timeout=10)
    finally:
        jwks.jwks = original


def test_start_up_fails_without_the_jwks(tmp_path: Path) -> None:
    url_key = "listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.jwks.endpoint.url"
    url = f"http://127.0.0.1:{free_port()}/jwks"  # nothing listens there
    settings = {"log.dirs": str(tmp_path / "logs"), "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
                "inter.broker.listener.name": "PLAINTEXT", "sasl.enabled.mechanisms": "OAUTHBEARER",
                "listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": SECURED,
                url_key: url, "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": "300"}
    line = the_failure(start(tmp_path, empty_config(tmp_path),
                             *(arg for k, v in settings.items() for arg in ("--override", f"{k}={v}"))))
    assert f"Invalid value for configuration {url_key}: cannot read the JWKS at {url}" in line
