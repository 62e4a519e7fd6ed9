"""TransactionCoordinator on transactions v2 (KIP-890 part 2), on fake time: EndTxn v5 bumps
the epoch at every end and answers the producer id and epoch to go on with, a new producer id
when the bump exhausts the epoch, retries recognised by the epoch they name and anything else
fenced, aborts with no transaction open, timeouts and takeovers of a v2 transaction, and the
TV2 fields in __transaction_state. Kafka 4.4's TransactionCoordinator.endTransaction is the
reference; the v1 path's tests (tests/test_transaction_coordinator.py) run unchanged.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from josefk.coordinator.transaction_log import (
    TRANSACTION_STATE_TOPIC,
    read_key,
    read_value,
    transaction_key,
    transaction_value,
)
from josefk.coordinator.transaction_metadata import (
    MAX_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    TV_2,
    TransactionState,
    TxnTransit,
)
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import decode_all
from tests.prerequisites import require_files, require_tools
from tests.test_transaction_coordinator import ABORT_INTERVAL_MS, TID, TP, TP2, Harness

pytestmark = pytest.mark.unit

S = TransactionState
NEW_PID = 5000


class V2(Harness):
    """The harness with transactions v2 finalized, and its producers' v2 requests."""

    def __init__(self, tmp_path: Path) -> None:
        super().__init__(tmp_path)
        self.state.transaction_version = lambda: TV_2

    def add_v2(self, pid: int, epoch: int, *tps: tuple[str, int]) -> ErrorCode:
        """A partition leader adding a partition for a v2 producer (Produce v12+)."""
        got: list[ErrorCode] = []
        self.coordinator.add_partitions(TID, pid, epoch, set(tps), got.append, TV_2)
        self.time.sleep(0)
        return got[0]

    def end_v2(self, pid: int, epoch: int, commit: bool, new_pid: int = NO_PRODUCER_ID
               ) -> tuple[ErrorCode, int, int]:
        got: list[tuple[ErrorCode, int, int]] = []
        drawn = new_pid if self.coordinator.end_wants_producer_id(TID) else NO_PRODUCER_ID
        self.coordinator.end_transaction_v2(TID, pid, epoch, commit, drawn, lambda *a: got.append(a))
        self.time.sleep(0)
        assert len(got) == 1
        return got[0]

    def land_markers(self) -> None:
        call = self.markers.calls[-1]
        call.done(True)
        self.time.sleep(0)

    def values(self) -> list[tuple[int, bytes]]:
        """(value version, value) of every non-tombstone record in __transaction_state-0."""
        log = self.replicas.partitions[(TRANSACTION_STATE_TOPIC, 0)].log
        records = decode_all(log.read(0, 1 << 20, max_offset=None, min_one_message=True).read_bytes())
        return [(int.from_bytes(r.value[:2], "big"), r.value) for r in records if r.value is not None]


@pytest.fixture
def v2(tmp_path: Path):
    harness = V2(tmp_path)
    yield harness
    harness.close()


def test_commit_bumps_the_epoch_and_answers_it(v2: V2) -> None:
    _, pid, epoch = v2.init()
    assert v2.add_v2(pid, epoch, TP, TP2) == ErrorCode.NONE
    assert v2.metadata.client_transaction_version == TV_2
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.NONE, pid, epoch + 1)
    assert (v2.metadata.state, v2.metadata.producer_epoch, v2.metadata.last_producer_epoch) == \
        (S.PREPARE_COMMIT, epoch + 1, epoch)
    [call] = v2.markers.calls
    assert (call.producer_id, call.producer_epoch, call.commit, call.partitions) == \
        (pid, epoch + 1, True, frozenset({TP, TP2}))  # the markers carry the bumped epoch, fencing late writes
    v2.land_markers()
    assert (v2.metadata.state, v2.metadata.producer_epoch) == (S.COMPLETE_COMMIT, epoch + 1)
    # The next transaction runs at the bumped epoch; the old one is fenced.
    assert v2.add_v2(pid, epoch, TP) == ErrorCode.PRODUCER_FENCED
    assert v2.add_v2(pid, epoch + 1, TP) == ErrorCode.NONE
    assert v2.end_v2(pid, epoch + 1, commit=False) == (ErrorCode.NONE, pid, epoch + 2)


