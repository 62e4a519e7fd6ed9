"""One coordination store for the brokers of one host (`josefk host`), over a Unix socket.

A standalone broker keeps its coordination store in-process (EmbeddedStore); the brokers of
`josefk host` are separate processes, so the supervisor serves one EmbeddedStore to them all
and each broker talks to it through HostStoreClient. The connection is the session, as in
ZooKeeper: an ephemeral node belongs to the connection that created it and is deleted (its
watches fired) when that connection closes, so a broker killed with -9 loses its
registration, and /controller if it held it, the moment the kernel closes its socket.

Frames are a 4-byte big-endian length and a JSON document. A request is [id, operation,
arguments]; its answer ["r", id, result] or ["e", id, error class, message]; a watch event
["w", kind, path] ("data" or "children"), sent to every connection watching that path.
bytes travel as {"b": base64} and a Fence as {"f": [path, version]}. A connection's frames
go out in order, so a watch fired by one of its own writes arrives before that write's answer.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import itertools
import json
import logging
import queue
import socket
import socketserver
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from josefk.zk.coordination_store import (
    BadVersionError,
    CoordinationStore,
    EmbeddedStore,
    Fence,
    FencedError,
    NodeExistsError,
    NoNodeError,
    Watcher,
)

log = logging.getLogger(__name__)

_LENGTH = struct.Struct(">I")
MAX_FRAME = 64 * 1024 * 1024  # a topic's assignment for tens of thousands of partitions fits
_ERRORS: dict[str, type[Exception]] = {cls.__name__: cls for cls in (
    NodeExistsError, NoNodeError, FencedError, BadVersionError, ValueError)}
# The CoordinationStore operations a connection may call, and which of them create ephemeral nodes.
_OPERATIONS = frozenset({"create", "create_sequential", "get", "get_with_creation_id", "set", "fenced_set",
                         "create_ephemeral_and_set", "fenced_create", "fenced_create_all", "delete", "children"})
CLOSE_TIMEOUT_S = 30.0  # how long close() waits for the server to end the session
_WATCHES = {"watch_data": "data", "watch_children": "children"}  # operation -> event kind


class StoreConnectionLost(ConnectionError):
    """The host's store is gone (the supervisor stopped): this broker's session with it ended."""


# The wire is JSON: a message is what json reads (Any), its shape the operation's, and each
# typed CoordinationStore method of HostStoreClient states the type of what it returns.
def _encode(value: object) -> Any:
    if isinstance(value, bytes):
        return {"b": base64.b64encode(value).decode()}
    if isinstance(value, Fence):
        return {"f": [value.path, value.version]}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "b" in value:
            return base64.b64decode(value["b"])
        return Fence(*value["f"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _send(sock: socket.socket, message: object) -> None:
    body = json.dumps(message, separators=(",", ":")).encode()
    sock.sendall(_LENGTH.pack(len(body)) + body)


def _receive(sock: socket.socket) -> Any | None:
    """The next frame's document; None at the end of the stream (the peer closed)."""
    header = _read_exactly(sock, _LENGTH.size)
    if header is None:
        return None
    (length,) = _LENGTH.unpack(header)
    if length > MAX_FRAME:
        raise ValueError(f"frame of {length} bytes exceeds {MAX_FRAME}")
    body = _read_exactly(sock, length)
    if body is None:
        return None
    return json.loads(body)


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        try:
            chunk = sock.recv(left)
        except OSError:
            return None
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class _Session:
    """One broker's connection: its outgoing frames (a writer thread sends them, so a store
    watcher never blocks on a slow reader while holding the store's lock) and what it owns."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.outgoing: queue.SimpleQueue[object | None] = queue.SimpleQueue()
        self.ephemeral: set[str] = set()
        self.writer = threading.Thread(target=self._write, name="host-store-writer", daemon=True)
        self.writer.start()

    def _write(self) -> None:
        while (message := self.outgoing.get()) is not None:
            try:
                _send(self.sock, message)
            except OSError:
                return  # the reader sees the connection end and cleans up

    def close(self) -> None:
        self.outgoing.put(None)
        self.writer.join()


class HostStoreServer:
    """Serves `store` on a Unix socket at `path` until close(). Every connection runs on its
    own thread; the store's lock orders their operations as ZooKeeper's leader would."""

    def __init__(self, store: EmbeddedStore, path: Path) -> None:
        self.store = store
        self.path = path
        self._lock = threading.Lock()
        self._watchers: dict[tuple[str, str], set[_Session]] = {}
        self._owners: dict[str, _Session] = {}  # ephemeral path -> the session that created it
        self._sessions: set[_Session] = set()
        self._ended = threading.Condition(self._lock)
        path.unlink(missing_ok=True)  # a socket left by a supervisor that was killed
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                server._serve(self.request)

        class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
            daemon_threads = True

        self._server = Server(str(path), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="host-store", daemon=True)
        self._thread.start()

    def _serve(self, sock: socket.socket) -> None:
        session = _Session(sock)
        with self._lock:
            self._sessions.add(session)
        try:
            while (request := _receive(sock)) is not None:
                session.outgoing.put(self._answer(session, *request))
        except ValueError as e:  # not our protocol
            log.warning("Closing a host store connection that sent a bad frame: %s", e)
        finally:
            self._end(session)
            session.close()
            with self._lock:
                self._sessions.discard(session)
                self._ended.notify_all()

    def _answer(self, session: _Session, call_id: int, operation: str, arguments: list[Any]) -> list[Any]:
        args = _decode(arguments)
        try:
            if operation in _WATCHES:
                self._watch(session, _WATCHES[operation], args[0])
                return ["r", call_id, None]
            if operation not in _OPERATIONS:
                raise ValueError(f"unknown operation {operation!r}")
            with self.store.lock:  # the result and the ownership change together
                result = getattr(self.store, operation)(*args)
                if operation == "create_ephemeral_and_set" or (operation == "create" and len(args) > 2 and args[2]):
                    self._own(session, args[0])
        except tuple(_ERRORS.values()) as e:
            return ["e", call_id, type(e).__name__, str(e)]
        return ["r", call_id, _encode(result)]

    def _own(self, session: _Session, path: str) -> None:
        with self._lock:
            self._owners[path] = session
            session.ephemeral.add(path)

    def _watch(self, session: _Session, kind: str, path: str) -> None:
        with self.store.lock:  # no change slips between the first subscriber and the store's watch
            with self._lock:
                key = (kind, path)
                first = key not in self._watchers
                self._watchers.setdefault(key, set()).add(session)
            if first:
                fire = functools.partial(self._fire, kind)
                (self.store.watch_data if kind == "data" else self.store.watch_children)(path, fire)

    def _fire(self, kind: str, path: str) -> None:
        with self._lock:
            sessions = list(self._watchers.get((kind, path), ()))
        for session in sessions:
            session.outgoing.put(["w", kind, path])

    def _end(self, session: _Session) -> None:
        """The session closed: stop sending it events and delete the ephemeral nodes it still owns."""
        with self._lock:
            for watching in self._watchers.values():
                watching.discard(session)
            owned = [p for p in session.ephemeral if self._owners.get(p) is session]
            for path in owned:
                del self._owners[path]
        with self.store.lock:
            for path in owned:
                node = self.store.nodes.get(path)
                if node is not None and node.ephemeral:
                    self.store.delete(path)

    def close(self) -> None:
        """Stop accepting, end every session (its clients hear the store is gone) and wait for them."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        with self._lock:
            for session in self._sessions:
                with contextlib.suppress(OSError):
                    session.sock.shutdown(socket.SHUT_RDWR)
            self._ended.wait_for(lambda: not self._sessions)
        self.path.unlink(missing_ok=True)


