"""Change notifications (Kafka's ZkNodeChangeNotificationListener).

A writer adds a sequential `<prefix>NNNNNNNNNN` child under a parent node (/config/changes,
/delegation_token/token_changes) saying what changed; every broker watches the children and
hands each new notification's data to its handler, in sequence order, once. The store reads
run on the executor given (the store-writer thread), never on the event loop. Notifications
are deleted 15 minutes after this broker first saw them (Kafka purges those created over 15
minutes ago): a broker down longer reads the whole state again when it starts.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor

from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.coordination_store import CoordinationStore, NoNodeError

log = logging.getLogger(__name__)

CHANGE_EXPIRATION_MS = 15 * 60 * 1000  # Kafka's ZkNodeChangeNotificationListener.changeExpirationMs


class ChangeNotificationListener:
    def __init__(self, store: CoordinationStore, executor: Executor, parent: str, name_prefix: str,
                 handler: Callable[[int, bytes | None], None], time: Time = SYSTEM_TIME) -> None:
        """handler(sequence, data) is called on the executor's thread for each new notification
        under `parent` named `name_prefix` and a 10-digit sequence (data None: already gone)."""
        self.store = store
        self.executor = executor
        self.parent = parent
        self.name_prefix = name_prefix
        self.handler = handler
        self.time = time
        self.last_seen = -1
        self._seen_at: dict[int, int] = {}  # sequence -> when this broker first saw it (ms)
        self._lock = threading.Lock()

    def startup(self) -> None:
        """Skip the notifications already there (the caller reads the whole state after), then watch."""
        with self._lock:
            existing = self._sequences()
            self.last_seen = max(existing, default=-1)
            now = self.time.hi_res_clock_ms()
            self._seen_at = dict.fromkeys(existing, now)
        self.store.watch_children(self.parent, lambda _path: self._submit())

    def _submit(self) -> None:
        try:
            self.executor.submit(self.process)
        except RuntimeError:  # the executor is shut down: the broker is stopping
            pass

    def _path(self, seq: int) -> str:
        return f"{self.parent}/{self.name_prefix}{seq:010d}"

    def _sequences(self) -> list[int]:
        try:
            names = self.store.children(self.parent) if self.store.exists(self.parent) else []
        except NoNodeError:
            names = []
        prefix = self.name_prefix
        return sorted(int(n[len(prefix):]) for n in names if n.startswith(prefix))

    def process(self) -> None:
        """Hand every notification newer than the last one seen to the handler, in order."""
        with self._lock:
            now = self.time.hi_res_clock_ms()
            for seq in self._sequences():
                self._seen_at.setdefault(seq, now)
                if seq <= self.last_seen:
                    continue
                self.last_seen = seq
                found = self.store.get(self._path(seq))
                try:
                    self.handler(seq, None if found is None else found[0])
                except Exception:  # noqa: BLE001 - one bad change must not stop the next ones
                    log.exception("Could not process change notification %s", self._path(seq))
            self._purge(now)

    def _purge(self, now: int) -> None:
        for seq, seen in list(self._seen_at.items()):
            if now - seen >= CHANGE_EXPIRATION_MS:
                del self._seen_at[seq]
                try:
                    self.store.delete(self._path(seq))
                except NoNodeError:  # another broker purged it first
                    pass
