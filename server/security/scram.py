"""SCRAM credentials (RFC 5802 / 7677) stored as Kafka stores them, and the broker's cache.

/config/users/<user> holds {"version":1,"config":{"SCRAM-SHA-256":"salt=...,stored_key=...,
server_key=...,iterations=4096"}}; each change also writes /config/changes/config_change_N
({"version":2,"entity_path":"users/<user>"}) so every broker reloads that user. Credentials
are derived with scramp (a maintained implementation of the RFCs); the server side of the
exchange is sasl.py's, which keeps Kafka 3.9's leniency towards older librdkafka.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import scramp

from josefk.zk.coordination_store import CoordinationStore, NoNodeError

log = logging.getLogger(__name__)

SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# Kafka's AlterUserScramCredentials mechanism ids (ScramMechanism.type).
MECHANISM_IDS = {"SCRAM-SHA-256": 1, "SCRAM-SHA-512": 2}
MIN_ITERATIONS = {"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 4096}
MAX_ITERATIONS = 16384
CONFIG_USERS = "/config/users"
CONFIG_CHANGES = "/config/changes"
CONFIG_CHANGE_PREFIX = f"{CONFIG_CHANGES}/config_change_"


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


def read_user(store: CoordinationStore, user: str) -> dict[str, ScramCredential]:
    data = store.get_json(f"{CONFIG_USERS}/{user}")
    config = (data or {}).get("config", {})
    return {m: ScramCredential.from_config(v) for m, v in config.items() if m in SCRAM_MECHANISMS}


def write_user(store: CoordinationStore, user: str, credentials: dict[str, ScramCredential]) -> None:
    """Replace `user`'s SCRAM credentials (keeping its other configs) and notify every broker."""
    path = f"{CONFIG_USERS}/{user}"
    data = store.get_json(path) or {"version": 1, "config": {}}
    config = {k: v for k, v in data.get("config", {}).items() if k not in SCRAM_MECHANISMS}
    config.update({m: c.to_config() for m, c in credentials.items()})
    store.create_or_set_json(path, {"version": 1, "config": config})
    store.create_sequential(CONFIG_CHANGE_PREFIX,
                            json.dumps({"version": 2, "entity_path": f"users/{user}"}).encode())


def list_users(store: CoordinationStore) -> list[str]:
    try:
        return store.children(CONFIG_USERS)
    except NoNodeError:
        return []


class CredentialCache:
    """Every user's SCRAM credentials, read at start-up and again when a config change
    notification names users (Kafka's CredentialProvider fed by ZkConfigManager)."""

    def __init__(self, store: CoordinationStore, post: Callable[[Callable[[], None]], None]) -> None:
        """`post(work)` runs store reads off the event loop (watches fire on store threads)."""
        self.store = store
        self.post = post
        self._lock = threading.Lock()
        self._credentials: dict[str, dict[str, ScramCredential]] = {}

    def start(self) -> None:
        if not self.store.exists(CONFIG_CHANGES):
            try:
                self.store.create(CONFIG_CHANGES)
            except KeyError:  # another broker made it
                pass
        self.store.watch_children(CONFIG_CHANGES, lambda _path: self.post(self.reload))
        self.reload()

    def reload(self) -> None:
        found = {user: read_user(self.store, user) for user in list_users(self.store)}
        with self._lock:
            self._credentials = found

    def update(self, user: str, credentials: dict[str, ScramCredential]) -> None:
        with self._lock:
            self._credentials[user] = credentials

    def get(self, user: str, mechanism: str) -> ScramCredential | None:
        with self._lock:
            return self._credentials.get(user, {}).get(mechanism)

    def users(self) -> dict[str, dict[str, ScramCredential]]:
        with self._lock:
            return dict(self._credentials)
