"""JKS and PKCS12 stores written by Java's keytool, read as Kafka reads them (JKS is Kafka's
default type; either type reads either format, as Java's keystore.type.compat does)."""

from __future__ import annotations

import ssl
import sys
from pathlib import Path

import pytest
from cryptography import x509

from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.network.security.settings import (
    ListenerConfig,
    SecurityConfigError,
    _pem_key_and_chain,
    inter_broker_client,
    listener_security,
    parse_listeners,
)
from tests.security_certs import (
    PASSWORD,
    Certs,
    KeytoolStores,
    keytool_ssl_props,
    keytool_stores,
    make_certs,
)

pytestmark = pytest.mark.unit

(LISTENER,) = parse_listeners(["SSL://127.0.0.1:0"], {"SSL": "SSL"})


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def jks(certs: Certs, tmp_path_factory: pytest.TempPathFactory) -> KeytoolStores:
    return keytool_stores(certs, tmp_path_factory.mktemp("jks"), "JKS")


@pytest.fixture(scope="module")
def p12(certs: Certs, tmp_path_factory: pytest.TempPathFactory) -> KeytoolStores:
    return keytool_stores(certs, tmp_path_factory.mktemp("p12"), "PKCS12")


def _subjects(pem: bytes) -> list[str]:
    return [c.subject.rfc4514_string() for c in x509.load_pem_x509_certificates(pem[pem.index(b"-----BEGIN C"):])]


@pytest.mark.parametrize("declared", [None, "JKS", "PKCS12"])
@pytest.mark.parametrize("fmt", ["JKS", "PKCS12"])
def test_keytool_stores_load_under_either_type(request: pytest.FixtureRequest, fmt: str, declared: str | None) -> None:
    stores: KeytoolStores = request.getfixturevalue("jks" if fmt == "JKS" else "p12")
    props = keytool_ssl_props(stores)
    if fmt == "PKCS12":
        props["ssl.key.password"] = PASSWORD
    if declared:
        props.update({"ssl.keystore.type": declared, "ssl.truststore.type": declared})
    security = listener_security(props, LISTENER)
    ctx = security.ssl_context
    assert ctx is not None and ctx.verify_mode == ssl.CERT_REQUIRED
    assert [c["subject"] for c in ctx.get_ca_certs()] == [((("commonName", "josefk test CA"),),)]
    found = _pem_key_and_chain(ListenerConfig(props, LISTENER))
    assert found is not None
    pem, key = found
    assert key == "ssl.keystore.location" and pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    assert _subjects(pem) == ["CN=broker,O=josefk", "CN=josefk test CA"]  # leaf first, then its issuer


def test_the_inter_broker_client_presents_the_jks_key(jks: KeytoolStores) -> None:
    client = inter_broker_client(keytool_ssl_props(jks), LISTENER)
    assert client.ssl_context is not None and client.ssl_context.check_hostname
    assert [c["subject"] for c in client.ssl_context.get_ca_certs()] == [((("commonName", "josefk test CA"),),)]
    with pytest.raises(SecurityConfigError, match="ssl.key.password: wrong password"):
        inter_broker_client({**keytool_ssl_props(jks), "ssl.key.password": "wrong"}, LISTENER)


def test_key_password_defaults_to_the_keystore_password(certs: Certs, tmp_path: Path) -> None:
    from tests.security_certs import keytool
    store = tmp_path / "same.jks"
    keytool("-importkeystore", "-noprompt", "-srckeystore", str(certs.broker.p12), "-srcstoretype", "PKCS12",
            "-srcstorepass", PASSWORD, "-destkeystore", str(store), "-deststoretype", "JKS",
            "-deststorepass", PASSWORD)
    security = listener_security({"ssl.keystore.location": str(store), "ssl.keystore.password": PASSWORD}, LISTENER)
    assert security.ssl_context is not None


