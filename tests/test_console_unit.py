"""The console without a cluster: routing, escaping, metrics parsing and the command line.
A stand-in Cluster returns fixed dicts in the shapes cluster.py returns."""

from __future__ import annotations

import json
from typing import Any

import pytest

from josefk.console import pages
from josefk.console.cluster import NotFound, Search, decode_bytes
from josefk.console.metrics import MetricsScraper, parse
from josefk.console.server import Console
from josefk.main import main as josefk

pytestmark = pytest.mark.unit

EVIL = "<img src=x onerror=alert(1)>"
METRICS = """\
# TYPE kafka_server_brokertopicmetrics_messagesin_total counter
kafka_server_brokertopicmetrics_messagesin_total 42.0
kafka_server_brokertopicmetrics_messagesin_total{topic="orders"} 40.0
# TYPE kafka_server_brokertopicmetrics_bytesin_total counter
kafka_server_brokertopicmetrics_bytesin_total 4200.0
# TYPE kafka_server_brokertopicmetrics_bytesout_total counter
kafka_server_brokertopicmetrics_bytesout_total 8400.0
# TYPE kafka_network_requestmetrics_totaltimems histogram
kafka_network_requestmetrics_totaltimems_bucket{request="Produce",le="+Inf"} 4.0
kafka_network_requestmetrics_totaltimems_sum{request="Produce"} 10.0
kafka_network_requestmetrics_totaltimems_count{request="Produce"} 4.0
"""


class FixedCluster:
    def overview(self) -> dict[str, Any]:
        return {"cluster_id": "c1", "controller_id": 2, "topic_count": 1, "partition_count": 1,
                "under_replicated": 1, "offline": 0,
                "brokers": [{"id": 2, "host": "h", "port": 9092, "rack": EVIL}]}

    def topics(self) -> dict[str, Any]:
        return {"sizes_available": True, "topics": [{"name": "a.b", "internal": False, "partitions": 1,
                                                      "replication_factor": 3, "under_replicated": 1,
                                                      "size": 3 * 1024 * 1024}]}

    def topic(self, name: str) -> dict[str, Any]:
        if name != "a.b":
            raise NotFound(f"Topic '{name}' does not exist")
        return {"name": name, "internal": False, "configs": None,
                "partitions": [{"partition": 0, "leader": -1, "replicas": [1, 2, 3], "isr": [1],
                                "offline_replicas": [], "start_offset": 0, "end_offset": 5}]}

    def messages(self, topic: str, partition: int, offset: int | None, limit: int) -> dict[str, Any]:
        record = {"offset": 3, "timestamp": 0, "timestamp_type": 0, "key": decode_bytes(b"\xff"),
                  "value": decode_bytes(EVIL.encode()), "headers": [{"key": EVIL, "value": None}]}
        return {"topic": topic, "partition": partition, "partitions": [0], "start_offset": 0, "end_offset": 5,
                "from_offset": 3 if offset is None else offset, "requested_offset": offset, "limit": limit,
                "records": [record]}

    def at_risk(self) -> dict[str, Any]:
        return {"live_brokers": [1, 2], "partitions": [
            {"topic": EVIL, "partition": 0, "leader": -1, "replicas": [3], "isr": [], "out_of_sync": [3],
             "offline": True, "under_replicated": True},
            {"topic": "a.b", "partition": 1, "leader": 1, "replicas": [1, 3], "isr": [1], "out_of_sync": [3],
             "offline": False, "under_replicated": True}]}

    def search(self, topic: str, query: Search) -> dict[str, Any]:
        raise NotImplementedError("no page test searches")

    def acls(self) -> dict[str, Any]:
        raise NotImplementedError("no page test lists ACLs")

    def groups(self) -> dict[str, Any]:
        return {"groups": [{"group_id": EVIL, "protocol_type": "consumer", "state": "Empty", "members": 0,
                            "assignor": ""}]}

    def group(self, group_id: str) -> dict[str, Any]:
        return {"group_id": group_id, "state": "Empty", "protocol_type": "consumer", "assignor": "",
                "members": [], "total_lag": 2,
                "offsets": [{"topic": "a.b", "partition": 0, "committed": 3, "end_offset": 5, "lag": 2,
                             "member_id": None, "client_id": None}]}


