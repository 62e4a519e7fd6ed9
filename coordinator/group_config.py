"""Dynamic group configs (Kafka 4.4's GroupConfig and GroupConfigManager): the keys a GROUP
config resource takes, their validation against the broker's bounds, and each group's
overrides as the coordinators read them.

A group config overrides, for one group, the broker key it names as its synonym
(consumer.session.timeout.ms over group.consumer.session.timeout.ms ...). Kafka validates a
change against the broker's group.*.min/max keys (InvalidConfigurationException, answered
INVALID_CONFIG) and, should the bounds change after, clamps a stored value into them when it
takes effect (GroupConfig.evaluate). A coordinator reads a group's value each time it needs one
(a heartbeat's interval, a session timer, a share partition's lock), so a change applies from
the group's next heartbeat or fetch.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from josefk.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)

INT, LONG, BOOLEAN, STRING, LIST = "INT", "LONG", "BOOLEAN", "STRING", "LIST"

CONSUMER_SESSION_TIMEOUT_MS = "consumer.session.timeout.ms"
CONSUMER_HEARTBEAT_INTERVAL_MS = "consumer.heartbeat.interval.ms"
SHARE_SESSION_TIMEOUT_MS = "share.session.timeout.ms"
SHARE_HEARTBEAT_INTERVAL_MS = "share.heartbeat.interval.ms"
SHARE_RECORD_LOCK_DURATION_MS = "share.record.lock.duration.ms"
SHARE_DELIVERY_COUNT_LIMIT = "share.delivery.count.limit"
SHARE_PARTITION_MAX_RECORD_LOCKS = "share.partition.max.record.locks"
SHARE_AUTO_OFFSET_RESET = "share.auto.offset.reset"
SHARE_ISOLATION_LEVEL = "share.isolation.level"
STREAMS_SESSION_TIMEOUT_MS = "streams.session.timeout.ms"
STREAMS_HEARTBEAT_INTERVAL_MS = "streams.heartbeat.interval.ms"
STREAMS_NUM_STANDBY_REPLICAS = "streams.num.standby.replicas"
STREAMS_INITIAL_REBALANCE_DELAY_MS = "streams.initial.rebalance.delay.ms"
STREAMS_RACK_AWARE_ASSIGNMENT_TAGS = "streams.rack.aware.assignment.tags"
STREAMS_TASK_OFFSET_INTERVAL_MS = "streams.task.offset.interval.ms"
STREAMS_ACCEPTABLE_RECOVERY_LAG = "streams.acceptable.recovery.lag"
STREAMS_ASSIGNOR_NAME = "streams.assignor.name"
DLQ_TOPIC_NAME = "errors.deadletterqueue.topic.name"

STREAMS_ASSIGNORS = ("sticky",)  # the task assignors josefk's streams coordinator has (Kafka 4.4's default)

_AUTO_OFFSET_RESET_DOC = (
    "The strategy to initialize the share-partition start offset. <ul><li>earliest: automatically reset the offset "
    "to the earliest offset</li><li>latest: automatically reset the offset to the latest offset</li>"
    "<li>by_duration:&lt;duration&gt;: automatically reset the offset to a configured duration from the current "
    "timestamp. &lt;duration&gt; must be specified in ISO8601 format (PnDTnHnMn.nS). Negative duration is not "
    "allowed.</li><li>anything else: throw exception to the share consumer.</li></ul>")
_ISOLATION_DOC = (
    "Controls how to read records written transactionally. If set to \"read_committed\", the share group will only "
    "deliver transactional records which have been committed. If set to \"read_uncommitted\", the share group will "
    "return all messages, even transactional messages which have been aborted. Non-transactional records will be "
    "returned unconditionally in either mode.")


@dataclass(frozen=True)
class GroupKey:
    """One key of Kafka 4.4's GroupConfig.CONFIG_DEF, in its definition order."""

    name: str
    type: str
    synonym: str | None  # the broker key whose value a group without an override has (None: the key's own default)
    default: str  # Kafka 4.4's default (of the broker synonym when there is one)
    doc: str
    at_least: int | None = None
    choices: tuple[str, ...] | None = None
    internal: bool = False  # accepted, but described only when set (Kafka's internal configs)


