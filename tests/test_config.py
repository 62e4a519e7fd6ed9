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


def test_described_keys_as_kafka():
    """The broker resource lists what Kafka 3.9.2's ConfigHelper.allConfigs does: every
    non-internal KafkaConfig key (315; the differential suite compares them with a real broker),
    with Kafka's type and default, and every key server.properties sets, as written; node.id
    follows broker.id; listener overrides take their base key's type and synonyms."""
    cfg = KafkaConfig({"broker.id": "4", "metrics.http.listener": "", "listener.name.plaintext.max.connections": "9",
                       "listener.name.client.ssl.keystore.password": "secret", "background.threads": "3"})
    described = cfg.described()
    assert len([n for n in described if not n.startswith("listener.name.")]) == 316  # 315 + metrics.http.listener
    assert "cluster.id" not in described and "producer.id.expiration.check.interval.ms" not in described
    assert (described["node.id"], cfg.synonyms("node.id")) == ("4", [("node.id", "4", 4), ("node.id", "-1", 5)])
    assert described["inter.broker.protocol.version"] == "3.9-IV0"
    assert described["listener.security.protocol.map"] == "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL," \
                                                          "SASL_PLAINTEXT:SASL_PLAINTEXT"
    assert (described["ssl.cipher.suites"], cfg.synonyms("ssl.cipher.suites")) == ("", [("ssl.cipher.suites", "", 5)])
    assert (described["background.threads"], config_type("background.threads")) == ("3", "INT")
    assert cfg.synonyms("background.threads") == [("background.threads", "3", 4), ("background.threads", "10", 5)]
    assert (described["zookeeper.ssl.client.enable"], described["sasl.jaas.config"]) == ("false", None)
    assert cfg.synonyms("listener.name.plaintext.max.connections") == [
        ("listener.name.plaintext.max.connections", "9", 4), ("max.connections", "2147483647", 5)]
    assert [config_type(n) for n in ("listener.name.client.ssl.keystore.password",
                                     "listener.name.client.plain.sasl.jaas.config", "ssl.keystore.certificate.chain",
                                     "inter.broker.protocol.version", "log.cleaner.min.cleanable.ratio")] == \
        ["PASSWORD", "PASSWORD", "PASSWORD", "STRING", "DOUBLE"]


def test_metrics_http_listener():
    assert KafkaConfig({}).metrics_listener is None  # off by default
    assert KafkaConfig({"metrics.http.listener": "127.0.0.1:9404"}).metrics_listener == ("127.0.0.1", 9404)
    assert KafkaConfig({"metrics.http.listener": ":9404"}).metrics_listener == ("", 9404)
    for bad in ("9404", "127.0.0.1:port", "127.0.0.1:70000", "http://127.0.0.1"):
        with pytest.raises(ConfigError, match="metrics.http.listener"):
            KafkaConfig({"metrics.http.listener": bad})


def test_java_properties_forms():
    """java.util.Properties' forms: `key value`, `key:value`, escaped separators and unicode,
    continuation lines with their leading blanks dropped."""
    text = ("num.partitions 4\nbroker.id:7\nlog.dirs = /a,\\\n    /b\nodd\\=key=v\\u0041\n"
            "  # indented comment\nempty=\n")
    assert parse_properties(text) == {"num.partitions": "4", "broker.id": "7", "log.dirs": "/a,/b",
                                      "odd=key": "vA", "empty": ""}


def test_known_kafka_keys_josefk_ignores_warn_honestly(caplog):
    KafkaConfig({"compression.type": "lz4", "log.preallocate": "true", "num.io.threads": "2",
                 "background.threads": "4", "no.such.key": "1"})
    text = caplog.text
    for applied in ("compression.type", "log.preallocate", "num.io.threads"):
        assert applied not in text
    assert "The configuration 'background.threads' is a Kafka broker config that is not applied by josefk." in text
    assert "The configuration 'no.such.key' was supplied but isn't a known config." in text


