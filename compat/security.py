"""The security dimension of the compat suite: every client produces, consumes and joins a
group over SSL, mutual TLS, and SASL_PLAINTEXT and SASL_SSL with PLAIN, SCRAM-SHA-256 and
SCRAM-SHA-512 (one report cell per client and mode).

The broker under test (josefk or Kafka, the same settings) gets one named listener per mode
beside PLAINTEXT, so one start serves every mode. Each SASL listener enables only its own
mechanism, so a client cannot pass a cell with another one. alice's SCRAM credentials are made
once with AlterUserScramCredentials. An ACL authorizer that allows everything without ACLs
(`allow.everyone.if.no.acl.found=true`, so the other scenarios run as before) guards each mode's
topics and groups (`sec-<mode>-` PREFIXED) with an ACL for the principal that mode must yield:
User:alice for SASL and for the mTLS certificate (CN=alice,OU=Clients,O=josefk, mapped by
`ssl.principal.mapping.rules`), User:ANONYMOUS on SSL without a client certificate. A connection
that got any other principal fails its cell with an authorization error.

Harnesses read the modes' connection settings from a properties file (clients/common.py
`secure_settings`; Harness.java `secure`), written here.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from common import SECURITY_MODES

if TYPE_CHECKING:
    from tests.security_certs import Certs

USER, SECRET = "alice", "alice-secret"
PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              f'password="admin-secret" user_admin="admin-secret" user_{USER}="{SECRET}";')
SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
MTLS_RULES = "RULE:^CN=([^,]*),OU=Clients.*$/$1/,DEFAULT"  # CN=alice,OU=Clients,O=josefk -> alice


@dataclass(frozen=True)
class Mode:
    """One column of the security table and the broker listener that serves it."""

    name: str               # the column, e.g. SASL_SSL-SCRAM-SHA-256
    listener: str           # the broker's listener name
    protocol: str           # its security protocol
    mechanism: str = ""     # SASL mechanism, the only one the listener enables
    client_cert: bool = False  # mutual TLS: ssl.client.auth=required on the listener

    @property
    def principal(self) -> str:
        """The principal the broker must give this mode's connections."""
        return f"User:{USER}" if self.mechanism or self.client_cert else "User:ANONYMOUS"

    @property
    def prefix(self) -> str:
        """Topic and group prefix of this mode (its ACLs are PREFIXED on it)."""
        return "sec-" + self.name.lower().replace("_", "-") + "-"


def _mode(name: str) -> Mode:
    if name == "SSL":
        return Mode(name, "SSL", "SSL")
    if name == "mTLS":
        return Mode(name, "MTLS", "SSL", client_cert=True)
    protocol, mechanism = name.split("-", 1)
    return Mode(name, f"{protocol}_{mechanism.replace('-', '')}", protocol, mechanism)


MODES = [_mode(name) for name in SECURITY_MODES]
DESCRIPTION = (
    "Security: each cell is one client over one security mode. The client produces 5 records "
    "(its default acks) to a new topic, reads them back with assign + seek(0), then joins a consumer group "
    "(subscribe), reads them, commits, closes, and a new consumer of the group must read the committed offset "
    "back as 5 (kcat: a second `-G` run after 2 more records must read exactly those 2). The broker has one "
    "listener per mode (PLAINTEXT stays for the other scenarios): SSL; mTLS (`ssl.client.auth=required`, the "
    "client presents a certificate, principal mapped from its subject by `ssl.principal.mapping.rules`; a "
    "Metadata request without a certificate must be refused, else every mTLS cell fails); SASL_PLAINTEXT and "
    "SASL_SSL listeners each enabling one mechanism (PLAIN from the JAAS config, SCRAM users made once with "
    "AlterUserScramCredentials). An ACL authorizer (`allow.everyone.if.no.acl.found=true`) gives "
    "each mode's topics and group (`sec-<mode>-` PREFIXED, All) only to the principal the mode must yield "
    "(User:alice; User:ANONYMOUS for SSL), so a wrong principal fails the cell.")


def broker_config(plaintext_port: int, ports: dict[str, int], certs: Certs) -> dict[str, str]:
    """server.properties keys for josefk and Kafka alike: the listeners, TLS, SASL and the authorizer."""
    from tests.security_certs import PASSWORD
    conf = {
        "listeners": ",".join([f"PLAINTEXT://127.0.0.1:{plaintext_port}",
                               *(f"{m.listener}://127.0.0.1:{ports[m.listener]}" for m in MODES)]),
        "listener.security.protocol.map": ",".join(["PLAINTEXT:PLAINTEXT",
                                                    *(f"{m.listener}:{m.protocol}" for m in MODES)]),
        "inter.broker.listener.name": "PLAINTEXT",
        "ssl.keystore.type": "PKCS12", "ssl.keystore.location": str(certs.broker.p12),
        "ssl.keystore.password": PASSWORD, "ssl.key.password": PASSWORD,
        "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer",
        "allow.everyone.if.no.acl.found": "true",
    }
    for m in MODES:
        prefix = f"listener.name.{m.listener.lower()}."
        if m.client_cert:
            conf.update({prefix + "ssl.client.auth": "required", prefix + "ssl.truststore.type": "PEM",
                         prefix + "ssl.truststore.location": str(certs.ca),
                         prefix + "ssl.principal.mapping.rules": MTLS_RULES})
        if m.mechanism:
            conf[prefix + "sasl.enabled.mechanisms"] = m.mechanism
            conf[f"{prefix}{m.mechanism.lower()}.sasl.jaas.config"] = PLAIN_JAAS if m.mechanism == "PLAIN" \
                else SCRAM_JAAS
    return conf


