"""log-dirs, get-offsets, delete-records and broker-api-versions, run as a user would against a
real josefk broker with two log dirs; broker-api-versions also against Kafka 3.9.2's own tool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaProducer

from harness.josefk import BrokerProcess
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
JOSEFK = str(Path(sys.executable).with_name("josefk"))
KAFKA_LIB = ROOT / "compat" / ".envs" / "kafka" / "lib"
DEAD = "127.0.0.1:1"  # nothing listens on port 1
# kafka-consumer-groups.sh --timeout (ms), as an operator passes it on a busy host: the default 5000
# is less than a cold JVM on a loaded machine can need for its first answers.
GROUPS_TIMEOUT = ("--timeout", "60000")


@pytest.fixture(scope="module")
def dirs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    base = tmp_path_factory.mktemp("ops")
    return [(base / "d1").absolute(), (base / "d2").absolute()]


@pytest.fixture(scope="module")
def bootstrap(dirs: list[Path]) -> Iterator[str]:
    broker = BrokerProcess(",".join(map(str, dirs)))
    try:
        yield broker.bootstrap
    finally:
        assert broker.stop() == 0


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=timeout)


def topic_with_records(bootstrap: str, counts: list[int]) -> str:
    """A topic with len(counts) partitions, counts[p] records in partition p."""
    topic = f"ops-{uuid.uuid4().hex[:8]}"
    # The records' timestamps are from 1970: kept past retention.ms, which would delete them at a check.
    r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--partitions", str(len(counts)),
            "--config", "retention.ms=-1")
    assert r.returncode == 0, r.stderr
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    try:
        for partition, n in enumerate(counts):
            for i in range(n):
                producer.send(topic, value=b"v%d" % i, partition=partition, timestamp_ms=1_000 + i)
        producer.flush(timeout=30)
    finally:
        producer.close()
    return topic


def kafka_tool(main_class: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run one of Kafka 3.9.2's own tools (its jars from `make kafka-jars`) on the same input."""
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar", "kafka-tools-3.9.2.jar"], "make kafka-jars")
    r = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", main_class, *args], capture_output=True, text=True,
                       timeout=120)
    r.stderr = "".join(line + "\n" for line in r.stderr.splitlines() if not line.startswith("log4j:"))
    return r


def no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


# ------------------------------------------------------------------ log-dirs


def test_log_dirs_describe(bootstrap: str, dirs: list[Path]) -> None:
    topic = topic_with_records(bootstrap, [3, 0, 0, 0])
    r = run("log-dirs", "--bootstrap-server", bootstrap, "--describe", "--topic-list", topic)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["Querying brokers for log directories information",
                         "Received log directory information from brokers 0"]
    assert lines[2].startswith('{"brokers":[{"broker":0,"logDirs":[{"partitions":[') and lines[2].endswith(
        '"version":1}')
    (broker,) = json.loads(lines[2])["brokers"]
    assert sorted(d["logDir"] for d in broker["logDirs"]) == [str(d) for d in dirs]  # in Kafka's HashMap order
    assert all(d["error"] is None for d in broker["logDirs"])
    placed = {p["partition"]: (d["logDir"], p) for d in broker["logDirs"] for p in d["partitions"]}
    assert sorted(placed) == [f"{topic}-{i}" for i in range(4)]
    assert {log_dir for log_dir, _ in placed.values()} == {str(d) for d in dirs}  # spread over both dirs
    log_dir, first = placed[f"{topic}-0"]
    assert (Path(log_dir) / f"{topic}-0").is_dir()
    assert first["size"] == sum(f.stat().st_size for f in (Path(log_dir) / f"{topic}-0").glob("*.log")) > 0
    assert (first["offsetLag"], first["isFuture"]) == (0, False)
    assert placed[f"{topic}-1"][1]["size"] == 0

    everything = run("log-dirs", "--bootstrap-server", bootstrap, "--describe", "--broker-list", "0")
    assert everything.returncode == 0 and f'"partition":"{topic}-0"' in everything.stdout


