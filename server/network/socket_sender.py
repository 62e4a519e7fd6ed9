"""SocketSender: one thread that writes responses to plaintext sockets for the event loop.

The biggest single cost of the event loop under many small requests is the send system call
(a fifth to a quarter of its samples: on loopback the kernel also runs the receiver's TCP path
inside it), and uvloop makes it holding the GIL. Kafka's Processor threads do their own sends;
here a Connection hands its framed responses to this thread instead, which sends them with the
GIL released (sendmsg, sendfile), so that work runs on another core beside the loop.

Each connection gets a SendChannel over a duplicate of its socket's descriptor: closing the
transport on the loop cannot close, or let another connection reuse, the descriptor this
thread still sends on; the socket itself closes when both are closed, after what was handed
over is sent. File regions are handed over with a duplicate of their file's descriptor for
the same reason (a segment may be closed on the loop before its region is sent).

What the loop learns back, in order, through one call_soon_threadsafe per batch: a channel is
blocked (the socket is full: stop reading from that client, as on a full transport), drained
(everything handed over is on the socket: the sends are complete), or failed (the peer is gone).
"""

from __future__ import annotations

import asyncio
import logging
import os
import selectors
import socket
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from queue import SimpleQueue

log = logging.getLogger(__name__)
_IOV_MAX = 1024  # buffers per sendmsg


class SendEvent(Enum):
    BLOCKED = "blocked"
    DRAINED = "drained"
    FAILED = "failed"


@dataclass(slots=True)
class _FileSlice:
    """A file region to sendfile: a duplicate of the file's descriptor, closed once sent."""

    fd: int
    position: int
    size: int


class SendChannel:
    """A connection's side of the sender: what it handed over and not yet sent. Its fields
    other than the callback are the sender thread's alone."""

    def __init__(self, sock: socket.socket, notify: Callable[[SendEvent, int], None]) -> None:
        self.sock = socket.socket(fileno=os.dup(sock.fileno()))
        self.sock.setblocking(False)
        self.notify = notify  # run on the loop, with the event and the hand-overs taken so far
        self.taken = 0
        self.queue: deque[memoryview | _FileSlice] = deque()
        self.closing = False  # close the duplicate once the queue is sent
        self.blocked = False
        self.closed = False


_CLOSE = object()  # close a channel once what was handed over before it is sent (if the socket takes it)
_ABORT = object()  # close a channel now, dropping what it has not sent
_STOP = object()  # end the thread