KEYS: dict[str, GroupKey] = {k.name: k for k in (
    GroupKey(CONSUMER_SESSION_TIMEOUT_MS, INT, "group.consumer.session.timeout.ms", "45000",
             "The timeout to detect client failures when using the consumer group protocol.", 1),
    GroupKey(CONSUMER_HEARTBEAT_INTERVAL_MS, INT, "group.consumer.heartbeat.interval.ms", "5000",
             "The heartbeat interval given to the members of a consumer group.", 1),
    GroupKey("consumer.assignment.interval.ms", INT, "group.consumer.assignment.interval.ms", "1000",
             "The interval between assignment updates for a consumer group.", 0),
    GroupKey("consumer.assignor.offload.enable", BOOLEAN, "group.consumer.assignor.offload.enable", "true",
             "Whether to offload consumer group assignment to a group coordinator background thread.",
             internal=True),
    GroupKey(SHARE_SESSION_TIMEOUT_MS, INT, "group.share.session.timeout.ms", "45000",
             "The timeout to detect client failures when using the share group protocol.", 1),
    GroupKey(SHARE_HEARTBEAT_INTERVAL_MS, INT, "group.share.heartbeat.interval.ms", "5000",
             "The heartbeat interval given to the members of a share group.", 1),
    GroupKey(SHARE_RECORD_LOCK_DURATION_MS, INT, "group.share.record.lock.duration.ms", "30000",
             "The record acquisition lock duration in milliseconds for share groups.", 1000),
    GroupKey(SHARE_DELIVERY_COUNT_LIMIT, INT, "group.share.delivery.count.limit", "5",
             "The maximum number of delivery attempts for a record delivered to a share group.", 2),
    GroupKey(SHARE_PARTITION_MAX_RECORD_LOCKS, INT, "group.share.partition.max.record.locks", "2000",
             "Share-group record lock limit per share-partition.", 100),
    GroupKey(SHARE_AUTO_OFFSET_RESET, STRING, None, "latest", _AUTO_OFFSET_RESET_DOC),
    GroupKey(SHARE_ISOLATION_LEVEL, STRING, None, "read_uncommitted", _ISOLATION_DOC,
             choices=("read_committed", "read_uncommitted")),
    GroupKey("share.renew.acknowledge.enable", BOOLEAN, None, "true",
             "Whether the renew acknowledge type is enabled for the share group."),
    GroupKey("share.assignment.interval.ms", INT, "group.share.assignment.interval.ms", "1000",
             "The interval between assignment updates for a share group.", 0),
    GroupKey("share.assignor.offload.enable", BOOLEAN, "group.share.assignor.offload.enable", "true",
             "Whether to offload share group assignment to a group coordinator background thread.", internal=True),
    GroupKey(STREAMS_SESSION_TIMEOUT_MS, INT, "group.streams.session.timeout.ms", "45000",
             "The timeout to detect client failures when using the streams group protocol.", 1),
    GroupKey(STREAMS_HEARTBEAT_INTERVAL_MS, INT, "group.streams.heartbeat.interval.ms", "5000",
             "The heartbeat interval given to the members.", 1),
    GroupKey(STREAMS_NUM_STANDBY_REPLICAS, INT, "group.streams.num.standby.replicas", "0",
             "The number of standby replicas for each task.", 0),
    GroupKey(STREAMS_INITIAL_REBALANCE_DELAY_MS, INT, "group.streams.initial.rebalance.delay.ms", "3000",
             "The amount of time the group coordinator will wait for more streams clients to join a new group before "
             "performing the first rebalance. A longer delay means potentially fewer rebalances.", 0),
    GroupKey("streams.assignment.interval.ms", INT, "group.streams.assignment.interval.ms", "1000",
             "The interval between assignment updates for a streams group.", 0),
    GroupKey(STREAMS_RACK_AWARE_ASSIGNMENT_TAGS, LIST, "group.streams.rack.aware.assignment.tags", "",
             "List of client tag keys used to distribute standby replicas across Kafka Streams instances. When "
             "configured, and the used broker-side assignor supports it, it will make a best-effort to distribute "
             "standby tasks over each client tag dimension."),
    GroupKey("streams.assignor.offload.enable", BOOLEAN, "group.streams.assignor.offload.enable", "true",
             "Whether to offload streams group assignment to a group coordinator background thread.", internal=True),
    GroupKey(STREAMS_TASK_OFFSET_INTERVAL_MS, INT, "group.streams.task.offset.interval.ms", "60000",
             "The interval in which the warmup task changelog offsets on a client are updated on the broker. The "
             "offsets are sent with the next heartbeat after this time has passed.", 1, internal=True),
    GroupKey("streams.num.warmup.replicas", INT, "group.streams.num.warmup.replicas", "2",
             "The maximum number of warmup task replicas.", 0, internal=True),
    GroupKey(STREAMS_ACCEPTABLE_RECOVERY_LAG, LONG, "group.streams.acceptable.recovery.lag", "10000",
             "The maximum acceptable lag (number of offsets to catch up) for a client to be considered caught-up "
             "enough to receive an active task assignment.", 0, internal=True),
    GroupKey(STREAMS_ASSIGNOR_NAME, STRING, "group.streams.assignors", STREAMS_ASSIGNORS[0],
             "The task assignor to use for this streams group, selected by short name from the assignors registered "
             "via the broker configuration group.streams.assignors. When unset, the group defaults to the first "
             "assignor configured in the broker's group.streams.assignors setting. Changing the assignor does not "
             "trigger a rebalance for the group; the new assignor takes effect on the next rebalance."),
    GroupKey(DLQ_TOPIC_NAME, STRING, None, "",
             "The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group. If blank "
             "(the default), the group does not have a DLQ topic."),
    GroupKey("errors.deadletterqueue.copy.record.enable", BOOLEAN, None, "false",
             "When writing onto the dead-letter queue topic, whether to copy the original record onto the DLQ topic, "
             "or just write a record containing the context information headers."),
)}

