"""The load the faults hit, and what it records: acknowledged records, committed offsets, ISR samples.

Every recorder is a thread with a `stop()`; times are wall-clock (`time.time()`), the clock
ZooKeeper stamps znode mtimes with (same host), so ISR changes and acks share a timeline.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from confluent_kafka import KafkaError as RdKafkaError
from confluent_kafka import KafkaException as RdKafkaException
from confluent_kafka import Message
from confluent_kafka import Producer as RdKafkaProducer
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaError, KafkaTimeoutError
from kafka.structs import OffsetAndMetadata
from kazoo.client import KazooClient


@dataclass(frozen=True, slots=True)
class Ack:
    partition: int
    offset: int
    value: bytes
    sent: float  # when send() was called: the broker appended it after this
    acked: float


@dataclass(frozen=True, slots=True)
class Commit:
    at: float
    partition: int
    offset: int
    read_back: bool  # True: read with OffsetFetch; False: a commit that succeeded


@dataclass(frozen=True, slots=True)
class IsrSample:
    at: float
    partition: int
    version: int  # the state znode's version: equal versions mean no change in between
    mtime: float  # when ZooKeeper wrote that version
    leader: int
    isr: tuple[int, ...]


# How long a recorder, or a producer's sender thread, gets to end once told to.
STOP_TIMEOUT = 120.0


def close_producer(producer: KafkaProducer, timeout: float) -> None:
    """Close, force-closing the sender thread if records are still pending after `timeout`, and join it.

    kafka-python's close() flushes first and raises when the flush times out, before it stops
    the sender thread: that thread then lives on, reconnecting to brokers that are gone."""
    try:
        producer.close(timeout=timeout)
    except KafkaError:
        producer._sender.force_close()  # what close() does after its flush, had the flush not raised
        producer._sender.join(STOP_TIMEOUT)
        producer.close(timeout=0)


class Recorder:
    """A daemon thread running `run` from `start()` until `stop()`; errors are counted by type, never raised.
    `run` closes its client in a `finally`, so the client's threads are gone once the recorder's is."""

    def __init__(self) -> None:
        self.errors: Counter[str] = Counter()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop and join the thread (bounded: the network's close() checks that nothing outlived it)."""
        self._stopping.set()
        self._thread.join(STOP_TIMEOUT)


def close_rdkafka(producer: RdKafkaProducer, timeout: float) -> None:
    """Flush for at most `timeout`, purge what is left (its delivery reports say _PURGE_QUEUE or
    _PURGE_INFLIGHT: never acknowledged, not an ack lost), serve them, and close: librdkafka's
    threads are native, invisible to `threading`, and close() returns once they have ended."""
    producer.flush(timeout)
    producer.purge()
    producer.flush(0)
    producer.close()


class ProducerLoad(Recorder):
    """An idempotent acks=all kafka-python producer sending round-robin over the partitions at a steady rate."""

    client = "kafka-python"

    def __init__(self, bootstrap: str, topic: str, partitions: int, name: str, rate: float) -> None:
        super().__init__()
        self.bootstrap, self.topic, self.partitions, self.name, self.rate = bootstrap, topic, partitions, name, rate
        self.acks: list[Ack] = []
        self.sent = 0
        self.fatal: list[str] = []  # kafka-python has no fatal state: it stays empty
        self.client_errors: Counter[str] = Counter()  # errors the client reports outside a send: none here

    def _ack(self, partition: int, value: bytes, sent: float):
        return lambda metadata: self.acks.append(Ack(partition, metadata.offset, value, sent, time.time()))

    def _error(self, exc: BaseException) -> None:
        self.errors[type(exc).__name__] += 1

    def run(self) -> None:
        producer = KafkaProducer(bootstrap_servers=self.bootstrap, acks="all", enable_idempotence=True,
                                 linger_ms=5, request_timeout_ms=15000, delivery_timeout_ms=120000,
                                 max_block_ms=10000)
        try:
            while not self._stopping.is_set():
                partition = self.sent % self.partitions
                value = f"{self.name}-{self.sent}".encode()
                sent = time.time()
                try:
                    future = producer.send(self.topic, value=value, partition=partition)
                except Exception as exc:  # noqa: BLE001 - buffer full for max_block_ms: count it, go on
                    self._error(exc)
                    continue
                future.add_callback(self._ack(partition, value, sent))
                future.add_errback(self._error)
                self.sent += 1
                self._stopping.wait(1 / self.rate)
            try:
                producer.flush(timeout=60)
            except KafkaTimeoutError as exc:  # what is still pending is never acknowledged: not an ack lost
                self._error(exc)
        finally:
            close_producer(producer, timeout=10)


