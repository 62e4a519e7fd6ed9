"""Leader epoch cache of one partition (Kafka's LeaderEpochFileCache).

Each entry (epoch, start offset) says "from this offset on, batches were written by the
leader of this epoch". Followers and consumers ask, through OffsetForLeaderEpoch, where
an epoch ended on this replica (`end_offset_for`), to find the point where their log
diverged from the leader's.

The cache lives in `leader-epoch-checkpoint` in the partition directory, in Kafka's
format, written atomically (temp file, fsync, rename) on every change:

    0            <- version
    2            <- number of entries
    0 0          <- epoch start offset
    3 1200

Thread-safety: owned by the Log, i.e. the event loop.
"""

from __future__ import annotations

import bisect
import logging
from pathlib import Path

from josefk.log.checkpoint import CorruptCheckpointError, fsync_dir, fsync_file, write_atomically

logger = logging.getLogger(__name__)

LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
UNDEFINED_EPOCH = -1
UNDEFINED_EPOCH_OFFSET = -1
_VERSION = 0


def read_leader_epoch_checkpoint(path: Path) -> list[tuple[int, int]]:
    """The (epoch, start offset) entries of a checkpoint file; [] if it does not exist or
    is empty (Kafka creates the file empty for a partition that has no epoch yet, and its
    CheckpointFile reads that, or a version line alone, as no entries)."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return []
    lines = text.splitlines()
    if not lines:
        return []
    try:
        if int(lines[0]) != _VERSION:
            raise CorruptCheckpointError(f"bad header in {path}")
        if len(lines) < 2:
            return []
        count = int(lines[1])
        entries = [line.split() for line in lines[2:] if line.strip()]
        if len(entries) != count or any(len(e) != 2 for e in entries):
            raise CorruptCheckpointError(f"expected {count} entries in {path}")
        return [(int(e), int(o)) for e, o in entries]
    except ValueError as e:
        raise CorruptCheckpointError(f"malformed {path}: {e}") from None


class LeaderEpochFileCache:
    """Sorted (epoch, start offset) entries, epochs and offsets both increasing."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / LEADER_EPOCH_CHECKPOINT
        self._unsynced = False
        try:
            entries = read_leader_epoch_checkpoint(self.path)
        except (OSError, CorruptCheckpointError) as e:
            logger.warning("Ignoring unreadable %s: %s", self.path, e)
            entries = []
        self._epochs: list[int] = []
        self._offsets: list[int] = []
        for epoch, offset in entries:  # keep only a monotonic sequence, as assign() would
            self._assign(epoch, offset)

    # -- queries ------------------------------------------------------------------------

    def entries(self) -> list[tuple[int, int]]:
        return list(zip(self._epochs, self._offsets, strict=True))

    @property
    def latest_epoch(self) -> int | None:
        return self._epochs[-1] if self._epochs else None

    @property
    def earliest_entry(self) -> tuple[int, int] | None:
        return (self._epochs[0], self._offsets[0]) if self._epochs else None

    def epoch_for_offset(self, offset: int) -> int | None:
        """The epoch whose range holds `offset` (None below the first entry)."""
        i = bisect.bisect_right(self._offsets, offset) - 1
        return self._epochs[i] if i >= 0 else None

    def end_offset_for(self, requested_epoch: int, log_end_offset: int) -> tuple[int, int]:
        """(epoch, end offset) for OffsetForLeaderEpoch, Kafka's rules: the latest epoch ends
        at the log end offset; an older one ends where the next higher epoch starts, paired
        with the largest epoch <= the requested one; an epoch below every entry maps to the
        first entry's start offset; unknown or undefined gives (-1, -1)."""
        if requested_epoch == UNDEFINED_EPOCH or not self._epochs:
            return UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
        if requested_epoch == self._epochs[-1]:
            return requested_epoch, log_end_offset
        higher = bisect.bisect_right(self._epochs, requested_epoch)
        if higher >= len(self._epochs):
            return UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
        if higher == 0:
            return requested_epoch, self._offsets[0]
        return self._epochs[higher - 1], self._offsets[higher]

    # -- updates ------------------------------------------------------------------------

    def assign(self, epoch: int, start_offset: int) -> None:
        """Record that `epoch` starts at `start_offset` (called for each appended batch;
        a no-op unless the epoch is new or the offset moved back)."""
        if epoch < 0 or start_offset < 0:
            return
        if self._epochs and epoch == self._epochs[-1] and start_offset >= self._offsets[-1]:
            return
        if self._assign(epoch, start_offset):
            self._flush()

    def _assign(self, epoch: int, start_offset: int) -> bool:
        if self._epochs and epoch == self._epochs[-1] and start_offset >= self._offsets[-1]:
            return False
        removed = 0
        while self._epochs and (self._epochs[-1] >= epoch or self._offsets[-1] >= start_offset):
            self._epochs.pop()
            self._offsets.pop()
            removed += 1
        if removed > 1:
            logger.warning("%s: new epoch entry (%d, %d) removed %d conflicting entries", self.path.parent.name,
                           epoch, start_offset, removed)
        self._epochs.append(epoch)
        self._offsets.append(start_offset)
        return True

    def truncate_from_end(self, end_offset: int) -> None:
        """Drop entries starting at or after `end_offset` (the log was truncated there)."""
        if end_offset < 0 or not self._offsets or self._offsets[-1] < end_offset:
            return
        keep = bisect.bisect_left(self._offsets, end_offset)
        del self._epochs[keep:]
        del self._offsets[keep:]
        self._flush()

    def truncate_from_start(self, start_offset: int) -> None:
        """The log now starts at `start_offset`: entries wholly before it go, and the one
        covering it is moved up to start there."""
        i = bisect.bisect_right(self._offsets, start_offset) - 1
        if i < 0 or (i == 0 and self._offsets[0] == start_offset):
            return
        epoch = self._epochs[i]
        del self._epochs[: i + 1]
        del self._offsets[: i + 1]
        self._epochs.insert(0, epoch)
        self._offsets.insert(0, start_offset)
        self._flush()

    def clear(self) -> None:
        """Forget everything (the log was truncated fully)."""
        self._epochs.clear()
        self._offsets.clear()
        self._flush()

    @property
    def unsynced(self) -> bool:
        return self._unsynced

    def sync(self) -> None:
        """fsync the checkpoint _flush wrote without (the log is being flushed)."""
        if self._unsynced:
            self._unsynced = False
            fsync_file(self.path)
            fsync_dir(self.path.parent)

    def _flush(self) -> None:
        """Write the checkpoint (atomically) without fsync: the log's next flush syncs it
        (sync()). Every new leader and every new partition wrote it, and one fsync each
        made creating or loading 10,000 partitions take tens of seconds; Kafka took this
        fsync off the append path too (KAFKA-15046). After a power loss the file may lack
        the latest change: an entry for unflushed records, which the loader drops along
        with the records anyway (it truncates the cache to the recovered log end and start)."""
        lines = [str(_VERSION), str(len(self._epochs))]
        lines += [f"{e} {o}" for e, o in zip(self._epochs, self._offsets, strict=True)]
        self._unsynced = True
        try:
            write_atomically(self.path, ("\n".join(lines) + "\n").encode(), sync=False)
        except FileNotFoundError:
            pass  # the partition directory is being deleted
        except OSError as e:
            logger.error("Could not write %s: %s", self.path, e)

    def __repr__(self) -> str:
        return f"LeaderEpochFileCache({self.entries()})"