def _log_dirs_json(stdout: str) -> Any:
    """The tool's JSON with each log dir's partitions sorted: Kafka lists them in a Java
    HashMap's order, which josefk imitates but does not match for every set of topic names
    (the test's names are random), so the order is not compared."""
    head, _, text = stdout.rpartition("\n{")
    data = json.loads("{" + text)
    for broker in data["brokers"]:
        for log_dir in broker["logDirs"]:
            log_dir["partitions"].sort(key=lambda p: p["partition"])
    return head, data


def test_log_dirs_matches_kafka(bootstrap: str) -> None:
    """The same lines and JSON as Kafka's LogDirsCommand (partition order aside)."""
    topic_with_records(bootstrap, [2, 1, 0, 0, 0])
    for extra in ([], ["--broker-list", "0"]):
        ours = run("log-dirs", "--bootstrap-server", bootstrap, "--describe", *extra)
        kafka = kafka_tool("org.apache.kafka.tools.LogDirsCommand", "--bootstrap-server", bootstrap, "--describe",
                           *extra)
        assert (ours.returncode, kafka.returncode) == (0, 0), ours.stderr + kafka.stderr
        assert _log_dirs_json(ours.stdout) == _log_dirs_json(kafka.stdout)


def test_log_dirs_errors(bootstrap: str) -> None:
    r = run("log-dirs", "--bootstrap-server", bootstrap, "--describe", "--broker-list", "0,7")
    assert r.returncode == 1
    assert r.stderr == ("ERROR: The given brokers do not exist from --broker-list: 7. "
                        "Current existent brokers: 0\n")
    r = run("log-dirs", "--bootstrap-server", bootstrap, "--describe", "--broker-list", "x")
    assert r.returncode == 1 and "--broker-list" in r.stderr
    no_traceback(r)
    r = run("log-dirs", "--bootstrap-server", bootstrap)
    assert r.returncode == 2 and "--describe" in r.stderr


# ------------------------------------------------------------------ get-offsets


def test_get_offsets(bootstrap: str) -> None:
    topic = topic_with_records(bootstrap, [5, 2, 0])

    def offsets(*args: str) -> list[str]:
        r = run("get-offsets", "--bootstrap-server", bootstrap, *args)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()

    assert offsets("--topic", topic) == [f"{topic}:0:5", f"{topic}:1:2", f"{topic}:2:0"]
    assert offsets("--topic", topic, "--time", "-2") == [f"{topic}:{p}:0" for p in range(3)]
    assert offsets("--topic", topic, "--time", "earliest", "--partitions", "1,2") == [f"{topic}:1:0", f"{topic}:2:0"]
    assert offsets("--topic-partitions", f"{topic}:1-") == [f"{topic}:1:2", f"{topic}:2:0"]
    assert offsets("--topic-partitions", f"{topic}:-1,{topic}:2") == [f"{topic}:0:5", f"{topic}:2:0"]
    # max-timestamp: the record with the largest timestamp (1004, offset 4); an empty partition has none
    assert offsets("--topic", topic, "--time", "-3") == [f"{topic}:0:4", f"{topic}:1:1"]
    # by timestamp: the first offset at or after it; none past the last record
    assert offsets("--topic", topic, "--time", "1003") == [f"{topic}:0:3"]
    assert offsets("--topic", topic, "--time", "99999999999") == []
    assert f"{topic}:0:5" in offsets()
    assert all(not line.startswith("__") for line in offsets("--exclude-internal-topics"))


def test_get_offsets_matches_kafka(bootstrap: str) -> None:
    topic = topic_with_records(bootstrap, [5, 2, 0])
    for args in (["--topic", topic], ["--topic", topic, "--time", "-2"], ["--topic", topic, "--time", "-3"],
                 ["--topic", topic, "--time", "1003"], ["--topic-partitions", f"{topic}:1-"],
                 ["--topic", topic, "--partitions", "0,2"], ["--exclude-internal-topics"], [],
                 ["--topic", "no-such-topic"], ["--time", "yesterday"]):
        ours = run("get-offsets", "--bootstrap-server", bootstrap, *args)
        kafka = kafka_tool("org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server", bootstrap, *args)
        assert (ours.returncode, ours.stdout, ours.stderr) == (kafka.returncode, kafka.stdout, kafka.stderr), args


