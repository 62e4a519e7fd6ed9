"""Listeners and their security settings, under Kafka 3.9's config keys.

A listener's setting is `listener.name.<listener lower case>.<key>` if set, else `<key>`
(SASL JAAS configs and the OAUTHBEARER server callback handler only in the prefixed form
`listener.name.<l>.<mechanism>.<key>`, as Kafka brokers take them; sasl.oauthbearer.* keys
with a listener and mechanism prefix, a listener prefix, or none). Anything josefk cannot
honour stops start-up with a line naming the key: a broker never runs open because a
security setting was ignored.
"""

from __future__ import annotations

import contextlib
import os
import re
import ssl
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from josefk.clients.network_client import ClientSecurity
from josefk.server.network.security.jaas import (
    PLAIN_LOGIN_MODULE,
    SCRAM_LOGIN_MODULE,
    JaasConfigError,
    JaasEntry,
    parse_jaas_config,
)
from josefk.server.network.security.oauthbearer import (
    OAUTH_KEYS,
    OAUTHBEARER_LOGIN_MODULE,
    SECURED_VALIDATORS,
    UNSECURED_VALIDATOR,
    JwksKeys,
    JwtSettings,
    JwtValidator,
    TokenValidator,
    UnsecuredValidator,
)
from josefk.server.network.security.principal import SslPrincipalMapper

if TYPE_CHECKING:
    import jks

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_PROTOCOLS = ("SASL_PLAINTEXT", "SASL_SSL")
TLS_PROTOCOLS = ("SSL", "SASL_SSL")
SUPPORTED_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
_LOGIN_MODULES = {"PLAIN": PLAIN_LOGIN_MODULE, "SCRAM-SHA-256": SCRAM_LOGIN_MODULE, "SCRAM-SHA-512": SCRAM_LOGIN_MODULE,
                  "OAUTHBEARER": OAUTHBEARER_LOGIN_MODULE}
# Mechanism prefixes a listener's SASL keys may carry (listener.name.<l>.<mechanism>.<key>).
_MECHANISM_PREFIX = re.compile(r"^(plain|scram-sha-256|scram-sha-512|oauthbearer|gssapi)\.(.+)$")
_OAUTH_HANDLER = "sasl.server.callback.handler.class"

# Kafka's defaults (SslConfigs / BrokerSecurityConfigs); None is Kafka's null.
SSL_KEYS: dict[str, str | None] = {
    "ssl.protocol": "TLSv1.3",
    "ssl.enabled.protocols": "TLSv1.2,TLSv1.3",
    "ssl.keystore.type": "JKS",
    "ssl.keystore.location": None,
    "ssl.keystore.password": None,
    "ssl.key.password": None,
    "ssl.keystore.certificate.chain": None,
    "ssl.keystore.key": None,
    "ssl.truststore.type": "JKS",
    "ssl.truststore.location": None,
    "ssl.truststore.password": None,
    "ssl.truststore.certificates": None,
    "ssl.cipher.suites": "",  # KafkaConfig's default: an empty list
    "ssl.client.auth": "none",
    "ssl.principal.mapping.rules": "DEFAULT",
    "ssl.endpoint.identification.algorithm": "https",
}
# Keys that only a listener prefix may carry as well as the top level.
_PER_LISTENER = {*SSL_KEYS, *OAUTH_KEYS, "sasl.enabled.mechanisms", "connections.max.reauth.ms"}
# Pluggable JVM classes and providers: josefk cannot load them, and ignoring one could leave a
# listener less protected than configured.
_UNSUPPORTED = ("ssl.engine.factory.class", "ssl.provider", "security.providers", "principal.builder.class",
                "sasl.server.callback.handler.class", "sasl.login.class", "sasl.login.callback.handler.class",
                "ssl.keystore.engine", "sasl.server.max.receive.size")
_PREFIX = re.compile(r"^listener\.name\.([^.]+)\.(.+)$")
_VERSIONS = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3}


@dataclass(frozen=True)
class Listener:
    name: str
    host: str
    port: int
    protocol: str

    def __str__(self) -> str:
        return f"{self.name}://{self.host}:{self.port}"


