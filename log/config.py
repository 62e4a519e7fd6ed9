"""Per-topic log configuration, by Kafka's topic-config names (org.apache.kafka.common.config.TopicConfig).

A LogConfig is immutable: a config change builds a new one (from_props over the old as
defaults) and hands it to Log.update_config, so a Log never sees a half-applied change.
Kafka's "Long.MAX_VALUE means never" settings (flush.messages, flush.ms, the timestamp
bounds) are None here and rendered back as Long.MAX_VALUE by to_props.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from josefk.utils.config_types import invalid_value, type_problem

LONG_MAX = 9223372036854775807
INT_MAX = 2147483647

# The smallest record a segment must hold (Kafka's LegacyRecord.RECORD_OVERHEAD_V0).
_MIN_SEGMENT_BYTES = 14

COMPRESSION_TYPES = ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")
TIMESTAMP_TYPES = ("CreateTime", "LogAppendTime")
CLEANUP_POLICIES = ("compact", "delete")


class UnknownTopicConfigError(ValueError):
    """A name that is no topic config: AlterConfigs reports it as it is, where it names the
    resource before a bad value's message (as Kafka 3.9.2 does)."""


@dataclass(frozen=True, slots=True)
class LogConfig:
    """Every topic-level setting the log (and the partition above it) consults."""

    segment_bytes: int = 1073741824
    segment_ms: int = 604800000
    segment_jitter_ms: int = 0
    segment_index_bytes: int = 10485760
    index_interval_bytes: int = 4096
    max_message_bytes: int = 1048588
    message_timestamp_type: str = "CreateTime"
    message_timestamp_difference_max_ms: int | None = None
    message_timestamp_before_max_ms: int | None = None
    message_timestamp_after_max_ms: int | None = None
    flush_messages: int | None = None
    flush_ms: int | None = None
    retention_ms: int = 604800000
    retention_bytes: int = -1
    cleanup_policy: str = "delete"
    min_insync_replicas: int = 1
    file_delete_delay_ms: int = 60000
    preallocate: bool = False
    compression_type: str = "producer"
    delete_retention_ms: int = 86400000
    min_compaction_lag_ms: int = 0
    max_compaction_lag_ms: int = LONG_MAX
    min_cleanable_dirty_ratio: float = 0.5
    unclean_leader_election_enable: bool = False
    message_downconversion_enable: bool = True
    message_format_version: str = "3.0-IV1"
    leader_replication_throttled_replicas: str = ""
    follower_replication_throttled_replicas: str = ""
    remote_storage_enable: bool = False
    # Tiered storage (KIP-950, new in Kafka 3.9): accepted, validated and persisted like Kafka
    # so clients and tools see the same topic configs, but inert: josefk has no remote storage.
    remote_log_copy_disable: bool = False
    remote_log_delete_on_disable: bool = False
    local_retention_ms: int = -2
    local_retention_bytes: int = -2
    compression_gzip_level: int = -1
    compression_lz4_level: int = 9
    compression_zstd_level: int = 3

    # -- derived views -------------------------------------------------------------

    @property
    def log_append_time(self) -> bool:
        """Whether the broker stamps batches with its own clock (message.timestamp.type)."""
        return self.message_timestamp_type == "LogAppendTime"

    @property
    def compact(self) -> bool:
        return "compact" in self.cleanup_policy.split(",")

    @property
    def delete(self) -> bool:
        return "delete" in self.cleanup_policy.split(",")

    @property
    def max_index_entries(self) -> int:
        return self.segment_index_bytes // 8

    # -- conversion ------------------------------------------------------------------

    @classmethod
    def from_props(cls, props: dict[str, str], defaults: LogConfig | None = None) -> LogConfig:
        """Overlay `props` (Kafka names, string values) on `defaults`, validating each value.

        Raises ValueError naming the key, worded like Kafka's ConfigException, so the
        message can go straight into a CreateTopics/AlterConfigs error.
        """
        base = defaults if defaults is not None else cls()
        changes: dict[str, Any] = {}
        for key, raw in props.items():
            spec = _SPECS.get(key)
            if spec is None:
                raise UnknownTopicConfigError(f"Unknown topic config name: {key}")
            changes[spec.field] = spec.parse(key, raw)
        return dataclasses.replace(base, **changes) if changes else base

    def to_props(self) -> dict[str, str]:
        """Every setting under its Kafka name, as Kafka renders it (DescribeConfigs)."""
        return {name: spec.render(getattr(self, spec.field)) for name, spec in _SPECS.items()}

    def diff_props(self, other: LogConfig) -> dict[str, str]:
        """Settings whose value in self differs from `other` (e.g. the broker defaults)."""
        mine, theirs = self.to_props(), other.to_props()
        return {k: v for k, v in mine.items() if theirs[k] != v}


