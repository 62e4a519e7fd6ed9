"""SocketServer: an Acceptor hands each connection to one of num.network.threads Processors.

All roles run on one asyncio event loop (uvloop when installed): under the GIL a single
loop beats threads that would only contend for it. A Processor owns its connections:
it frames requests, parses headers, queues them on the RequestChannel, and writes
responses at the end of the loop turn that completes them (Connection.complete). As Kafka's
Processor mutes a channel from a request's receive until its response is sent, a connection
has one request in process at a time: what a client pipelines waits, framed, until the
response before it is written, then is taken in its own loop turn (Produce requests behind
acks=0/1 Produce requests excepted, see Connection._next_request). Clients rely on that
order of events, not just on the order of responses: librdkafka, for one, lets a coordinator
it just rediscovered settle between two FindCoordinator answers, where answers released
together behind a parked fetch kept it flapping until its group session expired.
Bad input closes that one connection with a log line. Request bytes are held in a
MemoryPool (queued.max.request.bytes) from the moment a frame's size is read until its
response is written; a connection that finds the pool empty stops
reading until memory comes back, as Kafka mutes a channel under memory pressure.

The Acceptor takes each connection itself (not through asyncio's server) so it can apply
Kafka's ConnectionQuotas before a Processor sees it: over max.connections it waits holding
the accepted socket, over max.connections.per.ip it closes it at once, over its ip's
connection_creation_rate it holds it unread for the throttle time, then closes it. A Processor closes
connections idle for connections.max.idle.ms (no bytes read or written), checking when its
least recently active connection would expire.

Each listener has its own Acceptor and Processors. On SSL listeners the transport is TLS
(the principal comes from the client certificate) and fetch regions are copied, never
sendfile'd; on SASL listeners a connection's SaslAuthenticator answers SaslHandshake and
SaslAuthenticate itself, as Kafka's authenticator does in the network layer, and any
request but ApiVersions before authentication closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import heapq
import itertools
import json
import logging
import os
import re
import socket
import ssl
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from josefk.protocol.apis import ApiKey, ApiVersions
from josefk.protocol.framing import FrameDecoder, FrameTooLarge
from josefk.protocol.headers import MalformedRequest, parse_request_header, peek_api, response_header
from josefk.protocol.messages.api import request_class
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.api_versions_request import ApiVersionsRequest
from josefk.protocol.messages.generated.produce_request import ProduceRequest
from josefk.protocol.messages.generated.sasl_authenticate_request import SaslAuthenticateRequest
from josefk.protocol.messages.generated.sasl_handshake_request import SaslHandshakeRequest
from josefk.protocol.zero_copy import part_size
from josefk.server.network.channel_state import ChannelMute, MuteEvent, MuteState
from josefk.server.network.connection_quotas import ConnectionQuotas, ConnectionThrottled, TooManyConnections
from josefk.server.network.memory_pool import MemoryPool
from josefk.server.network.request_channel import (
    CloseConnectionResponse,
    EndThrottlingResponse,
    NoOpResponse,
    Request,
    RequestChannel,
    Response,
    SendResponse,
    StartThrottlingResponse,
)
from josefk.server.network.security.principal import ANONYMOUS, KafkaPrincipal, SslPrincipalMapper
from josefk.server.network.security.sasl import Answer, SaslAuthenticator, State
from josefk.utils.heap import HeapFreezer
from josefk.utils.metrics import NetworkStats, RequestMetrics
from josefk.utils.scheduler import LOOP_SCHEDULER, ScheduledTask, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)
# Kafka's request log: one DEBUG line per completed request, on Kafka's logger name.
request_log = logging.getLogger("kafka.request.logger")

_MAX_READ_AHEAD_PER_CONNECTION = 64  # framed requests held before a connection stops reading
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")  # ApiVersions -> API_VERSIONS, Kafka's ApiKeys names


@dataclass(slots=True, eq=False)
class PendingResponse:
    """A request's place in its connection's order, and the owner its handler answers through:
    answered once its response (parts, or None for none) is in; written when every response
    before it is."""

    connection: Connection
    request: Request[ApiMessage] | None  # None: a raw SASL token, answered in the network layer
    size: int  # the frame's bytes, held in the memory pool until written
    parts: list | None = None
    answered: bool = False

    def send(self, response: Response) -> None:
        self.connection.receive(self, response)

    def hold(self, request: Request[ApiMessage], handle: Callable[[Request[ApiMessage]], None]) -> bool:
        return self.connection.hold(request, handle)


class Connection(asyncio.BufferedProtocol):
    """One client socket: one request in process at a time, as on Kafka's muted channels."""

    def __init__(self, processor: Processor, connection_id: str, ip: str) -> None:
        self.processor = processor
        self.connection_id = connection_id
        self.ip = ip
        self.counted = True  # holds a slot in ConnectionQuotas until closed
        self.last_active_ns = processor.time.nanoseconds()  # last read or write: connections.max.idle.ms
        self.decoder = FrameDecoder(processor.max_request_size, reserve=self._reserve)
        self.reserved = 0  # bytes of this connection's requests held in the memory pool
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.pending: deque[PendingResponse] = deque()  # requests taken, in order, until written
        self.outbox: list = []  # framed responses due, written together at the end of the loop turn
        # ResponseSendTimeMs: the requests of the outbox's responses, with when each left the
        # response queue; once written, those whose bytes still wait in the transport's buffer.
        self.unsent: list[tuple[Request[ApiMessage], int]] = []
        self.sending: list[tuple[Request[ApiMessage], int]] = []
        self.held: deque[Request[ApiMessage]] = deque()  # parsed, waiting for room in the request queue
        self.unread: deque[bytes | bytearray] = deque()  # framed, waiting for the response before them
        self.mute = ChannelMute()  # when the next request may be taken (channel_state.py)
        self.reading_paused = False
        self.writing_paused = False
        self.tls = False  # bytes must go through the TLS transport: no sendfile
        self.principal: KafkaPrincipal = ANONYMOUS
        self.client_software = ("unknown", "unknown")  # ApiVersions v3+ names them (KIP-511)
        # Requests taken before a throttle began (Produces pipelined behind Produces, see
        # _next_request) that a handler got during it, with the handler to give them to when it
        # ends: nothing a client sent is served during its throttle, as on Kafka's muted channel.
        self.deferred: deque[tuple[Request[ApiMessage], Callable[[Request[ApiMessage]], None]]] = deque()
        listener = processor.listener
        self.authenticator = listener.new_authenticator() if listener.new_authenticator else None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.processor.register(self)
        ssl_object = transport.get_extra_info("ssl_object")
        if ssl_object is not None:
            self.tls = True
            self._ssl_principal(ssl_object)
        else:
            # pause_writing when a write leaves bytes buffered, resume_writing when they are all
            # on the socket (the end of a send, for ResponseSendTimeMs): reading pauses until then,
            # as Kafka mutes a channel until its response is sent. The TLS transport's water marks
            # do not work at 0: there the end of a send is seen at the next write or resume.
            self.transport.set_write_buffer_limits(high=0)  # type: ignore[union-attr]

    def _ssl_principal(self, ssl_object: ssl.SSLObject) -> None:
        """Kafka's DefaultKafkaPrincipalBuilder on SSL: the certificate subject, mapped by
        ssl.principal.mapping.rules; no certificate is User:ANONYMOUS."""
        der = ssl_object.getpeercert(binary_form=True)
        mapper = self.processor.listener.principal_mapper
        if der is None or mapper is None or self.authenticator is not None:
            return
        from cryptography import x509

        dn = x509.load_der_x509_certificate(der).subject.rfc4514_string()
        try:
            self.principal = KafkaPrincipal("User", mapper.name_for(dn))
        except ValueError as e:
            self.close(f"SSL principal: {e}")

    @property
    def closed(self) -> bool:
        return self.mute.state is MuteState.CLOSED  # ChannelMute.closed, without a second call

    def connection_lost(self, exc: Exception | None) -> None:
        self.mute.on(MuteEvent.CLOSED)
        self.release_slot()
        self.processor.unregister(self)
        for listener in self.processor.disconnect_listeners:
            listener(self.connection_id)
        pool = self.processor.memory_pool
        pool.forget(self._memory_available)
        reserved, self.reserved = self.reserved, 0
        pool.release(reserved)

    def release_slot(self) -> None:
        """Give the connection's slot back to ConnectionQuotas, once, as soon as it is closing."""
        if self.counted:
            self.counted = False
            processor = self.processor
            processor.quotas.release(processor.listener.name, self.ip)
            processor.stats.closed[processor.listener.name] += 1

    def _reserve(self, size: int) -> bool:
        if not self.processor.memory_pool.try_allocate(size):
            return False
        self.reserved += size
        return True

    def release(self, size: int) -> None:
        """A request's bytes are no longer needed (answered, or refused before queueing)."""
        if self.closed:
            return  # connection_lost gives back all of self.reserved
        self.reserved -= size
        self.processor.memory_pool.release(size)

    def pause_writing(self) -> None:
        self.writing_paused = True
        self._update_reading()

    def resume_writing(self) -> None:
        self.writing_paused = False
        self._sent_if_drained()
        self._update_reading()

    def receive(self, slot: PendingResponse, response: Response) -> None:
        """A handler's message for one of this connection's requests (Kafka's
        Processor.processNewResponses)."""
        match response:
            case SendResponse(parts):
                self.complete(slot, parts)
            case NoOpResponse():
                self.complete(slot, None)
            case CloseConnectionResponse():
                request = slot.request
                self.close(f"request {ApiKey(request.api_key).name if request else '?'} failed")
            case StartThrottlingResponse():
                self.start_throttling()
            case EndThrottlingResponse():
                self.end_throttling()

    def start_throttling(self) -> None:
        """A quota was violated: take and read nothing more of this client's (Kafka mutes the
        channel). The response already due is still written."""
        self.mute.throttle_started()
        self._update_reading()

    def end_throttling(self) -> None:
        self.mute.throttle_ended()
        while self.deferred and not self.mute.throttled and not self.closed:
            request, handle = self.deferred.popleft()
            handle(request)  # may throttle again, holding the rest
        if self.closed:
            self.deferred.clear()
            return
        self._next_request()
        self._update_reading()

    def hold(self, request: Request[ApiMessage], handle: Callable[[Request[ApiMessage]], None]) -> bool:
        """Keep a request taken off the queue while this connection is throttled (or others wait
        before it), to hand it to `handle` in order when the throttle ends."""
        if not self.mute.throttled and not self.deferred:
            return False
        self.deferred.append((request, handle))
        return True

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.decoder.get_buffer()

    def buffer_updated(self, nbytes: int) -> None:
        self.last_active_ns = self.processor.time.nanoseconds()
        self._decoded(self.decoder.buffer_updated, nbytes)

    def _memory_available(self) -> None:
        if not self.closed:
            self._decoded(lambda _n: self.decoder.resume(), 0)

    def _decoded(self, decode: Callable[[int], list[bytes | bytearray]], nbytes: int) -> None:
        try:
            frames = decode(nbytes)
        except FrameTooLarge as e:
            self.close(f"{e}")
            return
        self.unread.extend(frames)
        self._next_request()
        if self.decoder.blocked and not self.closed:
            self.processor.memory_pool.when_available(self._memory_available)
        self._update_reading()

    def _next_request(self) -> None:
        """Take the next framed request once the one before it is answered: Kafka's Processor
        mutes a channel from a request's receive until its response is sent. One deviation:
        a Produce behind Produces answered without waiting for replication (acks 0 or 1) is
        taken at once (the responses still go out in order).

        Behind an acks=all Produce the next one waits, as on Kafka, so a producer's connection
        has at most one batch per partition in the log unacknowledged (taken at once, up to
        max.in.flight of them were, each judged under the ISR it met on arrival). When
        librdkafka meets a sequence gap (a batch refused NOT_ENOUGH_REPLICAS, one behind it
        OUT_OF_ORDER_SEQUENCE_NUMBER once the ISR grew back) it bumps its epoch and sends
        every batch not yet acknowledged again with new sequences, which the leader cannot
        tell from new ones: each of those already in the log is written twice (issue 27)."""
        mute = self.mute
        while self.unread:
            if mute.state in (MuteState.CLOSING, MuteState.CLOSED):
                self.unread.clear()
                return
            if mute.state is not MuteState.NOT_MUTED and not (mute.takes_requests and self._produce_behind_produces()):
                return
            self.processor.process_frame(self, self.unread.popleft())

    def _produce_behind_produces(self) -> bool:
        try:
            api_key = peek_api(self.unread[0])[0]
        except MalformedRequest:
            return False  # process_frame closes the connection for it, in its turn
        return api_key == ApiKey.Produce and all(
            slot.request is not None and isinstance(slot.request.body, ProduceRequest) and slot.request.body.acks != -1
            for slot in self.pending)

    def close(self, reason: str) -> None:
        if not self.closed:
            log.warning("Closing connection %s from %s: %s", self.connection_id, self.peer, reason)
            self.processor.metrics["closed_bad_input"] += 1
            self.flush()  # the responses already due go first, as when each was written at once
        self.mute.on(MuteEvent.CLOSED)
        self.release_slot()
        if self.transport is not None:
            self.transport.abort()

    def expire(self, reason: str, graceful: bool) -> None:
        """Close for a limit, not for anything the client did wrong: idle too long (graceful:
        what was written still goes out), or room needed under max.connections."""
        if self.closed:
            return
        log.debug("Closing connection %s from %s: %s", self.connection_id, self.peer, reason)
        self.flush()
        self.mute.on(MuteEvent.CLOSED)
        self.release_slot()
        transport = self.transport
        if transport is not None:
            # close() would wait for a peer that stopped reading to take what is buffered
            transport.close() if graceful and not transport.get_write_buffer_size() else transport.abort()

    def enqueue(self, request: Request[ApiMessage] | None, size: int) -> PendingResponse:
        """Take a request (None: a raw SASL token): its response is written in this order."""
        slot = PendingResponse(self, request, size)
        self.pending.append(slot)
        self.mute.on(MuteEvent.REQUEST_RECEIVED)
        self._update_reading()
        return slot

    def close_after_response(self) -> None:
        """An authentication failed: answer it, then close."""
        self.mute.on(MuteEvent.CLOSE_AFTER_RESPONSE)

    def submit(self, request: Request[ApiMessage]) -> None:
        """Queue a request for the handlers, or hold it (and stop reading) while the queue is full."""
        channel = self.processor.channel
        if self.held or not channel.try_send_request(request):
            self.held.append(request)
            if len(self.held) == 1:
                channel.when_space(self._queue_space)
            self._update_reading()

    def _queue_space(self) -> None:
        if self.closed:
            self.held.clear()
            return
        channel = self.processor.channel
        while self.held and channel.try_send_request(self.held[0]):
            self.held.popleft()
        if self.held:
            channel.when_space(self._queue_space)
        self._update_reading()

    def complete(self, slot: PendingResponse, parts: list | None) -> None:
        """A response is ready: queue it to be written at the end of this loop turn with every
        other response the turn completes (one writev, not one each: the request-rate workload's
        biggest own cost was a writev per produce ack); the next request the client pipelined
        is taken after that write.

        A fetch response's file regions name a segment's open file, which a StopReplica,
        retention or truncation may close in any later callback, so a region never outlives
        the loop turn its response completed in: a response with regions is written at once."""
        pending = self.pending
        transport = self.transport
        if self.closed or transport is None:
            return
        slot.parts = parts
        slot.answered = True
        out: list = []
        released = 0
        now = time.monotonic_ns()
        answered = bool(pending) and pending[0].answered
        while pending and pending[0].answered:
            done = pending.popleft()
            released += done.size
            self._record(done.request, now)
            if done.parts is not None:
                out.extend(_framed(done.parts))
                if done.request is not None:
                    self.unsent.append((done.request, now))
            elif done.request is not None:  # acks=0: nothing to send
                self.processor.request_metrics.record_send(done.request.metric_name, 0.0)
        self.release(released)
        if answered and not pending:
            self.mute.on(MuteEvent.RESPONSE_SENT)
        if out:
            if not self.outbox:
                asyncio.get_running_loop().call_soon(self.flush)
            self.outbox.extend(out)
            for part in out:
                if hasattr(part, "fd"):  # a file region: written at once
                    self.flush()
                    break
        if self.mute.state is MuteState.CLOSING and not pending:
            self.flush()
            self.mute.on(MuteEvent.CLOSED)
            transport.close()  # flushes what was written first
            return
        if self.unread and answered:
            asyncio.get_running_loop().call_soon(self._after_send)
        self._update_reading()

    def _after_send(self) -> None:
        """The response is written: unmute, as Kafka's Processor does on a completed send."""
        if not self.closed:
            self.flush()
            self._next_request()
            self._update_reading()

    def _record(self, request: Request[ApiMessage] | None, written_ns: int) -> None:
        """RequestMetrics (RequestsPerSec and each phase's time) and the request log, as the
        response is written (Kafka's RequestChannel.updateRequestMetrics). A raw SASL token
        (the old framing) has no request to count."""
        if request is None:
            return
        times = request.phase_times_ms(written_ns)
        metrics = self.processor.request_metrics
        metrics.record(request.metric_name, request.header.api_version, times)
        if request.error_counts:
            metrics.record_errors(request.header.api_key, request.error_counts)
        if request_log.isEnabledFor(logging.DEBUG):
            self._log_request(request, times[0])

    def _log_request(self, request: Request[ApiMessage], total_ms: float) -> None:
        """Kafka's `Completed request:{json}` line (RequestChannel.updateRequestMetrics), with
        the fields josefk has: the header, the connection and client address, the total time."""
        header = request.header
        request_log.debug("Completed request:%s", json.dumps({
            "isForwarded": False,
            "requestHeader": {"requestApiKey": header.api_key, "requestApiVersion": header.api_version,
                              "correlationId": header.correlation_id, "clientId": header.client_id,
                              "requestApiKeyName": _CAMEL.sub("_", ApiKey(header.api_key).name).upper()},
            "connection": self.connection_id, "clientAddress": self.peer, "totalTimeMs": round(total_ms, 3),
            "securityProtocol": self.processor.listener.security_protocol, "principal": str(request.principal),
            "listener": request.listener_name},
            separators=(",", ":")))

    def flush(self) -> None:
        """Write the responses queued since the last flush (at the end of the loop turn that
        completed them, or before a region or a close)."""
        parts, self.outbox = self.outbox, []
        timed, self.unsent = self.unsent, []
        if parts and not self.closed and self.transport is not None:
            self._write(self.transport, parts)
            self.sending.extend(timed)
            self._sent_if_drained()

    def _sent_if_drained(self) -> None:
        """The responses written are all on the socket: their sends are complete (Kafka's
        ResponseSendTimeMs, from leaving the response queue to the last byte written)."""
        transport = self.transport
        if self.sending and transport is not None and not transport.get_write_buffer_size():
            now = time.monotonic_ns()
            metrics = self.processor.request_metrics
            for request, handed_ns in self.sending:
                metrics.record_send(request.metric_name, (now - handed_ns) / 1e6)
            self.sending.clear()

    def _write(self, transport: asyncio.Transport, parts: list) -> None:
        """Write bytes through the transport; send file regions with sendfile when nothing
        is queued ahead of them, else (socket full, or a region only partly sent) copy."""
        self.last_active_ns = self.processor.time.nanoseconds()
        chunk = []
        for part in parts:
            if not hasattr(part, "fd"):
                chunk.append(part)
                continue
            if chunk:
                transport.writelines(chunk)
                chunk = []
            sent = self._sendfile(transport, part) if not self.tls and transport.get_write_buffer_size() == 0 else 0
            if sent < part.size:
                data = part.read_bytes()
                transport.write(memoryview(data)[sent:])
        if chunk:
            transport.writelines(chunk)

    def _sendfile(self, transport: asyncio.Transport, region) -> int:
        sock = transport.get_extra_info("socket")
        if sock is None:
            return 0
        sent = 0
        try:
            while sent < region.size:
                n = os.sendfile(sock.fileno(), region.fd, region.position + sent, region.size - sent)
                if n == 0:
                    break
                sent += n
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            return sent
        self.processor.metrics["sendfile_bytes"] += sent
        return sent

    def _update_reading(self) -> None:
        if self.transport is None or self.closed:
            return
        should_pause = (self.writing_paused or self.decoder.blocked or bool(self.held) or self.mute.throttled
                        or len(self.pending) + len(self.unread) >= _MAX_READ_AHEAD_PER_CONNECTION)
        if should_pause and not self.reading_paused:
            self.transport.pause_reading()
            self.reading_paused = True
        elif not should_pause and self.reading_paused:
            self.transport.resume_reading()
            self.reading_paused = False