def client_settings(ports: dict[str, int], certs: Certs) -> str:
    """The properties file the harnesses read: `<mode>.<key>=<value>` per mode."""
    from tests.security_certs import PASSWORD
    lines = []
    for m in MODES:
        values = {"bootstrap": f"127.0.0.1:{ports[m.listener]}", "protocol": m.protocol, "mechanism": m.mechanism,
                  "user": USER if m.mechanism else "", "password": SECRET if m.mechanism else "",
                  "ca": str(certs.ca) if "SSL" in m.protocol else "", "prefix": m.prefix,
                  "cert": str(certs.client.cert) if m.client_cert else "",
                  "key": str(certs.client.key) if m.client_cert else "",
                  "keystore": str(certs.client.p12) if m.client_cert else "",
                  "keystore.password": PASSWORD if m.client_cert else ""}
        lines += [f"{m.name}.{k}={v}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


class Setup:
    """The security side of one broker under test: certificates, a port per listener and the
    harnesses' settings file, all in `directory` (the broker's temp dir)."""

    def __init__(self, directory: Path) -> None:
        from harness.net import free_port
        from tests.security_certs import make_certs
        self.certs = make_certs(directory)
        self.ports = {m.listener: free_port() for m in MODES}
        self.settings = directory / "security.properties"
        self.settings.write_text(client_settings(self.ports, self.certs))

    def broker_config(self, plaintext_port: int) -> dict[str, str]:
        return broker_config(plaintext_port, self.ports, self.certs)

    def prepare(self, bootstrap: str) -> dict[str, str]:
        return prepare(bootstrap, self.ports, self.certs)


def prepare(bootstrap: str, ports: dict[str, int], certs: Certs, timeout: float = 60) -> dict[str, str]:
    """Over PLAINTEXT: alice's SCRAM credentials and each mode's ACLs; then wait until every
    listener authenticates its mode (Kafka applies a credential through a ZooKeeper watch).
    Returns what a mode's listener got wrong that its clients cannot see: mode -> problem (a
    client without a certificate served where ssl.client.auth=required)."""
    from kafka import KafkaAdminClient
    from kafka.admin import (
        ACL,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        ResourcePattern,
        ResourceType,
        ScramMechanism,
        UserScramCredentialUpsertion,
    )
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30000)
    try:
        # One mechanism per request: Kafka 4 (KRaft) refuses a user altered twice in one request.
        for mechanism in (ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512):
            users = admin.alter_user_scram_credentials([UserScramCredentialUpsertion(USER, mechanism, SECRET)])
            if users != {USER: None}:
                raise RuntimeError(f"AlterUserScramCredentials failed: {users}")
        acls = [ACL(m.principal, "*", ACLOperation.ALL, ACLPermissionType.ALLOW,
                    ResourcePattern(kind, m.prefix, ACLResourcePatternType.PREFIXED))
                for m in MODES for kind in (ResourceType.TOPIC, ResourceType.GROUP)]
        created = admin.create_acls(acls)
        if created["failed"] or len(created["succeeded"]) != len(acls):
            raise RuntimeError(f"CreateAcls failed: {created['failed']}")
    finally:
        admin.close()
    deadline = time.monotonic() + timeout
    for m in MODES:
        while True:
            try:
                asyncio.run(_metadata(ports[m.listener], m, certs))
                break
            except Exception as e:  # noqa: BLE001 - retried until the deadline, then reported
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{m.name}: the listener on port {ports[m.listener]} does not "
                                       f"authenticate alice: {e!r}") from None
                time.sleep(0.2)
    problems = {}
    for m in MODES:
        if m.client_cert:
            try:
                asyncio.run(_metadata(ports[m.listener], m, certs, with_cert=False))
            except (OSError, EOFError, asyncio.IncompleteReadError):  # refused in (or just after) the handshake
                continue
            problems[m.name] = (f"the {m.listener} listener (ssl.client.auth=required) served a Metadata request "
                                "from a client without a certificate")
    return problems


async def _metadata(port: int, m: Mode, certs: Certs, with_cert: bool = True) -> None:
    """One Metadata request over the mode's listener with josefk's own client."""
    from josefk.clients.network_client import BrokerConnection, ClientSecurity
    from josefk.protocol.messages.generated.metadata_request import MetadataRequest
    from josefk.protocol.messages.generated.registry import ApiKey
    context = None
    if "SSL" in m.protocol:
        context = ssl.create_default_context(cafile=str(certs.ca))
        if m.client_cert and with_cert:
            context.load_cert_chain(str(certs.client.cert), str(certs.client.key))
    security = ClientSecurity(m.protocol, context, m.mechanism or None, USER if m.mechanism else None,
                              SECRET if m.mechanism else None)
    connection = BrokerConnection("127.0.0.1", port, "compat-security", security)
    try:
        await connection.request(ApiKey.Metadata, 9, MetadataRequest(
            topics=[], allow_auto_topic_creation=False, include_cluster_authorized_operations=False,
            include_topic_authorized_operations=False))
    finally:
        connection.close()
