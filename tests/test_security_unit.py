"""Security building blocks without sockets: the SCRAM server against RFC 7677's exchange,
JAAS parsing, SSL principal mapping rules, the SASL state machine (KIP-368 lifetimes) and
the config checks that keep a broker from running open by accident."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
import scramp

from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.sasl_handshake_response import SaslHandshakeResponse
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.network.security.jaas import JaasConfigError, parse_jaas_config
from josefk.server.network.security.principal import ANONYMOUS, KafkaPrincipal, NoMatchingRule, SslPrincipalMapper
from josefk.server.network.security.sasl import SaslAuthenticator, State, _Scram
from josefk.server.network.security.scram import ScramCredential, make_credential
from josefk.server.network.security.settings import listener_security, openssl_cipher, parse_listeners
from josefk.server.security.scram_store import CredentialCache, read_user, write_user
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import CONFIG_CHANGES, BrokerInfo, EndPoint

pytestmark = pytest.mark.unit

# RFC 7677 section 3: SCRAM-SHA-256, user "user", password "pencil".
RFC_SALT = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
RFC_CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
RFC_SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
RFC_SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
RFC_CLIENT_FINAL = ("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                    "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
RFC_SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


@pytest.fixture
def credentials(tmp_path: Path) -> CredentialCache:
    store = EmbeddedStore(tmp_path / "store.json")
    write_user(store, "user", {"SCRAM-SHA-256": make_credential("SCRAM-SHA-256", "pencil", 4096, RFC_SALT)})
    cache = CredentialCache(store, lambda work: work())
    cache.start()
    return cache


def test_scram_sha_256_server_answers_rfc_7677_exchange(credentials: CredentialCache) -> None:
    server = _Scram("SCRAM-SHA-256", credentials, "failed", nonce=RFC_SERVER_NONCE)
    assert server.evaluate(RFC_CLIENT_FIRST.encode()).decode() == RFC_SERVER_FIRST
    assert server.evaluate(RFC_CLIENT_FINAL.encode()).decode() == RFC_SERVER_FINAL
    assert server.complete and server.username == "user"


def test_scram_server_refuses_a_wrong_proof_and_an_unknown_user(credentials: CredentialCache) -> None:
    server = _Scram("SCRAM-SHA-256", credentials, "the generic failure", nonce=RFC_SERVER_NONCE)
    server.evaluate(RFC_CLIENT_FIRST.encode())
    with pytest.raises(Exception, match="the generic failure"):
        server.evaluate(RFC_CLIENT_FINAL.replace("p=dHzb", "p=AAAA").encode())
    assert not server.complete
    unknown = _Scram("SCRAM-SHA-256", credentials, "the generic failure")
    with pytest.raises(Exception, match="the generic failure"):
        unknown.evaluate(b"n,,n=nobody,r=abc")


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_round_trip_with_an_independent_client(tmp_path: Path, mechanism: str) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    write_user(store, "a,b=c", {mechanism: make_credential(mechanism, "secret")})
    cache = CredentialCache(store, lambda work: work())
    cache.start()
    client = scramp.ScramClient([mechanism], "a,b=c", "secret")  # sent as saslname a=2Cb=3Dc (RFC 5802)
    server = _Scram(mechanism, cache, "failed")
    client.set_server_first(server.evaluate(client.get_client_first().encode()).decode())
    client.set_server_final(server.evaluate(client.get_client_final().encode()).decode())
    assert server.username == "a,b=c"


def test_credentials_are_stored_as_kafka_stores_them(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    credential = make_credential("SCRAM-SHA-512", "pw", 8192)
    write_user(store, "alice", {"SCRAM-SHA-512": credential})
    data = store.get_json("/config/users/alice")
    assert data is not None and data["version"] == 1
    text = data["config"]["SCRAM-SHA-512"]
    assert [part.split("=", 1)[0] for part in text.split(",")] == ["salt", "stored_key", "server_key", "iterations"]
    assert text.endswith(",iterations=8192") and ScramCredential.from_config(text) == credential
    change = store.children(CONFIG_CHANGES)
    assert len(change) == 1 and change[0].startswith("config_change_")
    assert store.get_json(f"{CONFIG_CHANGES}/{change[0]}") == {"version": 2, "entity_path": "users/alice"}
    assert read_user(store, "alice") == {"SCRAM-SHA-512": credential}


def test_jaas_config_parses_kafka_syntax() -> None:
    entry = parse_jaas_config('org.apache.kafka.common.security.plain.PlainLoginModule required\n'
                              '  username="admin" password="admin-secret" user_admin="admin-secret"\n'
                              '  user_alice="alice \\"quoted\\" secret" serviceName=kafka;')
    assert entry.login_module == "org.apache.kafka.common.security.plain.PlainLoginModule"
    assert entry.flag == "required"
    assert entry.options == {"username": "admin", "password": "admin-secret", "user_admin": "admin-secret",
                             "user_alice": 'alice "quoted" secret', "serviceName": "kafka"}


@pytest.mark.parametrize("text", ['Module required username="a"', 'Module always username="a";', "Module required x;",
                                  'A required; B required;', 'Module required username=;'])
def test_jaas_config_errors(text: str) -> None:
    with pytest.raises(JaasConfigError):
        parse_jaas_config(text)


def test_principal_mapping_rules_as_kafka_documents_them() -> None:
    mapper = SslPrincipalMapper("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,"
                                "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,"
                                "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U,DEFAULT")
    assert mapper.name_for("CN=kafka-server1,OU=ServiceUsers,O=Org,C=US") == "kafka-server1"
    assert mapper.name_for("CN=Duke,OU=JavaSoft,O=Sun Microsystems,L=Santa Clara,ST=CA,C=US") == "duke@javasoft"
    assert mapper.name_for("OU=JavaSoft,CN=duke.2") == "DUKE.2"
    assert SslPrincipalMapper("DEFAULT").name_for("CN=a,O=b") == "CN=a,O=b"
    assert SslPrincipalMapper(r"RULE:^CN=([^,]*)\/x.*$/$1/").name_for("CN=a/x,O=b") == "a"
    with pytest.raises(NoMatchingRule):
        SslPrincipalMapper("RULE:^CN=admin$/admin/").name_for("CN=alice")
    with pytest.raises(ValueError):
        SslPrincipalMapper("RULE:broken")
    assert str(KafkaPrincipal("User", "alice")) == "User:alice" and str(ANONYMOUS) == "User:ANONYMOUS"


def test_cipher_suite_names_map_to_openssl() -> None:
    assert openssl_cipher("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256") == "ECDHE-RSA-AES128-GCM-SHA256"
    assert openssl_cipher("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256") == "ECDHE-ECDSA-CHACHA20-POLY1305"
    assert openssl_cipher("TLS_RSA_WITH_AES_256_CBC_SHA") == "AES256-SHA"
    assert openssl_cipher("TLS_AES_128_GCM_SHA256") is None
    with pytest.raises(ValueError):
        openssl_cipher("TLS_KRB5_WITH_RC4_128_MD5")


class _Clock:
    def __init__(self) -> None:
        self.ms = 1_000

    def __call__(self) -> int:
        return self.ms


def _sasl_listener(reauth_ms: int = 0):
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";'
    props = {"sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256", "connections.max.reauth.ms": str(reauth_ms),
             "listener.name.sasl_plaintext.plain.sasl.jaas.config": jaas}
    (listener,) = parse_listeners(["SASL_PLAINTEXT://127.0.0.1:0"], {"SASL_PLAINTEXT": "SASL_PLAINTEXT"})
    return listener_security(props, listener)


def _authenticate(auth: SaslAuthenticator, token: bytes, version: int = 2):
    return auth.authenticate(request_class(ApiKey.SaslAuthenticate)(auth_bytes=token), version)


def test_sasl_plain_wrong_password_is_sasl_authentication_failed_and_closes(credentials: CredentialCache) -> None:
    auth = SaslAuthenticator(_sasl_listener(), credentials, _Clock())
    answer = auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="PLAIN"), 1)
    assert isinstance(answer.response, SaslHandshakeResponse)
    assert answer.response.error_code == 0 and answer.response.mechanisms == ["PLAIN", "SCRAM-SHA-256"]
    answer = _authenticate(auth, b"\0alice\0wrong")
    assert answer.close and answer.response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert answer.response.error_message == "Authentication failed: Invalid username or password"
    assert auth.state == State.FAILED and auth.principal is None


def test_sasl_unsupported_mechanism_lists_the_enabled_ones(credentials: CredentialCache) -> None:
    auth = SaslAuthenticator(_sasl_listener(), credentials, _Clock())
    answer = auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="GSSAPI"), 1)
    assert isinstance(answer.response, SaslHandshakeResponse)
    assert answer.close and answer.response.error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM
    assert answer.response.mechanisms == ["PLAIN", "SCRAM-SHA-256"]


def test_session_lifetime_and_expiry_kip_368(credentials: CredentialCache) -> None:
    clock = _Clock()
    auth = SaslAuthenticator(_sasl_listener(reauth_ms=5_000), credentials, clock)
    auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="PLAIN"), 1)
    answer = _authenticate(auth, b"\0alice\0alice-secret")
    assert answer.response.error_code == 0 and answer.response.session_lifetime_ms == 5_000
    assert auth.complete and auth.principal == KafkaPrincipal("User", "alice")
    clock.ms += 5_000
    assert not auth.expired()
    clock.ms += 1
    assert auth.expired()
    auth.begin_reauthentication()  # a SaslHandshake on the authenticated connection
    auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="PLAIN"), 1)
    assert _authenticate(auth, b"\0alice\0alice-secret").response.error_code == 0
    assert not auth.expired()


def test_raw_tokens_after_handshake_v0(credentials: CredentialCache) -> None:
    auth = SaslAuthenticator(_sasl_listener(), credentials, _Clock())
    auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="PLAIN"), 0)
    assert auth.state == State.RAW
    assert auth.raw_token(b"\0alice\0alice-secret").raw == b"" and auth.complete


SASL_ONLY = {"listeners": "SASL_PLAINTEXT://127.0.0.1:0", "security.inter.broker.protocol": "SASL_PLAINTEXT"}
SSL_ONLY = {"listeners": "SSL://127.0.0.1:0", "security.inter.broker.protocol": "SSL"}


@pytest.mark.parametrize(("props", "message"), [
    ({**SASL_ONLY}, "sasl.enabled.mechanisms: GSSAPI"),
    ({**SASL_ONLY, "sasl.enabled.mechanisms": "OAUTHBEARER", "sasl.mechanism.inter.broker.protocol": "OAUTHBEARER"},
     "sasl.mechanism.inter.broker.protocol: OAUTHBEARER is not supported between brokers"),
    ({"ssl.engine.factory.class": "com.example.Engine"}, "ssl.engine.factory.class"),
    ({"listener.name.ssl.ssl.engine.factory.class": "x"}, "listener.name.ssl.ssl.engine.factory.class"),
    ({"listeners": "INTERNAL://127.0.0.1:0"}, "No security protocol defined for listener INTERNAL"),
    ({"listeners": "SSL://127.0.0.1:0", "security.inter.broker.protocol": "SSL"}, "ssl.keystore.location"),
    ({**SSL_ONLY, "ssl.keystore.location": "/nonexistent.jks"}, "ssl.keystore.location: cannot read the keystore"),
    ({**SSL_ONLY, "ssl.keystore.type": "PKCS12", "ssl.keystore.location": "/nonexistent.p12"},
     "ssl.keystore.location: cannot read"),
    ({**SASL_ONLY, "sasl.enabled.mechanisms": "PLAIN"}, "listener.name.sasl_plaintext.plain.sasl.jaas.config"),
    ({"sasl.jaas.config": "x required;"}, "must be prefixed"),
    ({"listeners": "A://127.0.0.1:0,B://127.0.0.1:0", "listener.security.protocol.map": "A:PLAINTEXT,B:PLAINTEXT",
      "inter.broker.listener.name": "C"}, "inter.broker.listener.name must be a listener name"),
    ({"inter.broker.listener.name": "PLAINTEXT", "security.inter.broker.protocol": "PLAINTEXT"}, "Only one of"),
    ({"listeners": "PLAINTEXT://127.0.0.1:0", "ssl.client.auth": "maybe", "security.inter.broker.protocol": "SSL"},
     "inter.broker.listener.name must be"),
])
def test_security_settings_josefk_cannot_honour_stop_start_up(props: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        KafkaConfig(props)


def test_security_keys_are_known_configs(caplog: pytest.LogCaptureFixture) -> None:
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_a="b";'
    config = KafkaConfig({"listeners": "INTERNAL://127.0.0.1:0,EXTERNAL://127.0.0.1:0",
                          "listener.security.protocol.map": "INTERNAL:PLAINTEXT,EXTERNAL:SASL_PLAINTEXT",
                          "inter.broker.listener.name": "INTERNAL", "sasl.enabled.mechanisms": "PLAIN",
                          "listener.name.external.plain.sasl.jaas.config": jaas,
                          "listener.name.external.connections.max.reauth.ms": "60000",
                          "advertised.listeners": "INTERNAL://10.0.0.1:9092,EXTERNAL://kafka.example:9093"})
    assert "isn't a known config" not in caplog.text
    assert config.inter_broker_listener == "INTERNAL"
    assert config.advertised_for("EXTERNAL") == ("kafka.example", 9093)
    assert config.listener_security["EXTERNAL"].reauth_ms == 60000
    assert config.listener_security["EXTERNAL"].mechanisms == ("PLAIN",)


def test_broker_registration_has_every_endpoint_as_kafka_writes_it() -> None:
    endpoints = (EndPoint("INTERNAL", "10.0.0.1", 9092, "PLAINTEXT"), EndPoint("EXTERNAL", "kafka", 9093, "SASL_SSL"))
    data = BrokerInfo(1, "10.0.0.1", 9092, endpoints=endpoints).to_json()
    assert data["endpoints"] == ["INTERNAL://10.0.0.1:9092", "EXTERNAL://kafka:9093"]
    assert data["listener_security_protocol_map"] == {"INTERNAL": "PLAINTEXT", "EXTERNAL": "SASL_SSL"}
    assert (data["host"], data["port"]) == ("10.0.0.1", 9092)
    parsed = BrokerInfo.from_json(1, data, listener="EXTERNAL")
    assert (parsed.host, parsed.port) == ("kafka", 9093) and parsed.endpoints == endpoints
    only_tls = BrokerInfo(2, "h", 1, endpoints=(EndPoint("SSL", "h", 1, "SSL"),)).to_json()
    assert (only_tls["host"], only_tls["port"]) == (None, -1)


def test_tls_stores_load_from_every_supported_form(tmp_path: Path) -> None:
    import ssl

    from tests.security_certs import PASSWORD, make_certs
    certs = make_certs(tmp_path / "certs")
    (listener,) = parse_listeners(["SSL://127.0.0.1:0"], {"SSL": "SSL"})
    forms = [
        {"ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
         "ssl.keystore.password": PASSWORD, "ssl.truststore.type": "PKCS12",
         "ssl.truststore.location": str(certs.ca_p12), "ssl.truststore.password": PASSWORD},
        {"ssl.keystore.type": "PEM", "ssl.keystore.location": str(certs.broker.pem), "ssl.key.password": PASSWORD,
         "ssl.truststore.type": "PEM", "ssl.truststore.location": str(certs.ca)},
        {"listener.name.ssl.ssl.keystore.type": "PEM",
         "listener.name.ssl.ssl.keystore.certificate.chain": certs.broker.cert.read_text(),
         "listener.name.ssl.ssl.keystore.key": certs.broker.key.read_text(),
         "ssl.truststore.certificates": certs.ca.read_text()},
    ]
    for props in forms:
        security = listener_security({**props, "ssl.client.auth": "required"}, listener)
        assert security.ssl_context is not None and security.ssl_context.verify_mode == ssl.CERT_REQUIRED
        assert security.ssl_context.get_ca_certs()[0]["subject"] == ((("commonName", "josefk test CA"),),)


@pytest.mark.parametrize(("props", "message"), [
    ({"ssl.keystore.password": "wrong"}, "ssl.keystore.location: cannot read the PKCS12 keystore"),
    ({"ssl.keystore.type": "PEM", "ssl.key.password": "wrong"}, "ssl.keystore.location: cannot load"),
    ({"ssl.enabled.protocols": "TLSv1.1"}, "ssl.enabled.protocols: TLSv1.1 cannot be enabled"),
    ({"listener.name.ssl.ssl.cipher.suites": "TLS_FOO"}, "listener.name.ssl.ssl.cipher.suites: unknown cipher"),
    ({"ssl.client.auth": "required"}, "ssl.truststore.location: ssl.client.auth needs a truststore"),
])
def test_tls_settings_that_cannot_be_honoured_name_their_key(tmp_path: Path, props: dict, message: str) -> None:
    from josefk.server.network.security.settings import SecurityConfigError
    from tests.security_certs import PASSWORD, make_certs
    certs = make_certs(tmp_path / "certs")
    base = {"ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
            "ssl.keystore.password": PASSWORD}
    if props.get("ssl.keystore.type") == "PEM":
        base["ssl.keystore.location"] = str(certs.broker.pem)
    (listener,) = parse_listeners(["SSL://127.0.0.1:0"], {"SSL": "SSL"})
    with pytest.raises(SecurityConfigError, match=message):
        listener_security({**base, **props}, listener)
