"""Config change notifications (Kafka's ZkNodeChangeNotificationListener on /config/changes).

A broker that changes a topic's or a broker's config znode adds a sequential
`config_change_NNNNNNNNNN` node naming the entity; every broker watches the children and
hands each new notification's entity to its handler, in sequence order, once. The store
reads run on the executor given (the store-writer thread), never on the event loop.
Notifications are deleted 15 minutes after this broker first saw them (Kafka purges those
created over 15 minutes ago): a broker down longer reads every config whole when it starts.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor

from josefk.controller.coordination_store import CoordinationStore, NoNodeError
from josefk.controller.state import CONFIG_CHANGE_PREFIX, CONFIG_CHANGES
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

_NAME_PREFIX = CONFIG_CHANGE_PREFIX.rsplit("/", 1)[1]
CHANGE_EXPIRATION_MS = 15 * 60 * 1000  # Kafka's ZkNodeChangeNotificationListener.changeExpirationMs


class ConfigChangeListener:
    def __init__(self, store: CoordinationStore, executor: Executor,
                 handler: Callable[[str, str], None], time: Time = SYSTEM_TIME) -> None:
        """handler(entity_type, entity_name), e.g. ("brokers", "<default>") or ("topics", "orders"),
        called on the executor's thread."""
        self.store = store
        self.executor = executor
        self.handler = handler
        self.time = time
        self.last_seen = -1
        self._seen_at: dict[int, int] = {}  # sequence -> when this broker first saw it (ms)
        self._lock = threading.Lock()

    def startup(self) -> None:
        """Skip the notifications already there (start-up reads every config whole), then watch."""
        with self._lock:
            existing = self._sequences()
            self.last_seen = max(existing, default=-1)
            now = self.time.hi_res_clock_ms()
            self._seen_at = dict.fromkeys(existing, now)
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
            now = self.time.hi_res_clock_ms()
            for seq in self._sequences():
                self._seen_at.setdefault(seq, now)
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
            self._purge(now)

    def _purge(self, now: int) -> None:
        for seq, seen in list(self._seen_at.items()):
            if now - seen >= CHANGE_EXPIRATION_MS:
                del self._seen_at[seq]
                try:
                    self.store.delete(f"{CONFIG_CHANGE_PREFIX}{seq:010d}")
                except NoNodeError:  # another broker purged it first
                    pass
