"""Epochs between josefk and Apache Kafka 3.9 under one real ZooKeeper (issue 12): the
broker epoch checks of both controllers and brokers, side by side; josefk followers
truncating on a leader's diverging epoch (Fetch v12+ last_fetched_epoch), of a Kafka and of
a josefk leader; and the /feature znode, written by either controller and read by both."""

from __future__ import annotations

import base64
import json
import signal
import uuid
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic
from kazoo.client import KazooClient

from harness.josefk import BrokerProcess
from harness.kafka import KafkaBroker
from harness.wire import call, connect
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import LATEST_PROTOCOL
from josefk.protocol.messages.generated.alter_partition_request import BrokerState, PartitionData, TopicData
from josefk.protocol.record_codec import decode_all
from josefk.protocol.records import whole_batches_size
from josefk.zk.feature_znode import ENABLED, FeatureZNode
from tests.test_mixed_cluster import produce, segment, wait_for

pytestmark = pytest.mark.cluster

SESSION = {"zookeeper.session.timeout.ms": "6000", "auto.leader.rebalance.enable": "false"}
TOPIC = "t"


def josefk_broker(work: Path, zookeeper: ZooKeeperServer, broker_id: int, port: int | None = None,
                  run: int = 1, ibp: str = "3.9") -> BrokerProcess:
    return BrokerProcess(work / f"josefk-{broker_id}", port=port, overrides={
        "broker.id": str(broker_id), "zookeeper.connect": zookeeper.connect, **SESSION,
        "inter.broker.protocol.version": ibp},
        output=work / f"josefk-{broker_id}-{run}.out", log_level="INFO")


@pytest.fixture
def zk(zookeeper: ZooKeeperServer) -> Iterator[KazooClient]:
    client = KazooClient(hosts=zookeeper.connect)
    client.start(timeout=30)
    yield client
    client.stop()
    client.close()


def state(zk: KazooClient, topic: str = TOPIC) -> dict:
    return json.loads(zk.get(f"/brokers/topics/{topic}/partitions/0/state")[0])


def controller_id(zk: KazooClient) -> int | None:
    found = zk.exists("/controller") and zk.get("/controller")[0]
    return json.loads(found)["brokerid"] if found else None


def broker_epoch(zk: KazooClient, broker_id: int) -> int:
    """Kafka's broker epoch: the czxid of the broker's registration."""
    return zk.get(f"/brokers/ids/{broker_id}")[1].czxid


def create_topic(bootstrap: str, replicas: list[int]) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    [future] = admin.create_topics([NewTopic(TOPIC, num_partitions=1, replica_assignment=[replicas],
                                             config={"min.insync.replicas": "2"})]).values()
    future.result(30)


