import pytest

from josefk.replication.coordination_store import BadVersionError, EmbeddedStore, NodeExistsError


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
    seen = []
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
