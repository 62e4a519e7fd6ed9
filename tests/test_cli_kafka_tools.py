"""features, cluster, e2e-latency and the verifiable producer and consumer, run as a user runs
them against a real josefk broker and a real Kafka 3.9.2 broker (ZooKeeper mode), next to Kafka
3.9.2's own tools on the same brokers: where the point is matching Kafka, the output must match."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.josefk import BrokerProcess
from harness.kafka import KAFKA_LIB, KafkaBroker
from harness.zookeeper import ZooKeeperServer
from josefk.cli.tools import features
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.cluster

JOSEFK = str(Path(sys.executable).with_name("josefk"))
DEAD = "127.0.0.1:1"  # nothing listens on port 1


@pytest.fixture(scope="module")
def brokers() -> Iterator[dict[str, str]]:
    """{"kafka": bootstrap, "josefk": bootstrap, "zookeeper": connect}: a Kafka 3.9.2 broker, its
    ZooKeeper and a josefk broker."""
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar", "kafka-tools-3.9.2.jar"], "make kafka-jars")
    work = Path(tempfile.mkdtemp(prefix="josefk-kafka-tools-"))
    zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
    kafka: KafkaBroker | None = None
    josefk_broker: BrokerProcess | None = None
    try:
        kafka = KafkaBroker(work / "kafka", zookeeper.connect, broker_id=0)
        josefk_broker = BrokerProcess(str(work / "josefk"))
        yield {"kafka": kafka.bootstrap, "josefk": josefk_broker.bootstrap, "zookeeper": zookeeper.connect}
    finally:
        if josefk_broker is not None:
            josefk_broker.stop()
        if kafka is not None:
            kafka.stop()
        zookeeper.stop()
        shutil.rmtree(work, ignore_errors=True)


def josefk(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=timeout)


def kafka_tool(main_class: str, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """One of Kafka 3.9.2's tools, its log4j start-up warnings left out of stderr."""
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar", "kafka-tools-3.9.2.jar"], "make kafka-jars")
    r = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", main_class, *args], capture_output=True, text=True,
                       timeout=timeout)
    r.stderr = "".join(line + "\n" for line in r.stderr.splitlines() if not line.startswith("log4j:"))
    return r


def no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip(), r.stderr


def topic() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


# features (kafka-features.sh)

FEATURES = "org.apache.kafka.tools.FeatureCommand"


def test_features_answer_as_kafkas_tool_does(brokers: dict[str, str]) -> None:
    """On a ZooKeeper-mode broker no feature is supported: describe prints nothing, and every
    update fails with the controller's reason. josefk's tool and Kafka's print the same, against
    josefk and against Kafka."""
    commands = [("describe",), ("upgrade", "--metadata", "3.9"),
                ("upgrade", "--feature", "metadata.version=21", "--dry-run"),
                ("downgrade", "--feature", "foo=1", "--feature", "bar=2", "--unsafe"),
                ("disable", "--feature", "metadata.version", "--dry-run"),
                ("disable", "--feature", "b", "--feature", "a")]
    for command in commands:
        answers = {}
        for name in ("kafka", "josefk"):
            answers["josefk tool", name] = josefk("features", "--bootstrap-server", brokers[name], *command)
            answers["Kafka tool", name] = kafka_tool(FEATURES, "--bootstrap-server", brokers[name], *command)
        outputs = {key: (r.returncode, r.stdout, r.stderr) for key, r in answers.items()}
        assert len(set(outputs.values())) == 1, (command, outputs)
    disabled = answers["Kafka tool", "josefk"]
    assert disabled.stdout == ("Could not disable a. Can not delete non-existing finalized feature.\n"
                               "Could not disable b. Can not delete non-existing finalized feature.\n")
    assert disabled.stderr == "2 out of 2 operation(s) failed.\n"


def test_features_reject_bad_arguments_as_kafkas_tool_does() -> None:
    """Checked before any broker is asked, with Kafka's messages."""
    for command in [("upgrade", "--metadata", "9.9"), ("upgrade", "--feature", "foo"),
                    ("upgrade", "--feature", "foo=70000"), ("upgrade", "--feature", "foo=0"),
                    ("downgrade", "--metadata", "2.8"), ("disable",),
                    ("upgrade", "--metadata", "3.9-IV0", "--feature", "metadata.version=3")]:
        ours = josefk("features", "--bootstrap-server", DEAD, *command)
        theirs = kafka_tool(FEATURES, "--bootstrap-server", DEAD, *command)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), \
            command
        no_traceback(ours)
    bad = josefk("features", "--bootstrap-server", DEAD, "bogus")
    assert bad.returncode == 2 and "invalid choice: 'bogus'" in bad.stderr