def console(urls: list[str] | None = None) -> Console:
    return Console(FixedCluster(), MetricsScraper(urls or [], get=lambda url: METRICS, clock=lambda: 100.0),
                   "h:9092", 1000)


@pytest.mark.parametrize("path", ["/", "/topics", "/partitions", "/topics/a.b", "/topics/a.b/messages", "/groups",
                                  "/groups/x", "/charts"])
def test_pages_render_with_cluster_text_escaped(path: str) -> None:
    status, kind, body = console().handle(path)
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert EVIL not in body.decode()
    text = body.decode()
    if path in ("/", "/topics/a.b/messages", "/groups"):
        assert "&lt;img src=x onerror=alert(1)&gt;" in text


def test_json_twins_carry_the_cluster_data_as_read() -> None:
    c = console()
    assert json.loads(c.handle("/api/cluster")[2]) == FixedCluster().overview()
    assert json.loads(c.handle("/api/topics/a.b/messages?partition=0&offset=3&limit=7")[2])["limit"] == 7
    assert json.loads(c.handle("/api/groups/a%2Fb")[2])["group_id"] == "a/b"  # ids may hold a slash


def test_errors_answer_with_a_status_and_a_message() -> None:
    c = console()
    status, _, body = c.handle("/api/topics/nope")
    assert (status, json.loads(body)) == (404, {"error": "Topic 'nope' does not exist"})
    assert c.handle("/topics/nope")[0] == 404
    assert c.handle("/api/topics/a.b/messages?limit=ten")[0] == 400
    assert c.handle("/topics/a.b/messages?format=base64")[0] == 400
    assert json.loads(c.handle("/api/topics/a.b/search?from=yesterday")[2]) == {
        "error": "from must be a date-time (YYYY-MM-DDTHH:MM[:SS], UTC) or epoch ms, not 'yesterday'"}
    assert c.handle("/api/topics/a.b/search?field=headers")[0] == 400
    assert c.handle("/no/such/page")[0] == 404
    assert c.handle("/api/charts")[0] == 404
    assert c.handle("/static/console.css")[:2] == (200, "text/css; charset=utf-8")
    assert c.handle("/static/charts.js")[0] == 200
    assert c.handle("/static/..%2Fserver.py")[0] == 404
    assert c.handle("/static/..%2Fstatic%2Fconsole.css")[0] == 404


def test_a_failing_read_is_one_failed_request(caplog) -> None:
    import kafka.errors as Errors

    class Broken(FixedCluster):
        def groups(self) -> dict[str, Any]:
            raise Errors.KafkaConnectionError("111 ECONNREFUSED")

        def topics(self) -> dict[str, Any]:
            raise KeyError("partitions")

    c = Console(Broken(), MetricsScraper([]), "h:9092", 1000)
    status, _, body = c.handle("/api/groups")
    assert (status, json.loads(body)) == (502, {"error": "KafkaConnectionError: 111 ECONNREFUSED"})
    status, _, body = c.handle("/api/topics")
    assert (status, json.loads(body)) == (500, {"error": "KeyError: 'partitions'"})
    assert "GET /api/topics failed" in caplog.text
    assert c.handle("/")[0] == 200


def test_topic_page_marks_missing_leader_and_short_isr() -> None:
    text = console().handle("/topics/a.b")[2].decode()
    assert '<span class="bad">none</span>' in text and '<span class="bad">1</span>' in text
    assert "do not answer DescribeConfigs" in text


def test_bytes_are_text_when_printable_else_hex() -> None:
    assert decode_bytes(b"caf\xc3\xa9") == {"text": "café", "hex": "63 61 66 c3 a9", "size": 5}
    for data in (b"\x00\x01", b"\xff"):
        decoded = decode_bytes(data)
        assert decoded is not None and decoded["text"] is None
    assert decode_bytes(None) is None
    assert pages.human_bytes(3 * 1024 * 1024) == "3.0 MiB" and pages.human_bytes(None) == "-"