def test_dynamic_configs_overlay_static_in_kafkas_precedence():
    """Per broker over cluster default over server.properties over Kafka's default; synonyms
    listed by source as ConfigHelper.configSynonyms does; the "" resource shows only defaults."""
    cfg = KafkaConfig({"log.retention.hours": "2", "message.max.bytes": "5000"})
    cfg.set_dynamic({"log.retention.ms": "60000"}, {"log.retention.ms": "120000", "message.max.bytes": "7000",
                                                    "num.io.threads": "4", "no.such": "1"})
    assert cfg.topic_defaults()["retention.ms"] == "60000"
    assert cfg.topic_defaults()["max.message.bytes"] == "7000"
    assert cfg["message.max.bytes"] == 7000
    assert cfg["num.io.threads"] == 8  # a dynamic key josefk does not apply keeps its static value
    assert cfg.synonyms("log.retention.ms") == [("log.retention.ms", "60000", 2), ("log.retention.ms", "120000", 3),
                                                ("log.retention.hours", "2", 4), ("log.retention.hours", "168", 5)]
    assert cfg.synonyms("log.retention.ms", per_broker=False) == [("log.retention.ms", "120000", 3)]
    assert cfg.synonyms("message.max.bytes") == [("message.max.bytes", "7000", 3), ("message.max.bytes", "5000", 4),
                                                 ("message.max.bytes", "1048588", 5)]
    assert cfg.topic_synonyms("retention.ms", {}, "60000")[0] == ("log.retention.ms", "60000", 2)
    assert "no.such" not in cfg.dynamic_default
    cfg.set_dynamic({}, {"log.retention.ms": "soon"})  # written by another tool: dropped, not fatal
    assert cfg.topic_defaults()["retention.ms"] == str(2 * 3_600_000)


def test_read_only_and_dynamic_validation_as_kafka():
    cfg = KafkaConfig({})
    # Kafka's DynamicBrokerConfig.AllDynamicConfigs, whether or not josefk applies the key at run time
    assert [cfg.read_only(n) for n in ("log.retention.ms", "message.max.bytes", "log.cleanup.policy",
                                       "num.partitions", "log.retention.hours", "num.io.threads",
                                       "advertised.listeners", "listeners", "ssl.keystore.location",
                                       "listener.name.client.max.connections")] == [
        False, False, False, True, True, False, False, False, False, True]
    assert cfg.dynamic_config_problem({"log.retention.ms": "1", "no.such.key": "x"}) is None
    assert cfg.dynamic_config_problem({"num.partitions": "2", "broker.id": "3"}) == \
        "Cannot update these configs dynamically: Set(broker.id, num.partitions)"
    assert cfg.dynamic_config_problem({"message.max.bytes": "big"}) == \
        "Invalid value big for configuration message.max.bytes: Not a number of type INT"
    problem = cfg.dynamic_config_problem({"log.cleaner.threads": "2"})
    assert problem is not None and "not applied at run time by josefk" in problem


def test_replication_throttle_rates_are_kept_described_and_read_per_broker():
    """kafka-reassign-partitions --throttle sets Kafka's DynamicConfig.Broker rates on every
    broker of a move: josefk stores them and answers them as Kafka 3.9 does (read-only,
    LONG, with their synonyms); its quotas take the broker's own, never the cluster default's
    (Kafka's BrokerConfigHandler)."""
    cfg = KafkaConfig({})
    rate = "leader.replication.throttled.rate"
    assert cfg.dynamic_config_problem({rate: "10000", "follower.replication.throttled.rate": "10000"}) is None
    assert cfg.dynamic_config_problem({rate: "fast"}) == f"Invalid value fast for configuration {rate}: " \
                                                         "Not a number of type LONG"
    assert cfg.dynamic_config_problem({rate: "-1"}) == f"Invalid value -1 for configuration {rate}: " \
                                                       "Value must be at least 0"
    cfg.set_dynamic({rate: "10000"}, {rate: "5000", "replica.alter.log.dirs.io.max.bytes.per.second": "7"})
    assert cfg.dynamic_broker == {rate: "10000"} and cfg.read_only(rate) and config_type(rate) == "LONG"
    assert cfg.synonyms(rate) == [(rate, "10000", 2), (rate, "5000", 3)]
    assert cfg.replication_throttled_rates() == (10000.0, float(2**63 - 1), float(2**63 - 1))
    assert config_type("log.preallocate") == "BOOLEAN"


def test_transaction_verification_switch_is_dynamic():
    """transaction.partition.verification.enable is a dynamic broker config in Kafka
    (DynamicProducerStateManagerConfig); josefk reads it at each produce."""
    key = "transaction.partition.verification.enable"
    cfg = KafkaConfig({})
    assert (cfg[key], cfg.read_only(key)) == (True, False)
    assert cfg.dynamic_config_problem({key: "false"}) is None
    cfg.set_dynamic({key: "false"}, {})
    assert cfg[key] is False


def test_typed_reads_name_every_key_by_its_parsed_type() -> None:
    """server/config_keys.py types each KafkaConfig[name] read; a key added to the table, or
    one whose type or default changes, must move there too, or its reads go untyped."""
    from typing import get_args

    from josefk.server import config, config_keys

    kinds = {"_int": "Int", "_str": "Str", "_bool": "Bool", "_list": "List", "_int_map": "IntMap",
             "_host_port": "HostPort", "parse": "ProtocolVersion"}
    expected: dict[str, set[str]] = {}
    for key in config._KEYS:
        kind = kinds[key.parse.__name__]
        optional = "Optional" if key.default is None and kind in ("Int", "Str", "List") else ""
        expected.setdefault(f"{optional}{kind}Key", set()).add(key.name)
    declared = {name: set(get_args(getattr(config_keys, name))) for name in expected}
    assert declared == expected
    assert KafkaConfig({})["num.partitions"] == 1 and KafkaConfig({})["log.roll.ms"] is None


