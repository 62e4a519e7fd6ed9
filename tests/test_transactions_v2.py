"""Transactions v2 (KIP-890 part 2) with real clients: a josefk broker with
unstable.feature.versions.enable finalizes transaction.version=2 through `josefk features
upgrade`, as an operator would; Kafka 4.4's Java producer then runs its transactions the v2
way (no AddPartitionsToTxn or AddOffsetsToTxn, EndTxn v5 bumping the epoch at every end),
and read_committed consumers see exactly the committed records. The same program runs on
Kafka 4.4.0 (KRaft), which finalizes transaction.version=2 by default, and both answer
alike. librdkafka's producer still runs its own protocol on such a cluster."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from harness.kafka import KRaftBroker
from harness.wire import wait_until
from tests.conftest import RunningBroker
from tests.prerequisites import require_files, require_tools
from tests.test_transactions import TXN_OVERRIDES, consume_all

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
JOSEFK = str(Path(sys.executable).with_name("josefk"))
JAVA4_LIB = ROOT / "compat" / ".envs" / "java-4" / "lib"
PER_TXN = 5


def josefk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, *args], capture_output=True, text=True, timeout=180)


@pytest.fixture
def v2broker(tmp_path: Path) -> Iterator[RunningBroker]:
    """A josefk broker on which transaction.version=2 is finalized with the features tool."""
    running = RunningBroker(tmp_path / "logs", {**TXN_OVERRIDES, "unstable.feature.versions.enable": "true"})
    try:
        upgraded = josefk("features", "--bootstrap-server", running.bootstrap, "upgrade", "--feature",
                          "transaction.version=2")
        assert (upgraded.returncode, upgraded.stdout) == (0, "transaction.version was upgraded to 2.\n"), upgraded
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def java_classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    require_tools("java", "javac")
    require_files(JAVA4_LIB, ["kafka-clients.jar"], "python compat/setup_envs.py --only java-4")
    build = tmp_path_factory.mktemp("java-txn")
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", f"{JAVA4_LIB}/*",
                    str(ROOT / "compat" / "java" / "TransactionalProducer.java")], check=True)
    return f"{build}{os.pathsep}{JAVA4_LIB}/*"


def create_topic(bootstrap: str, name: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, 1, 1)])[name].result(timeout=60)


def finalized_transaction_version(bootstrap: str) -> str:
    """The features tool's line for transaction.version, its epoch left out."""
    described = josefk("features", "--bootstrap-server", bootstrap, "describe")
    assert described.returncode == 0, described
    line = next((x for x in described.stdout.splitlines() if x.startswith("Feature: transaction.version\t")), "")
    return line.rsplit("\t", 1)[0]


def run_java_transactions(classpath: str, bootstrap: str, tid: str, topic: str, group: str, outcomes: str) -> None:
    done = subprocess.run(["java", "-cp", classpath, "TransactionalProducer", bootstrap, tid, topic, group, outcomes,
                           str(PER_TXN)], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1:] == [f"OK {len(outcomes)}"], done.stderr[-3000:]


def producer_epoch(bootstrap: str, tid: str) -> tuple[str, str]:
    """(ProducerEpoch, TransactionState) as `josefk transactions describe` prints them."""
    described = josefk("transactions", "--bootstrap-server", bootstrap, "describe", "--transactional-id", tid)
    assert described.returncode == 0, described
    header, row = (line.split("\t") for line in described.stdout.splitlines()[:2])
    fields = dict(zip([h.strip() for h in header], [c.strip() for c in row], strict=False))
    return fields["ProducerEpoch"], fields["TransactionState"]


def committed_offset(bootstrap: str, group: str, topic: str) -> int:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        [found] = consumer.committed([TopicPartition(topic, 0)], timeout=30)
        return found.offset
    finally:
        consumer.close()


def java_transactions_outcome(classpath: str, bootstrap: str) -> dict[str, object]:
    """Commit, abort, commit with the Java 4.4 producer: what a read_committed and a
    read_uncommitted consumer see, the group's committed offset, and the producer epoch."""
    topic, group, tid = f"v2-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}", f"tid-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic)
    run_java_transactions(classpath, bootstrap, tid, topic, group, "cac")
    return {
        "committed": sorted(consume_all(bootstrap, topic, "read_committed", 2 * PER_TXN)),
        "uncommitted": len(consume_all(bootstrap, topic, "read_uncommitted", 3 * PER_TXN)),
        "offset": committed_offset(bootstrap, group, topic),
        "epoch and state": producer_epoch(bootstrap, tid),
    }


