"""A TCP proxy on 127.0.0.1 that a test can cut: every connection through it dropped, and
new ones closed at once, until it is restored. Put between a broker and ZooKeeper, it
partitions that broker alone while the test still reaches ZooKeeper directly. It can also
be a slow link: each answer from the target reaches the client a set time after it came."""

from __future__ import annotations

import queue
import socket
import threading
import time
from collections.abc import Callable


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, answer_delay: float = 0.0) -> None:
        """`answer_delay`: seconds each chunk the target sends takes to reach the client."""
        self.target = (target_host, target_port)
        self.answer_delay = answer_delay
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)  # accept() wakes to see close()
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open = True
        self._closed = False
        self._sockets: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._start(self._accept, "tcp-proxy-accept")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _start(self, target: Callable[..., None], name: str, *args: object) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if not self._open or self._closed:
                    client.close()
                    upstream.close()
                    continue
                self._sockets |= {client, upstream}
            self._start(self._pump, "tcp-proxy-up", client, upstream)
            if self.answer_delay:
                self._start(self._pump_late, "tcp-proxy-down", upstream, client)
            else:
                self._start(self._pump, "tcp-proxy-down", upstream, client)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            _shut(s)

    def _pump_late(self, source: socket.socket, sink: socket.socket) -> None:
        """As _pump, each chunk handed on answer_delay after it arrived (the order kept)."""
        due: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self._start(self._deliver, "tcp-proxy-late", due, source, sink)
        try:
            while data := source.recv(65536):
                due.put((time.monotonic() + self.answer_delay, data))
        except OSError:
            pass
        due.put((time.monotonic() + self.answer_delay, b""))  # the end, after what came before it

    def _deliver(self, due: queue.Queue[tuple[float, bytes]], source: socket.socket, sink: socket.socket) -> None:
        while True:
            at, data = due.get()
            time.sleep(max(0.0, at - time.monotonic()))  # the link's latency, not a wait for an event
            if not data:
                break
            try:
                sink.sendall(data)
            except OSError:
                break
        for s in (source, sink):
            _shut(s)

    def cut(self) -> None:
        """Drop every connection through the proxy; refuse new ones until restore()."""
        with self._lock:
            self._open = False
            dropped, self._sockets = self._sockets, set()
        for s in dropped:
            _shut(s)

    def restore(self) -> None:
        with self._lock:
            self._open = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()
        for thread in self._threads:
            thread.join(5)


def _shut(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
