"""RequestChannel: the hand-off between Processors (network) and the handler pool (KafkaApis).

A Request carries its parsed header and body; its response comes back to the Processor
that owns the connection, which writes responses strictly in request order.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import RequestHeader, response_header
from josefk.server.network.security.principal import ANONYMOUS, KafkaPrincipal


@dataclass(slots=True)
class Request:
    header: RequestHeader
    body: Any  # a decoded kafka-python ApiMessage
    connection_id: str
    client_host: str
    on_response: Callable[[Request, list | None, bool], None]
    received_ns: int = field(default_factory=time.monotonic_ns)
    # Who sent it (authorizers read this) and the listener it came in on (Metadata answers
    # with that listener's addresses).
    principal: KafkaPrincipal = ANONYMOUS
    listener_name: str = "PLAINTEXT"
    security_protocol: str = "PLAINTEXT"  # the listener's (delegation token requests need SASL)
    # When a handler took it, when the handler returned, when its response was handed back
    # (0: not yet): Kafka's RequestMetrics phases come from these.
    dequeued_ns: int = 0
    local_done_ns: int = 0
    responded_ns: int = 0
    # The frame's size (Kafka's request.sizeInBytes: what a produce quota counts).
    size: int = 0
    # Quotas: mute and unmute the connection (the Processor's), and the request quota's
    # hook, called with each response body (KafkaApis' sendResponseMaybeThrottle); None
    # for requests exempt from it.
    start_throttling: Callable[[], None] = field(default=lambda: None)
    end_throttling: Callable[[], None] = field(default=lambda: None)
    on_response_body: Callable[[Request, Any], None] | None = None
    # hold(request, handle): the connection keeps the request (and hands it to handle later)
    # while it is throttled, answering True; False means handle it now.
    hold: Callable[[Request, Callable[[Request], None]], bool] = field(default=lambda _r, _h: False)
    # The client's software name and version, from its connection's ApiVersions v3+ request
    # (Kafka's ClientInformation; "unknown" before or without one): telemetry matches on them.
    client_software: tuple[str, str] = ("unknown", "unknown")

    @property
    def api_key(self) -> int:
        return self.header.api_key

    @property
    def api_version(self) -> int:
        return self.header.api_version

    def send_response(self, body: Any) -> None:
        """Encode `body` (a response ApiMessage) at the request's version and hand it back."""
        if self.on_response_body is not None:
            self.on_response_body(self, body)
        payload = body.encode(version=self.header.api_version)
        header = response_header(self.header.correlation_id, self.header.response_header_version)
        self.responded_ns = time.monotonic_ns()
        self.on_response(self, [header, payload], False)

    def send_raw(self, parts: list) -> None:
        """Hand back an already-encoded body (after the response header): bytes, and file
        regions the Processor sends with sendfile."""
        header = response_header(self.header.correlation_id, self.header.response_header_version)
        self.responded_ns = time.monotonic_ns()
        self.on_response(self, [header, *parts], False)

    def no_response(self) -> None:
        """Produce with acks=0: the client expects nothing back."""
        self.responded_ns = time.monotonic_ns()
        self.on_response(self, None, False)

    @property
    def metric_name(self) -> str:
        """The request's name in Kafka's RequestMetrics: a Fetch is FetchFollower when a
        replica sends it, FetchConsumer otherwise."""
        if self.header.api_key != ApiKey.Fetch:
            return _API_NAMES.get(self.header.api_key) or str(self.header.api_key)
        state = getattr(self.body, "replica_state", None)
        replica = state.replica_id if state is not None and self.header.api_version >= 15 else getattr(
            self.body, "replica_id", -1)
        return "FetchFollower" if replica is not None and replica >= 0 else "FetchConsumer"

    def phase_times_ms(self, written_ns: int) -> tuple[float, float, float, float, float]:
        """Total, request queue, local, remote and response queue times (utils.metrics
        REQUEST_PHASES), with the response written to the connection at `written_ns`. A
        response sent from within its handler has no remote time."""
        dequeued = self.dequeued_ns or self.received_ns
        responded = self.responded_ns or written_ns
        local_end = self.local_done_ns if 0 < self.local_done_ns <= responded else responded
        return ((written_ns - self.received_ns) / 1e6, (dequeued - self.received_ns) / 1e6,
                max(local_end - dequeued, 0) / 1e6, max(responded - local_end, 0) / 1e6,
                (written_ns - responded) / 1e6)

    def describe(self) -> str:
        return (f"{ApiKey(self.api_key).name} v{self.api_version} from {self.client_host} "
                f"(client {self.header.client_id})")

    @property
    def handler_time_ns(self) -> int:
        """Time a handler spent on it (Kafka's requestThreadTimeNanos): from being taken off the
        queue to the handler's return, or to now while the handler still runs."""
        if not self.dequeued_ns:
            return 0
        end = self.local_done_ns if self.local_done_ns >= self.dequeued_ns else time.monotonic_ns()
        return end - self.dequeued_ns

    def close_connection(self) -> None:
        self.on_response(self, None, True)


_API_NAMES = {int(key): key.name for key in ApiKey}


class RequestChannel:
    """A queue of queued.max.requests. When it is full a Processor holds its requests and
    stops reading (Kafka's Processor blocks on the queue); it is called back when a
    handler makes room."""

    def __init__(self, queue_size: int) -> None:
        self._queue: asyncio.Queue[Request | None] = asyncio.Queue(maxsize=queue_size)
        self._space_waiters: deque[Callable[[], None]] = deque()

    def try_send_request(self, request: Request) -> bool:
        try:
            self._queue.put_nowait(request)
            return True
        except asyncio.QueueFull:
            return False

    def when_space(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, when a handler has taken a request off a full queue."""
        self._space_waiters.append(callback)

    async def receive_request(self) -> Request | None:
        """The next request."""
        request = await self._queue.get()
        while self._space_waiters and not self._queue.full():
            self._space_waiters.popleft()()
        return request

    async def shutdown(self, handlers: int) -> None:
        """One stop sign per handler, after the requests already queued."""
        for _ in range(handlers):
            await self._queue.put(None)
