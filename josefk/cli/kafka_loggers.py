"""Kafka's logger names for josefk's modules: the one table, and the handler that applies it.

josefk's modules log under their Python names (josefk.log.log_manager); operators grep and
configure Kafka's (kafka.log.LogManager), and Kafka's log4j.properties sends kafka.controller to
controller.log and kafka.log.LogCleaner to log-cleaner.log by those names. The `josefk` logger
gets one handler, `KafkaLoggerRouter`, that renames each record and hands it to the Kafka
logger, whose level, handlers and additivity then apply as in log4j.
"""

from __future__ import annotations

import logging

# Python logger (a module's __name__) -> the Kafka 3.9 class that does that job in ZooKeeper mode.
KAFKA_LOGGER_NAMES: dict[str, str] = {
    "josefk.server.broker": "kafka.server.KafkaServer",
    "josefk.server.config": "kafka.server.KafkaConfig",
    "josefk.server.kafka_apis": "kafka.server.KafkaApis",
    "josefk.server.admin_apis": "kafka.server.KafkaApis",
    "josefk.server.controller_apis": "kafka.server.KafkaApis",
    "josefk.server.metadata_apis": "kafka.server.KafkaApis",
    "josefk.server.fetch_response": "kafka.server.KafkaApis",
    "josefk.server.network.socket_server": "kafka.network.SocketServer",
    "josefk.server.network.connection_quotas": "kafka.network.ConnectionQuotas",
    "josefk.server.metrics_http": "kafka.metrics.KafkaMetricsReporter",
    "josefk.server.telemetry_apis": "org.apache.kafka.server.ClientMetricsManager",
    "josefk.server.store_apis": "kafka.server.ZkAdminManager",
    "josefk.replication.transaction_verification": "kafka.server.AddPartitionsToTxnManager",
    "josefk.server.quotas.client_quota_manager": "kafka.server.ClientQuotaManager",
    "josefk.server.quotas.quota_apis": "kafka.server.ZkAdminManager",
    "josefk.server.quotas.quota_config": "kafka.server.ZkAdminManager",
    "josefk.server.network.security.sasl": "org.apache.kafka.common.security.authenticator.SaslServerAuthenticator",
    "josefk.server.network.security.oauthbearer":
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler",
    "josefk.server.security.delegation_tokens": "kafka.server.DelegationTokenManager",
    "josefk.controller.controller": "kafka.controller.KafkaController",
    "josefk.controller.controller_channel": "kafka.controller.ControllerChannelManager",
    "josefk.controller.controller_events": "kafka.controller.ControllerEventManager",
    "josefk.log.log_manager": "kafka.log.LogManager",
    "josefk.log.log": "kafka.log.UnifiedLog",
    "josefk.log.log.local": "kafka.log.LocalLog",
    "josefk.log.segment": "org.apache.kafka.storage.internals.log.LogSegment",
    "josefk.log.loader": "kafka.log.LogLoader",
    "josefk.log.cleaner": "kafka.log.LogCleaner",
    "josefk.log.leader_epoch": "org.apache.kafka.storage.internals.epoch.LeaderEpochFileCache",
    "josefk.log.producer_state": "org.apache.kafka.storage.internals.log.ProducerStateManager",
    "josefk.log.log_dir_failure": "kafka.server.LogDirFailureChannel",
    "josefk.replication.replica_manager": "kafka.server.ReplicaManager",
    "josefk.replication.partition": "kafka.cluster.Partition",
    "josefk.replication.replica_fetcher": "kafka.server.ReplicaFetcherThread",
    "josefk.replication.alter_partition": "kafka.server.ZkAlterPartitionManager",
    "josefk.replication.alter_log_dirs": "kafka.server.ReplicaAlterLogDirsThread",
    "josefk.replication.fetch_session": "kafka.server.FetchSessionCache",
    "josefk.replication.purgatory": "kafka.server.DelayedOperationPurgatory",
    "josefk.replication.replication_quota": "kafka.server.ReplicationQuotaManager",
    "josefk.replication.add_partitions_to_txn_manager": "kafka.server.AddPartitionsToTxnManager",
    "josefk.coordinator.group_coordinator": "kafka.coordinator.group.GroupCoordinator",
    "josefk.coordinator.consumer_group_coordinator": "org.apache.kafka.coordinator.group.GroupMetadataManager",
    "josefk.coordinator.share_group_coordinator": "org.apache.kafka.coordinator.group.GroupMetadataManager",
    "josefk.coordinator.streams_group_coordinator": "org.apache.kafka.coordinator.group.GroupMetadataManager",
    "josefk.coordinator.share_state_store": "org.apache.kafka.coordinator.share.ShareCoordinatorShard",
    "josefk.replication.share_state_persister": "org.apache.kafka.server.share.persister.PersisterStateManager",
    "josefk.coordinator.group_config": "org.apache.kafka.coordinator.group.GroupConfigManager",
    "josefk.replication.share_partition": "kafka.server.share.SharePartition",
    "josefk.replication.share_partition_manager": "kafka.server.share.SharePartitionManager",
    "josefk.server.internal_topics": "kafka.server.AutoTopicCreationManager",
    "josefk.coordinator.group_apis": "kafka.server.KafkaApis",
    "josefk.coordinator.offsets_store": "kafka.coordinator.group.GroupMetadataManager",
    "josefk.coordinator.producer_id_manager": "kafka.coordinator.transaction.ZkProducerIdManager",
    "josefk.coordinator.transaction_coordinator": "kafka.coordinator.transaction.TransactionCoordinator",
    "josefk.coordinator.transaction_apis": "kafka.server.KafkaApis",
    "josefk.coordinator.transaction_state_manager": "kafka.coordinator.transaction.TransactionStateManager",
    "josefk.coordinator.transaction_marker_channel": "kafka.coordinator.transaction.TransactionMarkerChannelManager",
    "josefk.zk.zk_store": "kafka.zookeeper.ZooKeeperClient",
    "josefk.zk.change_notifications": "kafka.common.ZkNodeChangeNotificationListener",
    "josefk.zk.config_changes": "kafka.server.DynamicConfigManager",
    "josefk.zk.feature_znode": "kafka.server.FinalizedFeatureChangeListener",
    "josefk.zk.host_store": "kafka.zookeeper.ZooKeeperClient",  # Kafka has no host store: its ZooKeeper client's name
}


