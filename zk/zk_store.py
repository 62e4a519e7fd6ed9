"""The coordination store on a real ZooKeeper ensemble, through kazoo.

kazoo delivers watch events on its own thread; they are handed to the broker's event loop
so the controller and brokers only ever run on that loop. Calls are synchronous round
trips to ZooKeeper, acceptable on the control path (never on produce or fetch).

kazoo queues a call made while disconnected until it reconnects, but fails the calls in
flight when the connection drops with ConnectionLoss. Like Kafka's ZooKeeperClient, such a
call waits for the reconnection and tries again, unless the session expired meanwhile (then
the caller gets SessionExpiredError, as Kafka's requests get SESSIONEXPIRED). A retried
write may already have been applied: a create that finds its own ephemeral node, a set
that finds its own data, a delete that finds nothing count as done.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kazoo.client import KazooClient, TransactionRequest
from kazoo.exceptions import BadVersionError as KazooBadVersion
from kazoo.exceptions import ConnectionLoss, OperationTimeoutError, SessionExpiredError
from kazoo.exceptions import NodeExistsError as KazooNodeExists
from kazoo.exceptions import NoNodeError as KazooNoNode
from kazoo.protocol.states import KazooState
from kazoo.retry import KazooRetry

from josefk.utils.metrics import ZooKeeperClientStats
from josefk.zk.coordination_store import (
    BadVersionError,
    CoordinationStore,
    Fence,
    FencedError,
    NodeExistsError,
    NoNodeError,
    Watcher,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class ZooKeeperStore(CoordinationStore):
    def __init__(self, connect: str, session_timeout_ms: int, connection_timeout_ms: int,
                 loop: asyncio.AbstractEventLoop, on_session_lost: Callable[[], None] | None = None,
                 on_new_session: Callable[[], None] | None = None, stats: ZooKeeperClientStats | None = None) -> None:
        self.loop = loop
        self.stats = stats or ZooKeeperClientStats()
        # kazoo's default reconnect backoff doubles up to an hour: after a ZooKeeper outage of
        # a few seconds its next attempt can come later than the session timeout, and the
        # session expires although the server is back. Kafka's client retries within a second.
        self.client = KazooClient(hosts=connect, timeout=session_timeout_ms / 1000,
                                  connection_retry=KazooRetry(max_tries=-1, delay=0.1, backoff=2, max_delay=1))
        self.on_session_lost = on_session_lost
        self.on_new_session = on_new_session
        self._lost = False
        self._closed = True
        self._connected = threading.Event()
        self._sessions_lost = 0
        self.client.add_listener(self._state_changed)
        self.client.start(timeout=connection_timeout_ms / 1000)
        self._closed = False
        self._connected.set()  # start() returned connected; the listener ignored it while _closed
        self.stats.sync_connects += 1

    def _state_changed(self, state: KazooState) -> None:
        """An expired session drops our ephemeral nodes: tell the broker, and tell it again
        when kazoo has a new session so it can register itself anew."""
        if self._closed:
            return  # our own close() ends the session
        if state == KazooState.CONNECTED:
            self._connected.set()
            self.stats.sync_connects += 1
        else:
            self._connected.clear()
            self.stats.disconnects += state == KazooState.SUSPENDED
        if state == KazooState.LOST:
            self.stats.expires += 1
            self._lost = True
            self._sessions_lost += 1
            log.error("ZooKeeper session lost")
            if self.on_session_lost:
                self._post(self.on_session_lost)
        elif state == KazooState.CONNECTED and self._lost:
            self._lost = False
            log.info("ZooKeeper session re-established")
            if self.on_new_session:
                self._post(self.on_new_session)

    def _post(self, call: Callable[..., object], *args: object) -> None:
        """Hand a kazoo callback to the broker's loop, unless the store or loop is closing."""
        if not self._closed and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(call, *args)

    def _call(self, operation: Callable[[bool], T]) -> T:
        """Run operation(retried) until it gets through the connection it needs (see the module doc)."""
        sessions_lost = self._sessions_lost
        retried = False
        started = time.monotonic_ns()
        while True:
            try:
                result = operation(retried)
                self.stats.latency.record((time.monotonic_ns() - started) / 1e6)
                return result
            except (ConnectionLoss, OperationTimeoutError):
                if self._closed:
                    raise
            while not (self._connected.wait(1) or self.client.connected):
                if self._closed:
                    raise ConnectionLoss("the store is closed")
            if self._sessions_lost != sessions_lost:
                raise SessionExpiredError("the session expired while the call waited for a connection")
            retried = True

    def create(self, path: str, data: bytes = b"", ephemeral: bool = False) -> int:
        def attempt(retried: bool) -> int:
            try:
                _path, stat = self.client.create(path, data, ephemeral=ephemeral, makepath=True, include_data=True)
            except KazooNodeExists:
                if retried and ephemeral:
                    _data, stat = self.client.get(path)
                    if stat.ephemeralOwner == self.client.client_id[0]:
                        return stat.czxid
                raise NodeExistsError(path) from None
            return stat.czxid

        return self._call(attempt)

    def create_sequential(self, prefix: str, data: bytes = b"") -> str:
        return self._call(lambda _retried: self.client.create(prefix, data, sequence=True, makepath=True))

    def get(self, path: str) -> tuple[bytes, int] | None:
        try:
            data, stat = self._call(lambda _retried: self.client.get(path))
        except KazooNoNode:
            return None
        return data, stat.version

    def get_with_creation_id(self, path: str) -> tuple[bytes, int] | None:
        try:
            data, stat = self._call(lambda _retried: self.client.get(path))
        except KazooNoNode:
            return None
        return data, stat.czxid

    def set(self, path: str, data: bytes, expected_version: int = -1) -> int:
        def attempt(retried: bool) -> int:
            try:
                return self.client.set(path, data, version=expected_version).version
            except KazooNoNode:
                raise NoNodeError(path) from None
            except KazooBadVersion:
                if retried:
                    current, stat = self.client.get(path)
                    if current == data and stat.version == expected_version + 1:
                        return stat.version
                raise BadVersionError(path) from None

        return self._call(attempt)

    def _fenced(self, fence: Fence, path: str, write: Callable[[TransactionRequest], None],
                done: Callable[[Any], T], applied: Callable[[], T]) -> T:
        """One multi-op: check the fence's version, then `write`; `done` makes the answer
        of the write's result. A retry that finds the write already applied (its reply was
        lost with the connection) answers `applied()`. `done` takes Any: the result is
        kazoo's (untyped), a ZnodeStat for a set_data, the created path for a create."""
        def attempt(retried: bool) -> T:
            transaction = self.client.transaction()
            transaction.check(fence.path, fence.version)
            write(transaction)
            check, result = transaction.commit()
            if isinstance(check, KazooBadVersion | KazooNoNode):  # not the RolledBackError of a failed write
                raise FencedError(f"{fence.path} is no longer at version {fence.version}")
            if isinstance(result, KazooNoNode):
                raise NoNodeError(path)
            if isinstance(result, KazooBadVersion | KazooNodeExists):
                if retried:
                    return applied()
                raise (BadVersionError if isinstance(result, KazooBadVersion) else NodeExistsError)(path)
            return done(result)

        return self._call(attempt)

    def fenced_set(self, fence: Fence, path: str, data: bytes, expected_version: int) -> int:
        def applied() -> int:
            current, stat = self.client.get(path)
            if current == data and stat.version == expected_version + 1:
                return stat.version
            raise BadVersionError(path)

        return self._fenced(fence, path, lambda t: t.set_data(path, data, expected_version),
                            lambda stat: stat.version, applied)

    def create_ephemeral_and_set(self, path: str, data: bytes, set_path: str, set_data: bytes,
                                 expected_version: int) -> int:
        def applied() -> int:
            """A retry whose first attempt went through finds its own session's node and data."""
            stat = self.client.exists(path)
            current, set_stat = self.client.get(set_path)
            if stat is not None and stat.ephemeralOwner == self.client.client_id[0] and current == set_data:
                return set_stat.version
            raise NodeExistsError(path)

        def attempt(retried: bool) -> int:
            transaction = self.client.transaction()
            transaction.create(path, data, ephemeral=True)
            transaction.set_data(set_path, set_data, expected_version)
            created, result = transaction.commit()
            if isinstance(created, KazooNodeExists) or isinstance(result, KazooBadVersion):
                if retried:
                    return applied()
                raise (NodeExistsError if isinstance(created, KazooNodeExists) else BadVersionError)(path)
            if isinstance(created, Exception) or isinstance(result, Exception):
                raise NoNodeError(f"{path}: {created!r}, {set_path}: {result!r}")
            return result.version

        return self._call(attempt)

    def fenced_create(self, fence: Fence, path: str, data: bytes) -> None:
        def applied() -> None:
            if self.client.get(path)[0] != data:
                raise NodeExistsError(path)

        self._call(lambda _retried: self.client.ensure_path(path.rsplit("/", 1)[0]))  # as Kafka makes them
        self._fenced(fence, path, lambda t: t.create(path, data), lambda _path: None, applied)

    def delete(self, path: str, recursive: bool = False) -> None:
        def attempt(retried: bool) -> None:
            try:
                self.client.delete(path, recursive=recursive)
            except KazooNoNode:
                if not retried:
                    raise NoNodeError(path) from None

        self._call(attempt)

    def children(self, path: str) -> list[str]:
        try:
            return sorted(self._call(lambda _retried: self.client.get_children(path)))
        except KazooNoNode:
            raise NoNodeError(path) from None

    def _dispatch(self, watcher: Watcher, path: str) -> None:
        self._post(watcher, path)

    def watch_children(self, path: str, watcher: Watcher) -> None:
        self._call(lambda _retried: self.client.ensure_path(path))
        first = [True]

        def changed(_children: list[str]) -> bool:
            if first[0]:
                first[0] = False
            else:
                self._dispatch(watcher, path)
            return not self._closed

        self.client.ChildrenWatch(path, changed)

    def watch_data(self, path: str, watcher: Watcher) -> None:
        first = [True]

        def changed(_data: bytes | None, _stat: object, _event: object = None) -> bool:
            if first[0]:
                first[0] = False
            else:
                self._dispatch(watcher, path)
            return not self._closed

        self.client.DataWatch(path, changed)

    def close(self) -> None:
        self._closed = True
        self.client.stop()
        self.client.close()