def test_metrics_parse_takes_all_topic_totals_and_request_times() -> None:
    totals = parse(METRICS)
    assert (totals["messages_in"], totals["bytes_in"], totals["bytes_out"]) == (42.0, 4200.0, 8400.0)
    assert totals["requests"] == {"Produce": {"sum_ms": 10.0, "count": 4.0}}


def test_an_unreachable_metrics_url_is_reported_not_raised() -> None:
    def refuse(url: str) -> str:
        raise ConnectionRefusedError(111, "Connection refused")

    scraper = MetricsScraper(["http://a/metrics"], get=refuse, clock=lambda: 5.0)
    reading = scraper.scrape()
    scraper.close()
    assert reading["time"] == 5.0 and reading["brokers"][0]["ok"] is False


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: --bootstrap-server"),
    (["--bootstrap-server", "h:1", "--listen", "nowhere"], "expected HOST:PORT, got 'nowhere'"),
    (["--bootstrap-server", "h:1", "--metrics-url", "ftp://x"], "expected http://HOST:PORT/metrics"),
    (["--bootstrap-server", "h:1", "--chart-interval-ms", "5"], "--chart-interval-ms must be at least 100"),
    (["--bootstrap-server", "h:1", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_flags_print_one_line_and_exit_2(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        josefk(["console", *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err and err.count("\n") == 1


def test_users_file_holds_scrypt_hashes_that_basic_credentials_must_match(tmp_path) -> None:
    import base64

    from josefk.console.auth import Auth, UsersFileError, hash_password, load_users

    line = hash_password("ada", "s3cret:with colon")
    assert line.startswith("ada:scrypt:16384:8:1:") and "s3cret" not in line
    path = tmp_path / "users"
    path.write_text(f"# comment\n\n{line}\n")
    auth = Auth(load_users(str(path)), secret=b"k" * 32)

    def basic(text: str) -> str:
        return "Basic " + base64.b64encode(text.encode()).decode()

    assert auth.user(basic("ada:s3cret:with colon")) == "ada"
    assert auth.user(basic("ada:s3cret")) is None
    assert auth.user(basic("bob:s3cret:with colon")) is None
    assert auth.user("Basic !!!") is None and auth.user("Bearer x") is None and auth.user(None) is None
    assert auth.csrf_ok("ada", auth.csrf_token("ada")) and not auth.csrf_ok("ada", auth.csrf_token("bob"))
    assert not Auth(None).enabled and Auth(None).user(basic("ada:s3cret:with colon")) is None
    path.write_text("ada:plain:secret\n")
    with pytest.raises(UsersFileError, match="line 1: expected NAME:scrypt:N:r:p:SALT:HASH"):
        load_users(str(path))
    path.write_text("# nobody\n")
    with pytest.raises(UsersFileError, match="has no users"):
        load_users(str(path))


def test_action_forms_only_for_a_logged_in_user_of_a_console_that_acts() -> None:
    from josefk.console.forms import Session

    read_only = console().handle("/topics/a.b")[2].decode()
    assert 'method="post"' not in read_only
    session = Session("ada", "tok<en>")
    acting = console().handle("/topics/a.b", session)[2].decode()
    assert acting.count('method="post"') == 2 and 'name="csrf" value="tok&lt;en&gt;"' in acting
    assert "Logged in as <b>ada</b>" in acting
    noticed = console().handle("/groups/x?done=%3Cb%3Edone%3C/b%3E", session)[2].decode()
    assert '<p class="notice" id="notice">&lt;b&gt;done&lt;/b&gt;</p>' in noticed


def test_at_risk_page_lists_offline_and_under_replicated_partitions() -> None:
    text = console().handle("/partitions")[2].decode()
    assert "live: 1, 2" in text and '<span class="bad">none</span>' in text
    assert "<td>offline, under-replicated</td>" in text and "<td>under-replicated</td>" in text
    overview = console().handle("/")[2].decode()  # 1 under-replicated: a link to the list, 0 offline: none
    assert '<a href="/partitions">1</a>' in overview and '<a href="/partitions">0</a>' not in overview
