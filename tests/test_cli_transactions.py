"""`josefk transactions` (kafka-transactions.sh) run as a user would, against a josefk broker
with real transactional producers (librdkafka): list and describe an ongoing transaction,
the producer state of its partition, a hanging transaction found and aborted so that
read_committed consumers move past it, and the error paths."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from harness import wire
from harness.net import free_port
from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.transactions import print_table
from josefk.protocol.apis import ApiKey
from josefk.protocol.record_codec import Record, build_batch
from tests.conftest import RunningBroker

JOSEFK = str(Path(sys.executable).with_name("josefk"))


@pytest.fixture
def tbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    # Without KIP-890 verification, as Kafka's own tests of these tools: a batch written
    # without AddPartitionsToTxn must be able to leave a hanging transaction behind.
    running = RunningBroker(tmp_path / "logs", {"transaction.state.log.num.partitions": "3",
                                                "transaction.partition.verification.enable": "false"})
    yield running
    running.stop()


def tool(bootstrap: str, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--command-config", str(config)] if config else []
    return subprocess.run([JOSEFK, "transactions", "--bootstrap-server", bootstrap, *extra, *args],
                          capture_output=True, text=True, timeout=60)


def rows(output: str) -> list[list[str]]:
    """A printed table's rows (header first), cells stripped of their padding."""
    return [[cell.strip() for cell in line.split("\t")[:-1]] for line in output.splitlines()]


def create_topic(bootstrap: str, name: str, partitions: int = 1) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(timeout=30)


def open_transaction(bootstrap: str, tid: str, topic: str, values: list[bytes]) -> Producer:
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": tid, "linger.ms": 5})
    producer.init_transactions(30)
    producer.begin_transaction()
    for value in values:
        producer.produce(topic, value, partition=0)
    producer.flush(30)
    return producer