def test_advertised_listeners_dynamic_validation_as_kafka():
    """A per-broker advertised.listeners is checked as Kafka 3.9.2 checks it (its messages, probed:
    the parse, then KafkaConfig.validateValues' order); at the cluster default it is refused."""
    cfg = KafkaConfig({"listeners": "PLAINTEXT://127.0.0.1:9092,EXTERNAL://127.0.0.1:9093",
                       "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT,SSL:SSL",
                       "inter.broker.listener.name": "PLAINTEXT"})

    def problem(value: str, per_broker: bool = True) -> str | None:
        return cfg.dynamic_config_problem({"advertised.listeners": value}, per_broker)

    for ok in ("PLAINTEXT://localhost:9092", " plaintext://localhost:9092 , EXTERNAL://[::1]:9093 ",
               "PLAINTEXT://localhost:9092,,EXTERNAL://my_host:-1", "PLAINTEXT://:99999"):
        assert problem(ok) is None, ok
    assert problem("PLAINTEXT://localhost:9092", per_broker=False) == (
        "Cannot update these configs at default cluster level, broker id must be specified: Set(advertised.listeners)")
    assert cfg.dynamic_config_problem({"listeners": "PLAINTEXT://127.0.0.1:9092"}, per_broker=False) == (
        "Cannot update these configs at default cluster level, broker id must be specified: Set(listeners)")
    assert problem("FOO://localhost:1,FOO://localhost:2") == (
        "Error creating broker listeners from 'FOO://localhost:1,FOO://localhost:2': "
        "No security protocol defined for listener FOO")
    assert problem("garbage") == "Error creating broker listeners from 'garbage': Unable to parse garbage to a " \
                                 "broker endpoint"
    assert problem("PLAINTEXT://localhost:9092x") == ("Error creating broker listeners from 'PLAINTEXT://localhost:"
                                                      "9092x': Unable to parse PLAINTEXT://localhost:9092x to a broker "
                                                      "endpoint")
    assert problem("SSL://a:1,SSL://b:2") == \
        "requirement failed: Each listener must have a different name, listeners: SSL://a:1,SSL://b:2"
    assert problem("   ") == "requirement failed: There must be at least one broker advertised listener."
    assert problem("EXTERNAL://localhost:9093") == (
        "requirement failed: inter.broker.listener.name must be a listener name defined in advertised.listeners. "
        "The valid options based on currently configured listeners are EXTERNAL")
    assert problem("PLAINTEXT://localhost:9092,SSL://localhost:1") == (
        "requirement failed: advertised.listeners listener names must be equal to or a subset of the ones defined "
        "in listeners. Found PLAINTEXT,SSL. The valid options based on the current configuration are "
        "PLAINTEXT,EXTERNAL")
    assert problem("PLAINTEXT://0.0.0.0:9092") == (
        "requirement failed: advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. "
        "Use a routable IP address.")
    # listeners and the protocol map stay refused per broker (josefk does not rebind at run time)
    assert "not applied at run time by josefk" in (cfg.dynamic_config_problem({"listeners": "PLAINTEXT://:1"}) or "")


def test_dynamic_advertised_listeners_are_registered_and_an_invalid_one_dropped():
    cfg = KafkaConfig({"listeners": "PLAINTEXT://127.0.0.1:9092", "advertised.listeners": "PLAINTEXT://static:9092"})
    cfg.set_dynamic({"advertised.listeners": "PLAINTEXT://localhost:9094"}, {})
    assert cfg.advertised_for("PLAINTEXT") == ("localhost", 9094)
    assert cfg.described()["advertised.listeners"] == "PLAINTEXT://localhost:9094"
    assert cfg.synonyms("advertised.listeners")[0] == ("advertised.listeners", "PLAINTEXT://localhost:9094", 2)
    cfg.set_dynamic({}, {})  # deleted: server.properties' again
    assert cfg.advertised_for("PLAINTEXT") == ("static", 9092)
    # Written by another tool: one Kafka would refuse is dropped, as is one at the cluster default.
    cfg.set_dynamic({"advertised.listeners": "FOO://localhost:1"}, {"advertised.listeners": "PLAINTEXT://d:1"})
    assert "advertised.listeners" not in cfg.dynamic_broker and "advertised.listeners" not in cfg.dynamic_default
    assert cfg.advertised_for("PLAINTEXT") == ("static", 9092)