def test_a_jks_truststore_without_password_is_read_unchecked(jks: KeytoolStores) -> None:
    """Kafka: without ssl.truststore.password the store is read, its integrity not checked."""
    props = keytool_ssl_props(jks)
    del props["ssl.truststore.password"]
    ctx = listener_security(props, LISTENER).ssl_context
    assert ctx is not None and len(ctx.get_ca_certs()) == 1


def test_a_jks_keystore_as_truststore_trusts_its_key_certificate(jks: KeytoolStores) -> None:
    """Java's trust managers take the first certificate of each key entry as trusted too."""
    props = {**keytool_ssl_props(jks), "ssl.truststore.location": str(jks.client)}
    ctx = listener_security(props, LISTENER).ssl_context
    assert ctx is not None and ctx.cert_store_stats() == {"x509": 1, "crl": 0, "x509_ca": 0}  # alice's
    assert ctx.verify_flags & ssl.VERIFY_X509_PARTIAL_CHAIN  # a leaf is an anchor in Java's PKIX too


ERRORS = [
    ({"ssl.keystore.password": "wrong"}, "ssl.keystore.password: wrong password for the JKS keystore"),
    ({"ssl.key.password": "wrong"}, "ssl.key.password: wrong password for the key entry 'broker'"),
    ({"ssl.key.password": None}, "ssl.key.password: wrong password for the key entry 'broker' of the JKS keystore "
                                 r"\(unset, so the keystore password was tried"),
    ({"ssl.keystore.password": None}, "ssl.keystore.password: SSL key store is specified, but key store password"),
    ({"ssl.keystore.location": "empty"}, "ssl.keystore.location: the JKS keystore holds no private key entry"),
    ({"ssl.truststore.password": "wrong"}, "ssl.truststore.password: wrong password for the JKS truststore"),
    ({"ssl.truststore.location": "ca.crt"}, "ssl.truststore.location: the file is neither a JKS nor a PKCS12"),
    ({"ssl.keystore.location": "ca.crt"}, "ssl.keystore.location: the file is neither a JKS nor a PKCS12 keystore"),
    ({"ssl.keystore.location": "truncated"}, "ssl.keystore.location: cannot read the JKS keystore"),
    ({"ssl.keystore.type": "JCEKS"}, "ssl.keystore.type: keystore type JCEKS is not supported"),
]
ERROR_IDS = ["store-password", "key-password", "key-password-unset", "no-store-password", "no-private-key",
             "truststore-password", "truststore-not-a-store", "keystore-not-a-store", "truncated", "type"]


def error_props(stores: KeytoolStores, certs: Certs, change: dict[str, str | None], tmp_path: Path) -> dict[str, str]:
    files = {"empty": str(stores.empty_keystore), "ca.crt": str(certs.ca)}
    if "truncated" in change.values():
        truncated = tmp_path / "truncated.jks"
        truncated.write_bytes(stores.broker.read_bytes()[:100])
        files["truncated"] = str(truncated)
    changed = {k: files.get(v, v) if v else v for k, v in change.items()}
    props: dict[str, str | None] = {**keytool_ssl_props(stores), **changed}
    return {k: v for k, v in props.items() if v is not None}


@pytest.mark.parametrize(("change", "message"), ERRORS, ids=ERROR_IDS)
def test_unreadable_jks_stores_name_their_key(jks: KeytoolStores, certs: Certs, tmp_path: Path,
                                              change: dict[str, str | None], message: str) -> None:
    with pytest.raises(SecurityConfigError, match="Invalid value for configuration " + message):
        listener_security(error_props(jks, certs, change, tmp_path), LISTENER)


def test_an_empty_jks_truststore_stops_start_up(jks: KeytoolStores, certs: Certs, tmp_path: Path) -> None:
    from tests.security_certs import keytool
    empty = tmp_path / "empty-trust.jks"
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", str(certs.ca), "-keystore", str(empty),
            "-storetype", "JKS", "-storepass", PASSWORD)
    keytool("-delete", "-alias", "ca", "-keystore", str(empty), "-storetype", "JKS", "-storepass", PASSWORD)
    assert empty.read_bytes()[:4] == b"\xfe\xed\xfe\xed"
    with pytest.raises(SecurityConfigError, match="ssl.truststore.location: the JKS truststore holds no certificates"):
        listener_security({**keytool_ssl_props(jks), "ssl.truststore.location": str(empty)}, LISTENER)


