"""Transactions through a real broker process: transactional batches by raw Produce,
WriteTxnMarkers from a raw client (commit one, abort one, leave one open), read_committed
Fetch and ListOffsets, kill -9 with a transaction open, and Kafka 3.9.2's DumpLogSegments
reading josefk's control batches and .txnindex files."""

from __future__ import annotations

import re
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaConsumer, TopicPartition
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from harness.wire import encode_request, read_frame, wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class, response_class
from josefk.log.transaction_index import AbortedTxn as TransactionIndexEntry
from josefk.log.transaction_index import TransactionIndex
from josefk.protocol.apis import ApiKey
from josefk.protocol.record_codec import Record, build_batch, decode_all
from josefk.protocol.records import iter_headers
from tests.conftest import RunningBroker
from tests.differential import Side, build
from tests.prerequisites import require_tools
from tests.test_cluster import BROKER_IDS, Cluster

ROOT = Path(__file__).resolve().parent.parent
KAFKA_LIB = ROOT / "compat" / ".envs" / "kafka" / "lib"
TOPIC = "txn"
FETCH_V = 11
# The test writes the markers itself, as a coordinator would, for transactions no
# coordinator knows: the broker must not verify them with one (KIP-890).
NO_VERIFICATION = {"transaction.partition.verification.enable": "false"}


def init_producer_id(side: Side) -> int:
    r = side.call(ApiKey.InitProducerId, 0, transactional_id=None, transaction_timeout_ms=60000)
    assert r.error_code == 0, r
    assert r.producer_epoch == 0
    return int(r.producer_id)


def produce(side: Side, records: bytes) -> int:
    """Kafka refuses transactional records without a transactional id; this raw client's
    coordinator-less producers all write under one."""
    r = side.call(ApiKey.Produce, 9, transactional_id="raw-txn", acks=-1, timeout_ms=10000, topic_data=[
        {"name": TOPIC, "partition_data": [{"index": 0, "records": records}]}])
    p = r.responses[0].partition_responses[0]
    assert p.error_code == 0, p
    return int(p.base_offset)


def txn_batch(pid: int, values: list[bytes]) -> bytes:
    return build_batch([Record(i, 1000 + i, None, v) for i, v in enumerate(values)], producer_id=pid,
                       producer_epoch=0, base_sequence=0, is_transactional=True)


def markers(side: Side, *entries: tuple[int, bool], coordinator_epoch: int = 0, partitions: tuple = (0,)) -> Any:
    return side.call(ApiKey.WriteTxnMarkers, 1, markers=[{
        "producer_id": pid, "producer_epoch": 0, "transaction_result": commit,
        "coordinator_epoch": coordinator_epoch, "topics": [{"name": TOPIC, "partition_indexes": list(partitions)}]}
        for pid, commit in entries])


def marker_errors(response: Any) -> dict[tuple[int, int], int]:
    return {(m.producer_id, p.partition_index): p.error_code
            for m in response.markers for t in m.topics for p in t.partitions}


def fetch_fields(offset: int, isolation: int, max_wait_ms: int = 0) -> dict[str, Any]:
    return {"replica_id": -1, "max_wait_ms": max_wait_ms, "min_bytes": 1, "max_bytes": 1 << 20,
            "isolation_level": isolation, "session_id": 0, "session_epoch": -1, "rack_id": "",
            "forgotten_topics_data": [], "topics": [{"topic": TOPIC, "partitions": [
                {"partition": 0, "current_leader_epoch": -1, "fetch_offset": offset, "log_start_offset": -1,
                 "partition_max_bytes": 1 << 20}]}]}


def fetch(side: Side, offset: int, isolation: int) -> Any:
    return side.call(ApiKey.Fetch, FETCH_V, **fetch_fields(offset, isolation)).responses[0].partitions[0]