class RdKafkaProducerLoad(ProducerLoad):
    """The same load from librdkafka (confluent-kafka), the client that found duplicates under faults.

    Delivery reports are served by poll() in this recorder's thread, between sends, so an ack's
    time is when librdkafka had it. `fatal` lists the fatal errors (the idempotent producer's
    state is lost: Kafka under the same faults gives none); after one, a new producer takes
    over, as an application would. `client_errors` counts the error callback's messages;
    librdkafka's `debug=eos` log goes to `log_file`."""

    client = "librdkafka"

    def __init__(self, bootstrap: str, topic: str, partitions: int, name: str, rate: float, log_file: Path) -> None:
        super().__init__(bootstrap, topic, partitions, name, rate)
        self.log_file = log_file
        self._fatal = False

    def _delivered(self, partition: int, value: bytes, sent: float):
        def report(err: RdKafkaError | None, msg: Message) -> None:
            if err is None and (offset := msg.offset()) is not None:
                self.acks.append(Ack(partition, offset, value, sent, time.time()))
            else:
                self.errors[err.name() if err else "delivered without an offset"] += 1
        return report

    def _on_error(self, err: RdKafkaError) -> None:
        """Counted by message, without librdkafka's "(after 12ms in state UP, ...)" tail that would split them."""
        self.client_errors[f"{err.name()}: {err.str().split(' (after ')[0]}"] += 1
        if err.fatal():
            self._fatal = True
            self.fatal.append(f"{time.strftime('%H:%M:%S')} {self.name}: {err.name()}: {err.str()}")

    def run(self) -> None:
        logger = logging.getLogger(f"{__name__}.{self.name}")
        logger.propagate, logger.level = False, logging.DEBUG  # debug=eos logs at DEBUG
        handler = logging.FileHandler(self.log_file)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        logger.addHandler(handler)
        config = {"bootstrap.servers": self.bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 5,
                  "request.timeout.ms": 15000, "message.timeout.ms": 120000, "error_cb": self._on_error,
                  "debug": "eos", "logger": logger}
        try:
            while not self._stopping.is_set():
                self._fatal = False
                producer = RdKafkaProducer(config)
                try:
                    self._produce(producer)
                finally:
                    close_rdkafka(producer, timeout=0 if self._fatal else 60)
                    del producer
        finally:
            logger.removeHandler(handler)
            handler.close()

    def _produce(self, producer: RdKafkaProducer) -> None:
        """Send until stopped or fatal, serving delivery reports while waiting for the next send."""
        next_send = time.monotonic()
        while not self._stopping.is_set() and not self._fatal:
            partition = self.sent % self.partitions
            value = f"{self.name}-{self.sent}".encode()
            try:
                producer.produce(self.topic, value=value, partition=partition,
                                 on_delivery=self._delivered(partition, value, time.time()))
                self.sent += 1
            except (BufferError, RdKafkaException) as exc:  # queue full; _FATAL once fatal: count it, go on
                self.errors[type(exc).__name__] += 1
            next_send += 1 / self.rate
            while (left := next_send - time.monotonic()) > 0 and not self._fatal:
                producer.poll(left)


