"""Kafka's offset checkpoint files (recovery-point-offset-checkpoint, log-start-offset-checkpoint,
replication-offset-checkpoint, cleaner-offset-checkpoint).

Format, as Kafka's OffsetCheckpointFile writes it:

    0                      <- version
    2                      <- number of entries
    my-topic 0 1234        <- topic partition offset
    my-topic 1 987

Writes are atomic: a `.tmp` file is written and fsynced, renamed over the old file,
and the directory fsynced, so a crash leaves either the old or the new checkpoint.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path

VERSION = 0


class CorruptCheckpointError(ValueError):
    """The checkpoint file is not in Kafka's format."""


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in `path` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes, sync: bool = True) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new content.
    Without `sync` the new content survives a process crash only; the caller fsyncs the
    file and its directory later (fsync_file, fsync_dir) before relying on it."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        if sync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if sync:
        fsync_dir(path.parent)


def fsync_file(path: Path) -> None:
    """fsync a file by name; one removed meanwhile needs none."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class OffsetCheckpointFile:
    """One checkpoint file mapping (topic, partition) to an offset. Writes from several
    threads are serialised (the flusher thread and the event loop may both write)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def write(self, offsets: Mapping[tuple[str, int], int]) -> None:
        lines = [str(VERSION), str(len(offsets))]
        lines += [f"{topic} {partition} {offset}" for (topic, partition), offset in sorted(offsets.items())]
        data = ("\n".join(lines) + "\n").encode()
        with self._lock:
            write_atomically(self.path, data)

    def read(self) -> dict[tuple[str, int], int]:
        """The entries; {} if the file does not exist or is empty (Kafka creates an empty
        cleaner-offset-checkpoint and reads it as no entries); CorruptCheckpointError if malformed."""
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return {}
        lines = text.splitlines()
        if not lines:
            return {}
        if len(lines) < 2:
            raise CorruptCheckpointError(f"checkpoint file {self.path} is truncated")
        try:
            version = int(lines[0].strip())
        except ValueError:
            raise CorruptCheckpointError(f"malformed version line in {self.path}: {lines[0]!r}") from None
        if version != VERSION:
            raise CorruptCheckpointError(f"unrecognised version {version} in checkpoint file {self.path}")
        try:
            count = int(lines[1].strip())
        except ValueError:
            raise CorruptCheckpointError(f"malformed count line in {self.path}: {lines[1]!r}") from None
        entries = [line for line in lines[2:] if line.strip()]
        if len(entries) != count:
            raise CorruptCheckpointError(
                f"expected {count} entries in checkpoint file {self.path} but found {len(entries)}")
        result: dict[tuple[str, int], int] = {}
        for line in entries:
            parts = line.split()
            if len(parts) != 3:
                raise CorruptCheckpointError(f"malformed line in checkpoint file {self.path}: {line!r}")
            try:
                result[(parts[0], int(parts[1]))] = int(parts[2])
            except ValueError:
                raise CorruptCheckpointError(f"malformed line in checkpoint file {self.path}: {line!r}"
                                             ) from None
        return result
