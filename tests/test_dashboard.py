"""packaging/grafana/josefk-kafka.json: every series each panel (and template variable)
queries exists on live brokers' /metrics after traffic, as Prometheus would scrape them:
two brokers on ZooKeeper replicating each other, a producer (acks=all), a consumer
group that commits. A label matched by a literal value (request="FetchFollower") must
have that value on some series.

And the same through a real Prometheus: each panel's queries, Grafana's variables filled in,
return series (but for the lines docs/operations.md lists as staying empty), and chromium
draws them into docs/operations/dashboard.png, the picture in that doc."""

from __future__ import annotations

import contextlib
import json
import math
import re
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic
from prometheus_client.parser import text_string_to_metric_families

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.prometheus import BINARY as PROMETHEUS
from harness.prometheus import Prometheus
from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from tests.console_scene import BROWSER_DIR
from tests.grafana import TimeRange, builtin_values, interpolate, legend, template_values
from tests.promql import Selector, selectors
from tests.test_console import _require_browser

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "packaging/grafana/josefk-kafka.json"
OPERATIONS = ROOT / "docs/operations.md"
SCREENSHOT = ROOT / "docs/operations/dashboard.png"  # written by each run of the Prometheus test
SCRAPES, WINDOW = 25, 300  # successful scrapes of each broker to wait for, within WINDOW seconds
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


def test_grafana_variables_as_its_prometheus_data_source_writes_them() -> None:
    templating = {"list": [
        {"name": "datasource", "type": "datasource", "query": "prometheus"},
        {"name": "instance", "type": "query", "multi": True, "includeAll": True, "allValue": ".*"},
        {"name": "topic", "type": "query", "multi": True, "includeAll": True, "allValue": ".+",
         "current": {"value": ["a.b", "c"]}},
        {"name": "percentile", "type": "custom", "multi": True, "query": "0.50,0.99", "current": {"value": ["0.99"]}},
        {"name": "one", "type": "custom", "query": "x'y,z"}]}
    values = {**template_values(templating, "uid-1"), **builtin_values(TimeRange(100, 160, scrape_interval_s=2))}
    assert values == {"datasource": "uid-1", "instance": ".*", "topic": "(a\\\\.b|c)", "percentile": "0\\\\.99",
                      "one": "x\\\\'y", "__interval": "2s", "__rate_interval": "8s", "__range": "60s"}
    expr = 'rate(m{instance=~"$instance",q=~"${percentile}",t=~"[[topic]]"}[$__rate_interval]) offset $__interval'
    assert interpolate(expr, values) == 'rate(m{instance=~".*",q=~"0\\\\.99",t=~"(a\\\\.b|c)"}[8s]) offset 2s'
    with pytest.raises(KeyError):
        interpolate("m{a=~\"$nope\"}", values)
    assert TimeRange(0, 60, scrape_interval_s=15).rate_interval_s == 60  # 4 scrapes, Grafana's floor
    with pytest.raises(ValueError):  # Grafana would round a long range's interval: not modelled
        builtin_values(TimeRange(0, 86_400, scrape_interval_s=15))
    assert legend("{{topic}} {{missing}}!", {"topic": "t"}, "e") == "t !"
    assert legend(None, {"__name__": "m", "b": "2", "a": "1"}, "e") == 'm{a="1", b="2"}'
    assert legend(None, {}, "sum(m)") == "sum(m)"


def _scrape(target: str) -> dict[str, list[dict[str, str]]]:
    with urllib.request.urlopen(f"http://{target}/metrics", timeout=10) as response:
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


@dataclass(frozen=True)
class Cluster:
    bootstrap: str
    targets: list[str]  # host:port of each broker's /metrics


