"""The transaction coordinator's marker sender batches as Kafka's TransactionMarkerChannelManager:
the markers waiting for one leader share a WriteTxnMarkers request and one request is out
per leader. With one request per transaction, behind one connection, 128 transactional
producers' commits waited seconds for their markers while the producers, answered
CONCURRENT_TRANSACTIONS, retried AddPartitionsToTxn in a storm. The leader here is a real
socket speaking the Kafka protocol, answering when the test says;
tests/test_transactions*.py run the sender between real brokers and clients."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable

import pytest

from josefk.cli.kafka_messages import ApiMessage, request_class, response_class
from josefk.coordinator.transaction_marker_channel import WRITE_TXN_MARKERS_VERSION, TransactionMarkerChannelManager
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.headers import parse_request_header, response_header
from josefk.replication.metadata_cache import MetadataCache
from josefk.zk.zk_data import BrokerInfo, PartitionState

pytestmark = pytest.mark.integration


async def until(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        await asyncio.sleep(0.001)


class HeldLeader:
    """A leader that records each WriteTxnMarkers request and answers it when released."""

    def __init__(self) -> None:
        self.requests: list[ApiMessage] = []
        self.releases: list[asyncio.Future[dict[int, ErrorCode]]] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                size = struct.unpack(">i", await reader.readexactly(4))[0]
                payload = await reader.readexactly(size)
                header = parse_request_header(payload)
                assert (header.api_key, header.api_version) == (ApiKey.WriteTxnMarkers, WRITE_TXN_MARKERS_VERSION)
                body = request_class(ApiKey.WriteTxnMarkers).decode(payload[header.size:],
                                                                    version=header.api_version)
                release: asyncio.Future[dict[int, ErrorCode]] = asyncio.get_running_loop().create_future()
                self.requests.append(body)
                self.releases.append(release)
                errors = await release  # by producer id; the others NONE
                cls = response_class(ApiKey.WriteTxnMarkers)
                result = cls.WritableTxnMarkerResult
                topic_result = result.WritableTxnMarkerTopicResult
                response = cls(markers=[result(producer_id=m.producer_id, topics=[topic_result(name=t.name, partitions=[
                    topic_result.WritableTxnMarkerPartitionResult(
                        partition_index=p, error_code=errors.get(m.producer_id, ErrorCode.NONE))
                    for p in t.partition_indexes]) for t in m.topics]) for m in body.markers])
                frame = response_header(header.correlation_id, 1 if header.flexible else 0) + bytes(
                    response.encode(version=header.api_version))
                writer.write(struct.pack(">i", len(frame)) + frame)
                await writer.drain()
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()

    def producers(self, i: int) -> list[int]:
        return [m.producer_id for m in self.requests[i].markers]


def test_markers_for_one_leader_share_a_request_one_in_flight() -> None:
    async def run() -> None:
        leader = HeldLeader()
        server = await asyncio.start_server(leader.serve, "127.0.0.1", 0)
        cache = MetadataCache(1)
        cache.update(1, [BrokerInfo(2, "127.0.0.1", server.sockets[0].getsockname()[1])],
                     [PartitionState("t", p, 2, 0, [2], [2], 1) for p in range(3)])
        channel = TransactionMarkerChannelManager(1, cache, retry_backoff_ms=10)
        done: dict[str, bool] = {}

        def send(tid: str, pid: int, partitions: list[int]) -> None:
            channel.send_markers(tid, 0, pid, 0, True, frozenset(("t", p) for p in partitions),
                                 lambda ok: done.__setitem__(tid, ok))

        try:
            send("a", 1, [0, 1])
            send("b", 2, [0])
            send("c", 3, [2])
            await until(lambda: len(leader.requests) == 1, "the first request arrives")
            assert leader.producers(0) == [1, 2, 3]
            assert [(t.name, sorted(t.partition_indexes)) for t in leader.requests[0].markers[0].topics] == \
                [("t", [0, 1])]
            send("d", 4, [0])
            send("e", 5, [1])
            send("e-again", 5, [2])  # one marker per producer in a request: answers are by producer
            await until(lambda: len(channel._queued.get(2, [])) == 3, "the next markers wait")
            assert len(leader.requests) == 1  # nothing more goes out while the first request is out
            leader.releases[0].set_result({3: ErrorCode.PRODUCER_FENCED})
            await until(lambda: len(leader.requests) == 2, "the waiting markers go out")
            assert done == {"a": True, "b": True, "c": False}  # c's producer was fenced, alone
            assert leader.producers(1) == [4, 5]
            leader.releases[1].set_result({})
            await until(lambda: len(leader.requests) == 3, "the second marker of producer 5 goes out")
            assert leader.producers(2) == [5]
            leader.releases[2].set_result({})
            await until(lambda: len(done) == 6, "every transaction's markers are written")
            assert done == {"a": True, "b": True, "c": False, "d": True, "e": True, "e-again": True}
        finally:
            await channel.shutdown()
            server.close()
            await server.wait_closed()

    asyncio.run(run())


def test_a_leader_gone_from_the_metadata_is_retried_without_an_error(caplog: pytest.LogCaptureFixture) -> None:
    """A loaded CI run killed a leader between the markers' queueing and their request: the
    lookup of its address raised KeyError, logged as an ERROR with a traceback. It is a
    retriable failure, as a broken connection is: the retry's round finds the new leader."""
    async def run() -> None:
        leader = HeldLeader()
        server = await asyncio.start_server(leader.serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        cache = MetadataCache(1)
        cache.update(1, [BrokerInfo(2, "127.0.0.1", port)], [PartitionState("t", 0, 2, 0, [2, 3], [2, 3], 1)])
        channel = TransactionMarkerChannelManager(1, cache, retry_backoff_ms=10)
        done: list[bool] = []
        try:
            channel.send_markers("a", 0, 1, 0, True, frozenset({("t", 0)}), done.append)
            while 2 not in channel._draining:  # one loop turn at a time: queued, its request not yet sent
                await asyncio.sleep(0)
            cache.update(1, [], [])  # broker 2 left before the request went out; no new leader known yet
            await until(lambda: bool(channel._retries), "the failed attempt's retry to be scheduled")
            cache.update(1, [BrokerInfo(3, "127.0.0.1", port)], [PartitionState("t", 0, 3, 1, [3], [2, 3], 2)])
            await until(lambda: len(leader.requests) == 1, "the retry reaches the new leader")
            leader.releases[0].set_result({})
            await until(lambda: done == [True], "the markers are written")
        finally:
            await channel.shutdown()
            server.close()
            await server.wait_closed()

    asyncio.run(run())
    # (asyncio's own: the test leader's task, cancelled as the loop closes)
    assert not [r for r in caplog.records if r.levelname == "ERROR" and r.name != "asyncio"], caplog.text
