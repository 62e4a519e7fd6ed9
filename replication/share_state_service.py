"""What a share coordinator does for share partitions (Kafka's InitializeShareGroupState,
ReadShareGroupState, WriteShareGroupState, DeleteShareGroupState and
ReadShareGroupStateSummary, one share partition each): the coordinator's store serves it
in-process, the persister reaches another broker's over the RPCs. Answers come through a
callback, for a change is answered only once it is in __share_group_state."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from josefk.protocol.errors import ErrorCode
from josefk.replication.share_partition import PersistedState, StateBatch

StateKey = tuple[str, uuid.UUID, int]  # (group id, topic id, partition)


@dataclass(frozen=True)
class StateResult:
    error: ErrorCode = ErrorCode.NONE
    message: str | None = None


@dataclass(frozen=True)
class ReadResult:
    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    state: PersistedState | None = None


@dataclass(frozen=True)
class SummaryResult:
    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    state_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = -1
    delivery_complete_count: int = -1


@dataclass(frozen=True)
class WriteState:
    """A WriteShareGroupState partition: -1 for a start offset or delivery-complete count not sent."""

    state_epoch: int
    leader_epoch: int
    start_offset: int
    batches: tuple[StateBatch, ...] = ()
    delivery_complete_count: int = -1


class ShareStateService(Protocol):
    def initialize(self, key: StateKey, state_epoch: int, start_offset: int,
                   done: Callable[[StateResult], None]) -> None: ...

    def read(self, key: StateKey, leader_epoch: int, done: Callable[[ReadResult], None]) -> None: ...

    def write(self, key: StateKey, write: WriteState, done: Callable[[StateResult], None]) -> None: ...

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None: ...

    def summary(self, key: StateKey) -> SummaryResult: ...
