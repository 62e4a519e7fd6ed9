"""The Processor's response path over real sockets and real segment files: one request in
process per connection, responses in request order, a fetch response's file region sent
before the segment behind it can close, a graceful close and the KIP-511 ApiVersions answer keep the order,
on plaintext (sendfile) and TLS connections, under asyncio's loop and uvloop."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import struct
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import uvloop

from harness.wire import encode_request
from josefk.cli.kafka_messages import request_class
from josefk.log.segment import LogSegment
from josefk.protocol.apis import ApiKey, ApiVersions
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.record_codec import Record, build_batch
from josefk.server.network.connection_quotas import ConnectionLimits, ConnectionQuotas
from josefk.server.network.memory_pool import MemoryPool
from josefk.server.network.request_channel import Request, RequestChannel
from josefk.server.network.socket_server import Acceptor, Connection, ListenerContext, Processor
from josefk.utils.metrics import NetworkStats
from josefk.utils.time import SYSTEM_TIME
from tests.security_certs import make_certs

pytestmark = pytest.mark.integration

LOOPS = pytest.mark.parametrize("new_loop", [asyncio.new_event_loop, uvloop.new_event_loop],
                                ids=["asyncio", "uvloop"])


@dataclass
class Served:
    processor: Processor
    channel: RequestChannel
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    segment: LogSegment
    errors: list[dict] = field(default_factory=list)  # what the loop's exception handler saw
    failed: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    @property
    def connection(self) -> Connection:
        (conn,) = self.processor.connections
        return conn

    async def requests(self, n: int) -> list[Request[ApiMessage]]:
        requests = []
        for _ in range(n):
            request = await asyncio.wait_for(self.channel.receive_request(), 10)
            assert request is not None, "the request channel closed"
            requests.append(request)
        return requests

    async def frame(self) -> bytes:
        """The next response frame; fails at once if a loop callback raised meanwhile."""
        async def read() -> bytes:
            size = struct.unpack(">i", await self.reader.readexactly(4))[0]
            return await self.reader.readexactly(size)
        reading = asyncio.ensure_future(read())
        await asyncio.wait([reading, self.failed], timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if not reading.done():
            reading.cancel()
            raise AssertionError(f"no response; the event loop reported {self.errors}")
        return reading.result()


@contextlib.asynccontextmanager
async def served(tmp_path: Path, tls: bool = False) -> AsyncIterator[Served]:
    """A Processor behind a real Acceptor on 127.0.0.1, one client connected to it, and a
    segment holding one batch. The test plays the request handler through the channel."""
    server_ctx = client_ctx = None
    if tls:
        certs = make_certs(tmp_path / "certs")
        server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_ctx.load_cert_chain(certs.broker.cert, certs.broker.key)
        client_ctx = ssl.create_default_context(cafile=str(certs.ca))
    channel = RequestChannel(10)
    quotas = ConnectionQuotas(ConnectionLimits(), ["PLAINTEXT"], "PLAINTEXT", SYSTEM_TIME)
    processor = Processor(0, channel, 1 << 20, {"sendfile_bytes": 0, "closed_bad_input": 0}, MemoryPool(-1),
                          ApiVersions.for_apis([ApiKey.Produce, ApiKey.Fetch, ApiKey.Metadata, ApiKey.ApiVersions]),
                          listener=ListenerContext("PLAINTEXT"), quotas=quotas, stats=NetworkStats())
    acceptor = Acceptor("127.0.0.1", 0, [processor], ssl_context=server_ctx)
    await acceptor.start()
    (tmp_path / "t-0").mkdir()
    segment = LogSegment(tmp_path / "t-0", 0, active=True)
    batch = build_batch([Record(0, 1000, b"k", b"v" * 5000), Record(1, 1001, None, b"w" * 3000)])
    segment.append(1, 1001, 1, batch)
    reader, writer = await asyncio.open_connection("127.0.0.1", acceptor.port, ssl=client_ctx)
    s = Served(processor, channel, reader, writer, segment)

    def on_error(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        s.errors.append(context)
        if not s.failed.done():
            s.failed.set_result(None)

    asyncio.get_running_loop().set_exception_handler(on_error)
    try:
        await asyncio.wait_for(_until(lambda: len(processor.connections) == 1), 10)
        yield s
        assert s.errors == []
    finally:
        writer.close()
        await acceptor.close()
        segment.close()


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0)  # yields to the loop: the condition is a callback away


def _run(new_loop: Callable[[], asyncio.AbstractEventLoop], test) -> None:
    loop = new_loop()
    try:
        loop.run_until_complete(test())
    finally:
        loop.close()


FETCH = request_class(ApiKey.Fetch)(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20,
                                    isolation_level=0, session_id=0, session_epoch=-1, topics=[],
                                    forgotten_topics_data=[], rack_id="")
METADATA = request_class(ApiKey.Metadata)(topics=[])
PRODUCE = request_class(ApiKey.Produce)(transactional_id=None, acks=1, timeout_ms=1000, topic_data=[])
PRODUCE_ACKS_ALL = request_class(ApiKey.Produce)(transactional_id=None, acks=-1, timeout_ms=1000, topic_data=[])


def _send(s: Served, *requests: tuple[int, int, object, int]) -> None:
    """Pipeline (api key, version, body, correlation id) requests in one write."""
    s.writer.write(b"".join(encode_request(k, v, body, cid) for k, v, body, cid in requests))


def _cid(frame: bytes) -> int:
    return struct.unpack_from(">i", frame)[0]


@LOOPS
@pytest.mark.parametrize("tls", [False, True], ids=["plaintext", "tls"])
def test_a_fetch_response_goes_out_whole_though_its_segment_is_deleted_right_after(tmp_path, new_loop, tls):
    """A StopReplica or retention handled in the same loop turn as a fetch's completion deletes
    the segment its region points into: the client still gets the bytes the fetch read."""
    async def test() -> None:
        async with served(tmp_path, tls) as s:
            _send(s, (ApiKey.Fetch, 11, FETCH, 1))
            (fetch,) = await s.requests(1)
            region = s.segment.read(0, 1 << 20)
            assert region is not None and region.size > 8000
            expected = region.read_bytes()
            fetch.send_raw([b"head", region], {})
            s.segment.delete()
            frame = await s.frame()
            assert _cid(frame) == 1 and frame[4:] == b"head" + expected
            assert s.processor.metrics["sendfile_bytes"] == (0 if tls else region.size)
    _run(new_loop, test)


@LOOPS
def test_a_pipelined_request_waits_until_the_one_before_it_is_answered(tmp_path, new_loop):
    """Kafka mutes a channel from a request's receive until its response is sent: of three
    requests pipelined in one write, the handlers get the second only once the first's
    response is out, and the third once the second's (a fetch region, its segment deleted at
    once) is, its bytes intact."""
    async def test() -> None:
        async with served(tmp_path) as s:
            _send(s, (ApiKey.Metadata, 1, METADATA, 1), (ApiKey.Fetch, 11, FETCH, 2),
                  (ApiKey.Metadata, 1, METADATA, 3))
            (first,) = await s.requests(1)
            await asyncio.wait_for(_until(lambda: len(s.connection.unread) == 2), 10)
            assert s.channel._queue.empty()  # the handlers have nothing but the first
            first.send_raw([b"one"], {})
            assert await s.frame() == b"\x00\x00\x00\x01one"
            (fetch,) = await s.requests(1)
            region = s.segment.read(0, 1 << 20)
            assert region is not None
            expected = region.read_bytes()
            fetch.send_raw([region], {})
            s.segment.delete()
            assert await s.frame() == b"\x00\x00\x00\x02" + expected
            (third,) = await s.requests(1)
            third.send_raw([b"three"], {})
            assert await s.frame() == b"\x00\x00\x00\x03three"
    _run(new_loop, test)


@LOOPS
def test_a_produce_behind_produces_is_taken_at_once_and_answered_in_order(tmp_path, new_loop):
    """josefk's one deviation from a muted channel: an acks=1 Produce does not hold back the
    producer's next one. Both reach the handlers together, the second's answer waits for the
    first's, and a Metadata behind them waits until both are out."""
    async def test() -> None:
        async with served(tmp_path) as s:
            _send(s, (ApiKey.Produce, 9, PRODUCE, 1), (ApiKey.Produce, 9, PRODUCE, 2),
                  (ApiKey.Metadata, 1, METADATA, 3))
            first, second = await s.requests(2)
            await asyncio.wait_for(_until(lambda: len(s.connection.unread) == 1), 10)
            second.send_raw([b"two"], {})
            first.send_raw([b"one"], {})
            # Produce v9 is a flexible version: its response header ends in an empty tag buffer
            assert [await s.frame() for _ in range(2)] == [b"\x00\x00\x00\x01\x00one", b"\x00\x00\x00\x02\x00two"]
            (metadata,) = await s.requests(1)
            metadata.send_raw([b"three"], {})
            assert await s.frame() == b"\x00\x00\x00\x03three"
    _run(new_loop, test)


