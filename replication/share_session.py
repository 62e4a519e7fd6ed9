"""Share sessions (KIP-932; Kafka's ShareSessionCache and ShareSession).

A share consumer keeps one session per (group, member) with each leader it fetches from:
ShareSessionEpoch 0 opens it with the partitions of the request, each later request names
the next epoch and adds partitions or forgets them, -1 closes it (its acknowledgements
are still applied, its acquired records released). A session also ends when the connection
that opened it closes: a consumer that died gives its records back at once, not when their
acquisition locks run out (Kafka 4.4's ConnectionDisconnectListener).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from josefk.protocol.errors import ErrorCode

INITIAL_EPOCH = 0
FINAL_EPOCH = -1
MAX_EPOCH = 2**31 - 1

SessionKey = tuple[str, str]  # (group id, member id)
IdPartition = tuple[uuid.UUID, int]


def next_epoch(epoch: int) -> int:
    return 1 if epoch >= MAX_EPOCH else epoch + 1


@dataclass
class ShareSession:
    group_id: str
    member_id: str
    epoch: int  # the epoch the next request must carry
    partitions: dict[IdPartition, None] = field(default_factory=dict)  # in the order they were added
    connection_id: str = ""  # of the connection the session was opened on


class ShareSessionCache:
    def __init__(self, max_sessions: int = 1000) -> None:
        self.max_sessions = max_sessions
        self.sessions: dict[SessionKey, ShareSession] = {}
        self.by_connection: dict[str, SessionKey] = {}  # connection id -> the session opened on it

    def begin(self, group_id: str, member_id: str, epoch: int,
              connection_id: str = "") -> tuple[ErrorCode, ShareSession | None, bool]:
        """The session a request with `epoch` (on `connection_id`) works on: (error, session,
        is_new). A closing request (-1) gets its session, already removed from the cache."""
        key = (group_id, member_id)
        if epoch == INITIAL_EPOCH:
            if key not in self.sessions and len(self.sessions) >= self.max_sessions:
                return ErrorCode.SHARE_SESSION_LIMIT_REACHED, None, False
            opened = self.sessions[key] = ShareSession(group_id, member_id, next_epoch(INITIAL_EPOCH),
                                                       connection_id=connection_id)
            if connection_id:
                self.by_connection[connection_id] = key
            return ErrorCode.NONE, opened, True
        session = self.sessions.get(key)
        if session is None:
            return ErrorCode.SHARE_SESSION_NOT_FOUND, None, False
        if epoch == FINAL_EPOCH:
            del self.sessions[key]
            return ErrorCode.NONE, session, False
        if epoch != session.epoch:
            return ErrorCode.INVALID_SHARE_SESSION_EPOCH, None, False
        session.epoch = next_epoch(session.epoch)
        return ErrorCode.NONE, session, False

    def remove(self, group_id: str, member_id: str) -> ShareSession | None:
        return self.sessions.pop((group_id, member_id), None)

    def disconnected(self, connection_id: str) -> SessionKey | None:
        """The key of the session the closed connection had opened, if it is still open (a
        session the member reopened on another connection is not this connection's)."""
        key = self.by_connection.pop(connection_id, None)
        session = self.sessions.get(key) if key is not None else None
        return key if session is not None and session.connection_id == connection_id else None
