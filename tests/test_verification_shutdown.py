"""A partition leader shut down while it waits for a transaction coordinator's answer to a
verification (KIP-890, AddPartitionsToTxn verify_only): two josefk brokers under a real
ZooKeeper, the coordinator frozen (SIGSTOP) after two producers added their partition, the
leader then stopped with SIGTERM while one verification is out and the other waits its
turn on the connection. Kafka's AddPartitionsToTxnManager goes down with the
ReplicaManager and sends and answers nothing more; the leader must exit at once and
cleanly (no error, no pending task destroyed), the producers' requests unanswered."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.wire import call, connect, encode_request, read_frame, wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.record_codec import Record, build_batch

pytestmark = pytest.mark.cluster

TXN_IDS = ("verify-at-shutdown-1", "verify-at-shutdown-2")  # one __transaction_state partition: one coordinator
TOPIC = "guarded"


def _tcp() -> list[list[str]]:
    """/proc/net/tcp's rows: local and remote address, state, tx_queue:rx_queue, ..."""
    with open("/proc/net/tcp", encoding="ascii") as f:
        return [line.split()[1:] for line in f.readlines()[1:]]


def _address(port: int) -> str:
    return f"0100007F:{port:04X}"  # 127.0.0.1 as /proc/net/tcp writes it


def _connections_to(port: int) -> int:
    """Established TCP connections to 127.0.0.1:`port` (both ends are on this host)."""
    return sum(1 for row in _tcp() if row[2] == "01" and row[1] == _address(port))


def _read_by_server(client: socket.socket, server_port: int) -> bool:
    """Whether the server read everything the client sent: its end has nothing queued."""
    client_port = client.getsockname()[1]
    return any(row[0] == _address(server_port) and row[1] == _address(client_port) and row[3].endswith(":00000000")
               for row in _tcp())


def _produce(client: socket.socket, txn_id: str, producer: tuple[int, int]) -> None:
    """A producer's first transactional batch to the partition (Produce v9), not waiting for the answer."""
    batch = build_batch([Record(0, int(time.time() * 1000), None, b"v")], producer_id=producer[0],
                        producer_epoch=producer[1], base_sequence=0, is_transactional=True)
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=TOPIC, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=0, records=batch)])
    client.sendall(encode_request(ApiKey.Produce, 9, cls(transactional_id=txn_id, acks=-1, timeout_ms=30_000,
                                                         topic_data=[data])))


def _broker(zk: ZooKeeperServer, root: Path, broker_id: int) -> BrokerProcess:
    overrides = {"broker.id": str(broker_id), "zookeeper.connect": zk.connect,
                 "offsets.topic.replication.factor": "1", "transaction.state.log.num.partitions": "1",
                 "transaction.state.log.replication.factor": "1", "transaction.state.log.min.isr": "1"}
    return BrokerProcess(root / f"broker-{broker_id}", output=root / f"broker-{broker_id}.out", log_level="INFO",
                         overrides=overrides)


def test_leader_shut_down_while_verifying_exits_cleanly(zookeeper: ZooKeeperServer, tmp_path: Path) -> None:
    kazoo = KazooClient(hosts=zookeeper.connect)
    kazoo.start(timeout=10)
    leader = _broker(zookeeper, tmp_path, 1)  # the controller, so its controlled shutdown needs no other broker
    coordinator: BrokerProcess | None = None
    try:
        wait_until(lambda: kazoo.exists("/controller") is not None, "broker 1 is the controller")
        assert json.loads(kazoo.get("/controller")[0])["brokerid"] == 1
        coordinator = _broker(zookeeper, tmp_path, 2)
        admin = KafkaAdminClient(bootstrap_servers=f"{leader.bootstrap},{coordinator.bootstrap}")
        admin.create_topics([NewTopic("__transaction_state", replica_assignments={0: [2]}),
                             NewTopic(TOPIC, replica_assignments={0: [1]})])
        admin.close()
        producers = {}
        with connect(coordinator.bootstrap) as sock:
            for txn_id in TXN_IDS:
                def init(txn_id: str = txn_id) -> tuple[int, int] | None:
                    _cid, answer = call(sock, ApiKey.InitProducerId, 3, transactional_id=txn_id,
                                        transaction_timeout_ms=60_000, producer_id=-1, producer_epoch=-1)
                    return (answer.producer_id, answer.producer_epoch) if answer.error_code == 0 else None

                wait_until(lambda: init() is not None, "InitProducerId from broker 2, the coordinator")
                producer = init()
                assert producer is not None
                producers[txn_id] = producer
                add_topic = request_class(ApiKey.AddPartitionsToTxn).AddPartitionsToTxnTopic
                _cid, added = call(sock, ApiKey.AddPartitionsToTxn, 3, v3_and_below_transactional_id=txn_id,
                                   v3_and_below_producer_id=producer[0], v3_and_below_producer_epoch=producer[1],
                                   v3_and_below_topics=[add_topic(name=TOPIC, partitions=[0])])
                assert added.results_by_topic_v3_and_below[0].results_by_partition[0].partition_error_code == 0
        coordinator.proc.send_signal(signal.SIGSTOP)  # alive to ZooKeeper for a while, answering nothing
        before = _connections_to(coordinator.port)
        with connect(leader.bootstrap) as first, connect(leader.bootstrap) as second:
            _produce(first, TXN_IDS[0], producers[TXN_IDS[0]])
            wait_until(lambda: _connections_to(coordinator.port) == before + 1, "broker 1 asks the coordinator")
            _produce(second, TXN_IDS[1], producers[TXN_IDS[1]])  # its question waits for the first's answer
            wait_until(lambda: _read_by_server(second, leader.port), "broker 1 read the second produce")
            stopping = time.monotonic()
            assert leader.stop(timeout=20) == 0
            took = time.monotonic() - stopping
            for client in (first, second):
                with pytest.raises(ConnectionError):  # closed with the broker, the produce unanswered
                    read_frame(client)
        assert took < 10, f"the shutdown waited {took:.1f} s for the coordinator"  # its request timeout is 30 s
        output = (tmp_path / "broker-1.out").read_text(errors="replace")
        assert "shut down completed" in output
        for bad in ("Task was destroyed", "Traceback", " ERROR ", "Exception in callback", "never retrieved"):
            assert bad not in output, output[-3000:]
    finally:
        if coordinator is not None:
            coordinator.proc.send_signal(signal.SIGCONT)
            coordinator.stop()
        leader.stop()
        kazoo.stop()