def kafka_logger_name(python_name: str) -> str | None:
    """The Kafka logger for a josefk module's logger (a child logger takes its module's), or None."""
    name = python_name
    while name:
        if name in KAFKA_LOGGER_NAMES:
            return KAFKA_LOGGER_NAMES[name]
        name = name.rpartition(".")[0]
    return None


class KafkaLoggerRouter(logging.Handler):
    """On the `josefk` logger (which does not propagate): each record goes on under its Kafka
    name through that logger's level and handlers; a module without one goes to the root's
    handlers under its Python name, as log4j's unspecified loggers do."""

    def handle(self, record: logging.LogRecord) -> bool:
        # No handler lock: the target's own handlers take theirs.
        name = kafka_logger_name(record.name)
        target = logging.getLogger(name) if name else logging.getLogger()
        if not target.isEnabledFor(record.levelno):
            return False
        if name:
            record.name = name
            target.handle(record)
        else:
            for handler in target.handlers:
                if record.levelno >= handler.level:
                    handler.handle(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        self.handle(record)


def route_josefk_loggers() -> None:
    """Install the router, and give each josefk module logger its Kafka logger's level, so that
    a record is made only when the Kafka logger would take it (kafka.controller at TRACE in
    Kafka's sample makes the controller's DEBUG lines, not every module's)."""
    package = logging.getLogger("josefk")
    package.handlers = [KafkaLoggerRouter()]
    package.propagate = False
    package.setLevel(logging.getLogger().getEffectiveLevel())
    for python_name, name in KAFKA_LOGGER_NAMES.items():
        logging.getLogger(python_name).setLevel(logging.getLogger(name).getEffectiveLevel())
