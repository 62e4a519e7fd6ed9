"""The broker's logs across its log.dirs (Kafka's LogManager).

Each log dir holds `meta.properties` (who owns it), one `<topic>-<partition>` directory
per partition, the `recovery-point-offset-checkpoint` and `log-start-offset-checkpoint`
files, a `.lock` held while the broker runs, and `.kafka_cleanshutdown` after a clean
shutdown. At start-up the marker decides whether logs need recovery: without it, every
segment after a log's checkpointed recovery point is re-validated and torn tails are cut.

Threading: everything runs on the event loop except flush_dirty_logs() and
checkpoint_recovery_points(), which may run on a worker thread.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import shutil
import time
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from josefk.log.checkpoint import CorruptCheckpointError, OffsetCheckpointFile, fsync_dir, write_atomically
from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.metrics import LogFlushStats
from josefk.utils.time import SYSTEM_TIME, Time

logger = logging.getLogger(__name__)

RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint"
LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint"
CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown"
META_PROPERTIES = "meta.properties"
LOCK_FILE = ".lock"
DELETE_DIR_SUFFIX = "-delete"
FUTURE_DIR_SUFFIX = "-future"
STRAY_DIR_SUFFIX = "-stray"

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]{1,249}$")
_PARTITION_DIR = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)$")
_FUTURE_DIR = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)\.[0-9a-f]{32}-future$")


class InconsistentBrokerMetadataError(RuntimeError):
    """meta.properties belongs to another broker id or cluster."""


def parse_partition_dir(name: str) -> tuple[str, int] | None:
    """(topic, partition) for a `<topic>-<partition>` directory name, else None."""
    m = _PARTITION_DIR.match(name)
    if m is None:
        return None
    return m.group("topic"), int(m.group("partition"))


def parse_future_dir(name: str) -> tuple[str, int] | None:
    """(topic, partition) for a future log's `<topic>-<partition>.<uuid>-future` dir, else None."""
    m = _FUTURE_DIR.match(name)
    if m is None:
        return None
    return m.group("topic"), int(m.group("partition"))


def future_dir_name(topic: str, partition: int) -> str:
    """Kafka's UnifiedLog.logFutureDirName."""
    return f"{topic}-{partition}.{uuid.uuid4().hex}{FUTURE_DIR_SUFFIX}"


def read_properties(path: Path) -> dict[str, str]:
    props: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        key, sep, value = line.partition("=")
        if sep:
            props[key.strip()] = value.strip()
    return props


