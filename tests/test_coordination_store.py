import os

import pytest

from josefk.zk.coordination_store import BadVersionError, EmbeddedStore, Fence, FencedError, NodeExistsError


def test_persistent_nodes_survive_reopen_and_ephemeral_do_not(tmp_path):
    store = EmbeddedStore(tmp_path / "store.json")
    store.create("/brokers/topics/t", b"{}")
    store.create("/brokers/ids/0", b"me", ephemeral=True)
    assert store.children("/brokers") == ["ids", "topics"]
    store.close()
    reopened = EmbeddedStore(tmp_path / "store.json")
    assert reopened.get("/brokers/topics/t") == (b"{}", 0)
    assert reopened.get("/brokers/ids/0") is None


def test_versioned_writes_and_watches(tmp_path):
    store = EmbeddedStore(tmp_path / "store.json")
    seen: list[str] = []
    store.watch_children("/a", seen.append)
    store.create("/a/b", b"1")
    with pytest.raises(NodeExistsError):
        store.create("/a/b")
    assert store.set("/a/b", b"2", expected_version=0) == 1
    with pytest.raises(BadVersionError):
        store.set("/a/b", b"3", expected_version=0)
    store.delete("/a", recursive=True)
    assert seen == ["/a", "/a"]
    assert not store.exists("/a/b")


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


def test_create_ephemeral_and_set_applies_both_or_neither(tmp_path):
    """The controller election's step: /controller appears only with the next epoch."""
    store = EmbeddedStore(tmp_path / "store.json")
    store.create("/controller_epoch", b"0")
    with pytest.raises(BadVersionError):  # the epoch moved since it was read
        store.create_ephemeral_and_set("/controller", b"a", "/controller_epoch", b"1", 3)
    assert not store.exists("/controller") and store.get("/controller_epoch") == (b"0", 0)
    assert store.create_ephemeral_and_set("/controller", b"a", "/controller_epoch", b"1", 0) == 1
    with pytest.raises(NodeExistsError):  # another holds /controller
        store.create_ephemeral_and_set("/controller", b"b", "/controller_epoch", b"2", 1)
    assert store.get("/controller") == (b"a", 0) and store.get("/controller_epoch") == (b"1", 1)