@contextlib.contextmanager
def two_brokers(zookeeper: ZooKeeperServer, root: Path) -> Iterator[Cluster]:
    """Two brokers on ZooKeeper replicating each other, topic `dash` (2 partitions, 2 replicas)."""
    targets = [f"127.0.0.1:{free_port()}" for _ in (1, 2)]
    brokers: list[BrokerProcess] = []
    try:
        for i in (1, 2):
            brokers.append(BrokerProcess(root / f"b{i}", output=root / f"b{i}.log", overrides={
                "zookeeper.connect": zookeeper.connect, "broker.id": str(i), "offsets.topic.replication.factor": "2",
                "group.initial.rebalance.delay.ms": "0", "metrics.http.listener": targets[i - 1]}))
        admin = KafkaAdminClient(bootstrap_servers=brokers[0].bootstrap)
        admin.create_topics([NewTopic("dash", replica_assignments={0: [1, 2], 1: [2, 1]})])
        admin.close()
        yield Cluster(brokers[0].bootstrap, targets)
    finally:
        for broker in brokers:
            broker.stop()


@pytest.mark.cluster
def test_every_panel_metric_exists_after_traffic(zookeeper, tmp_path: Path) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    with two_brokers(zookeeper, tmp_path) as cluster:
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
        for i in range(N):
            producer.send("dash", b"v%d" % i, partition=i % 2)
        producer.flush()
        producer.close()
        consumer = KafkaConsumer("dash", bootstrap_servers=cluster.bootstrap, group_id="dash-group",
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
            for target in cluster.targets:
                for name, labels in _scrape(target).items():
                    merged.setdefault(name, []).extend(labels)
            return merged

        # Followers' fetches are answered (and counted) continuously; wait for the first.
        with contextlib.suppress(AssertionError):  # the assertion below names what is missing
            wait_until(lambda: not _missing(dashboard, union()), "every panel's series on /metrics", timeout=60)
        assert _missing(dashboard, union()) == []


def _traffic(bootstrap: str, stop: threading.Event, consumed: list[int]) -> None:
    """A producer (acks=all) into `dash` and a consumer group reading it, committing as it goes."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5)
    consumer = KafkaConsumer("dash", bootstrap_servers=bootstrap, group_id="dash-group", auto_offset_reset="earliest",
                             auto_commit_interval_ms=500, fetch_max_wait_ms=100)
    try:
        i = 0
        while not stop.is_set():
            producer.send("dash", b"record %d" % i, partition=i % 2)
            consumed[0] += sum(len(batch) for batch in consumer.poll(timeout_ms=20).values())
            i += 1
    finally:
        consumer.close()
        producer.close()


def _line(panel: dict[str, Any], target: dict[str, Any]) -> str:
    """A target as the docs name it: the panel's title, and its legend when the panel has several."""
    if len(panel["targets"]) == 1:
        return panel["title"]
    return f"{panel['title']}: {target.get('legendFormat') or target['refId']}"


def empty_lines_in_doc() -> set[str]:
    """The dashboard's lines docs/operations.md names as staying empty on josefk: the list
    (`- **Panel: legend**: why`, continued on indented lines) after its paragraph that begins
    "Lines of this dashboard that stay empty"."""
    text = OPERATIONS.read_text()
    after = text[text.index("Lines of this dashboard that stay empty"):].split("\n\n", 2)[1]
    assert after.startswith("- "), f"no list after the empty lines' paragraph in {OPERATIONS}"
    return set(re.findall(r"^- \*\*(.+?)\*\*", after, flags=re.MULTILINE))


def _drawn(model: dict[str, Any], root: Path) -> dict[str, Any]:
    """What tests/browser/dashboard.mjs drew in chromium; the screenshot goes to SCREENSHOT."""
    spec_model = root / "model.json"
    spec_model.write_text(json.dumps(model))
    spec = {"model": str(spec_model), "screenshot": str(SCREENSHOT), "timeoutMs": 90_000}
    done = subprocess.run(["node", str(BROWSER_DIR / "dashboard.mjs"), json.dumps(spec)], cwd=BROWSER_DIR,
                          capture_output=True, text=True, timeout=180)
    if done.returncode:
        raise RuntimeError(f"the browser script failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


@pytest.mark.cluster
def test_every_panel_draws_from_a_real_prometheus(zookeeper, tmp_path: Path) -> None:
    """Debian's Prometheus scrapes both brokers every second while a producer and a group run;
    each panel's queries, with Grafana's variables substituted, return series through its HTTP
    API, and chromium draws them (docs/operations/dashboard.png)."""
    _require_browser()
    if not Path(PROMETHEUS).exists():
        pytest.fail(f"{PROMETHEUS} not found: apt-get install -y prometheus (.ci/run does this)", pytrace=False)
    dashboard = json.loads(DASHBOARD.read_text())
    listed_empty = empty_lines_in_doc()
    stop, consumed = threading.Event(), [0]
    with two_brokers(zookeeper, tmp_path) as cluster:
        traffic = threading.Thread(target=_traffic, args=(cluster.bootstrap, stop, consumed))
        traffic.start()
        prometheus = None
        try:
            wait_until(lambda: consumed[0] > 0, "the group consumes", timeout=60)
            prometheus = Prometheus(tmp_path / "prometheus", cluster.targets, scrape_interval_s=1)
            start = time.time()
            # Enough successful scrapes of each broker for rates over $__rate_interval (4 s).
            def scraped() -> list[float]:
                return [s.points[0][1] for s in prometheus.query(f"sum_over_time(up[{WINDOW}s])")]

            wait_until(lambda: len(got := scraped()) == 2 and min(got) >= SCRAPES,
                       f"{SCRAPES} scrapes of each broker", timeout=120)
            end = time.time()
            version = prometheus.version()
            time_range = TimeRange(start, end, prometheus.scrape_interval_s)
            values = {**template_values(dashboard["templating"], "prometheus"), **builtin_values(time_range)}
            assert prometheus.label_values("instance", "kafka_server_replicamanager_leadercount") \
                == sorted(cluster.targets)
            assert "dash" in prometheus.label_values("topic", interpolate(
                'kafka_log_log_size{instance=~"$instance"}', values))
            panels: list[dict[str, Any]] = []
            empty: set[str] = set()
            for panel in dashboard["panels"]:
                drawn = {"type": panel["type"], "title": panel["title"], "gridPos": panel["gridPos"],
                         "unit": panel.get("fieldConfig", {}).get("defaults", {}).get("unit"), "series": []}
                for target in panel.get("targets", ()):
                    expr = interpolate(target["expr"], values)
                    found = prometheus.query_range(expr, start, end, time_range.interval_s)
                    if not found:
                        empty.add(_line(panel, target))
                    drawn["series"] += [{"name": legend(target.get("legendFormat"), s.labels, expr),
                                         "points": [(t, v if math.isfinite(v) else None) for t, v in s.points]}
                                        for s in found]
                panels.append(drawn)
        finally:
            stop.set()
            traffic.join(60)
            if prometheus is not None:
                prometheus.stop()
    assert empty == listed_empty

    note = (f"packaging/grafana/josefk-kafka.json, {end - start:.0f} s of Prometheus {version} scraping two josefk "
            f"brokers every {time_range.scrape_interval_s} s under a producer and a consumer group; drawn by "
            "tests/browser/dashboard.js, not Grafana")
    seen = _drawn({"title": dashboard["title"], "note": note, "start": start, "end": end, "panels": panels},
                  tmp_path)
    assert seen["errors"] == []
    for panel in panels:
        if panel["type"] == "timeseries":
            finite = [s for s in panel["series"] if any(v is not None for _, v in s["points"])]
            assert seen["drawn"][panel["title"]] == {"lines": len(finite)}, panel["title"]
    stats = {title: shown["value"] for title, shown in seen["drawn"].items() if "value" in shown}
    assert stats["Brokers online"] == "2" and stats["Active controllers"] == "1", stats
    # A fetch waits per consumer or follower and broker it fetches from: a handful, not a pile of
    # completed fetches still watched on idle partitions.
    purgatories = next(p for p in panels if p["title"] == "Purgatories")["series"]
    waiting = next(s for s in purgatories if s["name"] == "Fetch waiting")
    assert max(v for _, v in waiting["points"] if v is not None) <= 10, waiting
    assert SCREENSHOT.read_bytes().startswith(b"\x89PNG")
