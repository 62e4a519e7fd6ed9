"""ZooKeeperStore calls in flight when the connection to ZooKeeper drops wait for the
reconnection and go through, as Kafka's ZooKeeperClient retries them. Found by the
fault-injection suite: a broker whose start-up met a ZooKeeper restart exited."""

from __future__ import annotations

import asyncio
import signal
import threading

import pytest

from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.zk.zk_store import ZooKeeperStore

pytestmark = pytest.mark.cluster

SESSION_TIMEOUT_MS = 10000  # ZooKeeper's cap with 500 ms ticks


def test_a_call_in_flight_when_zookeeper_stalls_is_retried_after_the_reconnect():
    zookeeper = ZooKeeperServer(tick_ms=500)
    loop = asyncio.new_event_loop()
    store = ZooKeeperStore(zookeeper.connect, SESSION_TIMEOUT_MS, SESSION_TIMEOUT_MS, loop)
    outcome: dict[str, object] = {}

    def register() -> None:
        try:
            outcome["epoch"] = store.create("/brokers/ids/2", b"me", ephemeral=True)
        except Exception as exc:  # noqa: BLE001 - the failure this test is about
            outcome["error"] = exc

    try:
        store.create("/brokers/ids/1", b"first", ephemeral=True)
        zookeeper.proc.send_signal(signal.SIGSTOP)  # the create below stays in flight
        worker = threading.Thread(target=register)
        worker.start()
        # kazoo drops the silent connection after 2/3 of the session timeout: ConnectionLoss.
        wait_until(lambda: not store.client.connected, "kazoo drops the stalled connection", timeout=20)
        assert worker.is_alive(), outcome
        zookeeper.proc.send_signal(signal.SIGCONT)
        worker.join(30)
        assert not worker.is_alive() and "error" not in outcome, outcome
        assert store.get_with_creation_id("/brokers/ids/2") == (b"me", outcome["epoch"])
        assert store.children("/brokers/ids") == ["1", "2"]
        # SessionExpireListener's counts (the drop, the reconnect, no expiry) and
        # ZooKeeperRequestLatencyMs: four calls, the stalled one seconds long.
        stats = store.stats
        assert stats.sync_connects >= 2 and stats.disconnects >= 1 and stats.expires == 0
        assert sum(stats.latency.counts) == 4 and stats.latency.total > 1000
    finally:
        zookeeper.proc.send_signal(signal.SIGCONT)
        store.close()
        loop.close()
        zookeeper.stop()


def test_the_store_reconnects_within_seconds_of_zookeeper_coming_back():
    """After 17 s down, kazoo's default backoff (doubling to an hour) makes its next attempt
    up to ~12 s after ZooKeeper is back, past the session timeout the restored session has
    left; the store's retries stay within a second, so its session survives the outage."""
    zookeeper = ZooKeeperServer(tick_ms=500)
    loop = asyncio.new_event_loop()
    store = ZooKeeperStore(zookeeper.connect, SESSION_TIMEOUT_MS, SESSION_TIMEOUT_MS, loop)
    try:
        session = store.client.client_id
        zookeeper.stop(keep_data=True)
        wait_until(lambda: not store.client.connected, "kazoo sees ZooKeeper gone")
        threading.Event().wait(17)  # the outage itself, not a synchronisation
        zookeeper = ZooKeeperServer(tick_ms=500, port=zookeeper.port, data_dir=zookeeper.data_dir)
        wait_until(lambda: store.client.connected, "the store reconnects", timeout=40)
        assert store.client.client_id == session  # the same session: not expired in the meantime
    finally:
        store.close()
        loop.close()
        zookeeper.stop()
