"""RequestChannel: the hand-off between Processors (network) and the handler pool (KafkaApis).

A Request carries its parsed header and body, and the one collaborator it answers through:
its owner, the connection's place for its response. Everything a handler tells the network
about a request goes there as a one-way message, as Kafka's RequestChannel.Response
subclasses do: a response to write, none (acks=0), close the connection, start or end a
throttle. The Processor that owns the connection acts on each; responses are written
strictly in request order.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import RequestHeader, response_header
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.error_counts import error_counts
from josefk.server.network.security.principal import ANONYMOUS, KafkaPrincipal


@dataclass(frozen=True, slots=True)
class SendResponse:
    """Write these parts (the response header, then the body: bytes and file regions)."""
    parts: list


@dataclass(frozen=True, slots=True)
class NoOpResponse:
    """Nothing to write (Produce with acks=0); the request is done all the same."""


@dataclass(frozen=True, slots=True)
class CloseConnectionResponse:
    """The handler failed: close the connection, after the responses due before this one."""


@dataclass(frozen=True, slots=True)
class StartThrottlingResponse:
    """A quota was violated (or a verification is asked): take no more of this client's
    requests until the matching EndThrottlingResponse."""


@dataclass(frozen=True, slots=True)
class EndThrottlingResponse:
    """The throttle is over."""


Response = SendResponse | NoOpResponse | CloseConnectionResponse | StartThrottlingResponse | EndThrottlingResponse
NO_OP = NoOpResponse()
CLOSE = CloseConnectionResponse()
START_THROTTLING = StartThrottlingResponse()
END_THROTTLING = EndThrottlingResponse()


class RequestOwner(Protocol):
    """Where a request's messages go: its connection, at the request's place in its order."""

    def send(self, response: Response) -> None: ...

    def hold(self, request: Request[ApiMessage], handle: Callable[[Request[ApiMessage]], None]) -> bool:
        """Keep `request` while its connection is throttled, to hand it to `handle` when the
        throttle is over (True); False: handle it now."""
        ...


class _Detached:
    """The owner of a request whose connection is gone or that has none: messages vanish."""

    def send(self, response: Response) -> None:
        return None

    def hold(self, request: Request[ApiMessage], handle: Callable[[Request[ApiMessage]], None]) -> bool:
        return False


DETACHED: RequestOwner = _Detached()

# The decoded request message (a generated class of protocol/messages). Covariant, so a handler
# shared by every API takes a Request[ApiMessage]; nothing assigns a body after decoding.
B = TypeVar("B", bound=ApiMessage, covariant=True)


@dataclass(slots=True)
class Request(Generic[B]):
    """A decoded request: KafkaApis hands each API's handler a Request of its request class."""

    header: RequestHeader
    body: B
    connection_id: str
    client_host: str
    owner: RequestOwner = DETACHED
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
    # The request quota's hook, called with each response body (KafkaApis'
    # sendResponseMaybeThrottle); None for requests exempt from it.
    on_response_body: Callable[[Request[ApiMessage], ApiMessage], None] | None = None
    # The client's software name and version, from its connection's ApiVersions v3+ request
    # (Kafka's ClientInformation; "unknown" before or without one): telemetry matches on them.
    client_software: tuple[str, str] = ("unknown", "unknown")
    # The response's error codes and how often each occurs (Kafka's errorCounts), for ErrorsPerSec.
    error_counts: Mapping[int, int] | None = None

    @property
    def api_key(self) -> int:
        return self.header.api_key

    @property
    def api_version(self) -> int:
        return self.header.api_version

    def send_response(self, body: ApiMessage) -> None:
        """Encode `body` (a response ApiMessage) at the request's version and hand it back."""
        if self.on_response_body is not None:
            self.on_response_body(self, body)
        self.error_counts = error_counts(body)
        payload = body.encode(version=self.header.api_version)
        header = response_header(self.header.correlation_id, self.header.response_header_version)
        self.responded_ns = time.monotonic_ns()
        self.owner.send(SendResponse([header, payload]))

    def send_raw(self, parts: list, errors: Mapping[int, int]) -> None:
        """Hand back an already-encoded body (after the response header): bytes, and file
        regions the Processor sends with sendfile; `errors` are the body's error counts."""
        self.error_counts = errors
        header = response_header(self.header.correlation_id, self.header.response_header_version)
        self.responded_ns = time.monotonic_ns()
        self.owner.send(SendResponse([header, *parts]))

    def no_response(self) -> None:
        """Produce with acks=0: the client expects nothing back."""
        self.responded_ns = time.monotonic_ns()
        self.owner.send(NO_OP)

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
        self.owner.send(CLOSE)

    def start_throttling(self) -> None:
        """Mute the connection for a quota's throttle (Kafka's StartThrottlingResponse); the
        response already due is still written."""
        self.owner.send(START_THROTTLING)

    def end_throttling(self) -> None:
        self.owner.send(END_THROTTLING)

    def hold(self, handle: Callable[[Request[ApiMessage]], None]) -> bool:
        """Whether the connection keeps this request for `handle` until its throttle is over."""
        return self.owner.hold(self, handle)


_API_NAMES = {int(key): key.name for key in ApiKey}


class RequestChannel:
    """A queue of queued.max.requests. When it is full a Processor holds its requests and
    stops reading (Kafka's Processor blocks on the queue); it is called back when a
    handler makes room."""

    def __init__(self, queue_size: int) -> None:
        self._queue: asyncio.Queue[Request[ApiMessage] | None] = asyncio.Queue(maxsize=queue_size)
        self._space_waiters: deque[Callable[[], None]] = deque()

    def try_send_request(self, request: Request[ApiMessage]) -> bool:
        try:
            self._queue.put_nowait(request)
            return True
        except asyncio.QueueFull:
            return False

    def when_space(self, callback: Callable[[], None]) -> None:
        """Call `callback` once, when a handler has taken a request off a full queue."""
        self._space_waiters.append(callback)

    async def receive_request(self) -> Request[ApiMessage] | None:
        """The next request."""
        request = await self._queue.get()
        while self._space_waiters and not self._queue.full():
            self._space_waiters.popleft()()
        return request

    async def shutdown(self, handlers: int) -> None:
        """One stop sign per handler, after the requests already queued."""
        for _ in range(handlers):
            await self._queue.put(None)
