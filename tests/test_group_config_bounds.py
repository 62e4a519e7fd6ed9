"""The broker's bounds of the dynamic group configs (group.consumer.min.session.timeout.ms,
group.share.max.delivery.count.limit, ...) are broker configs with Kafka 4.4's names,
defaults and validators: a broker refuses to start on bounds its own group keys break, in
Kafka 4.4's words, and a group config is validated (and clamped) against the bounds the broker
is configured with, not Kafka's defaults."""

from __future__ import annotations

import pytest

from josefk.coordinator.group_config import BOUNDS, GroupConfigManager, validate
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.group_configs import broker_values

pytestmark = pytest.mark.unit

# Kafka 4.4.0's defaults (GroupCoordinatorConfig and ShareGroupConfig in its jar).
KAFKA_44_DEFAULTS = {
    "group.consumer.min.session.timeout.ms": 45000, "group.consumer.max.session.timeout.ms": 60000,
    "group.consumer.min.heartbeat.interval.ms": 5000, "group.consumer.max.heartbeat.interval.ms": 15000,
    "group.consumer.min.assignment.interval.ms": 0, "group.consumer.max.assignment.interval.ms": 15000,
    "group.share.min.session.timeout.ms": 45000, "group.share.max.session.timeout.ms": 60000,
    "group.share.min.heartbeat.interval.ms": 5000, "group.share.max.heartbeat.interval.ms": 15000,
    "group.share.min.assignment.interval.ms": 0, "group.share.max.assignment.interval.ms": 15000,
    "group.share.min.record.lock.duration.ms": 15000, "group.share.max.record.lock.duration.ms": 60000,
    "group.share.min.delivery.count.limit": 2, "group.share.max.delivery.count.limit": 10,
    "group.share.min.partition.max.record.locks": 100, "group.share.max.partition.max.record.locks": 4000,
    "group.streams.min.session.timeout.ms": 45000, "group.streams.max.session.timeout.ms": 60000,
    "group.streams.min.heartbeat.interval.ms": 5000, "group.streams.max.heartbeat.interval.ms": 15000,
    "group.streams.min.assignment.interval.ms": 0, "group.streams.max.assignment.interval.ms": 15000,
    "group.streams.max.standby.replicas": 2, "group.streams.min.task.offset.interval.ms": 15000,
    "group.streams.max.warmup.replicas": 20,
}


def refusal(overrides: dict[str, str], props: dict[str, str]) -> str | None:
    try:
        validate(overrides, broker_values(KafkaConfig(props)))
    except KafkaError as e:
        assert e.code == ErrorCode.INVALID_CONFIG
        return e.message
    return None


def start_up_error(props: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as e:
        KafkaConfig(props)
    return str(e.value)


def test_every_bound_is_a_broker_config_at_kafka_44s_default() -> None:
    config = KafkaConfig({})
    assert {k for pair in BOUNDS.values() for k in pair if k} == KAFKA_44_DEFAULTS.keys()
    assert {k: config[k] for k in KAFKA_44_DEFAULTS} == KAFKA_44_DEFAULTS


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_group_config_is_validated_against_the_configured_bound(name: str) -> None:
    """Each bounded group key, against a broker whose bound is narrower than Kafka's default:
    a value within the default bound but outside the configured one is refused."""
    low, high = BOUNDS[name]
    if high is not None:
        narrowed = KAFKA_44_DEFAULTS[high] - 1
        props = {high: str(narrowed)}
        value = KAFKA_44_DEFAULTS[high]
        expected = (f"{name} must be in the range {KAFKA_44_DEFAULTS[low]} to {narrowed} inclusive."
                    if low is not None else f"{name} must be less than or equal to {narrowed}")
    else:
        assert low is not None
        narrowed = KAFKA_44_DEFAULTS[low] + 1
        props, value = {low: str(narrowed)}, KAFKA_44_DEFAULTS[low]
        expected = f"{name} must be greater than or equal to {narrowed}"
    assert refusal({name: str(value)}, {}) is None  # within Kafka's default bound
    assert refusal({name: str(value)}, props) == expected


def test_a_session_timeout_within_narrowed_bounds_is_taken() -> None:
    """The other way: bounds opened beyond Kafka's defaults let a group take a value the
    defaults refuse, as the member's heartbeat interval then shows (GroupConfigManager)."""
    props = {"group.consumer.min.heartbeat.interval.ms": "1000", "group.consumer.min.session.timeout.ms": "6000"}
    overrides = {"consumer.heartbeat.interval.ms": "2000", "consumer.session.timeout.ms": "6000"}
    assert refusal(overrides, {}) == "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive."
    assert refusal(overrides, props) is None
    manager = GroupConfigManager(broker_values(KafkaConfig(props)))
    manager.update("g", overrides)
    assert manager.int_value("g", "consumer.heartbeat.interval.ms", 5000) == 2000
    # A stored value the broker's bounds no longer allow is clamped into them.
    manager = GroupConfigManager(broker_values(KafkaConfig({})))
    manager.update("g", overrides)
    assert manager.int_value("g", "consumer.heartbeat.interval.ms", 5000) == 5000


def test_the_broker_refuses_bounds_its_own_group_keys_break() -> None:
    # Kafka 4.4's GroupCoordinatorConfig and ShareGroupConfig requirements, in their words.
    assert start_up_error({"group.consumer.heartbeat.interval.ms": "500"}) == \
        "group.consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"
    assert start_up_error({"group.consumer.max.session.timeout.ms": "40000"}) == \
        "group.consumer.max.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
    assert start_up_error({"group.share.max.session.timeout.ms": "44000"}) == \
        "group.share.max.session.timeout.ms must be greater than or equal to group.share.min.session.timeout.ms"
    assert start_up_error({"group.streams.session.timeout.ms": "61000"}) == \
        "group.streams.session.timeout.ms must be less than or equal to group.streams.max.session.timeout.ms"
    assert start_up_error({"group.consumer.min.heartbeat.interval.ms": "1", "group.consumer.heartbeat.interval.ms":
                           "15000", "group.consumer.max.session.timeout.ms": "60000",
                           "group.consumer.min.session.timeout.ms": "1", "group.consumer.session.timeout.ms":
                           "15000"}) == \
        "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms"
    assert start_up_error({"group.streams.max.standby.replicas": "0", "group.streams.num.standby.replicas": "1"}) == \
        "group.streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas"
    assert start_up_error({"group.share.max.delivery.count.limit": "5", "group.share.delivery.count.limit": "6"}) == \
        "group.share.max.delivery.count.limit must be greater than or equal to group.share.delivery.count.limit"
    assert start_up_error({"group.share.min.record.lock.duration.ms": "30000",
                           "group.share.record.lock.duration.ms": "20000"}) == \
        "group.share.record.lock.duration.ms must be greater than or equal to group.share.min.record.lock.duration.ms"
    # The bounds' own validators (ConfigDef.Range.atLeast / between).
    assert start_up_error({"group.share.max.delivery.count.limit": "30"}) == \
        "Invalid value 30 for configuration group.share.max.delivery.count.limit: Value must be no more than 25"
    assert start_up_error({"group.consumer.min.session.timeout.ms": "0"}) == \
        "Invalid value 0 for configuration group.consumer.min.session.timeout.ms: Value must be at least 1"
    # Lowered together, the broker's own keys may go below Kafka's default bounds.
    lowered = KafkaConfig({"group.consumer.min.heartbeat.interval.ms": "500",
                           "group.consumer.heartbeat.interval.ms": "500"})
    assert lowered["group.consumer.heartbeat.interval.ms"] == 500