def test_get_offsets_errors(bootstrap: str) -> None:
    r = run("get-offsets", "--bootstrap-server", bootstrap, "--topic", "no-such-topic")
    assert (r.returncode, r.stderr) == (1, "Error occurred: Could not match any topic-partitions with the "
                                           "specified filters\n")
    r = run("get-offsets", "--bootstrap-server", bootstrap, "--time", "yesterday")
    assert r.returncode == 1 and r.stderr.startswith("Error occurred: Malformed time argument yesterday.")
    r = run("get-offsets", "--bootstrap-server", bootstrap, "--topic-partitions", "a:1", "--topic", "a")
    assert r.stderr == "Error occurred: --topic-partitions cannot be used with --topic or --partitions\n"
    r = run("get-offsets", "--bootstrap-server", bootstrap, "--partitions", "one")
    assert r.returncode == 1 and "--partitions expects a comma separated list of numeric partition ids" in r.stderr
    r = run("get-offsets", "--topic", "x")
    assert r.returncode == 2 and "--bootstrap-server" in r.stderr


# ------------------------------------------------------------------ delete-records


def test_delete_records(bootstrap: str, tmp_path: Path) -> None:
    topic = topic_with_records(bootstrap, [6, 4])
    spec = tmp_path / "offsets.json"
    spec.write_text(json.dumps({"partitions": [{"topic": topic, "partition": 0, "offset": 3},
                                               {"topic": topic, "partition": 1, "offset": 4}], "version": 1}))
    r = run("delete-records", "--bootstrap-server", bootstrap, "--offset-json-file", str(spec))
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("Executing records delete operation\nRecords delete operation completed:\n"
                        f"partition: {topic}-0\tlow_watermark: 3\npartition: {topic}-1\tlow_watermark: 4\n")
    earliest = run("get-offsets", "--bootstrap-server", bootstrap, "--topic", topic, "--time", "-2")
    assert earliest.stdout.splitlines() == [f"{topic}:0:3", f"{topic}:1:4"]

    spec.write_text(json.dumps({"partitions": [{"topic": topic, "partition": 0, "offset": 99},
                                               {"topic": "no-such-topic", "partition": 0, "offset": 1}]}))
    r = run("delete-records", "--bootstrap-server", bootstrap, "--offset-json-file", str(spec))
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert lines[2].startswith("partition: no-such-topic-0\terror: "
                               "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: ")
    assert lines[3].startswith(f"partition: {topic}-0\terror: "
                               "org.apache.kafka.common.errors.OffsetOutOfRangeException: ")


def test_delete_records_matches_kafka(bootstrap: str, tmp_path: Path) -> None:
    topic = topic_with_records(bootstrap, [6, 4, 3])
    spec = tmp_path / "offsets.json"
    for offsets in ((1, 1, 0), (2, 3, 3)):
        spec.write_text(json.dumps({"partitions": [{"topic": topic, "partition": p, "offset": o}
                                                   for p, o in enumerate(offsets)], "version": 1}))
        ours = run("delete-records", "--bootstrap-server", bootstrap, "--offset-json-file", str(spec))
        kafka = kafka_tool("org.apache.kafka.tools.DeleteRecordsCommand", "--bootstrap-server", bootstrap,
                           "--offset-json-file", str(spec))
        assert ours.returncode == kafka.returncode == 0, ours.stderr + kafka.stderr
        # the same lines; Kafka's partition order is its result map's, josefk's sorted
        assert sorted(ours.stdout.splitlines()) == sorted(kafka.stdout.splitlines())


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "Error: The input string is not a valid JSON\n"),
    ('{"version": 2, "partitions": []}', "Error: Not supported version field value 2\n"),
    ('{"version": 1}', "Error: Missing partitions field\n"),
    ('{"partitions": [{"topic": "a", "partition": 0, "offset": 1}, {"topic": "a", "partition": 0, "offset": 2}]}',
     "Error: Offset json file contains duplicate topic partitions: a-0\n"),
])
def test_delete_records_bad_file(tmp_path: Path, content: str, message: str) -> None:
    spec = tmp_path / "offsets.json"
    spec.write_text(content)
    r = run("delete-records", "--bootstrap-server", DEAD, "--offset-json-file", str(spec))
    assert (r.returncode, r.stdout, r.stderr) == (1, "", message)