EXPECTED = {
    "committed": sorted(f"{txn}-{i}".encode() for txn in (0, 2) for i in range(PER_TXN)),
    "uncommitted": 3 * PER_TXN,
    "offset": 3 * PER_TXN,
    # Transactions v2: InitProducerId gives epoch 0, each of the three ends bumps it.
    "epoch and state": ("3", "CompleteCommit"),
}


def test_transaction_version_2_is_finalized_with_the_features_tool(v2broker: RunningBroker) -> None:
    assert finalized_transaction_version(v2broker.bootstrap) == (
        "Feature: transaction.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 2\tFinalizedVersionLevel: 2")


def test_java_4_producer_runs_transactions_v2_on_josefk(v2broker: RunningBroker, java_classpath: str) -> None:
    assert java_transactions_outcome(java_classpath, v2broker.bootstrap) == EXPECTED


def test_java_4_producer_runs_transactions_v1_without_the_feature(tmp_path: Path, java_classpath: str) -> None:
    """Without transaction.version finalized the same program runs the v1 protocol: the epoch
    stays where InitProducerId put it."""
    running = RunningBroker(tmp_path / "logs", TXN_OVERRIDES)
    try:
        assert java_transactions_outcome(java_classpath, running.bootstrap) == {
            **EXPECTED, "epoch and state": ("0", "CompleteCommit")}
    finally:
        running.stop()


def test_java_4_producer_answers_alike_on_kafka_4_4(kafka44: KRaftBroker, java_classpath: str) -> None:
    """Kafka 4.4.0 finalizes transaction.version=2 by default, and the program's outcome there
    is the one josefk's is held to."""
    assert finalized_transaction_version(kafka44.bootstrap).endswith("\tFinalizedVersionLevel: 2")
    assert java_transactions_outcome(java_classpath, kafka44.bootstrap) == EXPECTED


def test_librdkafka_producer_runs_transactions_on_a_v2_cluster(v2broker: RunningBroker) -> None:
    bootstrap = v2broker.bootstrap
    topic, group = f"rd-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic)
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"rd-{uuid.uuid4().hex[:8]}",
                         "linger.ms": 5})
    producer.init_transactions(60)
    for txn, outcome in enumerate("cac"):
        producer.begin_transaction()
        for i in range(PER_TXN):
            producer.produce(topic, f"{txn}-{i}".encode(), partition=0)
        consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
        try:
            producer.send_offsets_to_transaction([TopicPartition(topic, 0, (txn + 1) * PER_TXN)],
                                                 consumer.consumer_group_metadata(), 60)
        finally:
            consumer.close()
        if outcome == "c":
            producer.commit_transaction(60)
        else:
            producer.flush(60)
            producer.abort_transaction(60)
    assert sorted(consume_all(bootstrap, topic, "read_committed", 2 * PER_TXN)) == EXPECTED["committed"]
    wait_until(lambda: committed_offset(bootstrap, group, topic) == 3 * PER_TXN, timeout=60,
               what="the committed offset")


def test_java_4_producer_v2_with_partition_verification_off(tmp_path: Path, java_classpath: str) -> None:
    """A v2 producer sends no AddPartitionsToTxn: its leaders add the partitions even with
    transaction.partition.verification.enable=false, as Kafka 4.4's ReplicaManager does
    (only verification is optional), else nothing would put them in the transaction."""
    running = RunningBroker(tmp_path / "logs", {**TXN_OVERRIDES, "unstable.feature.versions.enable": "true",
                                                 "transaction.partition.verification.enable": "false"})
    try:
        upgraded = josefk("features", "--bootstrap-server", running.bootstrap, "upgrade", "--feature",
                          "transaction.version=2")
        assert upgraded.returncode == 0, upgraded
        assert java_transactions_outcome(java_classpath, running.bootstrap) == EXPECTED
    finally:
        running.stop()
