"""The coordination store's contract, for the standalone broker's EmbeddedStore and, where
marked, for the host store (zk/host_store.py) that `josefk host` serves its brokers over a
Unix socket: the same calls, the same answers, watches delivered (asynchronously there, as
ZooKeeper's are)."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.mixed import wait_for
from josefk.zk.coordination_store import (
    BadVersionError,
    CoordinationStore,
    EmbeddedStore,
    Fence,
    FencedError,
    NodeExistsError,
    NoNodeError,
)
from josefk.zk.host_store import HostStoreClient, HostStoreServer


@pytest.fixture(params=["embedded", pytest.param("host", marks=pytest.mark.integration)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CoordinationStore]:
    embedded = EmbeddedStore(tmp_path / "store.json")
    if request.param == "embedded":
        yield embedded
        embedded.close()
        return
    server = HostStoreServer(embedded, tmp_path / "store.sock")
    client = HostStoreClient(tmp_path / "store.sock")
    try:
        yield client
    finally:
        client.close()
        server.close()
        embedded.close()


def seen_becomes(seen: list[str], expected: list[str]) -> None:
    """Watches of the host store arrive on their own thread: wait for them."""
    wait_for(lambda: seen == expected or None, 30, f"watch events {expected}, got {seen}")


def test_persistent_nodes_survive_reopen_and_ephemeral_do_not(tmp_path):
    store = EmbeddedStore(tmp_path / "store.json")
    store.create("/brokers/topics/t", b"{}")
    store.create("/brokers/ids/0", b"me", ephemeral=True)
    assert store.children("/brokers") == ["ids", "topics"]
    store.close()
    reopened = EmbeddedStore(tmp_path / "store.json")
    assert reopened.get("/brokers/topics/t") == (b"{}", 0)
    assert reopened.get("/brokers/ids/0") is None


def test_versioned_writes_and_watches(store: CoordinationStore) -> None:
    seen: list[str] = []
    store.watch_children("/a", seen.append)
    store.create("/a/b", b"1")
    with pytest.raises(NodeExistsError):
        store.create("/a/b")
    assert store.set("/a/b", b"2", expected_version=0) == 1
    with pytest.raises(BadVersionError):
        store.set("/a/b", b"3", expected_version=0)
    with pytest.raises(ValueError):  # not empty
        store.delete("/a")
    store.delete("/a", recursive=True)
    seen_becomes(seen, ["/a", "/a"])
    assert not store.exists("/a/b")
    with pytest.raises(NoNodeError):
        store.children("/a")
    assert store.create_sequential("/seq/n-", b"x") == "/seq/n-0000000000"
    assert store.create_sequential("/seq/n-") == "/seq/n-0000000001"
    found = store.get_with_creation_id("/seq/n-0000000000")
    assert found is not None and found[0] == b"x" and 0 < found[1] < store.create("/later")


def test_changes_are_journaled_replayed_after_a_crash_and_folded_into_snapshots(tmp_path):
    store = EmbeddedStore(tmp_path / "store.json")
    store.create("/brokers/topics/t", b"v0")
    store.set("/brokers/topics/t", b"v1")
    store.create_sequential("/isr_change_notification/isr_change_", b"x")
    store.create("/gone", b"")
    store.delete("/gone")
    ephemeral_id = store.create("/controller", b"1", ephemeral=True)
    journal = tmp_path / "store.json.journal"
    assert len(journal.read_text().splitlines()) >= 5  # one line per change, no snapshot rewrite
    with open(journal, "a") as f:
        f.write('["/torn", ["')  # a crash in the middle of a write
    crashed = EmbeddedStore(tmp_path / "store.json")  # no close(): as after kill -9
    assert crashed.get("/brokers/topics/t") == (b"v1", 1)
    assert crashed.get("/gone") is None and crashed.get("/torn") is None and crashed.get("/controller") is None
    assert crashed.create_sequential("/isr_change_notification/isr_change_") == \
        "/isr_change_notification/isr_change_0000000001"
    assert crashed.create("/next") > ephemeral_id  # creation ids only grow, ephemeral ones included

    crashed.JOURNAL_LIMIT = 4
    crashed.create("/many/0")  # the fourth and fifth lines since the reopen
    assert not journal.exists()  # folded into the snapshot
    crashed.create("/many/1")
    crashed.create("/many/2")
    assert EmbeddedStore(tmp_path / "store.json").children("/many") == ["0", "1", "2"]


def test_fenced_create_all_commits_in_one_journal_write(tmp_path, monkeypatch):
    store = EmbeddedStore(tmp_path / "store.json")
    store.create("/controller_epoch", b"1")
    fence = Fence("/controller_epoch", 0)
    store.create("/brokers/topics/t/partitions/1/state", b"old")
    fired: list[str] = []
    store.watch_data("/brokers/topics/t/partitions/0/state", fired.append)
    fsyncs: list[int] = []
    real_fsync = os.fsync

    def counted_fsync(fd: int) -> None:
        fsyncs.append(fd)
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", counted_fsync)
    nodes = [(f"/brokers/topics/t/partitions/{p}/state", b"new%d" % p) for p in range(100)]
    assert store.fenced_create_all(fence, nodes) == ["/brokers/topics/t/partitions/1/state"]
    assert len(fsyncs) == 1  # one group commit, not one fsync per node
    assert fired == ["/brokers/topics/t/partitions/0/state"]
    assert store.get("/brokers/topics/t/partitions/1/state") == (b"old", 0)  # an existing node is left alone
    crashed = EmbeddedStore(tmp_path / "store.json")  # no close(): as after kill -9
    assert crashed.get("/brokers/topics/t/partitions/99/state") == (b"new99", 0)
    assert len(crashed.children("/brokers/topics/t/partitions")) == 100
    store.set("/controller_epoch", b"2")  # another controller took over
    with pytest.raises(FencedError):
        store.fenced_create_all(fence, [("/brokers/topics/u/partitions/0/state", b"x")])
    assert not store.exists("/brokers/topics/u/partitions/0/state")


def test_create_ephemeral_and_set_applies_both_or_neither(store: CoordinationStore) -> None:
    """The controller election's step: /controller appears only with the next epoch."""
    store.create("/controller_epoch", b"0")
    with pytest.raises(BadVersionError):  # the epoch moved since it was read
        store.create_ephemeral_and_set("/controller", b"a", "/controller_epoch", b"1", 3)
    assert not store.exists("/controller") and store.get("/controller_epoch") == (b"0", 0)
    assert store.create_ephemeral_and_set("/controller", b"a", "/controller_epoch", b"1", 0) == 1
    with pytest.raises(NodeExistsError):  # another holds /controller
        store.create_ephemeral_and_set("/controller", b"b", "/controller_epoch", b"2", 1)
    assert store.get("/controller") == (b"a", 0) and store.get("/controller_epoch") == (b"1", 1)


