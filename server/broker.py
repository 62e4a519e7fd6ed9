"""KafkaServer: start-up and shutdown of one broker, wiring its components together.

Start-up order follows Kafka's: logs are loaded (and recovered) before the broker registers
itself, the controller is elected and has sent this broker its partitions before clients
are accepted, and shutdown stops intake first and writes the clean-shutdown marker last.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import logging
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kazoo.handlers.threading import KazooTimeoutError

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.controller.controller_channel import RemoteBrokerChannel, request_controlled_shutdown
from josefk.controller.controller_events import ControllerEventKind as Event
from josefk.controller.controller_events import ControllerEventManager
from josefk.coordinator.consumer_assignors import assignor_name
from josefk.coordinator.consumer_group_apis import ConsumerGroupApis
from josefk.coordinator.consumer_group_coordinator import ConsumerGroupConfig, ConsumerGroupCoordinator
from josefk.coordinator.group_apis import GroupApis, OffsetsTopicConfig
from josefk.coordinator.group_config import (
    SHARE_AUTO_OFFSET_RESET,
    SHARE_DELIVERY_COUNT_LIMIT,
    SHARE_ISOLATION_LEVEL,
    SHARE_PARTITION_MAX_RECORD_LOCKS,
    SHARE_RECORD_LOCK_DURATION_MS,
    GroupConfigManager,
    by_duration_ms,
)
from josefk.coordinator.group_coordinator import GroupCoordinator
from josefk.coordinator.mixed_groups import MigrationPolicy
from josefk.coordinator.offsets_store import OFFSETS_TOPIC, partition_for
from josefk.coordinator.producer_id_manager import ExecutorBlockRequests, ProducerIdManager
from josefk.coordinator.share_group_apis import ShareGroupApis
from josefk.coordinator.share_group_coordinator import ShareGroupConfig, ShareGroupCoordinator
from josefk.coordinator.share_state_store import SHARE_STATE_TOPIC, ShareStateStore, ShareStateTopicConfig
from josefk.coordinator.streams_group_apis import StreamsGroupApis
from josefk.coordinator.streams_group_coordinator import StreamsGroupConfig, StreamsGroupCoordinator
from josefk.coordinator.transaction_apis import TransactionApis, TransactionTopicConfig
from josefk.coordinator.transaction_coordinator import TransactionConfig, TransactionCoordinator
from josefk.coordinator.transaction_log import TRANSACTION_STATE_TOPIC
from josefk.coordinator.transaction_marker_channel import TransactionMarkerChannelManager
from josefk.coordinator.transaction_state_manager import TransactionStateManager
from josefk.log.cleaner import LogCleaner
from josefk.log.config import LogConfig
from josefk.log.log_dir_failure import LogDirFailureChannel
from josefk.log.log_manager import LogManager
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ApiMessage
from josefk.replication.alter_partition import AlterPartitionManager
from josefk.replication.coordinator_partitions import LocalCoordinatorPartitions
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.purgatory import current_request
from josefk.replication.replica_manager import ReplicaManager, ReplicationSettings
from josefk.replication.replication_quota import ReplicationQuotas
from josefk.replication.share_partition import SharePartitionSettings
from josefk.replication.share_partition_manager import ShareGroupSettings, SharePartitionManager, ShareSummaries
from josefk.replication.share_state_persister import ShareStatePersister
from josefk.replication.transaction_verification import TransactionVerifier
from josefk.replication.txn_marker_writer import TxnMarkerWriter
from josefk.server import client_metrics_configs, group_configs
from josefk.server.acl_apis import AclApis
from josefk.server.client_metrics import ClientMetricsManager
from josefk.server.config import KafkaConfig
from josefk.server.delegation_token_apis import DelegationTokenApis
from josefk.server.describe_topic_partitions import DescribeTopicPartitionsApis
from josefk.server.internal_topics import InternalTopicCreator
from josefk.server.kafka_apis import KafkaApis
from josefk.server.metrics_http import BrokerGauges, MetricsHttpServer, registry_for
from josefk.server.network.connection_quotas import ConnectionQuotas
from josefk.server.network.memory_pool import MemoryPool
from josefk.server.network.request_channel import Request, RequestChannel
from josefk.server.network.security.oauthbearer import JwksError
from josefk.server.network.security.sasl import SaslAuthenticator
from josefk.server.network.security.settings import Listener
from josefk.server.network.socket_server import Acceptor, ListenerContext, Processor
from josefk.server.otlp_export import ClientTelemetryCollector, ClientTelemetryStore
from josefk.server.quotas import quota_config
from josefk.server.quotas.client_quota_manager import QuotaManagers
from josefk.server.quotas.quota_apis import QuotaApis
from josefk.server.security.authorizer import AclAuthorizer, RequestAuthorizer, parse_super_users
from josefk.server.security.delegation_tokens import DelegationTokenManager
from josefk.server.security.sasl_apis import SaslApis
from josefk.server.security.scram_store import CredentialCache
from josefk.server.share_fetch_apis import ShareFetchApis
from josefk.server.share_group_offsets_admin_apis import ShareGroupOffsetsAdminApis
from josefk.server.share_group_offsets_apis import ShareGroupOffsetsApis
from josefk.server.share_state_apis import ShareStateApis
from josefk.server.telemetry_apis import TelemetryApis
from josefk.utils.heap import HeapFreezer
from josefk.utils.metrics import BrokerMetrics
from josefk.utils.rate import MetricConfig
from josefk.utils.scheduler import LoopScheduler, Scheduler
from josefk.utils.time import SystemTime, Time
from josefk.zk.admin_zk_client import TopicAdmin
from josefk.zk.config_changes import ConfigChangeListener
from josefk.zk.coordination_store import CoordinationStore, EmbeddedStore, NodeExistsError, NoNodeError
from josefk.zk.feature_znode import TRANSACTION_VERSION, FinalizedFeatures, supported_features
from josefk.zk.host_store import HostStoreClient
from josefk.zk.zk_data import (
    BROKERS_IDS,
    CLUSTER_ID,
    CONFIG_BROKERS,
    CONFIG_TOPICS,
    CONTROLLER,
    DEFAULT_BROKER_ENTITY,
    BrokerEpoch,
    BrokerInfo,
    EndPoint,
)
from josefk.zk.zk_store import ZooKeeperStore

log = logging.getLogger(__name__)

STORE_FILE = "josefk-coordination.json"
# What ends one controlled shutdown attempt, which is then retried: no controller registered
# (ValueError), none reachable, or a controller that closes the connection under the request
# (IncompleteReadError: it is shutting down or resigning too).
CONTROLLED_SHUTDOWN_FAILURES = (OSError, TimeoutError, ConnectionError, ValueError, asyncio.IncompleteReadError)


class StartupError(RuntimeError):
    """The broker cannot start (its message names the cause); no traceback is needed."""


def _new_cluster_id() -> str:
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


class KafkaServer:
    broker_info: BrokerInfo  # as registered at /brokers/ids/<id>; set once the listeners are bound

    def __init__(self, config: KafkaConfig, host_store: Path | None = None) -> None:
        """`host_store`: the Unix socket of the coordination store `josefk host` serves its
        brokers when zookeeper.connect is empty (zk/host_store.py)."""
        self.config = config
        self.host_store = host_store
        self.host_store_gone = asyncio.Event()  # the host's store closed: this broker cannot go on
        self.metrics: Counter = Counter()
        # Kafka's metrics (BrokerTopicMetrics, RequestMetrics, ReplicaManager), served at
        # metrics.http.listener's /metrics when it is set.
        self.broker_metrics = BrokerMetrics()
        self.metrics_server: MetricsHttpServer | None = None
        self.client_telemetry = ClientTelemetryStore()  # KIP-714 pushes, exported at /metrics
        self.ready = False  # /readyz: registered, logs recovered, the controller's metadata applied
        self.shutting_down = False  # BrokerState SHUTTING_DOWN, on /metrics
        self.store: CoordinationStore | None = None
        self.group_coordinator: GroupCoordinator | None = None
        self._creating_share_state = False
        self.txn_coordinator: TransactionCoordinator | None = None
        self.txn_markers: TransactionMarkerChannelManager | None = None
        self.share_persister: ShareStatePersister | None = None
        self.txn_verifier: TransactionVerifier | None = None
        self.acceptor: Acceptor | None = None  # the first listener's
        self.acceptors: list[Acceptor] = []
        self.handler_tasks: list[asyncio.Task] = []
        self.background_tasks: list[asyncio.Task] = []
        self.stopped = asyncio.Event()
        self.broker_epoch = BrokerEpoch()
        self.controller_events = ControllerEventManager()
        # Store calls made for the data plane (leaders' ISR changes) run here, never on the loop.
        self.store_executor = ThreadPoolExecutor(1, thread_name_prefix="store-writer")

    @property
    def _store(self) -> CoordinationStore:
        """The coordination store, for code that only runs once startup has opened it."""
        assert self.store is not None, "KafkaServer.startup opens the store first"
        return self.store

    def _open_store(self) -> CoordinationStore:
        connect = self.config["zookeeper.connect"]
        if connect:
            timeout = self.config["zookeeper.session.timeout.ms"]
            connection_timeout = self.config["zookeeper.connection.timeout.ms"] or timeout
            try:
                return ZooKeeperStore(connect, timeout, connection_timeout, asyncio.get_running_loop(),
                                      self._on_session_lost, self._on_new_session, self.broker_metrics.zookeeper)
            except KazooTimeoutError:  # Kafka's ZooKeeperClientTimeoutException
                raise StartupError(f"Timed out waiting for connection to ZooKeeper at {connect} "
                                   f"(zookeeper.connection.timeout.ms={connection_timeout})") from None
        if self.host_store is not None:
            loop = asyncio.get_running_loop()
            try:
                return HostStoreClient(self.host_store, lambda: loop.call_soon_threadsafe(self.host_store_gone.set))
            except OSError as e:
                raise StartupError(f"Cannot connect to the host's coordination store at {self.host_store}: "
                                   f"{e.strerror or e}") from None
        first_dir = self.config.log_dirs[0]
        first_dir.mkdir(parents=True, exist_ok=True)
        return EmbeddedStore(first_dir / STORE_FILE)

    def _cluster_id(self, store: CoordinationStore) -> str:
        data = store.get_json(CLUSTER_ID)
        if data:
            return data["id"]
        cluster_id = self.config["cluster.id"] or _new_cluster_id()
        try:
            store.create(CLUSTER_ID, json.dumps({"version": "1", "id": cluster_id}).encode())
        except NodeExistsError:  # another broker created it first
            data = store.get_json(CLUSTER_ID)
            assert data is not None, "the cluster id is never deleted"
            return data["id"]
        return cluster_id

    def _topic_configs(self) -> dict[str, LogConfig]:
        """Every topic's config (with its overrides), read from the store at start-up."""
        try:
            topics = self._store.children(CONFIG_TOPICS) if self._store.exists(CONFIG_TOPICS) else []
        except NoNodeError:
            topics = []
        return {topic: self.log_config_for(topic) for topic in topics}

    def log_config_for(self, topic: str) -> LogConfig:
        data = self.store.get_json(f"{CONFIG_TOPICS}/{topic}") if self.store else None
        overrides = data["config"] if data else {}
        return LogConfig.from_props(overrides, LogConfig.from_props(self.config.topic_defaults()))

    def _dynamic_broker_configs(self) -> tuple[dict[str, str], dict[str, str]]:
        """This broker's dynamic configs and the cluster default's, as stored."""
        found = [self._store.get_json(f"{CONFIG_BROKERS}/{entity}")
                 for entity in (str(self.config.broker_id), DEFAULT_BROKER_ENTITY)]
        return dict(found[0]["config"]) if found[0] else {}, dict(found[1]["config"]) if found[1] else {}

    def _on_config_change(self, entity_type: str, entity_name: str) -> None:
        """A config change notification (on the store thread): read what changed, apply it on the loop."""
        if entity_type == "brokers" and entity_name in (str(self.config.broker_id), DEFAULT_BROKER_ENTITY):
            dynamic = self._dynamic_broker_configs()
            # Every topic's overrides, from the store: the loop's own log map is not read here.
            topics = self._store.children(CONFIG_TOPICS) if self._store.exists(CONFIG_TOPICS) else []
            overrides = {topic: self.admin.topic_configs(topic) for topic in topics}
            self.loop.call_soon_threadsafe(self._apply_broker_configs, *dynamic, overrides)
        elif entity_type == "topics":
            config = self.log_config_for(entity_name)
            self.loop.call_soon_threadsafe(self.replica_manager.update_topic_config, entity_name, config)
        elif entity_type in ("users", "clients"):  # Kafka's UserConfigHandler, ClientIdConfigHandler
            path, quotas = quota_config.read_entity(self._store, entity_type, entity_name)
            self.loop.call_soon_threadsafe(quota_config.apply_entity, self.quotas, path, quotas)
        elif entity_type == client_metrics_configs.ENTITY_TYPE:  # Kafka's ClientMetricsConfigHandler
            configs = client_metrics_configs.read(self._store, entity_name)
            self.loop.call_soon_threadsafe(self.client_metrics.update_subscription, entity_name, configs)
        elif entity_type == group_configs.ENTITY_TYPE:  # Kafka's GroupConfigHandler
            self.loop.call_soon_threadsafe(self.group_config_manager.update, entity_name,
                                           group_configs.read(self._store, entity_name))
        elif entity_type == "ips":
            self._apply_ip_quota(entity_name, quota_config.read_entity(self._store, entity_type, entity_name)[1])

    def _apply_ip_quota(self, name: str, config: dict[str, str]) -> None:
        """Kafka's IpConfigHandler (on the store thread, where a host name may resolve)."""
        try:
            ip, rate = quota_config.ip_quota(name, config)
        except ValueError as e:
            log.error("Failed to process config change for ips/%s: %s", name, e)
            return
        self.loop.call_soon_threadsafe(self.connection_quotas.update_ip_connection_rate, ip, rate)

    def _load_quotas(self) -> None:
        """Every client and ip quota in the store (on the store thread), applied on the loop."""
        for path, quotas in quota_config.all_entity_configs(self._store):
            self.loop.call_soon_threadsafe(quota_config.apply_entity, self.quotas, path, quotas)
        for name, config in quota_config.all_ip_configs(self._store):
            self._apply_ip_quota(name, config)
        for name in client_metrics_configs.names(self._store):
            configs = client_metrics_configs.read(self._store, name)
            self.loop.call_soon_threadsafe(self.client_metrics.update_subscription, name, configs)
        for group_id in group_configs.names(self._store):
            self.loop.call_soon_threadsafe(self.group_config_manager.update, group_id,
                                           group_configs.read(self._store, group_id))

    def _apply_broker_configs(self, per_broker: dict[str, str], cluster_default: dict[str, str],
                              overrides: dict[str, dict[str, str]]) -> None:
        """Kafka's DynamicLogConfig: new topic defaults reach every log, under its topic's overrides;
        SocketServer.reconfigure: new connection limits reach the acceptors; BrokerConfigHandler:
        new replication throttle rates reach the quota managers."""
        self.config.set_dynamic(per_broker, cluster_default)
        self.replication_quotas.update_rates(*self.config.replication_throttled_rates())
        if hasattr(self, "connection_quotas"):
            limits = self.config.connection_limits()
            if limits != self.connection_quotas.limits:
                log.info("[SocketServer brokerId=%d] Updating connection limits: %s", self.config.broker_id, limits)
                self.connection_quotas.reconfigure(limits)
        topic_defaults = self.config.topic_defaults()
        defaults = LogConfig.from_props(topic_defaults)
        self.admin.topic_defaults = topic_defaults
        self.log_manager.default_config = defaults
        for (topic, _partition), log_ in self.log_manager.all_logs().items():
            config = LogConfig.from_props(overrides.get(topic, {}), defaults)
            if config != log_.config:
                log_.update_config(config)
        log.info("[KafkaServer id=%d] applied dynamic broker configs: broker %s, cluster default %s",
                 self.config.broker_id, per_broker, cluster_default)
        if hasattr(self, "broker_info"):  # registered: a new advertised.listeners is registered too
            info = self._new_broker_info()
            if info != self.broker_info:
                self.broker_info = info
                log.info("[KafkaServer id=%d] Updating broker info: %s", self.config.broker_id,
                         ",".join(str(e) for e in info.all_endpoints()))
                self.store_executor.submit(self._update_broker_info, info)

    def _new_broker_info(self) -> BrokerInfo:
        """This broker as it registers: each listener at its advertised address (a port of 0
        advertises the port its acceptor bound), host and port those of the inter-broker one."""
        config = self.config
        endpoints = []
        for listener, acceptor in zip(config.listeners, self.acceptors, strict=True):
            advertised_host, advertised_port = config.advertised_for(listener.name)
            endpoints.append(EndPoint(listener.name, advertised_host, advertised_port or acceptor.port,
                                      listener.protocol))
        inter = next(e for e in endpoints if e.listener == config.inter_broker_listener)
        return BrokerInfo(config.broker_id, inter.host, inter.port, rack=config["broker.rack"],
                          endpoints=tuple(endpoints))

    def _update_broker_info(self, info: BrokerInfo) -> None:
        """Kafka's KafkaZkClient.updateBrokerInfo (on the store thread): set the data of this
        broker's /brokers/ids/<id>, whatever its version; the ephemeral node, and so its creation
        id (the broker epoch), stays. The controller watches the node (BrokerModifications) and
        sends every broker the new endpoints. With no node (the session just ended), the next
        registration writes them."""
        path = f"{BROKERS_IDS}/{self.config.broker_id}"
        try:
            self._store.set(path, json.dumps(info.to_json()).encode())
        except NoNodeError:
            log.warning("%s is not registered: the new broker info is written at the next registration", path)

    async def startup(self) -> None:
        config = self.config
        broker_id = config.broker_id
        loop = asyncio.get_running_loop()
        # Kafka's Time and Scheduler, chosen here once: every clock the logs, replicas and
        # groups read, and every timer they arm, comes from these two.
        self.time: Time = SystemTime()
        self.scheduler: Scheduler = LoopScheduler(loop)
        await self._start_metrics_server()  # first, so /healthz answers during log recovery
        self.store = store = self._open_store()
        self.cluster_id = await asyncio.to_thread(self._cluster_id, store)  # may wait out a ZooKeeper blip
        self.loop = loop
        # Dynamic broker configs first, so logs load with the topic defaults they set.
        config.set_dynamic(*await asyncio.to_thread(self._dynamic_broker_configs))
        self.log_dir_failures = LogDirFailureChannel()
        self.log_manager = LogManager(config.log_dirs, LogConfig.from_props(config.topic_defaults()),
                                      broker_id=broker_id, cluster_id=self.cluster_id,
                                      failure_channel=self.log_dir_failures, time=self.time,
                                      flush_stats=self.broker_metrics.log_flush)
        # Kafka loads logs with their topics' config overrides, or a restarted leader would run
        # on the defaults (min.insync.replicas=1) until the next config change.
        topic_configs = await asyncio.to_thread(self._topic_configs)
        self.log_manager.startup(topic_configs)
        # Kafka's DynamicConfigManager reads every topic's and this broker's config at start-up.
        def window(num: int, seconds: int) -> MetricConfig:
            return MetricConfig(num, seconds * 1000)

        self.replication_quotas = ReplicationQuotas.create(
            window(config["replication.quota.window.num"], config["replication.quota.window.size.seconds"]),
            window(config["alter.log.dirs.replication.quota.window.num"],
                   config["alter.log.dirs.replication.quota.window.size.seconds"]), self.time)
        self.replication_quotas.update_rates(*config.replication_throttled_rates())
        for topic, topic_config in topic_configs.items():
            self.replication_quotas.update_topic(topic, topic_config, broker_id)
        self.metadata_cache = MetadataCache(broker_id, inter_broker_listener=config.inter_broker_listener)
        security = config.inter_broker_security
        protocol = config.inter_broker_protocol
        alter_partition = None
        if protocol.alter_partition_supported and config["zookeeper.connect"]:
            alter_partition = AlterPartitionManager(broker_id, lambda: self.broker_epoch.epoch, self._controller_node,
                                                    protocol, security)
        self.txn_verifier = TransactionVerifier(broker_id, self.metadata_cache, self._transaction_state_partition,
                                                security, config["request.timeout.ms"], self.time, self.scheduler)
        self.replica_manager = ReplicaManager(
            broker_id, self.log_manager, self.metadata_cache, self.log_config_for, store,
            ReplicationSettings(config["replica.lag.time.max.ms"], config["replica.fetch.wait.max.ms"],
                                config["replica.fetch.max.bytes"], config["replica.fetch.backoff.ms"], security,
                                protocol, lambda: self.broker_epoch.epoch),
            self.store_executor, self.time, self.scheduler,
            metrics=self.broker_metrics, alter_partition=alter_partition, heap=HeapFreezer(),
            verifier=self.txn_verifier,
            verification_enabled=lambda: config["transaction.partition.verification.enable"],
            quotas=self.replication_quotas)
        # Kafka's LogDirFailureHandler: failures reported from any thread are handled on the loop.
        self.log_dir_failures.add_listener(
            lambda log_dir: loop.call_soon_threadsafe(self.replica_manager.handle_log_dir_failure, log_dir))
        channels = ControllerChannelManager(broker_id, self.replica_manager,
                                            lambda info: RemoteBrokerChannel(broker_id, info, loop, channels.report,
                                                                             security, config.inter_broker_protocol),
                                            post=loop.call_soon_threadsafe)
        topic_ids = protocol.at_least(2, 8)
        self.controller = KafkaController(broker_id, store, channels, self.controller_events.put,
                                          inter_broker_listener=config.inter_broker_listener, protocol=protocol,
                                          supported_features=supported_features(
                                              config["unstable.feature.versions.enable"]))
        self.finalized_features = FinalizedFeatures(store, protocol)
        await loop.run_in_executor(self.store_executor, self.finalized_features.startup)
        self.admin = TopicAdmin(store, config.topic_defaults(), topic_ids=topic_ids)
        self.quotas = QuotaManagers.create(
            MetricConfig(config["quota.window.num"], config["quota.window.size.seconds"] * 1000),
            self.time, self.scheduler,
            MetricConfig(config["controller.quota.window.num"], config["controller.quota.window.size.seconds"] * 1000))
        # Before the config changes are read: ip quotas (connection_creation_rate) apply to it.
        self.connection_quotas = ConnectionQuotas(config.connection_limits(), [lis.name for lis in config.listeners],
                                                  config.inter_broker_listener, self.time)
        self.connection_heap = HeapFreezer()  # every listener's connections, for the collector
        self.client_metrics = ClientMetricsManager(self.time)
        self.group_config_manager = GroupConfigManager(group_configs.broker_values(config))
        self.config_changes = ConfigChangeListener(store, self.store_executor, self._on_config_change, self.time)
        await loop.run_in_executor(self.store_executor, self.config_changes.startup)
        await loop.run_in_executor(self.store_executor, self._load_quotas)  # after the watch: none missed
        # A change stored between the read above and the watch would otherwise go unseen.
        await loop.run_in_executor(self.store_executor, self._on_config_change, "brokers", DEFAULT_BROKER_ENTITY)
        self.acl_authorizer = await self._acl_authorizer(store)
        authorizer: Authorizer = ALLOW_ALL if self.acl_authorizer is None else RequestAuthorizer(self.acl_authorizer)
        # As Kafka's coordinators at startup: an existing topic's partition count decides
        # which partition a group or transactional id belongs to, the config only a new
        # topic's; a broker configured otherwise than the cluster then still agrees with it.
        offsets_partitions, txn_partitions = await loop.run_in_executor(
            self.store_executor, lambda: (self.admin.partition_count(OFFSETS_TOPIC),
                                          self.admin.partition_count(TRANSACTION_STATE_TOPIC)))
        self.group_coordinator = coordinator = self._group_coordinator(
            offsets_partitions or config["offsets.topic.num.partitions"])
        marker_writer = TxnMarkerWriter(self.replica_manager, config["request.timeout.ms"],
                                        self._on_txn_markers_written)
        self.txn_markers = markers = TransactionMarkerChannelManager(broker_id, self.metadata_cache, security=security,
                                                                     local=marker_writer)
        self.txn_coordinator = txn_coordinator = self._transaction_coordinator(
            markers, txn_partitions or config["transaction.state.log.num.partitions"])
        self.txn_verifier.local = txn_coordinator
        producer_ids = ProducerIdManager(broker_id, store, ExecutorBlockRequests(self.store_executor, loop), self.time)
        producer_ids.startup()
        txn_apis = TransactionApis(txn_coordinator, producer_ids, self.metadata_cache,
                                   self.admin, self.store_executor, TransactionTopicConfig(
                                       config["transaction.state.log.num.partitions"],
                                       config["transaction.state.log.replication.factor"],
                                       config["transaction.state.log.min.isr"],
                                       config["transaction.state.log.segment.bytes"]), coordinator.partition_for,
                               authorizer)
        group_apis = GroupApis(coordinator, self.metadata_cache, self.admin, self.store_executor, OffsetsTopicConfig(
            config["offsets.topic.num.partitions"], config["offsets.topic.replication.factor"],
            config["offsets.topic.segment.bytes"]), txn_apis.find_coordinator, authorizer)
        consumer_group_apis = ConsumerGroupApis(ConsumerGroupCoordinator(
            coordinator, self.metadata_cache, ConsumerGroupConfig(
                config["group.consumer.session.timeout.ms"], config["group.consumer.heartbeat.interval.ms"],
                tuple(assignor_name(a) for a in config["group.consumer.assignors"]),
                config["group.consumer.max.size"],
                MigrationPolicy(config["group.consumer.migration.policy"])), self.group_config_manager),
            group_apis, authorizer)
        share_groups = ShareGroupCoordinator(coordinator, consumer_group_apis.coordinator, self.metadata_cache,
                                             ShareGroupConfig(config["group.share.session.timeout.ms"],
                                                              config["group.share.heartbeat.interval.ms"],
                                                              config["group.share.max.size"]),
                                             self.group_config_manager)
        share_group_apis = ShareGroupApis(share_groups, {**group_apis.handlers(), **consumer_group_apis.handlers()},
                                          authorizer)
        share_state = ShareStateTopicConfig(
            config["share.coordinator.state.topic.num.partitions"],
            config["share.coordinator.state.topic.replication.factor"],
            config["share.coordinator.state.topic.min.isr"], config["share.coordinator.state.topic.segment.bytes"])
        share_coordinator = ShareStateStore(
            LocalCoordinatorPartitions(self.replica_manager), self.metadata_cache, share_state,
            functools.partial(self._ensure_share_state_topic, share_state), self.time)
        self.share_persister = ShareStatePersister(broker_id, share_coordinator, self.metadata_cache, security)
        share_groups.state = self.share_persister
        self.share_partitions = share_partitions = SharePartitionManager(
            self.replica_manager, self._share_settings, persister=self.share_persister)
        share_state_apis = ShareStateApis(share_coordinator, self.metadata_cache, group_apis.handle_find_coordinator,
                                          authorizer)
        share_groups.member_listeners.append(share_partitions.member_left)
        share_fetch_apis = ShareFetchApis(share_partitions, self.metadata_cache,
                                          lambda group: self._share_settings(group).partition.record_lock_duration_ms,
                                          authorizer)
        share_offsets_apis = ShareGroupOffsetsApis(share_groups, ShareSummaries(share_partitions,
                                                                                self.share_persister.summarize,
                                                                                share_coordinator.topic_ids_of),
                                                   self.metadata_cache,
                                                   authorizer)
        share_offsets_admin_apis = ShareGroupOffsetsAdminApis(share_groups, self.share_persister, share_partitions,
                                                              self.metadata_cache, authorizer)
        streams_config = StreamsGroupConfig(
            config["group.streams.session.timeout.ms"], config["group.streams.heartbeat.interval.ms"],
            config["group.streams.max.size"], config["group.streams.num.standby.replicas"],
            initial_rebalance_delay_ms=config["group.streams.initial.rebalance.delay.ms"])
        streams_group_apis = StreamsGroupApis(StreamsGroupCoordinator(coordinator, self.metadata_cache, streams_config,
                                                                      self.group_config_manager),
            {**group_apis.handlers(), **consumer_group_apis.handlers(), **share_group_apis.handlers()},
            InternalTopicCreator(
                self.admin, self.store_executor,
                lambda: min(self.config["default.replication.factor"], max(1, len(self.metadata_cache.brokers)))),
            authorizer)
        acl_apis = AclApis(self.acl_authorizer, authorizer, self.store_executor)

        def post(work: Callable[[], None]) -> None:
            loop.call_soon_threadsafe(self.store_executor.submit, work)

        self.credentials = CredentialCache(store, post)
        self.tokens = DelegationTokenManager(config.token_settings(), store, self.time)
        await loop.run_in_executor(self.store_executor, self.tokens.startup, self.store_executor)
        token_apis = DelegationTokenApis(self.tokens, authorizer, self.store_executor)
        await asyncio.to_thread(self.credentials.start)
        sasl_apis = SaslApis(store, self.credentials, self.store_executor)
        quota_apis = QuotaApis(store, authorizer, self.store_executor)
        topic_partitions_apis = DescribeTopicPartitionsApis(
            self.metadata_cache, authorizer, lambda: self.config["max.request.partition.size.limit"])
        telemetry_apis = TelemetryApis(self.client_metrics, self.client_telemetry,
                                       lambda: self.config["telemetry.max.bytes"], authorizer, self.metadata_cache,
                                       self.group_config_manager.groups)
        self.apis = KafkaApis(config, self.cluster_id, self.metadata_cache, self.replica_manager, self.admin,
                              self.controller, self.controller_events, self.broker_epoch, self.store_executor,
                              {**group_apis.handlers(), **consumer_group_apis.handlers(),
                               **share_group_apis.handlers(), **share_fetch_apis.handlers(),
                               **share_offsets_apis.handlers(),
                               **share_offsets_admin_apis.handlers(),
                               **share_state_apis.handlers(),
                               **streams_group_apis.handlers(),
                               **txn_apis.handlers(), **acl_apis.handlers(),
                               **sasl_apis.handlers(), **quota_apis.handlers(), **token_apis.handlers(),
                               **topic_partitions_apis.handlers(), **telemetry_apis.handlers()},
                              txn_marker_writer=marker_writer, authorizer=authorizer,
                              quotas=self.quotas, finalized_features=self.finalized_features.snapshot)
        # a deleted topic's share state goes (Kafka's onPartitionsDeleted)
        self.replica_manager.add_metadata_listener(lambda _topics: share_groups.topics_changed())
        for leadership_aware in (coordinator, txn_coordinator):
            leadership_aware.startup()
            self.replica_manager.add_leadership_listener(
                functools.partial(self.scheduler.call_soon, leadership_aware.on_leadership_change))
            # Partitions this broker already leads (the controller may have run before us).
            self.scheduler.call_soon(leadership_aware.on_leadership_change)

        channel = RequestChannel(config["queued.max.requests"])
        memory_pool = MemoryPool(config["queued.max.request.bytes"])
        for listener in config.listeners:
            self.acceptors.append(await self._start_listener(listener, channel, memory_pool, len(self.acceptors)))
        self.acceptor = self.acceptors[0]
        self.broker_info = self._new_broker_info()
        await self._register_broker()
        await self.controller_events.call(Event.STARTUP, self.controller.startup)
        for _ in range(config["num.io.threads"]):
            self.handler_tasks.append(asyncio.create_task(self._handler_loop(channel)))
        self.channel = channel
        self.background_tasks.append(asyncio.create_task(self._flush_loop()))
        self.background_tasks.append(asyncio.create_task(self._retention_loop()))
        self.background_tasks.append(asyncio.create_task(self._producer_expiration_loop()))
        self.background_tasks.append(asyncio.create_task(self._cleaner_loop()))
        self.background_tasks.append(asyncio.create_task(self._replication_loop()))
        if config["auto.leader.rebalance.enable"]:
            self.background_tasks.append(asyncio.create_task(self._leader_rebalance_loop()))
        if self.tokens.enabled:
            self.background_tasks.append(asyncio.create_task(self._token_expiry_loop()))
        self.ready = True
        log.info("[KafkaServer id=%d] Listening on %s, cluster id %s", broker_id,
                 ",".join(f"{a.name}://{a.host}:{a.port}" for a in self.acceptors), self.cluster_id)
        log.info("[KafkaServer id=%d] started", broker_id)

    async def _start_listener(self, listener: Listener, channel: RequestChannel, memory_pool: MemoryPool,
                              index: int) -> Acceptor:
        """One listener: its Acceptor and num.network.threads Processors (Kafka gives each
        listener its own), with its TLS context and SASL authenticators."""
        config = self.config
        security = config.listener_security[listener.name]
        credentials, clock = self.credentials, self.time

        tokens = self.tokens

        def new_authenticator() -> SaslAuthenticator:
            return SaslAuthenticator(security, credentials, clock.milliseconds, tokens)

        if security.jwks is not None:  # KIP-768: no OAUTHBEARER listener without the issuer's keys
            try:
                await security.jwks.load()
            except JwksError as e:
                raise StartupError(f"Invalid value for configuration {security.jwks.url_key}: cannot read the JWKS "
                                   f"at {security.jwks.url}: {e}") from None
            if security.jwks.refreshing:
                self.background_tasks.append(asyncio.create_task(security.jwks.refresh_forever()))
        context = ListenerContext(listener.name, new_authenticator if security.sasl else None,
                                  security.principal_mapper, listener.protocol)
        threads = config["num.network.threads"]
        processors = [Processor(index * threads + i, channel, config["socket.request.max.bytes"], self.metrics,
                                memory_pool, self.apis.api_versions, self.broker_metrics.requests, context,
                                quotas=self.connection_quotas, stats=self.broker_metrics.network,
                                max_idle_ms=config["connections.max.idle.ms"], time=self.time,
                                scheduler=self.scheduler, heap=self.connection_heap,
                                disconnect_listeners=(self.share_partitions.disconnected,))
                      for i in range(threads)]
        acceptor = Acceptor(listener.host or "0.0.0.0", listener.port, processors, security.ssl_context,
                            listener.name)
        try:
            await acceptor.start()
        except OSError as e:  # Kafka's message for a port in use or an address not on this host
            raise StartupError(f"Socket server failed to bind to {listener.host or '0.0.0.0'}:{listener.port}: "
                               f"{os.strerror(e.errno) if e.errno else e}.") from None
        return acceptor

    async def _start_metrics_server(self) -> None:
        listener = self.config.metrics_listener
        if listener is None:
            return
        gauges = BrokerGauges(
            partitions=lambda: self.replica_manager.partitions.values() if hasattr(self, "replica_manager") else (),
            logs=lambda: self.log_manager.all_logs() if hasattr(self, "replica_manager") else {},
            active_controller=lambda: hasattr(self, "controller") and self.controller.active,
            metadata=lambda: self.metadata_cache if hasattr(self, "metadata_cache") else None,
            groups=lambda: self.group_coordinator.groups.values() if self.group_coordinator else (),
            fetch_sessions=lambda: self.apis.fetch_manager.cache if hasattr(self, "apis") else None,
            quotas=lambda: getattr(self, "quotas", None),
            replication_quotas=lambda: getattr(self, "replication_quotas", None),
            listener_connections=lambda: {a.name: sum(len(p.connections) for p in a.processors)
                                          for a in self.acceptors},
            client_connections=lambda: Counter((a.name, p.id, *c.client_software) for a in self.acceptors
                                               for p in a.processors for c in p.connections),
            purgatories=lambda: ((self.replica_manager.produce_purgatory, self.replica_manager.fetch_purgatory)
                                 if hasattr(self, "replica_manager") else ()),
            broker_state=lambda: 7 if self.shutting_down else 3 if self.ready else 1,
            unclean_elections=lambda: self.controller.unclean_elections if hasattr(self, "controller") else 0)
        host, port = listener
        self.metrics_server = MetricsHttpServer(host or "0.0.0.0", port, registry_for(
            self.broker_metrics, gauges, [ClientTelemetryCollector(self.client_telemetry)]),
                                                lambda: self.ready)
        await self.metrics_server.start()

    async def _acl_authorizer(self, store: CoordinationStore) -> AclAuthorizer | None:
        """Kafka's AclAuthorizer when authorizer.class.name names it (KafkaConfig refused any
        other name), its ACLs loaded before the broker serves; None: everything is allowed."""
        if not self.config["authorizer.class.name"]:
            return None
        acl = AclAuthorizer(store, parse_super_users(self.config["super.users"]),
                            self.config["allow.everyone.if.no.acl.found"], self._submit_store_work)
        await asyncio.to_thread(acl.startup)
        return acl

    def _submit_store_work(self, work: Callable[[], None]) -> None:
        """Run work on the store executor; after shutdown began there is nothing left to update."""
        try:
            self.store_executor.submit(work)
        except RuntimeError:
            log.debug("Store executor shut down; dropped %r", work)

    def _transaction_state_partition(self, transactional_id: str) -> tuple[str, int]:
        """The __transaction_state partition of a transactional id, as the transaction
        coordinator maps ids (by the topic's partition count, once it knows it)."""
        count = self.config["transaction.state.log.num.partitions"] if self.txn_coordinator is None \
            else self.txn_coordinator.state.num_partitions
        return TRANSACTION_STATE_TOPIC, partition_for(transactional_id, count)

    def _ensure_share_state_topic(self, config: ShareStateTopicConfig) -> None:
        """Create __share_group_state on first use, in the background, as the offsets topic
        (its replication factor at most the live brokers). Compacted: josefk writes only
        snapshots, so the last record of a key is its state (Kafka's topic deletes, pruning
        what its snapshots have superseded with DeleteRecords)."""
        if SHARE_STATE_TOPIC in self.metadata_cache.topics or self._creating_share_state:
            return
        self._creating_share_state = True

        def create() -> None:
            rf = min(config.replication_factor, max(1, len(self.metadata_cache.brokers)))
            try:
                self.admin.create_topic(SHARE_STATE_TOPIC, config.num_partitions, rf, None, {
                    "cleanup.policy": "compact", "compression.type": "producer",
                    "segment.bytes": str(config.segment_bytes), "min.insync.replicas": str(min(config.min_isr, rf))})
                log.info("Created %s with %d partitions and replication factor %d", SHARE_STATE_TOPIC,
                         config.num_partitions, rf)
            except KafkaError as e:
                if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    log.warning("Could not create %s: %s", SHARE_STATE_TOPIC, e)
            finally:
                self._creating_share_state = False

        self.store_executor.submit(create)

    def _share_settings(self, group_id: str) -> ShareGroupSettings:
        """A share group's delivery settings: its group configs over the broker's group.share.*."""
        overrides = self.group_config_manager
        return ShareGroupSettings(partition=SharePartitionSettings(
            overrides.int_value(group_id, SHARE_RECORD_LOCK_DURATION_MS,
                                self.config["group.share.record.lock.duration.ms"]),
            overrides.int_value(group_id, SHARE_DELIVERY_COUNT_LIMIT, self.config["group.share.delivery.count.limit"]),
            overrides.int_value(group_id, SHARE_PARTITION_MAX_RECORD_LOCKS,
                                self.config["group.share.partition.max.record.locks"])),
            auto_offset_reset=overrides.str_value(group_id, SHARE_AUTO_OFFSET_RESET, "latest"),
            reset_duration_ms=by_duration_ms(overrides.str_value(group_id, SHARE_AUTO_OFFSET_RESET, "latest")),
            isolation_level=overrides.str_value(group_id, SHARE_ISOLATION_LEVEL, "read_uncommitted"))

    def _group_coordinator(self, num_partitions: int) -> GroupCoordinator:
        """The group coordinator over this broker's `num_partitions` __consumer_offsets
        replicas, per the group.* and offsets.* configs."""
        config = self.config
        return GroupCoordinator(
            config.broker_id, LocalCoordinatorPartitions(self.replica_manager),
            num_partitions=num_partitions,
            min_session_timeout_ms=config["group.min.session.timeout.ms"],
            max_session_timeout_ms=config["group.max.session.timeout.ms"],
            initial_rebalance_delay_ms=config["group.initial.rebalance.delay.ms"],
            offsets_retention_ms=config["offsets.retention.minutes"] * 60_000,
            retention_check_interval_ms=config["offsets.retention.check.interval.ms"],
            max_metadata_bytes=config["offset.metadata.max.bytes"],
            group_max_size=config["group.max.size"],
            commit_timeout_ms=config["offsets.commit.timeout.ms"],
            time=self.time, scheduler=self.scheduler)

    def _on_txn_markers_written(self, producer_id: int, commit: bool, partitions: list[tuple[str, int]]) -> None:
        """Markers reached __consumer_offsets partitions: the transaction's offsets there
        become committed or are dropped (Kafka's onTransactionCompleted)."""
        offsets_partitions = [p for topic, p in partitions if topic == OFFSETS_TOPIC]
        if offsets_partitions and self.group_coordinator is not None:
            self.group_coordinator.complete_txn_offsets(producer_id, commit, offsets_partitions)

    def _transaction_coordinator(self, markers: TransactionMarkerChannelManager,
                                 num_partitions: int) -> TransactionCoordinator:
        """The transaction coordinator over this broker's `num_partitions` __transaction_state
        replicas, per the transaction.* configs."""
        config = self.config
        state = TransactionStateManager(config.broker_id, LocalCoordinatorPartitions(self.replica_manager),
                                        num_partitions, self.time, self.scheduler,
                                        transaction_version=self._finalized_transaction_version)
        return TransactionCoordinator(config.broker_id, state, markers, TransactionConfig(
            max_timeout_ms=config["transaction.max.timeout.ms"],
            abort_interval_ms=config["transaction.abort.timed.out.transaction.cleanup.interval.ms"],
            id_expiration_ms=config["transactional.id.expiration.ms"],
            remove_expired_interval_ms=config["transaction.remove.expired.transaction.cleanup.interval.ms"]),
            self.time, self.scheduler)

    def _finalized_transaction_version(self) -> int:
        """The finalized transaction.version (0 when not finalized, as in Kafka)."""
        return self.finalized_features.snapshot()[1].get(TRANSACTION_VERSION, 0)

    async def _register_broker(self) -> None:
        """Ephemeral /brokers/ids/<id>; its creation id is the broker epoch (KIP-380). After
        a crash the old ZooKeeper session may hold it until the session times out, so wait
        for it to go, as Kafka does."""
        path = f"{BROKERS_IDS}/{self.config.broker_id}"
        info = self.broker_info
        data = json.dumps(info.to_json()).encode()
        wait_s = self.config["zookeeper.session.timeout.ms"] / 1000 + 10
        deadline = asyncio.get_running_loop().time() + wait_s
        self.broker_epoch.registering = True
        waiting = False
        while True:
            try:
                self.broker_epoch.epoch = await asyncio.to_thread(self._store.create, path, data, True)
                self.broker_epoch.registering = False
                log.info("Registered broker %d at path %s with broker epoch %d", self.config.broker_id, path,
                         self.broker_epoch.epoch)
                if self.broker_info != info:  # advertised.listeners changed while it registered
                    self.store_executor.submit(self._update_broker_info, self.broker_info)
                return
            except NodeExistsError:
                if asyncio.get_running_loop().time() > deadline:
                    raise RuntimeError(f"broker.id {self.config.broker_id} is already registered at {path} by "
                                       f"another live ZooKeeper session: is another broker running with "
                                       f"broker.id={self.config.broker_id}?") from None
                if not waiting:  # Kafka fails at once; josefk lets a crashed predecessor's session expire
                    log.warning("%s already exists: another broker holds broker.id %d, or this broker's previous "
                                "session has not expired yet; waiting up to %.0f s for it to go",
                                path, self.config.broker_id, wait_s)
                    waiting = True
                await asyncio.sleep(0.5)

    def _controller_node(self) -> BrokerInfo | None:
        """The controller as the last UpdateMetadata named it, on the inter-broker listener."""
        cache = self.metadata_cache
        return cache.brokers.get(cache.controller_id)

    def _on_session_lost(self) -> None:
        log.error("Lost the coordination store session; resigning as controller")
        self.controller_events.clear_and_put(Event.EXPIRE, self.controller.resign)

    def _on_new_session(self) -> None:
        """A new ZooKeeper session: register again and stand for controller election."""
        async def reregister() -> None:
            await self._register_broker()
            await self.controller_events.call(Event.STARTUP, self.controller.startup)

        self.background_tasks.append(asyncio.get_running_loop().create_task(reregister()))

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return self.acceptor.port

    async def _handler_loop(self, channel: RequestChannel) -> None:
        """One KafkaRequestHandler: take requests off the channel and run KafkaApis."""
        while (request := await channel.receive_request()) is not None:
            if not request.hold(self._handle):  # a throttled connection's wait their turn
                self._handle(request)

    def _handle(self, request: Request[ApiMessage]) -> None:
        current_request.set(request)  # also when a throttle's end hands it over, outside the handler task
        request.dequeued_ns = started = time.monotonic_ns()
        self.apis.handle(request)
        request.local_done_ns = done = time.monotonic_ns()
        self.broker_metrics.handlers.busy_ns += done - started

    async def _flush_loop(self) -> None:
        """Flush logs per flush.ms / flush.messages and checkpoint recovery points, off the
        request path: every fsync (data and checkpoint files) runs in a worker thread."""
        interval = min(self.config["log.flush.scheduler.interval.ms"], 1_000) / 1000
        while True:
            await asyncio.sleep(interval)
            await asyncio.to_thread(self.log_manager.flush_dirty_logs)
            await asyncio.to_thread(self.log_manager.checkpoint_recovery_points)

    async def _replication_loop(self) -> None:
        """Leaders shrink ISRs of followers that fell behind (every replica.lag.time.max.ms / 2),
        and high watermarks are checkpointed."""
        interval = self.config["replica.lag.time.max.ms"] / 2000
        while True:
            await asyncio.sleep(min(interval, 5.0))
            self.replica_manager.maybe_shrink_isrs()
            snapshot = self.replica_manager.high_watermark_snapshot()
            await asyncio.to_thread(self.replica_manager.write_high_watermarks, snapshot)

    async def _leader_rebalance_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config["leader.imbalance.check.interval.seconds"])
            self.controller_events.put(Event.AUTO_PREFERRED_REPLICA_LEADER_ELECTION, functools.partial(
                self.controller.rebalance_preferred_leaders, self.config["leader.imbalance.per.broker.percentage"]))

    async def _token_expiry_loop(self) -> None:
        """Kafka's controller task delete-expired-tokens: while this broker is the controller,
        every delegation.token.expiry.check.interval.ms, tokens past their expiry are removed."""
        interval_s = self.tokens.settings.expiry_check_interval_ms / 1000
        loop = asyncio.get_running_loop()
        while True:
            if self.controller.active:
                await loop.run_in_executor(self.store_executor, self.tokens.expire_tokens)
            await asyncio.sleep(interval_s)

    async def _retention_loop(self) -> None:
        """Kafka's log retention task: every log.retention.check.interval.ms, delete whole
        segments past retention.ms / retention.bytes (the active one too, as Kafka's deletableSegments)."""
        while True:
            await asyncio.sleep(self.config["log.retention.check.interval.ms"] / 1000)
            deleted = self.log_manager.cleanup_logs()
            if deleted:
                log.info("Retention deleted %d segments", deleted)

    async def _producer_expiration_loop(self) -> None:
        """Kafka's producer id expiration check; producer.id.expiration.ms is dynamic, so it
        is read at each pass."""
        while True:
            await asyncio.sleep(self.config["producer.id.expiration.check.interval.ms"] / 1000)
            self.log_manager.remove_expired_producers(self.config["producer.id.expiration.ms"])

    async def _cleaner_loop(self) -> None:
        """Kafka's LogCleaner thread: compact the dirtiest cleanup.policy=compact log, then
        the next; sleep log.cleaner.backoff.ms when none is due. Segment reading and writing
        run in a worker thread on immutable (non-active) segments; the swap happens here on
        the loop (LogCleaner.clean_once_async), so Logs stay single-threaded."""
        if not self.config["log.cleaner.enable"]:
            return
        backoff = self.config["log.cleaner.backoff.ms"] / 1000
        cleaner = LogCleaner(self.log_manager, backoff_ms=self.config["log.cleaner.backoff.ms"],
                             last_stable_offset=self.replica_manager.last_stable_offset_of)
        while True:
            try:
                cleaned = await cleaner.clean_once_async()
            except Exception:  # noqa: BLE001 - one bad log must not stop compaction
                log.exception("Log cleaner pass failed")
                cleaned = 0
            await asyncio.sleep(0 if cleaned else backoff)

    async def _controlled_shutdown(self) -> None:
        """Ask the controller to move this broker's leaderships away while it still serves
        (Kafka's controlled shutdown), retrying controlled.shutdown.max.retries times. It
        stops following first, so no leader readmits it to an ISR the controller took it out of."""
        attempts = self.config["controlled.shutdown.max.retries"]
        backoff = self.config["controlled.shutdown.retry.backoff.ms"] / 1000
        broker_id = self.config.broker_id
        log.info("[KafkaServer id=%d] Starting controlled shutdown", broker_id)
        await self.replica_manager.stop_fetching()
        for attempt in range(1, attempts + 1):
            try:
                code, remaining = await self._request_controlled_shutdown()
            except CONTROLLED_SHUTDOWN_FAILURES as e:
                code, remaining = None, []
                log.warning("Controlled shutdown request failed: %s", str(e) or type(e).__name__)
            if code == ErrorCode.NONE and not remaining:
                log.info("[KafkaServer id=%d] Controlled shutdown request returned successfully", broker_id)
                return
            if code is not None:
                log.info("Controlled shutdown: error %s, remaining partitions to move: %s", ErrorCode(code).name,
                         ", ".join(f"{t}-{p}" for t, p in remaining))
            if attempt < attempts:
                log.info("Retrying controlled shutdown (%d more retries)", attempts - attempt)
                await asyncio.sleep(backoff)
        log.warning("Proceeding to do an unclean shutdown as all the controlled shutdown attempts failed")

    async def _request_controlled_shutdown(self) -> tuple[int, list[tuple[str, int]]]:
        found = await asyncio.to_thread(self._store.get_json, CONTROLLER)
        if found is None:
            raise ValueError("no controller")
        controller_id = found["brokerid"]
        epoch = self.broker_epoch.epoch
        if controller_id == self.config.broker_id and self.controller.active:
            return await self.controller_events.call(
                Event.CONTROLLED_SHUTDOWN, lambda: self.controller.controlled_shutdown(controller_id, epoch))
        info = await asyncio.to_thread(self._store.get_json, f"{BROKERS_IDS}/{controller_id}")
        if info is None:
            raise ValueError(f"controller {controller_id} is not registered")
        controller = BrokerInfo.from_json(controller_id, info, listener=self.config.inter_broker_listener)
        return await request_controlled_shutdown(controller, self.config.broker_id, epoch,
                                                 self.config.inter_broker_security)

    async def shutdown(self) -> None:
        log.info("[KafkaServer id=%d] shutting down", self.config.broker_id)
        self.ready = False
        self.shutting_down = True
        if self.config["controlled.shutdown.enable"] and hasattr(self, "controller") and self.handler_tasks:
            await self._controlled_shutdown()
        for acceptor in self.acceptors:
            await acceptor.close()
        for task in self.background_tasks:
            task.cancel()
        if self.handler_tasks:
            await self.channel.shutdown(len(self.handler_tasks))
            await asyncio.gather(*self.handler_tasks, return_exceptions=True)
        if hasattr(self, "replica_manager"):
            self.replica_manager.stop_verifying()  # before their connections close, which would answer them
        if self.group_coordinator is not None:
            self.group_coordinator.shutdown()  # stop its timers, answer its parked requests
        if self.txn_coordinator is not None:
            self.txn_coordinator.shutdown()
        if self.txn_markers is not None:
            await self.txn_markers.shutdown()
        if self.txn_verifier is not None:
            await self.txn_verifier.shutdown()
        if self.share_persister is not None:
            self.share_persister.close()
        if hasattr(self, "controller"):
            self.controller_events.put(Event.SHUTDOWN_EVENT_THREAD, self.controller.shutdown)
        await asyncio.to_thread(self.controller_events.close)
        if hasattr(self, "replica_manager"):
            self.replica_manager.shutdown()
            self.log_manager.shutdown()
        self.store_executor.shutdown(wait=True, cancel_futures=True)
        if self.store is not None:
            self.store.close()
        if self.metrics_server is not None:
            await self.metrics_server.close()
        log.info("[KafkaServer id=%d] shut down completed", self.config.broker_id)
        self.stopped.set()
