"""ConfigChangeListener on the embedded store: each new notification reaches the handler once,
in order; those there at start-up are skipped; a notification goes 15 minutes after it was
first seen (Kafka's changeExpirationMs), with time moved by MockTime, not waited for."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from josefk.utils.mock_time import MockTime
from josefk.zk.config_changes import CHANGE_EXPIRATION_MS, ConfigChangeListener
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import CONFIG_CHANGE_PREFIX, CONFIG_CHANGES


class InlineExecutor(Executor):
    """The store-writer thread's order on the caller's thread: a task submitted while one runs
    waits until it ends, so the test sees every effect when its own call returns."""

    def __init__(self) -> None:
        self.queue: list[tuple[Callable[[], Any], Future]] = []
        self.running = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        self.queue.append((functools.partial(fn, *args, **kwargs), future))
        if not self.running:
            self.running = True
            try:
                while self.queue:
                    task, done = self.queue.pop(0)
                    done.set_result(task())
            finally:
                self.running = False
        return future


def notify(store: EmbeddedStore, entity_path: str) -> None:
    store.create_sequential(CONFIG_CHANGE_PREFIX, json.dumps({"version": 2, "entity_path": entity_path}).encode())


def test_notifications_reach_the_handler_once_in_order_and_expire(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    notify(store, "brokers/0")  # before start-up: read whole by the broker, not handed over
    seen: list[tuple[str, str]] = []
    time = MockTime()
    listener = ConfigChangeListener(store, InlineExecutor(), lambda t, n: seen.append((t, n)), time)
    listener.startup()
    notify(store, "brokers/<default>")
    notify(store, "topics/orders")
    assert seen == [("brokers", "<default>"), ("topics", "orders")]
    listener.process()  # nothing new: nothing handed over twice
    assert len(seen) == 2

    time.sleep(CHANGE_EXPIRATION_MS - 1)
    notify(store, "brokers/1")
    assert seen[-1] == ("brokers", "1")
    assert len(store.children(CONFIG_CHANGES)) == 4
    time.sleep(1)
    notify(store, "topics/later")
    # The three older than 15 minutes are gone; the last two stay.
    assert store.children(CONFIG_CHANGES) == ["config_change_0000000003", "config_change_0000000004"]
    assert seen[-1] == ("topics", "later") and len(seen) == 4