def test_a_retried_end_is_answered_by_the_epoch_it_names_and_fenced_after_the_next_begins(v2: V2) -> None:
    """Kafka's retryOnEpochBump: a retry names the epoch before the bump. While the markers
    are out it waits (CONCURRENT_TRANSACTIONS); once complete, the same result succeeds with
    the current id and epoch, the other result is INVALID_TXN_STATE; once the producer's next
    transaction is open, the retry is fenced, as is any epoch but the current one."""
    _, pid, epoch = v2.init()
    v2.add_v2(pid, epoch, TP)
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.NONE, pid, epoch + 1)
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.CONCURRENT_TRANSACTIONS, -1, -1)
    assert v2.end_v2(pid, epoch + 1, commit=True) == (ErrorCode.PRODUCER_FENCED, -1, -1)
    v2.land_markers()
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.NONE, pid, epoch + 1)
    assert v2.end_v2(pid, epoch, commit=False) == (ErrorCode.INVALID_TXN_STATE, -1, -1)
    assert v2.end_v2(pid, epoch + 1, commit=True) == (ErrorCode.INVALID_TXN_STATE, -1, -1)  # no transaction
    assert v2.end_v2(pid, epoch + 2, commit=True) == (ErrorCode.PRODUCER_FENCED, -1, -1)
    assert v2.end_v2(pid + 1, epoch + 1, commit=True) == (ErrorCode.INVALID_PRODUCER_ID_MAPPING, -1, -1)
    v2.add_v2(pid, epoch + 1, TP)
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.PRODUCER_FENCED, -1, -1)
    assert len(v2.markers.calls) == 1  # nothing but the one commit was ever prepared


def test_an_abort_with_no_transaction_open_bumps_the_epoch(v2: V2) -> None:
    """v2 lets a producer abort from Empty or a completed transaction: no markers to write,
    but the epoch is bumped (and the transaction start is the abort's time)."""
    _, pid, epoch = v2.init()
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.INVALID_TXN_STATE, -1, -1)
    v2.time.sleep(7)
    assert v2.end_v2(pid, epoch, commit=False) == (ErrorCode.NONE, pid, epoch + 1)
    assert (v2.metadata.state, v2.metadata.partitions, v2.metadata.txn_start_timestamp) == \
        (S.PREPARE_ABORT, set(), v2.time.milliseconds())
    v2.land_markers()
    assert v2.markers.calls[-1].partitions == frozenset()
    assert v2.end_v2(pid, epoch + 1, commit=False) == (ErrorCode.NONE, pid, epoch + 2)  # from CompleteAbort
    v2.land_markers()
    assert v2.metadata.state == S.COMPLETE_ABORT


def test_an_exhausted_epoch_rotates_the_producer_id_at_the_end(v2: V2) -> None:
    """Kafka's nextProducerId: the end that would exhaust the epoch prepares at epoch
    Short.MAX_VALUE with a new id drawn, and completes with that id at epoch 0, which is the
    answer. A retry naming the old id at MAX-1 (retryOnOverflow) gets the new id again."""
    _, pid, _ = v2.init()
    v2.metadata.producer_epoch = MAX_PRODUCER_EPOCH - 1
    last = MAX_PRODUCER_EPOCH - 1
    v2.add_v2(pid, last, TP)
    assert v2.end_v2(pid, last, commit=True, new_pid=NEW_PID) == (ErrorCode.NONE, NEW_PID, 0)
    assert (v2.metadata.producer_id, v2.metadata.producer_epoch, v2.metadata.next_producer_id) == \
        (pid, MAX_PRODUCER_EPOCH, NEW_PID)
    assert v2.markers.calls[-1].producer_epoch == MAX_PRODUCER_EPOCH
    v2.land_markers()
    m = v2.metadata
    assert (m.state, m.producer_id, m.producer_epoch, m.last_producer_id, m.last_producer_epoch,
            m.next_producer_id) == (S.COMPLETE_COMMIT, NEW_PID, 0, pid, last, NO_PRODUCER_ID)
    assert v2.end_v2(pid, last, commit=True) == (ErrorCode.NONE, NEW_PID, 0)
    assert v2.end_v2(pid, last, commit=False) == (ErrorCode.INVALID_TXN_STATE, -1, -1)
    assert v2.add_v2(NEW_PID, 0, TP) == ErrorCode.NONE
    assert v2.end_v2(NEW_PID, 0, commit=True) == (ErrorCode.NONE, NEW_PID, 1)


