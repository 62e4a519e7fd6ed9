"""Replication quotas (Kafka's ReplicationQuotaManager, KIP-73): a byte rate per direction
that bounds how fast replicas that are not in sync catch up, so a reassignment cannot starve
producers and consumers of disk and network.

The leader's quota counts the bytes it sends followers for throttled replicas; once over it,
a throttled partition of a follower that is not in the ISR is answered with no records. The
follower's quota counts the bytes it fetches for throttled replicas; once over it, it leaves
its throttled partitions that are not caught up out of its fetch requests. The rate is the
broker's dynamic `leader/follower.replication.throttled.rate`; which replicas are throttled
is each topic's `leader/follower.replication.throttled.replicas` (`*` for all, else
`partition:broker` entries, of which this broker keeps its own).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from josefk.log.config import LogConfig
from josefk.utils.rate import MetricConfig, SampledStat, SimpleRate
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
UNBOUNDED = float(2**63 - 1)  # Kafka's QuotaConfigs.QUOTA_BYTES_PER_SECOND_DEFAULT (Long.MaxValue)
DEFAULT_CONFIG = MetricConfig()  # replication.quota.window.num 11, replication.quota.window.size.seconds 1
# ReplicationQuotaManagerConfig.INACTIVE_SENSOR_EXPIRATION_TIME_SECONDS: a quota's sensor unused this long is dropped.
INACTIVE_SENSOR_EXPIRATION_MS = 3600 * 1000


class ReplicaQuota(Protocol):
    """Kafka's ReplicaQuota: what the fetch paths ask of a replication quota."""

    def record(self, value: int) -> None: ...

    def is_throttled(self, key: TopicPartition) -> bool: ...

    def is_quota_exceeded(self) -> bool: ...


class UnboundedQuota:
    """Kafka's UnboundedQuota: a consumer's fetch, never throttled as replication."""

    def record(self, value: int) -> None:
        pass

    def is_throttled(self, key: TopicPartition) -> bool:
        return False

    def is_quota_exceeded(self) -> bool:
        return False


UNBOUNDED_QUOTA = UnboundedQuota()


def parse_throttled_replicas(value: str, broker_id: int) -> frozenset[int] | None:
    """Kafka's TopicConfigHandler.parseThrottledPartitions: None for `*` (every partition),
    else the partitions whose `partition:broker` entries name this broker."""
    value = value.strip()
    if value == "*":
        return None
    partitions = set()
    for entry in value.split(","):
        partition, _, broker = entry.strip().partition(":")
        if broker.strip() == str(broker_id):
            partitions.add(int(partition))
    return frozenset(partitions)


