"""server.properties: Kafka's broker keys, defaults and validation (KafkaConfig).

Unknown keys warn, as Kafka does; an invalid value stops start-up with a message naming
the key, so a typo cannot silently run a broker with a default the operator did not want.
Dynamic broker configs (Kafka's DynamicBrokerConfig) overlay server.properties: a broker's
own (/config/brokers/<id>) over the cluster default (/config/brokers/<default>) over the
static file over Kafka's defaults; set_dynamic takes them when the store says they changed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from jproperties import Properties

from josefk.clients.network_client import ClientSecurity
from josefk.coordinator.group_config import BROKER_DEFAULTS as GROUP_BROKER_DEFAULTS
from josefk.coordinator.group_config import broker_problem
from josefk.log.config import SERVER_DEFAULT_NAMES, LogConfig, from_server_props, validate_server_default
from josefk.log.config import config_type as topic_config_type
from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.server.config_keys import (
    BoolKey,
    HostPortKey,
    IntKey,
    IntMapKey,
    ListKey,
    OptionalIntKey,
    OptionalListKey,
    OptionalStrKey,
    ProtocolVersionKey,
    StrKey,
)
from josefk.server.kafka_broker_defaults import KAFKA_UNAPPLIED_DEFAULTS
from josefk.server.kafka_broker_keys import KAFKA_BROKER_KEYS, KAFKA_DYNAMIC_KEYS
from josefk.server.network.connection_quotas import ConnectionLimits
from josefk.server.network.security.oauthbearer import OAUTH_KEYS
from josefk.server.network.security.settings import (
    SECURITY_PROTOCOLS,
    SSL_KEYS,
    Listener,
    ListenerSecurity,
    SecurityConfigError,
    inter_broker_client,
    listener_key_known,
    listener_security,
    parse_listeners,
    unsupported_security_key,
)
from josefk.server.security.delegation_tokens import TokenSettings
from josefk.utils.config_types import invalid_value, type_problem

log = logging.getLogger(__name__)


ACL_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"
KRAFT_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"


class ConfigError(ValueError):
    pass


def _int(value: str) -> int:
    return int(value.strip())


def _bool(value: str) -> bool:
    v = value.strip().lower()
    if v not in ("true", "false"):
        raise ValueError("expected true or false")
    return v == "true"


def _str(value: str) -> str:
    return value.strip()


def _split_host_port(value: str) -> tuple[str, int]:
    host, colon, port = value.rpartition(":")
    if not colon or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError("expected host:port (or empty for off)")
    return host.strip("[]"), int(port)


def _host_port(value: str) -> str:
    """host:port, or empty (off); kept as written, KafkaConfig.metrics_listener splits it."""
    value = value.strip()
    if value:
        _split_host_port(value)
    return value


def _list(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _int_map(value: str) -> dict[str, int]:
    """Kafka's `key:count,key:count` (CoreUtils.parseCsvMap; the last colon splits, so an IPv6
    address may be a key), as max.connections.per.ip.overrides takes it."""
    out: dict[str, int] = {}
    if value == "":
        return out
    for entry in re.split(r"\s*,\s*", value):
        key, colon, count = entry.rpartition(":")
        if not colon:
            raise ValueError(f"expected host:count, found {entry!r}")
        try:
            out[key.strip()] = int(count.strip())
        except ValueError:
            raise ValueError(f'For input string: "{count.strip()}"') from None  # Java's NumberFormatException
    return out


# Kafka's Utils.validHostPattern: the characters a host in max.connections.per.ip.overrides may have.
_VALID_HOST = re.compile(r"[0-9a-zA-Z\-%._:]*")
# The connection quota keys a listener prefix may carry (Kafka's ListenerReconfigurableConfigs).
_LISTENER_QUOTA_KEY = re.compile(r"^listener\.name\.([^.]+)\.(max\.connections|max\.connection\.creation\.rate)$")
# Kafka's connection.failed.authentication.delay.ms default (josefk answers a failed
# authentication at once); connections.max.idle.ms must stay above it.
_FAILED_AUTHENTICATION_DELAY_MS = 100


# What a key's parse gives (None: unset, no default).
ConfigValue = int | bool | str | list[str] | dict[str, int] | InterBrokerProtocol | None


@dataclass(frozen=True)
class Key:
    name: str
    parse: Callable[[str], ConfigValue]
    default: str | None
    at_least: int | None = None
    choices: tuple[str, ...] | None = None
    at_most: int | None = None


# The broker's bounds of the dynamic group configs (Kafka 4.4's GroupCoordinatorConfig and
# ShareGroupConfig): name -> Kafka's validator (at least, no more than); the defaults are
# Kafka 4.4's (coordinator/group_config.py BROKER_DEFAULTS).
_GROUP_BOUNDS: dict[str, tuple[int, int | None]] = {
    **{f"group.{kind}.{side}.{name}": (1, None) for kind in ("consumer", "share", "streams")
       for side in ("min", "max") for name in ("session.timeout.ms", "heartbeat.interval.ms")},
    **{f"group.{kind}.{side}.assignment.interval.ms": (0, None) for kind in ("consumer", "share", "streams")
       for side in ("min", "max")},
    "group.share.min.record.lock.duration.ms": (1000, 30000),
    "group.share.max.record.lock.duration.ms": (30000, 3600000),
    "group.share.min.delivery.count.limit": (2, 5), "group.share.max.delivery.count.limit": (5, 25),
    "group.share.min.partition.max.record.locks": (100, 2000),
    "group.share.max.partition.max.record.locks": (2000, 10000),
    "group.streams.max.standby.replicas": (0, None), "group.streams.min.task.offset.interval.ms": (1, None),
    "group.streams.max.warmup.replicas": (0, None),
}

_KEYS = [
    Key("broker.id", _int, "0", at_least=-1),
    Key("listeners", _list, "PLAINTEXT://127.0.0.1:9092"),
    Key("advertised.listeners", _list, None),
    Key("broker.rack", _str, None),
    Key("log.dirs", _list, None),
    Key("log.dir", _list, "/tmp/kafka-logs"),
    Key("num.partitions", _int, "1", at_least=1),
    Key("default.replication.factor", _int, "1", at_least=1),
    Key("auto.create.topics.enable", _bool, "true"),
    Key("delete.topic.enable", _bool, "true"),
    Key("log.segment.bytes", _int, "1073741824", at_least=14),
    Key("log.index.interval.bytes", _int, "4096", at_least=0),
    Key("log.index.size.max.bytes", _int, "10485760", at_least=4),
    Key("log.roll.ms", _int, None, at_least=1),
    Key("log.roll.hours", _int, "168", at_least=1),
    Key("log.retention.ms", _int, None, at_least=-1),
    Key("log.retention.minutes", _int, None, at_least=-1),
    Key("log.retention.hours", _int, "168", at_least=-1),
    Key("log.retention.bytes", _int, "-1"),
    Key("log.retention.check.interval.ms", _int, "300000", at_least=1),
    Key("log.cleanup.policy", _str, "delete"),
    Key("log.flush.interval.messages", _int, "9223372036854775807", at_least=1),
    Key("log.flush.interval.ms", _int, None, at_least=0),
    Key("log.flush.scheduler.interval.ms", _int, "9223372036854775807", at_least=0),
    Key("log.cleaner.enable", _bool, "true"),
    Key("log.cleaner.backoff.ms", _int, "15000", at_least=0),
    Key("log.message.timestamp.type", _str, "CreateTime", choices=("CreateTime", "LogAppendTime")),
    Key("message.max.bytes", _int, "1048588", at_least=0),
    Key("min.insync.replicas", _int, "1", at_least=1),
    Key("socket.request.max.bytes", _int, "104857600", at_least=1),
    Key("socket.send.buffer.bytes", _int, "102400", at_least=-1),
    Key("socket.receive.buffer.bytes", _int, "102400", at_least=-1),
    Key("num.network.threads", _int, "3", at_least=1),
    Key("num.io.threads", _int, "8", at_least=1),
    Key("num.recovery.threads.per.data.dir", _int, "1", at_least=1),
    Key("queued.max.requests", _int, "500", at_least=1),
    Key("queued.max.request.bytes", _int, "-1", at_least=-1),
    Key("max.connections", _int, "2147483647", at_least=0),
    Key("max.connections.per.ip", _int, "2147483647", at_least=0),
    Key("max.connections.per.ip.overrides", _int_map, ""),
    Key("max.connection.creation.rate", _int, "2147483647", at_least=0),
    Key("connections.max.idle.ms", _int, "600000"),
    Key("request.timeout.ms", _int, "30000", at_least=0),
    Key("quota.window.num", _int, "11", at_least=1),
    Key("quota.window.size.seconds", _int, "1", at_least=1),
    Key("controller.quota.window.num", _int, "11", at_least=1),
    Key("controller.quota.window.size.seconds", _int, "1", at_least=1),
    Key("replication.quota.window.num", _int, "11", at_least=1),
    Key("replication.quota.window.size.seconds", _int, "1", at_least=1),
    Key("alter.log.dirs.replication.quota.window.num", _int, "11", at_least=1),
    Key("alter.log.dirs.replication.quota.window.size.seconds", _int, "1", at_least=1),
    Key("offsets.topic.num.partitions", _int, "50", at_least=1),
    Key("offsets.topic.replication.factor", _int, "3", at_least=1),
    Key("offsets.topic.segment.bytes", _int, "104857600", at_least=1),
    Key("offsets.retention.minutes", _int, "10080", at_least=1),
    Key("offsets.retention.check.interval.ms", _int, "600000", at_least=1),
    Key("offsets.commit.timeout.ms", _int, "5000", at_least=1),
    Key("offset.metadata.max.bytes", _int, "4096", at_least=0),
    Key("group.max.size", _int, "2147483647", at_least=1),
    Key("group.initial.rebalance.delay.ms", _int, "3000", at_least=0),
    Key("group.min.session.timeout.ms", _int, "6000", at_least=0),
    Key("group.max.session.timeout.ms", _int, "1800000", at_least=0),
    Key("group.consumer.session.timeout.ms", _int, "45000", at_least=1),
    Key("group.consumer.heartbeat.interval.ms", _int, "5000", at_least=1),
    Key("group.consumer.max.size", _int, "2147483647", at_least=1),
    Key("group.consumer.migration.policy", _str, "bidirectional",
        choices=("bidirectional", "upgrade", "downgrade", "disabled")),
    Key("group.streams.session.timeout.ms", _int, "45000", at_least=1),
    Key("group.streams.heartbeat.interval.ms", _int, "5000", at_least=1),
    Key("group.streams.max.size", _int, "2147483647", at_least=1),
    Key("group.streams.num.standby.replicas", _int, "0", at_least=0),
    Key("group.streams.initial.rebalance.delay.ms", _int, "3000", at_least=0),
    Key("group.consumer.assignors", _list, "org.apache.kafka.coordinator.group.assignor.UniformAssignor,"
        "org.apache.kafka.coordinator.group.assignor.RangeAssignor"),
    Key("group.share.session.timeout.ms", _int, "45000", at_least=1),
    Key("group.share.heartbeat.interval.ms", _int, "5000", at_least=1),
    Key("group.share.max.size", _int, "200", at_least=1),
    Key("group.share.record.lock.duration.ms", _int, "30000", at_least=1),
    Key("group.share.delivery.count.limit", _int, "5", at_least=2),
    Key("group.share.partition.max.record.locks", _int, "200", at_least=100),  # 3.9.2's; 4.4: 2000
    *(Key(name, _int, GROUP_BROKER_DEFAULTS[name], at_least=low, at_most=high)
      for name, (low, high) in _GROUP_BOUNDS.items()),
    Key("share.coordinator.state.topic.num.partitions", _int, "50", at_least=1),
    Key("share.coordinator.state.topic.replication.factor", _int, "3", at_least=1),
    Key("share.coordinator.state.topic.min.isr", _int, "2", at_least=1),
    Key("share.coordinator.state.topic.segment.bytes", _int, "104857600", at_least=1),
    Key("transaction.state.log.replication.factor", _int, "3", at_least=1),
    Key("transaction.state.log.min.isr", _int, "2", at_least=1),
    Key("transaction.state.log.num.partitions", _int, "50", at_least=1),
    Key("transaction.state.log.segment.bytes", _int, "104857600", at_least=1),
    Key("transaction.max.timeout.ms", _int, "900000", at_least=1),
    Key("transaction.abort.timed.out.transaction.cleanup.interval.ms", _int, "10000", at_least=1),
    Key("transaction.remove.expired.transaction.cleanup.interval.ms", _int, "3600000", at_least=1),
    Key("transactional.id.expiration.ms", _int, "604800000", at_least=1),
    Key("transaction.partition.verification.enable", _bool, "true"),
    Key("unstable.feature.versions.enable", _bool, "false"),
    Key("producer.id.expiration.ms", _int, "86400000", at_least=1),
    Key("producer.id.expiration.check.interval.ms", _int, "600000", at_least=1),
    Key("zookeeper.connect", _str, None),
    Key("zookeeper.session.timeout.ms", _int, "18000", at_least=1),
    Key("zookeeper.connection.timeout.ms", _int, None, at_least=1),
    Key("controlled.shutdown.enable", _bool, "true"),
    # Kafka 3.9's MetadataVersion.latestProduction, as Kafka writes it.
    Key("inter.broker.protocol.version", InterBrokerProtocol.parse, "3.9-IV0"),
    Key("controlled.shutdown.max.retries", _int, "3", at_least=0),
    Key("controlled.shutdown.retry.backoff.ms", _int, "5000", at_least=0),
    Key("replica.lag.time.max.ms", _int, "30000", at_least=0),
    Key("replica.fetch.max.bytes", _int, "1048576", at_least=0),
    Key("replica.fetch.wait.max.ms", _int, "500", at_least=0),
    Key("replica.fetch.backoff.ms", _int, "1000", at_least=0),
    Key("num.replica.fetchers", _int, "1", at_least=1),
    Key("max.incremental.fetch.session.cache.slots", _int, "1000", at_least=0),
    Key("unclean.leader.election.enable", _bool, "false"),
    Key("auto.leader.rebalance.enable", _bool, "true"),
    Key("leader.imbalance.check.interval.seconds", _int, "300", at_least=1),
    Key("leader.imbalance.per.broker.percentage", _int, "10", at_least=0),
    Key("cluster.id", _str, None),
    Key("group.coordinator.rebalance.protocols", _list, "classic"),
    Key("authorizer.class.name", _str, ""),
    # AclAuthorizer's own keys (Kafka reads them from the broker's properties too).
    Key("super.users", _str, None),
    Key("allow.everyone.if.no.acl.found", _bool, "false"),
    # josefk's own (Kafka has no HTTP endpoint): Prometheus /metrics, /healthz and /readyz.
    Key("metrics.http.listener", _host_port, ""),
    # Listeners and security (KIP-103 named listeners; SSL and SASL as Kafka 3.9 configures them).
    Key("listener.security.protocol.map", _list,  # in Kafka's order (its default is a map's toString)
        "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT"),
    Key("inter.broker.listener.name", _str, None),
    Key("security.inter.broker.protocol", _str, "PLAINTEXT", choices=SECURITY_PROTOCOLS),
    Key("sasl.enabled.mechanisms", _list, "GSSAPI"),
    Key("sasl.mechanism.inter.broker.protocol", _str, "GSSAPI"),
    Key("connections.max.reauth.ms", _int, "0", at_least=0),
    # Delegation tokens (KIP-48): on when a secret is set (the old name, master.key, too).
    Key("delegation.token.secret.key", _str, None),
    Key("delegation.token.master.key", _str, None),
    Key("delegation.token.max.lifetime.ms", _int, "604800000", at_least=1),
    Key("delegation.token.expiry.time.ms", _int, "86400000", at_least=1),
    Key("delegation.token.expiry.check.interval.ms", _int, "3600000", at_least=1),
    Key("max.request.partition.size.limit", _int, "2000", at_least=1),  # DescribeTopicPartitions' page
    Key("telemetry.max.bytes", _int, "1048576", at_least=1),  # KIP-714 push payloads
    *(Key(name, _str, default) for name, default in SSL_KEYS.items()),
    *(Key(name, _str, default) for name, default in OAUTH_KEYS.items()),
]
KEYS: dict[str, Key] = {k.name: k for k in _KEYS}

# The ConfigDef.Type Kafka's KafkaConfig declares for each key (DescribeConfigs v3+ config_type):
# the parser's type, except where Kafka's differs. cluster.id is not a KafkaConfig key (UNKNOWN).
_PARSER_TYPES: dict[Callable[[str], ConfigValue], str] = {_int: "INT", _bool: "BOOLEAN", _str: "STRING", _list: "LIST",
                                                  _host_port: "STRING", _int_map: "STRING",
                                                  InterBrokerProtocol.parse: "STRING"}
# Kafka's DynamicConfig.Broker keys beyond KafkaConfig's (QuotaConfigs): the replication and
# log dir move throttle rates, which kafka-reassign-partitions --throttle sets on every broker
# of a move. Described as Kafka does (read-only, LONG, at least 0) and applied to the broker's
# ReplicationQuotaManagers (KafkaServer).
BROKER_QUOTA_KEYS = frozenset({"leader.replication.throttled.rate", "follower.replication.throttled.rate",
                               "replica.alter.log.dirs.io.max.bytes.per.second"})

_KAFKA_TYPES: dict[str, str] = {
    **dict.fromkeys(BROKER_QUOTA_KEYS, "LONG"),
    **{name: "LONG" for name in (
        "log.retention.bytes", "log.retention.ms", "log.roll.ms", "log.flush.interval.messages",
        "log.flush.interval.ms", "log.flush.scheduler.interval.ms", "log.retention.check.interval.ms",
        "log.cleaner.backoff.ms", "offsets.retention.check.interval.ms", "queued.max.request.bytes",
        "replica.lag.time.max.ms", "controlled.shutdown.retry.backoff.ms", "leader.imbalance.check.interval.seconds")},
    "offsets.topic.replication.factor": "SHORT", "transaction.state.log.replication.factor": "SHORT",
    "group.share.max.size": "SHORT",
    "listeners": "STRING", "advertised.listeners": "STRING", "log.dirs": "STRING", "log.dir": "STRING",
    "inter.broker.protocol.version": "STRING",
    "log.cleanup.policy": "LIST",
    "cluster.id": "UNKNOWN",
    # Kafka's PASSWORD keys: DescribeConfigs reports them as sensitive, never their values.
    **{name: "PASSWORD" for name in ("ssl.keystore.password", "ssl.key.password", "ssl.truststore.password",
                                     "ssl.keystore.key", "ssl.keystore.certificate.chain",
                                     "ssl.truststore.certificates")},
    "ssl.enabled.protocols": "LIST", "ssl.cipher.suites": "LIST", "listener.security.protocol.map": "STRING",
    "connections.max.reauth.ms": "LONG", "connections.max.idle.ms": "LONG",
    "delegation.token.secret.key": "PASSWORD", "delegation.token.master.key": "PASSWORD",
    **{name: "LONG" for name in ("delegation.token.max.lifetime.ms", "delegation.token.expiry.time.ms",
                                 "delegation.token.expiry.check.interval.ms")},
    **{name: "LONG" for name in OAUTH_KEYS if name.endswith(".ms")},
    "sasl.oauthbearer.clock.skew.seconds": "INT", "sasl.oauthbearer.expected.audience": "LIST",
}


_TOPIC_NAME_OF = {server_name: name for name, server_name in SERVER_DEFAULT_NAMES.items()}


def config_type(name: str) -> str:
    """Kafka's ConfigDef.Type name for broker key `name` ("UNKNOWN" if it has none); a listener
    override (listener.name.<l>.[<mechanism>.]<key>) has its base key's, as KafkaConfig.configType."""
    exact = _exact_config_type(name)
    found = _LISTENER_OVERRIDE.match(name)
    if exact != "UNKNOWN" or found is None:
        return exact
    base = found[2]
    return _exact_config_type(base) if _exact_config_type(base) != "UNKNOWN" else \
        _exact_config_type(base.partition(".")[2])


