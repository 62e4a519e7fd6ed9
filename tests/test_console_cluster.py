"""`josefk console` against three josefk brokers coordinated through a real ZooKeeper (every
broker listed with the elected controller, replicas and ISR per partition, and a stopped broker
seen as under-replicated partitions), and against Apache Kafka 3.9 itself, which also answers
DescribeLogDirs (topic sizes)."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from pathlib import Path

import pytest
from kafka import KafkaProducer
from kafka.admin import NewTopic

from harness.kafka import KafkaBroker
from harness.zookeeper import ZooKeeperServer
from tests.console_scene import (
    ACTIONS,
    COMMITTED,
    PASSWORD,
    PER_PARTITION,
    USER,
    act,
    browse,
    console_process,
    order,
    populate,
    users_file,
)
from tests.test_cluster import Cluster
from tests.test_console import _column, _require_browser
from tests.test_console_actions import check_actions

pytestmark = pytest.mark.cluster


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def test_console_shows_a_three_broker_cluster_and_a_lost_broker(tmp_path: Path) -> None:
    _require_browser()
    with contextlib.ExitStack() as stack:
        zk = ZooKeeperServer()
        stack.callback(zk.stop)
        cluster = Cluster(zk, tmp_path)
        stack.callback(cluster.stop)
        cluster.create_topic(NewTopic("replicated", 3, 3))
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
        for i in range(30):
            producer.send("replicated", value=b"r%d" % i, partition=i % 3)
        producer.flush()
        producer.close()
        console = stack.enter_context(console_process(cluster.bootstrap, tmp_path))
        url = f"http://127.0.0.1:{console.port}"

        seen = browse(url, {"overview": "/", "topic": "/topics/replicated", "at-risk": "/partitions"}, charts=None)
        assert seen["pages"]["at-risk"]["tables"]["at-risk"]["rows"] == []
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
        at_risk = browse(url, {"at-risk": "/partitions"}, charts=None)["pages"]["at-risk"]["tables"]["at-risk"]
        replicated = [row for row in at_risk["rows"] if row[0] == "replicated"]
        assert [row[1] for row in replicated] == ["0", "1", "2"]
        assert all(row[5] == str(victim) and row[6] == "under-replicated" for row in replicated), at_risk


def test_console_reads_apache_kafka_as_it_reads_josefk(tmp_path: Path) -> None:
    """The same scene as tests/test_console.py, on Kafka 3.9.2: the console is only a client."""
    _require_browser()
    with contextlib.ExitStack() as stack:
        zk = ZooKeeperServer()
        stack.callback(zk.stop)
        kafka = KafkaBroker(tmp_path / "kafka", zk.connect, broker_id=1,
                            overrides={"offsets.topic.num.partitions": "3"})
        stack.callback(kafka.stop)
        group = populate(kafka.bootstrap)
        stack.callback(group.close, autocommit=False)
        console = stack.enter_context(console_process(kafka.bootstrap, tmp_path))
        pages = browse(f"http://127.0.0.1:{console.port}",
                       {"overview": "/", "topics": "/topics", "topic": "/topics/orders",
                        "messages": "/topics/orders/messages?partition=1&offset=0&limit=5",
                        "group": "/groups/kitchen"}, charts=None)["pages"]
    assert pages["overview"]["tables"]["brokers"]["rows"] == [["1", kafka.bootstrap, "-", "controller"]]
    topics = {row[0]: row for row in pages["topics"]["tables"]["topics"]["rows"]}
    assert topics["orders"][1] == "3"
    assert topics["orders"][4].endswith("KiB") or topics["orders"][4].endswith(" B")  # DescribeLogDirs answered
    assert _column(pages["topic"]["tables"]["partitions"], "Log end offset") == [str(PER_PARTITION)] * 3
    configs = {row[0]: row[1:] for row in pages["topic"]["tables"]["configs"]["rows"]}
    assert configs["retention.ms"] == ["86400000", "DYNAMIC_TOPIC_CONFIG"]
    records = pages["messages"]["tables"]["records"]["rows"]
    assert [row[2:4] for row in records] == [[order(1, i)[0].decode(), order(1, i)[1].decode()] for i in range(5)]
    offsets = pages["group"]["tables"]["offsets"]["rows"]
    assert [row[4] for row in offsets] == [str(PER_PARTITION - COMMITTED[p]) for p in sorted(COMMITTED)]


def test_console_actions_on_apache_kafka_as_on_josefk(tmp_path: Path) -> None:
    """The same forms, filled the same way, on Kafka 3.9.2: the same pages and Kafka's own errors."""
    _require_browser()
    with contextlib.ExitStack() as stack:
        zk = ZooKeeperServer()
        stack.callback(zk.stop)
        kafka = KafkaBroker(tmp_path / "kafka", zk.connect, broker_id=1,
                            overrides={"offsets.topic.num.partitions": "3", "group.initial.rebalance.delay.ms": "0"})
        stack.callback(kafka.stop)
        group = populate(kafka.bootstrap)
        stack.callback(group.close, autocommit=False)
        console = stack.enter_context(console_process(kafka.bootstrap, tmp_path, "--users-file",
                                                      str(users_file(tmp_path))))
        seen = act(f"http://127.0.0.1:{console.port}", ACTIONS, USER, PASSWORD)
    check_actions(seen)
