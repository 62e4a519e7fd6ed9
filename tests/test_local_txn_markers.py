"""Markers for the partitions the coordinator's own broker leads are appended in-process
(replication.txn_marker_writer), not sent to its own listener as WriteTxnMarkers. The path
must behave as the request did: the same control batch in the log, a refusal retried until
the leader takes it (or sent over the network once another broker leads), fencing taken as
fencing, and the group coordinator's hook called. The unit tests run the real marker channel
over a real ReplicaManager on disk; the last one a real broker with librdkafka."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from josefk.coordinator.transaction_marker_channel import TransactionMarkerChannelManager, _Markers
from josefk.protocol.apis import ApiKey
from josefk.protocol.control_records import ControlRecordType, control_record_type, end_txn_coordinator_epoch
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.record_codec import iter_batches
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_manager import ReplicaManager
from josefk.replication.txn_marker_writer import TxnMarkerWriter
from josefk.server.network.request_channel import Request
from josefk.zk.zk_data import BrokerInfo, PartitionState
from tests.conftest import RunningBroker
from tests.disk_replica_manager import replica_manager
from tests.test_transaction_marker_batching import HeldLeader, until

SELF = 1
T0, T1 = ("t", 0), ("t", 1)
UNUSED_PORT = 9  # the discard port: nothing listens there, so a request to ourselves would fail


def lead(manager: ReplicaManager, *partitions: int) -> None:
    states = [PartitionState("t", p, SELF, 1, [SELF], [SELF], 1) for p in partitions]
    assert manager.leader_and_isr(0, 1, states, [BrokerInfo(SELF, "127.0.0.1", UNUSED_PORT)]).error == ErrorCode.NONE


def markers_in(manager: ReplicaManager, tp: tuple[str, int]) -> list[tuple[int, str, int]]:
    """(producer id, COMMIT/ABORT, coordinator epoch) of each control batch in the partition."""
    log = manager.partitions[tp].log
    found = []
    for header, records in iter_batches(log.read(0, 1 << 20, max_offset=None, min_one_message=True).read_bytes()):
        if header.is_control:
            [record] = records
            found.append((header.producer_id, ControlRecordType(control_record_type(record.key)).name,
                          end_txn_coordinator_epoch(record.value)))
    return found


def metadata(leaders: dict[int, int], brokers: dict[int, int]) -> MetadataCache:
    """A cache in which partition p of t is led by leaders[p]; brokers maps id -> port."""
    cache = MetadataCache(SELF)
    cache.update(1, [BrokerInfo(b, "127.0.0.1", port) for b, port in brokers.items()],
                 [PartitionState("t", p, leader, 0, [leader], [leader], 1) for p, leader in leaders.items()])
    return cache


def send(channel: TransactionMarkerChannelManager, done: dict[str, bool], tid: str, pid: int,
         partitions: Iterable[tuple[str, int]], coordinator_epoch: int = 0, commit: bool = True) -> None:
    channel.send_markers(tid, coordinator_epoch, pid, 0, commit, frozenset(partitions),
                         lambda ok: done.__setitem__(tid, ok))


def test_own_partitions_get_their_markers_without_a_request(tmp_path: Path) -> None:
    async def run() -> None:
        with replica_manager(tmp_path) as manager:
            lead(manager, 0, 1)
            heard: list[tuple[int, bool, list[tuple[str, int]]]] = []
            writer = TxnMarkerWriter(manager, 30_000, lambda pid, commit, tps: heard.append((pid, commit, tps)))
            channel = TransactionMarkerChannelManager(SELF, metadata({0: SELF, 1: SELF}, {SELF: UNUSED_PORT}),
                                                      retry_backoff_ms=10, local=writer)
            done: dict[str, bool] = {}
            try:
                send(channel, done, "a", 7, [T0, T1], coordinator_epoch=3)
                send(channel, done, "b", 8, [T1], commit=False)
                await until(lambda: len(done) == 2, "both transactions' markers are written")
            finally:
                await channel.shutdown()
            assert done == {"a": True, "b": True}
            assert markers_in(manager, T0) == [(7, "COMMIT", 3)]
            assert markers_in(manager, T1) == [(7, "COMMIT", 3), (8, "ABORT", 0)]
            assert sorted((pid, commit, sorted(tps)) for pid, commit, tps in heard) == [
                (7, True, [T0, T1]), (8, False, [T1])]

    asyncio.run(run())


@pytest.mark.integration
def test_a_refused_local_marker_is_retried_and_follows_the_leader_away(tmp_path: Path) -> None:
    """Broker 1 is named leader of t-0 and t-1 before it hosts them (its LeaderAndIsr not yet
    applied): the appends are refused and retried until it leads t-0; t-1's leadership then
    moves to broker 2, and its marker goes there as a WriteTxnMarkers request."""
    async def run() -> None:
        leader = HeldLeader()
        server = await asyncio.start_server(leader.serve, "127.0.0.1", 0)
        other = server.sockets[0].getsockname()[1]
        with replica_manager(tmp_path) as manager:
            cache = metadata({0: SELF, 1: SELF}, {SELF: UNUSED_PORT, 2: other})
            channel = TransactionMarkerChannelManager(SELF, cache, retry_backoff_ms=10,
                                                      local=TxnMarkerWriter(manager, 30_000))
            done: dict[str, bool] = {}
            rounds = []
            real_round = channel._round

            def counted_round(markers: _Markers) -> None:
                rounds.append(1)
                real_round(markers)

            channel._round = counted_round  # type: ignore[method-assign]
            try:
                send(channel, done, "a", 7, [T0, T1])
                await until(lambda: len(rounds) >= 3, "the refused markers are retried")
                assert done == {}
                lead(manager, 0)
                cache.update(2, [BrokerInfo(SELF, "127.0.0.1", UNUSED_PORT), BrokerInfo(2, "127.0.0.1", other)],
                             [PartitionState("t", 0, SELF, 1, [SELF], [SELF], 2),
                              PartitionState("t", 1, 2, 1, [2], [2], 2)])
                await until(lambda: len(leader.requests) == 1, "t-1's marker goes to its new leader")
                assert [(t.name, t.partition_indexes) for t in leader.requests[0].markers[0].topics] == [("t", [1])]
                assert markers_in(manager, T0) == [(7, "COMMIT", 0)]
                assert done == {}  # t-1 has no marker yet
                leader.releases[0].set_result({})
                await until(lambda: len(done) == 1, "every partition has its marker")
                assert done == {"a": True}
            finally:
                await channel.shutdown()
                server.close()
                await server.wait_closed()

    asyncio.run(run())


def test_a_local_leader_fencing_the_coordinator_stops_the_markers(tmp_path: Path) -> None:
    """A marker from an older coordinator epoch than the partition has seen is refused with
    TRANSACTION_COORDINATOR_FENCED: the deposed coordinator stops, and does not retry."""
    async def run() -> None:
        with replica_manager(tmp_path) as manager:
            lead(manager, 0)
            channel = TransactionMarkerChannelManager(SELF, metadata({0: SELF}, {SELF: UNUSED_PORT}),
                                                      retry_backoff_ms=10, local=TxnMarkerWriter(manager, 30_000))
            done: dict[str, bool] = {}
            try:
                send(channel, done, "new", 7, [T0], coordinator_epoch=5)
                await until(lambda: "new" in done, "the newer coordinator's marker is written")
                send(channel, done, "old", 7, [T0], coordinator_epoch=4)
                await until(lambda: "old" in done, "the older coordinator hears it is fenced")
                assert done == {"new": True, "old": False}
                assert not channel._retries
            finally:
                await channel.shutdown()
            assert markers_in(manager, T0) == [(7, "COMMIT", 5)]

    asyncio.run(run())


def test_a_local_append_that_raises_is_retried(tmp_path: Path) -> None:
    """A failure of the append itself (a bug, a broken disk) must not leave the transaction
    prepared forever: it is retried as a lost connection is."""
    async def run() -> None:
        with replica_manager(tmp_path) as manager:
            lead(manager, 0)
            real = TxnMarkerWriter(manager, 30_000)
            calls = []

            class BreaksOnce:
                def write(self, producer_id: int, producer_epoch: int, coordinator_epoch: int, commit: bool,
                          partitions: Iterable[tuple[str, int]],
                          done: Callable[[dict[tuple[str, int], ErrorCode]], None]) -> None:
                    calls.append(1)
                    if len(calls) == 1:
                        raise OSError("No space left on device")
                    real.write(producer_id, producer_epoch, coordinator_epoch, commit, partitions, done)

            channel = TransactionMarkerChannelManager(SELF, metadata({0: SELF}, {SELF: UNUSED_PORT}),
                                                      retry_backoff_ms=10, local=BreaksOnce())
            done: dict[str, bool] = {}
            try:
                send(channel, done, "a", 7, [T0])
                await until(lambda: "a" in done, "the marker is written on the retry")
            finally:
                await channel.shutdown()
            assert (done, len(calls)) == ({"a": True}, 2)
            assert markers_in(manager, T0) == [(7, "COMMIT", 0)]

    asyncio.run(run())


@pytest.fixture
def tbroker(tmp_path: Path) -> Iterator[RunningBroker]:
    running = RunningBroker(tmp_path / "logs", {"transaction.state.log.num.partitions": "3"})
    yield running
    running.stop()


@pytest.mark.integration
def test_a_broker_commits_and_aborts_without_writing_markers_to_itself(tbroker: RunningBroker) -> None:
    """Commit (with offsets sent to the transaction), abort and commit with librdkafka on one
    broker: no WriteTxnMarkers request reaches it, read_committed sees the committed records
    only, and the transaction's offsets are committed (the group coordinator's hook ran)."""
    requests = []
    apis = tbroker.server.apis
    handle = apis.handlers[ApiKey.WriteTxnMarkers]

    def recorded(request: Request[ApiMessage]) -> None:
        requests.append(request)
        handle(request)

    apis.handlers[ApiKey.WriteTxnMarkers] = recorded
    bootstrap, topic, group = tbroker.bootstrap, f"local-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, 2, 1)]).values():
        future.result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"tid-{topic}"})
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "isolation.level": "read_committed",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    try:
        producer.init_transactions(30)
        producer.begin_transaction()
        producer.produce(topic, b"committed", partition=0)
        producer.send_offsets_to_transaction([TopicPartition(topic, 1, 42)], consumer.consumer_group_metadata(), 30)
        producer.commit_transaction(30)
        producer.begin_transaction()
        producer.produce(topic, b"aborted", partition=1)
        producer.abort_transaction(30)
        producer.begin_transaction()
        producer.produce(topic, b"after", partition=1)  # read_committed reaches it past the abort
        producer.commit_transaction(30)
        consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        seen: list[bytes] = []
        for _ in range(120):
            message = consumer.poll(0.5)
            if message is not None and message.error() is None:
                value = message.value()
                assert value is not None
                seen.append(value)
            if len(seen) >= 2:
                break
        assert sorted(seen) == [b"after", b"committed"]
        assert consumer.committed([TopicPartition(topic, 1)], 30)[0].offset == 42
        assert requests == []
    finally:
        consumer.close()
        producer.flush(10)
