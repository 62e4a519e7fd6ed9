"""The Kafka-style tools, run as a user would (`josefk topics ...`) against a real josefk broker."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaProducer

from harness.josefk import BrokerProcess
from harness.net import free_port
from harness.tcp_proxy import TcpProxy
from harness.wire import wait_until
from tests.prerequisites import require_module

ROOT = Path(__file__).resolve().parents[1]
JOSEFK = str(Path(sys.executable).with_name("josefk"))
DEAD = "127.0.0.1:1"  # nothing listens on port 1
FAST_FAIL = "default.api.timeout.ms=2000"


def _stop(proc: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="module")
def bootstrap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A josefk broker on a free port with its own log dir, stopped by its own handle."""
    port = free_port()
    tmp = tmp_path_factory.mktemp("broker")
    log = open(tmp / "broker.log", "wb")
    cmd = [JOSEFK, "broker", str(ROOT / "config" / "server.properties"),
         "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}", "--override", f"log.dirs={tmp / 'logs'}"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"broker exited with {proc.returncode}: {(tmp / 'broker.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("broker did not start listening within 30 s")
                time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        _stop(proc)
        log.close()


def run(*args: str, stdin: str | None = None, timeout: float = 60, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    """Run `josefk <args>` and capture its output."""
    return subprocess.run([JOSEFK, *args], input=stdin, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def topic_name() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


def create(bootstrap: str, topic: str, *extra: str) -> None:
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic, *extra)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"Created topic {topic}.\n"


def produce(bootstrap: str, topic: str, lines: list[str], *extra: str) -> None:
    r = run("console-producer", "--bootstrap-server", bootstrap, "--topic", topic, *extra,
            stdin="".join(f"{line}\n" for line in lines))
    assert r.returncode == 0, r.stderr


# ------------------------------------------------------------------ topics


def test_topics_create_list_describe_delete(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic, "--partitions", "3", "--replication-factor", "1", "--config", "retention.ms=60000")
    listed = run("topics", "--bootstrap-server", bootstrap, "--list")
    assert listed.returncode == 0 and topic in listed.stdout.splitlines()

    r = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", topic)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert re.fullmatch(rf"Topic: {topic}\tTopicId: [A-Za-z0-9_-]{{22}}\tPartitionCount: 3\t"
                        r"ReplicationFactor: 1\tConfigs: .*retention\.ms=60000.*", lines[0]), lines[0]
    assert lines[1:] == [f"\tTopic: {topic}\tPartition: {p}\tLeader: 0\tReplicas: 0\tIsr: 0\tElr: \t"
                         "LastKnownElr: " for p in range(3)]

    overrides = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topics-with-overrides")
    assert any(line.startswith(f"Topic: {topic}\t") for line in overrides.stdout.splitlines())
    assert "\tPartition: " not in overrides.stdout
    healthy = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", topic,
                  "--under-replicated-partitions")
    assert (healthy.returncode, healthy.stdout) == (0, "")
    healthy = run("topics", "--bootstrap-server", bootstrap, "--describe", "--unavailable-partitions")
    assert (healthy.returncode, healthy.stdout) == (0, "")

    r = run("topics", "--bootstrap-server", bootstrap, "--delete", "--topic", topic)
    assert r.returncode == 0, r.stderr
    deadline = time.monotonic() + 10
    while topic in run("topics", "--bootstrap-server", bootstrap, "--list").stdout.split():
        assert time.monotonic() < deadline, "topic still listed after delete"
        time.sleep(0.2)


def test_topics_regex_and_alter(bootstrap: str) -> None:
    prefix = topic_name()
    for suffix in ("a", "b"):
        create(bootstrap, f"{prefix}.{suffix}", "--partitions", "1")
    r = run("topics", "--bootstrap-server", bootstrap, "--list", "--topic", f"{prefix}\\..*")
    assert r.stdout.splitlines() == [f"{prefix}.a", f"{prefix}.b"]
    r = run("topics", "--bootstrap-server", bootstrap, "--alter", "--topic", f"{prefix}.a", "--partitions", "2")
    assert r.returncode == 0, r.stderr
    r = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", f"{prefix}.a")
    assert "PartitionCount: 2" in r.stdout
    r = run("topics", "--bootstrap-server", bootstrap, "--alter", "--topic", f"{prefix}.a", "--partitions", "1")
    assert r.returncode == 1
    assert r.stderr.startswith("Error while executing topic command : ")