def test_delete_records_missing_file() -> None:
    r = run("delete-records", "--bootstrap-server", DEAD, "--offset-json-file", "/nonexistent.json")
    assert (r.returncode, r.stderr) == (1, "Error: Cannot read /nonexistent.json: No such file or directory\n")
    r = run("delete-records", "--bootstrap-server", DEAD)
    assert r.returncode == 2 and "--offset-json-file" in r.stderr


# ------------------------------------------------------------------ broker-api-versions


def test_broker_api_versions_matches_kafka(bootstrap: str) -> None:
    r = run("broker-api-versions", "--bootstrap-server", bootstrap)
    assert r.returncode == 0, r.stderr
    host, port = bootstrap.split(":")
    assert r.stdout.startswith(f"{host}:{port} (id: 0 rack: null) -> (\n\tProduce(0): 0 to 13 [usable: 11],\n")
    assert "\tDescribeLogDirs(35): 0 to 5 [usable: 4],\n" in r.stdout
    assert "\tSaslHandshake(17): 0 to 1 [usable: 1],\n" in r.stdout
    assert "\tCreateDelegationToken(38): 0 to 3 [usable: 3],\n" in r.stdout
    assert "\tEnvelope(58): UNSUPPORTED,\n" in r.stdout and r.stdout.endswith("\n)\n")
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar"], "make test-envs (Kafka 3.9's jars)")
    kafka = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", "kafka.admin.BrokerApiVersionsCommand",
                            "--bootstrap-server", bootstrap], capture_output=True, text=True, timeout=120)
    assert kafka.returncode == 0, kafka.stderr
    assert r.stdout == kafka.stdout


# ------------------------------------------------------------------ unreachable broker


