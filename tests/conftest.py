"""Fixtures that start real josefk brokers: in-process on a private event loop thread, on
127.0.0.1 with an ephemeral port and a temporary log dir, stopped by their own handle."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from josefk.server.broker import KafkaServer
from josefk.server.config import KafkaConfig


class RunningBroker:
    def __init__(self, log_dir: Path, overrides: dict[str, str] | None = None) -> None:
        props = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(log_dir),
                 "group.initial.rebalance.delay.ms": "0", "offsets.topic.num.partitions": "3",
                 "offsets.topic.replication.factor": "1", **(overrides or {})}
        self.config = KafkaConfig(props)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = KafkaServer(self.config)
        self.call(self.server.startup())

    def call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=30)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        self.call(self.server.shutdown())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs")
    yield running
    running.stop()


@pytest.fixture
def gbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    """A broker for group tests: short sessions allowed, a 5-partition offsets topic."""
    running = RunningBroker(tmp_path / "logs", {"group.min.session.timeout.ms": "500",
                                                "offsets.topic.num.partitions": "5"})
    yield running
    running.stop()
