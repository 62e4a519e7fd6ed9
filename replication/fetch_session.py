"""Fetch sessions (KIP-227), as Kafka 3.9's kafka.server.FetchSession has them: sans-IO.

A fetcher that sends session epoch 0 (INITIAL_EPOCH) in a full fetch asks the broker to
remember its partitions; the broker answers with a session id, and from then on the fetcher
sends only what changed (partitions added or with new fetch offsets, and forgotten ones) with
the epoch it was told to use next, and the broker answers only the partitions worth telling
about: new records, a moved high watermark or log start offset, an error. Epoch -1
(FINAL_EPOCH) is a sessionless full fetch, and closes the session the request names.

FetchSessionCache keeps at most max.incremental.fetch.session.cache.slots sessions. When it
is full a new session may evict one: first any session unused for longer than the minimum
eviction age, otherwise the least valuable evictable one (a consumer's before a follower's,
a smaller before a bigger), if it is worth less than the new one. A session only becomes
evictable by another consumer once it is older than the minimum eviction age; a consumer's
session can always be evicted by a follower ("privileged") one.

Partitions are keyed by whatever the caller likes (topic name and partition before Fetch
v13, topic id and partition from v13), so this module knows nothing of the metadata.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from josefk.protocol.errors import ErrorCode
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

INVALID_SESSION_ID = 0
INITIAL_EPOCH = 0
FINAL_EPOCH = -1
INVALID_HIGH_WATERMARK = -1
MAX_INT32 = 2**31 - 1
# Kafka's KafkaServer.MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS, a constant there too
MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS = 120_000

Key = Hashable


def next_epoch(prev: int) -> int:
    """The epoch after prev: FINAL_EPOCH stays final, and the epoch wraps to 1, never 0."""
    if prev < 0:
        return FINAL_EPOCH
    if prev == MAX_INT32:
        return 1
    return prev + 1


def is_full(epoch: int) -> bool:
    return epoch in (INITIAL_EPOCH, FINAL_EPOCH)


@dataclass
class PartitionRequest:
    """What a fetch asks of one partition."""
    fetch_offset: int
    max_bytes: int
    log_start_offset: int = -1
    last_fetched_epoch: int = -1  # Fetch v12+: the epoch of the follower's last batch (KIP-320)
    current_leader_epoch: int = -1  # Fetch v9+: the leader epoch the fetcher knows (KIP-320)


@dataclass
class PartitionResponse:
    """What the context needs to know of one partition's answer."""
    error: int
    high_watermark: int
    log_start_offset: int
    records_size: int
    diverging: bool = False  # the follower's log diverged from ours: it must hear of it


@dataclass
class CachedPartition:
    """One partition of a session: the fetcher's last request, and what it was last told."""
    fetch_offset: int
    max_bytes: int
    fetcher_log_start_offset: int
    last_fetched_epoch: int = -1
    current_leader_epoch: int = -1
    high_watermark: int = INVALID_HIGH_WATERMARK
    local_log_start_offset: int = -1

    def update_request(self, req: PartitionRequest) -> None:
        self.fetch_offset = req.fetch_offset
        self.max_bytes = req.max_bytes
        self.fetcher_log_start_offset = req.log_start_offset
        self.last_fetched_epoch = req.last_fetched_epoch
        self.current_leader_epoch = req.current_leader_epoch

    def maybe_update_response(self, resp: PartitionResponse, update: bool) -> bool:
        """Whether this answer must be sent (Kafka's maybeUpdateResponseData); with update,
        remember what the fetcher is now told. An error resets the cached high watermark, so
        the partition is sent again once the error goes away."""
        must = resp.records_size > 0 or resp.diverging
        if self.high_watermark != resp.high_watermark:
            must = True
            if update:
                self.high_watermark = resp.high_watermark
        if self.local_log_start_offset != resp.log_start_offset:
            must = True
            if update:
                self.local_log_start_offset = resp.log_start_offset
        if resp.error != ErrorCode.NONE:
            must = True
            if update:
                self.high_watermark = INVALID_HIGH_WATERMARK
        return must


@dataclass(eq=False)
class FetchSession:
    id: int
    privileged: bool
    partitions: dict[Key, CachedPartition]  # in order: partitions that returned data move to the end
    uses_topic_ids: bool
    creation_ms: int
    last_used_ms: int
    epoch: int
    cached_size: int = -1  # the size when last touched, -1 before
    evictable_by_all: bool = False
    evictable_by_privileged: bool = False

    def evictable_key(self) -> tuple[bool, int, int]:
        """Kafka's EvictableKey: a consumer's session is worth less than a follower's, then a
        smaller less than a bigger, then by id."""
        return self.privileged, self.cached_size, self.id

    def update(self, fetch_data: Mapping[Key, PartitionRequest],
               to_forget: Iterable[Key]) -> tuple[list[Key], list[Key], list[Key]]:
        """Apply an incremental fetch: (added, updated, removed)."""
        added, updated, removed = [], [], []
        for key, req in fetch_data.items():
            cached = self.partitions.get(key)
            if cached is None:
                self.partitions[key] = CachedPartition(req.fetch_offset, req.max_bytes, req.log_start_offset,
                                                       req.last_fetched_epoch, req.current_leader_epoch)
                added.append(key)
            else:
                cached.update_request(req)
                updated.append(key)
        for key in to_forget:
            if self.partitions.pop(key, None) is not None:
                removed.append(key)
        return added, updated, removed


