"""The host store's sessions (zk/host_store.py): a connection owns the ephemeral nodes it
created, as a ZooKeeper session does, and a watch fires across processes. The contract
shared with EmbeddedStore is in tests/test_coordination_store.py."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.mixed import wait_for
from josefk.zk.coordination_store import EmbeddedStore, NodeExistsError
from josefk.zk.host_store import HostStoreClient, HostStoreServer, StoreConnectionLost

pytestmark = pytest.mark.integration

# A broker's side in another process: registers, watches /x, reports each event on stdout.
OTHER_PROCESS = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from josefk.zk.host_store import HostStoreClient
    store = HostStoreClient(Path(sys.argv[1]))
    store.create("/brokers/ids/1", b"me", ephemeral=True)
    store.watch_data("/x", lambda path: print("fired", path, store.get(path)[0].decode(), flush=True))
    print("ready", flush=True)
    sys.stdin.read()  # until the test closes stdin or kills this process
    store.close()
""")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[EmbeddedStore, Path]]:
    store = EmbeddedStore(tmp_path / "store.json")
    server = HostStoreServer(store, tmp_path / "host.sock")
    yield store, tmp_path / "host.sock"
    server.close()
    store.close()


def test_ephemeral_nodes_go_with_their_connection_and_persistent_ones_stay(served: tuple[EmbeddedStore, Path]) -> None:
    store, socket_path = served
    first, second = HostStoreClient(socket_path), HostStoreClient(socket_path)
    try:
        changes: list[str] = []
        second.watch_children("/brokers/ids", changes.append)
        first.create("/brokers/ids/1", b"a", ephemeral=True)
        first.create("/brokers/topics/t", b"{}")
        with pytest.raises(NodeExistsError):  # taken while its owner lives
            second.create("/brokers/ids/1", b"b", ephemeral=True)
        wait_for(lambda: changes == ["/brokers/ids"] or None, 30, "the registration's watch event")
        first.close()
        wait_for(lambda: changes == ["/brokers/ids"] * 2 or None, 30, "the watch event of the session's end")
        assert second.get("/brokers/ids/1") is None
        assert second.get("/brokers/topics/t") == (b"{}", 0)
        second.create("/brokers/ids/1", b"b", ephemeral=True)  # free again
        assert store.get("/brokers/ids/1") == (b"b", 0)
    finally:
        second.close()
    assert store.get("/brokers/ids/1") is None


def test_a_watch_fires_in_another_process_and_its_kill_ends_its_session(served: tuple[EmbeddedStore, Path]) -> None:
    store, socket_path = served
    other = subprocess.Popen([sys.executable, "-c", OTHER_PROCESS, str(socket_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    client = HostStoreClient(socket_path)
    try:
        assert other.stdout is not None
        assert other.stdout.readline() == "ready\n"
        assert client.get("/brokers/ids/1") == (b"me", 0)
        gone: list[str] = []
        client.watch_data("/brokers/ids/1", gone.append)
        client.create("/x", b"1")
        assert other.stdout.readline() == "fired /x 1\n"
        client.set("/x", b"2")
        assert other.stdout.readline() == "fired /x 2\n"
        other.kill()  # kill -9: no close(), the kernel closes its socket
        other.wait()
        wait_for(lambda: gone == ["/brokers/ids/1"] or None, 30, "the killed process's registration to go")
        assert client.get("/brokers/ids/1") is None
    finally:
        other.kill()
        other.wait()
        other.stdout.close()  # type: ignore[union-attr]
        other.stdin.close()  # type: ignore[union-attr]
        client.close()


def test_a_client_hears_when_the_host_store_goes(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store.json")
    server = HostStoreServer(store, tmp_path / "host.sock")
    lost: list[bool] = []
    client = HostStoreClient(tmp_path / "host.sock", on_lost=lambda: lost.append(True))
    try:
        client.create("/a")
        server.close()
        store.close()
        wait_for(lambda: lost or None, 30, "on_lost")
        with pytest.raises(StoreConnectionLost):
            client.get("/a")
    finally:
        client.close()