# -- parsing and validation ------------------------------------------------------------


def _invalid(key: str, raw: object, reason: str) -> ValueError:
    return ValueError(invalid_value(key, str(raw), reason))


_TYPE_NAMES = {"int": "INT", "long": "LONG", "nlong": "LONG", "double": "DOUBLE", "bool": "BOOLEAN"}


@dataclass(frozen=True, slots=True)
class _Spec:
    field: str
    kind: str  # "int", "long", "nlong" (Long.MAX -> None), "bool", "str", "double"
    # Takes the parsed value, of the type `kind` names (a float or str check, by key): Any.
    check: Callable[[Any], str | None] | None = None

    def parse(self, key: str, raw: object) -> Any:  # Any: the type `kind` names, a LogConfig field's
        text = str(raw).strip()
        problem = type_problem(_TYPE_NAMES.get(self.kind, "STRING"), text)
        if problem:
            raise _invalid(key, raw, problem)
        value: Any
        if self.kind in ("int", "long", "nlong"):
            value = int(text)
        elif self.kind == "double":
            value = float(text)
        elif self.kind == "bool":
            value = text.lower() == "true"
        else:
            value = text
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise _invalid(key, raw, problem)
        if self.kind == "nlong" and value == LONG_MAX:
            return None
        return value

    def render(self, value: object) -> str:
        """A LogConfig field's value as Kafka renders it (Long.MAX for an unset "nlong")."""
        if value is None:
            return str(LONG_MAX)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def _at_least(n: int | float) -> Callable[[float], str | None]:
    return lambda v: None if v >= n else f"Value must be at least {n}"


def _between(lo: float, hi: float) -> Callable[[float], str | None]:
    return lambda v: None if lo <= v <= hi else f"Value must be no less than {lo} and no more than {hi}"


def _one_of(options: tuple[str, ...]) -> Callable[[str], str | None]:
    return lambda v: None if v in options else f"String must be one of: {', '.join(options)}"


def _cleanup_policy(value: str) -> str | None:
    """Kafka 3.9's ValidList: each item one of the policies; an empty list is valid (no cleanup)."""
    parts = [p.strip() for p in value.split(",")] if value.strip() else []
    if any(p not in CLEANUP_POLICIES for p in parts):
        return "String must be one of: compact, delete"
    return None


def _throttled_replicas(name: str) -> Callable[[str], str | None]:
    """Kafka's ThrottledReplicaListValidator: `*`, or `partition:broker` entries."""
    def check(value: str) -> str | None:
        entries = [e.strip() for e in value.split(",")]
        if "".join(entries) == "*" or all(_THROTTLED_REPLICA.fullmatch(e) for e in entries):
            return None
        return (f"{name} must be the literal '*' or a list of replicas in the following format: "
                "[partitionId]:[brokerId],[partitionId]:[brokerId],...")
    return check


_THROTTLED_REPLICA = re.compile(r"([0-9]+:[0-9]+)?")

