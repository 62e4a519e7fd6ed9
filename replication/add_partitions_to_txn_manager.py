"""Kafka's AddPartitionsToTxnManager (KIP-890 part 1): a partition leader asks a producer's
transaction coordinator whether partitions are in its ongoing transaction, with
AddPartitionsToTxn v4 verify_only, before a transactional batch may open a transaction.

Every check waiting for one coordinator goes into that node's next request (v4 carries many
transactions), and each node has at most one request in flight: a leader under many
transactional producers sends one request per round trip instead of queueing one per check
behind the last. A check's deadline counts from when it was asked, so the wait for the node
counts against request.timeout.ms as the round trip does. A newer check for a transactional
id whose check is still waiting replaces it, as in Kafka: the older one is answered
INVALID_PRODUCER_EPOCH if the newer has a higher epoch (it is fenced), else NETWORK_EXCEPTION
(the producer retried; it must retry again); an older epoch is refused INVALID_PRODUCER_EPOCH.

Checks are answered by callback, and one timer per node (armed for its oldest check's
deadline) expires them rather than one per check: under many producers a check costs a
dict entry, not a future, a task and a timer of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from josefk.protocol.messages.generated.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from josefk.utils.scheduler import LOOP_SCHEDULER, ScheduledTask, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
VerifyCallback = Callable[[dict[TopicPartition, ErrorCode]], None]

VERIFY_VERSION = 4  # the first with verify_only and many transactions, which Kafka 3.9's leaders send
# What a leader hands on instead of the coordinator's answer: producers expect
# INVALID_PRODUCER_EPOCH for a fenced one; the client must not see a refused cluster
# authorization, only that the verification did not complete.
_PARTITION_ERRORS = {ErrorCode.PRODUCER_FENCED: ErrorCode.INVALID_PRODUCER_EPOCH}
_TOP_LEVEL_ERRORS = {ErrorCode.CLUSTER_AUTHORIZATION_FAILED: ErrorCode.INVALID_TXN_STATE}


def leader_error(error: ErrorCode) -> ErrorCode:
    """A partition's error in the coordinator's answer, as the leader hands it on."""
    return _PARTITION_ERRORS.get(error, error)


@dataclass(frozen=True)
class SendResult:
    """How a verification request ended: its response, or `error` without one
    (NETWORK_EXCEPTION for a disconnect or a timeout, SASL_AUTHENTICATION_FAILED when the
    coordinator refused this broker's credentials: what Kafka's Errors.forException gives)."""

    response: AddPartitionsToTxnResponse | None
    error: ErrorCode = ErrorCode.NONE


class VerificationSender(Protocol):
    """The network under the manager: one AddPartitionsToTxn request to one broker."""

    def send(self, node: int, request: AddPartitionsToTxnRequest, timeout_ms: int,
             done: Callable[[SendResult], None]) -> None:
        """Send `request` (VERIFY_VERSION) to broker `node`; call `done` once, on a later
        loop turn, with its response or its failure (a timeout after `timeout_ms`)."""
        ...


@dataclass(eq=False)
class _Check:
    transactional_id: str
    producer_id: int
    producer_epoch: int
    partitions: list[TopicPartition]
    callback: VerifyCallback
    deadline_ms: int
    add: bool = False  # add the partitions (Produce v12+, KIP-890 part 2) rather than only verify them
    answered: bool = False


class AddPartitionsToTxnManager:
    """replication.replica_manager.TransactionVerification, batching per coordinator node."""

    def __init__(self, coordinator_for: Callable[[str], int | None], sender: VerificationSender,
                 request_timeout_ms: int = 30_000, time: Time = SYSTEM_TIME,
                 scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        """`coordinator_for(transactional_id)`: the broker leading the id's
        __transaction_state partition, None if there is none alive (the check is then
        COORDINATOR_NOT_AVAILABLE, as Kafka's). `request_timeout_ms` (request.timeout.ms)
        bounds each check from when it was asked."""
        self.coordinator_for = coordinator_for
        self.sender = sender
        self.request_timeout_ms = request_timeout_ms
        self.time = time
        self.scheduler = scheduler
        self._waiting: dict[int, dict[str, _Check]] = {}  # node -> its next request's checks, by id
        self._in_flight: dict[int, dict[str, _Check]] = {}  # node -> the checks of its request out
        self._send_armed: set[int] = set()  # nodes with a send scheduled for after this loop turn
        self._timers: dict[int, ScheduledTask] = {}  # node -> the expiry of its oldest check
        self._closed = False

    def verify_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int,
                           partitions: list[TopicPartition], callback: VerifyCallback, add: bool = False) -> None:
        """Kafka's addOrVerifyTransaction: `callback` gets every partition's answer once, at
        once if there is no coordinator or the check is fenced, else on a later turn;
        never once closed. With `add` (a Produce v12+ of a producer on transactions v2) the
        coordinator adds the partitions to the transaction instead of only verifying them."""
        if self._closed:
            return
        node = self.coordinator_for(transactional_id)
        if node is None:
            callback(dict.fromkeys(partitions, ErrorCode.COORDINATOR_NOT_AVAILABLE))
            return
        waiting = self._waiting.setdefault(node, {})
        older = waiting.get(transactional_id)
        if older is not None:
            if older.producer_epoch > producer_epoch:
                callback(dict.fromkeys(partitions, ErrorCode.INVALID_PRODUCER_EPOCH))
                return
            del waiting[transactional_id]
            self._answer_all(older, ErrorCode.INVALID_PRODUCER_EPOCH if older.producer_epoch < producer_epoch
                             else ErrorCode.NETWORK_EXCEPTION)
        check = _Check(transactional_id, producer_id, producer_epoch, partitions, callback,
                       self.time.hi_res_clock_ms() + self.request_timeout_ms, add)
        waiting[transactional_id] = check
        if node not in self._timers:  # else armed for an older check, which expires first
            self._timers[node] = self.scheduler.schedule(self.request_timeout_ms, self._expire, node)
        if node not in self._in_flight and node not in self._send_armed:
            # Kafka's wakeup(): the checks asked in this loop turn go out together.
            self._send_armed.add(node)
            self.scheduler.call_soon(self._send, node)

    def _send(self, node: int) -> None:
        self._send_armed.discard(node)
        if self._closed or node in self._in_flight:
            return
        checks = self._waiting.pop(node, {})
        if not checks:
            return
        self._in_flight[node] = checks
        transactions = []
        for check in checks.values():
            by_topic: dict[str, list[int]] = {}
            for topic, p in check.partitions:
                by_topic.setdefault(topic, []).append(p)
            transactions.append(AddPartitionsToTxnTransaction(
                transactional_id=check.transactional_id, producer_id=check.producer_id,
                producer_epoch=check.producer_epoch, verify_only=not check.add,
                topics=[AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()]))
        # The request lasts as long as one of its checks still waits for it.
        timeout_ms = max(c.deadline_ms for c in checks.values()) - self.time.hi_res_clock_ms()
        self.sender.send(node, AddPartitionsToTxnRequest(transactions=transactions), max(timeout_ms, 0),
                         lambda result: self._completed(node, checks, result))

    def _completed(self, node: int, checks: dict[str, _Check], result: SendResult) -> None:
        self._in_flight.pop(node, None)
        if self._closed:
            return
        response = result.response
        if response is None:
            log.warning("AddPartitionsToTxn to broker %d for %d transactions failed: %s",
                        node, len(checks), result.error.name)
            for check in checks.values():
                self._answer_all(check, result.error)
        elif response.error_code:
            error = ErrorCode(response.error_code)
            log.error("AddPartitionsToTxn to broker %d returned %s", node, error.name)
            for check in checks.values():
                self._answer_all(check, _TOP_LEVEL_ERRORS.get(error, error))
        else:
            found: dict[str, dict[TopicPartition, ErrorCode]] = {}
            for txn in response.results_by_transaction:
                errors = found.setdefault(txn.transactional_id, {})
                for topic in txn.topic_results:
                    for p in topic.results_by_partition:
                        error = ErrorCode(p.partition_error_code)
                        errors[(topic.name, p.partition_index)] = leader_error(error)
            for tid, check in checks.items():
                errors = found.get(tid, {})
                self._answer(check, {tp: errors.get(tp, ErrorCode.UNKNOWN_SERVER_ERROR) for tp in check.partitions})
        self._send(node)  # what waited meanwhile goes out now

    def _expire(self, node: int) -> None:
        """The oldest check's request.timeout.ms has passed: every check of the node past its
        deadline, waiting for its turn or for its response, is answered NETWORK_EXCEPTION (as
        Kafka answers a timed-out request); the timer is armed again for the next oldest."""
        del self._timers[node]
        now = self.time.hi_res_clock_ms()
        waiting = self._waiting.get(node, {})
        next_deadline = None
        for checks in (self._in_flight.get(node, {}), waiting):
            for check in list(checks.values()):
                if check.answered:
                    continue
                if check.deadline_ms <= now:
                    if waiting.get(check.transactional_id) is check:
                        del waiting[check.transactional_id]
                    self._answer_all(check, ErrorCode.NETWORK_EXCEPTION)
                elif next_deadline is None or check.deadline_ms < next_deadline:
                    next_deadline = check.deadline_ms
        if next_deadline is not None and not self._closed:
            self._timers[node] = self.scheduler.schedule(max(next_deadline - now, 0), self._expire, node)

    def _answer_all(self, check: _Check, error: ErrorCode) -> None:
        self._answer(check, dict.fromkeys(check.partitions, error))

    def _answer(self, check: _Check, errors: dict[TopicPartition, ErrorCode]) -> None:
        if check.answered:
            return
        check.answered = True
        try:
            check.callback(errors)
        except Exception:  # noqa: BLE001 - one caller's failure must not lose the others' answers
            log.exception("Answering the verification of %s failed", check.transactional_id)

    def close(self) -> None:
        """Broker shutdown: send and answer nothing more (Kafka's manager goes down with
        the ReplicaManager; the producers' requests stay unanswered)."""
        self._closed = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._waiting.clear()
        self._in_flight.clear()