def test_metadata_versions_are_kafkas() -> None:
    """MetadataVersion.fromVersionString and the names describe prints for metadata.version levels."""
    assert [features.metadata_level(v) for v in ("3.0", "3.3", "3.3-IV1", "3.3.1", "3.9", "4.0-IV1", "2.8",
                                                 "0.10.0")] == [1, 7, 5, 7, 21, 23, -1, -1]
    for unknown in ("4.0", "3.9-IV1", " 3.5", "0.10"):
        with pytest.raises(features.ToolError, match=r"^Unsupported metadata.version .*3\.3-IV0, .*3\.9-IV0$"):
            features.metadata_level(unknown)
    assert (features.level_text("metadata.version", 21), features.level_text("metadata.version", 0),
            features.level_text("kraft.version", 1)) == ("3.9-IV0", "UNKNOWN 0", "1")


# cluster (kafka-cluster.sh)

def test_cluster_id_and_unregister_answer_as_kafkas_tool_does(brokers: dict[str, str]) -> None:
    tool = "org.apache.kafka.tools.ClusterTool"
    for name in ("kafka", "josefk"):
        ours = josefk("cluster", "cluster-id", "--bootstrap-server", brokers[name])
        theirs = kafka_tool(tool, "cluster-id", "--bootstrap-server", brokers[name])
        assert (ours.returncode, ours.stdout) == (0, theirs.stdout)
        assert re.fullmatch(r"Cluster ID: [\w-]{22}\n", ours.stdout)
    # A ZooKeeper-mode broker has no UnregisterBroker API: Kafka's tool says so and exits 0.
    ours = josefk("cluster", "unregister", "-b", brokers["josefk"], "--id", "0")
    theirs = kafka_tool(tool, "unregister", "-b", brokers["josefk"], "--id", "0")
    assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout) == (
        0, "The target cluster does not support the broker unregistration API.\n")
    bad = josefk("cluster", "unregister", "-b", brokers["josefk"], "--id", "x")
    assert bad.returncode == 2 and "argument --id/-i: invalid int value: 'x'" in bad.stderr
    no_traceback(josefk("cluster", "cluster-id", "-b", DEAD, "--config", "/nonexistent/admin.properties"))


# e2e-latency (kafka-e2e-latency.sh)

E2E_SHAPE = [r'Topic "\S+" does not exist\. Will create topic with 1 partition\(s\) and replication factor = 1',
             r"0\t\d+\.\d+", r"Avg latency: \d+\.\d{4} ms", r"Percentiles: 50th = \d+, 99th = \d+, 99\.9th = \d+"]


def test_e2e_latency_prints_kafkas_lines(brokers: dict[str, str]) -> None:
    for runner in (lambda *a: josefk("e2e-latency", *a), lambda *a: kafka_tool(
            "org.apache.kafka.tools.EndToEndLatency", *a)):
        r = runner(brokers["josefk"], topic(), "20", "all", "100")
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert len(lines) == len(E2E_SHAPE), r.stdout
        assert all(re.fullmatch(p, line) for p, line in zip(E2E_SHAPE, lines, strict=True)), \
            r.stdout
    bad = josefk("e2e-latency", brokers["josefk"], topic(), "5", "0", "100")
    no_traceback(bad)
    assert "Latency testing requires synchronous acknowledgement. Please use 1 or all" in bad.stderr
    assert josefk("e2e-latency", brokers["josefk"], topic(), "5").returncode == 2


def test_e2e_latency_percentiles_are_kafkas_indices() -> None:
    from josefk.cli.tools.e2e_latency import percentiles

    assert percentiles(list(range(1000, 0, -1))) == (501, 991, 1000)
    assert percentiles([7]) == (7, 7, 7)


# verifiable-producer / verifiable-consumer (kafka-verifiable-producer.sh / -consumer.sh)

def events(stdout: str) -> list[dict[str, Any]]:
    """The JSON events, without the timestamps (each must be a millisecond count)."""
    out = []
    for line in stdout.splitlines():
        event = json.loads(line)
        assert list(event)[:2] == ["timestamp", "name"] and isinstance(event.pop("timestamp"), int), line
        out.append(event)
    return out


def without(event: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in keys}


