import pytest

from josefk.server.config import ConfigError, KafkaConfig, parse_properties


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
    assert cfg.static_topic_defaults() == set()
    assert KafkaConfig({"log.retention.hours": "1"}).static_topic_defaults() == {"retention.ms"}
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
