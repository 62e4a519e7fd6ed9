"""A josefk broker with topics, records and a consumer group, and `josefk console` in front of
it, looked at through Debian's chromium (tests/browser/console.mjs, Playwright).

tests/test_console.py asserts on what the browser saw; `make console-screenshots` runs this
module to write docs/console/*.png from the same scene.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.structs import OffsetAndMetadata

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.process import ServerProcess
from josefk.console.auth import hash_password

ROOT = Path(__file__).resolve().parent.parent
BROWSER_DIR = ROOT / "tests" / "browser"
PER_PARTITION = 10
COMMITTED = {0: 4, 1: 10, 2: 7}  # kitchen's offsets on orders: lag 6 + 0 + 3
BINARY = b"\x00\x01\xfe\xff"
HOSTILE = "<script>document.title='pwned'</script>"
PAYMENT_TIMES = (1_700_000_000_000, 1_700_003_600_000)  # 2023-11-14 22:13:20 and 23:13:20 UTC
PAGES = {"overview": "/", "topics": "/topics", "topic": "/topics/orders",
         "messages": "/topics/orders/messages?partition=1&offset=0&limit=5",
         "messages-hex": "/topics/payments/messages?partition=0&offset=0&format=hex",
         "messages-text": "/topics/payments/messages?partition=0&offset=0",
         "groups": "/groups", "group": "/groups/kitchen", "group-empty": "/groups/billing",
         "search-key": "/topics/orders/search?q=ORDER-1-7&field=key",
         "search-value": "/topics/orders/search?q=%22qty%22%3A+3&field=value&partition=2",
         "search-from": "/topics/payments/search?from=2023-11-14T22%3A30%3A00",
         "search-to": "/topics/payments/search?q=note&to=2023-11-14T22%3A30%3A00"}
SCREENSHOTS = ("overview", "topics", "topic", "messages", "search-value", "groups", "group")
USER, PASSWORD = "operator", "correct horse battery staple"
NEW_TOPIC_CONFIGS = "retention.ms=3600000\ncleanup.policy=compact"
FUTURE_MS = 4_102_444_800_000  # 2100-01-01: no record is that new, so the reset goes to the log end
# The console's actions, in order, as tests/browser/console-actions.mjs performs them; each
# step's page is what tests/test_console_actions.py checks.
ACTIONS: list[dict[str, Any]] = [
    {"name": "create-exists", "goto": "/topics", "form": "create-topic", "fields": {"name": "orders"},
     "screenshot": "create-topic.png"},
    {"name": "create-invalid", "form": "create-topic", "fields": {"name": "bad name"}},
    {"name": "create", "form": "create-topic",
     "fields": {"name": "audit", "partitions": 2, "replication_factor": 1, "configs": NEW_TOPIC_CONFIGS}},
    {"name": "config-invalid", "form": "alter-config", "fields": {"config": "retention.ms", "value": "abc"}},
    {"name": "config-set", "form": "alter-config", "fields": {"config": "retention.ms", "value": "1000"},
     "screenshot": "topic-actions.png"},
    {"name": "config-delete", "form": "alter-config", "fields": {"config": "cleanup.policy", "op": "delete"}},
    {"name": "delete-unconfirmed", "form": "delete-topic", "fields": {"confirm": "orders"}},
    {"name": "delete", "form": "delete-topic", "fields": {"confirm": "audit"}},
    {"name": "produce", "goto": "/topics/orders/messages?partition=2", "form": "produce",
     "fields": {"partition": "2", "key": "order-2-new", "value": '{"id": 99, "item": "soup"}',
                "headers": "source=console\ntrace=7f3a"}, "screenshot": "produce.png"},
    {"name": "produce-any", "form": "produce", "fields": {"partition": "", "key": "", "value": "no key"}},
    {"name": "reset-active", "goto": "/groups/kitchen", "form": "reset-offsets", "fields": {"mode": "earliest"}},
    {"name": "reset-latest", "goto": "/groups/billing", "form": "reset-offsets", "fields": {"mode": "latest"}},
    {"name": "reset-earliest", "form": "reset-offsets", "fields": {"mode": "earliest"}},
    {"name": "reset-offset", "form": "reset-offsets", "fields": {"mode": "offset", "value": 1},
     "screenshot": "reset-offsets.png"},
    {"name": "reset-timestamp-future", "form": "reset-offsets", "fields": {"mode": "timestamp", "value": FUTURE_MS}},
    {"name": "reset-timestamp-zero", "form": "reset-offsets", "fields": {"mode": "timestamp", "value": 0}},
    {"name": "reset-timestamp", "form": "reset-offsets", "fields": {"mode": "timestamp", "value": PAYMENT_TIMES[1]}},
]


def order(partition: int, i: int) -> tuple[bytes, bytes]:
    return f"order-{partition}-{i}".encode(), json.dumps({"id": i, "item": "pizza", "qty": 1 + i % 3}).encode()


@dataclass
class Scene:
    broker: BrokerProcess
    console: ServerProcess
    metrics_port: int
    group: KafkaConsumer
    stop_traffic: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.console.port}"


def populate(bootstrap: str) -> KafkaConsumer:
    """Topics orders (3 partitions), payments and clicks; 10 orders per partition, a binary and a
    hostile payment; group `kitchen` with a live member and COMMITTED offsets on orders, and group
    `billing` with an offset on payments and no members."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic("orders", 3, 1, topic_configs={"retention.ms": "86400000"}),
                         # payments' records carry 2023 timestamps: kept past the default 7-day retention,
                         # which Kafka (and josefk) would apply to them at the first retention check
                         NewTopic("payments", 1, 1, topic_configs={"retention.ms": "-1"}), NewTopic("clicks", 2, 1)])
    admin.close()
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    for p in range(3):
        for i in range(PER_PARTITION):
            key, value = order(p, i)
            producer.send("orders", key=key, value=value, partition=p, headers=[("source", b"web")])
    producer.send("payments", key=b"card", value=BINARY, partition=0, timestamp_ms=PAYMENT_TIMES[0])
    producer.send("payments", key=b"note", value=HOSTILE.encode(), partition=0, headers=[("<b>h</b>", b"<i>")],
                  timestamp_ms=PAYMENT_TIMES[1])
    producer.flush()
    producer.close()
    consumer = KafkaConsumer("orders", bootstrap_servers=bootstrap, group_id="kitchen", enable_auto_commit=False,
                             client_id="kitchen-1")
    while len(consumer.assignment()) < 3:
        consumer.poll(timeout_ms=200)
    consumer.commit({TopicPartition("orders", p): OffsetAndMetadata(o, "", -1) for p, o in COMMITTED.items()})
    billing = KafkaConsumer(bootstrap_servers=bootstrap, group_id="billing", enable_auto_commit=False)
    billing.commit({TopicPartition("payments", 0): OffsetAndMetadata(1, "", -1)})  # no members: Empty
    billing.close(autocommit=False)
    return consumer


