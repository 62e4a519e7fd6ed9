"""SocketSender over real socket pairs and files: order, a full socket, closing, a file region
whose file is closed on the loop right after the hand-over, a peer that went away."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from josefk.server.network.socket_sender import SendChannel, SendEvent, SocketSender

pytestmark = pytest.mark.unit


@dataclass
class Region:
    fd: int
    position: int
    size: int


@dataclass
class Pair:
    sender: SocketSender
    channel: SendChannel
    ours: socket.socket  # the broker's end, as the transport would own it
    peer: socket.socket
    events: list[tuple[SendEvent, int]] = field(default_factory=list)

    async def until(self, condition: Callable[[], bool]) -> None:
        for _ in range(2000):
            if condition():
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"not reached; events so far {self.events}")

    def read_all(self, size: int) -> bytes:
        self.peer.settimeout(10)
        data = b""
        while len(data) < size:
            chunk = self.peer.recv(size - len(data))
            assert chunk, f"the connection closed after {len(data)} of {size} bytes"
            data += chunk
        return data


@asynccontextmanager
async def pair() -> AsyncIterator[Pair]:
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    sender = SocketSender(asyncio.get_running_loop())
    events: list[tuple[SendEvent, int]] = []
    channel = sender.open(ours, lambda event, taken: events.append((event, taken)))
    p = Pair(sender, channel, ours, peer, events)
    try:
        yield p
    finally:
        await asyncio.to_thread(sender.stop)
        ours.close()
        peer.close()


def run(test: Callable[[], object]) -> None:
    asyncio.run(test())  # type: ignore[arg-type]


def test_hand_overs_arrive_in_order_and_each_drain_is_reported_with_its_count() -> None:
    async def test() -> None:
        async with pair() as p:
            p.sender.send(p.channel, [b"\x00\x00\x00\x03", b"one"])
            p.sender.send(p.channel, [memoryview(b"xxtwo")[2:], bytearray(b"!")])
            assert p.read_all(11) == b"\x00\x00\x00\x03onetwo!"
            await p.until(lambda: (SendEvent.DRAINED, 2) in p.events)
            assert all(event is SendEvent.DRAINED for event, _ in p.events)
    run(test)


def test_a_full_socket_is_reported_blocked_then_drained_once_the_peer_reads() -> None:
    async def test() -> None:
        async with pair() as p:
            big = os.urandom(8 << 20)  # more than a socket pair's buffers hold
            p.sender.send(p.channel, [big])
            await p.until(lambda: (SendEvent.BLOCKED, 1) in p.events)
            assert (SendEvent.DRAINED, 1) not in p.events
            assert p.read_all(len(big)) == big
            await p.until(lambda: (SendEvent.DRAINED, 1) in p.events)
    run(test)


def test_a_file_region_is_sent_though_its_file_is_closed_right_after_the_hand_over(tmp_path: Path) -> None:
    async def test() -> None:
        path = tmp_path / "segment.log"
        path.write_bytes(b"0123456789" * 1000)
        async with pair() as p:
            with path.open("rb") as f:
                p.sender.send(p.channel, [b"head", Region(f.fileno(), 5, 9000)])
            assert p.read_all(9004) == b"head" + (b"0123456789" * 1000)[5:9005]
            await p.until(lambda: (SendEvent.DRAINED, 1) in p.events)
    run(test)


def test_close_sends_what_was_handed_over_then_closes_the_socket_though_the_loop_closed_its_end() -> None:
    async def test() -> None:
        async with pair() as p:
            p.sender.send(p.channel, [b"last words"])
            p.sender.close(p.channel)
            p.ours.close()  # the transport's descriptor: the sender's duplicate keeps the socket
            assert p.read_all(10) == b"last words"
            assert p.peer.recv(1) == b""  # then the end of the stream
    run(test)


def test_closing_a_channel_whose_peer_stopped_reading_does_not_wait_for_it() -> None:
    async def test() -> None:
        async with pair() as p:
            p.sender.send(p.channel, [os.urandom(8 << 20)])
            await p.until(lambda: (SendEvent.BLOCKED, 1) in p.events)
            p.sender.close(p.channel)
            p.ours.close()
            await p.until(lambda: p.channel.closed)
            p.peer.settimeout(10)
            received = 0
            while chunk := p.peer.recv(1 << 20):
                received += len(chunk)
            assert 0 < received < 8 << 20  # what the socket held, then the end of the stream
    run(test)


def test_a_peer_gone_is_reported_failed_and_later_hand_overs_are_dropped() -> None:
    async def test() -> None:
        async with pair() as p:
            p.peer.close()
            p.sender.send(p.channel, [b"into the void"])
            await p.until(lambda: any(event is SendEvent.FAILED for event, _ in p.events))
            assert p.channel.closed
            p.sender.send(p.channel, [b"more"])  # taken and dropped, nothing raised
            p.sender.abort(p.channel)
    run(test)