@LOOPS
def test_a_produce_behind_an_acks_all_produce_waits_until_it_is_answered(tmp_path, new_loop):
    """As on Kafka's muted channel: the producer's next batch is taken only once the acks=all
    one before it is answered, so it is judged (sequence, ISR) after that answer, never
    appended while the one before it still waits for the ISR (josefk issue 27)."""
    async def test() -> None:
        async with served(tmp_path) as s:
            _send(s, (ApiKey.Produce, 9, PRODUCE_ACKS_ALL, 1), (ApiKey.Produce, 9, PRODUCE, 2))
            (first,) = await s.requests(1)
            await asyncio.wait_for(_until(lambda: len(s.connection.unread) == 1), 10)
            assert s.channel._queue.empty()  # the handlers have nothing but the first
            first.send_raw([b"one"], {})
            assert await s.frame() == b"\x00\x00\x00\x01\x00one"
            (second,) = await s.requests(1)
            second.send_raw([b"two"], {})
            assert await s.frame() == b"\x00\x00\x00\x02\x00two"
    _run(new_loop, test)


@LOOPS
def test_a_graceful_close_sends_the_responses_completed_before_it(tmp_path, new_loop):
    async def test() -> None:
        async with served(tmp_path) as s:
            _send(s, (ApiKey.Metadata, 1, METADATA, 1), (ApiKey.Metadata, 1, METADATA, 2))
            (first,) = await s.requests(1)
            first.send_raw([b"one"], {})
            (second,) = await s.requests(1)
            second.send_raw([b"two"], {})
            s.connection.expire("idle for more than connections.max.idle.ms", graceful=True)
            assert [await s.frame() for _ in range(2)] == [b"\x00\x00\x00\x01one", b"\x00\x00\x00\x02two"]
            assert await s.reader.read() == b""  # then the broker's end of the connection closes
    _run(new_loop, test)


