"""The AddPartitionsToTxnManager (KIP-890 verification) on fake time, against a scripted
sender: the checks for one coordinator share a request, one request is out per coordinator,
a check's deadline counts from when it was asked, a newer check for the same transactional
id answers the older as Kafka's does, and failures reach every check of the request. The
requests go through the wire codec (AddPartitionsToTxn v4) so they are what a coordinator
reads; tests/test_transaction_verification.py and tests/test_verification_shutdown.py run
the manager inside brokers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.add_partitions_to_txn_request import AddPartitionsToTxnRequest
from josefk.protocol.messages.generated.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)
from josefk.replication.add_partitions_to_txn_manager import (
    VERIFY_VERSION,
    AddPartitionsToTxnManager,
    SendResult,
    TopicPartition,
)
from josefk.utils.mock_time import MockScheduler, MockTime

pytestmark = pytest.mark.unit

TIMEOUT_MS = 1000
E = ErrorCode


@dataclass
class Sent:
    node: int
    request: AddPartitionsToTxnRequest
    timeout_ms: int
    done: Callable[[SendResult], None]

    def transactions(self) -> dict[str, tuple[int, bool, list[TopicPartition]]]:
        """transactional id -> (epoch, verify_only, partitions)."""
        return {t.transactional_id: (t.producer_epoch, t.verify_only,
                                     [(topic.name, p) for topic in t.topics for p in topic.partitions])
                for t in self.request.transactions}

    def answer(self, errors: dict[str, dict[TopicPartition, ErrorCode]] | None = None) -> None:
        """A response: every partition of the request NONE unless `errors` says otherwise."""
        errors = errors or {}
        results = []
        for tid, (_epoch, _verify, partitions) in self.transactions().items():
            by_topic: dict[str, list] = {}
            for topic, p in partitions:
                by_topic.setdefault(topic, []).append(AddPartitionsToTxnPartitionResult(
                    partition_index=p, partition_error_code=errors.get(tid, {}).get((topic, p), E.NONE)))
            results.append(AddPartitionsToTxnResult(transactional_id=tid, topic_results=[
                AddPartitionsToTxnTopicResult(name=t, results_by_partition=ps) for t, ps in by_topic.items()]))
        self.done(SendResult(AddPartitionsToTxnResponse(throttle_time_ms=0, error_code=0,
                                                        results_by_transaction=results)))


class FakeSender:
    """Records each request (decoded from its v4 wire form); the test completes them."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []

    def send(self, node: int, request: AddPartitionsToTxnRequest, timeout_ms: int,
             done: Callable[[SendResult], None]) -> None:
        wire = AddPartitionsToTxnRequest.decode(request.encode(VERIFY_VERSION), VERIFY_VERSION)
        self.sent.append(Sent(node, wire, timeout_ms, done))


class Harness:
    def __init__(self, coordinators: dict[str, int] | None = None) -> None:
        self.time = MockTime()
        self.sender = FakeSender()
        self.coordinators = coordinators or {}
        self.manager = AddPartitionsToTxnManager(lambda tid: self.coordinators.get(tid, 1), self.sender, TIMEOUT_MS,
                                                 self.time, MockScheduler(self.time))
        self.answers: dict[str, list[dict[TopicPartition, ErrorCode]]] = {}

    def ask(self, tid: str, epoch: int = 0, partitions: list[TopicPartition] | None = None) -> None:
        self.manager.verify_transaction(tid, 7, epoch, partitions or [("t", 0)],
                                        lambda errors: self.answers.setdefault(tid, []).append(errors))

    def answer_of(self, tid: str) -> ErrorCode | None:
        """The one answer `tid` got (its partitions agreeing), None if none yet."""
        got = self.answers.get(tid, [])
        assert len(got) <= 1, f"{tid} answered twice: {got}"
        if not got:
            return None
        assert len(set(got[0].values())) == 1, got[0]
        return next(iter(got[0].values()))


def test_the_checks_of_one_loop_turn_share_a_request() -> None:
    h = Harness()
    h.ask("a", partitions=[("t", 0), ("t", 1), ("u", 0)])
    h.ask("b", epoch=3)
    h.ask("c")
    assert h.sender.sent == []  # sent after this loop turn, as Kafka's wakeup()
    h.time.sleep(0)
    [sent] = h.sender.sent
    assert (sent.node, sent.timeout_ms) == (1, TIMEOUT_MS)
    assert sent.transactions() == {"a": (0, True, [("t", 0), ("t", 1), ("u", 0)]), "b": (3, True, [("t", 0)]),
                                   "c": (0, True, [("t", 0)])}
    sent.answer({"a": {("t", 1): E.INVALID_TXN_STATE}, "b": {("t", 0): E.PRODUCER_FENCED}})
    assert h.answers["a"] == [{("t", 0): E.NONE, ("t", 1): E.INVALID_TXN_STATE, ("u", 0): E.NONE}]
    assert h.answer_of("b") == E.INVALID_PRODUCER_EPOCH  # producers expect it for a fenced epoch
    assert h.answer_of("c") == E.NONE