class HostStoreClient(CoordinationStore):
    """A broker's side of the host store: synchronous calls from any thread (the event loop,
    the controller's thread, the store writer), watchers run on one thread of their own, in
    the order the events came. `on_lost` is called once if the server goes away first."""

    def __init__(self, path: Path, on_lost: Callable[[], object] | None = None) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(str(path))
        except OSError:
            self.sock.close()
            raise
        self.on_lost = on_lost
        self._ids = itertools.count()
        self._send_lock = threading.Lock()
        self._pending: dict[int, _Call] = {}
        self._pending_lock = threading.Lock()
        self._watchers: dict[tuple[str, str], list[Watcher]] = {}
        self._events: queue.SimpleQueue[tuple[str, str] | None] = queue.SimpleQueue()
        self._closed = False
        self._lost = False
        self._reader = threading.Thread(target=self._read, name="host-store-reader", daemon=True)
        self._dispatcher = threading.Thread(target=self._dispatch, name="host-store-events", daemon=True)
        self._reader.start()
        self._dispatcher.start()

    def _read(self) -> None:
        try:
            while (message := _receive(self.sock)) is not None:
                if message[0] == "w":
                    self._events.put((message[1], message[2]))
                    continue
                with self._pending_lock:
                    call = self._pending.pop(message[1])
                call.answer(message)
        except ValueError as e:
            log.error("Bad frame from the host store: %s", e)
        with self._pending_lock:
            self._lost = True
            waiting = list(self._pending.values())
            self._pending.clear()
        for call in waiting:
            call.answer(None)
        if not self._closed:
            log.error("The host's coordination store closed the connection")
            self._events.put(("lost", ""))
        self._events.put(None)

    def _dispatch(self) -> None:
        while (event := self._events.get()) is not None:
            kind, path = event
            if kind == "lost":
                if self.on_lost is not None:
                    self.on_lost()
                continue
            for watcher in list(self._watchers.get((kind, path), ())):
                try:
                    watcher(path)
                except Exception:
                    log.exception("A host store watcher for %s failed", path)

    def _call(self, operation: str, *args: object) -> Any:
        call = _Call()
        with self._pending_lock:
            if self._lost or self._closed:
                raise StoreConnectionLost("the host's coordination store is not connected")
            call_id = next(self._ids)
            self._pending[call_id] = call
        try:
            with self._send_lock:
                _send(self.sock, [call_id, operation, _encode(list(args))])
        except OSError:
            pass  # the reader sees the end of the connection and fails the call
        message = call.wait()
        if message is None:
            raise StoreConnectionLost(f"the host's coordination store went away during {operation}")
        if message[0] == "e":
            raise _ERRORS[message[2]](message[3])
        return _decode(message[2])

    def create(self, path: str, data: bytes = b"", ephemeral: bool = False) -> int:
        return self._call("create", path, data, ephemeral)

    def create_sequential(self, prefix: str, data: bytes = b"") -> str:
        return self._call("create_sequential", prefix, data)

    def get(self, path: str) -> tuple[bytes, int] | None:
        found = self._call("get", path)
        return None if found is None else (found[0], found[1])

    def get_with_creation_id(self, path: str) -> tuple[bytes, int] | None:
        found = self._call("get_with_creation_id", path)
        return None if found is None else (found[0], found[1])

    def set(self, path: str, data: bytes, expected_version: int = -1) -> int:
        return self._call("set", path, data, expected_version)

    def fenced_set(self, fence: Fence, path: str, data: bytes, expected_version: int) -> int:
        return self._call("fenced_set", fence, path, data, expected_version)

    def create_ephemeral_and_set(self, path: str, data: bytes, set_path: str, set_data: bytes,
                                 expected_version: int) -> int:
        return self._call("create_ephemeral_and_set", path, data, set_path, set_data, expected_version)

    def fenced_create(self, fence: Fence, path: str, data: bytes) -> None:
        self._call("fenced_create", fence, path, data)

    def fenced_create_all(self, fence: Fence, nodes: list[tuple[str, bytes]]) -> list[str]:
        return self._call("fenced_create_all", fence, nodes)

    def delete(self, path: str, recursive: bool = False) -> None:
        self._call("delete", path, recursive)

    def children(self, path: str) -> list[str]:
        return self._call("children", path)

    def watch_children(self, path: str, watcher: Watcher) -> None:
        self._watch("children", path, watcher)

    def watch_data(self, path: str, watcher: Watcher) -> None:
        self._watch("data", path, watcher)

    def _watch(self, kind: str, path: str, watcher: Watcher) -> None:
        with self._pending_lock:
            key = (kind, path)
            first = key not in self._watchers
            self._watchers.setdefault(key, []).append(watcher)
        if first:
            self._call(f"watch_{kind}", path)

    def close(self) -> None:
        """End the session and wait until the server has deleted this broker's ephemeral
        nodes (ZooKeeper's closeSession): the server closes its side once it has."""
        self._closed = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_WR)
        self._reader.join(CLOSE_TIMEOUT_S)
        with contextlib.suppress(OSError):  # a server that did not answer: stop waiting for it
            self.sock.shutdown(socket.SHUT_RDWR)
        self._reader.join()
        self.sock.close()
        if threading.current_thread() is not self._dispatcher:
            self._dispatcher.join()


class _Call:
    """One call's answer, handed from the reader thread to the caller."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._message: list[Any] | None = None

    def answer(self, message: list[Any] | None) -> None:
        self._message = message
        self._done.set()

    def wait(self) -> list[Any] | None:
        self._done.wait()
        return self._message
