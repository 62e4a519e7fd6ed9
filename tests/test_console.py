"""`josefk console` in a real browser: a josefk broker with metrics on, topics, records and a
consumer group with lag; the console as its own process; Debian's chromium (Playwright) opens
every page, and what it shows is checked against what the scene put in the cluster."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.console_scene import BINARY, BROWSER_DIR, COMMITTED, HOSTILE, PAGES, PER_PARTITION, browse, order, scene
from tests.prerequisites import require_files

pytestmark = pytest.mark.integration


def _require_browser() -> None:
    if not Path("/usr/bin/chromium").exists() or shutil.which("node") is None:
        pytest.fail("chromium or node not found: apt-get install -y chromium (.ci/run does this)", pytrace=False)
    require_files(BROWSER_DIR / "node_modules", ["playwright-core"], "make browser-env (npm ci in tests/browser)")


def _column(table: dict, name: str) -> list[str]:
    i = table["headers"].index(name)
    return [row[i] for row in table["rows"]]


def test_every_page_shows_what_is_in_the_cluster(tmp_path: Path) -> None:
    _require_browser()
    with scene(tmp_path) as running:
        seen = browse(running.url, PAGES)
        broker_port = running.broker.port
    pages = seen["pages"]
    assert seen["errors"] == []  # no script error, no alert from a record's value
    assert all(page["status"] == 200 for page in pages.values()), {n: p["status"] for n, p in pages.items()}

    overview = pages["overview"]
    assert overview["tables"]["brokers"]["rows"] == [["0", f"127.0.0.1:{broker_port}", "-", "controller"]]
    assert overview["stats"] == {"brokers": "1", "controller": "0", "topics": "4", "partitions": "9",
                                 "under-replicated": "0", "offline": "0"}

    topics = pages["topics"]["tables"]["topics"]
    listed = dict(zip(_column(topics, "Topic"), _column(topics, "Partitions"), strict=True))
    assert listed == {"__consumer_offsets internal": "3", "clicks": "2", "orders": "3", "payments": "1"}
    # sizes from DescribeLogDirs, summed over the replicas: every topic has records
    assert all(re.fullmatch(r"[\d.]+ (B|KiB|MiB)", size) for size in _column(topics, "Size")), topics

    topic = pages["topic"]
    assert topic["heading"] == "Topic orders"
    parts = topic["tables"]["partitions"]
    assert _column(parts, "Partition") == ["0", "1", "2"]
    assert set(_column(parts, "Leader")) == set(_column(parts, "ISR")) == {"0"}
    assert _column(parts, "Log end offset") == [str(PER_PARTITION)] * 3
    configs = {row[0]: row[1:] for row in topic["tables"]["configs"]["rows"]}
    assert configs["retention.ms"] == ["86400000", "DYNAMIC_TOPIC_CONFIG"]
    assert configs["cleanup.policy"] == ["delete", "DEFAULT_CONFIG"]

    records = pages["messages"]["tables"]["records"]
    assert _column(records, "Offset") == ["0", "1", "2", "3", "4"]
    assert [row[2:5] for row in records["rows"]] == [
        [order(1, i)[0].decode(), order(1, i)[1].decode(), "source: web"] for i in range(5)]
    assert pages["messages"]["range"] == "Partition 1: log from offset 0 to 10; 5 records from offset 0."

    payments = pages["messages-hex"]["tables"]["records"]
    assert _column(payments, "Key") == [b"card".hex(" "), b"note".hex(" ")]
    assert _column(payments, "Value")[0] == BINARY.hex(" ")
    shown = pages["messages-text"]
    assert _column(shown["tables"]["records"], "Value") == [BINARY.hex(" "), HOSTILE]  # text, never run
    assert _column(shown["tables"]["records"], "Headers")[1] == "<b>h</b>: <i>"
    assert shown["title"] == "Messages in payments - josefk console" and shown["scripts"] == 0

    # search: by key (any case), by value in one partition, by time range (payments' explicit timestamps)
    assert [[row[0], row[1], row[3]] for row in pages["search-key"]["tables"]["matches"]["rows"]] == [
        ["1", "7", order(1, 7)[0].decode()]]
    by_value = pages["search-value"]["tables"]["matches"]["rows"]
    assert [(row[0], row[1], row[4]) for row in by_value] == [("2", str(i), order(2, i)[1].decode()) for i in (2, 5, 8)]
    assert pages["search-value"]["range"] == "3 matching records in the 10 records read."
    assert _column(pages["search-from"]["tables"]["matches"], "Key") == ["note"]
    assert _column(pages["search-from"]["tables"]["matches"], "Timestamp") == ["2023-11-14 23:13:20.000 UTC"]
    assert pages["search-from"]["range"] == "1 matching records in the 1 records read."
    assert pages["search-to"]["tables"]["matches"]["rows"] == []

    groups = pages["groups"]["tables"]["groups"]
    assert groups["rows"] == [["billing", "Empty", "0", "-", "-"], ["kitchen", "Stable", "1", "consumer", "range"]]
    group = pages["group"]
    lag = {p: PER_PARTITION - o for p, o in COMMITTED.items()}
    assert group["stats"]["lag"] == str(sum(lag.values())) and group["stats"]["state"] == "Stable"
    offsets = group["tables"]["offsets"]
    assert [row[:5] for row in offsets["rows"]] == [
        ["orders", str(p), str(COMMITTED[p]), str(PER_PARTITION), str(lag[p])] for p in sorted(COMMITTED)]
    empty = pages["group-empty"]
    assert empty["tables"]["members"]["rows"] == [] and empty["stats"]["state"] == "Empty"
    assert [row[:5] for row in empty["tables"]["offsets"]["rows"]] == [["payments", "0", "1", "2", "1"]]
    members = group["tables"]["members"]["rows"]
    assert len(members) == 1 and members[0][1] == "kitchen-1" and members[0][3] == "orders: 0, 1, 2"

    charts = seen["charts"]  # the scene produces and consumes while the page polls
    assert charts["messages"]["points"] >= 3 and charts["messages"]["max"] > 0
    assert charts["messages"]["polylines"] == [charts["messages"]["points"]]
    assert charts["bytes"]["max"] > 0 and len(charts["bytes"]["polylines"]) == 2
    assert "Produce" in charts["latency"]["legend"]
    # the scene's reader long-polls (fetch.max.wait.ms 100): Kafka calls its requests FetchConsumer
    assert charts["latency"]["seriesMax"]["Fetch (consumer)"] > 0, charts["latency"]


def test_json_endpoints_answer_what_the_pages_show(tmp_path: Path) -> None:
    """The /api/ twins, fetched without a browser: same data, and errors as JSON with a status."""
    import urllib.error
    import urllib.request

    def get(path: str) -> tuple[int, dict]:
        try:
            with urllib.request.urlopen(running.url + path, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    with scene(tmp_path) as running:
        status, cluster = get("/api/cluster")
        assert status == 200 and [b["port"] for b in cluster["brokers"]] == [running.broker.port]
        status, messages = get("/api/topics/orders/messages?partition=2&offset=7&limit=100")
        assert [r["offset"] for r in messages["records"]] == [7, 8, 9]
        assert messages["records"][0]["key"]["text"] == order(2, 7)[0].decode()
        status, latest = get("/api/topics/orders/messages?partition=0&limit=4")  # no offset: the last 4
        assert latest["from_offset"] == PER_PARTITION - 4 and len(latest["records"]) == 4
        status, group = get("/api/groups/kitchen")
        assert group["total_lag"] == sum(PER_PARTITION - o for o in COMMITTED.values())
        assert get("/api/topics/missing") == (404, {"error": "Topic 'missing' does not exist"})
        assert get("/api/topics/orders/messages?partition=7")[0] == 404
        assert get("/api/topics/orders/messages?offset=x") == (400, {"error": "offset must be a whole number, "
                                                                               "not 'x'"})
        assert get("/api/groups/nobody")[0] == 404
        assert get("/api/acls") == (200, {"authorizer": False, "acls": []})  # no authorizer.class.name
        status, metrics = get("/api/metrics")
        assert status == 200 and metrics["brokers"][0]["ok"] and metrics["brokers"][0]["messages_in"] > 0