def _framed(parts: list) -> list:
    size = 0
    for part in parts:  # a loop, not sum() over a generator: once per response
        size += part_size(part)
    return [size.to_bytes(4, "big"), *parts]


@dataclass(frozen=True)
class ListenerContext:
    """What a listener's connections share: its name, how a SASL connection gets its
    authenticator (None: no SASL), how a TLS client certificate becomes a principal."""

    name: str = "PLAINTEXT"
    new_authenticator: Callable[[], SaslAuthenticator] | None = None
    principal_mapper: SslPrincipalMapper | None = None
    security_protocol: str = "PLAINTEXT"


_SASL_APIS = (ApiKey.SaslHandshake, ApiKey.SaslAuthenticate)


class Processor:
    """Frames and parses requests for its connections and writes their responses."""

    def __init__(self, processor_id: int, channel: RequestChannel, max_request_size: int, metrics: dict,
                 memory_pool: MemoryPool, api_versions: ApiVersions,
                 request_metrics: RequestMetrics | None = None, listener: ListenerContext | None = None, *,
                 quotas: ConnectionQuotas, stats: NetworkStats, max_idle_ms: int = 600_000,
                 time: Time = SYSTEM_TIME, scheduler: Scheduler = LOOP_SCHEDULER,
                 heap: HeapFreezer | None = None,
                 disconnect_listeners: Sequence[Callable[[str], None]] = ()) -> None:
        """`api_versions` are what KafkaApis serves: anything else closes the connection.
        `request_metrics` counts the requests answered, by name and version, and their time.
        `listener` is the listener this Processor serves (PLAINTEXT when not given). Its
        connections hold slots in `quotas`; `max_idle_ms` is connections.max.idle.ms (negative:
        never closed for idleness), measured on `time` and checked by `scheduler`. `heap`,
        shared by every Processor, refreezes the collector's view of the heap as the broker's
        connection count grows (the default freezes nothing). `disconnect_listeners` are told the
        id of each connection that closes (Kafka's ConnectionDisconnectListener: share sessions end)."""
        self.heap = heap or HeapFreezer(freeze=lambda: None)
        self.disconnect_listeners = tuple(disconnect_listeners)
        self.listener = listener or ListenerContext()
        self.quotas = quotas
        self.stats = stats
        self.max_idle_ms = max_idle_ms
        self.time = time
        self.scheduler = scheduler
        self._idle_check: ScheduledTask | None = None
        self.id = processor_id
        self.channel = channel
        self.api_versions = api_versions
        self.max_request_size = max_request_size
        self.memory_pool = memory_pool
        self.metrics = metrics
        self.request_metrics = request_metrics or RequestMetrics()
        self.connections: set[Connection] = set()

    def register(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.heap.grown_to(self.quotas.total)
        if self.max_idle_ms >= 0 and self._idle_check is None:
            self._idle_check = self.scheduler.schedule(self.max_idle_ms + 1, self.close_idle)

    def unregister(self, conn: Connection) -> None:
        self.connections.discard(conn)

    def close_idle(self) -> None:
        """Kafka's Selector idle expiry: close every connection with no reads or writes for
        more than connections.max.idle.ms, then check again when the least recently active
        one left would expire."""
        self._idle_check = None
        now = self.time.nanoseconds()
        limit = self.max_idle_ms * 1_000_000
        oldest: int | None = None
        for conn in list(self.connections):
            if conn.closed:
                continue
            if now - conn.last_active_ns > limit:
                conn.expire(f"idle for more than connections.max.idle.ms={self.max_idle_ms}", graceful=True)
            elif oldest is None or conn.last_active_ns < oldest:
                oldest = conn.last_active_ns
        if oldest is not None:
            self._idle_check = self.scheduler.schedule((oldest + limit - now) // 1_000_000 + 1, self.close_idle)

    def shutdown(self) -> None:
        if self._idle_check is not None:
            self._idle_check.cancel()
            self._idle_check = None

    def process_frame(self, conn: Connection, payload: bytes | bytearray) -> None:
        """Queue the request; a frame that never becomes a queued request releases its memory."""
        size = len(payload)
        auth = conn.authenticator
        if auth is not None and auth.state == State.RAW:
            self._answer(conn, None, size, auth.raw_token(bytes(payload)))
            return
        if not self._queue_request(conn, payload, size):
            conn.release(size)

    def _answer(self, conn: Connection, request: Request[ApiMessage] | None, size: int, answer: Answer) -> None:
        """Send the authenticator's answer in request order; close after it if it says so."""
        slot = conn.enqueue(request, size)
        if answer.close:
            conn.close_after_response()
            reason = getattr(answer.response, "error_message", None) or answer.reason or "SASL handshake failed"
            log.info("Failed authentication with %s (%s)", conn.peer, reason)  # Kafka's Selector line
        if answer.response is not None and request is not None:
            header = response_header(request.header.correlation_id, request.header.response_header_version)
            conn.complete(slot, [header, answer.response.encode(version=request.api_version)])
        elif answer.raw is not None:
            conn.complete(slot, [answer.raw])
        else:
            conn.close("SASL authentication failed")

    def _sasl_gate(self, conn: Connection, api_key: int) -> bool:
        """Kafka's authenticator: before authentication only ApiVersions and the SASL APIs;
        after the session expired (KIP-368) only a SaslHandshake that re-authenticates."""
        auth = conn.authenticator
        if auth is None:
            return True
        if auth.complete:
            if api_key == ApiKey.SaslHandshake and auth.may_reauthenticate():
                auth.begin_reauthentication()
                return True
            if auth.expired():
                conn.close("session expired (connections.max.reauth.ms or token expiry) without re-authentication")
                return False
            return True
        if api_key in _SASL_APIS or (api_key == ApiKey.ApiVersions and auth.api_versions_allowed):
            return True
        conn.close(f"Unexpected Kafka request of type {ApiKey(api_key).name} during SASL handshake.")
        return False

    def _queue_request(self, conn: Connection, payload: bytes | bytearray, size: int) -> bool:
        try:
            api_key, api_version, correlation_id = peek_api(payload)
        except MalformedRequest as e:
            conn.close(str(e))
            return False
        if not self._sasl_gate(conn, api_key):
            return False
        supported = self.api_versions.range_of(api_key)
        if supported is None:
            conn.close(f"unknown or unsupported API key {api_key}")
            return False
        if not supported[0] <= api_version <= supported[1]:
            if api_key == ApiKey.ApiVersions:
                self._unsupported_api_versions(conn, correlation_id, size)
                return True
            conn.close(f"unsupported version {api_version} of {ApiKey(api_key).name}")
            return False
        try:
            header = parse_request_header(payload)
            # The body's records are views of the payload, which nothing writes to once framed.
            body = request_class(api_key).decode(memoryview(payload)[header.size :], api_version)
        except Exception as error:  # noqa: BLE001 - any decode failure means malformed input
            conn.close(f"malformed {ApiKey(api_key).name} v{api_version} request: {error!r}")
            return False
        auth = conn.authenticator
        principal = auth.principal if auth is not None and auth.complete else conn.principal
        if isinstance(body, ApiVersionsRequest) and api_version >= 3:
            conn.client_software = (body.client_software_name, body.client_software_version)
        request = Request(header, body, conn.connection_id, conn.peer, principal=principal or ANONYMOUS,
                          listener_name=self.listener.name, security_protocol=self.listener.security_protocol,
                          size=size, client_software=conn.client_software)
        if auth is not None and not auth.complete and api_key == ApiKey.ApiVersions:
            auth.api_versions_allowed = False  # answered (an unsupported version may be retried)
        if auth is not None and not auth.complete and api_key in _SASL_APIS:
            answer = (auth.handshake(body, api_version) if isinstance(body, SaslHandshakeRequest)
                      else auth.authenticate(cast(SaslAuthenticateRequest, body), api_version))
            self._answer(conn, request, size, answer)
            return True
        request.owner = conn.enqueue(request, size)
        conn.submit(request)
        return True

    def _unsupported_api_versions(self, conn: Connection, correlation_id: int, size: int) -> None:
        """KIP-511: answer in the v0 layout with UNSUPPORTED_VERSION and our ApiVersions range,
        so the client can retry with a version we speak; after the responses due before it."""
        low, high = self.api_versions.ranges[ApiKey.ApiVersions]
        body = (35).to_bytes(2, "big", signed=True) + (1).to_bytes(4, "big")
        body += int(ApiKey.ApiVersions).to_bytes(2, "big") + low.to_bytes(2, "big") + high.to_bytes(2, "big")
        conn.complete(conn.enqueue(None, size), [response_header(correlation_id, 0), body])


_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def _settle(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


class Acceptor:
    """Listens on one listener, takes each connection through ConnectionQuotas, and assigns
    it to its Processors round-robin; on SSL listeners TLS is negotiated before a connection
    reaches a Processor."""

    def __init__(self, host: str, port: int, processors: list[Processor], ssl_context: ssl.SSLContext | None = None,
                 name: str = "PLAINTEXT", backlog: int = 100) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.ssl_context = ssl_context
        self.processors = processors
        self.backlog = backlog
        self.quotas = processors[0].quotas
        self.stats = processors[0].stats
        self._next = itertools.cycle(processors)
        self._ids = itertools.count()
        self._sock: socket.socket | None = None
        self._accepting: asyncio.Task | None = None
        self._handshakes: set[asyncio.Task] = set()
        self._throttled: set[socket.socket] = set()  # over their ip's connection rate, closed when it is over
        self.blocked = False  # waiting, holding an accepted connection, for a slot or the creation rate

    async def start(self) -> None:
        family, kind, proto, _name, address = socket.getaddrinfo(
            self.host, self.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(self.backlog)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self.port = sock.getsockname()[1]
        self.quotas.add_closer(self.name, self._close_least_active)
        self._accepting = asyncio.create_task(self._accept_loop(sock), name=f"acceptor-{self.name}")

    async def _accept_loop(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(listening)
            except OSError as error:  # Kafka logs and goes on
                log.error("Error while accepting connection on %s: %s", self.name, error)
                if error.errno in _OUT_OF_RESOURCES:  # let connections close before trying again
                    await asyncio.sleep(0.1)
                continue
            try:
                await self._wait_for_slot()
                self.quotas.admit(self.name, peer[0])
            except TooManyConnections as refused:
                log.info("Rejected connection from %s, address already has the configured maximum of %d "
                         "connections.", refused.ip, refused.count)
                sock.close()
                continue
            except ConnectionThrottled as throttled:
                self._close_after_throttle(sock, throttled)
                continue
            except BaseException:
                sock.close()
                raise
            self.stats.created[self.name] += 1
            with contextlib.suppress(OSError):  # as Kafka configures accepted sockets; a reset one fails later
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            self._hand_over(sock, peer[0])

    async def _wait_for_slot(self) -> None:
        """Kafka's ConnectionQuotas.waitForConnectionSlot: wait out the creation-rate delay,
        then for a slot under max.connections, holding the accepted socket meanwhile."""
        quotas = self.quotas
        throttle_ms = quotas.record_connection(self.name)
        if throttle_ms <= 0 and quotas.slot_available(self.name):
            return
        loop = asyncio.get_running_loop()
        started = quotas.time.nanoseconds()
        deadline = quotas.time.milliseconds() + throttle_ms
        self.blocked = True
        try:
            while True:
                remaining = max(deadline - quotas.time.milliseconds(), 0)
                if remaining == 0 and quotas.slot_available(self.name):
                    break
                changed = loop.create_future()
                quotas.when_changed(functools.partial(_settle, changed))
                await asyncio.wait([changed], timeout=remaining / 1000 if remaining else None)
        finally:
            self.blocked = False
            self.stats.acceptor_blocked_ns[self.name] += quotas.time.nanoseconds() - started

    def _close_after_throttle(self, sock: socket.socket, throttled: ConnectionThrottled) -> None:
        """Kafka's throttledSockets: the connection stays open but unread until its throttle
        time is over, then it is closed (a client in a reconnect loop waits that long)."""
        log.debug("Delaying closing of connection from %s for %d ms", throttled.ip, throttled.throttle_ms)
        self._throttled.add(sock)

        def close() -> None:
            self._throttled.discard(sock)
            sock.close()

        delay_ms = throttled.start_ms + throttled.throttle_ms - self.quotas.time.milliseconds()
        asyncio.get_running_loop().call_later(max(delay_ms, 0) / 1000, close)

    def _hand_over(self, sock: socket.socket, ip: str) -> None:
        processor = next(self._next)
        conn = Connection(processor, f"{self.host}:{self.port}-{processor.id}-{next(self._ids)}", ip)
        task = asyncio.get_running_loop().create_task(self._connect(conn, sock))
        self._handshakes.add(task)
        task.add_done_callback(self._handshakes.discard)

    async def _connect(self, conn: Connection, sock: socket.socket) -> None:
        try:
            await asyncio.get_running_loop().connect_accepted_socket(lambda: conn, sock, ssl=self.ssl_context)
        except Exception as e:  # noqa: BLE001 - a failed TLS handshake or a reset peer: only this connection
            log.info("Failed to set up connection from %s on %s: %s", conn.ip, self.name, e)
            conn.release_slot()
            sock.close()
        except asyncio.CancelledError:
            conn.release_slot()
            sock.close()
            raise

    def _close_least_active(self, n: int) -> int:
        """Close up to n of this listener's least recently active connections, to bring the
        total back under max.connections; how many were closed."""
        live = [c for p in self.processors for c in p.connections if not c.closed]
        victims = heapq.nsmallest(n, live, key=lambda c: c.last_active_ns)
        for conn in victims:
            conn.expire("over max.connections", graceful=False)
        return len(victims)

    async def close(self) -> None:
        if self._accepting is not None:
            self._accepting.cancel()
            await asyncio.gather(self._accepting, return_exceptions=True)
        if self._sock is not None:
            self._sock.close()
        for sock in list(self._throttled):
            sock.close()
        self._throttled.clear()
        for task in list(self._handshakes):
            task.cancel()
        await asyncio.gather(*self._handshakes, return_exceptions=True)
        for processor in self.processors:
            processor.shutdown()
            for conn in list(processor.connections):
                if conn.transport is not None:
                    conn.flush()
                    conn.transport.close()
