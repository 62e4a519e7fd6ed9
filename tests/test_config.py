import pytest

from josefk.server.config import ConfigError, KafkaConfig, config_type, parse_properties


def test_properties_file_syntax():
    text = "# comment\n! also\nbroker.id=3\nlisteners : PLAINTEXT://127.0.0.1:9093\nlog.dirs=/a,\\\n  /b\n"
    assert parse_properties(text) == {"broker.id": "3", "listeners": "PLAINTEXT://127.0.0.1:9093",
                                      "log.dirs": "/a,/b"}


def test_kafka_defaults_and_typed_values():
    cfg = KafkaConfig({"log.dirs": "/tmp/x,/tmp/y", "num.partitions": "4"})
    assert cfg["num.partitions"] == 4
    assert cfg["auto.create.topics.enable"] is True
    assert cfg["message.max.bytes"] == 1048588
    assert cfg["socket.request.max.bytes"] == 104857600
    assert [str(p) for p in cfg.log_dirs] == ["/tmp/x", "/tmp/y"]
    assert cfg.listener == ("127.0.0.1", 9092)
    assert cfg.topic_defaults()["retention.ms"] == str(168 * 3_600_000)
    assert KafkaConfig({"log.retention.hours": "1"}).topic_defaults()["retention.ms"] == "3600000"


def test_invalid_value_names_the_key():
    with pytest.raises(ConfigError, match="num.partitions"):
        KafkaConfig({"num.partitions": "many"})
    with pytest.raises(ConfigError, match="Value must be at least 1"):
        KafkaConfig({"num.io.threads": "0"})
    with pytest.raises(ConfigError, match="log.message.timestamp.type"):
        KafkaConfig({"log.message.timestamp.type": "Wallclock"})
    with pytest.raises(ConfigError, match="listeners"):
        KafkaConfig({"listeners": "SSL://127.0.0.1:9093"})


def test_unknown_key_warns_but_starts(caplog):
    KafkaConfig({"no.such.key": "1"})
    assert "no.such.key" in caplog.text


def test_describe_configs_synonyms_as_kafka():
    """Kafka's ConfigHelper: a key's synonyms set in server.properties (source 4), then those
    with a default (5), from the first entry for the key itself; a topic config's own override
    (1) comes first, then the synonyms of the broker key it falls back to."""
    cfg = KafkaConfig({"num.partitions": "3", "log.retention.hours": "2"})
    assert cfg.synonyms("num.partitions") == [("num.partitions", "3", 4), ("num.partitions", "1", 5)]
    assert cfg.synonyms("message.max.bytes") == [("message.max.bytes", "1048588", 5)]
    assert cfg.synonyms("log.retention.hours") == [("log.retention.hours", "2", 4), ("log.retention.hours", "168", 5)]
    assert cfg.synonyms("log.retention.ms") == []  # Kafka drops the hours entries before a log.retention.ms one
    assert cfg.topic_synonyms("retention.ms", {}, "7200000") == []
    assert cfg.topic_synonyms("cleanup.policy", {}, "delete") == [("log.cleanup.policy", "delete", 5)]
    assert cfg.topic_synonyms("cleanup.policy", {"cleanup.policy": "compact"}, "compact") == [
        ("cleanup.policy", "compact", 1), ("log.cleanup.policy", "delete", 5)]
    assert cfg.topic_synonyms("delete.retention.ms", {}, "86400000") == [
        ("log.cleaner.delete.retention.ms", "86400000", 5)]
    assert cfg.topic_synonyms("leader.replication.throttled.replicas", {}, "") == []


def test_config_types_as_kafka():
    assert [config_type(n) for n in ("num.partitions", "auto.create.topics.enable", "log.retention.bytes",
                                     "offsets.topic.replication.factor", "log.cleanup.policy", "zookeeper.connect",
                                     "cluster.id", "no.such.key")] == \
        ["INT", "BOOLEAN", "LONG", "SHORT", "LIST", "STRING", "UNKNOWN", "UNKNOWN"]


def test_metrics_http_listener():
    assert KafkaConfig({}).metrics_listener is None  # off by default
    assert KafkaConfig({"metrics.http.listener": "127.0.0.1:9404"}).metrics_listener == ("127.0.0.1", 9404)
    assert KafkaConfig({"metrics.http.listener": ":9404"}).metrics_listener == ("", 9404)
    for bad in ("9404", "127.0.0.1:port", "127.0.0.1:70000", "http://127.0.0.1"):
        with pytest.raises(ConfigError, match="metrics.http.listener"):
            KafkaConfig({"metrics.http.listener": bad})