_SPECS: dict[str, _Spec] = {
    "segment.bytes": _Spec("segment_bytes", "int", _at_least(_MIN_SEGMENT_BYTES)),
    "segment.ms": _Spec("segment_ms", "long", _at_least(1)),
    "segment.jitter.ms": _Spec("segment_jitter_ms", "long", _at_least(0)),
    "segment.index.bytes": _Spec("segment_index_bytes", "int", _at_least(4)),
    "index.interval.bytes": _Spec("index_interval_bytes", "int", _at_least(0)),
    "max.message.bytes": _Spec("max_message_bytes", "int", _at_least(0)),
    "message.timestamp.type": _Spec("message_timestamp_type", "str", _one_of(TIMESTAMP_TYPES)),
    "message.timestamp.difference.max.ms": _Spec("message_timestamp_difference_max_ms", "nlong",
                                                 _at_least(0)),
    "message.timestamp.before.max.ms": _Spec("message_timestamp_before_max_ms", "nlong", _at_least(0)),
    "message.timestamp.after.max.ms": _Spec("message_timestamp_after_max_ms", "nlong", _at_least(0)),
    "flush.messages": _Spec("flush_messages", "nlong", _at_least(1)),
    "flush.ms": _Spec("flush_ms", "nlong", _at_least(0)),
    "retention.ms": _Spec("retention_ms", "long", _at_least(-1)),
    "retention.bytes": _Spec("retention_bytes", "long"),
    "cleanup.policy": _Spec("cleanup_policy", "str", _cleanup_policy),
    "min.insync.replicas": _Spec("min_insync_replicas", "int", _at_least(1)),
    "file.delete.delay.ms": _Spec("file_delete_delay_ms", "long", _at_least(0)),
    "preallocate": _Spec("preallocate", "bool"),
    "compression.type": _Spec("compression_type", "str", _one_of(COMPRESSION_TYPES)),
    "delete.retention.ms": _Spec("delete_retention_ms", "long", _at_least(0)),
    "min.compaction.lag.ms": _Spec("min_compaction_lag_ms", "long", _at_least(0)),
    "max.compaction.lag.ms": _Spec("max_compaction_lag_ms", "long", _at_least(1)),
    "min.cleanable.dirty.ratio": _Spec("min_cleanable_dirty_ratio", "double", _between(0, 1)),
    "unclean.leader.election.enable": _Spec("unclean_leader_election_enable", "bool"),
    "message.downconversion.enable": _Spec("message_downconversion_enable", "bool"),
    "message.format.version": _Spec("message_format_version", "str"),
    "leader.replication.throttled.replicas": _Spec("leader_replication_throttled_replicas", "str",
                                                 _throttled_replicas("leader.replication.throttled.replicas")),
    "follower.replication.throttled.replicas": _Spec("follower_replication_throttled_replicas", "str",
                                                 _throttled_replicas("follower.replication.throttled.replicas")),
    "remote.storage.enable": _Spec("remote_storage_enable", "bool"),
    "remote.log.copy.disable": _Spec("remote_log_copy_disable", "bool"),  # inert: no tiered storage
    "remote.log.delete.on.disable": _Spec("remote_log_delete_on_disable", "bool"),  # inert, as above
    "local.retention.ms": _Spec("local_retention_ms", "long", _at_least(-2)),
    "local.retention.bytes": _Spec("local_retention_bytes", "long", _at_least(-2)),
    "compression.gzip.level": _Spec("compression_gzip_level", "int",
                                    lambda v: None if v == -1 or 1 <= v <= 9 else "Value must be -1 or in [1, 9]"),
    "compression.lz4.level": _Spec("compression_lz4_level", "int", _between(1, 17)),
    "compression.zstd.level": _Spec("compression_zstd_level", "int", _between(-131072, 22)),
}

TOPIC_CONFIG_NAMES: frozenset[str] = frozenset(_SPECS)

# The topic configs Kafka declares as lists (ConfigDef.Type.LIST); the other "str" ones are STRING.
_LIST_CONFIGS = frozenset({"cleanup.policy", "leader.replication.throttled.replicas",
                           "follower.replication.throttled.replicas"})
_KAFKA_TYPES = {"int": "INT", "long": "LONG", "nlong": "LONG", "bool": "BOOLEAN", "str": "STRING",
                "double": "DOUBLE"}


def config_type(name: str) -> str:
    """The ConfigDef.Type Kafka's LogConfig declares for topic config `name` ("INT", "LONG",
    "BOOLEAN", "STRING", "LIST", "DOUBLE"), which DescribeConfigs v3+ reports."""
    return "LIST" if name in _LIST_CONFIGS else _KAFKA_TYPES[_SPECS[name].kind]