def test_unreachable_broker(tmp_path: Path) -> None:
    config = tmp_path / "admin.properties"
    config.write_text("default.api.timeout.ms=2000\n")
    spec = tmp_path / "offsets.json"
    spec.write_text('{"partitions": [{"topic": "a", "partition": 0, "offset": 1}]}')
    common = ["--bootstrap-server", DEAD, "--command-config", str(config)]
    started = time.monotonic()
    procs = [subprocess.Popen([JOSEFK, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=os.environ.copy())
             for args in (["log-dirs", *common, "--describe"], ["get-offsets", *common],
                          ["delete-records", *common, "--offset-json-file", str(spec)],
                          ["broker-api-versions", *common])]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 1, proc.args
        assert f"could not connect to the broker at {DEAD} within 2000 ms" in err, err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert time.monotonic() - started < 20


# ------------------------------------------------------------------ topics --describe reports


def test_topics_min_isr_reports(bootstrap: str) -> None:
    prefix = f"isr-{uuid.uuid4().hex[:6]}"
    for name, extra in ((f"{prefix}-a", ["--config", "min.insync.replicas=2"]), (f"{prefix}-b", [])):
        r = run("topics", "--bootstrap-server", bootstrap, "--create", "--topic", name, "--partitions", "2", *extra)
        assert r.returncode == 0, r.stderr

    def report(flag: str) -> list[str]:
        r = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", f"{prefix}-.*", flag)
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()

    line = "\tTopic: {}\tPartition: {}\tLeader: 0\tReplicas: 0\tIsr: 0\tElr: \tLastKnownElr: "  # empty: no ELR
    assert report("--under-min-isr-partitions") == [line.format(f"{prefix}-a", p) for p in range(2)]
    assert report("--at-min-isr-partitions") == [line.format(f"{prefix}-b", p) for p in range(2)]
    assert report("--unavailable-partitions") == report("--under-replicated-partitions") == []
    r = run("topics", "--bootstrap-server", bootstrap, "--describe", "--at-min-isr-partitions",
            "--under-min-isr-partitions")
    assert r.returncode == 2 and "not allowed with argument" in r.stderr

    for flags in ([], ["--under-min-isr-partitions"], ["--at-min-isr-partitions"], ["--topics-with-overrides"]):
        ours = run("topics", "--bootstrap-server", bootstrap, "--describe", "--topic", f"{prefix}-.*", *flags)
        kafka = kafka_tool("org.apache.kafka.tools.TopicCommand", "--bootstrap-server", bootstrap, "--describe",
                           "--topic", f"{prefix}-.*", *flags)
        assert kafka.returncode == 0, kafka.stderr
        # Kafka lists topics in a HashMap's order, josefk sorted; each line is the same
        assert sorted(ours.stdout.splitlines()) == sorted(kafka.stdout.splitlines()), flags


# ------------------------------------------------------------------ consumer-groups additions


def group_with_offsets(bootstrap: str, topic: str, messages: int) -> str:
    """A group that consumed `messages` records of `topic` and left (Empty, offsets committed)."""
    group = f"g-{uuid.uuid4().hex[:6]}"
    r = run("console-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--group", group,
            "--from-beginning", "--max-messages", str(messages), "--timeout-ms", "15000")
    assert r.returncode == 0 and f"Processed a total of {messages} messages" in r.stderr, r.stderr
    return group


def test_consumer_groups_list_state(bootstrap: str) -> None:
    topic = topic_with_records(bootstrap, [3])
    group = group_with_offsets(bootstrap, topic, 3)
    cg = ["consumer-groups", "--bootstrap-server", bootstrap]
    r = run(*cg, "--list", "--state")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    width = max(15, *(len(line.split()[0]) for line in lines[1:])) + 10
    assert lines[0] == "GROUP".ljust(width) + " " + "STATE".ljust(20)
    assert group.ljust(width) + " " + "Empty".ljust(20) in lines
    assert group in run(*cg, "--list", "--state", "empty,Stable").stdout
    assert group not in run(*cg, "--list", "--state", "Stable").stdout
    ours = run(*cg, "--list", "--state", "Empty")
    kafka = kafka_tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--bootstrap-server", bootstrap,
                       "--list", "--state", "Empty", *GROUPS_TIMEOUT)
    assert ours.stdout.splitlines()[0] == kafka.stdout.splitlines()[0]  # same widths: the same groups
    assert sorted(ours.stdout.splitlines()) == sorted(kafka.stdout.splitlines())
    r = run(*cg, "--list", "--state", "Sleeping")
    assert r.returncode == 2 and ("Invalid state list 'Sleeping'. Valid states are: PreparingRebalance, "
                                  "CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling") in r.stderr


