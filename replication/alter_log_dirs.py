"""Moving a replica to another log dir of the same broker (Kafka's ReplicaAlterLogDirsThread).

AlterReplicaLogDirs creates a future log in the destination dir; a task on the event loop
copies the partition's current log into it, a chunk at a time (read from the current log,
appended as a follower append, so offsets, leader epochs, producer state and the
transaction index come along), yielding to the loop between chunks while the partition
keeps serving. Once the future log has caught up it is flushed and, within one turn of
the loop (no append can come in between), swapped in as the partition's log; the old one
is renamed `-delete` and removed after file.delete.delay.ms. The copy is held to
replica.alter.log.dirs.io.max.bytes.per.second: while that quota is exceeded no chunk is
read (Kafka's thread builds no fetch), and every chunk copied is recorded against it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from josefk.log.log import Log
from josefk.log.log_manager import LogManager
from josefk.log.segment import LogSegment
from josefk.protocol.errors import KafkaError
from josefk.replication.replication_quota import UNBOUNDED_QUOTA, ReplicaQuota

log = logging.getLogger(__name__)

CLEANING_BACKOFF_S = 0.1  # how often a caught-up move looks again whether the cleaner is done
THROTTLED_BACKOFF_S = 0.5  # how often a throttled move looks again whether its quota allows a chunk

TopicPartition = tuple[str, int]


class MovingPartition(Protocol):
    """What the move needs of the partition: its current log, which the swap replaces."""

    log: Log


def _fsync(segments: list[LogSegment]) -> None:
    """fsync segment files (on a worker thread). Not Log.flush: the future log may be removed
    meanwhile (a topic deleted), and its dir fsync would then fail and take the dir offline;
    a segment's flush is safe against a concurrent close."""
    for segment in segments:
        segment.flush()


class LogDirMove:
    """Copies one partition's log into its future log and swaps them (one asyncio task)."""

    def __init__(self, key: TopicPartition, partition: MovingPartition, log_manager: LogManager,
                 chunk_bytes: int, quota: ReplicaQuota = UNBOUNDED_QUOTA) -> None:
        """`quota`: the broker's alter-log-dirs replication quota."""
        self.key = key
        self.quota = quota
        self.partition = partition
        self.log_manager = log_manager
        self.chunk_bytes = chunk_bytes
        self.swapped = False

    def _align(self, current: Log, future: Log) -> None:
        """Cut the future log back to where it agrees with the current one: the current log
        may have been truncated (a follower diverging) or advanced its start (retention,
        DeleteRecords) since the last chunk. Leader epochs decide, as a follower's
        OffsetForLeaderEpoch does."""
        if future.log_end_offset < current.log_start_offset or future.log_start_offset > current.log_end_offset:
            future.truncate_fully_and_start_at(current.log_start_offset)
            return
        latest = future.leader_epoch_cache.latest_epoch
        end = current.log_end_offset
        if latest is not None:
            epoch, epoch_end = current.leader_epoch_cache.end_offset_for(latest, current.log_end_offset)
            end = min(end, epoch_end) if epoch >= 0 else current.log_start_offset
        if end < future.log_end_offset:
            if end <= future.log_start_offset:
                future.truncate_fully_and_start_at(current.log_start_offset)
            else:
                future.truncate_to(end)
        if current.log_start_offset > future.log_start_offset:
            future.maybe_increment_log_start_offset(min(current.log_start_offset, future.log_end_offset))

    def step(self) -> bool:
        """Copy one chunk, or swap if there is nothing left to copy and the cleaner is not
        writing in the current log's dir (Kafka aborts the clean; here the swap waits). True
        when done (swapped, or the move was abandoned: the future log or the partition's log
        is gone)."""
        future = self.log_manager.future_log(*self.key)
        current = self.partition.log
        if future is None or future.closed or current.closed or self.log_manager.get_log(*self.key) is not current:
            return True
        self._align(current, future)
        if future.log_end_offset < current.log_end_offset:
            data = current.read(future.log_end_offset, self.chunk_bytes, max_offset=None).read_bytes()
            future.append_as_follower(data)
            self.quota.record(len(data))
            return False
        if self.log_manager.is_being_cleaned(*self.key):
            return False
        self._swap(current, future)
        return True

    def _swap(self, current: Log, future: Log) -> None:
        # An epoch the current log started without writing a batch yet (a new leader's).
        latest = future.leader_epoch_cache.latest_epoch
        for epoch, start in current.leader_epoch_cache.entries():
            if latest is None or epoch > latest:
                future.leader_epoch_cache.assign(epoch, start)
        self.partition.log = self.log_manager.replace_current_with_future(*self.key)
        self.swapped = True
        log.info("%s-%d: the replica moved to %s", self.key[0], self.key[1], self.partition.log.dir.parent)

    async def run(self) -> None:
        """Copy until caught up; fsync the future log off the loop once (the bulk of it), so
        that the swap's own flush, on the loop, has little left to write."""
        flushed = False
        try:
            while True:
                future = self.log_manager.future_log(*self.key)
                if (not flushed and future is not None
                        and future.log_end_offset >= self.partition.log.log_end_offset):
                    await asyncio.to_thread(_fsync, future.segments)
                    flushed = True
                    continue
                if self.quota.is_quota_exceeded():
                    await asyncio.sleep(THROTTLED_BACKOFF_S)
                    continue
                if self.step():
                    return
                waiting = self.log_manager.is_being_cleaned(*self.key)
                await asyncio.sleep(CLEANING_BACKOFF_S if waiting else 0)
        except KafkaError as e:
            log.error("%s-%d: moving the replica to another log dir failed: %s", self.key[0], self.key[1], e)
        except Exception:  # noqa: BLE001 - the partition keeps serving from its current log
            log.exception("%s-%d: moving the replica to another log dir failed", self.key[0], self.key[1])