# Broker-wide defaults (server.properties) for the topic settings that have one, Kafka's names.
SERVER_DEFAULT_NAMES: dict[str, str] = {
    "segment.bytes": "log.segment.bytes",
    "segment.ms": "log.roll.ms",
    "segment.jitter.ms": "log.roll.jitter.ms",
    "segment.index.bytes": "log.index.size.max.bytes",
    "index.interval.bytes": "log.index.interval.bytes",
    "max.message.bytes": "message.max.bytes",
    "message.timestamp.type": "log.message.timestamp.type",
    "message.timestamp.difference.max.ms": "log.message.timestamp.difference.max.ms",
    "message.timestamp.before.max.ms": "log.message.timestamp.before.max.ms",
    "message.timestamp.after.max.ms": "log.message.timestamp.after.max.ms",
    "flush.messages": "log.flush.interval.messages",
    "flush.ms": "log.flush.interval.ms",
    "retention.ms": "log.retention.ms",
    "retention.bytes": "log.retention.bytes",
    "cleanup.policy": "log.cleanup.policy",
    "min.insync.replicas": "min.insync.replicas",
    "file.delete.delay.ms": "log.segment.delete.delay.ms",
    "preallocate": "log.preallocate",
    "compression.type": "compression.type",
    "delete.retention.ms": "log.cleaner.delete.retention.ms",
    "min.compaction.lag.ms": "log.cleaner.min.compaction.lag.ms",
    "max.compaction.lag.ms": "log.cleaner.max.compaction.lag.ms",
    "min.cleanable.dirty.ratio": "log.cleaner.min.cleanable.ratio",
    "unclean.leader.election.enable": "unclean.leader.election.enable",
    "message.downconversion.enable": "log.message.downconversion.enable",
    "message.format.version": "log.message.format.version",
    "local.retention.ms": "log.local.retention.ms",
    "local.retention.bytes": "log.local.retention.bytes",
    "compression.gzip.level": "compression.gzip.level",
    "compression.lz4.level": "compression.lz4.level",
    "compression.zstd.level": "compression.zstd.level",
}


_TOPIC_NAME_OF = {server_name: name for name, server_name in SERVER_DEFAULT_NAMES.items()}


def validate_server_default(server_name: str, raw: str) -> None:
    """Check a broker-level topic default (log.retention.ms, message.max.bytes, ...) as its
    topic config is checked; ValueError names the broker key, worded like Kafka's."""
    _SPECS[_TOPIC_NAME_OF[server_name]].parse(server_name, raw)


def server_topic_overrides(props: dict[str, str]) -> dict[str, str]:
    """Topic-level names and values of the topic defaults server.properties sets.

    Kafka's precedence holds: log.roll.ms over log.roll.hours, log.retention.ms over
    log.retention.minutes over log.retention.hours; -1 for log.retention.ms means forever.
    """
    def scaled(key: str, factor: int) -> str:
        try:
            value = int(props[key].strip())
        except ValueError:
            raise _invalid(key, props[key], "Not a number of type INT") from None
        return str(value * factor if value >= 0 else value)

    topic: dict[str, str] = {}
    for name, server_name in SERVER_DEFAULT_NAMES.items():
        if server_name in props:
            topic[name] = props[server_name]
    if "segment.ms" not in topic and "log.roll.hours" in props:
        topic["segment.ms"] = scaled("log.roll.hours", 3600000)
    if "segment.jitter.ms" not in topic and "log.roll.jitter.hours" in props:
        topic["segment.jitter.ms"] = scaled("log.roll.jitter.hours", 3600000)
    if "retention.ms" not in topic:
        if "log.retention.minutes" in props:
            topic["retention.ms"] = scaled("log.retention.minutes", 60000)
        elif "log.retention.hours" in props:
            topic["retention.ms"] = scaled("log.retention.hours", 3600000)
    return topic


def from_server_props(props: dict[str, str]) -> LogConfig:
    """The broker's topic defaults: Kafka's defaults overridden by server.properties."""
    return LogConfig.from_props(server_topic_overrides(props))