def _exact_config_type(name: str) -> str:
    key = KEYS.get(name)
    if name in _KAFKA_TYPES:
        return _KAFKA_TYPES[name]
    if key is not None:
        return _PARSER_TYPES.get(key.parse, "UNKNOWN")
    if name in KAFKA_UNAPPLIED_DEFAULTS:
        return KAFKA_UNAPPLIED_DEFAULTS[name][0]
    if name == "node.id":
        return "INT"
    return topic_config_type(_TOPIC_NAME_OF[name]) if name in _TOPIC_NAME_OF else "UNKNOWN"


_LISTENER_OVERRIDE = re.compile(r"^listener\.name\.([^.]+)\.(.+)$")


# Kafka's dynamic connection quota keys (SocketServer.ReconfigurableConfigs), applied to the
# running ConnectionQuotas; with a listener prefix too (listener.name.<l>.max.connections).
CONNECTION_QUOTA_KEYS = frozenset({"max.connections", "max.connections.per.ip", "max.connections.per.ip.overrides",
                                   "max.connection.creation.rate"})
# Kafka's dynamic keys josefk reads at each use (DynamicProducerStateManagerConfig's
# transaction verification switch and producer id expiry).
READ_AT_USE_KEYS = frozenset({"transaction.partition.verification.enable", "producer.id.expiration.ms"})
# The keys josefk changes at run time: Kafka's dynamic broker keys that are topic defaults
# (DynamicLogConfig: log.retention.ms, message.max.bytes, ...), applied to every log without
# a topic override, the connection quotas, and those read at each use. Kafka's other dynamic
# keys (num.io.threads, log.cleaner.threads, ssl.*, ...) size thread pools josefk does not
# have: described as Kafka does (read_only false), but an alter of one is refused.
# advertised.listeners, per broker (Kafka's DynamicListenerConfig in ZooKeeper mode): the broker
# rewrites its /brokers/ids/<id> registration, and the controller tells every broker.
APPLIED_DYNAMIC_KEYS: frozenset[str] = (KAFKA_DYNAMIC_KEYS & frozenset(SERVER_DEFAULT_NAMES.values())
                                        | CONNECTION_QUOTA_KEYS | READ_AT_USE_KEYS | {"advertised.listeners"})
