"""The coordination store: what the controller and brokers share (ZooKeeper's role).

The interface is the part of ZooKeeper Kafka relies on: persistent and ephemeral nodes,
versioned reads and conditional writes, children, and watches. EmbeddedStore serves a
standalone broker: one node, persistent nodes kept in a JSON file written atomically,
ephemeral nodes gone when the process ends, exactly as a ZooKeeper session would lose them.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from josefk.log.checkpoint import write_atomically

Watcher = Callable[[str], object]  # its result is ignored
P = ParamSpec("P")
R = TypeVar("R")
CREATION_COUNTER = "#last_creation_id"  # not a path: where the embedded store keeps its counter


class NodeExistsError(KeyError):
    pass


class NoNodeError(KeyError):
    pass


class BadVersionError(ValueError):
    pass


class FencedError(BadVersionError):
    """The fence node moved: another controller was elected since this one's epoch was
    written (Kafka's ControllerMovedException)."""


@dataclass(frozen=True)
class Fence:
    """A node whose version must still be `version` for a write to apply: the controller
    epoch node as this controller wrote it. Kafka puts the same check in the ZooKeeper
    multi-op of every controller write, so a deposed controller that reconnected with a
    new session cannot overwrite its successor's decisions."""

    path: str
    version: int


class CoordinationStore(ABC):
    @abstractmethod
    def create(self, path: str, data: bytes = b"", ephemeral: bool = False) -> int:
        """Create a node (and missing parents, persistent); NodeExistsError if it exists.
        Returns the node's creation id (ZooKeeper's czxid), which only grows: a broker's
        registration id is its broker epoch (KIP-380)."""

    @abstractmethod
    def create_sequential(self, prefix: str, data: bytes = b"") -> str:
        """Create a persistent node named prefix + a 10-digit sequence number; return its path."""

    @abstractmethod
    def get(self, path: str) -> tuple[bytes, int] | None:
        """(data, version) or None if absent."""

    @abstractmethod
    def get_with_creation_id(self, path: str) -> tuple[bytes, int] | None:
        """(data, creation id) or None if absent."""

    @abstractmethod
    def set(self, path: str, data: bytes, expected_version: int = -1) -> int:
        """Write data if the version matches (-1: any); return the new version."""

    @abstractmethod
    def fenced_set(self, fence: Fence, path: str, data: bytes, expected_version: int) -> int:
        """set(), applied only if the fence holds (FencedError otherwise), atomically."""

    @abstractmethod
    def create_ephemeral_and_set(self, path: str, data: bytes, set_path: str, set_data: bytes,
                                 expected_version: int) -> int:
        """Create the ephemeral `path` and set `set_path` at `expected_version` as one atomic
        step, or neither (NodeExistsError, BadVersionError); returns set_path's new version.
        Kafka's controller election: /controller and the next /controller_epoch appear
        together, so nobody sees the new controller under the old epoch."""

    @abstractmethod
    def fenced_create(self, fence: Fence, path: str, data: bytes) -> None:
        """create() of a persistent node (and its missing parents), only if the fence holds."""

    def fenced_create_all(self, fence: Fence, nodes: list[tuple[str, bytes]]) -> list[str]:
        """fenced_create() of each (path, data); returns the paths that already existed.
        A store may commit them together (the embedded one: one fsync for them all)."""
        existing = []
        for path, data in nodes:
            try:
                self.fenced_create(fence, path, data)
            except NodeExistsError:
                existing.append(path)
        return existing

    @abstractmethod
    def delete(self, path: str, recursive: bool = False) -> None: ...

    @abstractmethod
    def children(self, path: str) -> list[str]: ...

    @abstractmethod
    def watch_children(self, path: str, watcher: Watcher) -> None:
        """Call watcher(path) whenever the children of path change (persistent watch)."""

    @abstractmethod
    def watch_data(self, path: str, watcher: Watcher) -> None:
        """Call watcher(path) whenever path is created, changed or deleted (persistent watch)."""

    @abstractmethod
    def close(self) -> None: ...

    def exists(self, path: str) -> bool:
        return self.get(path) is not None

    def get_json(self, path: str) -> dict | None:
        found = self.get(path)
        return json.loads(found[0]) if found else None

    def create_or_set_json(self, path: str, value: dict) -> None:
        data = json.dumps(value, separators=(",", ":")).encode()
        try:
            self.create(path, data)
        except NodeExistsError:
            self.set(path, data)


@dataclass
class _Node:
    data: bytes
    version: int
    ephemeral: bool
    creation_id: int = 0


def _locked(method: Callable[Concatenate[EmbeddedStore, P], R]) -> Callable[Concatenate[EmbeddedStore, P], R]:
    @functools.wraps(method)
    def wrapper(self: EmbeddedStore, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.lock:
            return method(self, *args, **kwargs)
    return wrapper


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


class EmbeddedStore(CoordinationStore):
    """A single-process store for a standalone broker, persisted under a log dir. The
    event loop, the controller thread and the store-writer thread share it: one lock.

    Persisted as ZooKeeper does: a snapshot (`file`) and a journal of the changes since,
    one fsynced JSON line per change, folded into a new snapshot every JOURNAL_LIMIT
    lines. Rewriting the whole store on every change made creating a topic of n
    partitions cost O(n^2): a 1,000-partition topic held the controller for minutes.
    """

    JOURNAL_LIMIT = 10_000

    def __init__(self, file: Path) -> None:
        self.file = file
        self.journal = file.with_name(file.name + ".journal")
        self.lock = threading.RLock()
        self.nodes: dict[str, _Node] = {"/": _Node(b"", 0, False)}
        self.child_watchers: dict[str, list[Watcher]] = {}
        self.data_watchers: dict[str, list[Watcher]] = {}
        self.last_creation_id = 0
        self._journal_lines = 0
        if file.exists():
            saved = json.loads(file.read_text())
            self.last_creation_id = saved.pop(CREATION_COUNTER, 0)
            for path, (data, version, *creation) in saved.items():
                self.nodes[path] = _Node(base64.b64decode(data), version, False, *creation)
        self._replay_journal()
        self._snapshot()

    def _replay_journal(self) -> None:
        """Apply the changes logged since the snapshot; a torn last line (a crash in the
        middle of a write) was never acknowledged and is dropped."""
        if not self.journal.exists():
            return
        for line in self.journal.read_text().splitlines():
            try:
                path, node, counter = json.loads(line)
            except ValueError:
                break
            self.last_creation_id = max(self.last_creation_id, counter)
            if node is None:
                self.nodes.pop(path, None)
            else:
                data, version, creation_id = node
                self.nodes[path] = _Node(base64.b64decode(data), version, False, creation_id)

    def _snapshot(self) -> None:
        state: dict[str, Any] = {
            p: [base64.b64encode(n.data).decode(), n.version, n.creation_id]
            for p, n in self.nodes.items()
            if not n.ephemeral and p != "/"
        }
        state[CREATION_COUNTER] = self.last_creation_id
        # Durable, directory included, before the journal it replaces goes.
        write_atomically(self.file, json.dumps(state).encode())
        self.journal.unlink(missing_ok=True)
        self._journal_lines = 0

    def _persist(self, *paths: str) -> None:
        """Log the current state of `paths` (a missing one: deleted) and the creation counter."""
        lines = []
        for path in paths:
            node = self.nodes.get(path)
            if node is not None and node.ephemeral:
                node = None
            saved = None if node is None else [base64.b64encode(node.data).decode(), node.version, node.creation_id]
            lines.append(json.dumps([path, saved, self.last_creation_id]) + "\n")
        with open(self.journal, "a") as f:
            f.writelines(lines)
            f.flush()
            os.fsync(f.fileno())
        self._journal_lines += len(lines)
        if self._journal_lines >= self.JOURNAL_LIMIT:
            self._snapshot()

    def _fire(self, path: str) -> None:
        for watcher in list(self.data_watchers.get(path, ())):
            watcher(path)
        parent = _parent(path)
        for watcher in list(self.child_watchers.get(parent, ())):
            watcher(parent)

    @_locked
    def create(self, path: str, data: bytes = b"", ephemeral: bool = False) -> int:
        if path in self.nodes:
            raise NodeExistsError(path)
        created = self._add(path, data, ephemeral)
        self._persist(*created)  # also for an ephemeral node: creation ids must only grow
        for p in created:
            self._fire(p)
        return self.last_creation_id

    def _add(self, path: str, data: bytes, ephemeral: bool) -> list[str]:
        """Put the node (and its missing parents) in memory; returns the paths created."""
        missing = []
        parent = _parent(path)
        while parent not in self.nodes:
            missing.append(parent)
            parent = _parent(parent)
        for p in reversed(missing):
            self.nodes[p] = _Node(b"", 0, False)
        self.last_creation_id += 1
        self.nodes[path] = _Node(data, 0, ephemeral, self.last_creation_id)
        return [*reversed(missing), path]

    @_locked
    def fenced_create_all(self, fence: Fence, nodes: list[tuple[str, bytes]]) -> list[str]:
        """All the nodes in one journal write and one fsync (ZooKeeper's group commit)."""
        self._check(fence)
        existing, created = [], []
        for path, data in nodes:
            if path in self.nodes:
                existing.append(path)
            else:
                created += self._add(path, data, False)
        if created:
            self._persist(*created)
        for p in created:
            self._fire(p)
        return existing

    @_locked
    def create_sequential(self, prefix: str, data: bytes = b"") -> str:
        parent = _parent(prefix)
        counter = self.nodes[parent].version if parent in self.nodes else 0
        path = f"{prefix}{counter:010d}"
        self.create(path, data)
        self.nodes[parent].version += 1
        self._persist(parent)
        return path

    @_locked
    def get(self, path: str) -> tuple[bytes, int] | None:
        node = self.nodes.get(path)
        return (node.data, node.version) if node else None

    @_locked
    def get_with_creation_id(self, path: str) -> tuple[bytes, int] | None:
        node = self.nodes.get(path)
        return (node.data, node.creation_id) if node else None

    @_locked
    def set(self, path: str, data: bytes, expected_version: int = -1) -> int:
        node = self.nodes.get(path)
        if node is None:
            raise NoNodeError(path)
        if expected_version != -1 and expected_version != node.version:
            raise BadVersionError(f"{path}: version {node.version}, expected {expected_version}")
        node.data = data
        node.version += 1
        if not node.ephemeral:
            self._persist(path)
        for watcher in list(self.data_watchers.get(path, ())):
            watcher(path)
        return node.version

    def _check(self, fence: Fence) -> None:
        node = self.nodes.get(fence.path)
        if node is None or node.version != fence.version:
            raise FencedError(f"{fence.path} is no longer at version {fence.version}")

    @_locked
    def fenced_set(self, fence: Fence, path: str, data: bytes, expected_version: int) -> int:
        self._check(fence)
        return self.set(path, data, expected_version)

    @_locked
    def create_ephemeral_and_set(self, path: str, data: bytes, set_path: str, set_data: bytes,
                                 expected_version: int) -> int:
        if path in self.nodes:
            raise NodeExistsError(path)
        node = self.nodes.get(set_path)
        if node is None:
            raise NoNodeError(set_path)
        if node.version != expected_version:
            raise BadVersionError(f"{set_path}: version {node.version}, expected {expected_version}")
        self.create(path, data, ephemeral=True)
        return self.set(set_path, set_data, expected_version)

    @_locked
    def fenced_create(self, fence: Fence, path: str, data: bytes) -> None:
        self._check(fence)
        self.create(path, data)

    @_locked
    def delete(self, path: str, recursive: bool = False) -> None:
        if path not in self.nodes:
            raise NoNodeError(path)
        doomed = [p for p in self.nodes if p == path or p.startswith(path + "/")]
        if len(doomed) > 1 and not recursive:
            raise ValueError(f"{path} has children")
        for p in sorted(doomed, key=len, reverse=True):
            del self.nodes[p]
        self._persist(*doomed)
        for p in sorted(doomed, key=len, reverse=True):
            self._fire(p)

    @_locked
    def children(self, path: str) -> list[str]:
        if path not in self.nodes:
            raise NoNodeError(path)
        prefix = path.rstrip("/") + "/"
        return sorted(p[len(prefix) :] for p in self.nodes if p.startswith(prefix) and "/" not in p[len(prefix) :])

    @_locked
    def watch_children(self, path: str, watcher: Watcher) -> None:
        self.child_watchers.setdefault(path, []).append(watcher)

    @_locked
    def watch_data(self, path: str, watcher: Watcher) -> None:
        self.data_watchers.setdefault(path, []).append(watcher)

    @_locked
    def close(self) -> None:
        for path in [p for p, n in self.nodes.items() if n.ephemeral]:
            del self.nodes[path]