class ReplicationQuotaManager:
    """Kafka's ReplicationQuotaManager for one direction (`replication_type` LeaderReplication
    or FollowerReplication, its metrics' type): a SimpleRate of the bytes recorded over
    replication.quota.window.num windows of replication.quota.window.size.seconds, compared
    with the bound, and the throttled partitions by topic."""

    def __init__(self, replication_type: str, config: MetricConfig = DEFAULT_CONFIG, time: Time = SYSTEM_TIME) -> None:
        self.replication_type = replication_type
        self.time = time
        self.bound = UNBOUNDED
        self.config = config
        self._rate = SimpleRate(SampledStat(config))
        self._last_record_ms = time.milliseconds()
        self._throttled: dict[str, frozenset[int] | None] = {}  # topic -> partitions, None for all

    def update_quota(self, bound: float) -> None:
        self.bound = bound

    def _sensor(self, now_ms: int) -> SimpleRate:
        """Kafka's sensor(): its Metrics drops a sensor with no record for an hour and the
        next use makes a new one, so a long quiet spell forgets what was recorded before it
        even where the windows span longer than that."""
        if now_ms - self._last_record_ms > INACTIVE_SENSOR_EXPIRATION_MS:
            self._rate = SimpleRate(SampledStat(self.config))
            self._last_record_ms = now_ms
        return self._rate

    def byte_rate(self) -> float:
        """The measured rate (Kafka's byte-rate metric), bytes per second."""
        now = self.time.milliseconds()
        return self._sensor(now).measure(now)

    def is_quota_exceeded(self) -> bool:
        """Sensor.checkQuotas: the rate is over the bound (a rate at the bound is acceptable)."""
        return self.byte_rate() > self.bound

    def is_throttled(self, key: TopicPartition) -> bool:
        topic, partition = key
        if topic not in self._throttled:
            return False
        partitions = self._throttled[topic]
        return partitions is None or partition in partitions

    def record(self, value: int) -> None:
        """Counted whether or not the quota is exceeded (QuotaEnforcementType.NONE)."""
        now = self.time.milliseconds()
        self._sensor(now).record(value, now)
        self._last_record_ms = now

    def mark_throttled(self, topic: str, partitions: frozenset[int] | None = None) -> None:
        """Throttle these partitions of the topic (None: all), replacing what was throttled."""
        self._throttled[topic] = partitions

    def remove_throttle(self, topic: str) -> None:
        self._throttled.pop(topic, None)

    def update_throttled(self, topic: str, value: str, broker_id: int) -> None:
        """TopicConfigHandler.updateThrottledList: a topic's throttled replicas config set or cleared
        (logged when it changes what is throttled)."""
        throttled = self._throttled.get(topic, ())
        if value.strip():
            self.mark_throttled(topic, parse_throttled_replicas(value, broker_id))
        else:
            self.remove_throttle(topic)
        if self._throttled.get(topic, ()) != throttled:
            partitions = self._throttled.get(topic, ())
            log.info("%s: throttled partitions of topic %s on broker %d: %s", self.replication_type, topic, broker_id,
                     "all" if partitions is None else sorted(partitions))


LEADER_REPLICATION = "LeaderReplication"
FOLLOWER_REPLICATION = "FollowerReplication"
ALTER_LOG_DIRS_REPLICATION = "AlterLogDirsReplication"


@dataclass
class ReplicationQuotas:
    """The broker's replication quota managers (Kafka's QuotaManagers.leader, .follower and
    .alterLogDirs, which moves between this broker's own log dirs; it throttles every
    partition, so it keeps no list)."""

    leader: ReplicationQuotaManager = field(default_factory=lambda: ReplicationQuotaManager(LEADER_REPLICATION))
    follower: ReplicationQuotaManager = field(default_factory=lambda: ReplicationQuotaManager(FOLLOWER_REPLICATION))
    alter_log_dirs: ReplicationQuotaManager = field(
        default_factory=lambda: ReplicationQuotaManager(ALTER_LOG_DIRS_REPLICATION))

    @classmethod
    def create(cls, config: MetricConfig, alter_log_dirs_config: MetricConfig, time: Time) -> ReplicationQuotas:
        """`config` from replication.quota.window.*, `alter_log_dirs_config` from
        alter.log.dirs.replication.quota.window.*."""
        return cls(ReplicationQuotaManager(LEADER_REPLICATION, config, time),
                   ReplicationQuotaManager(FOLLOWER_REPLICATION, config, time),
                   ReplicationQuotaManager(ALTER_LOG_DIRS_REPLICATION, alter_log_dirs_config, time))

    def update_rates(self, leader: float, follower: float, alter_log_dirs: float) -> None:
        """BrokerConfigHandler: this broker's throttled rates (unset is unbounded)."""
        self.leader.update_quota(leader)
        self.follower.update_quota(follower)
        self.alter_log_dirs.update_quota(alter_log_dirs)

    def update_topic(self, topic: str, config: LogConfig, broker_id: int) -> None:
        """TopicConfigHandler: a topic's throttled replicas lists, this broker's entries."""
        self.leader.update_throttled(topic, config.leader_replication_throttled_replicas, broker_id)
        self.follower.update_throttled(topic, config.follower_replication_throttled_replicas, broker_id)


def should_leader_throttle(quota: ReplicaQuota, key: TopicPartition, isr: list[int], replica_id: int) -> bool:
    """ReplicaManager.shouldLeaderThrottle: a follower in the ISR is never held back, so a
    throttle cannot push it out (ISR thrashing)."""
    return replica_id not in isr and quota.is_throttled(key) and quota.is_quota_exceeded()
