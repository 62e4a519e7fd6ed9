"""TxnOffsetCommit v6 (KIP-1319) with Kafka 4.4's Java clients: an application's
consume-transform-produce loop (compat/java/ConsumeTransformProduce.java) on josefk. On
transactions v2 the producer sends its offsets by topic id, v6, which josefk's request log
shows; on transactions v1 it stays at v4, as Kafka's TxnOffsetCommitRequest.Builder caps it.
Either way exactly the transformed records are committed with the group's offsets, as on
Kafka 4.4.0."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Producer

from harness.kafka import KRaftBroker
from tests.conftest import RunningBroker
from tests.prerequisites import require_files, require_tools
from tests.test_transactions import TXN_OVERRIDES, consume_all
from tests.test_transactions_v2 import JAVA4_LIB, ROOT, committed_offset, create_topic, josefk

pytestmark = pytest.mark.integration

RECORDS = 20
TXN_OFFSET_COMMIT = 28


class RequestLog(logging.Handler):
    """The API versions of the requests a josefk broker in this process completed, from its
    request log (kafka.request.logger, Kafka's `Completed request:` lines)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.versions: list[tuple[int, int]] = []

    def emit(self, record: logging.LogRecord) -> None:
        header = json.loads(record.getMessage().split("Completed request:", 1)[1])["requestHeader"]
        self.versions.append((header["requestApiKey"], header["requestApiVersion"]))

    def of(self, api_key: int) -> set[int]:
        return {v for k, v in self.versions if k == api_key}


@pytest.fixture
def request_log() -> Iterator[RequestLog]:
    logger = logging.getLogger("kafka.request.logger")
    handler, level = RequestLog(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@pytest.fixture(scope="module")
def classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    require_files(JAVA4_LIB, ["kafka-clients.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("java-ctp")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{JAVA4_LIB}/*",
                    str(ROOT / "compat" / "java" / "ConsumeTransformProduce.java")], check=True)
    return f"{build}{os.pathsep}{JAVA4_LIB}/*"


def start_broker(log_dir: Path, transaction_version: int) -> RunningBroker:
    running = RunningBroker(log_dir, {**TXN_OVERRIDES, "unstable.feature.versions.enable": "true"})
    if transaction_version == 2:
        upgraded = josefk("features", "--bootstrap-server", running.bootstrap, "upgrade", "--feature",
                          "transaction.version=2")
        assert upgraded.returncode == 0, upgraded
    return running


def consume_transform_produce(classpath: str, bootstrap: str, protocol: str) -> dict[str, object]:
    """RECORDS values through the Java loop: what a read_committed reader of the output sees
    and the group's committed offset of the input."""
    suffix = uuid.uuid4().hex[:8]
    source, sink, group = f"in-{suffix}", f"out-{suffix}", f"ctp-{suffix}"
    create_topic(bootstrap, source)
    create_topic(bootstrap, sink)
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(RECORDS):
        producer.produce(source, f"value-{i}".encode(), partition=0)
    assert producer.flush(60) == 0
    done = subprocess.run(["java", "-cp", classpath, "ConsumeTransformProduce", bootstrap, f"tid-{suffix}", source,
                           sink, group, protocol, str(RECORDS)], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1:] == [f"OK {RECORDS}"], done.stderr[-3000:]
    return {"output": sorted(consume_all(bootstrap, sink, "read_committed", RECORDS)),
            "offset": committed_offset(bootstrap, group, source)}


EXPECTED = {"output": sorted(f"VALUE-{i}".encode() for i in range(RECORDS)), "offset": RECORDS}


@pytest.mark.parametrize(("transaction_version", "protocol", "version"), [
    (2, "consumer", 6), (2, "classic", 6), (1, "consumer", 4)])
def test_java_4_consume_transform_produce_commits_offsets_by_topic_id(
        tmp_path: Path, classpath: str, request_log: RequestLog, transaction_version: int, protocol: str,
        version: int) -> None:
    running = start_broker(tmp_path / "logs", transaction_version)
    try:
        assert consume_transform_produce(classpath, running.bootstrap, protocol) == EXPECTED
    finally:
        running.stop()
    assert request_log.of(TXN_OFFSET_COMMIT) == {version}


def test_java_4_consume_transform_produce_on_kafka_4_4(kafka44: KRaftBroker, classpath: str) -> None:
    """The outcome josefk's is held to: the same loop on Kafka 4.4.0 (transactions v2)."""
    assert consume_transform_produce(classpath, kafka44.bootstrap, "consumer") == EXPECTED