def set_min_isr(bootstrap: str, value: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entry = ConfigEntry("min.insync.replicas", value, incremental_operation=AlterConfigOpType.SET)
    for future in admin.incremental_alter_configs([ConfigResource(ConfigResource.Type.TOPIC, TOPIC,
                                                                  incremental_configs=[entry])]).values():
        future.result(30)


def records(log_dir: Path) -> list[tuple[int, bytes | None]]:
    """The segment's records, up to its last whole batch: read while the broker may be
    appending (a loaded CI run caught a batch half written), as a fetcher reads a log."""
    data = segment(log_dir, TOPIC).read_bytes()
    return [(r.offset, r.value) for r in decode_all(data[:whole_batches_size(data)])]


# -- broker epochs ------------------------------------------------------------------------

def epoch_answers(bootstrap: str, zk: KazooClient, broker_id: int) -> dict[str, object]:
    """What a controller answers broker `broker_id` (the partition's leader or not) for
    requests carrying other broker epochs than its registration's, and for epochs of the
    partition newer than the controller wrote; none of them may change anything."""
    epoch = broker_epoch(zk, broker_id)
    current = state(zk)
    topic_id = uuid.UUID(bytes=base64.urlsafe_b64decode(json.loads(zk.get(f"/brokers/topics/{TOPIC}")[0])["topic_id"]
                                                        + "=="))

    def alter(sender: int, sender_epoch: int, leader_epoch: int, partition_epoch: int) -> object:
        partition = PartitionData(
            partition_index=0, leader_epoch=leader_epoch, partition_epoch=partition_epoch, leader_recovery_state=0,
            new_isr_with_epochs=[BrokerState(broker_id=b, broker_epoch=-1) for b in current["isr"]])
        with connect(bootstrap) as sock:
            _cid, response = call(sock, ApiKey.AlterPartition, 3, broker_id=sender, broker_epoch=sender_epoch,
                                  topics=[TopicData(topic_id=topic_id, partitions=[partition])])
        return response.error_code, [p.error_code for t in response.topics for p in t.partitions]

    def allocate(sender: int, sender_epoch: int) -> int:
        with connect(bootstrap) as sock:
            _cid, response = call(sock, ApiKey.AllocateProducerIds, 0, broker_id=sender, broker_epoch=sender_epoch)
        return response.error_code

    def shutdown(sender: int, sender_epoch: int) -> int:
        with connect(bootstrap) as sock:
            _cid, response = call(sock, ApiKey.ControlledShutdown, 3, broker_id=sender, broker_epoch=sender_epoch)
        return response.error_code

    leader_epoch, partition_epoch = current["leader_epoch"], zk.get(f"/brokers/topics/{TOPIC}/partitions/0/state")[
        1].version
    answers: dict[str, object] = {
        "alter, older epoch": alter(broker_id, epoch - 1, leader_epoch, partition_epoch),
        "alter, newer epoch": alter(broker_id, epoch + 1, leader_epoch, partition_epoch),
        "alter, epoch -1": alter(broker_id, -1, leader_epoch, partition_epoch),
        "alter, unregistered broker": alter(99, epoch, leader_epoch, partition_epoch),
        "alter, newer leader epoch": alter(broker_id, epoch, leader_epoch + 5, partition_epoch),
        "alter, newer partition epoch": alter(broker_id, epoch, leader_epoch, partition_epoch + 5),
        "allocate, newer epoch": allocate(broker_id, epoch + 1),
        "allocate, unregistered broker": allocate(99, epoch),
        "controlled shutdown, older epoch": shutdown(broker_id, epoch - 1),
    }
    assert state(zk) == current  # nothing was written
    return answers


EXPECTED = {
    "alter, older epoch": (ErrorCode.STALE_BROKER_EPOCH, []),
    "alter, newer epoch": (ErrorCode.STALE_BROKER_EPOCH, []),
    "alter, epoch -1": (ErrorCode.STALE_BROKER_EPOCH, []),
    "alter, unregistered broker": (ErrorCode.STALE_BROKER_EPOCH, []),
    "alter, newer leader epoch": (ErrorCode.NONE, [ErrorCode.NOT_CONTROLLER]),
    "alter, newer partition epoch": (ErrorCode.NONE, [ErrorCode.NOT_CONTROLLER]),
    "allocate, newer epoch": ErrorCode.STALE_BROKER_EPOCH,
    "allocate, unregistered broker": ErrorCode.BROKER_ID_NOT_REGISTERED,
    "controlled shutdown, older epoch": ErrorCode.STALE_BROKER_EPOCH,
}


def stale_controller_requests(bootstrap: str, epoch: int) -> list[int]:
    """LeaderAndIsr v7, UpdateMetadata v8 and StopReplica v4 to a broker, each with a broker
    epoch older than its registration (meant for an earlier incarnation)."""
    answers = []
    with connect(bootstrap) as sock:
        for api_key, version, fields in (
                (ApiKey.LeaderAndIsr, 7, {"type": 0, "topic_states": [], "live_leaders": []}),
                (ApiKey.UpdateMetadata, 8, {"topic_states": [], "live_brokers": []}),
                (ApiKey.StopReplica, 4, {"topic_states": []})):
            _cid, response = call(sock, api_key, version, controller_id=1, controller_epoch=1,
                                  broker_epoch=epoch - 1, **fields)
            answers.append(response.error_code)
    return answers


def test_kafka_and_josefk_controllers_check_broker_epochs_alike(zookeeper: ZooKeeperServer, zk: KazooClient,
                                                                 tmp_path: Path) -> None:
    """The same requests from josefk broker 2 to Kafka's controller and then, Kafka killed,
    to josefk's: the same answers, Kafka 3.9's (stale = any epoch but the registered one for
    AlterPartition and AllocateProducerIds, only an older one for ControlledShutdown; newer
    partition epochs NOT_CONTROLLER). Both brokers refuse controller requests of an older
    broker epoch with STALE_BROKER_EPOCH."""
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1, overrides=SESSION)
    josefk = None
    try:
        josefk = josefk_broker(tmp_path, zookeeper, 2)
        create_topic(kafka.bootstrap, [2, 1])
        wait_for(lambda: state(zk)["isr"] == [2, 1], 30, "both replicas in the ISR")
        assert controller_id(zk) == 1
        assert epoch_answers(kafka.bootstrap, zk, 2) == EXPECTED
        assert stale_controller_requests(kafka.bootstrap, broker_epoch(zk, 1)) == [ErrorCode.STALE_BROKER_EPOCH] * 3
        assert stale_controller_requests(josefk.bootstrap, broker_epoch(zk, 2)) == [ErrorCode.STALE_BROKER_EPOCH] * 3

        kafka.kill()
        wait_for(lambda: controller_id(zk) == 2, 60, "josefk's controller")
        wait_for(lambda: state(zk)["isr"] == [2], 30, "the dead Kafka out of the ISR")
        assert epoch_answers(josefk.bootstrap, zk, 2) == EXPECTED
    finally:
        if josefk is not None:
            josefk.kill()
        kafka.kill()


