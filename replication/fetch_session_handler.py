"""The fetcher's side of a fetch session (KIP-227), as Kafka's client FetchSessionHandler: sans-IO.

A follower hands build() every partition it wants to fetch now, with what it would ask of
each. The first request is full (epoch 0) and asks the leader for a session; once the
leader answers with a session id, each request lists only the partitions added or whose
ask changed since the last one, and forgets the ones no longer wanted. Any error (the
leader lost the session, an epoch mismatch, a failed request) makes the next request full
again, as Kafka's handler does.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from josefk.protocol.errors import ErrorCode
from josefk.replication.fetch_session import INITIAL_EPOCH, INVALID_SESSION_ID, is_full, next_epoch


@dataclass(frozen=True)
class FetchPartitionData:
    """What a fetch asks of one partition; a change of any field is sent in the next request."""
    fetch_offset: int
    log_start_offset: int
    max_bytes: int
    current_leader_epoch: int
    last_fetched_epoch: int = -1


K = TypeVar("K", bound=Hashable)  # how the fetcher names a partition: (topic, partition), or by topic id


@dataclass(frozen=True)
class FetchRequestData(Generic[K]):
    """One request's session fields and partitions: to_send goes in topics, to_forget in
    forgotten_topics_data."""
    session_id: int
    epoch: int
    to_send: dict[K, FetchPartitionData]
    to_forget: list[K]

    @property
    def full(self) -> bool:
        return is_full(self.epoch)


class FetchSessionHandler(Generic[K]):
    def __init__(self) -> None:
        self.session_id = INVALID_SESSION_ID
        self.epoch = INITIAL_EPOCH
        self.session_partitions: dict[K, FetchPartitionData] = {}

    def build(self, wanted: Mapping[K, FetchPartitionData]) -> FetchRequestData[K]:
        """The next request for these partitions: all of them when the session is new, else
        what changed."""
        previous, self.session_partitions = self.session_partitions, dict(wanted)
        if is_full(self.epoch):
            return FetchRequestData(self.session_id, self.epoch, dict(wanted), [])
        to_send = {key: data for key, data in wanted.items() if previous.get(key) != data}
        to_forget = [key for key in previous if key not in wanted]
        return FetchRequestData(self.session_id, self.epoch, to_send, to_forget)

    def handle_response(self, error: int, session_id: int) -> None:
        """Advance the session from a response's top-level error and session id."""
        if error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND:
            self.session_id, self.epoch = INVALID_SESSION_ID, INITIAL_EPOCH
        elif error != ErrorCode.NONE:
            self.epoch = INITIAL_EPOCH  # close the session we named and open a new one
        elif session_id == INVALID_SESSION_ID:  # the leader made no session, or closed ours
            self.session_id, self.epoch = INVALID_SESSION_ID, INITIAL_EPOCH
        elif is_full(self.epoch):
            self.session_id, self.epoch = session_id, next_epoch(INITIAL_EPOCH)
        else:
            self.epoch = next_epoch(self.epoch)

    def handle_error(self) -> None:
        """The request failed (connection lost, timeout): the next one is full, and closes
        the session the leader may still hold for us."""
        self.epoch = INITIAL_EPOCH