def test_consumer_groups_export_and_from_file(bootstrap: str, tmp_path: Path) -> None:
    topic = topic_with_records(bootstrap, [8, 8])
    first, second = (group_with_offsets(bootstrap, topic, 16) for _ in range(2))
    cg = ["consumer-groups", "--bootstrap-server", bootstrap, "--reset-offsets"]
    r = run(*cg, "--group", first, "--topic", topic, "--shift-by", "-3", "--export", "--dry-run")
    assert (r.returncode, r.stdout) == (0, f"{topic},0,5\n{topic},1,5\n\n")
    r = run(*cg, "--group", first, "--group", second, "--all-topics", "--to-offset", "2", "--export", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "".join(f"{g},{topic},{p},2\n" for g in (first, second) for p in (0, 1)) + "\n"

    for groups in (["--group", first], ["--group", first, "--group", second]):
        args = ["--reset-offsets", *groups, "--all-topics", "--to-earliest", "--export", *GROUPS_TIMEOUT]
        ours = run("consumer-groups", "--bootstrap-server", bootstrap, *args)
        kafka = kafka_tool("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--bootstrap-server",
                           bootstrap, *args)
        # Kafka's tool exits 0 when it fails: "Error: ..." on stdout, the stack trace on stderr
        assert "Error:" not in kafka.stdout, kafka.stdout + kafka.stderr
        assert (ours.returncode, ours.stderr) == (kafka.returncode, kafka.stderr) == (0, kafka.stderr)
        assert sorted(ours.stdout.splitlines()) == sorted(kafka.stdout.splitlines())  # Kafka's rows: HashMap order

    plan = tmp_path / "plan.csv"
    plan.write_text(f"{first},{topic},0,1\n{first},{topic},1,99\n{second},{topic},1,4\n")
    r = run(*cg, "--group", first, "--group", second, "--from-file", str(plan), "--execute")
    assert r.returncode == 0, r.stderr
    described = {g: run("consumer-groups", "--bootstrap-server", bootstrap, "--describe", "--group", g).stdout
                 for g in (first, second)}
    rows = {g: [line.split()[2:4] for line in out.splitlines() if line.startswith(g)] for g, out in described.items()}
    assert rows == {first: [["0", "1"], ["1", "8"]], second: [["0", "8"], ["1", "4"]]}  # 99 clamped to the end

    plan.write_text(f"{topic},0,6\n")  # one group: topic,partition,offset
    r = run(*cg, "--group", first, "--from-file", str(plan), "--dry-run")
    assert r.returncode == 0 and r.stdout.splitlines()[-1].split() == [first, topic, "0", "6"]
    r = run(*cg, "--group", "no-plan-group", "--group", first, "--from-file", str(plan), "--dry-run")
    assert r.returncode == 1 and "expected group,topic,partition,offset" in r.stderr  # two groups: the long form
    plan.write_text(f"{first},{topic},0,6\n")
    r = run(*cg, "--group", "no-plan-group", "--group", first, "--from-file", str(plan), "--dry-run")
    assert r.returncode == 1 and "Error: No reset plan for group no-plan-group found" in r.stdout
    assert r.stdout.splitlines()[-1].split() == [first, topic, "0", "6"]
    plan.write_text("not,a,number\n")
    r = run(*cg, "--group", first, "--from-file", str(plan))
    assert r.returncode == 1 and "Invalid line in" in r.stderr
    no_traceback(r)


def test_consumer_groups_delete_offsets(bootstrap: str) -> None:
    topic = topic_with_records(bootstrap, [2, 2])
    group = group_with_offsets(bootstrap, topic, 4)
    cg = ["consumer-groups", "--bootstrap-server", bootstrap, "--delete-offsets"]
    r = run(*cg, "--group", group, "--topic", f"{topic}:1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (f"Request succeed for deleting offsets with topic {topic}:1 group {group}\n\n"
                        f"{'TOPIC':<30} {'PARTITION':<15} {'STATUS':<15}\n{topic:<30} {'1':<15} Successful     \n")
    described = run("consumer-groups", "--bootstrap-server", bootstrap, "--describe", "--group", group).stdout
    assert [line.split()[2] for line in described.splitlines() if line.startswith(group)] == ["0"]

    r = run(*cg, "--group", group, "--topic", topic, "--topic", "no-such-topic")
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    # sorted by topic + partition as Kafka does; partition 1 has no offset left, which is no error
    assert lines[3].startswith(f"{'no-such-topic':<30} {'Not Provided':<15} Error: :org.apache.kafka.common."
                               "errors.UnknownTopicOrPartitionException: ")
    assert lines[4:] == [f"{topic:<30} {p:<15} Successful     " for p in "01"]
    r = run(*cg, "--group", "no-such-group", "--topic", f"{topic}:0")
    assert r.returncode == 1 and r.stdout.startswith("\nError: 'no-such-group' does not exist.\n")
    r = run(*cg, "--group", group)
    assert r.returncode == 2 and "[delete-offsets]" in r.stderr