class FetchSessionCache:
    def __init__(self, max_entries: int = 1000, eviction_ms: int = MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS,
                 time: Time | None = None, rng: random.Random | None = None) -> None:
        self.max_entries = max_entries
        self.eviction_ms = eviction_ms
        self.time = time or SYSTEM_TIME
        self._rng = rng or random.Random()
        self.sessions: dict[int, FetchSession] = {}
        self.num_partitions = 0
        self.evictions = 0

    def __len__(self) -> int:
        return len(self.sessions)

    def get(self, session_id: int) -> FetchSession | None:
        return self.sessions.get(session_id)

    def _new_session_id(self) -> int:
        while True:
            session_id = self._rng.randint(1, MAX_INT32 - 1)
            if session_id not in self.sessions:
                return session_id

    def maybe_create_session(self, now: int, privileged: bool, partitions: dict[Key, CachedPartition],
                             uses_topic_ids: bool) -> int:
        """A new session's id, or INVALID_SESSION_ID when the cache is full and nothing can go."""
        if len(self.sessions) >= self.max_entries and not self._try_evict(privileged, (privileged, len(partitions), 0),
                                                                          now):
            log.debug("No fetch session created for privileged=%s, size=%d", privileged, len(partitions))
            return INVALID_SESSION_ID
        session = FetchSession(self._new_session_id(), privileged, partitions, uses_topic_ids, now, now,
                               next_epoch(INITIAL_EPOCH))
        self.sessions[session.id] = session
        self.touch(session, now)
        log.debug("Created fetch session %d of %d partitions (privileged=%s)", session.id, len(partitions),
                  privileged)
        return session.id

    def _try_evict(self, privileged: bool, key: tuple[bool, int, int], now: int) -> bool:
        if not self.sessions:
            return False
        stalest = min(self.sessions.values(), key=lambda s: (s.last_used_ms, s.id))
        if now - stalest.last_used_ms > self.eviction_ms:
            self.remove(stalest.id)
            self.evictions += 1
            return True
        candidates = [s for s in self.sessions.values()
                      if (s.evictable_by_privileged if privileged else s.evictable_by_all)]
        if not candidates:
            return False
        cheapest = min(candidates, key=FetchSession.evictable_key)
        if key < cheapest.evictable_key():
            return False
        self.remove(cheapest.id)
        self.evictions += 1
        return True

    def touch(self, session: FetchSession, now: int) -> None:
        """Mark a session used now, and decide anew who may evict it."""
        session.last_used_ms = now
        if session.cached_size != -1:
            self.num_partitions -= session.cached_size
        session.cached_size = len(session.partitions)
        old_enough = now - session.creation_ms > self.eviction_ms
        session.evictable_by_privileged = not session.privileged or old_enough
        session.evictable_by_all = old_enough
        self.num_partitions += session.cached_size

    def remove(self, session_id: int) -> FetchSession | None:
        session = self.sessions.pop(session_id, None)
        if session is not None and session.cached_size != -1:
            self.num_partitions -= session.cached_size
        return session


# -- contexts: one per Fetch request ---------------------------------------------------------


@dataclass
class FetchContext:
    """How one Fetch request is served: which partitions to read (partitions()), and after
    the read, the response's error, session id and which partitions it lists (respond())."""
    error: ErrorCode = ErrorCode.NONE

    def partitions(self) -> list[tuple[Key, PartitionRequest | CachedPartition]]:
        return []

    def respond(self, responses: Mapping[Key, PartitionResponse]) -> tuple[ErrorCode, int, list[Key]]:
        return self.error, INVALID_SESSION_ID, []

    def throttled(self) -> tuple[ErrorCode, int]:
        """getThrottledResponse: the error and session id of the empty answer a quota gives;
        nothing of the session changes."""
        return self.error, INVALID_SESSION_ID


@dataclass
class SessionErrorContext(FetchContext):
    """A request naming an unknown session or the wrong epoch: answered with the error alone."""


@dataclass
class SessionlessFetchContext(FetchContext):
    fetch_data: dict[Key, PartitionRequest] = field(default_factory=dict)

    def partitions(self) -> list[tuple[Key, PartitionRequest | CachedPartition]]:
        return list(self.fetch_data.items())

    def respond(self, responses: Mapping[Key, PartitionResponse]) -> tuple[ErrorCode, int, list[Key]]:
        return ErrorCode.NONE, INVALID_SESSION_ID, list(responses)


