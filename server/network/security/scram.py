"""SCRAM credentials (RFC 5802 / 7677) in Kafka's format ("salt=...,stored_key=...,
server_key=...,iterations=4096"), and the lookup the authenticator finds them through.
Credentials are derived with scramp (a maintained implementation of the RFCs); the server
side of the exchange is sasl.py's, which keeps Kafka 3.9's leniency towards older
librdkafka. Where they are stored is server/security/scram_store.py's business.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Protocol

import scramp

SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# Kafka's AlterUserScramCredentials mechanism ids (ScramMechanism.type).
MECHANISM_IDS = {"SCRAM-SHA-256": 1, "SCRAM-SHA-512": 2}
MIN_ITERATIONS = {"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 4096}
MAX_ITERATIONS = 16384


@dataclass(frozen=True)
class ScramCredential:
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int

    def to_config(self) -> str:
        """Kafka's ScramCredentialUtils.credentialToString."""
        b64 = base64.b64encode
        return (f"salt={b64(self.salt).decode()},stored_key={b64(self.stored_key).decode()},"
                f"server_key={b64(self.server_key).decode()},iterations={self.iterations}")

    @classmethod
    def from_config(cls, text: str) -> ScramCredential:
        fields = dict(part.split("=", 1) for part in text.split(","))
        return cls(base64.b64decode(fields["salt"]), base64.b64decode(fields["stored_key"]),
                   base64.b64decode(fields["server_key"]), int(fields["iterations"]))


def make_credential(mechanism: str, password: str, iterations: int = 4096,
                    salt: bytes | None = None) -> ScramCredential:
    """Salted password -> stored and server keys, as the client side of `mechanism` will prove them."""
    salt_out, stored, server, i = scramp.ScramMechanism(mechanism).make_auth_info(
        password, iteration_count=iterations, salt=salt)
    return ScramCredential(salt_out, stored, server, i)


def credential_from_salted(mechanism: str, salt: bytes, salted_password: bytes, iterations: int) -> ScramCredential:
    """AlterUserScramCredentials sends the salted password (the client never sends the password)."""
    digest = {"SCRAM-SHA-256": hashlib.sha256, "SCRAM-SHA-512": hashlib.sha512}[mechanism]
    client_key = hmac.new(salted_password, b"Client Key", digest).digest()
    return ScramCredential(salt, digest(client_key).digest(),
                           hmac.new(salted_password, b"Server Key", digest).digest(), iterations)


class CredentialLookup(Protocol):
    """Where the SCRAM authenticator finds a user's credential: the broker's cache of the
    ones in the coordination store (server/security/scram_store.py), which this layer does
    not reach itself."""

    def get(self, user: str, mechanism: str) -> ScramCredential | None: ...