def test_verifiable_producer_events_are_kafkas(brokers: dict[str, str]) -> None:
    args = ("--bootstrap-server", brokers["josefk"], "--max-messages", "5", "--value-prefix", "3",
            "--repeating-keys", "2", "--acks", "1")
    ours = josefk("verifiable-producer", "--topic", (ours_topic := topic()), *args)
    theirs = kafka_tool("org.apache.kafka.tools.VerifiableProducer", "--topic", (their_topic := topic()), *args)
    assert ours.returncode == theirs.returncode == 0, ours.stderr + theirs.stderr
    mine, kafkas = events(ours.stdout), events(theirs.stdout)
    assert [list(e) for e in mine] == [list(e) for e in kafkas]  # the same events, fields in the same order
    assert [without(e, "topic", "avg_throughput") for e in mine] == [without(e, "topic", "avg_throughput")
                                                                     for e in kafkas]
    assert mine[1] == {"name": "producer_send_success", "key": "0", "value": "3.0", "offset": 0,
                       "topic": ours_topic, "partition": 0}
    assert mine[-1]["sent"] == mine[-1]["acked"] == 5 and their_topic != ours_topic

    # A send that fails is an event, named with Kafka's exception class, and counted as sent.
    bad = josefk("verifiable-producer", "--bootstrap-server", brokers["josefk"], "--topic", "bad topic",
                 "--max-messages", "1")
    kafka_bad = kafka_tool("org.apache.kafka.tools.VerifiableProducer", "--bootstrap-server", brokers["josefk"],
                           "--topic", "bad topic", "--max-messages", "1")
    assert [without(e, "message", "avg_throughput") for e in events(bad.stdout)] == \
        [without(e, "message", "avg_throughput") for e in events(kafka_bad.stdout)]
    assert events(bad.stdout)[1]["exception"] == "class org.apache.kafka.common.errors.InvalidTopicException"


def test_verifiable_consumer_events_are_kafkas(brokers: dict[str, str]) -> None:
    # Twice, each on a new topic: the second time, with the group coordinator up, kafka-python joined
    # before it knew the topic's partitions and rebalanced at once; that second join could hang.
    runs = []
    for _ in range(2):
        name = topic()
        produced = josefk("verifiable-producer", "--bootstrap-server", brokers["josefk"], "--topic", name,
                          "--max-messages", "6", "--repeating-keys", "3")
        assert produced.returncode == 0, produced.stderr
        args = ("--bootstrap-server", brokers["josefk"], "--topic", name, "--max-messages", "6", "--verbose")
        runs.append((name, josefk("verifiable-consumer", *args, "--group-id", f"ours-{name}")))
    theirs = kafka_tool("org.apache.kafka.tools.VerifiableConsumer", *args, "--group-id", f"kafkas-{name}")
    results = [*runs, (name, theirs)]
    assert [r.returncode for _, r in results] == [0, 0, 0], "".join(r.stderr for _, r in results)
    for name, out in ((name, events(r.stdout)) for name, r in results):
        assert out[0] == {"name": "startup_complete"} and out[-1] == {"name": "shutdown_complete"}
        assert out[1] == {"name": "partitions_assigned", "partitions": [{"topic": name, "partition": 0}]}
        assert [e["name"] for e in out if e["name"].startswith("partitions_")] == [
            "partitions_assigned", "partitions_revoked"]  # one rebalance: the member joins once
        assert out[-2] == {"name": "partitions_revoked", "partitions": [{"topic": name, "partition": 0}]}
        records = [e for e in out if e["name"] == "record_data"]
        assert records == [{"name": "record_data", "key": str(i % 3), "value": str(i), "topic": name,
                            "partition": 0, "offset": i} for i in range(6)]
        consumed = [e for e in out if e["name"] == "records_consumed"]
        assert sum(e["count"] for e in consumed) == 6
        assert [list(p) for e in consumed for p in e["partitions"]][0] == [
            "topic", "partition", "count", "minOffset", "maxOffset"]
        commits = [e for e in out if e["name"] == "offsets_committed"]
        assert len(commits) == len(consumed) and commits[-1] == {
            "name": "offsets_committed", "offsets": [{"topic": name, "partition": 0, "offset": 6}], "success": True}


def _first_line_with(proc: subprocess.Popen[str], name: str) -> list[str]:
    """Lines read until one naming the event (a blocking read: the tool prints it or exits)."""
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if f'"name":"{name}"' in line:
            return lines
    raise AssertionError(f"exited ({proc.wait()}) without {name}: {lines}")


