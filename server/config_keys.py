"""The names of KafkaConfig's keys by the type of their parsed value, so that each
KafkaConfig[name] read is typed (server/config.py); a key without a default reads None
when unset. tests/test_config.py keeps these in step with the key table."""

from typing import Literal

IntKey = Literal[
    "broker.id", "num.partitions", "default.replication.factor", "log.segment.bytes", "log.index.interval.bytes",
    "log.index.size.max.bytes", "log.roll.hours", "log.retention.hours", "log.retention.bytes",
    "log.retention.check.interval.ms", "log.flush.interval.messages", "log.flush.scheduler.interval.ms",
    "log.cleaner.backoff.ms", "message.max.bytes", "min.insync.replicas", "socket.request.max.bytes",
    "socket.send.buffer.bytes", "socket.receive.buffer.bytes", "num.network.threads", "num.io.threads",
    "num.recovery.threads.per.data.dir", "queued.max.requests", "queued.max.request.bytes", "max.connections",
    "max.connections.per.ip", "max.connection.creation.rate", "connections.max.idle.ms", "request.timeout.ms",
    "quota.window.num", "quota.window.size.seconds", "controller.quota.window.num",
    "controller.quota.window.size.seconds", "replication.quota.window.num", "replication.quota.window.size.seconds",
    "alter.log.dirs.replication.quota.window.num", "alter.log.dirs.replication.quota.window.size.seconds",
    "offsets.topic.num.partitions", "offsets.topic.replication.factor", "offsets.topic.segment.bytes",
    "offsets.retention.minutes", "offsets.retention.check.interval.ms", "offsets.commit.timeout.ms",
    "offset.metadata.max.bytes", "group.max.size", "group.initial.rebalance.delay.ms", "group.min.session.timeout.ms",
    "group.max.session.timeout.ms", "group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms",
    "group.consumer.max.size", "transaction.state.log.replication.factor", "transaction.state.log.min.isr",
    "transaction.state.log.num.partitions", "transaction.state.log.segment.bytes", "transaction.max.timeout.ms",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms",
    "transaction.remove.expired.transaction.cleanup.interval.ms", "transactional.id.expiration.ms",
    "producer.id.expiration.ms", "producer.id.expiration.check.interval.ms", "zookeeper.session.timeout.ms",
    "controlled.shutdown.max.retries", "controlled.shutdown.retry.backoff.ms", "replica.lag.time.max.ms",
    "replica.fetch.max.bytes", "replica.fetch.wait.max.ms", "replica.fetch.backoff.ms", "num.replica.fetchers",
    "max.incremental.fetch.session.cache.slots", "leader.imbalance.check.interval.seconds",
    "leader.imbalance.per.broker.percentage", "connections.max.reauth.ms", "delegation.token.max.lifetime.ms",
    "delegation.token.expiry.time.ms", "delegation.token.expiry.check.interval.ms",
    "max.request.partition.size.limit", "telemetry.max.bytes", "group.streams.session.timeout.ms",
    "group.streams.heartbeat.interval.ms", "group.streams.max.size", "group.streams.num.standby.replicas",
    "group.streams.initial.rebalance.delay.ms", "group.share.session.timeout.ms", "group.share.heartbeat.interval.ms",
    "group.share.max.size", "group.share.record.lock.duration.ms", "group.share.delivery.count.limit",
    "group.share.partition.max.record.locks", "share.coordinator.state.topic.num.partitions",
    "share.coordinator.state.topic.replication.factor", "share.coordinator.state.topic.min.isr",
    "share.coordinator.state.topic.segment.bytes",
    "group.consumer.min.session.timeout.ms", "group.consumer.min.heartbeat.interval.ms",
    "group.consumer.min.assignment.interval.ms", "group.consumer.max.session.timeout.ms",
    "group.consumer.max.heartbeat.interval.ms", "group.consumer.max.assignment.interval.ms",
    "group.share.min.session.timeout.ms", "group.share.min.heartbeat.interval.ms",
    "group.share.min.assignment.interval.ms", "group.share.max.session.timeout.ms",
    "group.share.max.heartbeat.interval.ms", "group.share.max.assignment.interval.ms",
    "group.streams.min.session.timeout.ms", "group.streams.min.heartbeat.interval.ms",
    "group.streams.min.assignment.interval.ms", "group.streams.max.session.timeout.ms",
    "group.streams.max.heartbeat.interval.ms", "group.streams.max.assignment.interval.ms",
    "group.share.min.record.lock.duration.ms", "group.share.max.record.lock.duration.ms",
    "group.share.min.delivery.count.limit", "group.share.max.delivery.count.limit",
    "group.share.min.partition.max.record.locks", "group.share.max.partition.max.record.locks",
    "group.streams.max.standby.replicas", "group.streams.min.task.offset.interval.ms",
    "group.streams.max.warmup.replicas"
]
OptionalIntKey = Literal[
    "log.roll.ms", "log.retention.ms", "log.retention.minutes", "log.flush.interval.ms",
    "zookeeper.connection.timeout.ms"
]
BoolKey = Literal[
    "auto.create.topics.enable", "delete.topic.enable", "log.cleaner.enable",
    "transaction.partition.verification.enable", "controlled.shutdown.enable", "unclean.leader.election.enable",
    "auto.leader.rebalance.enable", "allow.everyone.if.no.acl.found",
    "unstable.feature.versions.enable",
]
StrKey = Literal[
    "group.consumer.migration.policy",
    "log.cleanup.policy", "log.message.timestamp.type", "authorizer.class.name", "security.inter.broker.protocol",
    "sasl.mechanism.inter.broker.protocol", "ssl.protocol", "ssl.enabled.protocols", "ssl.keystore.type",
    "ssl.truststore.type", "ssl.cipher.suites", "ssl.client.auth", "ssl.principal.mapping.rules",
    "ssl.endpoint.identification.algorithm", "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms", "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.clock.skew.seconds", "sasl.oauthbearer.scope.claim.name", "sasl.oauthbearer.sub.claim.name"
]
OptionalStrKey = Literal[
    "broker.rack", "zookeeper.connect", "cluster.id", "super.users", "inter.broker.listener.name",
    "delegation.token.secret.key", "delegation.token.master.key", "ssl.keystore.location", "ssl.keystore.password",
    "ssl.key.password", "ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.truststore.location",
    "ssl.truststore.password", "ssl.truststore.certificates", "sasl.oauthbearer.jwks.endpoint.url",
    "sasl.oauthbearer.expected.audience", "sasl.oauthbearer.expected.issuer"
]
ListKey = Literal[
    "listeners", "log.dir", "group.consumer.assignors", "group.coordinator.rebalance.protocols",
    "listener.security.protocol.map", "sasl.enabled.mechanisms"
]
OptionalListKey = Literal[
    "advertised.listeners", "log.dirs"
]
IntMapKey = Literal["max.connections.per.ip.overrides"]
HostPortKey = Literal["metrics.http.listener"]
ProtocolVersionKey = Literal["inter.broker.protocol.version"]
