"""Kafka's ClientQuotaManager and ClientRequestQuotaManager (kafka.server), with the
DefaultQuotaCallback's entity precedence.

Quotas are set on entities, /config/users/<user>/clients/<client-id> down to
/config/clients/<default>; a connection gets the most specific one that matches its
(user, client-id). Every connection that resolves to the same entity shares one sensor
(Kafka's metric tags): a user quota is the sum over all that user's client-ids. A value
recorded past the bound answers with the time the client must wait; the channel is then
muted for that time by the caller's callbacks, on the scheduler.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from urllib.parse import quote, unquote_plus

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.rate import (
    MetricConfig,
    Rate,
    SampledStat,
    TokenBucket,
    bounded_throttle_time_ms,
    throttle_time_ms,
    token_bucket_throttle_time_ms,
)
from josefk.utils.scheduler import LOOP_SCHEDULER, Scheduler
from josefk.utils.time import SYSTEM_TIME, Time

log = logging.getLogger(__name__)

DEFAULT = "<default>"  # Kafka's ConfigEntityName.Default: the default user or client-id
INACTIVE_SENSOR_EXPIRATION_MS = 3600 * 1000  # ClientQuotaManager.InactiveSensorExpirationTimeSeconds
NANOS_TO_PERCENTAGE_PER_SECOND = 100.0 / 1e9
_UNLIMITED = float(2**63 - 1)  # Long.MaxValue: no quota
# The throttle-time sensor is an Avg with MetricConfig's defaults (2 samples of 30 s).
_THROTTLE_TIME_CONFIG = MetricConfig(samples=2, window_ms=30_000)
DEFAULT_CONFIG = MetricConfig()  # quota.window.num=11, quota.window.size.seconds=1


class QuotaType(Enum):
    FETCH = "Fetch"
    PRODUCE = "Produce"
    REQUEST = "Request"
    CONTROLLER_MUTATION = "ControllerMutation"


# QuotaTypes: which levels of quotas have ever been set, for the metric tags' shortcut.
_NO_QUOTAS, _CLIENT_ID, _USER, _USER_CLIENT_ID = 0, 1, 2, 4


@lru_cache(maxsize=4096)
def sanitize(name: str) -> str:
    """Kafka's Sanitizer.sanitize: URL-encoding as Java's URLEncoder with '*' and ' '
    written %2A and %20, so any user or client-id is a valid ZooKeeper node name."""
    return quote(name, safe="._-").replace("~", "%7E")


def desanitize(name: str) -> str:
    return unquote_plus(name)


# An entity key: (sanitized user, DEFAULT or None; sanitized client-id, DEFAULT or None).
EntityKey = tuple[str | None, str | None]


@dataclass
class ClientSensors:
    """One quota entity's sensors: the quota rate, the throttle-time average."""

    tags: tuple[str, str]  # (user, client-id) as Kafka's metric tags
    bound: float
    rate: Rate
    throttle_time: SampledStat = field(default_factory=lambda: SampledStat(_THROTTLE_TIME_CONFIG, average=True))
    last_record_ms: int = 0
    bucket: TokenBucket | None = None  # the controller mutation quota's tokens


