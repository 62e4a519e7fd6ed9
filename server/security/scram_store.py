"""SCRAM credentials stored as Kafka stores them, and the broker's cache of them.

/config/users/<user> holds {"version":1,"config":{"SCRAM-SHA-256":"salt=...,stored_key=...,
server_key=...,iterations=4096"}}; each change also writes /config/changes/config_change_N
({"version":2,"entity_path":"users/<user>"}) so every broker reloads that user. The cache is
the CredentialLookup the network layer's SCRAM authenticator is given.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from josefk.server.network.security.scram import SCRAM_MECHANISMS, ScramCredential
from josefk.zk.config_changes import notify_config_change
from josefk.zk.coordination_store import CoordinationStore, NoNodeError
from josefk.zk.zk_data import CONFIG_CHANGES

CONFIG_USERS = "/config/users"


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
    notify_config_change(store, f"users/{user}")


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
