"""Disk faults: a log dir on a small file system of the test's own fills up.

Kafka's answer is KAFKA_STORAGE_ERROR and the log dir taken offline (the broker halts
when it has none left); nothing acknowledged may be lost and no segment corrupted, and
once space is freed a restarted broker recovers and, in a cluster, rejoins the ISR.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.errors import KafkaConnectionError, KafkaStorageError, KafkaTimeoutError, NodeNotReadyError
from kafka.errors import KafkaError as ClientError

from harness.josefk import BrokerProcess
from harness.wire import call, connect, create_topic, wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class
from josefk.log.config import LogConfig
from josefk.log.index import OffsetIndex
from josefk.log.log import Log
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch
from tests.slow_disk import SlowDisk
from tests.small_fs import SmallFileSystem
from tests.test_cluster import Cluster

pytestmark = pytest.mark.cluster

VALUE_SIZE = 4096


def _value(i: int) -> bytes:
    return (b"%08d" % i).ljust(VALUE_SIZE, b"x")


@pytest.fixture
def small_fs(tmp_path):
    fs = SmallFileSystem(tmp_path / "small", "1m")
    yield fs
    fs.unmount()


def _consume(bootstrap: str, topic: str, until_offset: int) -> dict[int, bytes]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    tp = TopicPartition(topic, 0)
    consumer.assign([tp])
    consumer.seek(tp, 0)
    stored: dict[int, bytes] = {}
    deadline = time.time() + 30
    while (not stored or max(stored) < until_offset) and time.time() < deadline:
        for records in consumer.poll(timeout_ms=1000).values():
            stored.update((r.offset, r.value) for r in records)
    consumer.close()
    return stored


def _verify_segments(partition_dir: Path) -> None:
    """Load the partition as an unclean start would (recovering every segment), then
    CRC-check every batch: raises on any corruption."""
    log = Log(partition_dir, LogConfig.from_props({}), recovery_point=0, clean_shutdown=False)
    try:
        log.verify()
    finally:
        log.close_handlers()


def _fill(fs: SmallFileSystem) -> None:
    """Take every free block of the file system."""
    fd = os.open(fs.mount_point / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)


def test_index_page_on_a_full_disk_is_enospc_not_sigbus(small_fs):
    """The preallocated index file is sparse: storing into a new page through the mapping
    on a full file system would be a SIGBUS (the process dies); it must be an OSError."""
    index = OffsetIndex(small_fs.mount_point / "00000000000000000000.index", 0, 1 << 16)
    for i in range(512):  # one page of 8-byte entries
        index.append(i, i * 100)
    _fill(small_fs)
    with pytest.raises(OSError) as raised:
        index.append(512, 51200)
    assert raised.value.errno == errno.ENOSPC
    assert index.entries == 512 and index.lookup(511) == (511, 51100)
    index.close()


def test_log_on_a_full_disk_goes_offline_and_keeps_what_it_acknowledged(small_fs):
    failures = LogDirFailureChannel()
    reported: list[Path] = []
    failures.add_listener(reported.append)
    log_dir = small_fs.mount_point / "logs"
    log = Log(log_dir / "t-0", LogConfig.from_props({}), failure_channel=failures)
    acknowledged = 0
    with pytest.raises(KafkaError) as raised:
        for i in range(1000):
            batch = build_batch([Record(0, 1000 + i, b"k", _value(i))])
            acknowledged = log.append_as_leader(batch, 0).last_offset + 1
    assert raised.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert acknowledged > 100
    assert reported == [log_dir] and failures.has_offline_log_dir(log_dir)
    for later in (lambda: log.read(0, 1000), lambda: log.append_as_leader(build_batch([Record(0, 1, b"k", b"v")]), 0),
                  log.flush):
        with pytest.raises(KafkaError) as raised:
            later()
        assert raised.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert reported == [log_dir]  # reported once
    log.close_handlers()

    small_fs.grow("64m")
    recovered = Log(log_dir / "t-0", LogConfig.from_props({}), recovery_point=0, clean_shutdown=False)
    try:
        assert recovered.log_end_offset == acknowledged  # the failed write left nothing behind
        recovered.verify()
    finally:
        recovered.close_handlers()


def test_single_broker_full_disk_answers_storage_error_halts_and_recovers(tmp_path, small_fs):
    data = small_fs.mount_point / "kafka-logs"
    output = tmp_path / "broker.log"
    broker = BrokerProcess(data, output=output)
    try:
        with connect(broker.bootstrap) as sock:
            create_topic(sock, "filling", 1)
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1, retries=0, linger_ms=0,
                                 enable_idempotence=False, request_timeout_ms=5000, max_block_ms=5000)
        acked: dict[int, bytes] = {}
        failure: Exception | None = None
        for i in range(1000):  # 4 MB of values into a 1 MB file system
            try:
                acked[producer.send("filling", value=_value(i)).get(timeout=10).offset] = _value(i)
            except ClientError as e:
                failure = e
                break
        producer.close(timeout=1)
        assert failure is not None, "the disk never filled"
        # Kafka's answer, or the broker went away (it halts: its only log dir failed) first.
        assert isinstance(failure, KafkaStorageError | KafkaConnectionError | KafkaTimeoutError | NodeNotReadyError), \
            repr(failure)
        assert len(acked) > 50
        assert broker.proc.wait(timeout=30) == 1
        text = output.read_text()
        assert "Shutdown broker because all log dirs in" in text
        # Kafka's log-dir failure lines, on stdout as in server.log.
        assert f"WARN Stopping serving replicas in dir {data} (kafka.server.ReplicaManager)" in text
        assert (f"WARN Broker 0 stopped fetcher for partitions filling-0 and stopped moving logs for partitions  "
                f"because they are in the failed log directory {data}. (kafka.server.ReplicaManager)") in text
        assert (f"WARN Logs for partitions filling-0 are offline and logs for future partitions  are offline due to "
                f"failure on log directory {data} (kafka.log.LogManager)") in text
    finally:
        broker.kill()

    small_fs.grow("64m")
    restarted = BrokerProcess(data, port=broker.port, output=output)
    try:
        stored = _consume(restarted.bootstrap, "filling", max(acked))
        missing = [o for o, v in acked.items() if stored.get(o) != v]
        assert not missing, f"{len(missing)} acknowledged records lost, first {missing[:3]}"
        producer = KafkaProducer(bootstrap_servers=restarted.bootstrap, acks=1, retries=0, max_block_ms=5000)
        assert producer.send("filling", value=b"after").get(timeout=10).offset > max(acked)
        producer.close(timeout=1)
    finally:
        assert restarted.stop() == 0
    # A tail torn by the full disk is cut at recovery (LogLoader's "Corruption found in segment",
    # as Kafka's); nothing else may say corrupt.
    assert "corrupt" not in "\n".join(line for line in output.read_text().lower().splitlines()
                                      if "(kafka.log.logloader)" not in line)
    _verify_segments(data / "filling-0")


class DiskCluster(Cluster):
    """Three brokers; some with log.dirs of their own (the others keep the usual one)."""

    def __init__(self, zk: ZooKeeperServer, root: Path, log_dirs: dict[int, str]) -> None:
        self.log_dirs = log_dirs
        super().__init__(zk, root)

    def start(self, broker_id: int) -> None:
        common = self.overrides
        self.overrides = {**common, **({"log.dirs": self.log_dirs[broker_id]} if broker_id in self.log_dirs else {})}
        try:
            super().start(broker_id)
        finally:
            self.overrides = common


def _partition_metadata(bootstrap: str, topic: str):
    """Partition 0 of `topic` in a Metadata v5 answer."""
    with connect(bootstrap) as sock:
        _cid, response = call(sock, ApiKey.Metadata, 5, allow_auto_topic_creation=False,
                              topics=[request_class(ApiKey.Metadata).MetadataRequestTopic(name=topic)])
    return response.topics[0].partitions[0]


def _offline_replicas(bootstrap: str, topic: str) -> list[int]:
    return list(_partition_metadata(bootstrap, topic).offline_replicas)


def _produce(producer: KafkaProducer, topic: str, start: int, count: int) -> dict[int, bytes]:
    """acks=all sends in flights of 20; every acknowledged (offset, value)."""
    acked: dict[int, bytes] = {}
    for first in range(start, start + count, 20):
        futures = [(i, producer.send(topic, value=_value(i))) for i in range(first, min(first + 20, start + count))]
        for i, future in futures:
            acked[future.get(timeout=30).offset] = _value(i)
    return acked


@pytest.mark.parametrize("replicas", [[3, 1, 2], [1, 2, 3]], ids=["leader", "follower"])
def test_cluster_broker_whose_log_dir_fills_goes_offline_there_and_rejoins_after_space_freed(
        zookeeper, tmp_path, small_fs, replicas):
    """Broker 3 has two log dirs: the small one first (its first partition goes there).
    Whether it leads the partition or follows it, the filled dir makes its replica offline."""
    full_dir = small_fs.mount_point / "broker-3"
    cluster = DiskCluster(zookeeper, tmp_path, {3: f"{full_dir},{tmp_path / 'broker-3-roomy'}"})
    try:
        cluster.create_topic(NewTopic("full", replica_assignments={0: replicas},
                                      topic_configs={"min.insync.replicas": "2"}))
        cluster.create_topic(NewTopic("roomy", replica_assignments={0: [3, 1, 2]}))
        wait_until(lambda: (full_dir / "full-0").is_dir() and (tmp_path / "broker-3-roomy" / "roomy-0").is_dir(),
                   "broker 3 to create its logs, one in each log dir")
        assert cluster.state("full", 0)["leader"] == replicas[0]

        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all", retries=2147483647,
                                 request_timeout_ms=10000, max_in_flight_requests_per_connection=1,
                                 retry_backoff_ms=100)
        acked = _produce(producer, "full", 0, 400)  # 1.6 MB through a 1 MB log dir
        state = cluster.state("full", 0)
        assert state["leader"] in (1, 2) and sorted(state["isr"]) == [1, 2], state
        assert cluster.brokers[3].proc.poll() is None, "broker 3 still has a working log dir"
        assert 3 in cluster.state("roomy", 0)["isr"]
        cluster.wait_for(lambda: _offline_replicas(cluster.brokers[1].bootstrap, "full") == [3],
                         "Metadata to list broker 3's replica of full-0 offline")
        assert _offline_replicas(cluster.brokers[1].bootstrap, "roomy") == []
        cluster.wait_for(lambda: not cluster.kazoo.get_children("/log_dir_event_notification"),
                         "the controller to handle the log dir event")
        acked |= _produce(producer, "full", 400, 100)  # acks=all carries on with the ISR of two
        producer.close(timeout=5)
        stored = _consume(cluster.bootstrap, "full", max(acked))
        missing = [o for o, v in acked.items() if stored.get(o) != v]
        assert not missing, f"{len(missing)} acknowledged records lost, first {missing[:3]}"

        cluster.brokers[3].stop()
        small_fs.grow("64m")
        cluster.start(3)
        cluster.wait_for(lambda: 3 in cluster.state("full", 0)["isr"], "broker 3 back in the ISR of full-0")
    finally:
        cluster.stop()
    _verify_segments(full_dir / "full-0")


@pytest.fixture
def slow_disk(tmp_path):
    disk = SlowDisk(tmp_path)
    yield disk
    disk.close()


def _timed_send(producer: KafkaProducer, topic: str, value: bytes) -> float:
    """Seconds until the broker acknowledged the record."""
    start = time.monotonic()
    producer.send(topic, value=value).get(timeout=30)
    return time.monotonic() - start


def test_slow_disk_fsyncs_do_not_stall_other_partitions(tmp_path, slow_disk):
    """flush.messages=1 on a dir whose fsyncs take about a second: producers to it wait
    for their fsync, while produce to a partition on another dir, fetches and metadata
    requests are answered at once (the fsync runs in a worker thread, not on the loop)."""
    broker = BrokerProcess(f"{slow_disk.mount_point / 'kafka-logs'},{tmp_path / 'fast-logs'}")
    stop = threading.Event()
    slow_latencies: list[float] = []
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("on-slow-disk", 1, 1, topic_configs={"flush.messages": "1"})])
        admin.create_topics([NewTopic("on-fast-disk", 1, 1)])  # the other dir: it holds fewer partitions
        admin.close()
        wait_until(lambda: (slow_disk.mount_point / "kafka-logs" / "on-slow-disk-0").is_dir(),
                   "the slow disk's partition to be created there")
        slow_disk.add(broker.proc.pid)
        slow_disk.throttle(write_iops=2)

        def produce_slowly() -> None:
            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1, linger_ms=0)
            i = 0
            while not stop.is_set():
                slow_latencies.append(_timed_send(producer, "on-slow-disk", _value(i)))
                i += 1
            producer.close(timeout=5)

        worker = threading.Thread(target=produce_slowly)
        worker.start()
        wait_until(lambda: len(slow_latencies) >= 2, "the slow producer to get going")
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1, linger_ms=0)
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False, fetch_max_wait_ms=0)
        tp = TopicPartition("on-fast-disk", 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        fast_latencies = []
        with connect(broker.bootstrap) as sock:
            for i in range(20):
                fast_latencies.append(_timed_send(producer, "on-fast-disk", _value(i)))
                start = time.monotonic()
                call(sock, ApiKey.Metadata, 1, topics=None)
                fast_latencies.append(time.monotonic() - start)
        deadline = time.monotonic() + 30
        fetched = 0
        while fetched < 20 and time.monotonic() < deadline:
            fetched += sum(len(r) for r in consumer.poll(timeout_ms=500).values())
        producer.close(timeout=5)
        consumer.close()
        stop.set()
        worker.join(timeout=60)
        assert fetched == 20
        assert min(slow_latencies[1:]) > 0.2, slow_latencies  # the disk really is slow
        assert max(fast_latencies) < min(slow_latencies[1:]), (fast_latencies, slow_latencies)
    finally:
        stop.set()
        broker.kill()


def test_follower_on_a_slow_disk_falls_out_of_the_isr_and_returns(zookeeper, tmp_path, slow_disk):
    """Broker 3's fsyncs (flush.messages=1) take seconds: it cannot keep up, leaves the ISR
    after replica.lag.time.max.ms (3 s here), acks=all producers carry on with the other
    two, and it rejoins once its disk is fast again."""
    cluster = DiskCluster(zookeeper, tmp_path, {3: str(slow_disk.mount_point / "broker-3")})
    stop = threading.Event()
    acked: dict[int, bytes] = {}
    try:
        cluster.create_topic(NewTopic("lagging", replica_assignments={0: [1, 2, 3]},
                                      topic_configs={"flush.messages": "1", "min.insync.replicas": "2"}))
        slow_disk.add(cluster.brokers[3].proc.pid)
        slow_disk.throttle(write_iops=1)

        def produce_steadily() -> None:
            producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks=1, linger_ms=5)
            i = 0
            while not stop.is_set():
                offset = producer.send("lagging", value=_value(i)).get(timeout=30).offset
                acked[offset] = _value(i)
                i += 1
            producer.close(timeout=5)

        worker = threading.Thread(target=produce_steadily)
        worker.start()
        cluster.wait_for(lambda: cluster.state("lagging", 0)["isr"] == [1, 2], "broker 3 to leave the ISR")
        stop.set()
        worker.join(timeout=60)
        producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all", retries=5)
        acked |= _produce(producer, "lagging", len(acked), 40)  # without waiting for broker 3
        producer.close(timeout=5)

        slow_disk.throttle(write_iops=0)
        cluster.wait_for(lambda: 3 in cluster.state("lagging", 0)["isr"], "broker 3 back in the ISR")
        stored = _consume(cluster.bootstrap, "lagging", max(acked))
        missing = [o for o, v in acked.items() if stored.get(o) != v]
        assert not missing, f"{len(missing)} acknowledged records lost, first {missing[:3]}"
    finally:
        stop.set()
        cluster.stop()


def test_broker_starts_without_a_log_dir_that_fails_and_serves_the_others(tmp_path, small_fs):
    """A log dir that fails at start-up (here: read-only, EROFS) is offline from the start,
    as in Kafka: the broker serves the partitions of its other dir and takes new ones
    there, the controller counts the stranded replica offline, and it is back once the
    dir works again."""
    dirs = f"{tmp_path / 'roomy'},{small_fs.mount_point / 'logs'}"
    broker = BrokerProcess(dirs)
    values = [_value(i) for i in range(10)]
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("healthy", 1, 1)])
        admin.create_topics([NewTopic("stranded", 1, 1)])  # the other dir: it holds fewer partitions
        admin.close()
        wait_until(lambda: (small_fs.mount_point / "logs" / "stranded-0").is_dir(), "stranded-0 on the small fs")
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=1)
        for topic in ("healthy", "stranded"):
            for value in values:
                producer.send(topic, value=value).get(timeout=10)
        producer.close(timeout=5)
    finally:
        assert broker.stop() == 0

    small_fs.read_only(True)
    restarted = BrokerProcess(dirs, port=broker.port)
    try:
        wait_until(lambda: _offline_replicas(restarted.bootstrap, "stranded") == [0], "stranded-0 to be offline")
        assert _partition_metadata(restarted.bootstrap, "stranded").leader_id == -1
        assert _partition_metadata(restarted.bootstrap, "healthy").leader_id == 0
        assert list(_consume(restarted.bootstrap, "healthy", 9).values()) == values
        admin = KafkaAdminClient(bootstrap_servers=restarted.bootstrap)
        admin.create_topics([NewTopic("fresh", 1, 1)])  # a new partition may go to the live dir
        admin.close()
        producer = KafkaProducer(bootstrap_servers=restarted.bootstrap, acks=1)
        assert producer.send("healthy", value=b"more").get(timeout=10).offset == 10
        assert producer.send("fresh", value=b"new").get(timeout=30).offset == 0
        producer.close(timeout=5)
        assert (tmp_path / "roomy" / "fresh-0").is_dir()
    finally:
        assert restarted.stop() == 0

    small_fs.read_only(False)
    again = BrokerProcess(dirs, port=broker.port)
    try:
        assert list(_consume(again.bootstrap, "stranded", 9).values()) == values
    finally:
        again.stop()
