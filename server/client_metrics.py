"""KIP-714 client-metrics subscriptions and client instances (Kafka's ClientMetricsConfigs,
ClientMetricsInstance and ClientMetricsManager), without the network.

A subscription is a client-metrics config resource (`josefk configs --entity-type
client-metrics`): `metrics` (name prefixes, "*" for all), `interval.ms` and `match`
(`selector=regex` items, each regex matching the whole of the client's value). A client
instance is what GetTelemetrySubscriptions learns of a client: it gets the union of the
metrics of every subscription it matches, at the shortest of their intervals, under a
subscription id that changes when that set does. Time is injected, in milliseconds.
"""

from __future__ import annotations

import base64
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

import crc32c

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.utils.java_format import hashed_map_order, java_string_hash
from josefk.utils.time import Time

METRICS = "metrics"
INTERVAL_MS = "interval.ms"
MATCH = "match"
CONFIG_NAMES = (METRICS, INTERVAL_MS, MATCH)
CONFIG_TYPES = {METRICS: "LIST", INTERVAL_MS: "INT", MATCH: "LIST"}  # Kafka's ConfigDef types
INTERVAL_MS_DEFAULT = 5 * 60 * 1000
MIN_INTERVAL_MS, MAX_INTERVAL_MS = 100, 3_600_000
ALL_METRICS = "*"
DEFAULTS = {METRICS: "", INTERVAL_MS: str(INTERVAL_MS_DEFAULT), MATCH: ""}

CLIENT_INSTANCE_ID = "client_instance_id"
CLIENT_ID = "client_id"
CLIENT_SOFTWARE_NAME = "client_software_name"
CLIENT_SOFTWARE_VERSION = "client_software_version"
CLIENT_SOURCE_ADDRESS = "client_source_address"
CLIENT_SOURCE_PORT = "client_source_port"
SELECTORS = frozenset({CLIENT_INSTANCE_ID, CLIENT_ID, CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION,
                       CLIENT_SOURCE_ADDRESS, CLIENT_SOURCE_PORT})
# The compression types the broker accepts pushes in, its preferred first (Kafka's order).
ACCEPTED_COMPRESSION_TYPES = [4, 3, 1, 2]  # zstd, lz4, gzip, snappy
CACHE_EXPIRY_MS = 60_000  # a client instance not heard from for max(this, 3 intervals) is dropped
_RESERVED_IDS = frozenset({uuid.UUID(int=0), uuid.UUID(int=1)})


def kafka_uuid_string(value: uuid.UUID) -> str:
    """Kafka's Uuid.toString: URL-safe base64 of the 16 bytes, unpadded."""
    return base64.urlsafe_b64encode(value.bytes).decode().rstrip("=")


def kafka_uuid_hash(value: uuid.UUID) -> int:
    """Kafka's Uuid.hashCode (signed 32 bits): the xor of the two longs, folded."""
    x = (value.int >> 64) ^ (value.int & 0xFFFF_FFFF_FFFF_FFFF)
    return _int32((x >> 32) ^ x)


def _int32(value: int) -> int:
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value & 0x8000_0000 else value


def _java_list(text: str) -> list[str]:
    """A ConfigDef LIST value: comma-separated items, trimmed; empty text is no items."""
    return [item.strip() for item in text.split(",")] if text.strip() else []


def parse_match(patterns: list[str]) -> dict[str, re.Pattern[str]]:
    """Kafka's parseMatchingPatterns: `selector=regex`, split at '=' into exactly two parts."""
    parsed: dict[str, re.Pattern[str]] = {}
    for pattern in patterns:
        parts = pattern.split("=")
        while len(parts) > 1 and parts[-1] == "":  # Java's split drops trailing empty strings
            parts.pop()
        if len(parts) != 2 or parts[0].strip() not in SELECTORS:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Illegal client matching pattern: {pattern}")
        try:
            parsed[parts[0].strip()] = re.compile(parts[1].strip())
        except re.error:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Illegal client matching pattern: {pattern}") from None
    return parsed


def validate(name: str, props: Mapping[str, str]) -> None:
    """Kafka's ClientMetricsConfigs.validate, as IncrementalAlterConfigs applies it."""
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Subscription name can't be empty")
    for key in props:
        if key not in CONFIG_NAMES:
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown client metrics configuration: {key}")
    if INTERVAL_MS in props:
        text = props[INTERVAL_MS].strip()
        try:
            interval = int(text)
        except ValueError:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid value {text} for configuration {INTERVAL_MS}: "
                                                      "Not a number of type INT") from None
        if not MIN_INTERVAL_MS <= interval <= MAX_INTERVAL_MS:
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Invalid value {interval} for {INTERVAL_MS}, interval must "
                                                        "be between 100 and 3600000 (1 hour)")
    if MATCH in props:
        parse_match(_java_list(props[MATCH]))


@dataclass(frozen=True)
class Subscription:
    name: str
    metrics: frozenset[str]
    interval_ms: int
    match: dict[str, re.Pattern[str]]

    @classmethod
    def from_props(cls, name: str, props: Mapping[str, str]) -> Subscription:
        values = {**DEFAULTS, **props}
        return cls(name, frozenset(_java_list(values[METRICS])), int(values[INTERVAL_MS].strip()),
                   parse_match(_java_list(values[MATCH])))