# The broker's bounds of a key (Kafka 4.4's GroupConfig.validateValues): (min key, max key),
# either None where Kafka checks one side only.
BOUNDS: dict[str, tuple[str | None, str | None]] = {
    CONSUMER_HEARTBEAT_INTERVAL_MS: ("group.consumer.min.heartbeat.interval.ms",
                                     "group.consumer.max.heartbeat.interval.ms"),
    CONSUMER_SESSION_TIMEOUT_MS: ("group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms"),
    "consumer.assignment.interval.ms": ("group.consumer.min.assignment.interval.ms",
                                        "group.consumer.max.assignment.interval.ms"),
    SHARE_HEARTBEAT_INTERVAL_MS: ("group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms"),
    SHARE_SESSION_TIMEOUT_MS: ("group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms"),
    SHARE_RECORD_LOCK_DURATION_MS: ("group.share.min.record.lock.duration.ms",
                                    "group.share.max.record.lock.duration.ms"),
    SHARE_DELIVERY_COUNT_LIMIT: ("group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit"),
    SHARE_PARTITION_MAX_RECORD_LOCKS: ("group.share.min.partition.max.record.locks",
                                       "group.share.max.partition.max.record.locks"),
    "share.assignment.interval.ms": ("group.share.min.assignment.interval.ms",
                                     "group.share.max.assignment.interval.ms"),
    STREAMS_HEARTBEAT_INTERVAL_MS: ("group.streams.min.heartbeat.interval.ms",
                                    "group.streams.max.heartbeat.interval.ms"),
    STREAMS_SESSION_TIMEOUT_MS: ("group.streams.min.session.timeout.ms", "group.streams.max.session.timeout.ms"),
    STREAMS_NUM_STANDBY_REPLICAS: (None, "group.streams.max.standby.replicas"),
    "streams.assignment.interval.ms": ("group.streams.min.assignment.interval.ms",
                                       "group.streams.max.assignment.interval.ms"),
    "streams.task.offset.interval.ms": ("group.streams.min.task.offset.interval.ms", None),
    "streams.num.warmup.replicas": (None, "group.streams.max.warmup.replicas"),
}
# session key -> its heartbeat key: a session timeout must exceed the heartbeat interval.
SESSION_HEARTBEAT = {CONSUMER_SESSION_TIMEOUT_MS: CONSUMER_HEARTBEAT_INTERVAL_MS,
                     SHARE_SESSION_TIMEOUT_MS: SHARE_HEARTBEAT_INTERVAL_MS,
                     STREAMS_SESSION_TIMEOUT_MS: STREAMS_HEARTBEAT_INTERVAL_MS}

