"""Config change notifications (Kafka's ZkNodeChangeNotificationListener on /config/changes).

A broker that changes a topic's or a broker's config znode adds a sequential
`config_change_NNNNNNNNNN` node naming the entity (zk/change_notifications.py); each
broker hands every new notification's entity to its handler, in sequence order, once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import Executor

from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.change_notifications import CHANGE_EXPIRATION_MS, ChangeNotificationListener
from josefk.zk.coordination_store import CoordinationStore
from josefk.zk.zk_data import CONFIG_CHANGE_PREFIX, CONFIG_CHANGES

__all__ = ["CHANGE_EXPIRATION_MS", "ConfigChangeListener", "notify_config_change"]

log = logging.getLogger(__name__)


def notify_config_change(store: CoordinationStore, entity_path: str) -> None:
    """Tell every broker that `entity_path`'s config znode changed (Kafka's
    ZkClient.createConfigChangeNotification: a sequential node under /config/changes)."""
    store.create_sequential(CONFIG_CHANGE_PREFIX, json.dumps(
        {"version": 2, "entity_path": entity_path}, separators=(",", ":")).encode())


class ConfigChangeListener(ChangeNotificationListener):
    def __init__(self, store: CoordinationStore, executor: Executor,
                 handler: Callable[[str, str], None], time: Time = SYSTEM_TIME) -> None:
        """handler(entity_type, entity_name), e.g. ("brokers", "<default>") or ("topics", "orders"),
        called on the executor's thread."""
        super().__init__(store, executor, CONFIG_CHANGES, CONFIG_CHANGE_PREFIX.rsplit("/", 1)[1], self._entity,
                         time)
        self.entity_handler = handler

    def _entity(self, seq: int, data: bytes | None) -> None:
        try:
            found = json.loads(data) if data else {}
        except ValueError:
            found = {}
        entity_type, sep, entity_name = str((found if isinstance(found, dict) else {}).get("entity_path", "")) \
            .partition("/")
        if not sep:
            log.warning("Ignoring config change notification %d without an entity path: %s", seq, data)
            return
        try:
            self.entity_handler(entity_type, entity_name)
        except Exception:  # noqa: BLE001 - one bad change must not stop the next ones
            log.exception("Could not apply the config change of %s/%s", entity_type, entity_name)