def test_an_exhausted_epoch_without_a_new_id_is_retriable(v2: V2) -> None:
    _, pid, _ = v2.init()
    v2.metadata.producer_epoch = MAX_PRODUCER_EPOCH - 1
    v2.add_v2(pid, MAX_PRODUCER_EPOCH - 1, TP)
    assert v2.end_v2(pid, MAX_PRODUCER_EPOCH - 1, commit=True) == (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, -1, -1)
    assert v2.metadata.state == S.ONGOING and not v2.metadata.pending_transition_in_progress


def test_a_timed_out_v2_transaction_is_fenced_then_aborted_with_a_second_bump(v2: V2) -> None:
    """As Kafka's abortTimedOutTransactions with the transaction's client version: the fence
    bumps the epoch, the v2 abort bumps it again."""
    _, pid, epoch = v2.init(timeout_ms=15_000)
    v2.add_v2(pid, epoch, TP)
    v2.time.sleep(2 * ABORT_INTERVAL_MS)
    [abort] = v2.markers.calls
    assert (abort.commit, abort.producer_epoch) == (False, epoch + 2)
    v2.land_markers()
    assert (v2.metadata.state, v2.metadata.producer_epoch) == (S.COMPLETE_ABORT, epoch + 2)
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.PRODUCER_FENCED, -1, -1)
    assert v2.end_v2(pid, epoch, commit=False) == (ErrorCode.PRODUCER_FENCED, -1, -1)


def test_a_new_instance_fences_a_v2_transaction(v2: V2) -> None:
    _, pid, epoch = v2.init()
    v2.add_v2(pid, epoch, TP)
    assert v2.init()[0] == ErrorCode.CONCURRENT_TRANSACTIONS
    assert v2.markers.calls[-1].producer_epoch == epoch + 2
    v2.land_markers()
    assert v2.init() == (ErrorCode.NONE, pid, epoch + 3)
    assert v2.end_v2(pid, epoch, commit=True) == (ErrorCode.PRODUCER_FENCED, -1, -1)


def test_the_v2_fields_are_written_as_value_v1_and_read_back(v2: V2) -> None:
    """With transaction.version 2 finalized the records are TransactionLogValue v1 (Kafka's
    transactionLogValueVersion), with the next producer id and client version as tagged
    fields; the v1 path's values stay v0 (tests/test_transaction_coordinator.py)."""
    _, pid, _ = v2.init()
    v2.metadata.producer_epoch = MAX_PRODUCER_EPOCH - 1
    v2.add_v2(pid, MAX_PRODUCER_EPOCH - 1, TP)
    v2.end_v2(pid, MAX_PRODUCER_EPOCH - 1, commit=True, new_pid=NEW_PID)
    v2.land_markers()
    values = v2.values()
    assert {version for version, _ in values} == {1}
    prepare, complete = read_value(values[-2][1]), read_value(values[-1][1])
    assert (prepare.state, prepare.producer_id, prepare.producer_epoch, prepare.next_producer_id,
            prepare.client_transaction_version) == (S.PREPARE_COMMIT, pid, MAX_PRODUCER_EPOCH, NEW_PID, TV_2)
    assert (complete.state, complete.producer_id, complete.producer_epoch, complete.previous_producer_id,
            complete.next_producer_id) == (S.COMPLETE_COMMIT, NEW_PID, 0, pid, NO_PRODUCER_ID)
    # Reloading the partition restores the v2 state.
    metadata = complete.to_metadata(TID)
    assert (metadata.producer_id, metadata.last_producer_id, metadata.client_transaction_version) == \
        (NEW_PID, pid, TV_2)