def read_committed(bootstrap: str, topic: str, expected: int) -> list[bytes | None]:
    """Read `topic` with read_committed until `expected` values arrive (or 30 s pass)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"reader-{uuid.uuid4()}",
                         "auto.offset.reset": "earliest", "isolation.level": "read_committed",
                         "enable.auto.commit": False})
    consumer.subscribe([topic])
    values: list[bytes | None] = []
    deadline = time.monotonic() + 30
    try:
        while len(values) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.1)
            if msg is None:
                continue
            if err := msg.error():
                if err.code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(err)
            values.append(msg.value())
    finally:
        consumer.close()
    return values


def last_stable_offset(bootstrap: str, topic: str) -> int:
    sock = wire.connect(bootstrap)
    try:
        t = request_class(ApiKey.ListOffsets).ListOffsetsTopic
        _, r = wire.call(sock, ApiKey.ListOffsets, 5, replica_id=-1, isolation_level=1, topics=[t(
            name=topic, partitions=[t.ListOffsetsPartition(partition_index=0, current_leader_epoch=-1, timestamp=-1)])])
        return int(r.topics[0].partitions[0].offset)
    finally:
        sock.close()


def write_hanging_transaction(bootstrap: str, topic: str, age_ms: int) -> int:
    """A transactional batch from a producer id no coordinator knows (an idempotent id): what
    a client writing without AddPartitionsToTxn leaves behind, a transaction nothing ends.
    Its records are `age_ms` old. Returns the producer id."""
    sock = wire.connect(bootstrap)
    try:
        _, init = wire.call(sock, ApiKey.InitProducerId, 0, transactional_id=None, transaction_timeout_ms=60000)
        assert init.error_code == 0, init
        ts = int(time.time() * 1000) - age_ms
        records = build_batch([Record(i, ts, None, b"ghost") for i in range(2)], producer_id=init.producer_id,
                              producer_epoch=init.producer_epoch, base_sequence=0, is_transactional=True)
        cls = request_class(ApiKey.Produce)
        _, r = wire.call(sock, ApiKey.Produce, 9, transactional_id="ghost", acks=-1, timeout_ms=10000,
                         topic_data=[cls.TopicProduceData(name=topic, partition_data=[
                             cls.TopicProduceData.PartitionProduceData(index=0, records=records)])])
        assert r.responses[0].partition_responses[0].error_code == 0, r
        return int(init.producer_id)
    finally:
        sock.close()


def test_table_is_padded_and_tab_separated_as_kafka_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    print_table(["ProducerId", "X"], [["7", "a-long-cell"]])
    assert capsys.readouterr().out == "ProducerId\tX          \t\n7         \ta-long-cell\t\n"


@pytest.mark.integration
def test_list_describe_and_describe_producers_show_an_ongoing_transaction(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "orders", partitions=2)
    producer = open_transaction(bootstrap, "order-writer", "orders", [b"a", b"b", b"c"])

    listed = tool(bootstrap, "list")
    assert listed.returncode == 0, listed.stderr
    table = rows(listed.stdout)
    assert table[0] == ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"]
    mine = [r for r in table[1:] if r[0] == "order-writer"]
    assert len(mine) == 1 and mine[0][1] == "0" and mine[0][3] == "Ongoing"
    producer_id = mine[0][2]

    described = tool(bootstrap, "describe", "--transactional-id", "order-writer")
    assert described.returncode == 0, described.stderr
    header, row = rows(described.stdout)
    assert header == ["CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch", "TransactionState",
                      "TransactionTimeoutMs", "CurrentTransactionStartTimeMs", "TransactionDurationMs",
                      "TopicPartitions"]
    assert row[:6] == ["0", "order-writer", producer_id, "0", "Ongoing", "60000"]
    assert int(row[6]) > 0 and int(row[7]) >= 0 and row[8] == "orders-0"

    producers = tool(bootstrap, "describe-producers", "--topic", "orders", "--partition", "0")
    assert producers.returncode == 0, producers.stderr
    header, row = rows(producers.stdout)
    assert header == ["ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp",
                      "CurrentTransactionStartOffset"]
    assert row[0] == producer_id and row[3] == "2" and row[5] == "0"

    producer.commit_transaction(30)  # returns once PrepareCommit is logged; the markers follow
    wire.wait_until(lambda: rows(tool(bootstrap, "describe", "--transactional-id", "order-writer").stdout)[1][4]
                    == "CompleteCommit", "the coordinator completed the commit")
    after = rows(tool(bootstrap, "describe-producers", "--topic", "orders", "--partition", "0").stdout)
    assert after[1][0] == producer_id and after[1][5] == "None"  # the commit marker closed it
    # The other partition had no producer: a header and nothing else.
    assert len(rows(tool(bootstrap, "describe-producers", "--topic", "orders", "--partition", "1").stdout)) == 1


@pytest.mark.integration
def test_find_hanging_and_abort_let_read_committed_move_on(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "ledger")
    ghost = write_hanging_transaction(bootstrap, "ledger", age_ms=120_000)  # offsets 0-1
    live = open_transaction(bootstrap, "ledger-writer", "ledger", [b"live"])  # offset 2, known to its coordinator

    found = tool(bootstrap, "find-hanging", "--topic", "ledger", "--max-transaction-timeout", "1")
    assert found.returncode == 0, found.stderr
    table = rows(found.stdout)
    assert table[0] == ["Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset",
                        "LastTimestamp", "Duration(min)"]
    # The live transaction is younger than a minute; and with no age limit, its coordinator
    # lists the partition, so it is not hanging either.
    assert [r[:6] + r[7:] for r in table[1:]] == [["ledger", "0", str(ghost), "0", "-1", "0", "2"]]
    by_broker = rows(tool(bootstrap, "find-hanging", "--broker-id", "0", "--max-transaction-timeout", "0").stdout)
    assert [r[2] for r in by_broker[1:]] == [str(ghost)]

    live.commit_transaction(30)
    assert last_stable_offset(bootstrap, "ledger") == 0  # the hanging transaction holds consumers back

    aborted = tool(bootstrap, "abort", "--topic", "ledger", "--partition", "0", "--start-offset", "0")
    assert aborted.returncode == 0, aborted.stderr
    assert read_committed(bootstrap, "ledger", 1) == [b"live"]
    assert len(rows(tool(bootstrap, "find-hanging", "--topic", "ledger", "--max-transaction-timeout", "0").stdout)) == 1
    again = tool(bootstrap, "abort", "--topic", "ledger", "--partition", "0", "--start-offset", "0")
    assert again.returncode == 1
    assert again.stderr == "Could not find any open transactions starting at offset 0 on partition ledger-0\n"


@pytest.mark.integration
def test_abort_by_producer_id_epoch_and_coordinator_epoch(tbroker: RunningBroker) -> None:
    bootstrap = tbroker.bootstrap
    create_topic(bootstrap, "old-style")
    ghost = write_hanging_transaction(bootstrap, "old-style", age_ms=0)
    missing = tool(bootstrap, "abort", "--topic", "old-style", "--partition", "0", "--producer-id", str(ghost),
                   "--producer-epoch", "0")
    assert (missing.returncode, missing.stderr) == (1, "Missing required argument --coordinator-epoch\n")
    done = tool(bootstrap, "abort", "--topic", "old-style", "--partition", "0", "--producer-id", str(ghost),
                "--producer-epoch", "0", "--coordinator-epoch", "-1")
    assert done.returncode == 0, done.stderr
    producers = rows(tool(bootstrap, "describe-producers", "--topic", "old-style", "--partition", "0").stdout)
    assert producers[1][0] == str(ghost) and producers[1][2] == "0" and producers[1][5] == "None"


@pytest.mark.integration
def test_errors_are_one_line_and_exit_non_zero(tbroker: RunningBroker, tmp_path: Path) -> None:
    bootstrap = tbroker.bootstrap
    unknown = tool(bootstrap, "describe", "--transactional-id", "nobody")
    assert unknown.returncode == 1 and unknown.stdout == ""
    # Kafka's tool prints exactly this (checked with kafka-tools 3.9.2 against josefk and Kafka).
    assert unknown.stderr == ("Failed to describe transaction state of transactional-id `nobody`: DescribeTransactions "
                              "request for transactionalId `nobody` failed because the ID could not be found. Enable "
                              "debug logging for additional detail.\n")
    no_topic = tool(bootstrap, "describe-producers", "--topic", "absent", "--partition", "0")
    assert no_topic.returncode == 1
    assert no_topic.stderr.startswith("Failed to describe producers for partition absent-0 on leader: ")
    no_scope = tool(bootstrap, "find-hanging")
    assert (no_scope.returncode, no_scope.stderr) == (1, "The `find-hanging` command requires either --topic or "
                                                         "--broker-id to limit the scope of the search\n")
    partition_alone = tool(bootstrap, "find-hanging", "--partition", "0", "--broker-id", "0")
    assert partition_alone.stderr == "The --partition argument requires --topic to be provided\n"
    no_id = tool(bootstrap, "abort", "--topic", "t", "--partition", "0")
    assert no_id.returncode == 1 and no_id.stderr.startswith("The transaction to abort must be identified")
    bad_flag = tool(bootstrap, "describe-producers", "--topic", "t", "--partition", "zero")
    assert bad_flag.returncode == 2 and "invalid int value: 'zero'" in bad_flag.stderr
    no_command = subprocess.run([JOSEFK, "transactions", "--bootstrap-server", bootstrap], capture_output=True,
                                text=True, timeout=60)
    assert no_command.returncode == 2 and "Traceback" not in no_command.stderr

    config = tmp_path / "admin.properties"
    config.write_text("default.api.timeout.ms=500\n")
    dead = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    unreachable = tool(dead, "list", config=config)
    assert unreachable.returncode == 1 and "Traceback" not in unreachable.stderr
    assert len(unreachable.stderr.splitlines()) == 1 and dead in unreachable.stderr
    assert re.search(r"within 500 ms", unreachable.stderr)
    assert time.monotonic() - started < 20