def test_topics_existing_topic(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic)
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic)
    assert r.returncode == 1
    assert r.stderr == f"Error while executing topic command : Topic '{topic}' already exists.\n"
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--if-not-exists")
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


@pytest.mark.parametrize("action", ["--describe", "--delete", "--alter"])
def test_topics_missing_topic(bootstrap: str, action: str) -> None:
    extra = ["--partitions", "4"] if action == "--alter" else []
    r = run("topics", "--bootstrap-server", bootstrap, action, "--topic", "no-such-topic", *extra)
    assert r.returncode == 1
    assert r.stderr == "Error while executing topic command : Topic 'no-such-topic' does not exist as expected\n"
    r = run("topics", "--bootstrap-server", bootstrap, action, "--topic", "no-such-topic", "--if-exists", *extra)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_topics_invalid_config_and_name(bootstrap: str) -> None:
    topic = topic_name()
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--config", "retention.ms=abc")
    assert r.returncode == 1
    assert r.stderr.startswith("Error while executing topic command : Invalid value abc for configuration "
                               "retention.ms"), r.stderr
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", "bad name")
    assert r.returncode == 1
    assert "Topic name \"bad name\" is illegal" in r.stderr


def test_topics_bad_flags() -> None:
    r = run("topics", "--bootstrap-server", DEAD, "--list", "--lisst")
    assert r.returncode == 2 and "unrecognized arguments: --lisst" in r.stderr
    r = run("topics", "--bootstrap-server", DEAD, "--create")
    assert r.returncode == 2 and 'Missing required argument "[topic]"' in r.stderr
    r = run("topics", "--list")
    assert r.returncode == 2 and "--bootstrap-server" in r.stderr
    assert run("topics", "--help").returncode == 0