# Kafka 3.9's DynamicBrokerConfig.PerBrokerConfigs less its DynamicSecurityConfigs (which Kafka
# refuses unprefixed at any entity, before this check): DynamicListenerConfig's keys but the
# cluster-level ones (max.connections, max.connection.creation.rate, num.network.threads).
# At the cluster default (resource name "") Kafka refuses them: "Cannot update these configs
# at default cluster level, broker id must be specified".
PER_BROKER_KEYS = frozenset({
    "listeners", "advertised.listeners", "listener.security.protocol.map", "principal.builder.class",
    "ssl.protocol", "ssl.provider", "ssl.cipher.suites", "ssl.enabled.protocols", "ssl.keymanager.algorithm",
    "ssl.trustmanager.algorithm", "ssl.endpoint.identification.algorithm", "ssl.secure.random.implementation",
    "ssl.client.auth", "ssl.engine.factory.class", "sasl.mechanism.inter.broker.protocol", "sasl.jaas.config",
    "sasl.enabled.mechanisms", "sasl.kerberos.service.name", "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.ticket.renew.window.factor", "sasl.kerberos.ticket.renew.jitter",
    "sasl.kerberos.min.time.before.relogin", "sasl.kerberos.principal.to.local.rules",
    "sasl.login.refresh.window.factor", "sasl.login.refresh.window.jitter", "sasl.login.refresh.min.period.seconds",
    "sasl.login.refresh.buffer.seconds"})