class SocketSender:
    """The thread and its work queue; `send`, `close` and `abort` are called on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, name: str = "socket-sender") -> None:
        self._loop = loop
        self._work: SimpleQueue[tuple[SendChannel, object]] = SimpleQueue()
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._selecting = False
        self._events: list[tuple[SendChannel, SendEvent, int]] = []
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def open(self, sock: socket.socket, notify: Callable[[SendEvent, int], None]) -> SendChannel:
        return SendChannel(sock, notify)

    def send(self, channel: SendChannel, parts: list) -> None:
        """Hand over a connection's framed responses: bytes-like parts, and file regions
        (objects with fd, position and size)."""
        items: list[memoryview | _FileSlice] = []
        for part in parts:
            if hasattr(part, "fd"):
                items.append(_FileSlice(os.dup(part.fd), part.position, part.size))
            elif len(part):
                items.append(memoryview(part).cast("B"))
        self._put(channel, items)

    def close(self, channel: SendChannel) -> None:
        self._put(channel, _CLOSE)

    def abort(self, channel: SendChannel) -> None:
        self._put(channel, _ABORT)

    def stop(self) -> None:
        """Send what was handed over (as far as the sockets take it at once), close every
        channel's duplicate, and end the thread."""
        self._work.put((None, _STOP))  # type: ignore[arg-type]
        self._wake()
        self._thread.join(timeout=5)
        self._selector.close()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _put(self, channel: SendChannel, what: object) -> None:
        self._work.put((channel, what))
        if self._selecting:
            self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except BlockingIOError:
            pass  # a wake-up is pending already

    # -- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        ready: dict[SendChannel, None] = {}  # channels with something to send now, in order
        stopping = False
        while True:
            while not self._work.empty():
                stopping |= self._accept(*self._work.get_nowait(), ready)
            for channel in list(ready):
                del ready[channel]
                self._send(channel)
            self._report()
            if stopping:
                break
            if len(self._selector.get_map()) == 1:  # nothing to watch: wait for the next hand-over
                stopping = self._accept(*self._work.get(), ready)
                continue
            self._selecting = True
            if self._work.empty():
                for key, _ in self._selector.select(timeout=1.0):
                    if key.fd == self._wake_r:
                        self._drain_wake()
                    else:
                        self._selector.unregister(key.fileobj)
                        key.data.blocked = False
                        ready[key.data] = None
            self._selecting = False
        for key in list(self._selector.get_map().values()):
            if key.fd != self._wake_r:
                self._finish(key.data)

    def _accept(self, channel: SendChannel, what: object, ready: dict[SendChannel, None]) -> bool:
        """Take one hand-over; True for the stop."""
        if what is _STOP:
            return True
        if channel.closed:
            if isinstance(what, list):
                _close_slices(what)
        elif what is _ABORT:
            self._finish(channel)
        else:
            if what is _CLOSE:
                channel.closing = True
                if channel.blocked:  # a peer that stopped reading is not waited for
                    self._finish(channel)
                    return False
            else:
                channel.queue.extend(what)  # type: ignore[arg-type]
                channel.taken += 1
            if not channel.blocked:
                ready[channel] = None
        return False

    def _send(self, channel: SendChannel) -> None:
        """Send from the channel's queue until it is empty or the socket is full."""
        if channel.closed or channel.blocked:
            return
        queue = channel.queue
        fd = channel.sock.fileno()
        try:
            while queue:
                head = queue[0]
                if isinstance(head, _FileSlice):
                    _sendfile(fd, head)
                    os.close(head.fd)
                    queue.popleft()
                    continue
                buffers: list[memoryview] = []
                for item in queue:
                    if isinstance(item, _FileSlice) or len(buffers) == _IOV_MAX:
                        break
                    buffers.append(item)
                sent = channel.sock.sendmsg(buffers)
                while sent:
                    head = queue[0]
                    if sent >= len(head):  # type: ignore[arg-type]
                        sent -= len(head)  # type: ignore[arg-type]
                        queue.popleft()
                    else:
                        queue[0] = head[sent:]  # type: ignore[index]
                        sent = 0
                        self._block(channel)
                        return
        except (BlockingIOError, InterruptedError):
            self._block(channel)
            return
        except OSError as e:
            log.debug("Sending to a closed connection failed: %s", e)
            self._events.append((channel, SendEvent.FAILED, channel.taken))
            self._finish(channel)
            return
        self._events.append((channel, SendEvent.DRAINED, channel.taken))
        if channel.closing:
            self._finish(channel)

    def _block(self, channel: SendChannel) -> None:
        if channel.closing:  # a closing peer that does not read is not waited for
            self._finish(channel)
            return
        if not channel.blocked:
            channel.blocked = True
            self._selector.register(channel.sock, selectors.EVENT_WRITE, channel)
            self._events.append((channel, SendEvent.BLOCKED, channel.taken))

    def _finish(self, channel: SendChannel) -> None:
        if channel.blocked:
            self._selector.unregister(channel.sock)
            channel.blocked = False
        _close_slices(list(channel.queue))
        channel.queue.clear()
        channel.closed = True
        channel.sock.close()

    def _report(self) -> None:
        if self._events:
            events, self._events = self._events, []
            try:
                self._loop.call_soon_threadsafe(_deliver, events)
            except RuntimeError:
                pass  # the loop is closed: nobody is left to tell

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass


def _deliver(events: list[tuple[SendChannel, SendEvent, int]]) -> None:
    for channel, event, taken in events:
        channel.notify(event, taken)


def _sendfile(fd: int, part: _FileSlice) -> None:
    """Send a file slice (BlockingIOError once the socket is full, the slice moved on by what
    went). A file that ends before the slice does (truncated under it) fails the connection,
    as a short read would."""
    while part.size:
        n = os.sendfile(fd, part.fd, part.position, part.size)
        if n == 0:
            raise OSError(f"file ended {part.size} bytes before its region")
        part.position += n
        part.size -= n


def _close_slices(items: list) -> None:
    for item in items:
        if isinstance(item, _FileSlice):
            os.close(item.fd)
