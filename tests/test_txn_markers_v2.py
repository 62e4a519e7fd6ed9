"""A transactions v2 marker's epoch check at the leader (WriteTxnMarkers v2, KIP-1228, as
Kafka 4.4's ProducerAppendInfo.checkProducerEpoch): the coordinator bumped the epoch, so the
marker must carry one above the producer's; one equal is refused while its transaction is
open (a marker of the transaction's own epoch is a v1 coordinator's) and allowed once the
transaction is complete (a retried marker). v1 markers keep v1's check."""

from __future__ import annotations

from pathlib import Path

import pytest

from josefk.log.log import AppendOrigin, Log
from josefk.protocol.errors import ErrorCode, KafkaError
from tests.test_txn_log_unit import EPOCH, marker, open_log, txn_batch

pytestmark = pytest.mark.unit


def end_v2(log: Log, commit: bool, epoch: int, transaction_version: int = 2) -> int:
    return log.append_as_leader(marker(commit, epoch=epoch), 0, origin=AppendOrigin.COORDINATOR,
                                marker_transaction_version=transaction_version).first_offset


def test_a_v2_marker_needs_an_epoch_above_the_open_transactions(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    try:
        log.append_as_leader(txn_batch(epoch=EPOCH), 0)  # 0-1: the transaction, open at EPOCH
        with pytest.raises(KafkaError) as e:
            end_v2(log, True, EPOCH)
        assert e.value.code == ErrorCode.INVALID_PRODUCER_EPOCH
        assert end_v2(log, True, EPOCH + 1) == 2  # the bumped epoch ends it
        assert end_v2(log, True, EPOCH + 1) == 3  # a retried marker, its transaction complete: allowed
        with pytest.raises(KafkaError) as e:
            end_v2(log, False, EPOCH)
        assert e.value.code == ErrorCode.INVALID_PRODUCER_EPOCH
    finally:
        log.close()


def test_a_v1_marker_keeps_the_v1_check(tmp_path: Path) -> None:
    log = open_log(tmp_path / "t-0")
    try:
        log.append_as_leader(txn_batch(epoch=EPOCH), 0)
        assert end_v2(log, True, EPOCH, transaction_version=0) == 2  # same epoch: v1's >=
    finally:
        log.close()
