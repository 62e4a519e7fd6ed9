"""`josefk console` against three josefk brokers coordinated through a real ZooKeeper: every
broker listed with the elected controller, replicas and ISR per partition, and a stopped broker
seen as under-replicated partitions."""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.admin import NewTopic

from harness.net import free_port
from harness.process import ServerProcess
from harness.zookeeper import ZooKeeperServer
from tests.console_scene import browse
from tests.test_cluster import Cluster
from tests.test_console import _column, _require_browser

pytestmark = pytest.mark.cluster


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def test_console_shows_a_three_broker_cluster_and_a_lost_broker(tmp_path: Path) -> None:
    _require_browser()
    zk = ZooKeeperServer()
    cluster = console = None
    try:
        cluster = Cluster(zk, tmp_path)
        cluster.create_topic(NewTopic("replicated", 3, 3))
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
        for i in range(30):
            producer.send("replicated", value=b"r%d" % i, partition=i % 3)
        producer.flush()
        producer.close()
        port = free_port()
        console = ServerProcess([sys.executable, "-m", "josefk", "console", "--bootstrap-server", cluster.bootstrap,
                                 "--listen", f"127.0.0.1:{port}"], "127.0.0.1", port,
                                output=tmp_path / "console.log", what="josefk console")
        url = f"http://127.0.0.1:{port}"

        seen = browse(url, {"overview": "/", "topic": "/topics/replicated"}, charts=None)
        overview = seen["pages"]["overview"]
        brokers = overview["tables"]["brokers"]["rows"]
        assert [row[:2] for row in brokers] == [[str(i), cluster.brokers[i].bootstrap] for i in (1, 2, 3)]
        controller = cluster.controller()
        assert overview["stats"]["controller"] == str(controller)
        assert [row[3] for row in brokers] == ["controller" if i == controller else "" for i in (1, 2, 3)]
        parts = seen["pages"]["topic"]["tables"]["partitions"]
        assert all(sorted(r.split(", ")) == ["1", "2", "3"] for r in _column(parts, "Replicas"))
        assert all(sorted(r.split(", ")) == ["1", "2", "3"] for r in _column(parts, "ISR"))
        assert _column(parts, "Log end offset") == ["10"] * 3

        victim = next(i for i in (1, 2, 3) if i != controller)
        cluster.brokers[victim].stop()
        deadline = time.monotonic() + 60
        while True:
            state = _get(url + "/api/cluster")
            if len(state["brokers"]) == 2 and state["under_replicated"] >= 3:
                break
            assert time.monotonic() < deadline, f"the console never saw broker {victim} go: {state}"
            time.sleep(0.5)
        assert state["offline"] == 0  # two replicas of three are left to lead
        topic = _get(url + "/api/topics/replicated")
        assert all(victim not in p["isr"] and p["leader"] != victim for p in topic["partitions"])
    finally:
        if console is not None:
            console.stop()
        if cluster is not None:
            cluster.stop()
        zk.stop()