# Kafka 4.4's defaults of the broker keys above (and of the synonyms josefk's broker lacks).
BROKER_DEFAULTS: dict[str, str] = {
    **{k.synonym: k.default for k in KEYS.values() if k.synonym is not None},
    "group.consumer.min.heartbeat.interval.ms": "5000", "group.consumer.max.heartbeat.interval.ms": "15000",
    "group.consumer.min.session.timeout.ms": "45000", "group.consumer.max.session.timeout.ms": "60000",
    "group.consumer.min.assignment.interval.ms": "0", "group.consumer.max.assignment.interval.ms": "15000",
    "group.share.min.heartbeat.interval.ms": "5000", "group.share.max.heartbeat.interval.ms": "15000",
    "group.share.min.session.timeout.ms": "45000", "group.share.max.session.timeout.ms": "60000",
    "group.share.min.record.lock.duration.ms": "15000", "group.share.max.record.lock.duration.ms": "60000",
    "group.share.min.delivery.count.limit": "2", "group.share.max.delivery.count.limit": "10",
    "group.share.min.partition.max.record.locks": "100", "group.share.max.partition.max.record.locks": "4000",
    "group.share.min.assignment.interval.ms": "0", "group.share.max.assignment.interval.ms": "15000",
    "group.streams.min.heartbeat.interval.ms": "5000", "group.streams.max.heartbeat.interval.ms": "15000",
    "group.streams.min.session.timeout.ms": "45000", "group.streams.max.session.timeout.ms": "60000",
    "group.streams.max.standby.replicas": "2", "group.streams.min.assignment.interval.ms": "0",
    "group.streams.max.assignment.interval.ms": "15000", "group.streams.min.task.offset.interval.ms": "15000",
    "group.streams.max.warmup.replicas": "20",
}

# A broker key's value as a string (its configured value, else Kafka 4.4's default).
BrokerValues = Callable[[str], str]

# Kafka 4.4's start-up requirements on the broker's group keys (GroupCoordinatorConfig's
# verify{Consumer,Share,Streams}GroupConfigs, then ShareGroupConfig's), in its order:
# (key, relation, other key); a broker whose keys break one does not start.
GE, LE, LT = "must be greater than or equal to", "must be less than or equal to", "must be less than"


def _within(prefix: str, name: str) -> tuple[tuple[str, str, str], ...]:
    low, high, value = f"{prefix}.min.{name}", f"{prefix}.max.{name}", f"{prefix}.{name}"
    return (high, GE, low), (value, GE, low), (value, LE, high)


def _kind(kind: str) -> tuple[tuple[str, str, str], ...]:
    base = f"group.{kind}"
    return (*_within(base, "heartbeat.interval.ms"), *_within(base, "session.timeout.ms"),
            (f"{base}.heartbeat.interval.ms", LT, f"{base}.session.timeout.ms"),
            *_within(base, "assignment.interval.ms"))


BROKER_REQUIREMENTS: tuple[tuple[str, str, str], ...] = (
    *_kind("consumer"), *_kind("share"), *_kind("streams"),
    ("group.streams.num.standby.replicas", LE, "group.streams.max.standby.replicas"),
    ("group.streams.task.offset.interval.ms", GE, "group.streams.min.task.offset.interval.ms"),
    ("group.streams.num.warmup.replicas", LE, "group.streams.max.warmup.replicas"),
    ("group.share.max.delivery.count.limit", GE, "group.share.delivery.count.limit"),
    ("group.share.delivery.count.limit", GE, "group.share.min.delivery.count.limit"),
    ("group.share.max.partition.max.record.locks", GE, "group.share.partition.max.record.locks"),
    ("group.share.partition.max.record.locks", GE, "group.share.min.partition.max.record.locks"),
    ("group.share.record.lock.duration.ms", GE, "group.share.min.record.lock.duration.ms"),
    ("group.share.max.record.lock.duration.ms", GE, "group.share.record.lock.duration.ms"),
)


def broker_problem(broker: BrokerValues) -> str | None:
    """The first of BROKER_REQUIREMENTS the broker's values break, in Kafka's words; None
    when they hold."""
    for left, relation, right in BROKER_REQUIREMENTS:
        a, b = int(broker(left)), int(broker(right))
        if not (a >= b if relation == GE else a <= b if relation == LE else a < b):
            return f"{left} {relation} {right}"
    return None

