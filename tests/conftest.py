"""Fixtures that start real josefk brokers: in-process on a private event loop thread, on
127.0.0.1 with an ephemeral port and a temporary log dir, stopped by their own handle.

Every test has one kind (markers, `make unit` runs the first alone): unit (no network, no
broker: a unit test that connects a socket fails), integration (a broker and real clients),
cluster (ZooKeeper and several brokers, or Apache Kafka), spark (a SparkSession). A module
declares its kind with `pytestmark`; otherwise a test that takes a broker fixture is
integration and any other unit.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import sigterm
from harness.kafka import KRaftBroker
from harness.zookeeper import ZooKeeperServer
from josefk.server.broker import KafkaServer
from josefk.server.config import KafkaConfig
from tests.client_leaks import client_threads, leaked_since


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


@pytest.fixture(autouse=True, scope="session")
def _broker_logs_in_a_temp_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A `josefk broker` a test starts without LOG_DIR writes server.log, controller.log, ...
    into the session's temp dir, not ./logs of wherever it runs (harness brokers get their own)."""
    os.environ.setdefault("LOG_DIR", str(tmp_path_factory.mktemp("broker-logs")))


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs")
    yield running
    running.stop()


@pytest.fixture
def zookeeper() -> Iterator[ZooKeeperServer]:
    """A real ZooKeeper (Debian's), on a free port with a temporary data dir."""
    server = ZooKeeperServer()
    yield server
    server.stop()


@pytest.fixture
def gbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    """A broker for group tests: short sessions allowed, a 5-partition offsets topic."""
    running = RunningBroker(tmp_path / "logs", {"group.min.session.timeout.ms": "500",
                                                "offsets.topic.num.partitions": "5"})
    yield running
    running.stop()


@pytest.fixture(scope="session")
def kafka44() -> Iterator[KRaftBroker]:
    """Apache Kafka 4.4.0 in KRaft combined mode (node 0), one for the session: its JVM start
    takes 15-60 s. Tests share it, so each uses its own topic and group names. It runs with the
    differential suite's settings (tests/differential.py SHARED_SETTINGS, broker.id aside: the
    node id is 0), with consumer, share and streams groups enabled (harness/kafka.py)."""
    from tests.differential import SHARED_SETTINGS  # a test module like this one: imported at use

    work = Path(tempfile.mkdtemp(prefix="josefk-kafka44-"))
    settings = {k: v for k, v in SHARED_SETTINGS.items() if k != "broker.id"}
    try:
        kafka = KRaftBroker(work / "kafka", node_id=0, overrides=settings)
        yield kafka
        kafka.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    sigterm.install()


KINDS = ("unit", "integration", "cluster", "spark")
BROKER_FIXTURES = {"broker", "gbroker", "kbroker", "bootstrap", "steady", "tansu"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        declared = [kind for kind in KINDS if item.get_closest_marker(kind)]
        if len(declared) > 1:
            raise pytest.UsageError(f"{item.nodeid} has two kinds: {declared}")
        if not declared:
            fixtures = set(item.fixturenames) if isinstance(item, pytest.Function) else set()
            item.add_marker("integration" if BROKER_FIXTURES & fixtures else "unit")


@pytest.fixture(autouse=True)
def _unit_tests_stay_off_the_network(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("unit"):
        def refuse(sock: socket.socket, address: object) -> None:
            raise AssertionError(f"a unit test connected to {address}: mark it integration")
        monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.fixture(autouse=True)
def _clients_stop_with_their_test() -> Iterator[None]:
    """Set up before and torn down after the test's other function fixtures: a Kafka client
    still running then was started by the test (or one of them) and not stopped."""
    before = client_threads()
    yield
    if leaked := leaked_since(before):
        pytest.fail(f"the test left Kafka clients running: {', '.join(leaked)}", pytrace=False)