def test_unreachable_broker_fails_fast(tmp_path: Path) -> None:
    config = tmp_path / "admin.properties"
    config.write_text(f"{FAST_FAIL}\n")
    procs: list[subprocess.Popen[str]] = []
    for args in (["topics", "--bootstrap-server", DEAD, "--list", "--command-config", str(config)],
                 ["configs", "--bootstrap-server", DEAD, "--describe", "--topic", "x", "--command-config", str(config)],
                 ["console-producer", "--bootstrap-server", DEAD, "--topic", "x", "--producer-property",
                  "max.block.ms=2000"],
                 ["console-consumer", "--bootstrap-server", DEAD, "--topic", "x", "--consumer-property",
                  FAST_FAIL]):
        procs.append(subprocess.Popen([JOSEFK, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    for proc in procs:  # side by side; each gives up after its 2 s bound, the 30 s wait is only a backstop
        _, err = proc.communicate(timeout=30)
        assert proc.returncode != 0, proc.args
        assert f"could not connect to the broker at {DEAD}" in err, (proc.args, err)


def test_default_unreachable_timeout_is_bounded() -> None:
    """The tool gives up by itself (after its 10 s default) instead of retrying forever."""
    r = run("topics", "--bootstrap-server", DEAD, "--list", timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("Error while executing topic command : ") and DEAD in r.stderr


# ------------------------------------------------------------------ console tools


def test_console_round_trip_with_keys_and_metadata(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic, "--partitions", "1")
    produce(bootstrap, topic, ["k1:v1", "k2:v2"], "--property", "parse.key=true", "--property", "key.separator=:")
    produce(bootstrap, topic, ["h1:a,h2:b\tk3\tv3"], "--property", "parse.key=true",
            "--property", "parse.headers=true", "--compression-codec", "gzip")
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--from-beginning",
            "--max-messages", "3", "--timeout-ms", "10000",
            *[a for p in ("key", "partition", "offset", "headers", "timestamp")
              for a in ("--property", f"print.{p}=true")])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(r"CreateTime:\d+\tPartition:0\tOffset:0\tNO_HEADERS\tk1\tv1", lines[0]), lines[0]
    assert lines[2].endswith("\tPartition:0\tOffset:2\th1:a,h2:b\tk3\tv3")
    assert "Processed a total of 3 messages" in r.stderr


def test_console_consumer_partition_offset_and_timeout(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic, "--partitions", "1")
    produce(bootstrap, topic, [f"m{i}" for i in range(5)])
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--partition", "0",
            "--offset", "3", "--timeout-ms", "1500")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "m3\nm4\n"
    assert "Processed a total of 2 messages" in r.stderr
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--offset", "3")
    assert r.returncode == 2 and "The partition is required when offset is specified." in r.stderr


def test_console_consumer_group(bootstrap: str) -> None:
    topic, group = topic_name(), f"g-{uuid.uuid4().hex[:6]}"
    create(bootstrap, topic, "--partitions", "2")
    produce(bootstrap, topic, ["a", "b", "c"])
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--group", group,
            "--from-beginning", "--max-messages", "3", "--timeout-ms", "15000")
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == ["a", "b", "c"]


@pytest.mark.integration
def test_console_consumer_group_takes_the_partition_its_topic_gains(tmp_path: Path) -> None:
    """Over a slow link (each answer 0.3 s late), a partition added to the topic makes the
    member rejoin for the new metadata, and it then reads that partition. kafka-python
    3.0.12 forgets a rebalance whose SyncGroup answer comes after poll() returned; the tool
    polled 200 ms at a time, and that member kept no partitions (as on a loaded machine)."""
    port = free_port()
    proxy = TcpProxy("127.0.0.1", port, answer_delay=0.3)
    broker = BrokerProcess(tmp_path / "logs", port=port,
                           overrides={"advertised.listeners": f"PLAINTEXT://{proxy.address}"})
    consumer = None
    try:
        topic, group = topic_name(), f"g-{uuid.uuid4().hex[:6]}"
        create(broker.bootstrap, topic, "--partitions", "1")
        consumer = subprocess.Popen(
            [JOSEFK, "console-consumer", "--bootstrap-server", proxy.address, "--topic", topic, "--group", group,
             "--from-beginning", "--max-messages", "1", "--timeout-ms", "60000", "--property", "print.partition=true",
             "--consumer-property", "metadata.max.age.ms=1000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        wait_until(lambda: "Stable" in run("consumer-groups", "--bootstrap-server", broker.bootstrap, "--describe",
                                           "--group", group, "--state").stdout, f"{group} is Stable", timeout=120)
        assert run("topics", "--bootstrap-server", broker.bootstrap, "--alter", "--topic", topic,
                   "--partitions", "2").returncode == 0
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
        try:
            producer.send(topic, b"new", partition=1).get(timeout=60)
        finally:
            producer.close()
        out, err = consumer.communicate(timeout=120)
        assert (consumer.returncode, out) == (0, "Partition:1\tnew\n"), err
    finally:
        if consumer is not None:
            _stop(consumer)
        broker.stop()
        proxy.close()


def test_console_producer_errors(bootstrap: str) -> None:
    r = run("console-producer", "--bootstrap-server", bootstrap, "--topic", topic_name(),
            "--property", "parse.key=true", stdin="nokey\n")
    assert r.returncode == 1
    assert "No key separator found on line number 1: 'nokey'" in r.stderr
    r = run("console-producer", "--bootstrap-server", bootstrap, "--topic", "x", "--compression-codec", "rar")
    assert r.returncode == 2 and "invalid choice" in r.stderr


# ------------------------------------------------------------------ configs


def test_configs_describe_alter_delete(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic)
    base = ["configs", "--bootstrap-server", bootstrap, "--entity-type", "topics", "--entity-name", topic]
    r = run(*base, "--alter", "--add-config", "retention.ms=1000,cleanup.policy=[compact,delete]")
    assert (r.returncode, r.stdout) == (0, f"Completed updating config for topic {topic}.\n"), r.stderr
    r = run(*base, "--describe")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"Dynamic configs for topic {topic} are:"
    assert any(re.fullmatch(r"  retention\.ms=1000 sensitive=false synonyms=\{.*\}", line) for line in lines)
    assert any(line.startswith("  cleanup.policy=compact,delete sensitive=false") for line in lines)
    r = run(*base, "--alter", "--delete-config", "retention.ms")
    assert r.returncode == 0, r.stderr
    r = run("configs", "--bootstrap-server", bootstrap, "--topic", topic, "--describe", "--all")
    assert r.stdout.splitlines()[0] == f"All configs for topic {topic} are:"
    assert "  retention.ms=1000 " not in r.stdout


def test_configs_errors(bootstrap: str) -> None:
    topic = topic_name()
    create(bootstrap, topic)
    r = run("configs", "--bootstrap-server", bootstrap, "--topic", topic, "--alter", "--add-config",
            "retention.ms=abc")
    assert r.returncode == 1
    assert r.stderr.startswith("Error while executing config command with args")
    assert (f"InvalidConfigurationException: Invalid config value for resource ConfigResource(type=TOPIC, "
            f"name='{topic}'): Invalid value abc for configuration retention.ms") in r.stderr  # Kafka 3.9.2's text
    r = run("configs", "--bootstrap-server", bootstrap, "--topic", topic, "--alter", "--delete-config", "nope.x")
    assert r.returncode == 1 and "Invalid config(s): nope.x" in r.stderr
    r = run("configs", "--bootstrap-server", bootstrap, "--topic", "no-such-topic", "--describe")
    assert r.returncode == 1 and "The topic 'no-such-topic' does not exist." in r.stderr
    r = run("configs", "--bootstrap-server", bootstrap, "--entity-type", "widgets", "--describe")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_configs_brokers(bootstrap: str) -> None:
    r = run("configs", "--bootstrap-server", bootstrap, "--entity-type", "brokers", "--entity-name", "0",
            "--describe", "--all")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "All configs for broker 0 are:"
    assert re.search(r"^  num\.partitions=1 sensitive=false synonyms=\{", r.stdout, re.M)
    # Kafka's string form of its default MetadataVersion, not a Python repr
    assert ("  inter.broker.protocol.version=3.9-IV0 sensitive=false "
            "synonyms={DEFAULT_CONFIG:inter.broker.protocol.version=3.9-IV0}\n") in r.stdout


def test_configs_dynamic_broker_and_cluster_default(bootstrap: str) -> None:
    """kafka-configs' output for dynamic broker configs; the values are far above what the
    module's other tests write, and deleted at the end, so they change nothing for them."""
    base = ["configs", "--bootstrap-server", bootstrap, "--entity-type", "brokers"]
    r = run(*base, "--entity-name", "0", "--alter", "--add-config", "log.retention.bytes=1099511627776")
    assert (r.returncode, r.stdout) == (0, "Completed updating config for broker 0.\n"), r.stderr
    r = run(*base, "--entity-default", "--alter", "--add-config", "log.retention.bytes=2199023255552")
    assert (r.returncode, r.stdout) == (0, "Completed updating default config for brokers in the cluster.\n"), r.stderr
    expected = ("Dynamic configs for broker 0 are:\n"
                "  log.retention.bytes=1099511627776 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:"
                "log.retention.bytes=1099511627776, DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.bytes=2199023255552, "
                "DEFAULT_CONFIG:log.retention.bytes=-1}\n"
                "Default configs for brokers in the cluster are:\n"
                "  log.retention.bytes=2199023255552 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:"
                "log.retention.bytes=2199023255552}\n")
    wait_until(lambda: run(*base, "--describe").stdout == expected, "both changes are described")
    r = run(*base, "--entity-name", "0", "--alter", "--add-config", "num.partitions=3")
    assert r.returncode == 1
    assert "InvalidRequestException: Cannot update these configs dynamically: Set(num.partitions)" in r.stderr
    r = run(*base, "--entity-default", "--alter", "--add-config", "max.connections=many")
    assert r.returncode == 1
    assert "Invalid value many for configuration max.connections: Not a number of type INT" in r.stderr, r.stderr
    for entity in (["--entity-name", "0"], ["--entity-default"]):
        r = run(*base, *entity, "--alter", "--delete-config", "log.retention.bytes")
        assert r.returncode == 0, r.stderr
    wait_until(lambda: run(*base, "--describe").stdout == "Dynamic configs for broker 0 are:\n"
               "Default configs for brokers in the cluster are:\n", "both changes are gone")


# ------------------------------------------------------------------ perf tools

PRODUCER_SUMMARY = re.compile(
    r"(\d+) records sent, [\d.]+ records/sec \([\d.]+ MB/sec\), [\d.]+ ms avg latency, [\d.]+ ms max latency, "
    r"\d+ ms 50th, \d+ ms 95th, \d+ ms 99th, \d+ ms 99\.9th\.")
CONSUMER_HEADER = ("start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
                   "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec")


@pytest.mark.parametrize("client", ["confluent-kafka", "kafka-python"])
def test_perf_tools(bootstrap: str, tmp_path: Path, client: str) -> None:
    if client == "confluent-kafka":
        require_module("confluent_kafka")
    env = {"JOSEFK_PERF_CLIENT": client}
    topic, n = topic_name(), 20_000 if client == "confluent-kafka" else 3_000
    create(bootstrap, topic, "--partitions", "2")
    r = run("producer-perf-test", "--topic", topic, "--num-records", str(n), "--record-size", "100",
            "--throughput", "-1", "--producer-props", f"bootstrap.servers={bootstrap}", "acks=1", "linger.ms=5",
            "--csv", str(tmp_path / "p.csv"), env=env)
    assert r.returncode == 0, r.stderr
    last = r.stdout.splitlines()[-1]
    m = PRODUCER_SUMMARY.fullmatch(last)
    assert m and int(m.group(1)) == n, last
    assert "\r" not in r.stdout  # no progress bar when piped
    assert (tmp_path / "p.csv").read_text().startswith("elapsed_s,records,records_per_sec,mb_per_sec\n")

    r = run("consumer-perf-test", "--bootstrap-server", bootstrap, "--topic", topic, "--messages", str(n),
            "--timeout", "10000", "--csv", str(tmp_path / "c.csv"), env=env)
    assert r.returncode == 0, r.stderr
    header, row = r.stdout.splitlines()
    assert header == CONSUMER_HEADER
    fields = row.split(", ")
    assert len(fields) == 10 and int(fields[4]) == n
    assert abs(float(fields[2]) - n * 100 / 1024 / 1024) < 0.001
    assert (tmp_path / "c.csv").read_text().startswith("elapsed_s,messages,")

    r = run("consumer-perf-test", "--bootstrap-server", bootstrap, "--topic", topic, "--messages", str(n + 5),
            "--timeout", "1000", "--hide-header", env=env)
    assert r.returncode == 0
    assert "WARNING: Exiting before consuming the expected number of messages" in r.stderr
    assert int(r.stdout.split(", ")[4]) == n


def test_perf_plot_and_missing_matplotlib(bootstrap: str, tmp_path: Path) -> None:
    topic = topic_name()
    create(bootstrap, topic)
    args = ["producer-perf-test", "--topic", topic, "--num-records", "500", "--record-size", "10",
            "--throughput", "1000", "--bootstrap-server", bootstrap]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pass
    else:
        r = run(*args, "--plot", str(tmp_path / "p.png"))
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "matplotlib.py").write_text("raise ImportError('hidden for the test')\n")
    r = run(*args, "--plot", str(tmp_path / "q.png"), env={"PYTHONPATH": str(shadow)})
    assert r.returncode == 1
    assert "pip install matplotlib" in r.stderr
    assert not (tmp_path / "q.png").exists()