# Kafka's SocketServerConfigs.listenerListToEndPoints pattern: NAME://host:port, the host
# optionally in brackets, the port any (signed) int.
_ENDPOINT = re.compile(r"(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)")


def _applied_dynamic(name: str) -> bool:
    return name in APPLIED_DYNAMIC_KEYS or _LISTENER_QUOTA_KEY.match(name) is not None


# Keys josefk applies from server.properties: its own, and every topic default (with the
# hour and minute forms Kafka also reads).
_APPLIED_STATIC_KEYS = frozenset(KEYS) | frozenset(SERVER_DEFAULT_NAMES.values()) | {"log.roll.jitter.hours"}


# DescribeConfigs config sources (Kafka's DescribeConfigsResponse.ConfigSource) josefk reports.
SOURCE_TOPIC_CONFIG = 1
SOURCE_DYNAMIC_BROKER_CONFIG = 2
SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG = 3
SOURCE_STATIC_BROKER_CONFIG = 4
SOURCE_DEFAULT_CONFIG = 5

# Kafka's broker keys that set one value (DynamicBrokerConfig.brokerConfigSynonyms), in precedence order.
_SYNONYM_GROUPS = (("log.roll.ms", "log.roll.hours"), ("log.roll.jitter.ms", "log.roll.jitter.hours"),
                   ("log.retention.ms", "log.retention.minutes", "log.retention.hours"))
_BROKER_SYNONYMS: dict[str, tuple[str, ...]] = {
    **{name: group for group in _SYNONYM_GROUPS for name in group},
    "log.flush.interval.ms": ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
}


def _broker_synonyms(name: str) -> tuple[str, ...]:
    """Kafka's DynamicBrokerConfig.brokerConfigSynonyms (matching listener overrides): a listener
    override listener.name.<l>.<rest> stands for <rest>, and for <rest> less its first part (the
    SASL mechanism of listener.name.<l>.<mechanism>.<key>)."""
    found = _LISTENER_OVERRIDE.match(name)
    if found is None:
        return _BROKER_SYNONYMS.get(name, (name,))
    return name, found[2], found[2].partition(".")[2]


def _static_defaults() -> dict[str, str]:
    """Kafka's KafkaConfig defaults (DEFAULT_CONFIG synonyms), for the keys josefk knows and the
    broker keys topic configs fall back to; keys whose Kafka default is null are absent."""
    defaults = {k.name: k.default for k in _KEYS if k.default is not None}
    topic = LogConfig().to_props()
    for name, server_name in SERVER_DEFAULT_NAMES.items():
        if server_name not in KEYS and server_name != "log.roll.jitter.ms":  # null in Kafka
            defaults.setdefault(server_name, topic[name])
    defaults.update({name: default for name, (_type, default) in KAFKA_UNAPPLIED_DEFAULTS.items()
                     if default is not None})
    defaults["node.id"] = "-1"
    return defaults


_STATIC_DEFAULTS = _static_defaults()

# Keys Kafka describes only when server.properties sets them (ConfigHelper.allConfigs lists the
# originals and the non-internal KafkaConfig keys): josefk's own, AclAuthorizer's, Kafka's internal.
_UNLISTED_KEYS = (frozenset(KEYS) - KAFKA_BROKER_KEYS) | {"producer.id.expiration.check.interval.ms",
                                                          "group.consumer.migration.policy",
                                                          "unstable.feature.versions.enable"}