def parse_listeners(values: list[str], protocol_map: Mapping[str, str]) -> list[Listener]:
    """NAME://host:port entries (Kafka's CoreUtils.listenerListToEndPoints)."""
    out: list[Listener] = []
    for text in values:
        name, sep, rest = text.partition("://")
        host, colon, port = rest.rpartition(":")
        if not sep or not colon or not port.isdigit() or not 0 <= int(port) <= 65535:
            raise ValueError(f"Invalid value {text} for configuration listeners: expected LISTENER://host:port")
        name = name.upper()
        if name not in protocol_map:
            raise ValueError(f"No security protocol defined for listener {name}")
        if any(lis.name == name for lis in out):
            raise ValueError(f"Each listener must have a different name, listeners: {','.join(values)}")
        out.append(Listener(name, host.strip("[]"), int(port), protocol_map[name]))
    return out


def listener_key_known(name: str) -> bool:
    """A listener-prefixed key josefk honours (its suffix is a per-listener security key)."""
    m = _PREFIX.match(name)
    if m is None:
        return False
    key = m.group(2)
    if key in _PER_LISTENER or (key.endswith(".sasl.jaas.config") and key.count(".") == 3):
        return True
    return key.startswith("oauthbearer.") and key.removeprefix("oauthbearer.") in (*OAUTH_KEYS, _OAUTH_HANDLER)


def unsupported_security_key(name: str, value: str) -> str | None:
    """The error line for a security key josefk cannot honour (None if it can)."""
    m = _PREFIX.match(name)
    key = m.group(2) if m else name
    mech = _MECHANISM_PREFIX.match(key) if m else None
    if mech is not None:
        if mech.group(0) == "oauthbearer." + _OAUTH_HANDLER and value.strip() in (UNSECURED_VALIDATOR,
                                                                                  *SECURED_VALIDATORS):
            return None
        key = mech.group(2)
    if key in _UNSUPPORTED and value.strip():
        if key == _OAUTH_HANDLER:
            return (f"{name} is set but josefk cannot honour it (no pluggable JVM classes; for OAUTHBEARER "
                    f"listener.name.<l>.oauthbearer.{_OAUTH_HANDLER} may name {SECURED_VALIDATORS[0]} or "
                    f"{UNSECURED_VALIDATOR})")
        return f"{name} is set but josefk cannot honour it (no pluggable JVM classes or providers)"
    if key == "sasl.jaas.config" and m is None:
        return ("sasl.jaas.config must be prefixed with a listener and SASL mechanism on a broker, e.g. "
                "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config")
    return None


class SecurityConfigError(ValueError):
    pass


class ListenerConfig:
    """One listener's view of the broker properties: prefixed keys win."""

    def __init__(self, props: Mapping[str, str], listener: Listener) -> None:
        self.props = props
        self.listener = listener
        self.prefix = f"listener.name.{listener.name.lower()}."

    def key_for(self, key: str) -> str:
        """The key that sets `key` for this listener (prefixed if the prefixed one is set)."""
        return self.prefix + key if self.prefix + key in self.props else key

    def get(self, key: str, default: str | None = None) -> str | None:
        value = self.props.get(self.key_for(key))
        if value is None:
            value = SSL_KEYS.get(key, default)
        return value.strip() if isinstance(value, str) else value

    def oauth(self, key: str) -> tuple[str, str | None]:
        """A sasl.oauthbearer.* key (ConfigurationUtils with the mechanism prefix over the
        listener's view) and the name it was set under."""
        for name in (f"{self.prefix}oauthbearer.{key}", self.prefix + key, key):
            if name in self.props:
                return name, self.props[name].strip()
        return key, OAUTH_KEYS[key]

    def jaas(self, mechanism: str) -> tuple[str, JaasEntry | None]:
        key = f"{self.prefix}{mechanism.lower()}.sasl.jaas.config"
        text = self.props.get(key)
        if text is None:
            return key, None
        try:
            return key, parse_jaas_config(text)
        except JaasConfigError as e:
            raise SecurityConfigError(f"Invalid value for configuration {key}: {e}") from None


