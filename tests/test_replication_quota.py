"""Replication quotas (Kafka's ReplicationQuotaManager) on MockTime: the SimpleRate over
replication.quota.window.* and the bound, the throttled replica lists as Kafka parses them,
and both fetch paths that apply them: the leader answers a throttled follower out of the ISR
with no records (not an error) while its quota is exceeded, and the follower leaves its
throttled partitions that lag out of its fetches while its own quota is."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.replica_fetcher import ReplicaFetcher
from josefk.replication.replica_manager import FetchPartition, FetchResult, ReplicaManager, ReplicationSettings
from josefk.replication.replication_quota import (
    UNBOUNDED,
    ReplicationQuotaManager,
    ReplicationQuotas,
    parse_throttled_replicas,
)
from josefk.server.config import KafkaConfig
from josefk.utils.mock_time import MockTime
from josefk.utils.rate import MetricConfig
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import BrokerInfo, PartitionState, partition_state_path

pytestmark = pytest.mark.unit


def _manager(bound: float = UNBOUNDED) -> tuple[ReplicationQuotaManager, MockTime]:
    time = MockTime()
    manager = ReplicationQuotaManager("LeaderReplication", MetricConfig(samples=11, window_ms=1000), time)
    manager.update_quota(bound)
    return manager, time


def test_unbounded_quota_is_never_exceeded() -> None:
    manager, time = _manager()
    manager.record(10**12)
    assert not manager.is_quota_exceeded()


def test_rate_is_measured_over_the_elapsed_time_at_least_one_window() -> None:
    """SimpleRate, not Rate: a first burst counts over one window, not samples - 1 of them."""
    manager, time = _manager(bound=1000)
    manager.record(1000)
    assert manager.byte_rate() == pytest.approx(1000.0)
    assert not manager.is_quota_exceeded()  # at the bound is acceptable
    manager.record(1)
    assert manager.is_quota_exceeded()
    time.sleep(500)
    assert manager.byte_rate() == pytest.approx(1001.0)  # still one window
    assert manager.is_quota_exceeded()
    time.sleep(510)  # 1001 bytes over 1.01 s
    assert manager.byte_rate() == pytest.approx(1001 / 1.01)
    assert not manager.is_quota_exceeded()


def test_steady_recording_at_the_quota_is_held_to_it() -> None:
    """A fetcher that takes 300 bytes whenever the quota allows, polling every 10 ms, gets
    the bound over 20 s (the ReplicationQuotasTest expectation, on a fake clock)."""
    manager, time = _manager(bound=1000)
    taken = 0
    for _ in range(2000):
        if not manager.is_quota_exceeded():
            manager.record(300)
            taken += 300
        time.sleep(10)
    assert 19_000 <= taken <= 20_000 + 300, taken


def test_old_samples_leave_the_rate() -> None:
    manager, time = _manager(bound=1000)
    manager.record(50_000)
    assert manager.is_quota_exceeded()
    time.sleep(11_000)  # all 11 samples obsolete
    assert manager.byte_rate() == 0
    assert not manager.is_quota_exceeded()


def test_a_sensor_unused_for_an_hour_forgets_what_it_recorded() -> None:
    """Kafka's Sensor.hasExpired (INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS 3600): with
    replication.quota.window.num 100 of 60 s the samples would still count after an hour,
    but the sensor, unused that long, is dropped and made anew."""
    time = MockTime()
    manager = ReplicationQuotaManager("FollowerReplication", MetricConfig(samples=100, window_ms=60_000), time)
    manager.update_quota(1000)
    manager.record(10_000_000)
    time.sleep(3_600_000)  # an hour to the millisecond: not expired yet
    assert manager.byte_rate() == pytest.approx(10_000_000 / 3600)
    assert manager.is_quota_exceeded()
    time.sleep(1)
    assert manager.byte_rate() == 0
    assert not manager.is_quota_exceeded()
    manager.record(3000)  # the new sensor measures from here
    time.sleep(3_000_000)  # 50 minutes later it is still there
    assert manager.byte_rate() == pytest.approx(3000 / 3000)


def test_raising_the_bound_ends_the_throttle_at_once() -> None:
    manager, _ = _manager(bound=1000)
    manager.record(5000)
    assert manager.is_quota_exceeded()
    manager.update_quota(UNBOUNDED)
    assert not manager.is_quota_exceeded()


def test_throttled_replicas_are_this_brokers_entries_or_all() -> None:
    assert parse_throttled_replicas("*", 1) is None
    assert parse_throttled_replicas("0:1,0:2, 1:1 ,2:3", 1) == {0, 1}
    assert parse_throttled_replicas("0:2", 1) == frozenset()
    manager, _ = _manager()
    manager.update_throttled("t", "0:1,3:1,1:2", 1)
    assert [manager.is_throttled(("t", p)) for p in range(4)] == [True, False, False, True]
    assert not manager.is_throttled(("other", 0))
    manager.update_throttled("all", "*", 1)
    assert manager.is_throttled(("all", 7))
    manager.update_throttled("t", "", 1)  # the config deleted
    assert not manager.is_throttled(("t", 0))


def test_a_topic_config_sets_each_direction() -> None:
    quotas = ReplicationQuotas()
    config = LogConfig.from_props({"leader.replication.throttled.replicas": "0:1,1:2",
                                   "follower.replication.throttled.replicas": "1:1"})
    quotas.update_topic("t", config, 1)
    assert quotas.leader.is_throttled(("t", 0)) and not quotas.leader.is_throttled(("t", 1))
    assert quotas.follower.is_throttled(("t", 1)) and not quotas.follower.is_throttled(("t", 0))
    quotas.update_topic("t", LogConfig(), 1)
    assert not quotas.leader.is_throttled(("t", 0)) and not quotas.follower.is_throttled(("t", 1))


@pytest.mark.parametrize("value", ["0-1", "a:1", "*,0:1", "0:1:2"])
def test_a_malformed_throttled_replica_list_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="must be the literal '\\*' or a list of replicas"):
        LogConfig.from_props({"leader.replication.throttled.replicas": value})


# -- the leader's fetch path ------------------------------------------------------------

TOPIC, FREE = "t", "free"
RATE = 1000


class Leader:
    """A real ReplicaManager leading t-0 and free-0 (replicas 1, 2, 3; ISR 1, 2) on MockTime."""

    def __init__(self, tmp_path: Path) -> None:
        self.time = MockTime()
        self.store = EmbeddedStore(tmp_path / "store.json")
        self.log_manager = LogManager([tmp_path / "logs"], LogConfig())
        self.log_manager.startup()
        self.executor = ThreadPoolExecutor(1)
        self.quotas = ReplicationQuotas.create(MetricConfig(), MetricConfig(), self.time)
        self.quotas.update_rates(RATE, UNBOUNDED, UNBOUNDED)
        self.quotas.leader.update_throttled(TOPIC, "*", 1)
        self.manager = ReplicaManager(1, self.log_manager, MetadataCache(1), lambda _t: LogConfig(), self.store,
                                      ReplicationSettings(), self.executor, self.time, quotas=self.quotas)
        states = []
        for topic in (TOPIC, FREE):
            state = PartitionState(topic, 0, 1, 1, [1, 2], [1, 2, 3], 1)
            self.store.create(partition_state_path(topic, 0), json.dumps(state.state_json()).encode())
            states.append(state)
        brokers = [BrokerInfo(b, "127.0.0.1", 1) for b in (1, 2, 3)]
        assert self.manager.leader_and_isr(0, 1, states, brokers).error == ErrorCode.NONE
        batch = build_batch([Record(i, 0, None, b"x" * 400) for i in range(5)])
        self.batch_size = len(batch)
        self.manager.append_records({(TOPIC, 0): batch, (FREE, 0): batch}, 1, 0, 30_000, lambda _r: None)
        for topic in (TOPIC, FREE):  # follower 2 has it all: the high watermark is 5, and 3 (at 0) lags
            self.manager.fetch_messages([FetchPartition(topic, 0, 5, 1 << 20)], 1 << 20, 1, 0, 2, lambda _r: None)
            assert self.manager.partitions[(topic, 0)].high_watermark == 5

    def fetch(self, replica: int, topic: str, max_wait_ms: int = 0) -> asyncio.Future[FetchResult]:
        answer: asyncio.Future[FetchResult] = asyncio.get_running_loop().create_future()
        self.manager.fetch_messages([FetchPartition(topic, 0, 0, 1 << 20)], 1 << 20, 1, max_wait_ms, replica,
                                    lambda results: answer.set_result(results[0]), quota=self.quotas.leader)
        return answer

    def close(self) -> None:
        self.manager.shutdown()
        self.executor.shutdown()
        self.log_manager.shutdown()


@pytest.fixture
def leader(tmp_path: Path) -> Iterator[Leader]:
    fixture = Leader(tmp_path)
    yield fixture
    fixture.close()


def test_leader_leaves_out_a_throttled_partition_of_a_follower_out_of_the_isr(leader: Leader) -> None:
    async def run() -> None:
        first = await leader.fetch(3, TOPIC)
        assert first.read is not None and first.read.size == leader.batch_size  # quota not exceeded yet
        leader.quotas.leader.record(first.read.size)  # what KafkaApis records from the response
        assert leader.quotas.leader.is_quota_exceeded()
        held = await leader.fetch(3, TOPIC)
        assert held.error == ErrorCode.NONE and held.read is not None
        assert (held.read.size, held.read.high_watermark) == (0, 5)  # no records, the offsets as usual
        assert leader.manager.partitions[(TOPIC, 0)].isr == [1, 2]
        in_sync = await leader.fetch(2, TOPIC)  # follower 2 is in the ISR: never held back
        assert in_sync.read is not None and in_sync.read.size == leader.batch_size
        free = await leader.fetch(3, FREE)  # free-0 is not in the throttled list
        assert free.read is not None and free.read.size == leader.batch_size
        consumer = await leader.fetch(-1, TOPIC)
        assert consumer.error == ErrorCode.NONE
        leader.time.sleep(3000)  # the rate falls under the bound
        again = await leader.fetch(3, TOPIC)
        assert again.read is not None and again.read.size == leader.batch_size

    asyncio.run(run())


def test_a_throttled_partition_counts_no_bytes_in_a_waiting_fetch(leader: Leader) -> None:
    """DelayedFetch: the throttled partition's available bytes do not complete a follower's
    fetch (min_bytes 1) while the quota is exceeded; it times out with no records."""
    async def run() -> None:
        leader.quotas.leader.record(10 * RATE)
        answer = leader.fetch(3, TOPIC, max_wait_ms=50)
        await asyncio.sleep(0)
        assert not answer.done()
        leader.manager.fetch_purgatory.check((TOPIC, 0))
        assert not answer.done()
        result = await asyncio.wait_for(answer, 10)
        assert result.error == ErrorCode.NONE and result.read is not None and result.read.size == 0

    asyncio.run(run())


# -- the follower's fetcher -------------------------------------------------------------

def test_follower_throttles_a_lagging_throttled_partition_while_its_quota_is_exceeded() -> None:
    async def run() -> None:
        time = MockTime()
        quota = ReplicationQuotaManager("FollowerReplication", MetricConfig(), time)
        quota.update_quota(RATE)
        quota.update_throttled(TOPIC, "0:1", 1)
        fetcher = ReplicaFetcher(1, BrokerInfo(2, "127.0.0.1", 1), 500, 1 << 20, lambda _p: None, quota=quota)
        try:
            key, free = (TOPIC, 0), (FREE, 0)
            assert not fetcher._should_throttle(key)  # under the quota
            quota.record(2 * RATE)
            assert fetcher._should_throttle(key)  # lag unknown yet: not in sync
            assert not fetcher._should_throttle(free)  # not in the throttled list
            fetcher.lag[key] = 5
            assert fetcher._should_throttle(key)
            fetcher.lag[key] = 0  # caught up with the leader's high watermark
            assert not fetcher._should_throttle(key)
            fetcher.lag[key] = 5
            time.sleep(3000)
            assert not fetcher._should_throttle(key)
        finally:
            fetcher.close()

    asyncio.run(run())


def test_follower_with_every_partition_throttled_backs_off_replica_fetch_backoff_ms(leader: Leader) -> None:
    """Kafka's maybeFetch: with every partition held back there is no fetch to send, so the
    fetcher waits fetchBackOffMs, which ReplicaFetcherThread takes from replica.fetch.backoff.ms."""
    assert KafkaConfig({})["replica.fetch.backoff.ms"] == 1000

    async def run() -> None:
        follower = leader.quotas.follower
        follower.update_quota(RATE)
        follower.update_throttled(TOPIC, "*", 1)
        follower.record(2 * RATE)
        leader.manager.settings.replica_fetch_backoff_ms = 700  # more than the 0.5 s josefk waited before
        fetcher = leader.manager._fetcher_for(BrokerInfo(2, "127.0.0.1", 1))
        fetcher.partitions[(TOPIC, 0)] = leader.manager.partitions[(TOPIC, 0)]  # lagging: its lag is unknown
        loop = asyncio.get_running_loop()
        started = loop.time()
        await fetcher._fetch_once()
        waited = loop.time() - started
        assert 0.69 <= waited < 10, waited
        assert fetcher.connection._writer is None  # no fetch was sent

    asyncio.run(run())
