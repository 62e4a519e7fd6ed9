"""Certificates for the TLS tests, made with the cryptography package into a temp dir:
a CA, a broker certificate for 127.0.0.1/localhost, and client certificates."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

PASSWORD = "changeit"


@dataclass(frozen=True)
class Identity:
    cert: Path  # PEM certificate
    key: Path  # PEM key (unencrypted)
    pem: Path  # key then certificate, the key encrypted with PASSWORD (a PEM keystore)
    p12: Path  # PKCS12 keystore, password PASSWORD


@dataclass(frozen=True)
class Certs:
    ca: Path
    ca_p12: Path  # a PKCS12 truststore with the CA
    broker: Identity
    client: Identity  # CN=alice,OU=Clients,O=josefk


def _name(**parts: str) -> x509.Name:
    oids = {"CN": NameOID.COMMON_NAME, "OU": NameOID.ORGANIZATIONAL_UNIT_NAME, "O": NameOID.ORGANIZATION_NAME}
    return x509.Name([x509.NameAttribute(oids[k], v) for k, v in parts.items()][::-1])


def _issue(subject: x509.Name, key: ec.EllipticCurvePrivateKey, issuer: x509.Name, issuer_key, *, ca: bool = False,
           san: list | None = None) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
               .not_valid_after(now + datetime.timedelta(days=2))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName(san), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _write(directory: Path, name: str, cert: x509.Certificate, key, ca: x509.Certificate) -> Identity:
    pem = serialization.Encoding.PEM
    cert_path, key_path = directory / f"{name}.crt", directory / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(pem))
    key_path.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    encrypted = key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                  serialization.BestAvailableEncryption(PASSWORD.encode()))
    (directory / f"{name}.pem").write_bytes(encrypted + cert.public_bytes(pem))
    p12 = pkcs12.serialize_key_and_certificates(name.encode(), key, cert, [ca],
                                                serialization.BestAvailableEncryption(PASSWORD.encode()))
    (directory / f"{name}.p12").write_bytes(p12)
    return Identity(cert_path, key_path, directory / f"{name}.pem", directory / f"{name}.p12")


def make_certs(directory: Path) -> Certs:
    directory.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name(CN="josefk test CA")
    ca = _issue(ca_name, ca_key, ca_name, ca_key, ca=True)
    (directory / "ca.crt").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (directory / "ca.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        None, None, None, [ca], serialization.BestAvailableEncryption(PASSWORD.encode())))
    broker_key = ec.generate_private_key(ec.SECP256R1())
    broker = _issue(_name(CN="broker", O="josefk"), broker_key, ca_name, ca_key,
                    san=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _issue(_name(CN="alice", OU="Clients", O="josefk"), client_key, ca_name, ca_key)
    return Certs(directory / "ca.crt", directory / "ca.p12", _write(directory, "broker", broker, broker_key, ca),
                 _write(directory, "client", client, client_key, ca))


@dataclass(frozen=True)
class KeytoolStores:
    """Stores keytool wrote from `Certs` (the key entries chain to the CA)."""

    broker: Path  # the broker's key entry "broker", store password PASSWORD, key password KEY_PASSWORD
    client: Path  # alice's key entry, store and key password PASSWORD
    truststore: Path  # the CA as trusted certificate entry "ca", password PASSWORD
    empty_keystore: Path  # only the trusted CA entry: no private key


KEY_PASSWORD = "keysecret"


def keytool(*args: str) -> None:
    """Run Java's keytool (a JVM tuned to start fast); its output is in the assertion when it fails."""
    import subprocess

    from tests.prerequisites import require_tools
    require_tools("keytool")
    done = subprocess.run(["keytool", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def keytool_stores(certs: Certs, directory: Path, store_type: str) -> KeytoolStores:
    """JKS or PKCS12 stores as an operator makes them with keytool, files named .jks as Kafka's
    docs name them whatever their type (keytool's own default is PKCS12)."""
    directory.mkdir(parents=True, exist_ok=True)
    suffix = store_type.lower()
    stores = KeytoolStores(*(directory / f"{n}-{suffix}.jks" for n in ("broker", "client", "trust", "empty")))
    # keytool keeps one password for PKCS12's key and store; a JKS key entry has its own.
    key_password = KEY_PASSWORD if store_type == "JKS" else PASSWORD
    for source, target, key_pw in ((certs.broker.p12, stores.broker, key_password),
                                   (certs.client.p12, stores.client, PASSWORD)):
        keytool("-importkeystore", "-noprompt", "-srckeystore", str(source), "-srcstoretype", "PKCS12",
                "-srcstorepass", PASSWORD, "-srcalias", source.stem, "-destkeystore", str(target),
                "-deststoretype", store_type, "-deststorepass", PASSWORD, "-destkeypass", key_pw)
    for target in (stores.truststore, stores.empty_keystore):
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", str(certs.ca), "-keystore", str(target),
                "-storetype", store_type, "-storepass", PASSWORD)
    return stores


def keytool_ssl_props(stores: KeytoolStores) -> dict[str, str]:
    """server.properties' SSL lines for keytool's JKS stores as Kafka's docs write them: no store
    type (JKS, Kafka's default), client certificates required."""
    return {"ssl.keystore.location": str(stores.broker), "ssl.keystore.password": PASSWORD,
            "ssl.key.password": KEY_PASSWORD, "ssl.truststore.location": str(stores.truststore),
            "ssl.truststore.password": PASSWORD, "ssl.client.auth": "required"}