# The non-internal KafkaConfig keys of Kafka 3.9.2, which DescribeConfigs lists for a broker.
DESCRIBED_KEYS: frozenset[str] = ((frozenset(KEYS) - _UNLISTED_KEYS) | frozenset(SERVER_DEFAULT_NAMES.values())
                                  | frozenset(KAFKA_UNAPPLIED_DEFAULTS) | {"node.id"})


def _kafka_string(value: ConfigValue, raw: str | None) -> str | None:
    """A parsed value as Kafka's ConfigDef.convertToString writes it; josefk's richer parses
    (a host:count map, an inter-broker protocol) as written."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(value)
    if isinstance(value, (int, str)) or value is None:
        return None if value is None else str(value)
    return raw


def _logged_value(kind: str, value: str | None) -> str:
    """A value as Java's toString prints the parsed one in AbstractConfig.logAll."""
    if value is None:
        return "null"
    if kind == "PASSWORD":
        return "[hidden]"
    if kind == "LIST":
        return "[" + ", ".join(item.strip() for item in value.split(",") if item.strip()) + "]"
    if kind == "CLASS" and value:
        return f"class {value}"
    return value


def default_value(name: str) -> str | None:
    """Kafka's default for broker key `name`, as a string (None: null or unknown)."""
    return _STATIC_DEFAULTS.get(name)


def parse_properties(text: str) -> dict[str, str]:
    """Java .properties as java.util.Properties reads them (`key=value`, `key:value`,
    `key value`, escapes, line continuations, # and ! comments), through jproperties."""
    props = Properties()
    props.load(text, "utf-8")
    return {key: value.data for key, value in props.items()}


def _listener_quotas(props: dict[str, str]) -> dict[str, dict[str, int]]:
    """listener.name.<l>.max.connections and .max.connection.creation.rate, by listener name
    (upper case, as listeners are named), parsed as Kafka parses the unprefixed keys."""
    out: dict[str, dict[str, int]] = {}
    for name, raw in props.items():
        m = _LISTENER_QUOTA_KEY.match(name)
        if m is None:
            continue
        try:
            value = int(raw.strip())
        except ValueError:
            raise ConfigError(f"Invalid value {raw} for configuration {name}: Not a number of type INT") from None
        if value < 0:
            raise ConfigError(f"Invalid value {raw} for configuration {name}: Value must be at least 0")
        out.setdefault(m.group(1).upper(), {})[m.group(2)] = value
    return out


def _validate_connection_limits(values: TypedReads) -> None:
    """KafkaConfig.validateValues' checks on the socket server's limits, in Kafka's words."""
    overrides = values["max.connections.per.ip.overrides"]
    if values["max.connections.per.ip"] == 0 and not overrides:
        raise ConfigError("requirement failed: max.connections.per.ip can be set to zero only if "
                          "max.connections.per.ip.overrides property is set.")
    invalid = [host for host in overrides if not _VALID_HOST.fullmatch(host)]
    if invalid:
        raise ConfigError(f"max.connections.per.ip.overrides contains invalid addresses : {','.join(invalid)}")
    idle = values["connections.max.idle.ms"]
    if idle >= 0 and _FAILED_AUTHENTICATION_DELAY_MS >= idle:
        raise ConfigError(f"requirement failed: connection.failed.authentication.delay.ms="
                          f"{_FAILED_AUTHENTICATION_DELAY_MS} should always be less than connections.max.idle.ms="
                          f"{idle} to prevent failed authentication responses from timing out")
    queued = values["queued.max.request.bytes"]
    if 0 < queued < values["socket.request.max.bytes"]:
        raise ConfigError("requirement failed: queued.max.request.bytes must be larger or equal to "
                          "socket.request.max.bytes")


def parse_advertised_listeners(value: str, protocol_map: dict[str, str]) -> list[Listener]:
    """A dynamic advertised.listeners as Kafka 3.9's KafkaConfig parses it (CoreUtils.listenerListToEndPoints
    without the distinct-port check): ValueError with Kafka's message if it does not parse. Names
    are normalised to upper case; a port is any int (Kafka checks no range here)."""
    value = value.strip()
    listeners: list[Listener] = []
    try:
        for entry in (e for e in re.split(r"\s*,\s*", value) if e):
            found = _ENDPOINT.fullmatch(entry)
            if found is None:
                raise ValueError(f"Unable to parse {entry} to a broker endpoint")
            name = found[1].upper()
            if name not in protocol_map:
                raise ValueError(f"No security protocol defined for listener {name}")
            port = int(found[3])
            if not -2**31 <= port < 2**31:
                raise ValueError(f'For input string: "{found[3]}"')  # Java's NumberFormatException
            listeners.append(Listener(name, found[2], port, protocol_map[name]))
    except ValueError as e:
        raise ValueError(f"Error creating broker listeners from '{value}': {e}") from None
    if len({lis.name for lis in listeners}) != len(listeners):
        raise ValueError(f"requirement failed: Each listener must have a different name, listeners: {value}")
    return listeners


def _validate_dynamic_value(name: str, value: str) -> None:
    """A dynamic value's own check (ValueError): a topic default's, or a connection limit's;
    Kafka's listener connection quotas refuse a limit of 0 at run time (Invalid max.connections 0)."""
    if name in SERVER_DEFAULT_NAMES.values():
        validate_server_default(name, value)
        return
    if name in BROKER_QUOTA_KEYS:
        if not re.fullmatch(r"[+-]?\d+", value.strip()) or not -2**63 <= int(value) < 2**63:
            raise ValueError(f"Invalid value {value} for configuration {name}: Not a number of type LONG")
        if int(value) < 0:
            raise ValueError(f"Invalid value {value} for configuration {name}: Value must be at least 0")
        return
    m = _LISTENER_QUOTA_KEY.match(name)
    base = m.group(2) if m else name
    if base not in CONNECTION_QUOTA_KEYS:
        return
    key = KEYS[base]
    problem = type_problem(config_type(base), value)
    if problem is not None:
        raise ValueError(invalid_value(name, value, problem))
    try:
        parsed = key.parse(value)
    except ValueError as e:
        if key.parse is _int_map:  # Kafka answers with the NumberFormatException's own message
            raise
        raise ValueError(f"Invalid value {value} for configuration {name}: {e}") from None
    if key.at_least is not None and isinstance(parsed, int) and parsed < key.at_least:
        raise ValueError(f"Invalid value {value} for configuration {name}: Value must be at least {key.at_least}")
    if base in ("max.connections", "max.connection.creation.rate") and isinstance(parsed, int) and parsed <= 0:
        # ListenerConnectionQuota.validateReconfiguration's ConfigException, as Kafka wraps it
        raise ValueError(f"Invalid value org.apache.kafka.common.config.ConfigException: Invalid {base} {parsed} "
                         "for configuration Invalid dynamic configuration")