_INT_RANGE = {INT: (-(2**31), 2**31 - 1), LONG: (-(2**63), 2**63 - 1)}
# Java's Duration.parse (PnDTnHnMn.nS), each part optional but at least one present.
_DURATION = re.compile(r"([-+]?)P(?:([-+]?\d+)D)?"
                       r"(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+)(?:[.,]\d{0,9})?S)?)?", re.IGNORECASE)


def _java_int(text: str, kind: str) -> int | None:
    """Integer.parseInt / Long.parseLong of a trimmed value (None: not a number of the type)."""
    if not re.fullmatch(r"[-+]?\d+", text):
        return None
    value = int(text)
    low, high = _INT_RANGE[kind]
    return value if low <= value <= high else None


def _by_duration_ok(text: str) -> bool:
    """ShareGroupAutoOffsetResetStrategy's "by_duration:<ISO-8601 duration>", not negative."""
    if not text.startswith("by_duration:"):
        return False
    duration = text[len("by_duration:"):]
    match = _DURATION.fullmatch(duration)
    if match is None or duration.upper().endswith("T") or not any(match.group(i) for i in range(2, 6)):
        return False
    return match.group(1) != "-" and not any((match.group(i) or "").startswith("-") for i in range(2, 6))


def by_duration_ms(value: str) -> int | None:
    """The milliseconds of a valid share.auto.offset.reset "by_duration:<duration>" (Java's
    Duration.toMillis), else None."""
    text = value.strip()
    if not _by_duration_ok(text):
        return None
    match = _DURATION.fullmatch(text[len("by_duration:"):])
    assert match is not None
    days, hours, minutes, seconds = (int(match.group(i) or 0) for i in range(2, 6))
    fraction = re.search(r"[.,](\d{0,9})S$", text, re.IGNORECASE)
    millis = int((fraction.group(1) + "000")[:3]) if fraction else 0
    return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + millis


def _invalid(key: str, value: str, why: str) -> KafkaError:
    return KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid value {value} for configuration {key}: {why}")


def parse(key: GroupKey, value: str) -> int | bool | str | list[str]:
    """A value as Kafka's ConfigDef.parseValue reads it (trimmed), or INVALID_CONFIG."""
    text = value.strip()
    if key.type in (INT, LONG):
        number = _java_int(text, key.type)
        if number is None:
            raise _invalid(key.name, value, f"Not a number of type {key.type}")
        if key.at_least is not None and number < key.at_least:
            raise _invalid(key.name, value, f"Value must be at least {key.at_least}")
        return number
    if key.type == BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise _invalid(key.name, value, "Expected value to be either true or false")
        return text.lower() == "true"
    if key.type == LIST:
        return re.split(r"\s*,\s*", text) if text else []
    if key.choices is not None and text not in key.choices:
        raise _invalid(key.name, value, f"String must be one of: {', '.join(key.choices)}")
    if key.name == SHARE_AUTO_OFFSET_RESET and text not in ("earliest", "latest") and not _by_duration_ok(text):
        raise _invalid(key.name, value, f"Invalid value `{text}` for configuration {key.name}. The value must be "
                                        "either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")
    return text


def _broker_int(broker: BrokerValues, key: str) -> int:
    return int(broker(key))