@dataclass
class ListenerSecurity:
    """What a listener's connections need: TLS context, SASL mechanisms and their JAAS, the
    SSL principal mapper, the re-authentication interval (0: sessions never expire), and for
    OAUTHBEARER the token validator (with the JWKS keys the broker refreshes, if secured)."""

    listener: Listener
    ssl_context: ssl.SSLContext | None
    mechanisms: tuple[str, ...]
    jaas: dict[str, JaasEntry]
    principal_mapper: SslPrincipalMapper
    reauth_ms: int
    oauth: TokenValidator | None = None
    jwks: JwksKeys | None = None

    @property
    def sasl(self) -> bool:
        return self.listener.protocol in SASL_PROTOCOLS


def _error(key: str, message: str) -> SecurityConfigError:
    return SecurityConfigError(f"Invalid value for configuration {key}: {message}")


@contextlib.contextmanager
def _private_pem(data: bytes) -> Iterator[str]:
    """A 0600 temp file for ssl's load_cert_chain, which only reads files; removed at once."""
    fd, path = tempfile.mkstemp(suffix=".pem")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        yield path
    finally:
        os.unlink(path)


_JKS_MAGIC = b"\xfe\xed\xfe\xed"
_STORE_TYPES = ("JKS", "PKCS12", "PEM")


def _store_format(data: bytes, loc_key: str, what: str) -> str:
    """Whether a JKS- or PKCS12-typed store file is JKS or PKCS12 inside. Java reads either under
    either type (keystore.type.compat), and keytool writes PKCS12 unless given -storetype JKS, so
    an operator's kafka.server.keystore.jks is as likely PKCS12 as JKS."""
    if data.startswith(_JKS_MAGIC):
        return "JKS"
    if data.startswith(b"\x30"):  # a DER SEQUENCE, as PKCS12's PFX is
        return "PKCS12"
    raise _error(loc_key, f"the file is neither a JKS nor a PKCS12 {what}")


def _require_jks(loc_key: str, type_key: str, what: str) -> None:
    """pyjks reads JKS, and it needs twofish, which PyPI has only as C source: it is the jks extra,
    so that `pip install josefk` needs no compiler. PKCS12 and PEM stores do without it."""
    try:
        import jks  # noqa: F401
    except ImportError:
        raise _error(loc_key, f"the {what} is a JKS file and reading JKS needs pyjks, which is not installed. "
                              "Install josefk's jks extra (pip install 'josefk[jks]'; it compiles twofish), or "
                              f"convert the {what} to PKCS12 (keytool -importkeystore -deststoretype PKCS12) "
                              f"and set {type_key}=PKCS12") from None


def _load_jks(cfg: ListenerConfig, data: bytes, password: str | None, loc_key: str, what: str) -> jks.KeyStore:
    """A JKS `what` (keystore or truststore), its integrity checked with the password (Java skips
    the check without one)."""
    _require_jks(loc_key, cfg.key_for(f"ssl.{what}.type"), what)
    import jks

    password_key = cfg.key_for(f"ssl.{what}.password")
    try:
        return jks.KeyStore.loads(data, password, try_decrypt_keys=False)
    except jks.KeystoreSignatureException:
        raise _error(password_key, f"wrong password for the JKS {what} (its integrity check fails)") from None
    except jks.KeystoreException as e:
        raise _error(loc_key, f"cannot read the JKS {what}: {e}") from None


