"""The replication faults found by fault injection, each pinned by a test on the real
ReplicaManager, Partition, ReplicaFetcher and log, with a fake clock in milliseconds:
fetchers that outlive their leader's connection, acks=all that honours
min.insync.replicas after the append, ISR changes that never block the event loop,
StopReplica without delete keeping the partition's state, and controller requests that
only the controller can send."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from kafka import KafkaProducer

from harness.wire import connect, encode_request, read_frame
from josefk.clients.network_client import BrokerConnection
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.api import decode_response
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.fetch_request import FetchRequest
from josefk.protocol.messages.generated.fetch_response import FetchableTopicResponse, FetchResponse, PartitionData
from josefk.protocol.messages.generated.leader_and_isr_request import (
    LeaderAndIsrPartitionState,
    LeaderAndIsrRequest,
    LeaderAndIsrTopicState,
)
from josefk.protocol.messages.generated.leader_and_isr_response import LeaderAndIsrResponse
from josefk.protocol.messages.generated.stop_replica_request import (
    StopReplicaPartitionState,
    StopReplicaRequest,
    StopReplicaTopicState,
)
from josefk.protocol.messages.generated.stop_replica_response import StopReplicaResponse
from josefk.protocol.messages.generated.update_metadata_request import UpdateMetadataRequest
from josefk.protocol.messages.generated.update_metadata_response import UpdateMetadataResponse
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import AppendResult, FetchPartition, ReplicaManager, ReplicationSettings
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerEpoch, BrokerInfo, PartitionState, partition_state_path

TOPIC = "t"
KEY = (TOPIC, 0)
LAG_MS = 10_000


class GatedStore(EmbeddedStore):
    """An embedded store whose writes can be held, as a paused ZooKeeper holds them."""

    def __init__(self, file: Path) -> None:
        super().__init__(file)
        self.open = threading.Event()
        self.open.set()

    def set(self, path: str, data: bytes, expected_version: int = -1) -> int:
        self.open.wait()
        return super().set(path, data, expected_version)


class Fixture:
    def __init__(self, tmp_path: Path) -> None:
        self.time = MockTime()
        self.store = GatedStore(tmp_path / "store.json")
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig())
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        config = LogConfig.from_props({"min.insync.replicas": "2"})
        self.manager = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _t: config, self.store,
                                      ReplicationSettings(replica_lag_time_max_ms=LAG_MS), self.executor, self.time)

    def lead(self, isr: list[int], leader: int = 1, epoch: int = 1) -> None:
        state = PartitionState(TOPIC, 0, leader, epoch, isr, [1, 2, 3], 1)
        path = partition_state_path(TOPIC, 0)
        if self.store.exists(path):
            state.zk_version = self.store.set(path, json.dumps(state.state_json()).encode())
        else:
            self.store.create(path, json.dumps(state.state_json()).encode())
        brokers = [BrokerInfo(b, "127.0.0.1", 1) for b in (1, 2, 3)]
        assert self.manager.leader_and_isr(0, 1, [state], brokers).error == ErrorCode.NONE

    def produce(self, acks: int, n: int = 3) -> asyncio.Future[AppendResult]:
        batch = build_batch([Record(i, 0, None, b"v%d" % i) for i in range(n)])
        answer: asyncio.Future[AppendResult] = asyncio.get_running_loop().create_future()
        self.manager.append_records({KEY: batch}, acks, 0, 30_000, lambda results: answer.set_result(results[KEY]))
        return answer

    def follower_fetches(self, replica: int, offset: int) -> None:
        self.manager.fetch_messages([FetchPartition(TOPIC, 0, offset, 1 << 20)], 1 << 20, 1, 0, replica,
                                    lambda _results: None)

    def close(self) -> None:
        self.store.open.set()
        self.manager.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()


@pytest.fixture
def fx(tmp_path: Path) -> Iterator[Fixture]:
    fixture = Fixture(tmp_path)
    yield fixture
    fixture.close()


async def until(condition, what: str) -> None:
    """Let the loop run (executor callbacks land on it) until the condition holds."""
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting until {what}")


def test_acks_all_answers_not_enough_replicas_after_append_when_the_isr_shrank(fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1, 2, 3])
        answer = fx.produce(acks=-1)
        fx.follower_fetches(2, 0)
        fx.follower_fetches(3, 0)
        await asyncio.sleep(0.05)
        assert not answer.done()  # the followers do not have offsets 0-2 yet
        fx.time.sleep(LAG_MS + 1)
        fx.manager.maybe_shrink_isrs()  # both followers lag: the ISR shrinks to the leader alone
        result = await asyncio.wait_for(answer, 5)
        assert result.error == ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        assert fx.manager.partitions[KEY].isr == [1]
        state = fx.store.get_json(partition_state_path(TOPIC, 0))
        assert state is not None and state["isr"] == [1]

    asyncio.run(run())


def test_acks_all_succeeds_when_min_insync_replicas_have_the_data(fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1, 2, 3])
        answer = fx.produce(acks=-1)
        fx.time.sleep(LAG_MS + 1)
        fx.follower_fetches(2, 3)  # follower 2 caught up; follower 3 lags and leaves the ISR
        fx.manager.maybe_shrink_isrs()
        result = await asyncio.wait_for(answer, 5)
        assert (result.error, result.base_offset) == (ErrorCode.NONE, 0)
        assert fx.manager.partitions[KEY].isr == [1, 2]

    asyncio.run(run())


def test_a_stalled_store_blocks_neither_produce_nor_fetch_and_the_pending_shrink_holds_the_high_watermark(
        fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1, 2])
        fx.store.open.clear()  # ZooKeeper stops answering
        fx.time.sleep(LAG_MS + 1)
        fx.manager.maybe_shrink_isrs()  # the shrink to [1] is sent, and stays pending
        partition = fx.manager.partitions[KEY]
        assert partition.pending_isr == [1] and partition.isr == [1, 2]
        acked = await asyncio.wait_for(fx.produce(acks=1), 1)  # the loop is not blocked
        assert (acked.error, acked.base_offset) == (ErrorCode.NONE, 0)
        waiting = fx.produce(acks=-1)
        await asyncio.sleep(0.05)
        # follower 2 may still be in the ISR until the store says otherwise: no high watermark past it
        assert partition.high_watermark == 0 and not waiting.done()
        fx.store.open.set()
        result = await asyncio.wait_for(waiting, 5)
        assert result.error == ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        assert partition.isr == [1] and partition.high_watermark == 6

    asyncio.run(run())


def test_isr_expansion_is_applied_once_the_store_has_it(fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1])
        await asyncio.wait_for(fx.produce(acks=1), 1)
        fx.store.open.clear()
        fx.follower_fetches(2, 3)
        partition = fx.manager.partitions[KEY]
        assert partition.pending_isr == [1, 2] and partition.isr == [1]
        fx.store.open.set()
        await until(lambda: partition.isr == [1, 2], "the expansion is committed")
        assert partition.pending_isr is None

    asyncio.run(run())


def test_stop_replica_without_delete_keeps_the_partition_and_its_high_watermark(fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1])
        await asyncio.wait_for(fx.produce(acks=1, n=4), 1)
        assert fx.manager.stop_replica(1, [KEY], delete=False) == ErrorCode.NONE
        snapshot = fx.manager.high_watermark_snapshot()
        assert [offsets.get(KEY) for offsets in snapshot.values()] == [4]
        with pytest.raises(KafkaError) as raised:
            fx.manager.leader_partition(*KEY)
        assert raised.value.code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        fx.lead(isr=[1], epoch=2)  # a later LeaderAndIsr makes it leader again, log intact
        assert fx.manager.leader_partition(*KEY).log.log_end_offset == 4

    asyncio.run(run())


def test_a_leader_and_isr_older_than_the_leaders_own_isr_write_is_skipped(fx: Fixture) -> None:
    """The controller's request for leader epoch 1 (version 0) arrives after the leader
    expanded its ISR (version 1): applying it would rewind the version, and every later
    ISR write of this leader would lose to the store until a new leader epoch."""
    async def run() -> None:
        fx.lead(isr=[1])
        await asyncio.wait_for(fx.produce(acks=1), 1)
        fx.follower_fetches(2, 3)
        partition = fx.manager.partitions[KEY]
        await until(lambda: partition.isr == [1, 2], "the expansion is committed")
        stale = PartitionState(TOPIC, 0, 1, 1, [1], [1, 2, 3], 1, zk_version=0)
        assert fx.manager.leader_and_isr(0, 1, [stale], []).error == ErrorCode.NONE
        assert (partition.isr, partition.zk_version) == ([1, 2], 1)
        fx.time.sleep(LAG_MS + 1)
        fx.manager.maybe_shrink_isrs()  # follower 2 lags: the shrink is conditional on version 1
        await until(lambda: partition.isr == [1], "the shrink is committed")
        state = fx.store.get_json(partition_state_path(TOPIC, 0))
        assert state is not None and state["isr"] == [1]

    asyncio.run(run())


def test_stale_controller_epoch_is_refused(fx: Fixture) -> None:
    async def run() -> None:
        fx.lead(isr=[1])
        fx.manager.controller_epoch = 5
        state = PartitionState(TOPIC, 0, 2, 9, [2], [1, 2, 3], 4)
        assert fx.manager.leader_and_isr(0, 4, [state], []).error == ErrorCode.STALE_CONTROLLER_EPOCH
        assert fx.manager.partitions[KEY].is_leader

    asyncio.run(run())


@pytest.mark.integration
def test_replica_fetcher_survives_its_leader_closing_connections_and_a_dead_one_is_replaced(fx: Fixture) -> None:
    async def run() -> None:
        accepted: list[int] = []

        async def slam(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted.append(1)
            await reader.read(4)  # the request arrives; the "leader" goes away mid-request
            writer.close()

        server = await asyncio.start_server(slam, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            state = PartitionState(TOPIC, 0, 2, 1, [1, 2], [1, 2], 1)
            fx.store.create(partition_state_path(TOPIC, 0), json.dumps(state.state_json()).encode())
            fx.manager.leader_and_isr(0, 1, [state], [BrokerInfo(2, "127.0.0.1", port)])
            fetcher = fx.manager.fetchers[2]
            await until(lambda: len(accepted) >= 2, "the fetcher reconnects after EOF")
            assert fetcher.alive
            fetcher.task.cancel()  # however a fetcher ends, the next LeaderAndIsr does not reuse it
            await until(lambda: not fetcher.alive, "the fetcher task ends")
            fx.manager.leader_and_isr(0, 1, [PartitionState(TOPIC, 0, 2, 2, [1, 2], [1, 2], 1)],
                                      [BrokerInfo(2, "127.0.0.1", port)])
            replacement = fx.manager.fetchers[2]
            assert replacement is not fetcher and replacement.alive and KEY in replacement.partitions
        finally:
            server.close()

    asyncio.run(run())


def test_broker_epoch_accepts_only_the_current_registration() -> None:
    epoch = BrokerEpoch()
    assert epoch.accepts(7)  # registering: the controller may know the new epoch first
    epoch.epoch, epoch.registering = 7, False
    assert epoch.accepts(7)
    assert not epoch.accepts(6)  # meant for an earlier incarnation
    assert not epoch.accepts(8) and not epoch.accepts(-1)  # not from the controller


def test_a_forged_controller_request_is_refused_and_changes_nothing(broker) -> None:
    """A client sends LeaderAndIsr, UpdateMetadata and StopReplica with a huge controller
    epoch and a guessed broker epoch (or, LeaderAndIsr v1, none): each is answered
    STALE_BROKER_EPOCH, the broker keeps
    its controller epoch and keeps serving."""
    server = broker.server
    sock = connect(broker.bootstrap)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    producer.send("kept", b"before").get(timeout=30)
    forged_epoch = server.broker_epoch.epoch + 1
    led = server.replica_manager.partitions[("kept", 0)]
    state = LeaderAndIsrPartitionState(
        partition_index=0, controller_epoch=999, leader=-1, leader_epoch=led.leader_epoch + 100, isr=[],
        partition_epoch=0, replicas=[0], is_new=False)
    forged: list[tuple[int, int, ApiMessage]] = [
        # v1 has no broker epoch at all: at inter.broker.protocol.version 3.9 no controller sends it.
        (ApiKey.LeaderAndIsr, 1, LeaderAndIsrRequest(
            controller_id=7, controller_epoch=999, ungrouped_partition_states=[LeaderAndIsrPartitionState(
                topic_name="kept", partition_index=0, controller_epoch=999, leader=-1,
                leader_epoch=led.leader_epoch + 100, isr=[], partition_epoch=0, replicas=[0], is_new=False)])),
        (ApiKey.LeaderAndIsr, 7, LeaderAndIsrRequest(
            controller_id=7, controller_epoch=999, broker_epoch=forged_epoch,
            topic_states=[LeaderAndIsrTopicState(topic_name="kept", partition_states=[state])])),
        (ApiKey.UpdateMetadata, 8, UpdateMetadataRequest(
            controller_id=7, controller_epoch=999, broker_epoch=forged_epoch)),
        (ApiKey.StopReplica, 4, StopReplicaRequest(
            controller_id=7, controller_epoch=999, broker_epoch=forged_epoch, topic_states=[
                StopReplicaTopicState(topic_name="kept", partition_states=[
                    StopReplicaPartitionState(partition_index=0, leader_epoch=-1, delete_partition=True)])])),
    ]
    for correlation_id, (api_key, version, body) in enumerate(forged, start=1):
        sock.sendall(encode_request(api_key, version, body, correlation_id))
        frame = read_frame(sock)
        header = 4 if version < 4 else 5  # the flexible response header adds a tagged-field byte
        response = decode_response(api_key, version, frame[header:])
        assert isinstance(response, (LeaderAndIsrResponse, UpdateMetadataResponse, StopReplicaResponse))
        assert response.error_code == ErrorCode.STALE_BROKER_EPOCH, ApiKey(api_key).name
    sock.close()
    assert server.replica_manager.controller_epoch < 999 and led.is_leader
    assert producer.send("kept", b"after").get(timeout=30).offset == 1
    producer.close()


def test_a_follower_whose_log_diverged_is_answered_at_once(fx: Fixture) -> None:
    """Kafka's fetchMessages answers a fetch that found a diverging epoch without waiting
    for min_bytes: the follower can take nothing before it truncates, so holding the answer
    for max_wait_ms only delays that."""
    async def run() -> None:
        fx.lead(isr=[1, 2, 3])
        await fx.produce(acks=1)  # offsets 0-2 in epoch 1
        fx.lead(isr=[1, 2, 3], epoch=3)
        answers: list = []
        fx.manager.fetch_messages([FetchPartition(TOPIC, 0, 5, 1 << 20, last_fetched_epoch=2)], 1 << 20, 1,
                                  30_000, 2, answers.append)
        assert len(answers) == 1 and answers[0][0].read.diverging_epoch == (1, 3)

    asyncio.run(run())


class ScriptedLeader(BrokerConnection):
    """A leader that answers each Fetch with no records and the scripted error for each
    partition, and no fetch session, so that every fetch names every partition it asks for."""

    def __init__(self, errors: dict[tuple[str, int], ErrorCode]) -> None:
        super().__init__("127.0.0.1", 1, "scripted-leader")
        self.errors = errors
        self.asked: list[set[tuple[str, int]]] = []

    async def request(self, api_key: int, version: int, body: ApiMessage, timeout: float = 30.0) -> ApiMessage:
        assert api_key == ApiKey.Fetch and isinstance(body, FetchRequest)
        self.asked.append({(t.topic, p.partition) for t in body.topics for p in t.partitions})
        return FetchResponse(error_code=ErrorCode.NONE, session_id=0, responses=[FetchableTopicResponse(
            topic=t.topic, topic_id=t.topic_id, partitions=[PartitionData(
                partition_index=p.partition, error_code=self.errors.get((t.topic, p.partition), ErrorCode.NONE),
                high_watermark=0, records=b"") for p in t.partitions]) for t in body.topics])


def test_a_partition_the_leader_answers_with_an_error_sits_out_replica_fetch_backoff_ms_alone(
        fx: Fixture) -> None:
    """Kafka's AbstractFetcherThread delays only the partitions that failed
    (delayPartitions(partitions, fetchBackOffMs)) and goes on fetching the others."""
    async def run() -> None:
        fx.manager.settings.replica_fetch_backoff_ms = 700
        other = ("u", 0)
        states = [PartitionState(topic, 0, 2, 1, [1, 2], [1, 2], 1) for topic in (TOPIC, "u")]
        for state in states:
            fx.store.create(partition_state_path(state.topic, 0), json.dumps(state.state_json()).encode())
        assert fx.manager.leader_and_isr(0, 1, states, [BrokerInfo(2, "127.0.0.1", 1)]).error == ErrorCode.NONE
        fetcher = fx.manager.fetchers[2]
        fetcher.task.cancel()  # the test drives the fetches
        leader = ScriptedLeader({KEY: ErrorCode.FENCED_LEADER_EPOCH})
        fetcher.connection = leader
        fetcher.truncating.clear()
        await fetcher._fetch_once()
        await fetcher._fetch_once()
        fx.time.sleep(699)
        await fetcher._fetch_once()
        fx.time.sleep(1)
        leader.errors.clear()
        await fetcher._fetch_once()
        await fetcher._fetch_once()
        assert leader.asked == [{KEY, other}, {other}, {other}, {KEY, other}, {KEY, other}]

    asyncio.run(run())