def validate(overrides: Mapping[str, str], broker: BrokerValues) -> None:
    """Kafka 4.4's GroupConfig.validate of a group's whole new overrides: known names, values
    that parse (in the keys' definition order), within the broker's bounds, each session
    timeout above its heartbeat interval (the broker's value standing in for one not set).
    INVALID_CONFIG with Kafka's message otherwise."""
    for name in overrides:
        if name not in KEYS:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown group config name: {name}")
    tags = overrides.get(STREAMS_RACK_AWARE_ASSIGNMENT_TAGS)
    if tags is not None:
        listed = re.split(r"\s*,\s*", tags.strip()) if tags.strip() else []
        if len(set(listed)) != len(listed):
            raise KafkaError(ErrorCode.INVALID_CONFIG,
                             f"{STREAMS_RACK_AWARE_ASSIGNMENT_TAGS} must not contain duplicate tag keys.")
    parsed = {name: parse(key, overrides[name]) for name, key in KEYS.items() if name in overrides}
    for name, (low_key, high_key) in BOUNDS.items():
        value = parsed.get(name)
        if not isinstance(value, int):
            continue
        low = _broker_int(broker, low_key) if low_key else None
        high = _broker_int(broker, high_key) if high_key else None
        if low is not None and high is not None and not low <= value <= high:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be in the range {low} to {high} inclusive.")
        if low is None and high is not None and value > high:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be less than or equal to {high}")
        if high is None and low is not None and value < low:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be greater than or equal to {low}")
    assignor = parsed.get(STREAMS_ASSIGNOR_NAME)
    if isinstance(assignor, str) and assignor not in STREAMS_ASSIGNORS:
        raise KafkaError(ErrorCode.INVALID_CONFIG,
                         f"{STREAMS_ASSIGNOR_NAME} '{assignor}' is not a registered task assignor. Registered "
                         f"assignors are: [{', '.join(STREAMS_ASSIGNORS)}].")
    for session_key, heartbeat_key in SESSION_HEARTBEAT.items():
        if session_key in parsed or heartbeat_key in parsed:
            session = parsed.get(session_key, _broker_int(broker, str(KEYS[session_key].synonym)))
            heartbeat = parsed.get(heartbeat_key, _broker_int(broker, str(KEYS[heartbeat_key].synonym)))
            if isinstance(session, int) and isinstance(heartbeat, int) and session <= heartbeat:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"{session_key} must be greater than {heartbeat_key}")
    dlq = parsed.get(DLQ_TOPIC_NAME)
    if isinstance(dlq, str) and dlq.startswith("__"):
        raise KafkaError(ErrorCode.INVALID_CONFIG, f"{DLQ_TOPIC_NAME}: DLQ topic name must not start with '__'")


def evaluate(group_id: str, overrides: Mapping[str, str], broker: BrokerValues) -> dict[str, str]:
    """Kafka 4.4's GroupConfig.evaluate: the overrides in effect, each bounded value clamped
    into the broker's current bounds (a warning says so)."""
    evaluated = dict(overrides)
    for name, (low_key, high_key) in BOUNDS.items():
        number = _java_int(evaluated[name].strip(), INT) if name in evaluated else None
        if number is None:
            continue
        low = _broker_int(broker, low_key) if low_key else None
        high = _broker_int(broker, high_key) if high_key else None
        if low is not None and number < low:
            log.warning("The group config '%s' for group '%s' has value %d which is below the broker's allowed "
                        "minimum %d. The effective value will be capped to %d.", name, group_id, number, low, low)
            evaluated[name] = str(low)
        elif high is not None and number > high:
            log.warning("The group config '%s' for group '%s' has value %d which exceeds the broker's allowed "
                        "maximum %d. The effective value will be capped to %d.", name, group_id, number, high, high)
            evaluated[name] = str(high)
    return evaluated


class GroupConfigs(Protocol):
    """What a coordinator asks of the group configs: a group's value of a key, else `default`
    (the broker's, which the coordinator holds)."""

    def int_value(self, group_id: str, key: str, default: int) -> int: ...

    def str_value(self, group_id: str, key: str, default: str) -> str: ...


class NoGroupConfigs:
    """No group has configs: every value is the broker's."""

    def int_value(self, group_id: str, key: str, default: int) -> int:
        return default

    def str_value(self, group_id: str, key: str, default: str) -> str:
        return default


NO_GROUP_CONFIGS = NoGroupConfigs()


class GroupConfigManager:
    """Each group's overrides as this broker last read them from the store (Kafka's
    GroupConfigManager), evaluated against the broker's bounds. Used on the event loop."""

    def __init__(self, broker: BrokerValues) -> None:
        self.broker = broker
        self._configs: dict[str, dict[str, str]] = {}

    def update(self, group_id: str, overrides: Mapping[str, str]) -> None:
        """A group's overrides changed (none left: it has no configs)."""
        if overrides:
            self._configs[group_id] = evaluate(group_id, overrides, self.broker)
        else:
            self._configs.pop(group_id, None)

    def groups(self) -> list[str]:
        """The groups that have configs (ListConfigResources' GROUP resources)."""
        return sorted(self._configs)

    def overrides(self, group_id: str) -> dict[str, str]:
        return dict(self._configs.get(group_id, {}))

    def int_value(self, group_id: str, key: str, default: int) -> int:
        text = self._configs.get(group_id, {}).get(key)
        number = _java_int(text.strip(), LONG) if text is not None else None  # LONG: a lag is one
        return default if number is None else number

    def str_value(self, group_id: str, key: str, default: str) -> str:
        text = self._configs.get(group_id, {}).get(key)
        return default if text is None else text.strip()
