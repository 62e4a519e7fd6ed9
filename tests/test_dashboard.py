"""packaging/grafana/josefk-kafka.json: every series each panel (and template variable)
queries exists on live brokers' /metrics after traffic, as Prometheus would scrape them:
two brokers on ZooKeeper replicating each other, a producer (acks=all), a consumer
group that commits. A label matched by a literal value (request="FetchFollower") must
have that value on some series."""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic
from prometheus_client.parser import text_string_to_metric_families

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.wire import wait_until
from tests.promql import Selector, selectors

DASHBOARD = Path(__file__).resolve().parent.parent / "packaging/grafana/josefk-kafka.json"
N = 200


def queries(dashboard: dict) -> Iterator[tuple[str, str]]:
    """(where, expression) of each panel's targets and each query variable."""
    for panel in dashboard["panels"]:
        for target in panel.get("targets", ()):
            yield panel["title"], target["expr"]
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]["query"]
            yield f"variable {variable['name']}", query.removeprefix("label_values(").rsplit(",", 1)[0]


def test_selectors_of_dashboard_queries() -> None:
    """The tokenizer takes metric names and matchers, not functions, keywords, label lists or ranges."""
    expr = ('sum by (topic) (rate(kafka_a_total{instance=~"$i",topic!="",request="Fetch\\"x"}[5m])) '
            '/ on (instance) group_left max without(q)(kafka_b) * 100 > bool 1e3 and time() - process_c')
    got = [(s.name, s.matchers) for s in selectors(expr)]
    assert got == [("kafka_a_total", [("instance", "=~", "$i"), ("topic", "!=", ""), ("request", "=", 'Fetch"x')]),
                   ("kafka_b", []), ("process_c", [])]


def test_every_panel_has_queries() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    graphs = [p for p in dashboard["panels"] if p["type"] != "row"]
    assert len(graphs) >= 30
    assert all(p.get("targets") and all(selectors(t["expr"]) for t in p["targets"]) for p in graphs)


def _scrape(port: int) -> dict[str, list[dict[str, str]]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    series: dict[str, list[dict[str, str]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            series.setdefault(sample.name, []).append(sample.labels)
    return series


def _missing(dashboard: dict, series: dict[str, list[dict[str, str]]]) -> list[str]:
    def found(selector: Selector) -> bool:
        literal = [(label, value) for label, op, value in selector.matchers if op == "=" and "$" not in value]
        return any(all(labels.get(label) == value for label, value in literal)
                   for labels in series.get(selector.name, ()))

    return [f"{where}: {s.name} {s.matchers}" for where, expr in queries(dashboard) for s in selectors(expr)
            if not found(s)]


@pytest.mark.cluster
def test_every_panel_metric_exists_after_traffic(zookeeper, tmp_path: Path) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    ports = [free_port(), free_port()]
    brokers = [BrokerProcess(tmp_path / f"b{i}", overrides={
        "zookeeper.connect": zookeeper.connect, "broker.id": str(i), "offsets.topic.replication.factor": "2",
        "metrics.http.listener": f"127.0.0.1:{ports[i - 1]}"}) for i in (1, 2)]
    try:
        bootstrap = brokers[0].bootstrap
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        admin.create_topics([NewTopic("dash", replica_assignments={0: [1, 2], 1: [2, 1]})])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
        for i in range(N):
            producer.send("dash", b"v%d" % i, partition=i % 2)
        producer.flush()
        producer.close()
        consumer = KafkaConsumer("dash", bootstrap_servers=bootstrap, group_id="dash-group",
                                 auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=60_000)
        got = 0
        for _ in consumer:
            got += 1
            if got == N:
                break
        consumer.commit()
        consumer.close()
        assert got == N

        def union() -> dict[str, list[dict[str, str]]]:
            merged: dict[str, list[dict[str, str]]] = {}
            for port in ports:
                for name, labels in _scrape(port).items():
                    merged.setdefault(name, []).extend(labels)
            return merged

        # Followers' fetches are answered (and counted) continuously; wait for the first.
        with contextlib.suppress(AssertionError):  # the assertion below names what is missing
            wait_until(lambda: not _missing(dashboard, union()), "every panel's series on /metrics", timeout=60)
        assert _missing(dashboard, union()) == []
    finally:
        for broker in brokers:
            broker.stop()
