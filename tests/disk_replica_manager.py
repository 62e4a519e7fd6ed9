"""A ReplicaManager for unit tests: broker 1 on fake time over real logs in a tmp dir, with
an embedded coordination store, stopped (logs closed) when the block ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import ReplicaManager, ReplicationSettings
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore


@contextmanager
def replica_manager(tmp_path: Path,
                    topic_config: Callable[[str], LogConfig] = lambda _t: LogConfig()) -> Iterator[ReplicaManager]:
    """Logs under tmp_path/logs and the store in tmp_path/store.json, so that a second block
    over the same tmp_path is the same broker restarted; `topic_config` gives each topic's
    log config."""
    log_manager = LogManager([tmp_path / "logs"], LogConfig())
    log_manager.startup()
    executor = ThreadPoolExecutor(1)
    manager = ReplicaManager(1, log_manager, MetadataCache(1), topic_config,
                             EmbeddedStore(tmp_path / "store.json"), ReplicationSettings(), executor, MockTime())
    try:
        yield manager
    finally:
        manager.shutdown()
        log_manager.shutdown()
        executor.shutdown()
