"""Config change notifications (Kafka's ZkNodeChangeNotificationListener on /config/changes).

A broker that changes a topic's or a broker's config znode adds a sequential
`config_change_NNNNNNNNNN` node naming the entity; every broker watches the children and
hands each new notification's entity to its handler, in sequence order, once. The store
reads run on the executor given (the store-writer thread), never on the event loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor

from josefk.controller.coordination_store import CoordinationStore, NoNodeError
from josefk.controller.state import CONFIG_CHANGE_PREFIX, CONFIG_CHANGES

log = logging.getLogger(__name__)

_NAME_PREFIX = CONFIG_CHANGE_PREFIX.rsplit("/", 1)[1]


class ConfigChangeListener:
    def __init__(self, store: CoordinationStore, executor: Executor,
                 handler: Callable[[str, str], None]) -> None:
        """handler(entity_type, entity_name), e.g. ("brokers", "<default>") or ("topics", "orders"),
        called on the executor's thread."""
        self.store = store
        self.executor = executor
        self.handler = handler
        self.last_seen = -1
        self._lock = threading.Lock()

    def startup(self) -> None:
        """Skip the notifications already there (start-up reads every config whole), then watch."""
        self.last_seen = max(self._sequences(), default=-1)
        self.store.watch_children(CONFIG_CHANGES, lambda _path: self._submit())

    def _submit(self) -> None:
        try:
            self.executor.submit(self.process)
        except RuntimeError:  # the executor is shut down: the broker is stopping
            pass

    def _sequences(self) -> list[int]:
        try:
            names = self.store.children(CONFIG_CHANGES) if self.store.exists(CONFIG_CHANGES) else []
        except NoNodeError:
            names = []
        return sorted(int(n[len(_NAME_PREFIX):]) for n in names if n.startswith(_NAME_PREFIX))

    def process(self) -> None:
        """Hand every notification newer than the last one seen to the handler, in order."""
        with self._lock:
            for seq in self._sequences():
                if seq <= self.last_seen:
                    continue
                self.last_seen = seq
                data = self.store.get_json(f"{CONFIG_CHANGE_PREFIX}{seq:010d}")
                entity_type, sep, entity_name = str((data or {}).get("entity_path", "")).partition("/")
                if not sep:
                    log.warning("Ignoring config change notification %d without an entity path: %s", seq, data)
                    continue
                try:
                    self.handler(entity_type, entity_name)
                except Exception:  # noqa: BLE001 - one bad change must not stop the next ones
                    log.exception("Could not apply the config change of %s/%s", entity_type, entity_name)
