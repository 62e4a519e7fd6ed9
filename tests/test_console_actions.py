"""The console's actions in a real browser: a logged-in user creates, edits and deletes a topic,
produces a record and resets a group's offsets through the forms (tests/browser/console-actions.mjs),
and sees Kafka's own refusals; a request without the user's credentials or CSRF token changes nothing."""

from __future__ import annotations

import base64
import contextlib
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from kafka import KafkaAdminClient

from tests.console_scene import (
    ACL_ADD,
    ACTIONS,
    PASSWORD,
    PER_PARTITION,
    USER,
    act,
    console_process,
    sasl_broker,
    sasl_console,
    scene,
    users_file,
)
from tests.test_console import _column, _require_browser

pytestmark = pytest.mark.integration


def _configs(page: dict) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in page["tables"]["configs"]["rows"]}


def _billing(page: dict) -> list[str]:
    return _column(page["tables"]["offsets"], "Committed offset")


def test_a_logged_in_user_acts_on_the_cluster_through_the_forms(tmp_path: Path) -> None:
    _require_browser()
    with scene(tmp_path, "--users-file", str(users_file(tmp_path))) as running:
        seen = act(running.url, ACTIONS, USER, PASSWORD)
        admin = KafkaAdminClient(bootstrap_servers=running.broker.bootstrap)
        try:
            topics = set(admin.list_topics())
        finally:
            admin.close()
    assert "audit" not in topics and "bad name" not in topics
    check_actions(seen)


def check_actions(seen: dict) -> None:
    """What the pages after each of ACTIONS' steps must show, on josefk and on Kafka alike."""
    steps = seen["steps"]
    assert seen["errors"] == []
    assert steps["create-exists"]["forms"] == ["create-topic"]

    # 1. create and delete a topic, with Kafka's errors
    exists = steps["create-exists"]
    assert (exists["status"], exists["error"]) == (409, "Topic 'orders' already exists.")
    assert steps["create-invalid"]["error"] == ("Topic name is invalid: 'bad name' contains one or more characters "
                                                "other than ASCII alphanumerics, '.', '_' and '-'")
    created = steps["create"]
    assert (created["status"], created["path"], created["notice"]) == (200, "/topics/audit", "Created topic 'audit'.")
    assert _column(created["tables"]["partitions"], "Partition") == ["0", "1"]
    assert _configs(created)["retention.ms"] == ["3600000", "DYNAMIC_TOPIC_CONFIG"]
    assert _configs(created)["cleanup.policy"] == ["compact", "DYNAMIC_TOPIC_CONFIG"]
    assert steps["delete-unconfirmed"]["error"] == "Type the topic's name, audit, to delete it"
    deleted = steps["delete"]
    assert (deleted["path"], deleted["notice"]) == ("/topics", "Deleted topic 'audit'.")
    assert not any(name.startswith("audit") for name in _column(deleted["tables"]["topics"], "Topic"))

    # 2. edit a topic's configs (IncrementalAlterConfigs), with Kafka's validation error
    assert steps["config-invalid"]["error"] == ("Invalid config value for resource ConfigResource(type=TOPIC, "
                                                "name='audit'): Invalid value abc for configuration retention.ms: "
                                                "Not a number of type LONG")
    assert _configs(steps["config-invalid"])["retention.ms"] == ["3600000", "DYNAMIC_TOPIC_CONFIG"]
    assert _configs(steps["config-set"])["retention.ms"] == ["1000", "DYNAMIC_TOPIC_CONFIG"]
    assert steps["config-set"]["notice"] == "Set retention.ms=1000 on topic 'audit'."
    assert _configs(steps["config-delete"])["cleanup.policy"] == ["delete", "DEFAULT_CONFIG"]

    # 3. produce a record with a key, headers and a partition, and see it in the messages view
    produced = steps["produce"]
    assert produced["notice"] == f"Produced a record to orders-2 at offset {PER_PARTITION}."
    assert produced["range"].startswith(f"Partition 2: log from offset 0 to {PER_PARTITION + 1};")
    row = produced["tables"]["records"]["rows"][0]  # headers: one div each, read as one text
    assert [row[0], *row[2:]] == [str(PER_PARTITION), "order-2-new", '{"id": 99, "item": "soup"}',
                                  "source: consoletrace: 7f3a"]
    anywhere = re.fullmatch(r"Produced a record to orders-(\d) at offset (\d+)\.", steps["produce-any"]["notice"])
    assert anywhere is not None
    last = steps["produce-any"]["tables"]["records"]["rows"][0]
    assert (last[0], last[2], last[3]) == (anywhere.group(2), "null", "no key")

    # 4. reset a group's offsets: refused while it has members, done while it is empty
    assert (steps["reset-active"]["status"], steps["reset-active"]["error"]) == (
        409, "Assignments can only be reset if the group 'kitchen' is inactive, but the current state is Stable.")
    assert steps["reset-active"]["stats"]["state"] == "Stable"
    assert _billing(steps["reset-latest"]) == ["2"]
    assert steps["reset-latest"]["notice"] == "Reset the offsets of group 'billing' to latest: payments-0: 2."
    assert _billing(steps["reset-earliest"]) == ["0"]
    assert _billing(steps["reset-offset"]) == ["1"]
    assert _billing(steps["reset-timestamp-future"]) == ["2"]
    assert _billing(steps["reset-timestamp-zero"]) == ["0"]
    assert _billing(steps["reset-timestamp"]) == ["1"]  # the first record at or after the note's timestamp


