"""A cluster of Apache Kafka (3.9 or 2.8) and josefk brokers under one real ZooKeeper, by broker
id, for the mixed-cluster tests: start, kill -9, controlled shutdown and restart on the
same port and log dir; what ZooKeeper says (controller, its epoch, partition states,
broker epochs) and what each broker answers Metadata with; an idempotent acks=all
producer in a thread and a reader of everything a topic holds (confluent-kafka)."""

from __future__ import annotations

import json
import re
import signal
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.kafka import KAFKA_3_9, KafkaBroker, KafkaRelease
from harness.net import free_port
from harness.wire import call, connect
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey

Broker = KafkaBroker | BrokerProcess
T = TypeVar("T")
# (leader, ISR sorted) of each partition of a topic.
Leadership = dict[int, tuple[int, list[int]]]


def wait_for(condition: Callable[[], T | None], timeout: float, what: str) -> T:
    """Poll `condition` every 0.2 s until it returns something true, and return that."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


class MixedCluster:
    """Brokers `kafka_ids` are Kafka (3.9 unless another `release`), the others josefk
    processes; `common` are settings both get (Kafka's keys). Each broker keeps its work
    dir (work/<kind>-<id>) and port across restarts."""

    def __init__(self, zookeeper: ZooKeeperServer, work: Path, kafka_ids: set[int], common: dict[str, str],
                 release: KafkaRelease = KAFKA_3_9) -> None:
        self.zookeeper, self.work, self.kafka_ids, self.release = zookeeper, work, kafka_ids, release
        self.common = common
        self.brokers: dict[int, Broker] = {}
        self.metrics_ports: dict[int, int] = {}  # josefk's /metrics (metrics.http.listener)
        self.zk = KazooClient(zookeeper.connect)
        self.zk.start()

    def start(self, broker_id: int) -> Broker:
        previous = self.brokers.get(broker_id)
        port = previous.port if previous is not None else None
        if broker_id in self.kafka_ids:
            broker: Broker = KafkaBroker(self.work / f"kafka-{broker_id}", self.zookeeper.connect,
                                         broker_id=broker_id, overrides=self.common, port=port,
                                         release=self.release)
        else:
            work = self.work / f"josefk-{broker_id}"
            work.mkdir(parents=True, exist_ok=True)
            metrics = self.metrics_ports.setdefault(broker_id, free_port())
            broker = BrokerProcess(work / "logs", port=port, output=work / "josefk.out", log_level="INFO",
                                   overrides={
                                       "broker.id": str(broker_id), "zookeeper.connect": self.zookeeper.connect,
                                       "metrics.http.listener": f"127.0.0.1:{metrics}", **self.common})
        self.brokers[broker_id] = broker
        return broker

    def start_all(self, broker_ids: list[int]) -> None:
        """Kafka's JVMs start in parallel (each takes seconds); josefk's after them."""
        failures: list[BaseException] = []

        def start(broker_id: int) -> None:
            try:
                self.start(broker_id)
            except BaseException as e:  # noqa: BLE001 - re-raised below, on the test's thread
                failures.append(e)

        threads = [threading.Thread(target=start, args=(b,)) for b in broker_ids if b in self.kafka_ids]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]
        for broker_id in broker_ids:
            if broker_id not in self.kafka_ids:
                self.start(broker_id)

    def is_kafka(self, broker_id: int) -> bool:
        return broker_id in self.kafka_ids

    def kind(self, broker_id: int) -> str:
        return "kafka" if self.is_kafka(broker_id) else "josefk"

    def log_dir(self, broker_id: int) -> Path:
        return Path(self.brokers[broker_id].log_dir)

    def kill(self, broker_id: int) -> None:
        self.brokers[broker_id].kill()

    def freeze(self, broker_id: int) -> None:
        """SIGSTOP: the process keeps its sockets and state but does nothing, as a broker
        in a long GC pause or swapped out; its ZooKeeper session expires meanwhile."""
        self.brokers[broker_id].proc.send_signal(signal.SIGSTOP)

    def thaw(self, broker_id: int) -> None:
        self.brokers[broker_id].proc.send_signal(signal.SIGCONT)

    def shutdown(self, broker_id: int) -> bool:
        """Controlled shutdown (SIGTERM); whether it completed cleanly."""
        broker = self.brokers[broker_id]
        if isinstance(broker, KafkaBroker):
            return broker.stop()
        return broker.stop(60) == 0

    def restart(self, broker_id: int) -> Broker:
        """Start a stopped broker again, once its old registration is gone (Kafka refuses
        to start while /brokers/ids/<id> of its killed predecessor's session is there)."""
        wait_for(lambda: not self.zk.exists(f"/brokers/ids/{broker_id}"), 30,
                 f"broker {broker_id}'s old registration to expire")
        return self.start(broker_id)

    def bootstraps(self) -> str:
        return ",".join(b.bootstrap for _, b in sorted(self.brokers.items()))

    def close(self) -> None:
        for broker in self.brokers.values():
            broker.kill()  # a frozen one too: SIGKILL ends a stopped process
        self.zk.stop()
        self.zk.close()

    # -- what ZooKeeper says ---------------------------------------------------------

    def controller(self) -> tuple[int, int] | None:
        """(/controller's broker id, /controller_epoch), None while no broker holds it."""
        found = self.zk.exists("/controller")
        if found is None:
            return None
        try:
            holder = json.loads(self.zk.get("/controller")[0])["brokerid"]
            epoch = int(self.zk.get("/controller_epoch")[0])
        except Exception:  # noqa: BLE001 - the node went between the two reads: no controller right now
            return None
        return holder, epoch

    def registered(self) -> set[int]:
        return {int(b) for b in self.zk.get_children("/brokers/ids")}

    def broker_epoch(self, broker_id: int) -> int:
        """The czxid of the broker's registration, its epoch (KIP-380)."""
        return self.zk.exists(f"/brokers/ids/{broker_id}").czxid

    def partition_states(self, topic: str) -> Leadership:
        path = f"/brokers/topics/{topic}/partitions"
        states = {}
        for partition in self.zk.get_children(path):
            data = json.loads(self.zk.get(f"{path}/{partition}/state")[0])
            states[int(partition)] = (data["leader"], sorted(data["isr"]))
        return states

    def partition_state(self, topic: str, partition: int) -> tuple[dict, int]:
        """The state znode's JSON and its version (the partition epoch)."""
        data, stat = self.zk.get(f"/brokers/topics/{topic}/partitions/{partition}/state")
        return json.loads(data), stat.version

    # -- what the brokers say ----------------------------------------------------------

    def metadata(self, broker_id: int, topic: str | None) -> tuple[int, Leadership] | None:
        """(controller id, partition leadership of `topic`) in that broker's own Metadata
        answer (v4, sent to it alone, creating no topic); None if it does not answer."""
        wanted = [request_class(ApiKey.Metadata).MetadataRequestTopic(name=topic)] if topic else []
        try:
            with connect(self.brokers[broker_id].bootstrap) as sock:
                _cid, response = call(sock, ApiKey.Metadata, 4, topics=wanted, allow_auto_topic_creation=False)
        except (OSError, ConnectionError):
            return None
        partitions = {p.partition_index: (p.leader_id, sorted(p.isr_nodes))
                      for t in response.topics if t.name == topic and t.error_code == 0 for p in t.partitions}
        return response.controller_id, partitions

    def topic_id(self, broker_id: int, topic: str) -> uuid.UUID | None:
        """The topic's id in that broker's Metadata (v10, which Kafka 2.8 has too) answer: the zero UUID where the
        cluster has no topic ids (inter.broker.protocol.version below 2.8)."""
        wanted = request_class(ApiKey.Metadata).MetadataRequestTopic(name=topic, topic_id=uuid.UUID(int=0))
        with connect(self.brokers[broker_id].bootstrap) as sock:
            _cid, response = call(sock, ApiKey.Metadata, 10, topics=[wanted], allow_auto_topic_creation=False,
                                  include_topic_authorized_operations=False)
        # kafka-python decodes the zero UUID as None
        return next((t.topic_id or uuid.UUID(int=0) for t in response.topics if t.name == topic and t.error_code == 0),
                    None)

    def controller_known_everywhere(self) -> bool:
        """Every running broker's Metadata names the controller /controller names. Until a
        broker has the controller's first UpdateMetadata it answers no controller (-1),
        and an admin client that asked it may wait out its whole timeout for one."""
        found = self.controller()
        return found is not None and all((self.metadata(b, None) or (-1,))[0] == found[0] for b in self.brokers)

    def josefk_active_controller(self, broker_id: int) -> bool:
        """Whether a josefk broker counts itself the active controller (its
        ActiveControllerCount gauge on /metrics)."""
        url = f"http://127.0.0.1:{self.metrics_ports[broker_id]}/metrics"
        with urllib.request.urlopen(url, timeout=10) as answer:
            text = answer.read().decode()
        found = re.search(r"^kafka_controller_kafkacontroller_activecontrollercount (\S+)$", text, re.MULTILINE)
        assert found is not None, "no ActiveControllerCount on josefk's /metrics"
        return float(found[1]) == 1


class Producing:
    """An idempotent acks=all producer in a thread, round-robin over `partitions` of
    `topic`; what was acknowledged, by (partition, offset), and any delivery error."""

    def __init__(self, bootstrap: str, topic: str, partitions: int) -> None:
        self.topic, self.partitions = topic, partitions
        self.acked: dict[tuple[int, int], bytes] = {}
        self.errors: list[KafkaError] = []
        self.stopping = threading.Event()
        self.producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                                  "linger.ms": 5, "message.timeout.ms": 60000})
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _delivered(self, err: KafkaError | None, msg: object) -> None:
        if err is None:
            self.acked[(msg.partition(), msg.offset())] = msg.value()  # type: ignore[attr-defined]
        else:
            self.errors.append(err)

    def _run(self) -> None:
        i = 0
        while not self.stopping.is_set():
            try:
                self.producer.produce(self.topic, b"record-%d" % i, partition=i % self.partitions,
                                      on_delivery=self._delivered)
            except BufferError:  # no leader takes records for a moment: wait for room
                self.producer.poll(0.5)
                continue
            i += 1
            self.producer.poll(0.005 if i % 10 == 0 else 0)

    def acked_beyond(self, before: dict[int, int], more: int) -> bool:
        """More than `more` records acknowledged on every partition since the counts `before`."""
        return all(n > before[p] + more for p, n in self.acked_per_partition().items())

    def acked_per_partition(self) -> dict[int, int]:
        counts = dict.fromkeys(range(self.partitions), 0)
        for partition, _offset in list(self.acked):
            counts[partition] += 1
        return counts

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)
        assert self.producer.flush(60) == 0, "records still unacknowledged a minute after the producer stopped"


def read_all(bootstrap: str, topic: str, partitions: int, timeout: float = 60) -> dict[tuple[int, int], bytes]:
    """Every record of every partition up to its high watermark at the time of the call,
    by (partition, offset), read by an assigned consumer (no group)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "read-all", "enable.auto.commit": False,
                         "auto.offset.reset": "earliest"})
    try:
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(partitions)}
        consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions) if ends[p] > 0])
        records: dict[tuple[int, int], bytes] = {}
        done = {p for p, end in ends.items() if end == 0}
        deadline = time.monotonic() + timeout
        while len(done) < partitions and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error() is not None:
                continue
            partition, offset, value = msg.partition(), msg.offset(), msg.value()
            assert partition is not None and offset is not None, "a consumed record has both"
            assert value is not None, "the workload writes no tombstones"
            records[(partition, offset)] = value
            if offset + 1 >= ends[partition]:
                done.add(partition)
        return records
    finally:
        consumer.close()