@dataclass
class FullFetchContext(FetchContext):
    """A full fetch with INITIAL_EPOCH: all partitions answered, and a session created if the
    cache has room (else the answer is sessionless)."""
    cache: FetchSessionCache | None = None
    fetch_data: dict[Key, PartitionRequest] = field(default_factory=dict)
    uses_topic_ids: bool = False
    privileged: bool = False

    def partitions(self) -> list[tuple[Key, PartitionRequest | CachedPartition]]:
        return list(self.fetch_data.items())

    def respond(self, responses: Mapping[Key, PartitionResponse]) -> tuple[ErrorCode, int, list[Key]]:
        assert self.cache is not None
        cached: dict[Key, CachedPartition] = {}
        for key, resp in responses.items():
            req = self.fetch_data[key]
            cached[key] = CachedPartition(req.fetch_offset, req.max_bytes, req.log_start_offset,
                                          req.last_fetched_epoch, req.current_leader_epoch, resp.high_watermark,
                                          resp.log_start_offset)
        session_id = self.cache.maybe_create_session(self.cache.time.milliseconds(), self.privileged, cached,
                                                     self.uses_topic_ids)
        return ErrorCode.NONE, session_id, list(responses)


@dataclass
class IncrementalFetchContext(FetchContext):
    """An incremental fetch of a session: reads every partition of the session, answers
    only those with something new."""
    session: FetchSession | None = None
    request_epoch: int = 0

    def partitions(self) -> list[tuple[Key, PartitionRequest | CachedPartition]]:
        """The session's partitions as they are cached: what the fetcher last asked, and what
        it was last told (the read skips a consumer's partitions with nothing new to tell)."""
        assert self.session is not None
        return list(self.session.partitions.items())

    def respond(self, responses: Mapping[Key, PartitionResponse]) -> tuple[ErrorCode, int, list[Key]]:
        session = self.session
        assert session is not None
        if session.epoch != next_epoch(self.request_epoch):
            # another request of this session came in while this one waited for data
            log.info("Fetch session %d: epoch moved to %d while fetching epoch %d", session.id, session.epoch,
                     self.request_epoch)
            return ErrorCode.INVALID_FETCH_SESSION_EPOCH, session.id, []
        listed = []
        for key, resp in responses.items():
            cached = session.partitions.get(key)
            if cached is None:  # forgotten by a later request meanwhile
                continue
            if cached.maybe_update_response(resp, True):
                listed.append(key)
                if resp.records_size > 0:  # round robin: a partition that returned data goes last
                    session.partitions[key] = session.partitions.pop(key)
        return ErrorCode.NONE, session.id, listed

    def throttled(self) -> tuple[ErrorCode, int]:
        session = self.session
        assert session is not None
        if session.epoch != next_epoch(self.request_epoch):
            return ErrorCode.INVALID_FETCH_SESSION_EPOCH, INVALID_SESSION_ID
        return ErrorCode.NONE, session.id


class FetchManager:
    """Kafka's FetchManager: turns a Fetch request's session fields into its FetchContext."""

    def __init__(self, cache: FetchSessionCache) -> None:
        self.cache = cache

    def new_context(self, version: int, session_id: int, epoch: int, is_follower: bool,
                    fetch_data: dict[Key, PartitionRequest], to_forget: list[Key]) -> FetchContext:
        uses_topic_ids = version >= 13
        if version < 7:  # before sessions: Kafka's FetchMetadata.LEGACY
            return SessionlessFetchContext(fetch_data=fetch_data)
        if is_full(epoch):
            if session_id != INVALID_SESSION_ID:  # a full fetch closes the session it names
                if self.cache.remove(session_id) is not None:
                    log.debug("Full fetch closed fetch session %d", session_id)
            if epoch == FINAL_EPOCH:
                return SessionlessFetchContext(fetch_data=fetch_data)
            return FullFetchContext(cache=self.cache, fetch_data=fetch_data, uses_topic_ids=uses_topic_ids,
                                    privileged=is_follower)
        session = self.cache.get(session_id)
        if session is None:
            log.info("Fetch session %d not found", session_id)
            return SessionErrorContext(error=ErrorCode.FETCH_SESSION_ID_NOT_FOUND)
        if session.epoch != epoch:
            log.debug("Fetch session %d: expected epoch %d, got %d", session_id, session.epoch, epoch)
            return SessionErrorContext(error=ErrorCode.INVALID_FETCH_SESSION_EPOCH)
        if session.uses_topic_ids != uses_topic_ids:
            return SessionErrorContext(error=ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR)
        session.update(fetch_data, to_forget)
        if not session.partitions:
            log.debug("Fetch session %d has no partitions left: closed", session_id)
            self.cache.remove(session_id)
            return SessionlessFetchContext(fetch_data=fetch_data)
        self.cache.touch(session, self.cache.time.milliseconds())
        session.epoch = next_epoch(session.epoch)
        return IncrementalFetchContext(session=session, request_epoch=epoch)