class ClientQuotaManager:
    """Produce and Fetch byte-rate quotas (quota type given), and the base of the request quota."""

    metric_name = "byte-rate"

    def __init__(self, quota_type: QuotaType, config: MetricConfig = DEFAULT_CONFIG, time: Time = SYSTEM_TIME,
                 scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        self.quota_type = quota_type
        self.config = config
        self.time = time
        self.scheduler = scheduler
        self._overridden: dict[EntityKey, float] = {}
        self._enabled = _NO_QUOTAS
        self._sensors: dict[tuple[str, str], ClientSensors] = {}
        self._last_purge_ms = 0
        self.throttled_channels = 0  # Kafka's <type>-delayQueue queue-size

    @property
    def quotas_enabled(self) -> bool:
        """True once any quota of this type was set (until restart, as Kafka)."""
        return self._enabled != _NO_QUOTAS

    # -- recording --------------------------------------------------------------------

    def maybe_record_and_get_throttle_time_ms(self, user: str, client_id: str, value: float, now_ms: int) -> int:
        """Record `value` for the (principal name, client-id) and answer the throttle time (0: none)."""
        if not self.quotas_enabled:
            return 0
        return self.record_and_get_throttle_time_ms(user, client_id, value, now_ms)

    def record_and_get_throttle_time_ms(self, user: str, client_id: str, value: float, now_ms: int) -> int:
        sensors = self.sensors(user, client_id, now_ms)
        sensors.rate.record(value, now_ms)
        sensors.last_record_ms = now_ms
        measured = sensors.rate.measure(now_ms)
        if measured <= sensors.bound:
            return 0
        return self._throttle_time(measured, sensors.bound, sensors.rate.window_size_ms(now_ms))

    def _throttle_time(self, value: float, bound: float, window_ms: int) -> int:
        return throttle_time_ms(value, bound, window_ms)

    def record_no_throttle(self, user: str, client_id: str, value: float, now_ms: int) -> None:
        if self.quotas_enabled:
            self.sensors(user, client_id, now_ms).rate.record(value, now_ms)

    def unrecord_quota_sensor(self, user: str, client_id: str, value: float, now_ms: int) -> None:
        """A throttled fetch answers empty, so the bytes it would have sent are taken back."""
        self.sensors(user, client_id, now_ms).rate.record(-value, now_ms)

    def get_max_value_in_quota_window(self, user: str, client_id: str) -> float:
        """The most that can be recorded at once without certain throttling (bounds fetch.max.bytes)."""
        if not self.quotas_enabled:
            return float("inf")
        bound = self.sensors(user, client_id, self.time.milliseconds()).bound
        return bound * (self.config.samples - 1) * self.config.window_ms / 1000

    def throttle(self, user: str, client_id: str, throttle_ms: int, start_throttling: Callable[[], None],
                 end_throttling: Callable[[], None]) -> None:
        """Mute the channel (start_throttling now) and unmute it (end_throttling) after throttle_ms."""
        if throttle_ms <= 0:
            return
        now = self.time.milliseconds()
        self.sensors(user, client_id, now).throttle_time.record(throttle_ms, now)
        self.throttled_channels += 1
        start_throttling()

        def done() -> None:
            self.throttled_channels -= 1
            end_throttling()

        self.scheduler.schedule(throttle_ms, done)

    # -- entities and quotas ------------------------------------------------------------

    def sensors(self, user: str, client_id: str, now_ms: int) -> ClientSensors:
        tags = self._metric_tags(sanitize(user), client_id)
        sensors = self._sensors.get(tags)
        if sensors is None:
            self._purge_inactive(now_ms)
            sensors = self._new_sensors(tags, now_ms)
            self._sensors[tags] = sensors
        return sensors

    def _new_sensors(self, tags: tuple[str, str], now_ms: int) -> ClientSensors:
        return ClientSensors(tags, self._quota_limit(tags), Rate(SampledStat(self.config)), last_record_ms=now_ms)

    def _purge_inactive(self, now_ms: int) -> None:
        if now_ms - self._last_purge_ms < 60_000:
            return
        self._last_purge_ms = now_ms
        for tags, s in list(self._sensors.items()):
            if now_ms - s.last_record_ms >= INACTIVE_SENSOR_EXPIRATION_MS:
                del self._sensors[tags]

    def _metric_tags(self, user: str, client_id: str) -> tuple[str, str]:
        """DefaultQuotaCallback.quotaMetricTags: the tags name the entity whose quota applies."""
        enabled = self._enabled
        if enabled in (_NO_QUOTAS, _CLIENT_ID):
            return "", client_id
        if enabled == _USER:
            return user, ""
        if enabled == _USER_CLIENT_ID:
            return user, client_id
        q = self._overridden
        sanitized_client = sanitize(client_id)
        if (user, sanitized_client) in q or (user, DEFAULT) in q:
            return user, client_id
        if (user, None) in q:
            return user, ""
        if (DEFAULT, sanitized_client) in q or (DEFAULT, DEFAULT) in q:
            return user, client_id
        if (DEFAULT, None) in q:
            return user, ""
        return "", client_id

    def _quota_limit(self, tags: tuple[str, str]) -> float:
        """DefaultQuotaCallback.quotaLimit: the most specific quota set for the tags' entity."""
        user, client_id = tags
        q = self._overridden
        client = sanitize(client_id)
        if user and client_id:
            order: list[EntityKey] = [(user, client), (user, DEFAULT), (DEFAULT, client), (DEFAULT, DEFAULT)]
        elif user:
            order = [(user, None), (DEFAULT, None)]
        elif client_id:
            order = [(None, client), (None, DEFAULT)]
        else:
            order = []
        for key in order:
            if key in q:
                return q[key]
        return _UNLIMITED

    def update_quota(self, sanitized_user: str | None, sanitized_client_id: str | None, quota: float | None) -> None:
        """Set (or with None remove) the quota of one entity, named as in ZooKeeper."""
        if sanitized_user is not None:
            self._enabled |= _USER_CLIENT_ID if sanitized_client_id is not None else _USER
        elif sanitized_client_id is not None:
            self._enabled |= _CLIENT_ID
        key = (sanitized_user, sanitized_client_id)
        if quota is None:
            self._overridden.pop(key, None)
        else:
            self._overridden[key] = quota
        for sensors in self._sensors.values():
            sensors.bound = self._quota_limit(sensors.tags)

    def quota(self, user: str, client_id: str) -> float:
        """The bound that applies to (principal name, client-id); for tests and tools."""
        return self._quota_limit(self._metric_tags(sanitize(user), client_id))

    def metrics(self, now_ms: int) -> Iterator[tuple[tuple[str, str], float, float]]:
        """(tags, measured rate, average throttle time) per entity seen: Kafka's byte-rate
        (request-time) and throttle-time metrics."""
        for tags, s in list(self._sensors.items()):
            yield tags, s.rate.measure(now_ms), s.throttle_time.measure(now_ms)


class ClientRequestQuotaManager(ClientQuotaManager):
    """request_percentage: the share of a request handler's time, in percent per second.
    A throttle is bounded by one quota window, as Kafka's."""

    metric_name = "request-time"

    def __init__(self, config: MetricConfig = DEFAULT_CONFIG, time: Time = SYSTEM_TIME,
                 scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        super().__init__(QuotaType.REQUEST, config, time, scheduler)
        self.max_throttle_time_ms = config.window_ms

    def maybe_record_and_get_throttle_time_ms_nanos(self, user: str, client_id: str, thread_time_ns: int,
                                                    now_ms: int) -> int:
        """Record a request's handler time (ns, as a percentage) and answer the throttle time."""
        return self.maybe_record_and_get_throttle_time_ms(user, client_id,
                                                          thread_time_ns * NANOS_TO_PERCENTAGE_PER_SECOND, now_ms)

    def _throttle_time(self, value: float, bound: float, window_ms: int) -> int:
        return bounded_throttle_time_ms(value, bound, window_ms, self.max_throttle_time_ms)


class ThrottlingQuotaExceeded(KafkaError):
    """Kafka's ThrottlingQuotaExceededException: a strict controller mutation quota refused
    the topic (THROTTLING_QUOTA_EXCEEDED in its result). No error message: the exception's is
    the error's own, which Kafka's ApiError.fromThrowable leaves out."""

    def __init__(self, throttle_ms: int) -> None:
        super().__init__(ErrorCode.THROTTLING_QUOTA_EXCEEDED)
        self.throttle_ms = throttle_ms


class ControllerMutationQuota:
    """Kafka's Strict- and PermissiveControllerMutationQuota: one request's topic mutations
    (partitions created or deleted), recorded in its entity's token bucket as each topic is
    about to be written (on the store executor: the bucket is locked).

    Strict (new request versions): while the bucket is below zero every topic is refused with
    THROTTLING_QUOTA_EXCEEDED; a topic that finds it at zero or above is taken whole, even if
    that takes the bucket far below. Permissive (older versions): every topic is taken; the
    request is only throttled afterwards."""

    def __init__(self, manager: ControllerMutationQuotaManager, sensors: ClientSensors | None, strict: bool) -> None:
        self._manager = manager
        self._sensors = sensors
        self._strict = strict
        self._last_throttle_ms = 0
        self._last_recorded_ms = 0

    def record(self, permits: float) -> None:
        sensors = self._sensors
        if sensors is None:  # no controller mutation quota is set anywhere: unbounded
            return
        bucket = sensors.bucket
        assert bucket is not None
        now = self._manager.time.milliseconds()
        with self._manager.lock:
            bound = sensors.bound
            if self._strict:
                tokens = bucket.measure(bound, now)
                if tokens < 0:
                    self._violated(tokens, bound, now)
                    raise ThrottlingQuotaExceeded(self._last_throttle_ms)
            sensors.rate.record(permits, now)
            bucket.record(permits, bound, now)
            sensors.last_record_ms = now
            if not self._strict:
                tokens = bucket.measure(bound, now)
                if tokens < 0:
                    self._violated(tokens, bound, now)

    def _violated(self, tokens: float, bound: float, now_ms: int) -> None:
        self._last_throttle_ms = token_bucket_throttle_time_ms(tokens, bound)
        self._last_recorded_ms = now_ms

    def throttle_time_ms(self) -> int:
        """The throttle time last found, less the time since (the request may have waited)."""
        elapsed = self._manager.time.milliseconds() - self._last_recorded_ms
        return max(0, self._last_throttle_ms - elapsed)


class ControllerMutationQuotaManager(ClientQuotaManager):
    """controller_mutation_rate (KIP-599): partitions created or deleted per second per
    user/client-id, measured with a token bucket over controller.quota.window.num windows of
    controller.quota.window.size.seconds."""

    metric_name = "mutation-rate"

    def __init__(self, config: MetricConfig = DEFAULT_CONFIG, time: Time = SYSTEM_TIME,
                 scheduler: Scheduler = LOOP_SCHEDULER) -> None:
        super().__init__(QuotaType.CONTROLLER_MUTATION, config, time, scheduler)
        self.lock = threading.Lock()

    def _new_sensors(self, tags: tuple[str, str], now_ms: int) -> ClientSensors:
        sensors = super()._new_sensors(tags, now_ms)
        sensors.bucket = TokenBucket(self.config)
        return sensors

    def metrics(self, now_ms: int) -> Iterator[tuple[tuple[str, str], float, float]]:
        with self.lock:  # the store executor records into these sensors
            return iter(list(super().metrics(now_ms)))

    def new_quota_for(self, user: str, client_id: str, strict: bool) -> ControllerMutationQuota:
        """newStrictQuotaFor / newPermissiveQuotaFor (on the loop, where sensors are made)."""
        if not self.quotas_enabled:
            return ControllerMutationQuota(self, None, strict)
        return ControllerMutationQuota(self, self.sensors(user, client_id, self.time.milliseconds()), strict)


@dataclass
class QuotaManagers:
    """Kafka's QuotaManagers: one manager per client quota type."""

    fetch: ClientQuotaManager
    produce: ClientQuotaManager
    request: ClientRequestQuotaManager
    controller_mutation: ControllerMutationQuotaManager

    @classmethod
    def create(cls, config: MetricConfig = DEFAULT_CONFIG, time: Time = SYSTEM_TIME,
               scheduler: Scheduler = LOOP_SCHEDULER,
               controller_config: MetricConfig = DEFAULT_CONFIG) -> QuotaManagers:
        return cls(ClientQuotaManager(QuotaType.FETCH, config, time, scheduler),
                   ClientQuotaManager(QuotaType.PRODUCE, config, time, scheduler),
                   ClientRequestQuotaManager(config, time, scheduler),
                   ControllerMutationQuotaManager(controller_config, time, scheduler))
