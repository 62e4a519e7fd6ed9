"""TransactionMarkerChannelManager: writes a transaction's COMMIT or ABORT markers to the
leaders of its partitions with WriteTxnMarkers. As Kafka's, the markers waiting for one
broker share a request (WriteTxnMarkers carries many) and one request is out per broker, so
many producers' commits do not queue one round trip each.

Markers for partitions this broker leads are appended in-process (`local`, the same
writer WriteTxnMarkers uses: same batch, acks=all append and errors) where Kafka sends them
over its own listener: the request's encoding, round trip and wait in the request queue
behind every client's requests were most of the time in which the producer's next
transaction was answered CONCURRENT_TRANSACTIONS. A local answer is handled as a remote
one: retried, given up or taken as fencing alike.

A partition is retried until its leader takes the marker: leaders move, and a marker that
never lands would leave read_committed consumers stuck at the last stable offset. A
partition whose topic is gone needs no marker. A leader answering that the producer or the
coordinator was fenced means a newer coordinator owns the transaction: sending stops and
this coordinator does not complete it.

A transaction's markers are a state (_Markers) moved on by callbacks, not a task awaiting
a future per leader: under many producers each commit costs the broker no task of its own,
only the one task per request out.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from josefk.clients.network_client import PLAINTEXT, BrokerConnection, BrokerConnections, ClientSecurity
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.protocol.messages.generated.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)
from josefk.protocol.messages.generated.write_txn_markers_response import WriteTxnMarkersResponse
from josefk.replication.metadata_cache import MetadataCache

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
WRITE_TXN_MARKERS_VERSION = 1  # Kafka 3.9 serves 0-1
FENCED_ERRORS = frozenset({ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.PRODUCER_FENCED,
                           ErrorCode.TRANSACTION_COORDINATOR_FENCED})
# A broken request, not a passing condition: retrying cannot help (Kafka throws on these).
FATAL_ERRORS = frozenset({ErrorCode.CORRUPT_MESSAGE, ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE,
                          ErrorCode.INVALID_REQUIRED_ACKS, ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT})


class TxnMarkerSender(Protocol):
    """What the transaction coordinator needs to end a transaction on its partitions."""

    def send_markers(self, transactional_id: str, coordinator_epoch: int, producer_id: int, producer_epoch: int,
                     commit: bool, partitions: frozenset[TopicPartition], done: Callable[[bool], None]) -> None:
        """Write the markers; `done(True)` once every partition has one, `done(False)` if the
        coordinator or producer turned out fenced."""
        ...


class LocalMarkerWriter(Protocol):
    """Appends markers to partitions this broker leads (replication.txn_marker_writer)."""

    def write(self, producer_id: int, producer_epoch: int, coordinator_epoch: int, commit: bool,
              partitions: Iterable[TopicPartition], done: Callable[[dict[TopicPartition, ErrorCode]], None]) -> None:
        """`done` gets each partition's error once every append is acknowledged or failed."""
        ...


@dataclass(eq=False)
class _Markers:
    """One transaction's markers still to write, and its leaders' answers to this round."""

    transactional_id: str
    coordinator_epoch: int
    producer_id: int
    producer_epoch: int
    commit: bool
    remaining: set[TopicPartition]
    done: Callable[[bool], None]
    outstanding: int = 0  # leaders yet to answer this round
    answers: dict[TopicPartition, ErrorCode] = field(default_factory=dict)


@dataclass(frozen=True)
class _Queued:
    marker: WritableTxnMarker
    partitions: list[TopicPartition]
    answer: Callable[[dict[TopicPartition, ErrorCode]], None]