def _jks_key_and_chain(cfg: ListenerConfig, data: bytes, password: str, loc_key: str) -> bytes:
    """The JKS keystore's private key (PKCS8) and its certificate chain, leaf first, as PEM. The
    key password is ssl.key.password, else the store password, as Kafka takes it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    store = _load_jks(cfg, data, password, loc_key, "keystore")
    import jks

    entries = store.private_keys
    if not entries:
        raise _error(loc_key, "the JKS keystore holds no private key entry")
    if len(entries) > 1:
        raise _error(loc_key, f"the JKS keystore holds {len(entries)} private keys ({', '.join(entries)}); "
                              "josefk serves one: keep one key entry")
    ((alias, entry),) = entries.items()
    key_password = cfg.get("ssl.key.password")
    try:
        entry.decrypt(key_password if key_password is not None else password)
    except jks.KeystoreException:
        unset = "" if key_password is not None else " (unset, so the keystore password was tried, as Kafka does)"
        raise _error(cfg.key_for("ssl.key.password"),
                     f"wrong password for the key entry {alias!r} of the JKS keystore{unset}") from None
    try:
        key = serialization.load_der_private_key(entry.pkey_pkcs8, None)
        chain = [x509.load_der_x509_certificate(der) for _kind, der in entry.cert_chain]
    except ValueError as e:
        raise _error(loc_key, f"cannot read the key entry {alias!r}: {e}") from None
    if not chain:
        raise _error(loc_key, f"the key entry {alias!r} has no certificate")
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return pem + b"".join(c.public_bytes(serialization.Encoding.PEM) for c in chain)


def _pem_key_and_chain(cfg: ListenerConfig) -> tuple[bytes, str] | None:
    """The keystore as PEM (key, then certificate chain) and the key that named it; None if unset."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    store_type = (cfg.get("ssl.keystore.type") or "JKS").upper()
    location = cfg.get("ssl.keystore.location")
    chain, key = cfg.get("ssl.keystore.certificate.chain"), cfg.get("ssl.keystore.key")
    type_key = cfg.key_for("ssl.keystore.type")
    if location is None and chain is None:
        return None
    if store_type not in _STORE_TYPES:
        raise _error(type_key, f"keystore type {store_type} is not supported by josefk (use JKS, PKCS12 or PEM)")
    if chain is not None:
        if store_type != "PEM" or key is None:
            raise _error(cfg.key_for("ssl.keystore.certificate.chain"),
                         "inline certificates need ssl.keystore.type=PEM and ssl.keystore.key")
        return (key + "\n" + chain).encode(), cfg.key_for("ssl.keystore.certificate.chain")
    loc_key = cfg.key_for("ssl.keystore.location")
    try:
        data = Path(location or "").read_bytes()
    except OSError as e:
        raise _error(loc_key, f"cannot read the keystore: {e.strerror}") from None
    if store_type == "PEM":
        return data, loc_key
    password = cfg.get("ssl.keystore.password")
    if password is None:
        raise _error(cfg.key_for("ssl.keystore.password"),
                     "SSL key store is specified, but key store password is not specified")
    if _store_format(data, loc_key, "keystore") == "JKS":
        return _jks_key_and_chain(cfg, data, password, loc_key), loc_key
    try:
        loaded = pkcs12.load_pkcs12(data, password.encode())
    except ValueError as e:
        raise _error(loc_key, f"cannot read the PKCS12 keystore (wrong ssl.keystore.password?): {e}") from None
    if loaded.key is None or loaded.cert is None:
        raise _error(loc_key, "the PKCS12 keystore holds no private key with a certificate")
    key_password = cfg.get("ssl.key.password")
    if key_password is not None and key_password != password:
        # Java would fail to recover the key with this password; keytool's PKCS12 keys share the store's.
        raise _error(cfg.key_for("ssl.key.password"), "wrong password for the key of the PKCS12 keystore "
                     "(its key opens with ssl.keystore.password)")
    pem = loaded.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption())
    for cert in [loaded.cert.certificate, *(c.certificate for c in loaded.additional_certs)]:
        pem += cert.public_bytes(serialization.Encoding.PEM)
    return pem, loc_key


def _jks_trusted(cfg: ListenerConfig, data: bytes, password: str | None, loc_key: str) -> list[bytes]:
    """DER certificates a JKS truststore trusts: its trusted certificate entries and, as Java's
    trust managers take them, the first certificate of each key entry."""
    store = _load_jks(cfg, data, password, loc_key, "truststore")
    trusted = [entry.cert for entry in store.certs.values()]
    return trusted + [entry.cert_chain[0][1] for entry in store.private_keys.values() if entry.cert_chain]