def test_one_request_in_flight_per_coordinator() -> None:
    h = Harness({"x": 2})
    h.ask("a")
    h.time.sleep(0)
    h.ask("b")
    h.ask("c")
    h.ask("x")  # another coordinator: its own request, not held back by broker 1's
    h.time.sleep(10)
    assert [(s.node, list(s.transactions())) for s in h.sender.sent] == [(1, ["a"]), (2, ["x"])]
    h.sender.sent[0].answer()
    assert h.answer_of("a") == E.NONE and h.answer_of("b") is None
    # What waited behind the first request goes out as one, at once.
    assert [(s.node, list(s.transactions())) for s in h.sender.sent[2:]] == [(1, ["b", "c"])]
    assert h.sender.sent[2].timeout_ms == TIMEOUT_MS - 10  # the 10 ms waited count
    h.sender.sent[2].answer()
    assert (h.answer_of("b"), h.answer_of("c")) == (E.NONE, E.NONE)
    h.time.sleep(0)
    assert len(h.sender.sent) == 3  # nothing left to send


def test_the_deadline_counts_the_wait_for_the_coordinator() -> None:
    """request.timeout.ms from when the check was asked, whether it waits for its turn or
    for its response: NETWORK_EXCEPTION then, as Kafka answers a timed-out request."""
    h = Harness()
    h.ask("a")
    h.time.sleep(600)
    h.ask("b")  # behind a's request, which does not answer
    h.time.sleep(TIMEOUT_MS - 600 - 1)
    assert h.answers == {}
    h.time.sleep(1)
    assert h.answer_of("a") == E.NETWORK_EXCEPTION and h.answer_of("b") is None
    h.time.sleep(599)
    assert h.answer_of("b") is None
    h.time.sleep(1)  # b's 1000 ms, never sent
    assert h.answer_of("b") == E.NETWORK_EXCEPTION
    assert len(h.sender.sent) == 1
    h.sender.sent[0].done(SendResult(None, E.NETWORK_EXCEPTION))  # the request's own timeout ends it
    assert len(h.sender.sent) == 1 and len(h.answers["a"]) == 1  # b expired; nothing answered twice


def test_one_timer_per_node_expires_each_later_check_at_its_own_deadline() -> None:
    """The node's timer is armed for its oldest check; when that one was answered meanwhile,
    the checks asked since still expire request.timeout.ms after they were asked."""
    h = Harness()
    h.ask("a")
    h.time.sleep(10)
    h.sender.sent[0].answer()
    h.time.sleep(490)
    h.ask("b")  # at 500 ms, while the timer waits for a's deadline
    h.time.sleep(0)
    h.time.sleep(TIMEOUT_MS - 500)
    assert h.answer_of("a") == E.NONE and h.answer_of("b") is None
    h.time.sleep(499)
    assert h.answer_of("b") is None
    h.time.sleep(1)
    assert h.answer_of("b") == E.NETWORK_EXCEPTION


def test_a_late_response_does_not_answer_an_expired_check() -> None:
    h = Harness()
    h.ask("a")
    h.time.sleep(0)
    h.time.sleep(TIMEOUT_MS)
    h.sender.sent[0].answer()
    assert h.answers["a"] == [{("t", 0): E.NETWORK_EXCEPTION}]


@pytest.mark.parametrize(("older_epoch", "newer_epoch", "older_answer"), [
    (0, 0, E.NETWORK_EXCEPTION),  # the producer retried: the older check must retry too
    (0, 1, E.INVALID_PRODUCER_EPOCH),  # the older epoch is fenced
])
def test_a_newer_check_for_the_same_id_answers_the_waiting_one(older_epoch: int, newer_epoch: int,
                                                               older_answer: ErrorCode) -> None:
    h = Harness()
    h.ask("other")
    h.time.sleep(0)  # in flight: the next checks wait
    h.manager.verify_transaction("a", 7, older_epoch, [("t", 0)], lambda e: h.answers.setdefault("old", []).append(e))
    h.manager.verify_transaction("a", 7, newer_epoch, [("t", 1)], lambda e: h.answers.setdefault("new", []).append(e))
    assert h.answer_of("old") == older_answer and h.answer_of("new") is None
    h.sender.sent[0].answer()
    assert h.sender.sent[1].transactions() == {"a": (newer_epoch, True, [("t", 1)])}
    h.sender.sent[1].answer()
    assert h.answer_of("new") == E.NONE and len(h.answers["old"]) == 1