def _request(url: str, data: bytes | None = None, user: str | None = None, password: str = "") -> tuple[int, dict]:
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if user is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers)


def test_without_credentials_and_token_nothing_changes(tmp_path: Path) -> None:
    create = b"name=sneaky&partitions=1&replication_factor=1&configs="
    with scene(tmp_path, "--users-file", str(users_file(tmp_path))) as running:
        url = running.url
        status, headers = _request(url + "/topics")
        assert status == 401 and headers["WWW-Authenticate"] == 'Basic realm="josefk console", charset="UTF-8"'
        assert _request(url + "/topics", user=USER, password="wrong")[0] == 401
        assert _request(url + "/topics", user=USER, password=PASSWORD)[0] == 200
        assert _request(url + "/topics/create", create)[0] == 401  # anonymous
        assert _request(url + "/topics/create", create, USER, "wrong")[0] == 401
        assert _request(url + "/topics/create", create, USER, PASSWORD)[0] == 403  # no CSRF token
        assert _request(url + "/topics/create", create + b"&csrf=" + b"0" * 64, USER, PASSWORD)[0] == 403
        (tmp_path / "read-only").mkdir()
        with console_process(running.broker.bootstrap, tmp_path / "read-only") as read_only:  # no --users-file
            read_only_url = f"http://127.0.0.1:{read_only.port}"
            assert _request(read_only_url + "/topics")[0] == 200  # open to all, and no actions
            assert _request(read_only_url + "/topics/create", create)[0] == 403
            with urllib.request.urlopen(read_only_url + "/topics", timeout=30) as page:
                assert "create-topic" not in page.read().decode()
        admin = KafkaAdminClient(bootstrap_servers=running.broker.bootstrap)
        try:
            assert "sneaky" not in admin.list_topics()
        finally:
            admin.close()


def _create_topic(url: str, name: str) -> tuple[int, str]:
    """POST the create form as a logged-in user would, with the token the topics page carries."""
    auth = {"Authorization": "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()}
    with urllib.request.urlopen(urllib.request.Request(url + "/topics", headers=auth), timeout=30) as page:
        token = re.search(r'name="csrf" value="(\w+)"', page.read().decode())
    assert token is not None
    form = f"csrf={token.group(1)}&name={name}&partitions=1&replication_factor=1&configs=".encode()
    request = urllib.request.Request(url + "/topics/create", data=form, method="POST", headers={
        **auth, "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


ACL_ROWS = [["User:alice", "*", "CREATE", "ALLOW", "CLUSTER", "kafka-cluster", "LITERAL", "Delete"],
            ["User:alice", "*", "DESCRIBE", "ALLOW", "TOPIC", "by-", "PREFIXED", "Delete"]]


def test_the_console_acts_on_the_cluster_as_its_own_sasl_user(tmp_path: Path) -> None:
    """--command-config: the console connects with SASL/PLAIN, so the cluster's ACLs decide what
    its actions may do; admin (a super user) grants and revokes alice's through the ACL page."""
    _require_browser()
    broker, sasl = sasl_broker(tmp_path)
    try:
        with contextlib.ExitStack() as stack:
            url = {user: stack.enter_context(sasl_console(sasl, tmp_path, user)) for user in ("alice", "admin")}
            status, page = _create_topic(url["alice"], "by-alice")
            assert status == 409 and 'id="action-error">Authorization failed.</p>' in page, page
            status, page = _create_topic(url["admin"], "by-admin")
            assert status == 200 and "Created topic &#x27;by-admin&#x27;." in page, page

            added = act(url["admin"], ACL_ADD, USER, PASSWORD)
            assert added["errors"] == []
            steps = added["steps"]
            assert steps["acls-empty"]["tables"]["acls"]["rows"] == []
            assert steps["acl-invalid"]["error"] == "A principal is TYPE:NAME, e.g. User:alice, not 'alice'"
            assert steps["acl-create"]["tables"]["acls"]["rows"] == ACL_ROWS[:1]
            assert steps["acl-describe"]["tables"]["acls"]["rows"] == ACL_ROWS
            assert steps["acl-create"]["notice"] == (
                "Added (principal=User:alice, host=*, operation=CREATE, permissionType=ALLOW) on "
                "ResourcePattern(resourceType=CLUSTER, name=kafka-cluster, patternType=LITERAL).")
            status, page = _create_topic(url["alice"], "by-alice")  # the ACLs let alice create and see it
            assert status == 200 and "Created topic &#x27;by-alice&#x27;." in page, page

            removed = act(url["admin"], [{"name": "acl-delete", "goto": "/acls", "form": "delete-acl-0"}],
                          USER, PASSWORD)["steps"]["acl-delete"]
            assert removed["tables"]["acls"]["rows"] == ACL_ROWS[1:]
            assert removed["notice"].startswith("Deleted (principal=User:alice, host=*, operation=CREATE,")
            status, page = _create_topic(url["alice"], "by-alice-again")
            assert status == 409 and "Authorization failed." in page
        admin = KafkaAdminClient(bootstrap_servers=f"127.0.0.1:{sasl}", security_protocol="SASL_PLAINTEXT",
                                 sasl_mechanism="PLAIN", sasl_plain_username="admin",
                                 sasl_plain_password="admin-secret")
        try:
            assert set(admin.list_topics()) == {"by-admin", "by-alice"}
        finally:
            admin.close()
    finally:
        broker.stop()