KAFKA4_LIB = Path(__file__).resolve().parents[1] / "compat" / ".envs" / "kafka4" / "lib"


def test_value_v1_round_trips_through_kafka_4_4s_own_classes(tmp_path: Path) -> None:
    """josefk's TransactionLogValue v1 (and v0) as Kafka 4.4.0's loader reads it and its
    serializer writes it again, byte for byte; and a record Kafka writes at
    transaction.version 2 (a PrepareCommit rotating its producer id) as josefk reads it."""
    require_tools("java", "javac")
    require_files(KAFKA4_LIB, ["kafka-transaction-coordinator-4.4.0.jar", "kafka-clients-4.4.0.jar"],
                  "make kafka4-jars")
    classpath = f"{tmp_path}{os.pathsep}{KAFKA4_LIB}/*"
    source = Path(__file__).resolve().parents[1] / "compat" / "java" / "TransactionLogRecords.java"
    subprocess.run(["javac", "-nowarn", "-d", str(tmp_path), "-cp", classpath, str(source)], check=True, timeout=120)
    transits = [
        (0, TxnTransit(1000, NO_PRODUCER_ID, 3, -1, 60_000, S.ONGOING, frozenset({TP, TP2}), 100, 200)),
        (1, TxnTransit(1000, NO_PRODUCER_ID, 0, -1, 60_000, S.EMPTY, frozenset(), -1, 200)),
        (1, TxnTransit(1000, NO_PRODUCER_ID, 4, 3, 60_000, S.ONGOING, frozenset({TP}), 100, 200,
                       client_transaction_version=TV_2)),
        (1, TxnTransit(1000, NO_PRODUCER_ID, MAX_PRODUCER_EPOCH, MAX_PRODUCER_EPOCH - 1, 60_000, S.PREPARE_COMMIT,
                       frozenset({TP}), 100, 300, NEW_PID, TV_2)),
        (1, TxnTransit(NEW_PID, 1000, 0, MAX_PRODUCER_EPOCH - 1, 60_000, S.COMPLETE_COMMIT, frozenset(), 100, 400,
                       NO_PRODUCER_ID, TV_2)),
    ]
    lines = [f"{transaction_key(TID).hex()} {transaction_value(t, version).hex()}" for version, t in transits]
    done = subprocess.run(["java", "-cp", classpath, "TransactionLogRecords"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    reads, rewritten = out[0:-1:2], out[1:-1:2]
    assert [r.removeprefix("BYTES ") for r in rewritten] == [line.split()[1] for line in lines]
    assert reads == [
        f"READ {TID} 0 1000 -1 -1 3 ONGOING 0 100 200 orders-0,orders-1",
        f"READ {TID} 1 1000 -1 -1 0 EMPTY 0 -1 200 ",
        f"READ {TID} 1 1000 -1 -1 4 ONGOING 2 100 200 orders-0",
        f"READ {TID} 1 1000 -1 {NEW_PID} {MAX_PRODUCER_EPOCH} PREPARE_COMMIT 2 100 300 orders-0",
        f"READ {TID} 1 {NEW_PID} 1000 -1 0 COMPLETE_COMMIT 2 100 400 ",
    ]
    _, key_hex, value_hex = out[-1].split()
    kafkas = read_value(bytes.fromhex(value_hex))
    assert read_key(bytes.fromhex(key_hex)) == "kafka-txn"
    assert (kafkas.state, kafkas.producer_id, kafkas.previous_producer_id, kafkas.next_producer_id,
            kafkas.producer_epoch, kafkas.client_transaction_version, kafkas.partitions,
            kafkas.txn_start_timestamp, kafkas.txn_last_update_timestamp) == \
        (S.PREPARE_COMMIT, 7000, 6000, 7001, MAX_PRODUCER_EPOCH, TV_2, frozenset({TP}), 1000, 2000)
