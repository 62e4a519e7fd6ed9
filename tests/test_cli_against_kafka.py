"""josefk's operator tools against a real Apache Kafka 3.9.2 broker (ZooKeeper mode), next to
Kafka's own tools: the tools are plain clients, so they must print what Kafka's print."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.kafka import KAFKA_LIB, KafkaBroker
from harness.zookeeper import ZooKeeperServer
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.cluster

JOSEFK = str(Path(sys.executable).with_name("josefk"))


@pytest.fixture(scope="module")
def kafka() -> Iterator[str]:
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar", "kafka-tools-3.9.2.jar"], "make kafka-jars")
    work = Path(tempfile.mkdtemp(prefix="josefk-tools-kafka-"))
    zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
    broker: KafkaBroker | None = None
    try:
        broker = KafkaBroker(work / "kafka", zookeeper.connect, broker_id=0)
        yield broker.bootstrap
    finally:
        if broker is not None:
            broker.stop()
        zookeeper.stop()
        shutil.rmtree(work, ignore_errors=True)


def josefk(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], input=stdin, capture_output=True, text=True, timeout=120)


def kafka_tool(main_class: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", main_class, *args], capture_output=True, text=True,
                          timeout=120)


def test_tools_print_what_kafkas_print(kafka: str, tmp_path: Path) -> None:
    assert josefk("topics", "--bootstrap-server", kafka, "--create", "--topic", "rk", "--partitions", "3",
                  "--config", "min.insync.replicas=2").returncode == 0
    produced = josefk("console-producer", "--bootstrap-server", kafka, "--topic", "rk", stdin="a\nb\nc\nd\n")
    assert produced.returncode == 0, produced.stderr
    same = [
        (("broker-api-versions",), "kafka.admin.BrokerApiVersionsCommand", ()),
        (("log-dirs", "--describe"), "org.apache.kafka.tools.LogDirsCommand", ("--describe",)),
        (("get-offsets",), "org.apache.kafka.tools.GetOffsetShell", ()),
        (("get-offsets", "--topic", "rk", "--time", "-2"), "org.apache.kafka.tools.GetOffsetShell",
         ("--topic", "rk", "--time", "-2")),
        (("topics", "--describe", "--topic", "rk"), "org.apache.kafka.tools.TopicCommand",
         ("--describe", "--topic", "rk")),
        (("topics", "--describe", "--under-min-isr-partitions"), "org.apache.kafka.tools.TopicCommand",
         ("--describe", "--under-min-isr-partitions")),
    ]
    for ours_args, main_class, theirs_args in same:
        ours = josefk(ours_args[0], "--bootstrap-server", kafka, *ours_args[1:])
        theirs = kafka_tool(main_class, "--bootstrap-server", kafka, *theirs_args)
        assert theirs.returncode == 0, theirs.stderr
        assert (ours.returncode, ours.stdout) == (0, theirs.stdout), ours_args
    assert "\tTopic: rk\tPartition: 0\t" in ours.stdout  # rk's ISR (1) is under its min.insync.replicas

    spec = tmp_path / "offsets.json"
    spec.write_text('{"partitions": [{"topic": "rk", "partition": 0, "offset": 0}, '
                    '{"topic": "rk", "partition": 1, "offset": 0}], "version": 1}')
    ours = josefk("delete-records", "--bootstrap-server", kafka, "--offset-json-file", str(spec))
    theirs = kafka_tool("org.apache.kafka.tools.DeleteRecordsCommand", "--bootstrap-server", kafka,
                        "--offset-json-file", str(spec))
    assert ours.returncode == 0, ours.stderr
    assert sorted(ours.stdout.splitlines()) == sorted(theirs.stdout.splitlines())  # Kafka's: a HashMap's order