def test_verifiable_clients_stop_cleanly_on_sigterm(brokers: dict[str, str]) -> None:
    """Kafka's system tests stop them with SIGTERM and still expect the closing events."""
    name = topic()
    producer = subprocess.Popen([JOSEFK, "verifiable-producer", "--bootstrap-server", brokers["josefk"], "--topic",
                                 name, "--throughput", "20"], stdout=subprocess.PIPE, text=True)
    consumer = subprocess.Popen([JOSEFK, "verifiable-consumer", "--bootstrap-server", brokers["josefk"], "--topic",
                                 name, "--group-id", name], stdout=subprocess.PIPE, text=True)
    try:
        _first_line_with(producer, "producer_send_success")
        _first_line_with(consumer, "records_consumed")
        for proc in (producer, consumer):
            proc.send_signal(signal.SIGTERM)
        produced, _ = producer.communicate(timeout=120)
        consumed, _ = consumer.communicate(timeout=120)
    finally:
        for proc in (producer, consumer):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert producer.returncode == consumer.returncode == 0
    closing = events(produced)[-2:]
    assert closing[0] == {"name": "shutdown_complete"} and closing[1]["name"] == "tool_data"
    assert closing[1]["sent"] == closing[1]["acked"] > 0 and closing[1]["target_throughput"] == 20
    assert [e["name"] for e in events(consumed)[-2:]] == ["partitions_revoked", "shutdown_complete"]


def test_verifiable_producer_whose_reader_went_away_exits_141(brokers: dict[str, str]) -> None:
    r = subprocess.run(f"{JOSEFK} verifiable-producer --bootstrap-server {brokers['josefk']} --topic {topic()} "
                       "--throughput 50 | head -n 2 >/dev/null; echo ${PIPESTATUS[0]}",
                       shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=180)
    assert r.stdout.strip() == "141" and "Traceback" not in r.stderr, r.stderr


def test_verifiable_consumer_rejects_what_josefk_cannot_do() -> None:
    r = josefk("verifiable-consumer", "--bootstrap-server", DEAD, "--topic", "t", "--group-id", "g",
               "--group-protocol", "consumer")
    no_traceback(r)
    assert "CLASSIC" in r.stderr
    r = josefk("verifiable-consumer", "--bootstrap-server", DEAD, "--topic", "t", "--group-id", "g",
               "--assignment-strategy", "com.example.Mine")
    no_traceback(r)
    assert josefk("verifiable-consumer", "--topic", "t", "--group-id", "g").returncode == 2


# zookeeper-shell (zookeeper-shell.sh)

ZOOKEEPER_SHELL = "org.apache.zookeeper.ZooKeeperMainWithTlsSupportForKafka"


def test_zookeeper_shell_prints_what_kafkas_prints(brokers: dict[str, str]) -> None:
    """Kafka's zookeeper-shell.sh runs ZooKeeperMainWithTlsSupportForKafka -server HOST:PORT ...;
    josefk's reads the same Kafka broker's znodes and prints the same lines, banner included."""
    zk = brokers["zookeeper"]
    for command in [("ls", "/brokers"), ("ls", "-R", "/brokers/ids"), ("get", "/brokers/ids/0"),
                    ("get", "-s", "/controller_epoch"), ("stat", "/cluster/id"), ("ls", "-s", "/brokers/ids"),
                    ("get", "/nonexistent")]:
        ours = josefk("zookeeper-shell", zk, *command)
        theirs = kafka_tool(ZOOKEEPER_SHELL, "-server", zk, *command)
        assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout, theirs.stderr), \
            command
    assert ours.stderr == "Node does not exist: /nonexistent\n" and ours.returncode == 1

    script = "get /nonexistent\nls /brokers/ids\n\nget /cluster/id\nquit\nls /\n"
    ours = subprocess.run([JOSEFK, "zookeeper-shell", zk], input=script, capture_output=True, text=True, timeout=180)
    theirs = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", ZOOKEEPER_SHELL, "-server", zk], input=script,
                            capture_output=True, text=True, timeout=180)
    assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout) == (0, theirs.stdout)
    assert '"version":"1"' in ours.stdout and "Node does not exist: /nonexistent" in ours.stderr


def test_zookeeper_shell_is_read_only(brokers: dict[str, str]) -> None:
    zk = brokers["zookeeper"]
    refused = josefk("zookeeper-shell", zk, "create", "/josefk-was-here", "x")
    assert refused.returncode == 1 and "read-only" in refused.stderr and "Traceback" not in refused.stderr
    assert josefk("zookeeper-shell", zk, "stat", "/josefk-was-here").returncode == 1  # nothing was created
    unknown = josefk("zookeeper-shell", zk, "bogus")
    assert unknown.returncode == 127 and unknown.stderr.endswith("Command not found: Command not found bogus\n")
    watch = josefk("zookeeper-shell", zk, "ls", "-w", "/")
    assert watch.returncode == 1 and "Unrecognized option: -w" in watch.stderr