def test_perf_bad_flags_and_unreachable() -> None:
    r = run("producer-perf-test", "--topic", "x", "--num-records", "10", "--throughput", "-1",
            "--bootstrap-server", DEAD)
    assert r.returncode == 2 and "--record-size" in r.stderr
    r = run("producer-perf-test", "--topic", "x", "--num-records", "10", "--record-size", "1", "--throughput", "-1",
            "--producer-props", f"bootstrap.servers={DEAD}", "max.block.ms=2000")
    assert r.returncode == 1 and f"could not connect to the broker at {DEAD}" in r.stderr
    r = run("consumer-perf-test", "--topic", "x", "--bootstrap-server", DEAD)
    assert r.returncode == 2 and "--messages" in r.stderr


# ------------------------------------------------------------------ consumer groups


def test_consumer_groups(bootstrap: str) -> None:
    topic, group = topic_name(), f"g-{uuid.uuid4().hex[:6]}"
    create(bootstrap, topic, "--partitions", "1")
    produce(bootstrap, topic, [str(i) for i in range(10)])
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--group", group,
            "--from-beginning", "--max-messages", "6", "--timeout-ms", "15000")
    assert r.returncode == 0 and r.stdout.split() == [str(i) for i in range(6)], r.stderr
    cg = ["consumer-groups", "--bootstrap-server", bootstrap]
    assert group in run(*cg, "--list").stdout.splitlines()

    r = run(*cg, "--describe", "--group", group)
    assert r.returncode == 0, r.stderr
    assert r.stderr == f"\nConsumer group '{group}' has no active members.\n"  # Kafka's, on stderr
    header = [line for line in r.stdout.splitlines() if line.startswith("GROUP")][0]
    assert header.split() == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                              "CONSUMER-ID", "HOST", "CLIENT-ID"]
    assert r.stdout.splitlines()[-1].split() == [group, topic, "0", "6", "10", "4", "-", "-", "-"]
    r = run(*cg, "--describe", "--group", group, "--state")
    assert r.stdout.splitlines()[-1].split()[-2:] == ["Empty", "0"]

    reset = [*cg, "--reset-offsets", "--group", group, "--topic", topic]
    r = run(*reset, "--to-earliest")
    assert r.returncode == 0 and "WARN: No action will be performed as the --execute option is missing" in r.stderr
    assert r.stdout.splitlines()[-1].split() == [group, topic, "0", "0"]
    r = run(*reset, "--shift-by", "-2", "--execute")
    assert r.returncode == 0 and r.stdout.splitlines()[-1].split() == [group, topic, "0", "4"]
    r = run(*reset, "--to-offset", "100", "--dry-run")  # clamped to the log end, as Kafka does
    assert (r.returncode, r.stderr) == (0, "") and r.stdout.splitlines()[-1].split()[-1] == "10"
    assert run(*cg, "--describe", "--group", group).stdout.splitlines()[-1].split()[3:6] == ["4", "10", "6"]

    consumer = subprocess.Popen([JOSEFK, "console-consumer", "--bootstrap-server", bootstrap, "--topic", topic,
                                 "--group", group], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while "Stable" not in run(*cg, "--describe", "--group", group, "--state").stdout:
            assert time.monotonic() < deadline, "group never became Stable"
            time.sleep(0.5)
        r = run(*reset, "--to-earliest", "--execute")
        assert r.returncode == 1
        assert (f"Error: Assignments can only be reset if the group '{group}' is inactive, but the current state "
                "is Stable.") in r.stderr
        r = run(*cg, "--describe", "--group", group, "--members")
        assert r.stdout.splitlines()[-1].split()[-1] == "1"
    finally:
        _stop(consumer)

    deadline = time.monotonic() + 30
    while (r := run(*cg, "--delete", "--group", group)).returncode != 0:
        assert time.monotonic() < deadline, r.stderr
        time.sleep(0.5)
    assert r.stdout == f"Deletion of requested consumer groups ('{group}') was successful.\n"
    r = run(*cg, "--describe", "--group", group)
    assert r.returncode == 1 and f"Error: Consumer group '{group}' does not exist." in r.stderr


def test_consumer_groups_bad_flags() -> None:
    r = run("consumer-groups", "--bootstrap-server", DEAD, "--describe")
    assert r.returncode == 2 and "[all-groups], [group]" in r.stderr
    r = run("consumer-groups", "--bootstrap-server", DEAD, "--reset-offsets", "--group", "g", "--topic", "t")
    assert r.returncode == 2 and "[to-earliest]" in r.stderr
    r = run("consumer-groups", "--bootstrap-server", DEAD, "--list", "--timeout", "1500")
    assert r.returncode == 1 and DEAD in r.stderr
