"""Replica fetchers: a follower pulls its partitions from their leader with Fetch requests
(replica_id = its broker id), appends what it gets, and keeps the leader's high watermark.

Truncation, as Kafka's AbstractFetcherThread: from Fetch v12 (inter.broker.protocol.version
2.7) a follower with leader epochs in its log fetches at once, saying the epoch of its last
batch (last_fetched_epoch); a leader whose log differs there answers a diverging epoch
instead of records (KIP-595), and the follower truncates to it and goes on
fetching. Before v12, or with no epoch in its log, it first asks
OffsetForLeaderEpoch where its latest epoch ends on the leader.

One fetcher task per leader broker, as Kafka's ReplicaFetcherThread. Fetches go in a fetch
session (KIP-227) with the leader: the first carries every partition this broker follows
there, the next ones only the partitions whose fetch position changed.

Replication throttling (Kafka's shouldFollowerThrottle): while the follower's replication
quota is exceeded, throttled partitions that have not caught up with the leader's high
watermark are left out of the fetch request; the bytes fetched for throttled partitions
are recorded against the quota.

A partition the leader answers with an error (e.g. FENCED_LEADER_EPOCH until our
LeaderAndIsr comes) is left out of the fetches for replica.fetch.backoff.ms, as Kafka's
delayPartitions; the fetcher goes on fetching the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable

from josefk.clients.network_client import PLAINTEXT, BrokerConnection, ClientSecurity
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import LATEST_PROTOCOL, InterBrokerProtocol
from josefk.protocol.messages.codec import ZERO_UUID
from josefk.protocol.messages.generated.fetch_request import (
    FetchPartition,
    FetchRequest,
    FetchTopic,
    ForgottenTopic,
    ReplicaState,
)
from josefk.protocol.messages.generated.fetch_response import FetchResponse
from josefk.protocol.messages.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from josefk.protocol.messages.generated.list_offsets_response import ListOffsetsResponse
from josefk.protocol.messages.generated.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from josefk.protocol.messages.generated.offset_for_leader_epoch_response import OffsetForLeaderEpochResponse
from josefk.protocol.messages.generated.registry import ApiKey
from josefk.protocol.records import whole_batches_size
from josefk.replication.fetch_session import FINAL_EPOCH, INVALID_SESSION_ID
from josefk.replication.fetch_session_handler import FetchPartitionData, FetchSessionHandler
from josefk.replication.partition import Partition
from josefk.replication.replication_quota import UNBOUNDED_QUOTA, ReplicaQuota
from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.zk_data import BrokerInfo

log = logging.getLogger(__name__)

LIST_OFFSETS_VERSION = 5
TOPIC_IDS_FETCH_VERSION = 13  # Fetch names topics by id from here on
SESSIONS_FETCH_VERSION = 7  # fetch sessions (KIP-227) from here on
REPLICA_STATE_FETCH_VERSION = 15  # and carries the follower's id and broker epoch in ReplicaState (KIP-903)
TRUNCATION_ON_FETCH_VERSION = 12  # the follower says its last fetched epoch, the leader answers a diverging one
STOP_GRACE_S = 5.0  # stop() waits this long beyond max_wait_ms for the fetch in flight


class ReplicaFetcher:
    def __init__(self, broker_id: int, leader: BrokerInfo, max_wait_ms: int, max_bytes: int,
                 on_appended: Callable[[Partition], None], security: ClientSecurity = PLAINTEXT,
                 protocol: InterBrokerProtocol = LATEST_PROTOCOL, broker_epoch: Callable[[], int] = lambda: -1,
                 quota: ReplicaQuota = UNBOUNDED_QUOTA, backoff_ms: int = 1000,
                 time: Time = SYSTEM_TIME) -> None:
        """`protocol` (inter.broker.protocol.version) picks the Fetch and OffsetForLeaderEpoch
        versions, as a Kafka follower of that release sends them; `broker_epoch()` is this
        broker's registration epoch, which Fetch v15+ carries; `quota` the follower's
        replication quota; `backoff_ms` (replica.fetch.backoff.ms) how long it waits after a
        failed fetch or when it has nothing to fetch, and how long a partition answered with
        an error sits out (Kafka's fetchBackOffMs); `time` times those delays."""
        self.broker_id = broker_id
        self.fetch_version = protocol.fetch_version
        self.offset_for_leader_epoch_version = protocol.offset_for_leader_epoch_version
        self.broker_epoch = broker_epoch
        self.leader = leader
        self.max_wait_ms = max_wait_ms
        self.max_bytes = max_bytes
        self.on_appended = on_appended
        self.partitions: dict[tuple[str, int], Partition] = {}
        self.truncating: set[tuple[str, int]] = set()
        self.quota = quota
        self.backoff_ms = backoff_ms
        self.time = time
        # Kafka's PartitionFetchState.delay: when a partition that failed may be fetched again.
        self.delayed_until: dict[tuple[str, int], int] = {}
        # Kafka's PartitionFetchState.lag: the leader's high watermark less our log end,
        # known once a fetch returned records; 0 is in sync (never throttled).
        self.lag: dict[tuple[str, int], int] = {}
        self.connection = BrokerConnection(leader.host, leader.port, f"replica-fetcher-{broker_id}", security)
        self.session: FetchSessionHandler[tuple[str, int]] = FetchSessionHandler()
        self.session_version = self.fetch_version  # the Fetch version the session was opened at
        self.topic_ids: dict[str, uuid.UUID | None] = {}  # names topics at v13+, forgotten ones too
        self.wakeup = asyncio.Event()
        self.stopping = False
        self.fetch_in_flight: asyncio.Future | None = None
        self.task = asyncio.get_running_loop().create_task(self._run())

    @property
    def truncates_on_fetch(self) -> bool:
        """Kafka's isTruncationOnFetchSupported (inter.broker.protocol.version 2.7 and later)."""
        return self.fetch_version >= TRUNCATION_ON_FETCH_VERSION

    def add(self, partition: Partition) -> None:
        """Kafka's partitionFetchState: Fetching with the log's latest epoch, or Truncating
        first when truncation on fetch is not supported or the log has no epoch."""
        self.partitions[partition.key] = partition
        self.delayed_until.pop(partition.key, None)
        if not self.truncates_on_fetch or partition.log.leader_epoch_cache.latest_epoch is None:
            self.truncating.add(partition.key)
        self.wakeup.set()

    def remove(self, key: tuple[str, int]) -> None:
        self.partitions.pop(key, None)
        self.truncating.discard(key)
        self.lag.pop(key, None)
        self.delayed_until.pop(key, None)

    async def _run(self) -> None:
        while not self.stopping:
            if not self.partitions:
                self.wakeup.clear()
                await self.wakeup.wait()
                continue
            try:
                if self.truncating:
                    await self._truncate()
                await self._fetch_once()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - a fetcher must outlive any failure of its leader
                # A closed connection (EOFError), a timeout, a bad response or a local append
                # error: back off and fetch again; the connection reconnects on the next request.
                log.warning("Replica fetch from broker %d failed: %r", self.leader.broker_id, e)
                self.connection.close()
                self.session.handle_error()
                await asyncio.sleep(self.backoff_ms / 1000)

    def _should_throttle(self, key: tuple[str, int]) -> bool:
        """Kafka's shouldFollowerThrottle: a replica in sync is never held back (no ISR thrashing)."""
        return self.lag.get(key, -1) != 0 and self.quota.is_throttled(key) and self.quota.is_quota_exceeded()

    def _is_delayed(self, key: tuple[str, int]) -> bool:
        return self.delayed_until.get(key, 0) > self.time.hi_res_clock_ms()

    async def _fetch_once(self) -> None:
        ready = [(key, p) for key, p in list(self.partitions.items()) if key not in self.truncating]
        fetching = [(key, p) for key, p in ready if not self._is_delayed(key) and not self._should_throttle(key)]
        # Topic ids from v13, if the controller gave every one (a pre-2.8 controller does not).
        version = self.fetch_version
        if version >= TOPIC_IDS_FETCH_VERSION and any(p.topic_id is None for _key, p in fetching):
            version = TOPIC_IDS_FETCH_VERSION - 1
        if version != self.session_version:  # the leader keys a session by names or by ids: start anew
            self.session.handle_error()
            self.session_version = version
        for (topic, _index), p in fetching:
            self.topic_ids[topic] = p.topic_id
        wanted = {key: FetchPartitionData(p.log.log_end_offset, p.log.log_start_offset, self.max_bytes,
                                          p.leader_epoch, self._last_fetched_epoch(p)) for key, p in fetching}
        if not wanted:
            if ready:  # every partition is throttled or delayed: back off, unless one is added meanwhile
                self.wakeup.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wakeup.wait(), self.backoff_ms / 1000)
            else:
                await asyncio.sleep(0.1)  # every partition is waiting to truncate
            return
        if self.stopping:
            return
        if version >= SESSIONS_FETCH_VERSION:
            built = self.session.build(wanted)
            session_id, epoch, to_send, to_forget = built.session_id, built.epoch, built.to_send, built.to_forget
        else:
            session_id, epoch, to_send, to_forget = INVALID_SESSION_ID, FINAL_EPOCH, wanted, []
        topics: dict[str, list[FetchPartition]] = {}
        for (topic, index), ask in to_send.items():
            topics.setdefault(topic, []).append(FetchPartition(
                partition=index, current_leader_epoch=ask.current_leader_epoch, fetch_offset=ask.fetch_offset,
                last_fetched_epoch=ask.last_fetched_epoch, log_start_offset=ask.log_start_offset,
                partition_max_bytes=ask.max_bytes))
        forgotten: dict[str, list[int]] = {}
        for topic, index in to_forget:
            forgotten.setdefault(topic, []).append(index)
        replica_id = self.broker_id if version < REPLICA_STATE_FETCH_VERSION else -1
        request = FetchRequest(
            replica_id=replica_id, max_wait_ms=self.max_wait_ms, min_bytes=1, max_bytes=self.max_bytes,
            isolation_level=0, session_id=session_id, session_epoch=epoch,
            topics=[FetchTopic(topic=t, topic_id=self._topic_id(t), partitions=ps) for t, ps in topics.items()],
            forgotten_topics_data=[ForgottenTopic(topic=t, topic_id=self._topic_id(t), partitions=ps)
                                   for t, ps in forgotten.items()],
            rack_id="")
        if version >= REPLICA_STATE_FETCH_VERSION:
            request.replica_state = ReplicaState(replica_id=self.broker_id, replica_epoch=self.broker_epoch())
        names = {topic_id: t for t, topic_id in self.topic_ids.items() if topic_id is not None}
        self.fetch_in_flight = asyncio.ensure_future(self.connection.request(
            ApiKey.Fetch, version, request, timeout=self.max_wait_ms / 1000 + 30))
        try:
            response = await asyncio.shield(self.fetch_in_flight)
        finally:
            self.fetch_in_flight = None
        assert isinstance(response, FetchResponse)
        if version >= SESSIONS_FETCH_VERSION:
            self.session.handle_response(response.error_code, response.session_id)
        if response.error_code != ErrorCode.NONE:
            log.info("Fetch session with broker %d: %s; the next fetch is a full one", self.leader.broker_id,
                     ErrorCode(response.error_code).name)
            return
        for fetched in response.responses:
            name = names.get(fetched.topic_id) if version >= TOPIC_IDS_FETCH_VERSION else fetched.topic
            for data in fetched.partitions:
                partition = self.partitions.get((name, data.partition_index)) if name is not None else None
                if partition is None:
                    continue
                diverging = data.diverging_epoch if version >= TRUNCATION_ON_FETCH_VERSION else None
                if data.error_code == ErrorCode.NONE and diverging is not None and diverging.epoch >= 0:
                    # No records came: truncate where the leader says our log left its own,
                    # then fetch on from there with the epoch our log now ends in.
                    log.info("%s-%d: leader %d answers a diverging epoch %d ending at %d", name, data.partition_index,
                             self.leader.broker_id, diverging.epoch, diverging.end_offset)
                    if not partition.truncate_to_leader(diverging.epoch, diverging.end_offset):
                        # We never had the leader's epoch: as Kafka's fetcher, go on truncating
                        # with OffsetForLeaderEpoch before fetching this partition again.
                        self.truncating.add(partition.key)
                    partition.append_as_follower(b"", data.high_watermark)
                elif data.error_code == ErrorCode.NONE:
                    # A view into the response's own bytes, which nothing else holds or reuses:
                    # valid and unchanged until the log has copied it in.
                    records = data.records if data.records is not None else b""
                    whole = whole_batches_size(records)
                    if whole < len(records):  # a Kafka leader's read may end inside a batch
                        records = records[:whole]
                    partition.append_as_follower(records, data.high_watermark)
                    if records or partition.key not in self.lag:
                        self.lag[partition.key] = max(0, data.high_watermark - partition.log.log_end_offset)
                    if records and self.quota.is_throttled(partition.key):
                        self.quota.record(len(records))
                    if partition.log.flush_due:  # flush.messages: fsync in a worker thread
                        await asyncio.to_thread(partition.log.flush)
                    self.on_appended(partition)
                elif data.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                    await self._handle_out_of_range(partition)
                else:
                    log.debug("Fetch of %s-%d from %d: %s", name, data.partition_index,
                              self.leader.broker_id, ErrorCode(data.error_code).name)
                    self.delayed_until[partition.key] = self.time.hi_res_clock_ms() + self.backoff_ms

    def _topic_id(self, topic: str) -> uuid.UUID:
        """The topic's id as Fetch carries it (v13+; ignored below): the zero id if unknown."""
        return self.topic_ids.get(topic) or ZERO_UUID

    def _last_fetched_epoch(self, partition: Partition) -> int:
        """The epoch of the last batch in the log (Kafka's latestEpoch), from Fetch v12 on."""
        epoch = partition.log.leader_epoch_cache.latest_epoch
        return -1 if epoch is None or not self.truncates_on_fetch else epoch

    async def _truncate(self) -> None:
        """Before fetching from a new leader, drop any tail that diverged from its log:
        ask where our latest epoch ends on the leader (OffsetForLeaderEpoch)."""
        pending = {k: self.partitions[k] for k in list(self.truncating) if k in self.partitions}
        topics: dict[str, list[OffsetForLeaderPartition]] = {}
        for (topic, index), p in pending.items():
            epoch = p.log.leader_epoch_cache.latest_epoch
            if epoch is None:
                p.truncate_to_high_watermark()
                self.truncating.discard((topic, index))
                continue
            topics.setdefault(topic, []).append(OffsetForLeaderPartition(
                partition=index, current_leader_epoch=p.leader_epoch, leader_epoch=epoch))
        if not topics:
            return
        request = OffsetForLeaderEpochRequest(replica_id=self.broker_id, topics=[
            OffsetForLeaderTopic(topic=t, partitions=ps) for t, ps in topics.items()])
        response = await self.connection.request(ApiKey.OffsetForLeaderEpoch, self.offset_for_leader_epoch_version,
                                                 request)
        assert isinstance(response, OffsetForLeaderEpochResponse)
        for answer in response.topics:
            for result in answer.partitions:
                key = (answer.topic, result.partition)
                partition = pending.get(key)
                if partition is None or key not in self.truncating:
                    continue
                if result.error_code != ErrorCode.NONE:
                    continue  # the leader is not ready (e.g. NOT_LEADER): retry on the next round
                if partition.truncate_to_leader(result.leader_epoch, result.end_offset):
                    self.truncating.discard(key)  # else ask again with the epoch our log now ends in

    async def _handle_out_of_range(self, partition: Partition) -> None:
        """Our log end is beyond the leader's (truncate) or below its log start (restart there)."""
        offsets = {}
        for spec in (-1, -2):
            request = ListOffsetsRequest(replica_id=self.broker_id, isolation_level=0, topics=[ListOffsetsTopic(
                name=partition.topic, partitions=[ListOffsetsPartition(
                    partition_index=partition.partition, current_leader_epoch=-1, timestamp=spec)])])
            response = await self.connection.request(ApiKey.ListOffsets, LIST_OFFSETS_VERSION, request)
            assert isinstance(response, ListOffsetsResponse)
            offsets[spec] = response.topics[0].partitions[0].offset
        leader_end, leader_start = offsets[-1], offsets[-2]
        if partition.log.log_end_offset > leader_end >= 0:
            log.info("%s-%d: truncating to leader's log end offset %d", *partition.key, leader_end)
            partition.log.truncate_to(leader_end)
        elif partition.log.log_end_offset < leader_start:
            log.info("%s-%d: restarting at leader's log start offset %d", *partition.key, leader_start)
            partition.log.truncate_fully_and_start_at(leader_start)

    @property
    def alive(self) -> bool:
        return not self.task.done()

    async def stop(self) -> None:
        """Fetch no more, and return once the leader has answered the fetch in flight: a
        leader reads a fetch when it arrives, so one still on its way could count this broker
        in sync after the controller took it out of the ISR."""
        self.stopping = True
        in_flight = self.fetch_in_flight
        if in_flight is not None:
            await asyncio.wait([in_flight], timeout=self.max_wait_ms / 1000 + STOP_GRACE_S)
        self.close()

    def close(self) -> None:
        self.task.cancel()
        if self.fetch_in_flight is not None:
            self.fetch_in_flight.cancel()
        self.connection.close()