def _trusted_pem(cfg: ListenerConfig) -> str | None:
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    inline = cfg.get("ssl.truststore.certificates")
    if inline is not None:
        return inline
    location = cfg.get("ssl.truststore.location")
    if location is None:
        return None
    loc_key = cfg.key_for("ssl.truststore.location")
    store_type = (cfg.get("ssl.truststore.type") or "JKS").upper()
    if store_type not in _STORE_TYPES:
        raise _error(cfg.key_for("ssl.truststore.type"),
                     f"truststore type {store_type} is not supported by josefk (use JKS, PKCS12 or PEM)")
    try:
        data = Path(location).read_bytes()
    except OSError as e:
        raise _error(loc_key, f"cannot read the truststore: {e.strerror}") from None
    if store_type == "PEM":
        return data.decode()
    password = cfg.get("ssl.truststore.password")
    store_format = _store_format(data, loc_key, "truststore")
    if store_format == "JKS":
        ders = _jks_trusted(cfg, data, password, loc_key)
        try:
            certs = [x509.load_der_x509_certificate(der) for der in ders]
        except ValueError as e:
            raise _error(loc_key, f"cannot read a certificate of the JKS truststore: {e}") from None
    else:
        try:
            loaded = pkcs12.load_pkcs12(data, password.encode() if password else None)
        except ValueError as e:
            raise _error(loc_key, f"cannot read the PKCS12 truststore: {e}") from None
        certs = [c.certificate for c in ([loaded.cert] if loaded.cert else []) + list(loaded.additional_certs)]
    if not certs:
        raise _error(loc_key, f"the {store_format} truststore holds no certificates")
    return "".join(c.public_bytes(serialization.Encoding.PEM).decode() for c in certs)


_TLS13_SUITES = ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
                 "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_8_SHA256")
_KX = {"ECDHE_RSA": "ECDHE-RSA-", "ECDHE_ECDSA": "ECDHE-ECDSA-", "DHE_RSA": "DHE-RSA-", "RSA": ""}
_BULK = re.compile(r"^(AES)_(128|256)_(GCM|CBC|CCM)_(SHA|SHA256|SHA384)$|^(CHACHA20_POLY1305)_SHA256$")


def openssl_cipher(name: str) -> str | None:
    """A TLS 1.2 suite's standard (Java) name as OpenSSL names it; None for TLS 1.3 suites,
    which OpenSSL always offers."""
    if name in _TLS13_SUITES:
        return None
    kx, _sep, bulk = name.removeprefix("TLS_").partition("_WITH_")
    m = _BULK.match(bulk)
    if kx not in _KX or m is None:
        raise ValueError(name)
    if m.group(5):
        return _KX[kx] + "CHACHA20-POLY1305"
    _aes, bits, mode, mac = m.group(1, 2, 3, 4)
    if mode == "CBC":
        return f"{_KX[kx]}AES{bits}-{mac}"
    return f"{_KX[kx]}AES{bits}-{mode}" + (f"-{mac}" if mode == "GCM" else "")


def _configure_tls(ctx: ssl.SSLContext, cfg: ListenerConfig) -> None:
    protocol_key = cfg.key_for("ssl.protocol")
    if cfg.get("ssl.protocol") not in ("TLSv1.2", "TLSv1.3", "TLS"):
        raise _error(protocol_key, f"{cfg.get('ssl.protocol')} is not supported (TLSv1.2, TLSv1.3 or TLS)")
    enabled_key = cfg.key_for("ssl.enabled.protocols")
    names = [p.strip() for p in (cfg.get("ssl.enabled.protocols") or "").split(",") if p.strip()]
    unknown = [n for n in names if n not in _VERSIONS]
    if unknown or not names:
        raise _error(enabled_key, f"{','.join(unknown) or 'nothing'} cannot be enabled (TLSv1.2 and TLSv1.3 can)")
    versions = sorted(_VERSIONS[n] for n in names)
    ctx.minimum_version, ctx.maximum_version = versions[0], versions[-1]
    suites = [s.strip() for s in (cfg.get("ssl.cipher.suites") or "").split(",") if s.strip()]
    if suites:
        suites_key = cfg.key_for("ssl.cipher.suites")
        try:
            openssl = [c for c in (openssl_cipher(s) for s in suites) if c]
        except ValueError as e:
            raise _error(suites_key, f"unknown cipher suite {e}") from None
        if openssl:
            try:
                ctx.set_ciphers(":".join(openssl))
            except ssl.SSLError:
                raise _error(suites_key, "none of these cipher suites is available") from None


