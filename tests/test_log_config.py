"""LogConfig: Kafka topic-config names, defaults, validation and rendering."""

from __future__ import annotations

import pytest

from josefk.log.config import LONG_MAX, TOPIC_CONFIG_NAMES, LogConfig, config_type, from_server_props


def test_defaults_match_kafka() -> None:
    c = LogConfig()
    assert c.segment_bytes == 1073741824
    assert c.segment_ms == 604800000
    assert c.segment_index_bytes == 10485760
    assert c.index_interval_bytes == 4096
    assert c.max_message_bytes == 1048588
    assert c.message_timestamp_type == "CreateTime"
    assert c.flush_messages is None and c.flush_ms is None
    assert c.retention_ms == 604800000 and c.retention_bytes == -1
    assert c.cleanup_policy == "delete" and c.min_insync_replicas == 1
    assert c.file_delete_delay_ms == 60000 and c.preallocate is False


def test_from_props_overlays_defaults() -> None:
    base = LogConfig.from_props({"retention.ms": "1000"})
    c = LogConfig.from_props({"segment.bytes": "2048", "message.timestamp.type": "LogAppendTime",
                              "cleanup.policy": "compact,delete", "preallocate": "TRUE"}, base)
    assert (c.segment_bytes, c.retention_ms, c.preallocate) == (2048, 1000, True)
    assert c.log_append_time and c.compact and c.delete
    assert LogConfig.from_props({"flush.messages": str(LONG_MAX)}).flush_messages is None
    assert LogConfig.from_props({"flush.ms": "500"}).flush_ms == 500


@pytest.mark.parametrize("key,value", [
    ("segment.bytes", "-5"), ("segment.bytes", "13"), ("segment.bytes", "abc"), ("segment.bytes", "3000000000"),
    ("segment.ms", "0"), ("flush.messages", "0"), ("retention.ms", "-2"), ("min.insync.replicas", "0"),
    ("message.timestamp.type", "Wallclock"), ("cleanup.policy", "shred"), ("preallocate", "yes"),
    ("min.cleanable.dirty.ratio", "1.5"), ("compression.type", "brotli"),
])
def test_invalid_values_name_the_key(key: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"Invalid value {value} for configuration {key}"):
        LogConfig.from_props({key: value})


def test_unknown_key() -> None:
    with pytest.raises(ValueError, match="Unknown topic config name: segment.size"):
        LogConfig.from_props({"segment.size": "1"})


def test_to_props_round_trip() -> None:
    c = LogConfig.from_props({"segment.bytes": "4096", "flush.ms": "10", "cleanup.policy": "compact"})
    props = c.to_props()
    assert set(props) == TOPIC_CONFIG_NAMES
    assert props["flush.messages"] == str(LONG_MAX)
    assert props["preallocate"] == "false"
    assert LogConfig.from_props(props) == c
    assert c.diff_props(LogConfig()) == {"segment.bytes": "4096", "flush.ms": "10", "cleanup.policy": "compact"}


def test_from_server_props() -> None:
    c = from_server_props({"log.segment.bytes": "1000", "log.retention.hours": "2", "log.roll.hours": "1"})
    assert (c.segment_bytes, c.retention_ms, c.segment_ms) == (1000, 7200000, 3600000)
    assert from_server_props({"log.retention.ms": "5", "log.retention.hours": "2"}).retention_ms == 5


def test_tiered_storage_disable_flags_are_accepted_and_inert() -> None:
    """Kafka 3.9's remote.log.copy.disable / remote.log.delete.on.disable (KIP-950): listed with
    default false, validated as booleans and kept, though josefk has no tiered storage."""
    assert {k: LogConfig().to_props()[k] for k in ("remote.log.copy.disable", "remote.log.delete.on.disable")} \
        == {"remote.log.copy.disable": "false", "remote.log.delete.on.disable": "false"}
    c = LogConfig.from_props({"remote.log.copy.disable": "true", "remote.log.delete.on.disable": "TRUE"})
    assert c.diff_props(LogConfig()) == {"remote.log.copy.disable": "true", "remote.log.delete.on.disable": "true"}
    with pytest.raises(ValueError, match="Invalid value yes for configuration remote.log.copy.disable"):
        LogConfig.from_props({"remote.log.copy.disable": "yes"})


def test_config_types_as_kafka() -> None:
    assert [config_type(n) for n in ("segment.bytes", "retention.ms", "flush.ms", "preallocate", "compression.type",
                                     "cleanup.policy", "min.cleanable.dirty.ratio",
                                     "leader.replication.throttled.replicas")] == \
        ["INT", "LONG", "LONG", "BOOLEAN", "STRING", "LIST", "DOUBLE", "LIST"]


@pytest.mark.parametrize("raw", ["1_000", "1 000", "0x10", "2147483648"])
def test_numbers_parse_as_java_does(raw: str) -> None:
    """Topic and broker configs share one parse check: Python's int() would take 1_000, Java does not."""
    expected = f"Invalid value {raw} for configuration segment.bytes: Not a number of type INT"
    with pytest.raises(ValueError, match=expected):
        LogConfig.from_props({"segment.bytes": raw})