def test_an_older_epoch_than_the_waiting_check_is_fenced_at_once() -> None:
    h = Harness()
    h.manager.verify_transaction("a", 7, 5, [("t", 0)], lambda e: h.answers.setdefault("waiting", []).append(e))
    h.manager.verify_transaction("a", 7, 4, [("t", 0)], lambda e: h.answers.setdefault("stale", []).append(e))
    assert h.answer_of("stale") == E.INVALID_PRODUCER_EPOCH and h.answer_of("waiting") is None
    h.time.sleep(0)
    assert h.sender.sent[0].transactions() == {"a": (5, True, [("t", 0)])}


def test_a_check_already_sent_is_not_replaced() -> None:
    """Only a waiting check is superseded; one in flight keeps its answer."""
    h = Harness()
    h.ask("a")
    h.time.sleep(0)
    h.ask("a")
    h.sender.sent[0].answer()
    assert h.answers["a"] == [{("t", 0): E.NONE}]
    h.sender.sent[1].answer()
    assert h.answers["a"] == [{("t", 0): E.NONE}, {("t", 0): E.NONE}]


def test_a_disconnect_answers_every_check_of_the_request_and_the_next_goes_out() -> None:
    h = Harness()
    h.ask("a", partitions=[("t", 0), ("t", 1)])
    h.ask("b")
    h.time.sleep(0)
    h.ask("c")
    h.sender.sent[0].done(SendResult(None, E.NETWORK_EXCEPTION))
    assert h.answers["a"] == [{("t", 0): E.NETWORK_EXCEPTION, ("t", 1): E.NETWORK_EXCEPTION}]
    assert h.answer_of("b") == E.NETWORK_EXCEPTION and h.answer_of("c") is None
    assert list(h.sender.sent[1].transactions()) == ["c"]


@pytest.mark.parametrize(("top_level", "answer"), [
    (E.CLUSTER_AUTHORIZATION_FAILED, E.INVALID_TXN_STATE),  # the client must not see it
    (E.NOT_COORDINATOR, E.NOT_COORDINATOR),
])
def test_a_top_level_error_answers_every_check(top_level: ErrorCode, answer: ErrorCode) -> None:
    h = Harness()
    h.ask("a")
    h.ask("b")
    h.time.sleep(0)
    h.sender.sent[0].done(SendResult(AddPartitionsToTxnResponse(throttle_time_ms=0, error_code=top_level)))
    assert (h.answer_of("a"), h.answer_of("b")) == (answer, answer)


def test_no_coordinator_is_coordinator_not_available_at_once() -> None:
    h = Harness()
    h.manager.coordinator_for = lambda _tid: None
    h.ask("a", partitions=[("t", 0), ("t", 1)])
    assert h.answers["a"] == [{("t", 0): E.COORDINATOR_NOT_AVAILABLE, ("t", 1): E.COORDINATOR_NOT_AVAILABLE}]
    h.time.sleep(0)
    assert h.sender.sent == []


def test_closed_it_sends_and_answers_nothing() -> None:
    h = Harness()
    h.ask("a")
    h.time.sleep(0)
    h.ask("b")
    h.manager.close()
    h.ask("c")  # a check asked after close is not taken (nor timed out)
    h.sender.sent[0].answer()
    h.time.sleep(2 * TIMEOUT_MS)
    assert h.answers == {} and len(h.sender.sent) == 1


def test_a_check_that_adds_asks_the_coordinator_to_add_the_partitions() -> None:
    """Produce v12+ (KIP-890 part 2): the leader asks the coordinator to add the partitions
    (verify_only false), not only to verify them; in the same request as other checks."""
    h = Harness()
    h.manager.verify_transaction("a", 7, 0, [("t", 0)], lambda e: h.answers.setdefault("a", []).append(e), add=True)
    h.ask("b")
    h.time.sleep(0)
    [sent] = h.sender.sent
    assert sent.transactions() == {"a": (0, False, [("t", 0)]), "b": (0, True, [("t", 0)])}