def test_fenced_writes_apply_only_while_the_fence_holds(store: CoordinationStore) -> None:
    """tests/test_controller_fencing.py's check of ZooKeeperStore, for these stores."""
    fired: list[str] = []
    store.watch_data("/brokers/topics/t/partitions/0/state", fired.append)
    store.create("/controller_epoch", b"1")
    store.create("/brokers/topics/t/partitions/0/state", b"a")
    fence = Fence("/controller_epoch", 0)
    assert store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"b", 0) == 1
    store.fenced_create(fence, "/brokers/topics/t/partitions/1/state", b"s")
    assert store.fenced_create_all(fence, [("/brokers/topics/t/partitions/1/state", b"x"),
                                           ("/brokers/topics/t/partitions/2/state", b"y")]) == \
        ["/brokers/topics/t/partitions/1/state"]
    with pytest.raises(BadVersionError) as stale:
        store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"c", 0)
    assert not isinstance(stale.value, FencedError)
    store.set("/controller_epoch", b"2")  # a newer controller
    with pytest.raises(FencedError):
        store.fenced_set(fence, "/brokers/topics/t/partitions/0/state", b"d", 1)
    with pytest.raises(FencedError):
        store.fenced_create(fence, "/brokers/topics/t/partitions/3/state", b"")
    assert store.get("/brokers/topics/t/partitions/0/state") == (b"b", 1)
    assert store.get("/brokers/topics/t/partitions/2/state") == (b"y", 0)
    assert store.get("/brokers/topics/t/partitions/3/state") is None
    seen_becomes(fired, ["/brokers/topics/t/partitions/0/state"] * 2)  # created, then set once