@dataclass(frozen=True)
class ClientInfo:
    """What a client instance is matched on (Kafka's ClientMetricsInstanceMetadata)."""

    client_id: str
    software_name: str
    software_version: str
    source_address: str
    source_port: str

    def selectors(self, instance_id: uuid.UUID) -> dict[str, str]:
        return {CLIENT_INSTANCE_ID: kafka_uuid_string(instance_id), CLIENT_ID: self.client_id,
                CLIENT_SOFTWARE_NAME: self.software_name, CLIENT_SOFTWARE_VERSION: self.software_version,
                CLIENT_SOURCE_ADDRESS: self.source_address, CLIENT_SOURCE_PORT: self.source_port}

    def matches(self, instance_id: uuid.UUID, match: Mapping[str, re.Pattern[str]]) -> bool:
        values = self.selectors(instance_id)
        return all(pattern.fullmatch(values[selector]) is not None for selector, pattern in match.items())


@dataclass
class ClientInstance:
    instance_id: uuid.UUID
    info: ClientInfo
    subscription_id: int
    subscription_version: int
    metrics: list[str]  # in Kafka's HashSet order, as the response lists them
    push_interval_ms: int
    last_get_ms: int = 0
    last_push_ms: int = 0
    last_seen_ms: int = 0
    terminating: bool = False
    last_error: ErrorCode = ErrorCode.NONE

    def may_get(self, now: int) -> bool:
        """Kafka's maybeUpdateGetRequestTimestamp: at most one GetTelemetrySubscriptions a push interval."""
        if now - max(self.last_get_ms, self.last_push_ms) >= self.push_interval_ms:
            self.last_get_ms = now
            return True
        return False

    def may_push(self, now: int) -> bool:
        """Kafka's maybeUpdatePushRequestTimestamp: the first push after a Get is always taken
        (clients jitter the interval), later ones a push interval apart."""
        accept = self.last_get_ms > self.last_push_ms or now - self.last_push_ms >= self.push_interval_ms
        if accept:
            self.last_push_ms = now
        return accept


def subscription_id(metrics: list[str], push_interval_ms: int, instance_id: uuid.UUID) -> int:
    """Kafka's computeSubscriptionId: CRC32C of the metric set's Java toString and the
    interval, xor the instance id's hashCode."""
    text = "[" + ", ".join(metrics) + "]" + str(push_interval_ms)
    return _int32(crc32c.crc32c(text.encode()) ^ kafka_uuid_hash(instance_id))


@dataclass
class ClientMetricsManager:
    time: Time
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    instances: dict[uuid.UUID, ClientInstance] = field(default_factory=dict)
    version: int = 0  # bumped by every subscription change: instances re-evaluate

    def update_subscription(self, name: str, props: Mapping[str, str]) -> None:
        """A client-metrics resource changed; no configs left removes the subscription."""
        if not props:
            if self.subscriptions.pop(name, None) is not None:
                self.version += 1
            return
        self.subscriptions[name] = Subscription.from_props(name, props)
        self.version += 1

    def new_instance_id(self) -> uuid.UUID:
        while True:
            candidate = uuid.uuid4()
            if candidate not in self.instances and candidate not in _RESERVED_IDS \
                    and not kafka_uuid_string(candidate).startswith("-"):
                return candidate

    def instance(self, instance_id: uuid.UUID, info: ClientInfo) -> ClientInstance:
        """The cached instance, or a new one. When the subscriptions changed since it was
        made, Kafka makes it anew (the first client's data kept): its next Get is answered
        at once with the new subscription, not throttled."""
        now = self.time.milliseconds()
        self.expire(now)
        current = self.instances.get(instance_id)
        if current is None or current.subscription_version < self.version:
            current = self._evaluate(instance_id, current.info if current is not None else info)
            self.instances[instance_id] = current
        current.last_seen_ms = now
        return current

    def expire(self, now: int) -> list[uuid.UUID]:
        """Forget instances not heard from for max(CACHE_EXPIRY_MS, 3 push intervals)."""
        gone = [i for i, inst in self.instances.items()
                if now - inst.last_seen_ms >= max(CACHE_EXPIRY_MS, 3 * inst.push_interval_ms)]
        for instance_id in gone:
            del self.instances[instance_id]
        return gone

    def _evaluate(self, instance_id: uuid.UUID, info: ClientInfo) -> ClientInstance:
        interval = INTERVAL_MS_DEFAULT
        metrics: set[str] = set()
        for sub in self.subscriptions.values():
            if info.matches(instance_id, sub.match):
                metrics |= sub.metrics
                interval = min(interval, sub.interval_ms)
        if ALL_METRICS in metrics:
            metrics = {ALL_METRICS}
        ordered = hashed_map_order(sorted(metrics), java_string_hash)
        return ClientInstance(instance_id, info, subscription_id(ordered, interval, instance_id), self.version,
                              ordered, interval)