class TypedReads:
    """values[name] typed by the key's kind (server/config_keys.py), as Kafka's AbstractConfig
    has getInt, getBoolean, getString, getList; a name outside the table reads a ConfigValue."""

    values: dict[str, ConfigValue]

    @overload
    def __getitem__(self, name: IntKey) -> int: ...
    @overload
    def __getitem__(self, name: OptionalIntKey) -> int | None: ...
    @overload
    def __getitem__(self, name: BoolKey) -> bool: ...
    @overload
    def __getitem__(self, name: StrKey | HostPortKey) -> str: ...
    @overload
    def __getitem__(self, name: OptionalStrKey) -> str | None: ...
    @overload
    def __getitem__(self, name: ListKey) -> list[str]: ...
    @overload
    def __getitem__(self, name: OptionalListKey) -> list[str] | None: ...
    @overload
    def __getitem__(self, name: IntMapKey) -> dict[str, int]: ...
    @overload
    def __getitem__(self, name: ProtocolVersionKey) -> InterBrokerProtocol: ...
    @overload
    def __getitem__(self, name: str) -> ConfigValue: ...

    def __getitem__(self, name: str) -> ConfigValue:
        return self.values[name]


class ParsedValues(TypedReads):
    """Values parsed from a set of properties, before they become a KafkaConfig's."""

    def __init__(self, values: dict[str, ConfigValue]) -> None:
        self.values = values