def _traffic(bootstrap: str, stop: threading.Event) -> None:
    """Records into clicks and a reader of them, for the charts' bytes in and out."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    reader = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100)
    reader.assign([TopicPartition("clicks", 0), TopicPartition("clicks", 1)])
    i = 0
    while not stop.is_set():
        producer.send("clicks", value=b"click %d from a browser session" % i)
        reader.poll(timeout_ms=20)
        i += 1
    reader.close()
    producer.close()


@contextmanager
def console_process(bootstrap: str, root: Path, *flags: str) -> Iterator[ServerProcess]:
    """`josefk console` for `bootstrap` on a free port, its output in root/console.log."""
    port = free_port()
    console = ServerProcess([sys.executable, "-m", "josefk", "console", "--bootstrap-server", bootstrap,
                             "--listen", f"127.0.0.1:{port}", *flags],
                            "127.0.0.1", port, output=root / "console.log", what="josefk console")
    try:
        yield console
    finally:
        console.stop()


@contextmanager
def scene(root: Path, *console_flags: str) -> Iterator[Scene]:
    metrics_port = free_port()
    broker = BrokerProcess(root / "logs", output=root / "broker.log", overrides={
        "metrics.http.listener": f"127.0.0.1:{metrics_port}", "group.initial.rebalance.delay.ms": "0",
        "offsets.topic.num.partitions": "3", "offsets.topic.replication.factor": "1"})
    group = traffic = None
    stop = threading.Event()
    try:
        group = populate(broker.bootstrap)
        with console_process(broker.bootstrap, root, "--metrics-url", f"http://127.0.0.1:{metrics_port}/metrics",
                             "--chart-interval-ms", "300", *console_flags) as console:
            traffic = threading.Thread(target=_traffic, args=(broker.bootstrap, stop), daemon=True)
            traffic.start()
            yield Scene(broker, console, metrics_port, group, stop)
    finally:
        stop.set()
        if traffic is not None:
            traffic.join(30)
        if group is not None:
            group.close(autocommit=False)
        broker.stop()


def browse(url: str, pages: dict[str, str], charts: str | None = "/charts", screenshots: Path | None = None,
           chart_points: int = 3, timeout_ms: int = 60_000) -> dict[str, Any]:
    """What chromium saw on each page (tests/browser/console.mjs's JSON); the charts page is read
    once its messages chart has `chart_points` points and traffic in them."""
    spec = {"base": url, "pages": pages, "charts": charts, "chartPoints": chart_points, "timeoutMs": timeout_ms,
            "screenshots": str(screenshots) if screenshots else None}
    done = subprocess.run(["node", str(BROWSER_DIR / "console.mjs"), json.dumps(spec)], cwd=BROWSER_DIR,
                          capture_output=True, text=True, timeout=timeout_ms / 1000 * (len(pages) + 2))
    if done.returncode:
        raise RuntimeError(f"the browser script failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";')
# admin (a super user) grants alice the right to create topics and see those named by-*
ACL_ADD: list[dict[str, Any]] = [
    {"name": "acls-empty", "goto": "/acls"},
    {"name": "acl-invalid", "form": "create-acl", "fields": {"principal": "alice", "resource_name": "x"}},
    {"name": "acl-create", "form": "create-acl",
     "fields": {"principal": "User:alice", "operation": "CREATE", "resource_type": "CLUSTER",
                "resource_name": "kafka-cluster"}},
    {"name": "acl-describe", "form": "create-acl",
     "fields": {"principal": "User:alice", "operation": "DESCRIBE", "resource_type": "TOPIC", "resource_name": "by-",
                "pattern_type": "PREFIXED"}, "screenshot": "acls.png"},
]


def sasl_broker(root: Path) -> tuple[BrokerProcess, int]:
    """A broker with the ACL authorizer, PLAIN users admin (a super user) and alice on a
    SASL_PLAINTEXT listener; the caller stops it. Returns it and the SASL port."""
    plain, sasl = free_port(), free_port()
    broker = BrokerProcess(root / "logs", port=plain, output=root / "broker.log", overrides={
        "listeners": f"PLAINTEXT://127.0.0.1:{plain},SASL_PLAINTEXT://127.0.0.1:{sasl}",
        "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer", "super.users": "User:admin",
        "sasl.enabled.mechanisms": "PLAIN", "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS,
        "offsets.topic.replication.factor": "1"})
    return broker, sasl


@contextmanager
def sasl_console(sasl_port: int, root: Path, user: str) -> Iterator[str]:
    """A console with --users-file that reaches the cluster over SASL/PLAIN as `user`; its URL."""
    (root / user).mkdir()
    config = root / f"{user}.properties"
    config.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                      "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                      f'username="{user}" password="{user}-secret";\n')
    with console_process(f"127.0.0.1:{sasl_port}", root / user, "--users-file", str(users_file(root)),
                         "--command-config", str(config)) as console:
        yield f"http://127.0.0.1:{console.port}"


def users_file(root: Path) -> Path:
    """A --users-file holding USER with PASSWORD's scrypt hash."""
    path = root / "console-users"
    path.write_text(f"# the console's users\n{hash_password(USER, PASSWORD)}\n")
    return path


def act(url: str, steps: list[dict[str, Any]], user: str | None, password: str | None,
        screenshots: Path | None = None, timeout_ms: int = 60_000) -> dict[str, Any]:
    """What chromium saw after each step of tests/browser/console-actions.mjs (logged in as `user`)."""
    spec = {"base": url, "steps": steps, "user": user, "password": password, "timeoutMs": timeout_ms,
            "screenshots": str(screenshots) if screenshots else None}
    done = subprocess.run(["node", str(BROWSER_DIR / "console-actions.mjs"), json.dumps(spec)], cwd=BROWSER_DIR,
                          capture_output=True, text=True, timeout=timeout_ms / 1000 * (len(steps) + 2))
    if done.returncode:
        raise RuntimeError(f"the browser script failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)


def main(argv: list[str]) -> int:
    """`make console-screenshots`: the scene's pages as PNGs in the given folder."""
    out = Path(argv[0] if argv else "docs/console").resolve()
    out.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="josefk-console-"))
    try:
        with scene(root) as running:
            seen = browse(running.url, {name: PAGES[name] for name in SCREENSHOTS}, screenshots=out, chart_points=40)
        (root / "actions").mkdir()
        with scene(root / "actions", "--users-file", str(users_file(root))) as running:
            acted = act(running.url, ACTIONS, USER, PASSWORD, screenshots=out)
        seen["errors"] += acted["errors"]
        (root / "acls").mkdir()
        broker, sasl = sasl_broker(root / "acls")
        try:
            with sasl_console(sasl, root / "acls", "admin") as url:
                seen["errors"] += act(url, ACL_ADD, USER, PASSWORD, screenshots=out)["errors"]
        finally:
            broker.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"wrote {', '.join(sorted(p.name for p in out.glob('*.png')))} to {out}"
          + (f"; page errors: {seen['errors']}" if seen["errors"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