def _trust(ctx: ssl.SSLContext, trusted: str) -> None:
    """Trust the truststore's certificates as Java's PKIX does: each is an anchor, whether a root,
    an intermediate or a leaf (OpenSSL by default wants a chain up to a self-signed root)."""
    ctx.load_verify_locations(cadata=trusted)
    ctx.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN


def server_ssl_context(cfg: ListenerConfig) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    _configure_tls(ctx, cfg)
    found = _pem_key_and_chain(cfg)
    if found is None:
        raise _error(cfg.key_for("ssl.keystore.location"),
                     f"listener {cfg.listener.name} is {cfg.listener.protocol} but has no keystore")
    pem, key = found
    key_password = cfg.get("ssl.key.password")
    with _private_pem(pem) as path:
        try:
            ctx.load_cert_chain(path, password=key_password)
        except (ssl.SSLError, ValueError) as e:
            raise _error(key, f"cannot load the key and certificate (wrong ssl.key.password?): {e}") from None
    auth_key = cfg.key_for("ssl.client.auth")
    client_auth = (cfg.get("ssl.client.auth") or "none").lower()
    modes = {"none": ssl.CERT_NONE, "requested": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}
    if client_auth not in modes:
        raise _error(auth_key, "String must be one of: required, requested, none")
    trusted = _trusted_pem(cfg)
    if client_auth != "none":
        if trusted is None:
            raise _error(cfg.key_for("ssl.truststore.location"), "ssl.client.auth needs a truststore")
        try:
            _trust(ctx, trusted)
        except ssl.SSLError as e:
            raise _error(cfg.key_for("ssl.truststore.location"), f"cannot load the truststore: {e}") from None
    ctx.verify_mode = modes[client_auth]
    return ctx


def client_ssl_context(cfg: ListenerConfig) -> ssl.SSLContext:
    """The broker's own client context for the inter-broker listener: same truststore, its
    keystore as client certificate, hostname checks per ssl.endpoint.identification.algorithm."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    _configure_tls(ctx, cfg)
    trusted = _trusted_pem(cfg)
    if trusted is not None:
        _trust(ctx, trusted)
    else:
        ctx.load_default_certs()
    ctx.check_hostname = (cfg.get("ssl.endpoint.identification.algorithm") or "").lower() == "https"
    found = _pem_key_and_chain(cfg)
    if found is not None:
        with _private_pem(found[0]) as path:
            ctx.load_cert_chain(path, password=cfg.get("ssl.key.password"))
    return ctx


def listener_security(props: Mapping[str, str], listener: Listener) -> ListenerSecurity:
    """Build and check one listener's security; SecurityConfigError names the offending key."""
    cfg = ListenerConfig(props, listener)
    ctx = server_ssl_context(cfg) if listener.protocol in TLS_PROTOCOLS else None
    rules_key = cfg.key_for("ssl.principal.mapping.rules")
    try:
        mapper = SslPrincipalMapper(cfg.get("ssl.principal.mapping.rules") or "DEFAULT")
    except ValueError as e:
        raise _error(rules_key, str(e)) from None
    reauth_key = cfg.key_for("connections.max.reauth.ms")
    try:
        reauth_ms = int(cfg.get("connections.max.reauth.ms", "0") or "0")
    except ValueError:
        raise _error(reauth_key, "expected a number of milliseconds") from None
    mechanisms: tuple[str, ...] = ()
    jaas: dict[str, JaasEntry] = {}
    if listener.protocol in SASL_PROTOCOLS:
        mech_key = cfg.key_for("sasl.enabled.mechanisms")
        mechanisms = tuple(m.strip().upper() for m in (cfg.get("sasl.enabled.mechanisms", "GSSAPI") or "").split(",")
                           if m.strip())
        unsupported = [m for m in mechanisms if m not in SUPPORTED_MECHANISMS]
        if unsupported or not mechanisms:
            raise _error(mech_key, f"{','.join(unsupported) or 'no mechanism'} on SASL listener {listener.name}: "
                         f"josefk supports {', '.join(SUPPORTED_MECHANISMS)}")
        for mechanism in mechanisms:
            key, entry = cfg.jaas(mechanism)
            expected = _LOGIN_MODULES[mechanism]
            if entry is None:
                if mechanism == "PLAIN":
                    raise _error(key, "PLAIN needs a JAAS config with user_<name>=\"<password>\" entries")
                continue
            if entry.login_module != expected:
                raise _error(key, f"login module {entry.login_module} cannot serve {mechanism} (use {expected})")
            jaas[mechanism] = entry
    oauth: TokenValidator | None = None
    jwks = None
    if "OAUTHBEARER" in mechanisms:
        oauth, jwks = _oauth_validator(cfg, jaas.get("OAUTHBEARER"))
    return ListenerSecurity(listener, ctx, mechanisms, jaas, mapper, reauth_ms, oauth, jwks)