@LOOPS
def test_the_kip_511_answer_to_an_unsupported_api_versions_waits_for_earlier_responses(tmp_path, new_loop):
    """ApiVersions at a version the broker does not speak is answered in the v0 layout with
    UNSUPPORTED_VERSION (35) and the range it does speak, after the request sent before it."""
    async def test() -> None:
        async with served(tmp_path) as s:
            unsupported = struct.pack(">ihhih", 10, ApiKey.ApiVersions, 99, 2, -1)  # v99, null client id
            s.writer.write(encode_request(ApiKey.Metadata, 1, METADATA, 1) + unsupported)
            (metadata,) = await s.requests(1)
            metadata.send_raw([b"one"], {})
            frames = [await s.frame() for _ in range(2)]
            assert frames[0] == b"\x00\x00\x00\x01one"
            low, high = s.processor.api_versions.ranges[ApiKey.ApiVersions]
            assert frames[1] == struct.pack(">ihihhh", 2, 35, 1, ApiKey.ApiVersions, low, high)
    _run(new_loop, test)


@LOOPS
def test_a_failed_request_closes_the_connection_after_the_responses_before_it(tmp_path, new_loop):
    """A handler that gives up on a request closes the connection (Kafka's closeConnection); the
    response before it still reaches the client."""
    async def test() -> None:
        async with served(tmp_path) as s:
            _send(s, (ApiKey.Metadata, 1, METADATA, 1), (ApiKey.Metadata, 1, METADATA, 2))
            (first,) = await s.requests(1)
            first.send_raw([b"one"], {})
            (second,) = await s.requests(1)
            second.close_connection()
            assert await s.frame() == b"\x00\x00\x00\x01one"
            assert await s.reader.read() == b""
    _run(new_loop, test)