class LogManager:
    """Creates, loads, flushes, checkpoints and deletes the broker's partition logs."""

    def __init__(
        self,
        log_dirs: Sequence[Path | str],
        default_config: LogConfig,
        broker_id: int = 0,
        cluster_id: str | None = None,
        flush_interval_ms: int = 1000,
        broker_epoch: int = -1,
        failure_channel: LogDirFailureChannel | None = None,
        time: Time = SYSTEM_TIME,
        flush_stats: LogFlushStats | None = None,
    ) -> None:
        """`flush_interval_ms` is how often the broker should call flush_dirty_logs (it also
        fsyncs rolled segments, as Kafka's roll-time flush does); `flush_stats` counts every
        log's fsyncs (LogFlushRateAndTimeMs). I/O errors in a log dir
        are reported to `failure_channel`, whose listener calls handle_log_dir_failure.
        `time` is every log's clock (and the cleaner's): flushes, rolls, retention."""
        if not log_dirs:
            raise ValueError("at least one log dir is required")
        self.log_dirs = [Path(d) for d in log_dirs]
        self.failure_channel = failure_channel or LogDirFailureChannel()
        self.time = time
        self.flush_stats = flush_stats
        self._live_dirs = list(self.log_dirs)
        self._dir_locks: dict[Path, int] = {}
        self.default_config = default_config
        self.broker_id = broker_id
        self.cluster_id = cluster_id
        self.broker_epoch = broker_epoch
        self.flush_interval_ms = flush_interval_ms
        self._logs: dict[tuple[str, int], Log] = {}
        self._log_dir_of: dict[tuple[str, int], Path] = {}
        # A replica moving to another log dir (AlterReplicaLogDirs): its future log there,
        # the dir it goes to for a partition not yet created, and replaced logs waiting
        # for file.delete.delay.ms (reads may still hold their files) before removal.
        self._future_logs: dict[tuple[str, int], Log] = {}
        self._future_dir_of: dict[tuple[str, int], Path] = {}
        self._preferred_dirs: dict[tuple[str, int], Path] = {}
        self._retired_logs: list[tuple[int, Log]] = []
        # Kafka's LogCleanerManager states, for moves: a log being cleaned (the cleaner says
        # so) must not be swapped out, and a log being moved is not cleaned.
        self._being_cleaned: set[tuple[str, int]] = set()
        self._cleaning_paused: set[tuple[str, int]] = set()
        self._recovery_checkpoints = {d: OffsetCheckpointFile(d / RECOVERY_POINT_CHECKPOINT) for d in self.log_dirs}
        self._start_checkpoints = {d: OffsetCheckpointFile(d / LOG_START_OFFSET_CHECKPOINT) for d in self.log_dirs}
        self._started = False

    # -- start-up -----------------------------------------------------------------------

    def startup(self, topic_configs: Mapping[str, LogConfig] | None = None) -> None:
        """Lock and check every log dir, then load every partition log in it.

        A dir that fails with an I/O error is offline from the start, as in Kafka: the
        broker runs on the others (the controller learns which replicas are missing from
        the LeaderAndIsr answers). With none left start-up fails.
        `topic_configs` gives per-topic overrides known at start-up; other logs use the
        default config until Log.update_config.
        """
        topic_configs = topic_configs or {}
        try:
            for log_dir in self.log_dirs:
                try:
                    log_dir.mkdir(parents=True, exist_ok=True)
                    self._lock_dir(log_dir)
                    self._check_meta_properties(log_dir)
                except OSError as e:
                    self._fail_at_startup(log_dir, f"Failed to create or validate data directory {log_dir}", e)
            logger.info("Loading logs from log dirs ArrayBuffer(%s)", ", ".join(map(str, self._live_dirs)))
            started = self.time.hi_res_clock_ms()
            unclean: list[Path] = []
            for log_dir in list(self._live_dirs):
                try:
                    if self._load_dir(log_dir, topic_configs):
                        unclean.append(log_dir)
                except OSError as e:
                    self._fail_at_startup(log_dir, f"Error while loading log dir {log_dir}", e)
            logger.info("Loaded %d logs in %dms%s", sum(1 for d in self._log_dir_of.values() if d in self._live_dirs),
                        self.time.hi_res_clock_ms() - started,
                        f" (unclean log dirs = ArrayBuffer({', '.join(map(str, unclean))}))" if unclean else "")
            if not self._live_dirs:
                raise RuntimeError(f"Shutdown broker because none of the specified log dirs from "
                                   f"{', '.join(map(str, self.log_dirs))} can be created or validated")
            self._promote_orphan_futures()
        except BaseException:
            for log in [*self._logs.values(), *self._future_logs.values()]:
                log.close()
            self._logs.clear()
            self._log_dir_of.clear()
            self._future_logs.clear()
            self._future_dir_of.clear()
            self._release_locks()
            raise
        self._started = True

    def _fail_at_startup(self, log_dir: Path, message: str, error: OSError) -> None:
        self.failure_channel.maybe_add_offline_log_dir(log_dir, message, error)
        self.handle_log_dir_failure(log_dir)

    def _release_locks(self) -> None:
        for fd in self._dir_locks.values():
            os.close(fd)
        self._dir_locks.clear()

    def _lock_dir(self, log_dir: Path) -> None:
        fd = os.open(log_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RuntimeError(f"Failed to acquire lock on file {LOCK_FILE} in {log_dir}. A Kafka instance "
                               f"in another process or thread is using this directory.") from None
        self._dir_locks[log_dir] = fd

    def _check_meta_properties(self, log_dir: Path) -> None:
        """Kafka's BrokerMetadataCheckpoint: the dir must belong to this broker and cluster."""
        path = log_dir / META_PROPERTIES
        if path.exists():
            props = read_properties(path)
            stored_id = props.get("broker.id", props.get("node.id"))
            if stored_id is not None and int(stored_id) != self.broker_id:
                raise InconsistentBrokerMetadataError(
                    f"Configured broker.id {self.broker_id} doesn't match stored broker.id {stored_id} in "
                    f"meta.properties of {log_dir}. If you moved your data, make sure your configured "
                    f"broker.id matches.")
            stored_cluster = props.get("cluster.id")
            if stored_cluster and self.cluster_id and stored_cluster != self.cluster_id:
                raise InconsistentBrokerMetadataError(
                    f"The Cluster ID {self.cluster_id} doesn't match stored clusterId {stored_cluster} in "
                    f"meta.properties of {log_dir}. The broker is trying to join the wrong cluster.")
            if stored_cluster and not self.cluster_id:
                self.cluster_id = stored_cluster
            if stored_cluster or not self.cluster_id:
                return
        lines = ["#", f"#{time.strftime('%a %b %d %H:%M:%S %Z %Y')}"]
        if self.cluster_id:
            lines.append(f"cluster.id={self.cluster_id}")
        lines += ["version=0", f"broker.id={self.broker_id}"]
        write_atomically(path, ("\n".join(lines) + "\n").encode())

    def _read_checkpoint(self, checkpoint: OffsetCheckpointFile) -> dict[tuple[str, int], int]:
        try:
            return checkpoint.read()
        except (OSError, CorruptCheckpointError) as e:
            logger.warning("Error reading %s, resetting it: %s", checkpoint.path, e)
            return {}

    def _load_dir(self, log_dir: Path, topic_configs: Mapping[str, LogConfig]) -> bool:
        """Load the logs of `log_dir`; True if they needed recovery (Kafka's unclean log dir)."""
        marker = log_dir / CLEAN_SHUTDOWN_FILE
        clean = marker.exists()
        recovery_points = self._read_checkpoint(self._recovery_checkpoints[log_dir])
        start_offsets = self._read_checkpoint(self._start_checkpoints[log_dir])
        to_load: list[tuple[Path, tuple[str, int]]] = []
        futures: list[tuple[Path, tuple[str, int]]] = []
        for name in sorted(os.listdir(log_dir)):
            path = log_dir / name
            if not path.is_dir():
                continue
            if name.endswith(DELETE_DIR_SUFFIX):
                shutil.rmtree(path, ignore_errors=True)
                continue
            future_key = parse_future_dir(name)
            if future_key is not None:
                futures.append((path, future_key))
                continue
            if name.endswith((FUTURE_DIR_SUFFIX, STRAY_DIR_SUFFIX)):
                logger.warning("Ignoring %s", path)
                continue
            key = parse_partition_dir(name)
            if key is not None:
                to_load.append((path, key))
        # Kafka's three messages: an empty dir (a first start) has nothing to recover.
        if not to_load:
            logger.info("No logs found to be loaded in %s", log_dir)
        elif clean:
            logger.info("Skipping recovery of %d logs from %s since clean shutdown file was found", len(to_load),
                        log_dir)
        else:
            logger.info("Recovering %d logs from %s since no clean shutdown file was found", len(to_load), log_dir)
        for done, (path, key) in enumerate(to_load, 1):
            if key in self._logs:
                raise RuntimeError(f"Duplicate log directories for {path.name} are found in "
                                   f"{self._log_dir_of[key]} and {log_dir}")
            config = topic_configs.get(key[0], self.default_config)
            started = self.time.hi_res_clock_ms()
            log = self._logs[key] = Log(path, config, recovery_point=recovery_points.get(key, 0),
                                        log_start_offset=start_offsets.get(key, 0), clean_shutdown=clean,
                                        failure_channel=self.failure_channel, time=self.time,
                                        flush_stats=self.flush_stats)
            self._log_dir_of[key] = log_dir
            logger.info("Completed load of %s with %d segments, local-log-start-offset %d and log-end-offset %d in "
                        "%dms (%d/%d completed in %s)", log.describe(), len(log.segments), log.log_start_offset,
                        log.log_end_offset, self.time.hi_res_clock_ms() - started, done, len(to_load), log_dir)
        for path, key in futures:
            # A replica move the broker stopped in the middle of: the future log is loaded
            # and the move resumes once the partition is back (ReplicaManager).
            if key in self._future_logs:
                raise RuntimeError(f"Duplicate log directories found: {path}, {self._future_logs[key].dir}")
            config = topic_configs.get(key[0], self.default_config)
            self._future_logs[key] = Log(path, config, recovery_point=recovery_points.get(key, 0),
                                         log_start_offset=start_offsets.get(key, 0), clean_shutdown=clean,
                                         failure_channel=self.failure_channel, time=self.time)
            self._future_dir_of[key] = log_dir
            self._cleaning_paused.add(key)
        if clean:
            # From here on a crash must trigger recovery: the removal must be durable
            # before the first append.
            marker.unlink()
            fsync_dir(log_dir)
        return bool(to_load) and not clean

    # -- logs ---------------------------------------------------------------------------

    def get_log(self, topic: str, partition: int) -> Log | None:
        return self._logs.get((topic, partition))

    def get_or_create_log(self, topic: str, partition: int, config: LogConfig | None = None,
                          is_new: bool = False) -> Log:
        """The partition's log, created (in the live log dir holding fewest partitions) if
        absent. While a dir is offline only a partition the controller says `is_new` gets
        one: any other may have its log in the failed dir (Kafka's rule)."""
        key = (topic, partition)
        log = self._logs.get(key)
        if log is not None:
            return log
        if not _LEGAL_TOPIC.match(topic) or topic in (".", "..") or partition < 0:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"Invalid topic partition {topic}-{partition}")
        offline = self.offline_log_dirs
        if offline and not is_new:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"Can not create log for {topic}-{partition} because log directories "
                             f"{', '.join(map(str, sorted(offline)))} are offline")
        preferred = self._preferred_dirs.pop(key, None)
        if preferred in self._live_dirs or len(self._live_dirs) == 1:
            # (counting the logs per dir for each new log made a 10,000-partition topic O(n^2))
            log_dir = preferred if preferred in self._live_dirs else self._live_dirs[0]
        else:
            counts = Counter(self._log_dir_of.values())
            log_dir = min(self._live_dirs, key=lambda d: counts[d])
        path = log_dir / f"{topic}-{partition}"
        with self.failure_channel.guard(log_dir, f"Error while creating log for {topic}-{partition} in dir "
                                                 f"{log_dir}"):
            existed = path.exists()
            log = Log(path, config or self.default_config, recovery_point=0, log_start_offset=0,
                      clean_shutdown=not existed, failure_channel=self.failure_channel, time=self.time,
                      flush_stats=self.flush_stats)
        self._logs[key] = log
        self._log_dir_of[key] = log_dir
        logger.info("Created log for partition %s-%d in %s", topic, partition, path)
        return log

    def delete_log(self, topic: str, partition: int) -> bool:
        """Remove the partition's log (and its future log, first: a crash in between must
        not leave a future log that start-up would promote): its dir is renamed
        `<topic>-<partition>.<uuid>-delete` (so a crash mid-way finishes the job at the
        next start-up), then removed."""
        key = (topic, partition)
        self.remove_future_log(topic, partition)
        self._preferred_dirs.pop(key, None)
        log = self._logs.pop(key, None)
        log_dir = self._log_dir_of.pop(key, None)
        if log is None or log_dir is None:
            return False
        renamed = log.dir.with_name(f"{log.dir.name}.{uuid.uuid4().hex}{DELETE_DIR_SUFFIX}")
        try:
            log.rename_dir(renamed)
            fsync_dir(log_dir)
        except OSError as e:
            logger.warning("Could not rename %s for deletion: %s", log.dir, e)
        log.delete()
        self._checkpoint_dir(log_dir)
        logger.info("Deleted log for partition %s-%d", topic, partition)
        return True

    def all_logs(self) -> dict[tuple[str, int], Log]:
        return dict(self._logs)

    # -- moving a replica between log dirs (Kafka's future logs) -----------------------------

    def is_log_dir_online(self, log_dir: str) -> bool:
        """Kafka's isLogDirOnline: LOG_DIR_NOT_FOUND for a dir that is not in log.dirs."""
        path = Path(log_dir)
        if not path.is_absolute() or path not in {d.absolute() for d in self.log_dirs}:
            raise KafkaError(ErrorCode.LOG_DIR_NOT_FOUND, f"Log dir {log_dir} is not found in the config.")
        return path in {d.absolute() for d in self._live_dirs}

    def _configured_dir(self, log_dir: str | Path) -> Path:
        absolute = Path(log_dir).absolute()
        return next(d for d in self.log_dirs if d.absolute() == absolute)

    def maybe_update_preferred_log_dir(self, topic: str, partition: int, log_dir: str) -> None:
        """Remember where the partition's log goes when it is created, unless its current or
        future log already lives there (Kafka's maybeUpdatePreferredLogDir)."""
        key, wanted = (topic, partition), self._configured_dir(log_dir)
        if self._log_dir_of.get(key) != wanted and self._future_dir_of.get(key) != wanted:
            self._preferred_dirs[key] = wanted

    def future_log(self, topic: str, partition: int) -> Log | None:
        return self._future_logs.get((topic, partition))

    def future_log_dir_of(self, topic: str, partition: int) -> Path | None:
        return self._future_dir_of.get((topic, partition))

    def all_future_logs(self) -> dict[tuple[str, int], Log]:
        return dict(self._future_logs)

    def create_future_log(self, topic: str, partition: int, log_dir: str) -> Log:
        """An empty future log `<topic>-<partition>.<uuid>-future` in `log_dir`. Refused while
        a dir is offline (the partition might already have a future log there), as Kafka."""
        key, target = (topic, partition), self._configured_dir(log_dir)
        offline = self.offline_log_dirs
        if offline:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"Can not create log for {topic}-{partition} because log directories "
                             f"{', '.join(map(str, sorted(offline)))} are offline")
        current = self._logs.get(key)
        config = current.config if current is not None else self.default_config
        with self.failure_channel.guard(target, f"Error while creating future log for {topic}-{partition} in dir "
                                                f"{target}"):
            log = Log(target / future_dir_name(topic, partition), config, recovery_point=0, log_start_offset=0,
                      clean_shutdown=True, failure_channel=self.failure_channel, time=self.time)
            fsync_dir(target)
        self._future_logs[key] = log
        self._future_dir_of[key] = target
        self._preferred_dirs.pop(key, None)
        self._cleaning_paused.add(key)
        logger.info("Created log for partition %s-%d in %s", topic, partition, log.dir)
        return log

    def remove_future_log(self, topic: str, partition: int) -> bool:
        """Abandon a move: the future log's dir is renamed to `-delete` and removed."""
        key = (topic, partition)
        log = self._future_logs.pop(key, None)
        log_dir = self._future_dir_of.pop(key, None)
        self._cleaning_paused.discard(key)
        if log is None or log_dir is None:
            return False
        with contextlib.suppress(OSError):
            renamed = log.dir.with_name(f"{topic}-{partition}.{uuid.uuid4().hex}{DELETE_DIR_SUFFIX}")
            log.rename_dir(renamed)
            fsync_dir(log_dir)
        log.delete()
        self._checkpoint_dir(log_dir)
        logger.info("Deleted future log for partition %s-%d", topic, partition)
        return True

    def replace_current_with_future(self, topic: str, partition: int) -> Log:
        """Make the caught-up future log the partition's log (Kafka's replaceCurrentWithFutureLog);
        the caller ensures nothing was appended to the current log since the future caught up.

        The future log is flushed and closed (producer snapshot written), the current dir is
        renamed `-delete`, then the future dir takes the partition's name and is reopened.
        A crash between the two renames leaves a future log with no current one, which
        start-up promotes (Kafka would refuse to start with two current dirs instead). The
        old log keeps its files open until delete_retired_logs, for reads in flight."""
        key = (topic, partition)
        old, future = self._logs[key], self._future_logs.pop(key)
        src, dest = self._log_dir_of[key], self._future_dir_of.pop(key)
        future.flush()  # everything, rolled segments too: close() syncs only the active one
        future.close()
        renamed = old.dir.with_name(f"{old.dir.name}.{uuid.uuid4().hex}{DELETE_DIR_SUFFIX}")
        with self.failure_channel.guard(src, f"Error while renaming dir for {topic}-{partition} in log dir {src}"):
            old.rename_dir(renamed)
            fsync_dir(src)
        old.retire()
        self._retired_logs.append((self.time.hi_res_clock_ms() + old.config.file_delete_delay_ms, old))
        del self._logs[key], self._log_dir_of[key]
        new = self._promote(key, future, dest, old.config)
        new.update_high_watermark(old.high_watermark)
        self._cleaning_paused.discard(key)
        self._checkpoint_dir(src)
        return new

    def _promote(self, key: tuple[str, int], future: Log, log_dir: Path, config: LogConfig) -> Log:
        """Rename a closed future log's dir to the partition's and open it as the current log
        (with the topic's config as the current log had it: config changes reach only that)."""
        path = log_dir / f"{key[0]}-{key[1]}"
        with self.failure_channel.guard(log_dir, f"Error while renaming dir for {key[0]}-{key[1]} in log dir "
                                                 f"{log_dir}"):
            os.rename(future.dir, path)
            fsync_dir(log_dir)
            log = Log(path, config, recovery_point=future.log_end_offset,
                      log_start_offset=future.log_start_offset, clean_shutdown=True,
                      failure_channel=self.failure_channel, time=self.time)
        self._logs[key] = log
        self._log_dir_of[key] = log_dir
        self._checkpoint_dir(log_dir)
        logger.info("The current replica of %s-%d is now in %s", key[0], key[1], path)
        return log

    def _promote_orphan_futures(self) -> None:
        """A future log whose current log is gone: the broker stopped between the swap's two
        renames (the current went to `-delete`, removed at start-up), so the future log
        has everything. With a dir offline the current may be there: leave it alone."""
        if self.offline_log_dirs:
            return
        for key in [k for k in self._future_logs if k not in self._logs]:
            future = self._future_logs.pop(key)
            future.close()
            self._promote(key, future, self._future_dir_of.pop(key), future.config)
            self._cleaning_paused.discard(key)

    def begin_cleaning(self, topic: str, partition: int) -> None:
        """The cleaner starts on this log (on the loop, in the turn it chose it)."""
        self._being_cleaned.add((topic, partition))

    def end_cleaning(self, topic: str, partition: int) -> None:
        self._being_cleaned.discard((topic, partition))

    def is_being_cleaned(self, topic: str, partition: int) -> bool:
        """A clean's files are being written in the log's dir: a swap must wait for it."""
        return (topic, partition) in self._being_cleaned

    def is_cleaning_paused(self, topic: str, partition: int) -> bool:
        """The log is moving to another dir: the cleaner leaves it alone until the swap."""
        return (topic, partition) in self._cleaning_paused

    def delete_retired_logs(self, force: bool = False) -> None:
        """Remove replaced logs whose file.delete.delay.ms has passed (all with `force`)."""
        now = self.time.hi_res_clock_ms()
        keep = []
        for deadline, log in self._retired_logs:
            if force or deadline <= now:
                log.delete()
            else:
                keep.append((deadline, log))
        self._retired_logs = keep

    def log_dir_of(self, topic: str, partition: int) -> Path | None:
        return self._log_dir_of.get((topic, partition))

    # -- log dir failure ----------------------------------------------------------------------

    @property
    def live_log_dirs(self) -> list[Path]:
        return list(self._live_dirs)

    @property
    def offline_log_dirs(self) -> list[Path]:
        return [d for d in self.log_dirs if d not in self._live_dirs]

    def handle_log_dir_failure(self, log_dir: Path) -> list[tuple[str, int]]:
        """Stop serving the logs in a failed dir (Kafka's LogManager.handleLogDirFailure):
        their files are closed untouched, the dir's checkpoints are no longer written and
        its lock is released. Returns the partitions that went offline."""
        log_dir = Path(log_dir)
        if log_dir not in self._live_dirs:
            return []
        logger.warning("Stopping serving logs in dir %s", log_dir)
        self._live_dirs.remove(log_dir)
        offline = [key for key, d in self._log_dir_of.items() if d == log_dir]
        for key in offline:
            self._logs.pop(key).close_handlers()
            del self._log_dir_of[key]
        offline_futures = [key for key, d in self._future_dir_of.items() if d == log_dir]
        for key in offline_futures:
            self._future_logs.pop(key).close_handlers()
            del self._future_dir_of[key]
        fd = self._dir_locks.pop(log_dir, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        logger.warning("Logs for partitions %s are offline and logs for future partitions %s are offline due to "
                       "failure on log directory %s", ",".join(f"{t}-{p}" for t, p in offline),
                       ",".join(f"{t}-{p}" for t, p in offline_futures), log_dir)
        return offline

    # -- durability -------------------------------------------------------------------------

    def flush_dirty_logs(self, now_ms: int | None = None) -> int:
        """fsync logs that are due: a rolled segment not yet flushed, flush.ms elapsed since
        the last flush, or flush.messages unflushed. Advances recovery points (call
        checkpoint_recovery_points after). Thread-safe. Returns how many logs flushed."""
        now = self.time.milliseconds() if now_ms is None else now_ms
        flushed = 0
        for key, log in list(self._logs.items()):
            if log.closed:
                continue
            cfg = log.config
            unflushed = log.unflushed_messages
            up_to: int | None = -1
            if unflushed > 0 and (
                (cfg.flush_ms is not None and now - log.last_flush_ms >= cfg.flush_ms)
                or (cfg.flush_messages is not None and unflushed >= cfg.flush_messages)
            ):
                up_to = None
            elif log.flush_offset_on_roll > log.recovery_point:
                up_to = log.flush_offset_on_roll
            if up_to == -1:
                continue
            try:
                log.flush(up_to)
                flushed += 1
            except (OSError, KafkaError, ValueError) as e:
                if not log.closed:
                    logger.error("Error flushing %s-%d: %s", key[0], key[1], e)
        return flushed

    def checkpoint_recovery_points(self) -> None:
        """Write every live log dir's recovery-point and log-start-offset checkpoints. Thread-safe."""
        for log_dir in list(self._live_dirs):
            self._checkpoint_dir(log_dir)

    def _checkpoint_dir(self, log_dir: Path) -> None:
        """An I/O error takes the dir offline, as Kafka's checkpointLogRecoveryOffsetsInDir does."""
        logs = [(k, log) for k, log in list(self._logs.items()) if self._log_dir_of.get(k) == log_dir]
        logs += [(k, log) for k, log in list(self._future_logs.items()) if self._future_dir_of.get(k) == log_dir]
        with contextlib.suppress(KafkaError), self.failure_channel.guard(
                log_dir, f"Disk error while writing recovery offsets checkpoint in directory {log_dir}"):
            self._recovery_checkpoints[log_dir].write({k: log.recovery_point for k, log in logs})
            self._start_checkpoints[log_dir].write({k: log.log_start_offset for k, log in logs})

    def cleanup_logs(self, now_ms: int | None = None) -> int:
        """Retention (Kafka's log.retention.check.interval.ms task): delete expired segments
        of every log and the files of segments whose delete delay has passed. Returns the
        number of segments deleted."""
        now = self.time.milliseconds() if now_ms is None else now_ms
        total = 0
        for log in list(self._logs.values()):
            if log.closed:
                continue
            total += log.delete_old_segments(now)
            log.delete_expired_files()
        self.delete_retired_logs()
        return total

    def remove_expired_producers(self, expiration_ms: int, now_ms: int | None = None) -> None:
        """Kafka's PeriodicProducerExpirationCheck (every producer.id.expiration.check.interval.ms):
        forget producer ids idle longer than producer.id.expiration.ms in every log."""
        now = self.time.milliseconds() if now_ms is None else now_ms
        for log in list(self._logs.values()):
            if not log.closed:
                log.producer_state.remove_expired(now, expiration_ms)

    def shutdown(self) -> None:
        """Flush and close every log, write the checkpoints, then mark each dir cleanly shut
        down (only if every log in it closed without error)."""
        if not self._started:
            return
        failed_dirs: set[Path] = set()
        for key, log in list(self._logs.items()):
            try:
                log.flush()
                log.close()
            except (OSError, KafkaError, ValueError) as e:
                logger.error("Error closing %s-%d: %s", key[0], key[1], e)
                failed_dirs.add(self._log_dir_of[key])
        for key, log in list(self._future_logs.items()):
            try:
                log.flush()
                log.close()
            except (OSError, KafkaError, ValueError) as e:
                logger.error("Error closing the future log of %s-%d: %s", key[0], key[1], e)
                failed_dirs.add(self._future_dir_of[key])
        self.delete_retired_logs(force=True)
        self.checkpoint_recovery_points()
        for log_dir in self._live_dirs:
            if log_dir not in failed_dirs and not self.failure_channel.has_offline_log_dir(log_dir):
                write_atomically(log_dir / CLEAN_SHUTDOWN_FILE,
                                 json.dumps({"version": 0, "brokerEpoch": self.broker_epoch}).encode())
        self._logs.clear()
        self._log_dir_of.clear()
        self._future_logs.clear()
        self._future_dir_of.clear()
        self._release_locks()
        self._started = False