class TransactionMarkerChannelManager:
    def __init__(self, broker_id: int, metadata_cache: MetadataCache, retry_backoff_ms: int = 100,
                 request_timeout_ms: int = 30_000, security: ClientSecurity = PLAINTEXT,
                 local: LocalMarkerWriter | None = None) -> None:
        """Markers go to the brokers' inter-broker listener, spoken with `security`; those
        for this broker's own partitions to `local` if given."""
        self.security = security
        self.local = local
        self.broker_id = broker_id
        self.metadata_cache = metadata_cache
        self.retry_backoff_s = retry_backoff_ms / 1000
        self.request_timeout_s = request_timeout_ms / 1000
        self._connections = BrokerConnections(f"broker-{broker_id}-txn-marker-sender", security)
        self._tasks: set[asyncio.Task] = set()
        self._retries: set[asyncio.TimerHandle] = set()
        self._queued: dict[int, list[_Queued]] = {}  # broker -> the markers for its next request
        self._draining: set[int] = set()  # brokers with a request out or about to be
        self._closed = False

    def send_markers(self, transactional_id: str, coordinator_epoch: int, producer_id: int, producer_epoch: int,
                     commit: bool, partitions: frozenset[TopicPartition], done: Callable[[bool], None]) -> None:
        # On the next loop turn, as the caller expects: `done` never runs inside this call.
        asyncio.get_running_loop().call_soon(self._round, _Markers(
            transactional_id, coordinator_epoch, producer_id, producer_epoch, commit, set(partitions), done))

    def _round(self, markers: _Markers) -> None:
        """Queue the remaining markers for their leaders; the last leader's answer ends the round."""
        if self._closed:
            return
        by_leader: dict[int, list[TopicPartition]] = {}
        for tp in list(markers.remaining):
            state = self.metadata_cache.partition(*tp)
            if state is None and tp[0] not in self.metadata_cache.topics:
                log.info("Skipping the %s marker of %s for %s-%d: the topic no longer exists", _result(markers),
                         markers.transactional_id, *tp)
                markers.remaining.discard(tp)
            elif state is not None and state.leader in self.metadata_cache.brokers:
                by_leader.setdefault(state.leader, []).append(tp)
        if not markers.remaining:
            markers.done(True)
            return
        if not by_leader:  # no leader known for any of them yet
            self._retry(markers)
            return
        markers.outstanding = len(by_leader)
        markers.answers = {}
        for leader, tps in by_leader.items():
            if leader == self.broker_id and self.local is not None:
                self._write_locally(self.local, markers, tps)
            else:
                self._queue(leader, markers, tps)

    def _write_locally(self, local: LocalMarkerWriter, markers: _Markers, partitions: list[TopicPartition]) -> None:
        """This broker's partitions' markers, appended without a request; an append that
        raises counts as a retriable error, as a broken connection does."""
        answered = False

        def answer(errors: dict[TopicPartition, ErrorCode]) -> None:
            nonlocal answered
            answered = True
            self._answered(markers, errors)

        try:
            local.write(markers.producer_id, markers.producer_epoch, markers.coordinator_epoch, markers.commit,
                        partitions, answer)
        except Exception:  # noqa: BLE001 - a broken append must not leave the transaction stuck
            log.exception("Writing the %s markers of %s locally failed", _result(markers), markers.transactional_id)
            if not answered:
                self._answered(markers, dict.fromkeys(partitions, ErrorCode.UNKNOWN_SERVER_ERROR))

    def _answered(self, markers: _Markers, errors: dict[TopicPartition, ErrorCode]) -> None:
        markers.answers.update(errors)
        markers.outstanding -= 1
        if markers.outstanding or self._closed:
            return
        for tp, error in markers.answers.items():
            if error == ErrorCode.NONE:
                markers.remaining.discard(tp)
            elif error in FENCED_ERRORS:
                log.info("Stopped sending the %s markers of %s: %s from the leader of %s-%d", _result(markers),
                         markers.transactional_id, error.name, *tp)
                markers.done(False)
                return
            elif error in FATAL_ERRORS:
                log.error("The %s marker of %s for %s-%d was refused with %s; giving it up", _result(markers),
                          markers.transactional_id, *tp, error.name)
                markers.remaining.discard(tp)
        if markers.remaining:
            self._retry(markers)
        else:
            markers.done(True)

    def _retry(self, markers: _Markers) -> None:
        """Another round after retry.backoff.ms."""
        def again() -> None:
            self._retries.discard(handle)
            self._round(markers)

        handle = asyncio.get_running_loop().call_later(self.retry_backoff_s, again)
        self._retries.add(handle)

    def _queue(self, leader: int, markers: _Markers, partitions: list[TopicPartition]) -> None:
        """One transaction's markers for one leader, in the next WriteTxnMarkers request to it."""
        by_topic: dict[str, list[int]] = {}
        for topic, p in partitions:
            by_topic.setdefault(topic, []).append(p)
        marker = WritableTxnMarker(
            producer_id=markers.producer_id, producer_epoch=markers.producer_epoch,
            transaction_result=markers.commit, coordinator_epoch=markers.coordinator_epoch,
            topics=[WritableTxnMarkerTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()])
        self._queued.setdefault(leader, []).append(
            _Queued(marker, partitions, functools.partial(self._answered, markers)))
        if leader not in self._draining:
            self._draining.add(leader)
            task = asyncio.get_running_loop().create_task(self._drain(leader))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _drain(self, leader: int) -> None:
        """Kafka's TransactionMarkerChannelManager: the markers queued for a broker go out
        together, one request in flight per broker; those queued meanwhile go in the next."""
        try:
            while queued := self._queued.pop(leader, None):
                batch: dict[int, _Queued] = {}
                later = []
                for item in queued:  # one marker per producer in a request: the answers are by producer
                    if item.marker.producer_id in batch:
                        later.append(item)
                    else:
                        batch[item.marker.producer_id] = item
                if later:
                    self._queued[leader] = later + self._queued.get(leader, [])
                try:
                    answers = await self._write_batch(leader, list(batch.values()))
                except Exception:  # noqa: BLE001 - a broken response must not leave the transactions stuck
                    log.exception("WriteTxnMarkers to broker %d failed", leader)
                    answers = {pid: dict.fromkeys(item.partitions, ErrorCode.UNKNOWN_SERVER_ERROR)
                               for pid, item in batch.items()}
                for item in batch.values():
                    try:
                        item.answer(answers[item.marker.producer_id])
                    except Exception:  # noqa: BLE001 - one transaction's failure must not stop the others'
                        log.exception("Completing the markers of producer %d failed", item.marker.producer_id)
        finally:
            self._draining.discard(leader)

    async def _write_batch(self, leader: int, batch: list[_Queued]) -> dict[int, dict[TopicPartition, ErrorCode]]:
        """One WriteTxnMarkers request: each producer's partitions' errors; a connection
        failure counts as a retriable error."""
        try:
            connection = self._connection(leader)
            response = await connection.request(ApiKey.WriteTxnMarkers, WRITE_TXN_MARKERS_VERSION,
                                                WriteTxnMarkersRequest(markers=[item.marker for item in batch]),
                                                timeout=self.request_timeout_s)
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError) as e:
            log.debug("WriteTxnMarkers to broker %d failed: %r", leader, e)
            return {item.marker.producer_id: dict.fromkeys(item.partitions, ErrorCode.NETWORK_EXCEPTION)
                    for item in batch}
        assert isinstance(response, WriteTxnMarkersResponse)
        errors: dict[int, dict[TopicPartition, ErrorCode]] = {}
        for marker_result in response.markers:
            found = errors.setdefault(marker_result.producer_id, {})
            for topic in marker_result.topics:
                for p in topic.partitions:
                    found[(topic.name, p.partition_index)] = ErrorCode(p.error_code)
        return {item.marker.producer_id: {tp: errors.get(item.marker.producer_id, {}).get(
                    tp, ErrorCode.UNKNOWN_SERVER_ERROR) for tp in item.partitions} for item in batch}

    def _connection(self, broker_id: int) -> BrokerConnection:
        broker = self.metadata_cache.brokers.get(broker_id)
        if broker is None:  # it left after its markers were queued: the retry's round finds the new leader
            raise ConnectionError(f"broker {broker_id} is no longer in the metadata cache")
        return self._connections.get(broker_id, broker.host, broker.port)

    async def shutdown(self) -> None:
        """Stop sending: a transaction left prepared is finished by the partition's next
        coordinator, which finds it on loading."""
        self._closed = True
        for handle in self._retries:
            handle.cancel()
        self._retries.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._connections.close()


def _result(markers: _Markers) -> str:
    return "COMMIT" if markers.commit else "ABORT"