class GroupLoad(Recorder):
    """A group member that commits what it consumed after every poll and reads its commits back."""

    def __init__(self, bootstrap: str, topic: str, group: str) -> None:
        super().__init__()
        self.bootstrap, self.topic, self.group = bootstrap, topic, group
        self.commits: list[Commit] = []
        self.consumed = 0

    def run(self) -> None:
        consumer = KafkaConsumer(self.topic, bootstrap_servers=self.bootstrap, group_id=self.group,
                                 enable_auto_commit=False, auto_offset_reset="earliest",
                                 request_timeout_ms=20000, session_timeout_ms=10000)
        last_read_back = 0.0
        try:
            while not self._stopping.is_set():
                try:
                    self._poll_and_commit(consumer)
                    if time.time() - last_read_back > 2:
                        last_read_back = time.time()
                        self._read_back(consumer)
                except Exception as exc:  # noqa: BLE001 - coordinator moves, timeouts: count, go on
                    self.errors[type(exc).__name__] += 1
                    self._stopping.wait(0.5)
        finally:
            consumer.close(autocommit=False)

    def _poll_and_commit(self, consumer: KafkaConsumer) -> None:
        batches = consumer.poll(timeout_ms=500)
        if not batches:
            return
        offsets = {tp: OffsetAndMetadata(records[-1].offset + 1, "", -1) for tp, records in batches.items()}
        self.consumed += sum(len(records) for records in batches.values())
        consumer.commit(offsets)
        now = time.time()
        self.commits.extend(Commit(now, tp.partition, o.offset, False) for tp, o in offsets.items())

    def _read_back(self, consumer: KafkaConsumer) -> None:
        for tp in consumer.assignment():
            offset = consumer.committed(tp)
            if offset is not None:
                self.commits.append(Commit(time.time(), tp.partition, offset, True))


class IsrSampler(Recorder):
    """Reads every partition's state znode from ZooKeeper every `interval` seconds."""

    def __init__(self, connect: str, topic: str, partitions: int, interval: float = 0.1) -> None:
        super().__init__()
        self.connect, self.topic, self.partitions, self.interval = connect, topic, partitions, interval
        self.samples: list[IsrSample] = []

    def run(self) -> None:
        kazoo = KazooClient(hosts=self.connect, timeout=4)
        kazoo.start(timeout=30)
        try:
            while not self._stopping.wait(self.interval):
                for partition in range(self.partitions):
                    try:
                        data, stat = kazoo.get(f"/brokers/topics/{self.topic}/partitions/{partition}/state")
                    except Exception as exc:  # noqa: BLE001 - ZooKeeper down or cut: an unknown stretch
                        self.errors[type(exc).__name__] += 1
                        continue
                    state = json.loads(data)
                    self.samples.append(IsrSample(time.time(), partition, stat.version, stat.mtime / 1000,
                                                  state["leader"], tuple(state["isr"])))
        finally:
            kazoo.stop()
            kazoo.close()


def read_partitions(bootstrap: str, topic: str, partitions: int, timeout: float = 120
                    ) -> tuple[dict[int, int], dict[int, dict[int, bytes]]]:
    """Every record from offset 0 to the high watermark, read by a fresh consumer: (HWs, {p: {offset: value}})."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, request_timeout_ms=30000)
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        ends = consumer.end_offsets(tps)
        logs: dict[int, dict[int, bytes]] = {p: {} for p in range(partitions)}
        deadline = time.time() + timeout
        while any(consumer.position(tp) < ends[tp] for tp in tps):
            if time.time() > deadline:
                raise AssertionError(f"could not read every partition up to its high watermark in {timeout} s")
            for tp, records in consumer.poll(timeout_ms=1000).items():
                logs[tp.partition].update((r.offset, r.value) for r in records if r.offset < ends[tp])
        return {tp.partition: ends[tp] for tp in tps}, logs
    finally:
        consumer.close()