def _oauth_number(cfg: ListenerConfig, key: str, least: int) -> int:
    name, text = cfg.oauth(key)
    try:
        value = int(text or "")
    except ValueError:
        raise _error(name, "expected a whole number") from None
    if value < least:
        raise _error(name, f"Value must be at least {least}")
    return value


def _oauth_validator(cfg: ListenerConfig, entry: JaasEntry | None) -> tuple[TokenValidator, JwksKeys | None]:
    """The validator Kafka's listener.name.<l>.oauthbearer.sasl.server.callback.handler.class
    picks: unsecured unless it names OAuthBearerValidatorCallbackHandler."""
    handler_key = f"{cfg.prefix}oauthbearer.{_OAUTH_HANDLER}"
    handler = (cfg.props.get(handler_key) or "").strip() or UNSECURED_VALIDATOR
    if handler == UNSECURED_VALIDATOR:
        try:
            return UnsecuredValidator.from_options(entry.options if entry else {}), None
        except ValueError as e:
            raise _error(cfg.jaas("OAUTHBEARER")[0], str(e)) from None
    url_key, url = cfg.oauth("sasl.oauthbearer.jwks.endpoint.url")
    if not url:
        raise _error(url_key, f"{handler} needs the JWKS of the token issuer (an https, http or file URL)")
    if url.split(":", 1)[0].lower() not in ("http", "https", "file"):
        raise _error(url_key, f"URL {url} has an unsupported scheme (https, http or file)")
    keys = JwksKeys(url_key, url, _oauth_number(cfg, "sasl.oauthbearer.jwks.endpoint.refresh.ms", 1),
                    _oauth_number(cfg, "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms", 0),
                    _oauth_number(cfg, "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms", 0))
    audience = cfg.oauth("sasl.oauthbearer.expected.audience")[1] or ""
    settings = JwtSettings(audience=tuple(a.strip() for a in audience.split(",") if a.strip()),
                           issuer=cfg.oauth("sasl.oauthbearer.expected.issuer")[1] or None,
                           clock_skew_s=_oauth_number(cfg, "sasl.oauthbearer.clock.skew.seconds", 0),
                           scope_claim=cfg.oauth("sasl.oauthbearer.scope.claim.name")[1] or "scope",
                           sub_claim=cfg.oauth("sasl.oauthbearer.sub.claim.name")[1] or "sub")
    return JwtValidator(keys, settings), keys


def inter_broker_client(props: Mapping[str, str], listener: Listener) -> ClientSecurity:
    cfg = ListenerConfig(props, listener)
    ctx = client_ssl_context(cfg) if listener.protocol in TLS_PROTOCOLS else None
    if listener.protocol not in SASL_PROTOCOLS:
        return ClientSecurity(listener.protocol, ctx)
    mech_key = "sasl.mechanism.inter.broker.protocol"
    mechanism = (props.get(mech_key) or "GSSAPI").strip().upper()
    inter_broker = [m for m in SUPPORTED_MECHANISMS if m != "OAUTHBEARER"]
    if mechanism not in inter_broker:
        raise _error(mech_key, f"{mechanism} is not supported between brokers (josefk supports "
                     f"{', '.join(inter_broker)})")
    key, entry = cfg.jaas(mechanism)
    if entry is None or "username" not in entry.options or "password" not in entry.options:
        raise _error(key, f"the inter-broker listener {listener.name} needs username and password for {mechanism}")
    return ClientSecurity(listener.protocol, ctx, mechanism, entry.options["username"], entry.options["password"])