def test_a_jks_keystore_with_two_keys_is_refused(jks: KeytoolStores, certs: Certs, tmp_path: Path) -> None:
    """Java's key manager would pick a key per handshake; josefk serves one and says so."""
    from tests.security_certs import keytool
    two = tmp_path / "two.jks"
    two.write_bytes(jks.client.read_bytes())
    keytool("-importkeystore", "-noprompt", "-srckeystore", str(certs.broker.p12), "-srcstoretype", "PKCS12",
            "-srcstorepass", PASSWORD, "-destkeystore", str(two), "-deststoretype", "JKS", "-deststorepass", PASSWORD)
    props = {**keytool_ssl_props(jks), "ssl.keystore.location": str(two), "ssl.key.password": PASSWORD}
    with pytest.raises(SecurityConfigError, match="ssl.keystore.location: the JKS keystore holds 2 private keys"):
        listener_security(props, LISTENER)


def test_a_wrong_key_password_on_a_pkcs12_keystore_stops_start_up(p12: KeytoolStores) -> None:
    props = {**keytool_ssl_props(p12), "ssl.key.password": "wrong"}
    with pytest.raises(SecurityConfigError, match="ssl.key.password: wrong password for the key of the PKCS12"):
        listener_security(props, LISTENER)


def test_listener_prefixed_keys_are_named(jks: KeytoolStores) -> None:
    props = {f"listener.name.ssl.{k}": v for k, v in keytool_ssl_props(jks).items()}
    props["listener.name.ssl.ssl.key.password"] = "wrong"
    with pytest.raises(SecurityConfigError, match="listener.name.ssl.ssl.key.password: wrong password"):
        listener_security(props, LISTENER)


@pytest.mark.parametrize(("change", "message"), ERRORS[:2], ids=ERROR_IDS[:2])
def test_broker_config_refuses_them(jks: KeytoolStores, certs: Certs, tmp_path: Path,
                                    change: dict[str, str | None], message: str) -> None:
    props = {"listeners": "SSL://127.0.0.1:0", "security.inter.broker.protocol": "SSL",
             **error_props(jks, certs, change, tmp_path)}
    with pytest.raises(ConfigError, match=message):
        KafkaConfig(props)


@pytest.mark.parametrize("store", ["keystore", "truststore"])
def test_a_jks_store_without_the_jks_extra_names_the_key_and_the_fix(
        jks: KeytoolStores, p12: KeytoolStores, monkeypatch: pytest.MonkeyPatch, store: str) -> None:
    """pyjks is the jks extra (it compiles twofish): without it a JKS file stops start-up with its
    key, its type key and both fixes, while PKCS12 stores, under either declared type, still load."""
    monkeypatch.setitem(sys.modules, "jks", None)  # what `pip install josefk` without [jks] leaves
    other = "truststore" if store == "keystore" else "keystore"
    props = {**keytool_ssl_props(jks), f"ssl.{other}.location": str(getattr(p12, "broker" if other == "keystore"
                                                                            else "truststore")),
             "ssl.key.password": PASSWORD}
    with pytest.raises(SecurityConfigError) as raised:
        listener_security(props, LISTENER)
    assert str(raised.value) == (
        f"Invalid value for configuration ssl.{store}.location: the {store} is a JKS file and reading JKS needs "
        "pyjks, which is not installed. Install josefk's jks extra (pip install 'josefk[jks]'; it compiles "
        f"twofish), or convert the {store} to PKCS12 (keytool -importkeystore -deststoretype PKCS12) and set "
        f"ssl.{store}.type=PKCS12")
    pkcs12 = {**keytool_ssl_props(p12), "ssl.key.password": PASSWORD, "ssl.keystore.type": "JKS"}
    assert listener_security(pkcs12, LISTENER).ssl_context is not None