class KafkaConfig(TypedReads):
    """Typed broker configuration. Attribute access uses Kafka's names: cfg["log.dirs"]."""

    def token_settings(self) -> TokenSettings:
        """delegation.token.*: Kafka takes secret.key, else the deprecated master.key."""
        return TokenSettings(self["delegation.token.secret.key"] or self["delegation.token.master.key"],
                             self["delegation.token.max.lifetime.ms"], self["delegation.token.expiry.time.ms"],
                             self["delegation.token.expiry.check.interval.ms"])

    listeners: list[Listener]
    advertised: list[Listener]  # advertised.listeners in force: a per-broker dynamic one over static_advertised
    static_advertised: list[Listener]  # server.properties' (or listeners when it sets none)
    listener_security: dict[str, ListenerSecurity]
    inter_broker_security: ClientSecurity

    def __init__(self, props: dict[str, str]) -> None:
        self.originals = dict(props)
        self.dynamic_broker: dict[str, str] = {}  # /config/brokers/<id>, the keys Kafka takes dynamically
        self.dynamic_default: dict[str, str] = {}  # /config/brokers/<default>
        for name in props:
            problem = unsupported_security_key(name, props[name])
            if problem:
                raise ConfigError(problem)
            if name in _APPLIED_STATIC_KEYS or listener_key_known(name) or _LISTENER_QUOTA_KEY.match(name):
                continue
            if name in KAFKA_BROKER_KEYS:
                log.warning("The configuration '%s' is a Kafka broker config that is not applied by josefk.", name)
            else:
                log.warning("The configuration '%s' was supplied but isn't a known config.", name)
        self.values = self._parse(self.originals)
        try:  # the topic defaults (log.retention.ms, log.cleaner.min.cleanable.ratio, ...), as Kafka checks them
            for name in SERVER_DEFAULT_NAMES.values() & self.originals.keys():
                validate_server_default(name, self.originals[name])
            from_server_props(self.originals)  # and the hour and minute forms
        except ValueError as e:
            raise ConfigError(str(e)) from None
        self._validate_listeners()
        self._validate_authorizer()
        group_problem = broker_problem(lambda name: str(self.values[name]) if name in KEYS
                                      else GROUP_BROKER_DEFAULTS[name])
        if group_problem is not None:
            raise ConfigError(group_problem)
        self.listener_quotas = _listener_quotas(self.originals)
        _validate_connection_limits(self)

    @staticmethod
    def _parse(props: dict[str, str]) -> dict[str, ConfigValue]:
        values: dict[str, ConfigValue] = {}
        for key in _KEYS:
            raw = props.get(key.name, key.default)
            if raw is None:
                values[key.name] = None
                continue
            problem = type_problem(config_type(key.name), raw)
            if problem is not None:
                raise ConfigError(invalid_value(key.name, raw, problem))
            try:
                value = key.parse(raw)
            except ValueError as e:
                raise ConfigError(invalid_value(key.name, raw, str(e))) from None
            if key.at_least is not None and isinstance(value, int) and value < key.at_least:
                raise ConfigError(
                    f"Invalid value {raw} for configuration {key.name}: Value must be at least {key.at_least}"
                )
            if key.at_most is not None and isinstance(value, int) and value > key.at_most:
                raise ConfigError(
                    f"Invalid value {raw} for configuration {key.name}: Value must be no more than {key.at_most}")
            if key.choices is not None and value not in key.choices:
                raise ConfigError(
                    f"Invalid value {raw} for configuration {key.name}: String must be one of: "
                    + ", ".join(key.choices)
                )
            values[key.name] = value
        return values

    def effective_props(self) -> dict[str, str]:
        """server.properties overlaid with the dynamic keys josefk applies, in Kafka's precedence."""
        applied = [{k: v for k, v in d.items() if _applied_dynamic(k)}
                   for d in (self.dynamic_default, self.dynamic_broker)]
        return {**self.originals, **applied[0], **applied[1]}

    def set_dynamic(self, per_broker: dict[str, str], cluster_default: dict[str, str]) -> None:
        """Take the dynamic configs read from the store (only Kafka's dynamic keys count); on a
        ConfigError the broker keeps the configs it had. A per-broker advertised.listeners
        becomes `advertised` (what the broker registers)."""
        old = self.dynamic_broker, self.dynamic_default
        self.dynamic_broker = self._valid_dynamic(per_broker, "broker")
        self.dynamic_default = self._valid_dynamic(cluster_default, "cluster default")
        advertised = self.static_advertised
        if "advertised.listeners" in self.dynamic_broker:
            dynamic = self._dynamic_advertised(self.dynamic_broker["advertised.listeners"])
            if dynamic is None:
                del self.dynamic_broker["advertised.listeners"]
            else:
                advertised = dynamic
        try:
            effective = self.effective_props()
            values = self._parse(effective)
            listener_quotas = _listener_quotas(effective)
            _validate_connection_limits(ParsedValues(values))
        except ConfigError:
            self.dynamic_broker, self.dynamic_default = old
            raise
        self.values, self.listener_quotas, self.advertised = values, listener_quotas, advertised

    def _dynamic_advertised(self, value: str) -> list[Listener] | None:
        """A stored per-broker advertised.listeners, parsed; None (with a warning, as Kafka's
        DynamicBrokerConfig drops what it cannot apply) if Kafka would refuse it."""
        problem = self.advertised_listeners_problem(value)
        if problem is not None:
            log.warning("Dropping invalid dynamic broker config advertised.listeners: %s", problem)
            return None
        return parse_advertised_listeners(value, self.protocol_map)

    def advertised_listeners_problem(self, value: str) -> str | None:
        """Why Kafka 3.9 refuses this broker's advertised.listeners set to `value` (its parse,
        then KafkaConfig.validateValues' checks in their order), in Kafka's words; None if it
        takes it. listeners, the protocol map and the inter-broker listener are this broker's:
        they are not dynamic in josefk."""
        try:
            advertised = parse_advertised_listeners(value, self.protocol_map)
        except ValueError as e:
            return str(e)
        names = list(dict.fromkeys(lis.name for lis in advertised))
        if not names:
            return "requirement failed: There must be at least one broker advertised listener."
        if self.inter_broker_listener not in names:
            return (f"requirement failed: inter.broker.listener.name must be a listener name defined in "
                    f"advertised.listeners. The valid options based on currently configured listeners are "
                    f"{','.join(names)}")
        listener_names = [lis.name for lis in self.listeners]
        if not set(names) <= set(listener_names):
            return (f"requirement failed: advertised.listeners listener names must be equal to or a subset of the "
                    f"ones defined in listeners. Found {','.join(names)}. The valid options based on the current "
                    f"configuration are {','.join(listener_names)}")
        if any(lis.host == "0.0.0.0" for lis in advertised):
            return ("requirement failed: advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. "
                    "Use a routable IP address.")
        return None

    def replication_throttled_rates(self) -> tuple[float, float, float]:
        """The leader, follower and log dir move throttles, bytes/s (Kafka's BrokerConfigHandler:
        this broker's own dynamic config only, not the cluster default; unset is Long.MaxValue)."""
        return tuple(float(self.dynamic_broker.get(name, 2**63 - 1))  # type: ignore[return-value]
                     for name in ("leader.replication.throttled.rate", "follower.replication.throttled.rate",
                                  "replica.alter.log.dirs.io.max.bytes.per.second"))

    @staticmethod
    def _valid_dynamic(configs: dict[str, str], entity: str) -> dict[str, str]:
        """A value that does not parse (written to the store by another tool) is dropped with a
        warning, as Kafka's DynamicBrokerConfig drops invalid dynamic configs instead of failing."""
        kept = {}
        for name, value in configs.items():
            if name not in KAFKA_DYNAMIC_KEYS and name not in BROKER_QUOTA_KEYS and not _applied_dynamic(name):
                continue
            if entity == "cluster default" and name in PER_BROKER_KEYS:
                log.warning("Dropping dynamic cluster default config %s: it can only be set per broker", name)
                continue
            try:
                _validate_dynamic_value(name, value)
            except ValueError as e:
                log.warning("Dropping invalid dynamic %s config %s: %s", entity, name, e)
                continue
            kept[name] = value
        return kept

    def dynamic_config_problem(self, props: dict[str, str], per_broker: bool = True) -> str | None:
        """Why a dynamic broker config (an entity's whole new config: this broker's, or with
        `per_broker` false the cluster default's) may not be stored, worded as Kafka's
        DynamicBrokerConfig.validate; None if it may. Keys no broker knows are accepted and
        ignored, as Kafka does."""
        static = sorted(n for n in props if (n in KAFKA_BROKER_KEYS or n in KEYS) and n not in KAFKA_DYNAMIC_KEYS)
        if static:
            return f"Cannot update these configs dynamically: Set({', '.join(static)})"
        per_broker_only = sorted(n for n in props if n in PER_BROKER_KEYS)
        if not per_broker and per_broker_only:
            return ("Cannot update these configs at default cluster level, broker id must be specified: "
                    f"Set({', '.join(per_broker_only)})")
        unapplied = sorted(n for n in props if n in KAFKA_DYNAMIC_KEYS and n not in APPLIED_DYNAMIC_KEYS)
        if unapplied:
            return (f"Cannot update these configs dynamically: Set({', '.join(unapplied)}) "
                    "(dynamic in Kafka, not applied at run time by josefk)")
        for name, value in props.items():
            try:
                _validate_dynamic_value(name, value)
            except ValueError as e:
                return str(e)
        if "advertised.listeners" in props:
            problem = self.advertised_listeners_problem(props["advertised.listeners"])
            if problem is not None:
                return problem
        if any(_applied_dynamic(name) and name not in SERVER_DEFAULT_NAMES.values() for name in props):
            try:  # Kafka validates the whole config the change would make
                merged = {**self.effective_props(), **props}
                _validate_connection_limits(ParsedValues(self._parse(merged)))
                _listener_quotas(merged)
            except ConfigError as e:
                return str(e)
        return None

    def read_only(self, name: str) -> bool:
        """DescribeConfigs' read_only, as Kafka's: false for every key Kafka can change at run time
        (DynamicBrokerConfig.AllDynamicConfigs), whether or not josefk applies it then (an alter
        of one josefk does not apply is refused, naming it: dynamic_config_problem)."""
        return name not in KAFKA_DYNAMIC_KEYS

    def static_props(self) -> dict[str, str]:
        """server.properties as Kafka's KafkaConfig holds it: broker.id also sets node.id
        (KafkaConfig.populateSynonyms), so node.id is described as set there too."""
        props = dict(self.originals)
        if "broker.id" in props:
            props.setdefault("node.id", props["broker.id"])
        return props

    def described(self) -> dict[str, str | None]:
        """The broker resource's configs as Kafka's DescribeConfigs lists them (ConfigHelper.allConfigs
        of the KafkaConfig that DynamicBrokerConfig rebuilds over the dynamic configs): every key
        set, as written, and every non-internal KafkaConfig key in Kafka's string form (null: unset)."""
        props = {**self.static_props(), **self.dynamic_default, **self.dynamic_broker}
        described: dict[str, str | None] = dict(props)
        for name in DESCRIBED_KEYS:
            raw = props.get(name, default_value(name))
            described[name] = _kafka_string(self.values[name], raw) if name in self.values else raw
        described["node.id"] = str(self.broker_id)
        return described

    def log_values(self) -> None:
        """Log every config as Kafka's AbstractConfig.logAll does at start-up (`KafkaConfig values:`,
        then a tab-indented `key = value` per line, sorted), which operators read to see what a
        broker runs with: lists as [a, b], passwords [hidden], unset null."""
        described = self.described()
        names = sorted(DESCRIBED_KEYS | (self.originals.keys() & KEYS))
        log.info("KafkaConfig values: \n%s", "".join(
            f"\t{name} = {_logged_value(config_type(name), described.get(name))}\n" for name in names))

    def connection_limits(self) -> ConnectionLimits:
        """The connection quotas in force (server.properties under the dynamic configs)."""
        return ConnectionLimits(
            self["max.connections"], self["max.connections.per.ip"], self["max.connections.per.ip.overrides"],
            self["max.connection.creation.rate"],
            {lis: limits["max.connections"] for lis, limits in self.listener_quotas.items()
             if "max.connections" in limits},
            {lis: limits["max.connection.creation.rate"] for lis, limits in self.listener_quotas.items()
             if "max.connection.creation.rate" in limits})

    @classmethod
    def load(cls, path: Path | None, overrides: dict[str, str]) -> KafkaConfig:
        props = parse_properties(path.read_text()) if path else {}
        props.update(overrides)
        return cls(props)

    def _validate_listeners(self) -> None:
        """Kafka's KafkaConfig checks: every listener named in the protocol map, names unique,
        the inter-broker listener among the advertised ones."""
        protocol_map: dict[str, str] = {}
        for entry in self["listener.security.protocol.map"]:
            name, colon, protocol = entry.partition(":")
            if not colon or protocol.strip().upper() not in SECURITY_PROTOCOLS:
                raise ConfigError(f"Invalid value {entry} for configuration listener.security.protocol.map: "
                                  f"expected LISTENER:PROTOCOL with a protocol of {', '.join(SECURITY_PROTOCOLS)}")
            protocol_map[name.strip().upper()] = protocol.strip().upper()
        self.protocol_map = protocol_map
        try:
            self.listeners = parse_listeners(self["listeners"], protocol_map)
            advertised = self["advertised.listeners"]
            self.advertised = parse_listeners(advertised, protocol_map) if advertised else self.listeners
        except ValueError as e:
            raise ConfigError(str(e)) from None
        self.static_advertised = self.advertised
        if not self.listeners:
            raise ConfigError("Invalid value for configuration listeners: at least one listener is required")
        names = {lis.name for lis in self.listeners}
        for lis in self.advertised:
            if lis.name not in names:
                raise ConfigError(f"advertised.listeners listener names must be equal to or a subset of the ones "
                                  f"defined in listeners. Found {lis.name}. The valid options based on the "
                                  f"current configuration are {','.join(sorted(names))}")
        if "inter.broker.listener.name" in self.originals and "security.inter.broker.protocol" in self.originals:
            raise ConfigError("Only one of inter.broker.listener.name and security.inter.broker.protocol "
                              "should be set.")
        inter = (self["inter.broker.listener.name"] or self["security.inter.broker.protocol"]).upper()
        if inter not in {lis.name for lis in self.advertised}:
            raise ConfigError(f"inter.broker.listener.name must be a listener name defined in advertised.listeners. "
                              f"The valid options based on currently configured listeners are "
                              f"{','.join(lis.name for lis in self.advertised)}")
        self.inter_broker_listener = inter
        try:
            self.listener_security = {lis.name: listener_security(self.originals, lis) for lis in self.listeners}
            self.inter_broker_security = inter_broker_client(
                self.originals, next(lis for lis in self.advertised if lis.name == inter))
        except SecurityConfigError as e:
            raise ConfigError(str(e)) from None

    def _validate_authorizer(self) -> None:
        """ZooKeeper mode knows one authorizer, Kafka's AclAuthorizer; StandardAuthorizer
        keeps ACLs in KRaft metadata, which a ZooKeeper-mode broker does not have."""
        name = self["authorizer.class.name"]
        if name in ("", ACL_AUTHORIZER):
            return
        if name == KRAFT_AUTHORIZER:
            raise ConfigError(f"Invalid value {name} for configuration authorizer.class.name: {name} keeps ACLs "
                              f"in the KRaft metadata log; a ZooKeeper-mode broker such as josefk needs "
                              f"{ACL_AUTHORIZER}")
        raise ConfigError(f"Invalid value {name} for configuration authorizer.class.name: Class {name} could not "
                          f"be found; josefk supports {ACL_AUTHORIZER}")

    @property
    def broker_id(self) -> int:
        return self["broker.id"]

    @property
    def inter_broker_protocol(self) -> InterBrokerProtocol:
        return self["inter.broker.protocol.version"]

    @property
    def log_dirs(self) -> list[Path]:
        return [Path(d) for d in (self["log.dirs"] or self["log.dir"])]

    @property
    def listener(self) -> tuple[str, int]:
        """The first listener's (host, port)."""
        return self.listeners[0].host, self.listeners[0].port

    @property
    def metrics_listener(self) -> tuple[str, int] | None:
        """metrics.http.listener as (host, port); None when off (empty)."""
        value = self["metrics.http.listener"]
        return _split_host_port(value) if value else None

    def advertised_for(self, name: str) -> tuple[str, int]:
        """Listener `name`'s advertised (host, port); an empty host is advertised as 127.0.0.1."""
        found = next((lis for lis in self.advertised if lis.name == name), None)
        if found is None:
            found = next(lis for lis in self.listeners if lis.name == name)
        return found.host or "127.0.0.1", found.port

    def topic_defaults(self) -> dict[str, str]:
        """Every topic config's broker-level default, by its topic-level name."""
        return from_server_props(self.effective_props()).to_props()

    def synonyms(self, name: str, per_broker: bool = True) -> list[tuple[str, str, int]]:
        """Kafka's ConfigHelper.configSynonyms for broker key `name`: (key, value, source) for each
        of its synonym keys set per broker (DYNAMIC_BROKER_CONFIG), as the cluster default
        (DYNAMIC_DEFAULT_BROKER_CONFIG), in server.properties (STATIC_BROKER_CONFIG), then with a
        default (DEFAULT_CONFIG); Kafka drops the entries before the first one for `name` itself,
        so log.retention.ms set only through log.retention.hours has none. Describing the
        cluster default (per_broker false), Kafka keeps only the DYNAMIC_DEFAULT ones."""
        names = _broker_synonyms(name)
        found = [(n, values[n], source) for source, values in (
            (SOURCE_DYNAMIC_BROKER_CONFIG, self.dynamic_broker),
            (SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG, self.dynamic_default),
            (SOURCE_STATIC_BROKER_CONFIG, self.static_props()),
            (SOURCE_DEFAULT_CONFIG, _STATIC_DEFAULTS)) for n in names if n in values]
        first = next((i for i, (n, _value, _source) in enumerate(found) if n == name), len(found))
        found = found[first:]
        return found if per_broker else [s for s in found if s[2] == SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG]

    def topic_synonyms(self, name: str, overrides: dict[str, str], value: str) -> list[tuple[str, str, int]]:
        """Kafka's synonyms for topic config `name` (ConfigHelper.createTopicConfigEntry): the
        topic's own override (TOPIC_CONFIG) if it has one, then the synonyms of the broker key
        it falls back to; the first one's source is the config's source (none: DEFAULT_CONFIG)."""
        server_name = SERVER_DEFAULT_NAMES.get(name)
        found = self.synonyms(server_name) if server_name is not None else []
        return [(name, value, SOURCE_TOPIC_CONFIG), *found] if name in overrides else found
