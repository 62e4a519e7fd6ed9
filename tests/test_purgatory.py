"""The purgatory's bookkeeping (Kafka's PurgatorySize and NumDelayedOperations): an operation
that completes through one of its keys is no longer watched on the others, so a fetch
watching many partitions, answered by an append to one, leaves nothing behind on the idle
ones (the dashboard showed the Fetch purgatory growing by thousands a minute)."""

from __future__ import annotations

import pytest

from josefk.replication.purgatory import DelayedOperation, DelayedOperationPurgatory
from josefk.utils.mock_time import MockScheduler, MockTime

pytestmark = pytest.mark.unit


class _Waiting(DelayedOperation):
    def __init__(self) -> None:
        super().__init__(timeout_ms=500)
        self.ready = False
        self.answered = 0

    def try_complete(self) -> bool:
        return self.force_complete() if self.ready else False

    def on_complete(self) -> None:
        self.answered += 1


def test_an_operation_completed_through_one_key_leaves_every_key() -> None:
    time = MockTime()
    purgatory = DelayedOperationPurgatory("Fetch", MockScheduler(time))
    ops = [_Waiting() for _ in range(3)]
    for op in ops:
        purgatory.try_complete_else_watch(op, [("busy", 0), ("idle", 0), ("idle", 1)])
    assert (len(purgatory), purgatory.watched) == (3, 9)
    for op in ops[:2]:
        op.ready = True
    purgatory.check(("busy", 0))  # an append to one partition answers two of the fetches
    assert [op.answered for op in ops] == [1, 1, 0]
    assert (len(purgatory), purgatory.watched) == (1, 3)
    time.sleep(500)  # the third times out
    assert ops[2].answered == 1
    assert (len(purgatory), purgatory.watched) == (0, 0) and purgatory.watchers == {}