def latest(side: Side, isolation: int) -> int:
    r = side.call(ApiKey.ListOffsets, 5, replica_id=-1, isolation_level=isolation, topics=[{
        "name": TOPIC, "partitions": [{"partition_index": 0, "current_leader_epoch": -1, "timestamp": -1}]}])
    p = r.topics[0].partitions[0]
    assert p.error_code == 0, p
    return int(p.offset)


def batch_offsets(data: bytes | None) -> list[tuple[int, int, bool]]:
    """(base offset, last offset, is control) of every batch returned."""
    return [(h.base_offset, h.last_offset, h.is_control) for h in iter_headers(data or b"")]


def aborted(p: Any) -> list[tuple[int, int]] | None:
    if p.aborted_transactions is None:
        return None
    return [(t.producer_id, t.first_offset) for t in p.aborted_transactions]


def consume(bootstrap: str, isolation_level: str, count: int) -> list[bytes]:
    """kafka-python's consumer from offset 0 until `count` records or the end offset."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, isolation_level=isolation_level)
    tp = TopicPartition(TOPIC, 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    values: list[bytes] = []
    try:
        deadline = time.monotonic() + 30
        while len(values) < count and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                values.extend(r.value for r in records)
        end = consumer.end_offsets([tp])[tp]
        while consumer.position(tp) < end and time.monotonic() < deadline:  # nothing more hides behind
            for records in consumer.poll(timeout_ms=500).values():
                values.extend(r.value for r in records)
    finally:
        consumer.close()
    return values


def dump(*args: str) -> str:
    res = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", "kafka.tools.DumpLogSegments", *args],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


@pytest.mark.integration
def test_transactions_in_log_and_fetch(tmp_path: Path) -> None:
    require_tools("java")
    logs = tmp_path / "logs"
    broker = BrokerProcess(logs, overrides=NO_VERIFICATION)
    side = Side("josefk", broker.bootstrap)
    restarted: BrokerProcess | None = None
    try:
        r = side.call(ApiKey.CreateTopics, 4, timeout_ms=10000, validate_only=False, topics=[
            {"name": TOPIC, "num_partitions": 1, "replication_factor": 1, "assignments": [], "configs": []}])
        assert r.topics[0].error_code == 0, r
        wait_until(lambda: fetch(side, 0, isolation=0).error_code == 0, "the topic has a leader")
        committed, aborting, open_ = (init_producer_id(side) for _ in range(3))
        assert produce(side, txn_batch(committed, [b"c0", b"c1"])) == 0
        assert produce(side, txn_batch(aborting, [b"a0", b"a1"])) == 2
        assert produce(side, txn_batch(open_, [b"o0", b"o1"])) == 4
        assert produce(side, build_batch([Record(0, 1000, None, b"plain")])) == 6

        r = markers(side, (committed, True), (aborting, False))
        assert marker_errors(r) == {(committed, 0): 0, (aborting, 0): 0}
        # a zombie coordinator and an unknown partition get Kafka's errors
        assert marker_errors(markers(side, (committed, True), coordinator_epoch=-5)) == {(committed, 0): 52}
        assert marker_errors(markers(side, (committed, True), partitions=(3,))) == {(committed, 3): 3}

        p = fetch(side, 0, isolation=1)
        assert (p.error_code, p.high_watermark, p.last_stable_offset) == (0, 9, 4)
        assert batch_offsets(p.records) == [(0, 1, False), (2, 3, False)]
        assert aborted(p) == [(aborting, 2)]
        p = fetch(side, 0, isolation=0)
        assert (p.high_watermark, p.last_stable_offset, aborted(p)) == (9, 4, None)
        assert batch_offsets(p.records) == [(0, 1, False), (2, 3, False), (4, 5, False), (6, 6, False),
                                            (7, 7, True), (8, 8, True)]
        assert (latest(side, 1), latest(side, 0)) == (4, 9)

        side.close()
        broker.kill()  # kill -9 with the third transaction open
        restarted = BrokerProcess(logs, port=broker.port, overrides=NO_VERIFICATION)
        side = Side("josefk", restarted.bootstrap)
        wait_until(lambda: fetch(side, 0, isolation=1).error_code == 0, "the partition is back")
        p = fetch(side, 0, isolation=1)
        assert (p.high_watermark, p.last_stable_offset, aborted(p)) == (9, 4, [(aborting, 2)])
        assert latest(side, 1) == 4

        # a read_committed long poll at the LSO is answered when the marker moves it
        waiting = Side("josefk", restarted.bootstrap)
        body = build(request_class(ApiKey.Fetch), fetch_fields(4, isolation=1, max_wait_ms=20000), FETCH_V)
        sock = waiting._socket()
        sock.sendall(encode_request(ApiKey.Fetch, FETCH_V, body, correlation_id=7))
        latest(side, 1)  # a round trip on another connection: the fetch is parked by now
        started = time.monotonic()
        assert marker_errors(markers(side, (open_, True))) == {(open_, 0): 0}
        frame = read_frame(sock)
        waited = time.monotonic() - started
        waiting.close()
        parked = response_class(ApiKey.Fetch).decode(frame[4:], version=FETCH_V).responses[0].partitions[0]
        assert waited < 10 and parked.last_stable_offset == 10
        assert batch_offsets(parked.records)[0] == (4, 5, False)

        p = fetch(side, 0, isolation=1)
        assert (p.high_watermark, p.last_stable_offset, aborted(p)) == (10, 10, [(aborting, 2)])
        values = [r.value for r in decode_all(p.records)]
        assert values[:7] == [b"c0", b"c1", b"a0", b"a1", b"o0", b"o1", b"plain"]
        assert latest(side, 1) == 10
        # a stock client drops the aborted records and skips the markers
        assert consume(restarted.bootstrap, "read_committed", 5) == [b"c0", b"c1", b"o0", b"o1", b"plain"]
        assert consume(restarted.bootstrap, "read_uncommitted", 7) == [b"c0", b"c1", b"a0", b"a1", b"o0", b"o1",
                                                                       b"plain"]
    finally:
        side.close()
        if restarted is not None:
            assert restarted.stop() == 0
        else:
            broker.kill()

    segment_dir = logs / f"{TOPIC}-0"
    (txn_index,) = segment_dir.glob("*.txnindex")
    raw = txn_index.read_bytes()
    assert struct.unpack(">hqqqq", raw) == (0, aborting, 2, 8, 4)
    out = dump("--files", str(txn_index))
    entries = re.findall(r"version: (\d+) producerId: (\d+) firstOffset: (\d+) lastOffset: (\d+) "
                         r"lastStableOffset: (\d+)", out)
    assert entries == [("0", str(aborting), "2", "8", "4")], out
    # records timestamped 1970 make every append roll (segment.ms, as in Kafka): several segments
    out = dump("--deep-iteration", "--print-data-log", "--files",
               ",".join(str(p) for p in sorted(segment_dir.glob("*.log"))))
    control = re.findall(r"baseOffset: (\d+) .*?producerId: (\d+) .*?isTransactional: true isControl: true", out)
    assert control == [("7", str(committed)), ("8", str(aborting)), ("9", str(open_))], out
    assert re.findall(r"offset: (\d+) .*?endTxnMarker: (\w+) coordinatorEpoch: (\d+)", out) == [
        ("7", "COMMIT", "0"), ("8", "ABORT", "0"), ("9", "COMMIT", "0")], out


@pytest.fixture
def unverified_broker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", NO_VERIFICATION)
    yield running
    running.stop()


@pytest.mark.integration
def test_write_txn_markers_calls_the_coordinator_hook(unverified_broker: RunningBroker) -> None:
    broker = unverified_broker
    """The hook the group coordinator uses hears of each producer's written partitions,
    not of those that failed, and before the answer."""
    heard: list[tuple[int, bool, list[tuple[str, int]]]] = []
    broker.server.apis.txn_marker_writer.on_written = lambda pid, commit, parts: heard.append((pid, commit, parts))
    side = Side("josefk", broker.bootstrap)
    try:
        r = side.call(ApiKey.CreateTopics, 4, timeout_ms=10000, validate_only=False, topics=[
            {"name": TOPIC, "num_partitions": 2, "replication_factor": 1, "assignments": [], "configs": []}])
        assert r.topics[0].error_code == 0, r
        wait_until(lambda: fetch(side, 0, isolation=0).error_code == 0, "the topic has a leader")
        pid = init_producer_id(side)
        assert produce(side, txn_batch(pid, [b"x"])) == 0
        r = markers(side, (pid, True), partitions=(0, 1, 9))
        assert marker_errors(r) == {(pid, 0): 0, (pid, 1): 0, (pid, 9): 3}
        assert heard == [(pid, True, [(TOPIC, 0), (TOPIC, 1)])]
        r = markers(side, (pid, False), coordinator_epoch=-1, partitions=(0,))
        assert marker_errors(r) == {(pid, 0): 52}
        assert len(heard) == 1
    finally:
        side.close()


@pytest.mark.cluster
def test_followers_replicate_markers_and_a_new_leader_knows_the_lso(tmp_path: Path) -> None:
    zookeeper = ZooKeeperServer()
    cluster: Cluster | None = None
    sides: list[Side] = []
    try:
        cluster = Cluster(zookeeper, tmp_path, NO_VERIFICATION)
        cluster.create_topic(NewTopic(TOPIC, 1, 3, topic_configs={"min.insync.replicas": "2"}))
        leader = cluster.state(TOPIC, 0)["leader"]
        side = Side("leader", cluster.brokers[leader].bootstrap)
        sides.append(side)
        wait_until(lambda: fetch(side, 0, isolation=0).error_code == 0, "the leader serves the topic")
        aborting, open_ = init_producer_id(side), init_producer_id(side)
        assert produce(side, txn_batch(aborting, [b"a0", b"a1"])) == 0
        assert produce(side, txn_batch(open_, [b"o0"])) == 2
        assert marker_errors(markers(side, (aborting, False))) == {(aborting, 0): 0}  # offset 3, acks=all
        expected = [TransactionIndexEntry(aborting, 0, 3, 2)]
        for broker_id in BROKER_IDS:  # every replica indexed the abort the same way
            directory = tmp_path / f"broker-{broker_id}" / f"{TOPIC}-0"
            wait_until(lambda d=directory: [e for p in d.glob("*.txnindex")  # type: ignore[misc]
                                            for e in TransactionIndex(0, p).entries] == expected,
                       f"broker {broker_id} has the aborted transaction in its .txnindex")

        cluster.brokers[leader].kill()
        cluster.wait_for(lambda: cluster.state(TOPIC, 0)["leader"] not in (leader, -1), "a new leader")
        new_leader = cluster.state(TOPIC, 0)["leader"]
        side = Side("new leader", cluster.brokers[new_leader].bootstrap)
        sides.append(side)

        def stable_at(lso: int) -> bool:
            p = fetch(side, 0, isolation=1)
            return bool(p.error_code == 0 and p.high_watermark == 4 and p.last_stable_offset == lso)
        wait_until(lambda: stable_at(2), "the new leader's LSO stops at the open transaction")
        p = fetch(side, 0, isolation=1)
        assert aborted(p) == [(aborting, 0)] and batch_offsets(p.records) == [(0, 1, False)]
        assert marker_errors(markers(side, (open_, True))) == {(open_, 0): 0}
        wait_until(lambda: fetch(side, 0, isolation=1).last_stable_offset == 5, "the LSO moves past the commit")
        assert latest(side, 1) == 5
    finally:
        for s in sides:
            s.close()
        if cluster is not None:
            cluster.stop()
        zookeeper.stop()