# -- last_fetched_epoch and diverging epochs ----------------------------------------------

def run_divergence(zookeeper: ZooKeeperServer, zk: KazooClient, tmp_path: Path, other: KafkaBroker | BrokerProcess,
                   other_id: int, ibp: str = "3.9") -> None:
    """josefk broker 2 leads, `other` (started first: the controller) follows. `other` is
    frozen while josefk takes acks=1 records alone, then josefk is killed: `other` leads a new
    epoch and takes other records at those offsets. josefk comes back on its log dir as
    `other`'s follower: its first fetch names its last epoch, the leader answers where that
    epoch diverged, josefk truncates there and fetches the leader's records. Both logs end
    equal record by record. Below inter.broker.protocol.version 2.7 the follower asks
    OffsetForLeaderEpoch first instead, with the same outcome."""
    josefk = josefk_broker(tmp_path, zookeeper, 2, ibp=ibp)
    try:
        create_topic(other.bootstrap, [2, other_id])
        josefk_dir = Path(josefk.log_dir)
        wait_for(lambda: segment(josefk_dir, TOPIC).exists(), 30, "josefk to create the partition")
        shared = produce(josefk.bootstrap, TOPIC, [b"shared-%d" % i for i in range(50)])
        wait_for(lambda: records(Path(other.log_dir))[-1:] == [shared[-1]], 30, "the follower to replicate")
        set_min_isr(josefk.bootstrap, "1")
        other.proc.send_signal(signal.SIGSTOP)
        try:
            # 3 MB: a fetch answer already on its way to the frozen follower holds at most
            # 1 MB (replica.fetch.max.bytes), so most of these stay josefk's alone.
            alone = produce(josefk.bootstrap, TOPIC, [b"josefk-only-%d-" % i + bytes(100_000) for i in range(30)],
                            acks="1")
            josefk.kill()
        finally:
            other.proc.send_signal(signal.SIGCONT)
        assert [offset for offset, _ in alone] == list(range(50, 80))
        before = records(josefk_dir)
        assert before[50:] == alone  # the tail that will diverge

        wait_for(lambda: state(zk)["leader"] == other_id, 60, "the other broker to lead")
        kept = produce(other.bootstrap, TOPIC, [b"new-leader-%d" % i for i in range(5)], acks="1")
        end = kept[0][0]
        assert 50 <= end < 75  # the new epoch writes where josefk has its own records

        josefk = josefk_broker(tmp_path, zookeeper, 2, port=josefk.port, run=2, ibp=ibp)
        wait_for(lambda: records(josefk_dir) == records(Path(other.log_dir)), 60,
                 "josefk to hold the leader's log record by record")
        after = records(josefk_dir)
        assert after[:end] == before[:end] and after[end:] == kept
        assert segment(josefk_dir, TOPIC).read_bytes() == segment(Path(other.log_dir), TOPIC).read_bytes()
        out = (tmp_path / "josefk-2-2.out").read_text()
        assert (f"{TOPIC}-0: leader {other_id} answers a diverging epoch" in out) == (ibp == "3.9")
        assert f"{TOPIC}-0: truncating from 80 to {end}" in out
    finally:
        josefk.kill()


def test_a_josefk_follower_truncates_on_a_kafka_leaders_diverging_epoch(zookeeper: ZooKeeperServer,
                                                                       zk: KazooClient, tmp_path: Path) -> None:
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1, overrides=SESSION)
    try:
        run_divergence(zookeeper, zk, tmp_path, kafka, 1)
    finally:
        kafka.kill()


@pytest.mark.parametrize("ibp", ["3.9", "2.6"])
def test_a_josefk_follower_truncates_on_a_josefk_leaders_diverging_epoch(zookeeper: ZooKeeperServer,
                                                                        zk: KazooClient, tmp_path: Path,
                                                                        ibp: str) -> None:
    other = josefk_broker(tmp_path, zookeeper, 1, ibp=ibp)
    try:
        run_divergence(zookeeper, zk, tmp_path, other, 1, ibp)
    finally:
        other.kill()


# -- /feature -----------------------------------------------------------------------------

def features_epoch_is(bootstrap: str, epoch: int) -> bool:
    return finalized_features_epoch(bootstrap) == epoch


def finalized_features_epoch(bootstrap: str) -> int:
    with connect(bootstrap) as sock:
        _cid, response = call(sock, ApiKey.ApiVersions, 3, client_software_name="test",
                              client_software_version="1")
    return response.finalized_features_epoch


KAFKA_FEATURE_ZNODE = FeatureZNode.for_protocol(LATEST_PROTOCOL, ENABLED, {}).encode()


def test_josefks_controller_writes_feature_as_kafka_and_kafka_starts_on_it(zookeeper: ZooKeeperServer,
                                                                          zk: KazooClient, tmp_path: Path) -> None:
    """josefk's controller, elected first, creates /feature as Kafka 3.9's would; a Kafka
    broker joins and reports its version as the finalized features epoch, as josefk does,
    and both follow a change of it."""
    josefk = josefk_broker(tmp_path, zookeeper, 1)
    kafka = None
    try:
        wait_for(lambda: zk.exists("/feature"), 30, "josefk's controller to create /feature")
        data, stat = zk.get("/feature")
        assert (data, stat.version) == (b'{"features":{},"version":2,"status":1}', 0)
        wait_for(lambda: finalized_features_epoch(josefk.bootstrap) == 0, 30, "josefk to read /feature")
        kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=2, overrides=SESSION)
        assert finalized_features_epoch(kafka.bootstrap) == 0
        assert zk.get("/feature")[1].version == 0  # Kafka found nothing to rewrite
        zk.set("/feature", data)  # the same features at a new epoch
        for bootstrap in (josefk.bootstrap, kafka.bootstrap):
            wait_for(partial(features_epoch_is, bootstrap, 1), 30, "the new epoch to be read")
    finally:
        if kafka is not None:
            kafka.kill()
        josefk.kill()


def test_josefk_reads_the_feature_znode_kafkas_controller_wrote(zookeeper: ZooKeeperServer, zk: KazooClient,
                                                               tmp_path: Path) -> None:
    kafka = KafkaBroker(tmp_path / "kafka", zookeeper.connect, broker_id=1, overrides=SESSION)
    josefk = None
    try:
        data, stat = zk.get("/feature")
        assert data == KAFKA_FEATURE_ZNODE  # josefk's encoding is Kafka's, byte for byte
        josefk = josefk_broker(tmp_path, zookeeper, 2)
        assert finalized_features_epoch(josefk.bootstrap) == stat.version == finalized_features_epoch(kafka.bootstrap)
        kafka.kill()  # josefk's controller takes over and finds nothing to rewrite either
        wait_for(lambda: controller_id(zk) == 2, 60, "josefk's controller")
        assert zk.get("/feature")[1].version == stat.version
    finally:
        if josefk is not None:
            josefk.kill()
        kafka.kill()
